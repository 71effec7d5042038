// Strict conversion of option values and shell quoting for the recorded command line (private to config).
#pragma once

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace mdbench::config_detail {

inline constexpr std::uint64_t kMaxIoBytes = std::uint64_t{1} << 30;

// A value or the reason it was refused ("'x' is not a whole number"), without the option name.
struct Converted {
  std::uint64_t value = 0;
  std::optional<std::string> problem;
};

// Digits only, whole string: no sign, no blanks, no exponent, no fraction. from_chars refuses a
// leading '-' for unsigned types, so "-5" is "not a whole number" rather than a wrapped huge value.
inline Converted toWholeNumber(std::string_view text, std::uint64_t max) {
  if (text.empty()) return {0, "empty value, expected a whole number"};
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::invalid_argument || ptr != end) {
    return {0, fmt::format("'{}' is not a whole number", text)};
  }
  if (ec == std::errc::result_out_of_range || value > max) {
    return {0, fmt::format("'{}' is out of range (at most {})", text, max)};
  }
  return {value, std::nullopt};
}

// A byte count: a whole number, optionally followed by k/K, m/M or g/G (powers of 1024), at most 1 GiB.
inline Converted toByteCount(std::string_view text) {
  if (text.empty()) return {0, "empty value, expected a byte count"};
  unsigned shift = 0;
  switch (text.back()) {
    case 'k':
    case 'K':
      shift = 10;
      break;
    case 'm':
    case 'M':
      shift = 20;
      break;
    case 'g':
    case 'G':
      shift = 30;
      break;
    default:
      break;
  }
  const std::string_view digits = shift == 0 ? text : text.substr(0, text.size() - 1);
  const Converted number = toWholeNumber(digits, std::numeric_limits<std::uint64_t>::max());
  const bool too_large = number.problem.has_value() && !digits.empty() &&
                         digits.find_first_not_of("0123456789") == std::string_view::npos;
  if (number.problem && !too_large) {
    return {0, fmt::format("'{}' is not a byte count (a whole number, optionally with k, m or g)", text)};
  }
  if (too_large || number.value > (kMaxIoBytes >> shift)) {
    return {0, fmt::format("'{}' is more than 1 GiB", text)};
  }
  return {number.value << shift, std::nullopt};
}

// Quotes an argument for a POSIX shell only when it needs it: 'it'\''s' for it's.
inline std::string shellQuote(std::string_view arg) {
  constexpr std::string_view kSafe =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-";
  if (!arg.empty() && arg.find_first_not_of(kSafe) == std::string_view::npos) return std::string(arg);
  std::string quoted = "'";
  for (const char c : arg) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  quoted += '\'';
  return quoted;
}

}  // namespace mdbench::config_detail
