// SVG charts of scaling curves and time series: ticks, scales, layout and drawing. Text sizes are estimated
// (no font metrics in a pure function), so layout keeps generous margins and truncates long labels.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string_view>

#include "mdbench/report/chart.hpp"
#include "svg_dodge.hpp"
#include "svg_style.hpp"
#include "svg_writer.hpp"

namespace mdbench {
namespace {

using svg::Box;
using svg::kGrid;
using svg::kInk;
using svg::kMutedInk;
using svg::LabelPlacer;
using svg::Marker;
using svg::marker;
using svg::num;
using svg::raw;
using svg::strokeAttrs;
using svg::strokeOf;
using svg::Style;
using svg::styleFor;

constexpr double kMargin = 12.0;
constexpr int kTitleSize = 16;
constexpr int kSubtitleSize = 13;
constexpr int kAxisLabelSize = 13;
constexpr int kTickSize = 12;
constexpr int kLegendSize = 12;
constexpr int kNoteSize = 12;
// Average advance of a sans-serif glyph as a fraction of the font size (DejaVu Sans, the widest common
// default, is about 0.6): estimates err wide so nothing is clipped.
constexpr double kGlyphWidth = 0.6;
constexpr double kMarkerRadius = 4.5;
constexpr double kLegendRow = 20.0;
constexpr std::size_t kMaxLegendChars = 28;
double textWidth(std::string_view s, int size) {
  return static_cast<double>(svg::codepoints(s)) * size * kGlyphWidth;
}

std::size_t charsFitting(double pixels, int size) {
  return static_cast<std::size_t>(std::max(1.0, std::floor(pixels / (size * kGlyphWidth))));
}

bool isIntegral(double v) { return std::isfinite(v) && std::floor(v) == v; }

// X values are counts (ranks, clients, nodes): whole numbers read best in full, "1024" not "1.02k".
std::string formatX(double v) {
  if (isIntegral(v) && std::fabs(v) < 1e5) return fmt::format("{}", static_cast<long long>(v));
  return formatSi(v);
}

// --- Data extent and scales ---------------------------------------------------------------------------

bool drawableX(double x, XScale scale) { return std::isfinite(x) && (scale != XScale::kLog2 || x > 0.0); }
bool drawable(const ChartPoint& p, XScale scale) { return drawableX(p.x, scale) && std::isfinite(p.y); }
bool drawableBand(const ChartBand& b, XScale scale) {
  return drawableX(b.from, scale) && drawableX(b.to, scale) && b.to > b.from;
}
bool hasErrorBar(const ChartPoint& p) {
  return std::isfinite(p.y_low) && std::isfinite(p.y_high) && p.y_low < p.y_high;
}

struct Extent {
  std::vector<double> xs;  // distinct, ascending
  double y_min = 0.0;      // always includes 0: rates and ratios are read against zero
  double y_max = 0.0;
};

Extent extentOf(const ChartSpec& spec, XScale scale) {
  Extent e;
  for (const auto& series : spec.series) {
    for (const auto& p : series.points) {
      if (!drawable(p, scale)) continue;
      e.xs.push_back(p.x);
      e.y_min = std::min(e.y_min, p.y);
      e.y_max = std::max(e.y_max, p.y);
      if (hasErrorBar(p)) {
        e.y_min = std::min(e.y_min, p.y_low);
        e.y_max = std::max(e.y_max, p.y_high);
      }
    }
  }
  // Bands and marks belong to the data drawn: on the axis, but no chart of them alone.
  for (const ChartBand& b : spec.bands) {
    if (e.xs.empty() || !drawableBand(b, scale)) continue;
    e.xs.insert(e.xs.end(), {b.from, b.to});
  }
  for (const ChartMark& m : spec.marks) {
    if (!e.xs.empty() && drawableX(m.x, scale)) e.xs.push_back(m.x);
  }
  if (spec.reference_y && std::isfinite(*spec.reference_y)) {
    e.y_min = std::min(e.y_min, *spec.reference_y);
    e.y_max = std::max(e.y_max, *spec.reference_y);
  }
  std::sort(e.xs.begin(), e.xs.end());
  e.xs.erase(std::unique(e.xs.begin(), e.xs.end()), e.xs.end());
  return e;
}

// Maps data to pixels; the domain is in log2 units for a log2 axis, and never empty.
struct Scale {
  double d0 = 0.0, d1 = 1.0, p0 = 0.0, p1 = 1.0;
  bool log2 = false;
  double operator()(double v) const {
    const double t = log2 ? std::log2(v) : v;
    return p0 + (t - d0) / (d1 - d0) * (p1 - p0);
  }
};

struct Tick {
  double value;
  std::string label;
};

std::string formatY(double v, YNumbers numbers) {
  return numbers == YNumbers::kPlain ? formatPlain(v) : formatSi(v);
}

std::vector<Tick> yTicks(const Extent& e, YNumbers numbers) {
  // Headroom above the highest point leaves space for the peak label.
  const double top = e.y_max > e.y_min ? e.y_max + 0.04 * (e.y_max - e.y_min) : e.y_max;
  std::vector<Tick> ticks;
  for (const double v : niceTicks(e.y_min, top)) ticks.push_back({v, formatY(v, numbers)});
  return ticks;
}

// X domain and candidate ticks (thinned later, once the pixel width is known).
std::pair<Scale, std::vector<Tick>> xAxis(const Extent& e, XScale scale) {
  Scale s;
  std::vector<Tick> ticks;
  if (e.xs.empty()) return {s, ticks};
  if (scale == XScale::kLog2) {
    s.log2 = true;
    s.d0 = std::log2(e.xs.front());
    s.d1 = std::log2(e.xs.back());
    for (const double x : e.xs) ticks.push_back({x, formatX(x)});
  } else if (e.xs.size() == 1) {
    s.d0 = s.d1 = e.xs.front();
    ticks.push_back({e.xs.front(), formatX(e.xs.front())});
  } else {
    const bool counts = std::all_of(e.xs.begin(), e.xs.end(), isIntegral);
    for (const double v : niceTicks(e.xs.front(), e.xs.back())) {
      if (counts && !isIntegral(v)) continue;  // no "2.5 ranks"
      ticks.push_back({v, formatX(v)});
    }
    s.d0 = ticks.empty() ? e.xs.front() : std::min(e.xs.front(), ticks.front().value);
    s.d1 = ticks.empty() ? e.xs.back() : std::max(e.xs.back(), ticks.back().value);
  }
  if (s.d1 > s.d0) {
    const double pad = 0.04 * (s.d1 - s.d0);  // keeps end markers off the axis lines
    s.d0 -= pad;
    s.d1 += pad;
  } else {
    const double half = s.log2 ? 1.0 : std::max(1.0, std::fabs(s.d0) * 0.5);
    s.d0 -= half;
    s.d1 += half;
  }
  return {s, ticks};
}

// Drops tick labels that would touch their left neighbour.
std::vector<Tick> thin(const std::vector<Tick>& ticks, const Scale& s) {
  std::vector<Tick> kept;
  double last_right = -1e300;
  for (const auto& t : ticks) {
    const double half = textWidth(t.label, kTickSize) / 2.0;
    const double at = s(t.value);
    if (at - half < last_right + 8.0) continue;
    kept.push_back(t);
    last_right = at + half;
  }
  return kept;
}

// --- Layout -------------------------------------------------------------------------------------------

enum class LegendPlace : std::uint8_t { kRight, kNone };

struct Entry {
  std::string label;  // truncated
  Style style;
  std::string series;  // the label in full
};

struct Layout {
  double width = 0.0, height = 0.0;
  double left = 0.0, top = 0.0, right = 0.0, bottom = 0.0;  // the plot area
  double title_y = 0.0, subtitle_y = 0.0;
  double legend_x = 0.0;
};

Layout layoutChart(const ChartSpec& spec, const std::vector<Tick>& y_ticks, const std::vector<Entry>& legend,
                   LegendPlace place) {
  Layout l;
  l.width = std::max(spec.width, 240);
  l.height = std::max(spec.height, 180);
  double top = kMargin;
  if (!spec.title.empty()) {
    l.title_y = top + kTitleSize;
    top = l.title_y + 6.0;
  }
  if (!spec.subtitle.empty()) {
    l.subtitle_y = top + kSubtitleSize;
    top = l.subtitle_y + 6.0;
  }
  l.top = top + 12.0;
  double tick_width = 0.0;
  for (const auto& t : y_ticks) tick_width = std::max(tick_width, textWidth(t.label, kTickSize));
  l.left = kMargin + (spec.y_label.empty() ? 0.0 : kAxisLabelSize + 10.0) + tick_width + 8.0;
  l.bottom = l.height - kMargin - (spec.x_label.empty() ? 0.0 : kAxisLabelSize + 8.0) - kTickSize - 12.0;
  l.right = l.width - kMargin - 12.0;  // half a tick label of room at the right end
  if (place == LegendPlace::kRight && !legend.empty()) {
    double label_width = 0.0;
    for (const auto& e : legend) label_width = std::max(label_width, textWidth(e.label, kLegendSize));
    l.legend_x = l.width - kMargin - 34.0 - label_width;
    l.right = l.legend_x - 16.0;
  }
  return l;
}

// Legend labels fit a right-hand column of at most a third of the canvas.
std::size_t legendChars(int width) {
  return std::clamp<std::size_t>(charsFitting(std::max(width, 240) / 3.0 - 34.0, kLegendSize), 6,
                                 kMaxLegendChars);
}

// --- Drawing ------------------------------------------------------------------------------------------

// Places a note on the plot and draws it on a translucent white patch, so it stays legible over lines
// and grid. A swatch (the series' marker) in front tells apart notes of several series at one place.
void note(svg::Writer& w, LabelPlacer& placer, const std::vector<LabelPlacer::Spot>& spots,
          const std::string& text, std::string_view cls, const Style* swatch = nullptr) {
  constexpr double kSwatchWidth = 12.0;
  const double lead = swatch != nullptr ? kSwatchWidth : 0.0;
  const double width = lead + textWidth(text, kNoteSize);
  const LabelPlacer::Spot at = placer.place(spots, width);
  const double x0 = at.anchor == "end" ? at.x - width : at.anchor == "middle" ? at.x - width / 2 : at.x;
  w.leaf("rect", {{"class", "label-bg"},
                  {"x", num(x0 - 2)},
                  {"y", num(at.y - kNoteSize + 1)},
                  {"width", num(width + 4)},
                  {"height", num(kNoteSize + 3)},
                  {"fill", "#ffffff"},
                  {"fill-opacity", "0.85"}});
  if (swatch != nullptr) marker(w, *swatch, x0 + 4, at.y - 4, 3.5, {{"class", "note-marker"}});
  w.text({{"class", std::string(cls)},
          {"x", num(x0 + lead)},
          {"y", num(at.y)},
          {"font-size", fmt::format("{}", kNoteSize)},
          {"fill", std::string(kInk)}},
         text);
}

struct Frame {
  const Layout& l;
  const Scale& x;
  const Scale& y;
};

// Each marker-look series' drawable points where they would be drawn, for svg::dodgeMarkers.
svg::Dodges dodgesOf(const ChartSpec& spec, XScale scale, const Frame& f) {
  std::vector<svg::MarkerPlace> places;
  std::vector<std::size_t> sizes;
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    const ChartSeries& series = spec.series[s];
    sizes.push_back(series.points.size());
    if (series.look != SeriesLook::kMarkers) continue;  // lines have no markers to hide
    for (std::size_t i = 0; i < series.points.size(); ++i) {
      const ChartPoint& p = series.points[i];
      if (drawable(p, scale)) places.push_back({s, i, p.x, f.x(p.x), f.y(p.y)});
    }
  }
  return svg::dodgeMarkers(places, sizes, 2 * kMarkerRadius + 2);
}

void drawAxes(svg::Writer& w, const ChartSpec& spec, const Frame& f, const std::vector<Tick>& x_ticks,
              const std::vector<Tick>& y_ticks) {
  const Layout& l = f.l;
  const std::string size = fmt::format("{}", kTickSize);
  w.open("g", {{"class", "axes"}, {"font-size", size}, {"fill", std::string(kMutedInk)}});
  for (const auto& t : y_ticks) {
    w.line({{"class", "grid y"}}, l.left, f.y(t.value), l.right, f.y(t.value),
           {{"stroke", std::string(kGrid)}});
    w.text({{"class", "tick-label y"},
            {"x", num(l.left - 8)},
            {"y", num(f.y(t.value) + 4)},
            {"text-anchor", "end"}},
           t.label);
  }
  for (const auto& t : x_ticks) {
    const std::string at = num(f.x(t.value));
    w.line({{"class", "tick x"}}, f.x(t.value), l.bottom, f.x(t.value), l.bottom + 5,
           {{"stroke", std::string(kMutedInk)}});
    w.text({{"class", "tick-label x"},
            {"x", at},
            {"y", num(l.bottom + 8 + kTickSize)},
            {"text-anchor", "middle"}},
           t.label);
  }
  w.leaf("path", {{"class", "axis"},
                  {"d", fmt::format("M{} {} V{} H{}", num(l.left), num(l.top), num(l.bottom), num(l.right))},
                  {"fill", "none"},
                  {"stroke", std::string(kMutedInk)}});
  w.close();
  const std::string label_size = fmt::format("{}", kAxisLabelSize);
  if (!spec.x_label.empty()) {
    w.text({{"class", "axis-label x"},
            {"x", num((l.left + l.right) / 2)},
            {"y", num(l.height - kMargin - 2)},
            {"text-anchor", "middle"},
            {"font-size", label_size},
            {"fill", std::string(kInk)}},
           svg::truncate(spec.x_label, charsFitting(l.width - 2 * kMargin, kAxisLabelSize)));
  }
  if (!spec.y_label.empty()) {
    const double x = kMargin + kAxisLabelSize;
    const double y = (l.top + l.bottom) / 2;
    w.text({{"class", "axis-label y"},
            {"x", num(x)},
            {"y", num(y)},
            {"transform", fmt::format("rotate(-90 {} {})", num(x), num(y))},
            {"text-anchor", "middle"},
            {"font-size", label_size},
            {"fill", std::string(kInk)}},
           svg::truncate(spec.y_label, charsFitting(l.height - 2 * kMargin, kAxisLabelSize)));
  }
}

void drawReference(svg::Writer& w, const ChartSpec& spec, const Frame& f, LabelPlacer& placer) {
  if (!spec.reference_y || !std::isfinite(*spec.reference_y)) return;
  const double y = f.y(*spec.reference_y);
  w.open("g", {{"class", "reference"}, {"data-y", raw(*spec.reference_y)}});
  w.line({}, f.l.left, y, f.l.right, y,
         {{"stroke", std::string(kMutedInk)}, {"stroke-width", "1.5"}, {"stroke-dasharray", "6 4"}});
  const std::string text = svg::truncate(
      spec.reference_label.empty() ? formatSi(*spec.reference_y) : spec.reference_label, kMaxLegendChars);
  const double r = f.l.right - 4;
  const double l = f.l.left + 4;
  note(w, placer,
       {{r, y - 5, "end"},
        {r, y + kNoteSize + 3, "end"},
        {l, y - 5, "start"},
        {l, y + kNoteSize + 3, "start"}},
       text, "reference-label");
  w.close();
}

// A dashed line over the plot's height at pixel x, and its label beside it: top down along the line, either
// side (scaling curves rise, and a time series' line is mostly lower, so the top usually has room).
struct Vertical {
  double x = 0.0;
  svg::Attrs head;  // class
  std::string colour;
  std::string_view dash;
};
void drawVertical(svg::Writer& w, const Vertical& v, const Frame& f, const std::string& text,
                  std::string_view label_class, LabelPlacer& placer, const Style* swatch = nullptr) {
  w.line(v.head, v.x, f.l.top, v.x, f.l.bottom,
         {{"stroke", v.colour}, {"stroke-width", "1.5"}, {"stroke-dasharray", std::string(v.dash)}});
  std::vector<LabelPlacer::Spot> spots;
  for (double y = f.l.top + kNoteSize + 2; y <= f.l.bottom - 4; y += kNoteSize + 4) {
    spots.push_back({v.x + 5, y, "start"});
    spots.push_back({v.x - 5, y, "end"});
  }
  note(w, placer, spots, text, label_class, swatch);
}

void drawSaturation(svg::Writer& w, const ChartPoint& p, const Style& style, const Frame& f,
                    LabelPlacer& placer) {
  w.open("g", {{"class", "saturation"}, {"data-x", raw(p.x)}});
  drawVertical(w, {f.x(p.x), {}, std::string(style.colour), "5 4"}, f, "saturates at " + formatX(p.x),
               "saturation-label", placer, &style);
  w.close();
}

// A band's pixels, clipped to the plot.
std::pair<double, double> bandPixels(const ChartBand& b, const Frame& f) {
  return {std::clamp(f.x(b.from), f.l.left, f.l.right), std::clamp(f.x(b.to), f.l.left, f.l.right)};
}

// Behind everything drawn from the data: a translucent grey, as where nothing happened.
void drawBands(svg::Writer& w, const ChartSpec& spec, XScale scale, const Frame& f) {
  for (const ChartBand& b : spec.bands) {
    if (!drawableBand(b, scale)) continue;
    const auto [x0, x1] = bandPixels(b, f);
    w.open("g", {{"class", "band"}, {"data-from", raw(b.from)}, {"data-to", raw(b.to)}});
    w.leaf("rect", {{"class", "band-area"},
                    {"x", num(x0)},
                    {"y", num(f.l.top)},
                    {"width", num(x1 - x0)},
                    {"height", num(f.l.bottom - f.l.top)},
                    {"fill", std::string(kMutedInk)},
                    {"fill-opacity", "0.18"}});
    w.close();
  }
}

// After the marks (whose labels sit at the line): within the band's top, else beside it.
void labelBands(svg::Writer& w, const ChartSpec& spec, XScale scale, const Frame& f, LabelPlacer& placer) {
  for (const ChartBand& b : spec.bands) {
    if (!drawableBand(b, scale) || b.label.empty()) continue;
    const auto [x0, x1] = bandPixels(b, f);
    std::vector<LabelPlacer::Spot> spots;
    for (double y = f.l.top + kNoteSize + 2; y <= f.l.bottom - 4; y += kNoteSize + 4) {
      spots.push_back({(x0 + x1) / 2, y, "middle"});
      spots.push_back({x1 + 5, y, "start"});
      spots.push_back({x0 - 5, y, "end"});
    }
    w.open("g", {{"class", "band-note"}, {"data-from", raw(b.from)}});
    note(w, placer, spots, svg::truncate(b.label, kMaxLegendChars), "band-label");
    w.close();
  }
}

void drawMarks(svg::Writer& w, const ChartSpec& spec, XScale scale, const Frame& f, LabelPlacer& placer) {
  constexpr std::string_view kMarkColour = "#B2182B";  // a dark red none of the palette's is
  for (const ChartMark& m : spec.marks) {
    if (!drawableX(m.x, scale)) continue;
    w.open("g", {{"class", "mark"}, {"data-x", raw(m.x)}});
    drawVertical(w, {f.x(m.x), {{"class", "mark-line"}}, std::string(kMarkColour), "4 3"}, f,
                 svg::truncate(m.label, kMaxLegendChars), "mark-label", placer);
    w.close();
  }
}

// `dx`: the peak's marker's dodge (dodgesOf).
void drawPeak(svg::Writer& w, const ChartSpec& spec, const ChartPoint& p, double dx, const Style& style,
              const Frame& f, LabelPlacer& placer) {
  const double x = f.x(p.x) + dx;
  const double y = f.y(p.y);
  w.open("g", {{"class", "peak"}, {"data-x", raw(p.x)}, {"data-y", raw(p.y)}});
  w.leaf("circle", {{"class", "peak-ring"},
                    {"cx", num(x)},
                    {"cy", num(y)},
                    {"r", num(kMarkerRadius + 4)},
                    {"fill", "none"},
                    {"stroke", std::string(style.colour)},
                    {"stroke-width", "2"}});
  std::string text = "peak " + formatY(p.y, spec.y_numbers);
  if (!spec.value_unit.empty()) text += " " + spec.value_unit;
  const double gap = kMarkerRadius + 8;
  note(w, placer,
       {{x, y - gap, "middle"},
        {x + gap, y - gap + 4, "start"},
        {x - gap, y - gap + 4, "end"},
        {x, y + gap + kNoteSize, "middle"},
        {x + gap, y + 4, "start"},
        {x - gap, y + 4, "end"},
        {x + gap, y + gap + kNoteSize - 4, "start"},
        {x - gap, y + gap + kNoteSize - 4, "end"},
        {x, y - 2 * gap, "middle"},
        {x, y + 2 * gap + kNoteSize, "middle"}},
       text, "peak-label");
  w.close();
}

// The drawable points of a series, by ascending x: the curve runs left to right whatever the input order.
std::vector<const ChartPoint*> drawOrder(const ChartSeries& series, XScale scale) {
  std::vector<const ChartPoint*> ordered;
  for (const auto& p : series.points) {
    if (drawable(p, scale)) ordered.push_back(&p);
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto* a, const auto* b) { return a->x < b->x; });
  return ordered;
}

// A line look: the polyline alone (its data in data-values), or a small marker for a lone point, which a
// line cannot show.
void drawLine(svg::Writer& w, const std::vector<const ChartPoint*>& ordered, const Style& style,
              const Frame& f) {
  if (ordered.size() == 1) {
    const ChartPoint& p = *ordered.front();
    const bool bold = style.look == SeriesLook::kBoldLine;
    const Style dot{bold ? kInk : style.colour, Marker::kCircle, style.look, style.round};
    marker(w, dot, f.x(p.x), f.y(p.y), bold ? kMarkerRadius : 3.0,
           {{"class", "point"}, {"data-x", raw(p.x)}, {"data-y", raw(p.y)}});
    return;
  }
  std::string points, values;
  for (const auto* p : ordered) {
    const std::string_view gap = points.empty() ? "" : " ";
    points += fmt::format("{}{},{}", gap, num(f.x(p->x)), num(f.y(p->y)));
    values += fmt::format("{}{},{}", gap, raw(p->x), raw(p->y));
  }
  svg::Attrs attrs = {{"class", "line"}, {"points", points}, {"data-values", values}, {"fill", "none"}};
  for (auto& a : strokeAttrs(strokeOf(style))) attrs.push_back(std::move(a));
  attrs.emplace_back("stroke-linejoin", "round");
  w.leaf("polyline", attrs);
}

// `dodge`: the series' row of dodgesOf.
void drawSeries(svg::Writer& w, const ChartSpec& spec, const ChartSeries& series, const Style& style,
                XScale scale, const Frame& f, const std::vector<double>& dodge, LabelPlacer& placer) {
  svg::Attrs group = {{"class", "series"}, {"data-series", svg::sanitize(series.label)}};
  if (style.look != SeriesLook::kMarkers) {
    group.emplace_back("data-look", std::string(svg::lookName(style.look)));
  } else {
    group.emplace_back("data-colour", std::string(style.colour));
    group.emplace_back("data-marker", std::string(svg::markerName(style.marker)));
  }
  w.open("g", group);
  const auto at = [&](std::optional<std::size_t> i) -> const ChartPoint* {
    return i && *i < series.points.size() && drawable(series.points[*i], scale) ? &series.points[*i]
                                                                                : nullptr;
  };
  if (const ChartPoint* p = at(series.saturation)) drawSaturation(w, *p, style, f, placer);
  const std::vector<const ChartPoint*> ordered = drawOrder(series, scale);
  if (style.look != SeriesLook::kMarkers) {
    if (!ordered.empty()) drawLine(w, ordered, style, f);
    if (const ChartPoint* p = at(series.peak)) drawPeak(w, spec, *p, 0.0, style, f, placer);
    w.close();
    return;
  }
  const auto dx = [&](const ChartPoint* p) {
    return dodge[static_cast<std::size_t>(p - series.points.data())];
  };
  const auto px = [&](const ChartPoint* p) { return f.x(p->x) + dx(p); };
  if (ordered.size() > 1) {
    std::string points;
    for (const auto* p : ordered)
      points += fmt::format("{}{},{}", points.empty() ? "" : " ", num(px(p)), num(f.y(p->y)));
    w.leaf("polyline", {{"class", "line"},
                        {"points", points},
                        {"fill", "none"},
                        {"stroke", std::string(style.colour)},
                        {"stroke-width", "2"},
                        {"stroke-linejoin", "round"}});
  }
  for (const auto* p : ordered) {
    if (!hasErrorBar(*p)) continue;
    const double x = px(p), lo = f.y(p->y_low), hi = f.y(p->y_high);
    w.line({{"class", "error-bar"},
            {"data-x", raw(p->x)},
            {"data-low", raw(p->y_low)},
            {"data-high", raw(p->y_high)}},
           x, lo, x, hi, {{"stroke", std::string(style.colour)}, {"stroke-width", "1.5"}});
    w.leaf("path", {{"class", "error-cap"},
                    {"d", fmt::format("M{} {} H{} M{} {} H{}", num(x - 4), num(lo), num(x + 4), num(x - 4),
                                      num(hi), num(x + 4))},
                    {"stroke", std::string(style.colour)},
                    {"stroke-width", "1.5"}});
  }
  for (const auto* p : ordered) {
    svg::Attrs attrs = {{"class", "point"}, {"data-x", raw(p->x)}, {"data-y", raw(p->y)}};
    if (dx(p) != 0.0) attrs.emplace_back("data-dodge", num(dx(p)));
    marker(w, style, px(p), f.y(p->y), kMarkerRadius, std::move(attrs));
  }
  if (const ChartPoint* p = at(series.peak)) drawPeak(w, spec, *p, dx(p), style, f, placer);
  w.close();
}

void legendSwatch(svg::Writer& w, const Entry& entry, double x, double y) {
  const Style& style = entry.style;
  if (style.look != SeriesLook::kMarkers) {
    w.line({{"class", "legend-line"}}, x, y, x + 24, y, strokeAttrs(strokeOf(style)));
    return;
  }
  w.line({}, x, y, x + 24, y, {{"stroke", std::string(style.colour)}, {"stroke-width", "2"}});
  marker(w, style, x + 12, y, kMarkerRadius,
         {{"class", "legend-marker"}, {"data-series", svg::sanitize(entry.series)}});
}

void drawLegendColumn(svg::Writer& w, const std::vector<Entry>& entries, const Layout& l) {
  w.open("g",
         {{"class", "legend"}, {"font-size", fmt::format("{}", kLegendSize)}, {"fill", std::string(kInk)}});
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double y = l.top + 8 + static_cast<double>(i) * kLegendRow;
    legendSwatch(w, entries[i], l.legend_x, y);
    w.text({{"class", "legend-label"}, {"x", num(l.legend_x + 30)}, {"y", num(y + 4)}}, entries[i].label);
  }
  w.close();
}

void drawTitles(svg::Writer& w, const ChartSpec& spec, const Layout& l) {
  if (!spec.title.empty()) {
    w.text({{"class", "title"},
            {"x", num(kMargin)},
            {"y", num(l.title_y)},
            {"font-size", fmt::format("{}", kTitleSize)},
            {"font-weight", "bold"},
            {"fill", std::string(kInk)}},
           svg::truncate(spec.title, charsFitting(l.width - 2 * kMargin, kTitleSize) * 9 / 10));
  }
  if (!spec.subtitle.empty()) {
    w.text({{"class", "subtitle"},
            {"x", num(kMargin)},
            {"y", num(l.subtitle_y)},
            {"font-size", fmt::format("{}", kSubtitleSize)},
            {"fill", std::string(kMutedInk)}},
           svg::truncate(spec.subtitle, charsFitting(l.width - 2 * kMargin, kSubtitleSize)));
  }
}

// What annotations should not cover: every marker, and the curves sampled every few pixels.
std::vector<Box> dataBoxes(const ChartSpec& spec, XScale scale, const Frame& f, const svg::Dodges& dodges) {
  constexpr double kMarkerBox = kMarkerRadius + 2;
  constexpr double kSampleEvery = 4.0;
  std::vector<Box> boxes;
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    const ChartSeries& series = spec.series[s];
    double px = 0.0, py = 0.0;
    bool first = true;
    for (const auto* p : drawOrder(series, scale)) {
      const double x = f.x(p->x) + dodges[s][static_cast<std::size_t>(p - series.points.data())];
      const double y = f.y(p->y);
      boxes.push_back({x - kMarkerBox, y - kMarkerBox, x + kMarkerBox, y + kMarkerBox});
      const double samples = first ? 0.0 : std::floor(std::hypot(x - px, y - py) / kSampleEvery);
      for (double k = 1; k < samples; ++k) {
        const double sx = px + (x - px) * k / samples, sy = py + (y - py) * k / samples;
        boxes.push_back({sx - 1, sy - 1, sx + 1, sy + 1});
      }
      px = x;
      py = y;
      first = false;
    }
  }
  return boxes;
}

// One chart, at the origin of the current user space. `styles[i]` is the style index of series i.
void drawChart(svg::Writer& w, const ChartSpec& spec, const std::vector<std::size_t>& styles,
               LegendPlace place) {
  const XScale scale = resolveXScale(spec);
  const Extent extent = extentOf(spec, scale);
  const std::vector<Tick> y_ticks = yTicks(extent, spec.y_numbers);
  std::vector<Entry> legend;
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    legend.push_back({svg::truncate(spec.series[i].label, legendChars(spec.width)),
                      styleFor(styles[i], spec.series[i].look), spec.series[i].label});
  }
  const Layout l = layoutChart(spec, y_ticks, legend, place);
  auto [x, x_ticks] = xAxis(extent, scale);
  x.p0 = l.left;
  x.p1 = l.right;
  const Scale y{y_ticks.front().value, y_ticks.back().value, l.bottom, l.top, false};
  const Frame f{l, x, y};

  w.leaf("rect",
         {{"class", "background"}, {"width", num(l.width)}, {"height", num(l.height)}, {"fill", "#ffffff"}});
  drawTitles(w, spec, l);
  drawAxes(w, spec, f, thin(x_ticks, x), y_ticks);
  const svg::Dodges dodges = dodgesOf(spec, scale, f);
  LabelPlacer placer({l.left, l.top, l.right, l.bottom}, kNoteSize, dataBoxes(spec, scale, f, dodges));
  drawBands(w, spec, scale, f);
  drawReference(w, spec, f, placer);
  // Bold lines over the rest: a sum stays visible over its parts, whatever the legend's order.
  for (const bool bold : {false, true}) {
    for (std::size_t i = 0; i < spec.series.size(); ++i) {
      if ((spec.series[i].look == SeriesLook::kBoldLine) != bold) continue;
      drawSeries(w, spec, spec.series[i], styleFor(styles[i], spec.series[i].look), scale, f, dodges[i],
                 placer);
    }
  }
  drawMarks(w, spec, scale, f, placer);
  labelBands(w, spec, scale, f, placer);
  if (extent.xs.empty()) {
    w.text({{"class", "no-data"},
            {"x", num((l.left + l.right) / 2)},
            {"y", num((l.top + l.bottom) / 2)},
            {"text-anchor", "middle"},
            {"font-size", fmt::format("{}", kAxisLabelSize)},
            {"fill", std::string(kMutedInk)}},
           "no data");
  }
  if (place == LegendPlace::kRight && !legend.empty()) drawLegendColumn(w, legend, l);
}

void openDocument(svg::Writer& w, double width, double height, const std::string& title) {
  w.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  w.open("svg", {{"xmlns", "http://www.w3.org/2000/svg"},
                 {"version", "1.1"},
                 {"width", num(width)},
                 {"height", num(height)},
                 {"viewBox", fmt::format("0 0 {} {}", num(width), num(height))},
                 {"font-family", "sans-serif"}});
  if (!title.empty()) {
    w.append("  <title>");
    w.append(svg::escape(svg::sanitize(title)));
    w.append("</title>\n");
  }
}

// A shared legend in rows across the top of a panel figure; returns its height.
double drawLegendRows(svg::Writer& w, const std::vector<Entry>& entries, double y0, double width) {
  w.open("g",
         {{"class", "legend"}, {"font-size", fmt::format("{}", kLegendSize)}, {"fill", std::string(kInk)}});
  double x = kMargin;
  double y = y0 + 8;
  for (const auto& e : entries) {
    const double entry_width = 30 + textWidth(e.label, kLegendSize) + 18;
    if (x > kMargin && x + entry_width > width - kMargin) {
      x = kMargin;
      y += kLegendRow;
    }
    legendSwatch(w, e, x, y);
    w.text({{"class", "legend-label"}, {"x", num(x + 30)}, {"y", num(y + 4)}}, e.label);
    x += entry_width;
  }
  w.close();
  return entries.empty() ? 0.0 : y - y0 + kLegendRow;
}

}  // namespace

// --- The renderers ------------------------------------------------------------------------------------

std::string renderSvg(const ChartSpec& spec) {
  svg::Writer w;
  openDocument(w, std::max(spec.width, 240), std::max(spec.height, 180), spec.title);
  std::vector<std::size_t> styles(spec.series.size());
  for (std::size_t i = 0; i < styles.size(); ++i) styles[i] = spec.series[i].style.value_or(i);
  drawChart(w, spec, styles, LegendPlace::kRight);
  w.close();
  return w.finish();
}

std::string renderPanels(const std::vector<ChartSpec>& charts, int columns, const std::string& title) {
  // One style per distinct label, in order of first appearance, so a label looks the same in every panel.
  std::map<std::string, std::size_t> style_of;
  std::vector<Entry> legend;
  double cell_width = 240, cell_height = 180;
  for (const auto& c : charts) {
    cell_width = std::max<double>(cell_width, c.width);
    cell_height = std::max<double>(cell_height, c.height);
    for (const auto& s : c.series) {
      const std::size_t slot = s.style.value_or(style_of.size());
      if (style_of.emplace(s.label, slot).second) {
        legend.push_back({svg::truncate(s.label, kMaxLegendChars), styleFor(slot, s.look), s.label});
      }
    }
  }
  const std::size_t count = std::max<std::size_t>(charts.size(), 1);
  const std::size_t cols =
      std::clamp<std::size_t>(columns < 1 ? 1 : static_cast<std::size_t>(columns), 1, count);
  const std::size_t rows = (count + cols - 1) / cols;
  const double width = static_cast<double>(cols) * cell_width;
  const double title_y = kMargin + 18;

  // The legend's height decides the figure's, so draw it into its own writer first.
  svg::Writer legend_writer;
  const double legend_height = drawLegendRows(legend_writer, legend, title_y + 8, width);
  const double grid_top = title_y + 8 + legend_height + 4;
  const double height = grid_top + static_cast<double>(rows) * cell_height;

  svg::Writer w;
  openDocument(w, width, height, title);
  w.leaf("rect",
         {{"class", "background"}, {"width", num(width)}, {"height", num(height)}, {"fill", "#ffffff"}});
  w.text({{"class", "figure-title"},
          {"x", num(kMargin)},
          {"y", num(title_y)},
          {"font-size", "18"},
          {"font-weight", "bold"},
          {"fill", std::string(kInk)}},
         svg::truncate(title, charsFitting(width - 2 * kMargin, 18) * 9 / 10));
  w.append(legend_writer.finish());
  for (std::size_t i = 0; i < charts.size(); ++i) {
    const double x = static_cast<double>(i % cols) * cell_width;
    const double y = grid_top + static_cast<double>(i / cols) * cell_height;
    w.open("g", {{"class", "panel"},
                 {"data-title", svg::sanitize(charts[i].title)},
                 {"transform", fmt::format("translate({} {})", num(x), num(y))}});
    std::vector<std::size_t> styles;
    for (const auto& s : charts[i].series) styles.push_back(style_of.at(s.label));
    drawChart(w, charts[i], styles, LegendPlace::kNone);
    w.close();
  }
  w.close();
  return w.finish();
}

}  // namespace mdbench
