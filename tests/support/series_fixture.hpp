// Synthetic ops-over-time series for tests: one row of successful ops per interval for each rank.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "mdbench/model/ops_series.hpp"

namespace mdbench::series_test {

// The rows as per-rank counts of 0.5 s intervals, and their sums.
inline OpsSeries series(std::initializer_list<std::initializer_list<std::uint32_t>> rows) {
  OpsSeries s;
  s.interval_s = 0.5;
  s.intervals = static_cast<std::uint32_t>(rows.begin()->size());
  s.total.assign(s.intervals, 0);
  for (const auto& row : rows) {
    std::uint32_t k = 0;
    for (const std::uint32_t count : row) {
      s.per_rank.push_back(count);
      s.total[k++] += count;
    }
  }
  return s;
}

}  // namespace mdbench::series_test
