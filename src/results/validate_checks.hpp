// Comparisons shared by the consistency checks of `mdbench validate` (validate.cpp, validate_steady.cpp):
// each fails with a Problem naming the object, the field, what was expected and why, and what was found.
// Private to src/validate*.cpp.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

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

}  // namespace mdbench::validation
