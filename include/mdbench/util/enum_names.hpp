// An enum's names as one table, read in both directions: a value's name for output and the results file,
// and the value a name spells for options and files read back. Each enum has one such table, beside its
// definition, and every spelling of its values goes through it.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mdbench {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

template <class E, std::size_t N>
using EnumNames = std::array<EnumName<E>, N>;

// The value's name; "?" for a value the table lacks (a value cast from a number nobody defined).
template <class E, std::size_t N>
constexpr std::string_view nameOf(const EnumNames<E, N>& names, E value) {
  for (const EnumName<E>& n : names) {
    if (n.value == value) return n.name;
  }
  return "?";
}

// The value `name` spells, exactly (case and all); nullopt for any other text.
template <class E, std::size_t N>
constexpr std::optional<E> valueOf(const EnumNames<E, N>& names, std::string_view name) {
  for (const EnumName<E>& n : names) {
    if (n.name == name) return n.value;
  }
  return std::nullopt;
}

// The names for a message: "a, b or c".
template <class E, std::size_t N>
std::string namesText(const EnumNames<E, N>& names) {
  std::string text;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) text += i + 1 == N ? " or " : ", ";
    text += names[i].name;
  }
  return text;
}

}  // namespace mdbench
