// Markers of several series that would sit on top of one another in a chart, set side by side (a dodge):
// pure pixel arithmetic for svg_chart.cpp, so that no configuration hides another.
#pragma once

#include <cstddef>
#include <vector>

namespace mdbench::svg {

// One marker where it would be drawn: its series and point, its x value (markers of one x value share a
// place) and its pixel position.
struct MarkerPlace {
  std::size_t series = 0, point = 0;
  double value_x = 0.0;
  double x = 0.0, y = 0.0;
};

// Pixels along x by which each point's marker is moved off its place: dodges[series][point] (0 for a
// marker that meets no other). At each x value, markers of different series closer than `step` pixels
// (one after the other, by y) are spread around their place `step` apart in series order, or closer when
// the places are so near that `step` would carry a marker to the next one. `sizes`: each series' points.
using Dodges = std::vector<std::vector<double>>;
Dodges dodgeMarkers(const std::vector<MarkerPlace>& markers, const std::vector<std::size_t>& sizes,
                    double step);

}  // namespace mdbench::svg
