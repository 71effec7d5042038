// Number formats shared by the report's tables and its throughput-over-time charts (report.cpp,
// timeline.cpp, report_failover.cpp): private to the report module.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "mdbench/model/rate_timing.hpp"

namespace mdbench::report_format {

// 850 us, 12.3 ms, 1.5 s: as the console and check name a phase's time (model's rate_timing.hpp).
inline std::string formatSeconds(double s) { return durationText(s); }

// Three significant digits in the largest unit that keeps the number at least 1: 850 ns, 1.73 us, 12.5 ms.
inline std::string formatLatency(std::uint64_t ns) {
  const auto value = static_cast<double>(ns);
  if (ns >= 1'000'000'000) return fmt::format("{:.3g} s", value / 1e9);
  if (ns >= 1'000'000) return fmt::format("{:.3g} ms", value / 1e6);
  if (ns >= 1'000) return fmt::format("{:.3g} us", value / 1e3);
  return fmt::format("{} ns", ns);
}

// "1 rank", "4 ranks", "1 client".
inline std::string countOf(std::uint32_t n, const std::string& plural_unit) {
  return n == 1 && plural_unit.ends_with('s')
             ? fmt::format("1 {}", plural_unit.substr(0, plural_unit.size() - 1))
             : fmt::format("{} {}", n, plural_unit);
}

}  // namespace mdbench::report_format
