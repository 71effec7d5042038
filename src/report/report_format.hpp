// Number formats shared by the report's tables and its throughput-over-time charts (report.cpp,
// timeline.cpp): private to the report module.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "mdbench/model/rate_timing.hpp"

namespace mdbench::report_format {

// 850 us, 12.3 ms, 1.5 s: as the console and check name a phase's time (model's rate_timing.hpp).
inline std::string formatSeconds(double s) { return durationText(s); }

// "1 rank", "4 ranks", "1 client".
inline std::string countOf(std::uint32_t n, const std::string& plural_unit) {
  return n == 1 && plural_unit.ends_with('s')
             ? fmt::format("1 {}", plural_unit.substr(0, plural_unit.size() - 1))
             : fmt::format("{} {}", n, plural_unit);
}

}  // namespace mdbench::report_format
