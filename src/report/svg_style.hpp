// How a chart's series look (palette, marker shapes, line strokes) and the chart's inks: svg_chart.cpp draws
// with them, so that a configuration looks the same wherever it is drawn.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "mdbench/report/chart.hpp"
#include "svg_writer.hpp"

namespace mdbench::svg {

inline constexpr std::string_view kInk = "#222222";
inline constexpr std::string_view kMutedInk = "#555555";
inline constexpr std::string_view kGrid = "#e3e3e3";

// Okabe-Ito: distinguishable with the common colour vision deficiencies; yellow last, as it is faint on
// white. Each series also gets its own marker shape, so the chart survives greyscale printing.
inline constexpr std::array<std::string_view, 8> kPalette = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                             "#E69F00", "#56B4E9", "#000000", "#F0E442"};

struct Style {
  std::string_view colour;
  Marker marker;
  SeriesLook look = SeriesLook::kMarkers;
  std::size_t round = 0;  // how often the palette has gone round before this series
};

// Past eight series the colours repeat, shifted against the shapes so no two series look the same.
Style styleFor(std::size_t index, SeriesLook look = SeriesLook::kMarkers);

// The stroke of a series' line. Lines without markers tell repeated colours apart by their dashes.
struct Stroke {
  std::string colour;
  std::string width;
  std::string dash;  // "" for solid
  std::string opacity;
};
Stroke strokeOf(const Style& style);
Attrs strokeAttrs(const Stroke& stroke);

// "bold", "thin" or "markers": a series' data-look.
std::string_view lookName(SeriesLook look);

// A marker of the series' shape; `extra` carries the class and data- attributes.
void marker(Writer& w, const Style& style, double x, double y, double r, Attrs extra);

}  // namespace mdbench::svg
