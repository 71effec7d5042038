// Charts of scaling curves for reports: a plain chart spec in, standalone SVG text out (and SVG to PNG).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mdbench/util/file_io.hpp"

namespace mdbench {

enum class XScale : std::uint8_t {
  kAuto,    // log2 when every x > 0 and max/min >= 4, linear otherwise
  kLinear,  // nice ticks
  kLog2,    // ticks at the data's x values (1, 2, 4, ... 1024); linear if some x <= 0
};

// One measurement. An error bar is drawn from y_low to y_high when y_low < y_high (set both to y for
// none). Points with a non-finite coordinate are not drawn.
struct ChartPoint {
  double x = 0.0;
  double y = 0.0;
  double y_low = 0.0;
  double y_high = 0.0;
};

// How a series is drawn. Scaling curves have few points, each a measurement; a time series has hundreds,
// and the eye follows the line, not the points.
enum class SeriesLook : std::uint8_t {
  kMarkers,   // a line through a marker at every point, with error bars
  kBoldLine,  // a thick dark line without markers, drawn after every other series: a sum over its parts
  kThinLine,  // a thin line without markers in the series' colour, dashed once the palette's colours repeat
};

struct ChartSeries {
  std::string label;
  std::vector<ChartPoint> points;
  std::optional<std::size_t> peak{};        // index into points: highlighted, labelled "peak Y"
  std::optional<std::size_t> saturation{};  // index into points: dashed line labelled "saturates at X"
  SeriesLook look = SeriesLook::kMarkers;   // a line look draws a marker only for a lone point
  // The series' slot in the palette (colour and marker). Charts of one report give a configuration the same
  // slot in every figure; unset: the series' index in its chart (renderSvg) or the order in which labels
  // first appear (renderPanels).
  std::optional<std::size_t> style{};
};

// A stretch of the x axis shaded over the plot's height (a stall), labelled; from and to in x's units.
struct ChartBand {
  double from = 0.0;
  double to = 0.0;
  std::string label;
};

// A vertical line across the plot at x (a fault injected), labelled beside it.
struct ChartMark {
  double x = 0.0;
  std::string label;
};

// How the y axis and the peak label write numbers.
enum class YNumbers : std::uint8_t {
  kSi,     // formatSi: "50k", "1.5M" (decimal quantities: ops/s)
  kPlain,  // formatPlain: no SI prefix, for a binary unit (GiB/s) that must never read "2.26k"
};

// Axis labels carry their units ("ranks", "file-create (ops/s)"); the renderer adds none, except value_unit
// after the peak's value ("peak 2.26 GiB/s").
struct ChartSpec {
  std::string title;
  std::string subtitle;  // optional second line under the title
  std::string x_label;
  std::string y_label;
  XScale x_scale = XScale::kAuto;
  std::optional<double> reference_y;  // dashed horizontal line, e.g. the baseline 1.0 of a relative chart
  std::string reference_label;        // its text; the value itself when empty
  std::string value_unit;             // "" or the unit of y, for the peak label
  YNumbers y_numbers = YNumbers::kSi;
  std::vector<ChartSeries> series;
  std::vector<ChartBand> bands;  // behind the series; a band or mark outside the data widens the x axis
  std::vector<ChartMark> marks;  // over the series
  int width = 800;               // pixels; at least 240 x 180 is used
  int height = 500;
};

// A standalone SVG 1.1 document. Deterministic: the same spec gives the same bytes. Elements carry
// classes and data- attributes for machines (see tests/e2e/check_svg.py): g.series[data-series] (and
// data-colour, data-marker for a series of markers), every marker with data-marker (its shape's name) and
// a legend marker with data-series,
// .point[data-x][data-y], line.error-bar[data-x][data-low][data-high], g.peak, g.saturation, g.reference,
// text.title, text.axis-label.x|y, text.tick-label.x|y, g.legend with text.legend-label. A series of a
// line look has data-look="bold|thin", and its polyline.line data-values="x,y x,y ..." (data, not pixels).
// A band is a g.band[data-from][data-to] holding rect.band-area (its label, text.band-label, follows in a
// g.band-note[data-from] after the series); a mark a g.mark[data-x] holding line.mark-line and
// text.mark-label.
std::string renderSvg(const ChartSpec& spec);

// Small multiples: the charts in a grid of `columns` (clamped to 1..charts) under one title, each in a
// g.panel[data-title] with its own axes, and one legend shared by all panels. A label has the same colour
// and marker in every panel. Cells are as large as the largest chart.
std::string renderPanels(const std::vector<ChartSpec>& charts, int columns, const std::string& title);

// Converts an SVG file to PNG with rsvg-convert (librsvg2-bin), run without a shell. Throws
// std::runtime_error when rsvg-convert is not installed, the input cannot be read, it fails, or the PNG
// cannot be put in place; the PNG is a new file renamed into place, taking the place of what `replace`
// allows.
void svgToPng(const std::string& svg_path, const std::string& png_path, Replace replace = Replace::kNothing);

// Axis helpers, public for tests and for callers that format numbers like the charts do.

// Ascending ticks covering [lo, hi]: 4 to 8 multiples of a step of 1, 2, 2.5 or 5 times a power of ten,
// the first <= lo and the last >= hi. An empty range is widened first ([0, 1] for 0, else +-50%).
// Non-finite bounds give {0, 1}.
std::vector<double> niceTicks(double lo, double hi);

// At most 3 significant digits with an SI suffix from k (1e3) to E (1e18): "0", "0.25", "412", "50k",
// "1.5M", "-2.5k". Values below 1 have no suffix (ratios read better as 0.25 than 250m). Non-finite: "n/a".
std::string formatSi(double value);

// At most 3 significant digits without SI prefix: "0", "0.25", "2.26", "512", "1020". Non-finite: "n/a".
std::string formatPlain(double value);

// What kAuto means for this spec's data (never returns kAuto).
XScale resolveXScale(const ChartSpec& spec);

}  // namespace mdbench
