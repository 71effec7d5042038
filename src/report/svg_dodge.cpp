// svg_dodge.hpp's dodge of markers that meet.
#include "svg_dodge.hpp"

#include <algorithm>
#include <cstddef>
#include <map>

namespace mdbench::svg {
namespace {

// The step between the markers of one place: `step`, or less when the places are so close that `step`
// would carry a marker past most of the way to its neighbour's place.
double stepAt(const std::vector<double>& places, std::size_t markers, double step) {
  double gap = 1e300;
  for (std::size_t i = 1; i < places.size(); ++i) gap = std::min(gap, places[i] - places[i - 1]);
  if (markers < 2) return step;
  return std::max(2.0, std::min(step, 0.8 * gap / static_cast<double>(markers - 1)));
}

}  // namespace

Dodges dodgeMarkers(const std::vector<MarkerPlace>& markers, const std::vector<std::size_t>& sizes,
                    double step) {
  Dodges dodges;
  for (const std::size_t size : sizes) dodges.emplace_back(size, 0.0);
  std::map<double, std::vector<MarkerPlace>> by_x;
  for (const MarkerPlace& m : markers) by_x[m.value_x].push_back(m);
  std::vector<double> places;
  for (const auto& [value, column] : by_x) places.push_back(column.front().x);
  std::sort(places.begin(), places.end());
  for (auto& [value, column] : by_x) {
    std::stable_sort(column.begin(), column.end(),
                     [](const MarkerPlace& a, const MarkerPlace& b) { return a.y < b.y; });
    // Runs of markers each closer than `step` to the one before.
    for (std::size_t start = 0; start < column.size();) {
      std::size_t end = start + 1;
      while (end < column.size() && column[end].y - column[end - 1].y < step) ++end;
      std::vector<MarkerPlace> run(column.begin() + static_cast<std::ptrdiff_t>(start),
                                   column.begin() + static_cast<std::ptrdiff_t>(end));
      start = end;
      if (run.size() < 2) continue;
      std::stable_sort(run.begin(), run.end(),
                       [](const MarkerPlace& a, const MarkerPlace& b) { return a.series < b.series; });
      const double apart = stepAt(places, run.size(), step);
      const double middle = static_cast<double>(run.size() - 1) / 2;
      for (std::size_t j = 0; j < run.size(); ++j) {
        dodges[run[j].series][run[j].point] = (static_cast<double>(j) - middle) * apart;
      }
    }
  }
  return dodges;
}

}  // namespace mdbench::svg
