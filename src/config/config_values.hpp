// Strict conversion of option values, -d lists and shell quoting for the recorded command line (private to
// config).
#pragma once

#include <fmt/format.h>

#include <charconv>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace mdbench::config_detail {

inline constexpr std::uint64_t kMaxIoBytes = std::uint64_t{1} << 30;
// Longest -W and -p: far beyond any job, and small enough for any clock's duration type (ns in int64).
inline constexpr std::uint32_t kMaxSeconds = 1000000;

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

struct ConvertedSeconds {
  double value = 0.0;
  std::optional<std::string> problem;
};

inline bool allDigits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// Plain decimals only, digits with an optional fraction ("300", "0.5"): no sign, blank, exponent, "inf" or
// "nan", all of which from_chars would take and none of which a job script means.
inline ConvertedSeconds toSeconds(std::string_view text) {
  if (text.empty()) return {0.0, "empty value, expected a number of seconds"};
  const std::size_t dot = text.find('.');
  const bool plain =
      allDigits(text.substr(0, dot)) && (dot == std::string_view::npos || allDigits(text.substr(dot + 1)));
  if (!plain) {
    return {0.0, fmt::format("'{}' is not a number of seconds (digits, optionally with a fraction: 300, 0.5)",
                             text)};
  }
  double value = 0.0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || value > kMaxSeconds) {  // out_of_range: overflow, or a fraction that underflows
    return {0.0, fmt::format("'{}' is out of range (at most {} seconds)", text, kMaxSeconds)};
  }
  return {value, std::nullopt};
}

// "a@b@c" -> {a, b, c}, as mdtest splits -d; nullopt when a part is empty ("a@@b", "a@", "@a"). "\@" is an
// '@' that belongs to a directory's name ("run\@2@other": {"run@2", "other"}); any other backslash is kept.
inline std::optional<std::vector<std::string>> splitTargets(std::string_view text) {
  std::vector<std::string> parts(1);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '@') {
      parts.back().push_back('@');
      ++i;
    } else if (text[i] == '@') {
      if (parts.back().empty()) return std::nullopt;
      parts.emplace_back();
    } else {
      parts.back().push_back(text[i]);
    }
  }
  if (parts.back().empty()) return std::nullopt;
  return parts;
}

// --sweep's list: rank counts separated by commas ("1,2,4,8"), each a whole number >= 1, strictly increasing.
struct ConvertedSteps {
  std::vector<std::uint32_t> steps;
  std::optional<std::string> problem;
};

inline ConvertedSteps toStepList(std::string_view text) {
  if (text.empty()) return {{}, "empty value, expected rank counts (1,2,4,8) or pow2"};
  std::vector<std::uint32_t> steps;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    const std::string_view part = text.substr(start, comma == std::string_view::npos ? comma : comma - start);
    const Converted number = toWholeNumber(part, std::numeric_limits<std::uint32_t>::max());
    if (part.empty())
      return {{}, fmt::format("'{}' has an empty step (one comma between two rank counts)", text)};
    if (number.problem) {
      return {{},
              fmt::format("'{}': {} (expected rank counts such as 1,2,4,8, or pow2)", text, *number.problem)};
    }
    if (number.value == 0) return {{}, fmt::format("'{}': a step needs at least 1 rank, got 0", text)};
    if (!steps.empty() && number.value <= steps.back()) {
      return {{},
              fmt::format("'{}': steps must be strictly increasing ({} after {})", text, number.value,
                          steps.back())};
    }
    steps.push_back(static_cast<std::uint32_t>(number.value));
    if (comma == std::string_view::npos) return {steps, std::nullopt};
    start = comma + 1;
  }
}

// The kernel's limits on a path given to a system call (PATH_MAX counts the terminating NUL) and on one
// name in it. Checked when parsing, so that a mistyped path is a usage error before anything is touched,
// not a failure after the results file was opened or a phase ran.
inline constexpr std::size_t kMaxPathBytes = PATH_MAX - 1;
inline constexpr std::size_t kMaxNameBytes = NAME_MAX;

// A long path or name shown in a message: its first 40 bytes and its length.
inline std::string abbreviated(std::string_view text) {
  constexpr std::size_t kShown = 40;
  if (text.size() <= kShown) return fmt::format("'{}'", text);
  return fmt::format("'{}...' ({} bytes)", text.substr(0, kShown), text.size());
}

// Why the kernel would refuse this path, or nullopt. The last name may be limited further: a file written
// through a sibling "NAME.tmp" needs room for the suffix.
inline std::optional<std::string> pathProblem(std::string_view path,
                                              std::size_t max_last_name = kMaxNameBytes) {
  if (path.size() > kMaxPathBytes) {
    return fmt::format("{} is longer than the limit of {} bytes for a path", abbreviated(path),
                       kMaxPathBytes);
  }
  for (std::size_t start = 0; start < path.size();) {
    const std::size_t slash = path.find('/', start);
    const bool last = slash == std::string_view::npos;
    const std::string_view name = path.substr(start, last ? slash : slash - start);
    const std::size_t limit = last ? max_last_name : kMaxNameBytes;
    if (name.size() > limit) {
      return fmt::format("the name {} in it is longer than the limit of {} bytes{}", abbreviated(name), limit,
                         limit < kMaxNameBytes ? " (the file is written through NAME.tmp first)" : "");
    }
    if (last) break;
    start = slash + 1;
  }
  return std::nullopt;
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
