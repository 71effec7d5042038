// Number formats shared by the report's tables and its throughput-over-time charts (report.cpp,
// timeline.cpp): private to the report module.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace mdbench::report_format {

// Three significant digits in the largest unit that keeps the number at least 1: 850 us, 12.3 ms, 1.5 s.
inline std::string formatSeconds(double s) {
  if (s >= 1.0 || s <= 0.0) return fmt::format("{:.3g} s", s);
  if (s >= 1e-3) return fmt::format("{:.3g} ms", s * 1e3);
  return fmt::format("{:.3g} us", s * 1e6);
}

// "1 rank", "4 ranks", "1 client".
inline std::string countOf(std::uint32_t n, const std::string& plural_unit) {
  return n == 1 && plural_unit.ends_with('s')
             ? fmt::format("1 {}", plural_unit.substr(0, plural_unit.size() - 1))
             : fmt::format("{} {}", n, plural_unit);
}

}  // namespace mdbench::report_format
