// Comparisons shared by the consistency checks of `mdbench validate` (validate.cpp, validate_steady.cpp):
// each fails with a Problem naming the object, the field, what was expected and why, and what was found.
// Private to src/validate*.cpp.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "results_attributes.hpp"
#include "validate_structure.hpp"

namespace mdbench::validation {

// Doubles are compared with a relative tolerance of 1e-9: the writer uses the same formulas
// (metrics.hpp), so they normally agree bit for bit, but a file rewritten by another tool or a writer that
// sums in another order may differ in the last bits, while a real inconsistency is far larger. `scale` is
// the magnitude the rounding error is relative to when that is not the value itself (a standard deviation
// of nearly equal rates is tiny, but its rounding error follows the rates).
constexpr double kRelativeTolerance = 1e-9;

inline bool nearlyEqual(double expected, double found, double scale = 0.0) {
  if (expected == found) return true;
  if (!std::isfinite(expected) || !std::isfinite(found)) return false;
  const double magnitude = std::max({std::fabs(expected), std::fabs(found), std::fabs(scale)});
  return std::fabs(expected - found) <= kRelativeTolerance * magnitude;
}

template <typename T>
void expectEqual(const std::string& object, std::string_view name, T expected, T found,
                 std::string_view how) {
  if (expected != found) {
    fail(object, fmt::format("{}: expected {} ({}), found {}", name, expected, how, found));
  }
}

inline void expectNear(const std::string& object, std::string_view name, double expected, double found,
                       std::string_view how, double scale = 0.0) {
  if (!nearlyEqual(expected, found, scale)) {
    fail(object, fmt::format("{}: expected {} ({}), found {}", name, expected, how, found));
  }
}

// Which rows of a table expectAttributes compares: all of them, or only the exact ones (counts and flags)
// or only the doubles.
enum class Rows : std::uint8_t { kAll, kExact, kNear };

// Each attribute of the table, as recomputed (`want`) against as stored (`got`), in the table's order: counts
// and flags exactly, doubles within kRelativeTolerance. `op` is the op type of a steady op's attributes, in
// their names (results::attributeName) and in the table's how.
template <class Table, class S>
void expectAttributes(const std::string& object, const Table& table, const S& want, const S& got,
                      std::string_view op = {}, Rows rows = Rows::kAll) {
  for (const auto& row : table) {
    std::visit(
        [&](auto member) {
          constexpr bool kDouble = std::is_same_v<std::remove_cvref_t<decltype(want.*member)>, double>;
          if (rows == (kDouble ? Rows::kExact : Rows::kNear)) return;
          const std::string name = results::attributeName(op, row.name);
          const std::string how = fmt::format(fmt::runtime(row.how), op);
          if constexpr (kDouble) {
            expectNear(object, name, want.*member, got.*member, how);
          } else {
            expectEqual(object, name, want.*member, got.*member, how);
          }
        },
        row.member);
  }
}

}  // namespace mdbench::validation
