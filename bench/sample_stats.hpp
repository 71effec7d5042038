// Order statistics of a benchmark's samples (a few dozen values), for the bench programs' summaries.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace mdbench::bench {

// The q-quantile (q in [0, 1]) by linear interpolation between order statistics; 0 for no samples.
inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto low = static_cast<std::size_t>(at);
  const std::size_t high = std::min(low + 1, v.size() - 1);
  return v[low] + (v[high] - v[low]) * (at - static_cast<double>(low));
}

inline double median(std::vector<double> v) { return quantile(std::move(v), 0.5); }

}  // namespace mdbench::bench
