// Chart renderer: the machine-readable SVG structure, tick and number formatting, degenerate specs, and
// the PNG conversion; and the report's throughput over time, drawn with it.
#include "mdbench/report/chart.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "mdbench/model/metrics.hpp"
#include "mdbench/report/report.hpp"
#include "mdbench/results/results_file.hpp"

namespace mdbench {
namespace {

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

// The contents of every <text> element whose class attribute is exactly `cls`.
std::vector<std::string> texts(const std::string& svg, const std::string& cls) {
  const std::regex pattern("<text class=\"" + cls + "\"[^>]*>([^<]*)</text>");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), pattern); it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

ChartPoint at(double x, double y, double spread = 0.0) { return {x, y, y - spread, y + spread}; }

// Three configurations' file-create rates against 1..16 ranks, as `mdbench report` would draw them.
ChartSpec threeSeries() {
  ChartSpec spec;
  spec.title = "file-create scaling";
  spec.subtitle = "3 configurations, mean of 3 iterations, bars: min to max";
  spec.x_label = "ranks";
  spec.y_label = "file-create (ops/s)";
  ChartSeries a{"nvme-a",
                {at(1, 52000, 1500), at(2, 101000, 2500), at(4, 198000, 4000), at(8, 412000, 9000),
                 at(16, 405000, 12000)}};
  a.peak = 3;
  a.saturation = 3;
  ChartSeries b{
      "a<b & \"c\"",
      {at(1, 40000), at(2, 78000, 1000), at(4, 150000, 3000), at(8, 210000, 5000), at(16, 260000, 8000)}};
  ChartSeries c{
      "lustre-ost'x",
      {at(1, 9000, 300), at(2, 17500, 600), at(4, 33000, 900), at(8, 61000, 2000), at(16, 118000, 4000)}};
  spec.series = {a, b, c};
  return spec;
}

// Ten configurations saturating at various counts up to 1024 ranks, four of them annotated: crowded.
ChartSpec crowded() {
  ChartSpec spec;
  spec.title = "file-stat scaling, ten configurations";
  spec.x_label = "ranks";
  spec.y_label = "file-stat (ops/s)";
  for (int s = 0; s < 10; ++s) {
    ChartSeries series{"config-" + std::to_string(s), {}};
    for (double x = 1; x <= 1024; x *= 2) {
      const double y = (s + 1) * 1.1e6 * (1 - std::exp(-x / (40.0 + s * 30))) * (x > 256 ? 0.93 : 1.0);
      series.points.push_back({x, y, y * 0.96, y * 1.04});
    }
    if (s % 3 == 0) {
      series.peak = s == 0 ? 8 : 10;
      series.saturation = series.peak;
    }
    spec.series.push_back(series);
  }
  return spec;
}

TEST(ChartSvg, SeriesPointsErrorBarsAndLegend) {
  const std::string svg = renderSvg(threeSeries());
  EXPECT_EQ(
      svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 0),
      0u);
  EXPECT_NE(svg.find("viewBox=\"0 0 800 500\""), std::string::npos);
  EXPECT_EQ(count(svg, "<g class=\"series\""), 3u);
  EXPECT_EQ(count(svg, "class=\"point\""), 15u);
  EXPECT_EQ(count(svg, "class=\"error-bar\""), 14u);  // one point of b has no bar
  EXPECT_EQ(count(svg, "<g class=\"legend\""), 1u);
  EXPECT_EQ(texts(svg, "legend-label"),
            (std::vector<std::string>{"nvme-a", "a&lt;b &amp; &quot;c&quot;", "lustre-ost&apos;x"}));
  EXPECT_NE(svg.find("class=\"point\" cx=\"") == std::string::npos ? svg.find("class=\"point\" d=\"")
                                                                   : svg.find("class=\"point\" cx=\""),
            std::string::npos);
  EXPECT_NE(svg.find("data-x=\"8\" data-y=\"412000\""), std::string::npos);
  EXPECT_NE(svg.find("class=\"error-bar\" data-x=\"8\" data-low=\"403000\" data-high=\"421000\""),
            std::string::npos);
  EXPECT_EQ(texts(svg, "title"), std::vector<std::string>{"file-create scaling"});
  EXPECT_EQ(texts(svg, "axis-label x"), std::vector<std::string>{"ranks"});
  EXPECT_EQ(texts(svg, "axis-label y"), std::vector<std::string>{"file-create (ops/s)"});
}

TEST(ChartSvg, Log2TicksAndNiceYTicks) {
  const std::string svg = renderSvg(threeSeries());
  EXPECT_EQ(texts(svg, "tick-label x"), (std::vector<std::string>{"1", "2", "4", "8", "16"}));
  // Largest y_high is 421000: 4% headroom, then nice ticks of 100k.
  EXPECT_EQ(texts(svg, "tick-label y"),
            (std::vector<std::string>{"0", "100k", "200k", "300k", "400k", "500k"}));
}

TEST(ChartSvg, Log2TicksUpTo1024AreWholeNumbers) {
  ChartSpec spec;
  ChartSeries s{"s", {}};
  for (double x = 1; x <= 1024; x *= 2) s.points.push_back(at(x, x * 10));
  spec.series = {s};
  EXPECT_EQ(texts(renderSvg(spec), "tick-label x"),
            (std::vector<std::string>{"1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1024"}));
}

TEST(ChartSvg, PeakAndSaturation) {
  const std::string svg = renderSvg(threeSeries());
  EXPECT_EQ(count(svg, "<g class=\"peak\" data-x=\"8\" data-y=\"412000\""), 1u);
  EXPECT_EQ(count(svg, "<g class=\"saturation\" data-x=\"8\""), 1u);
  EXPECT_EQ(texts(svg, "peak-label"), std::vector<std::string>{"peak 412k"});
  EXPECT_EQ(texts(svg, "saturation-label"), std::vector<std::string>{"saturates at 8"});
  // Both belong to their series' group, between its opening and the next series.
  const auto first = svg.find("data-series=\"nvme-a\"");
  const auto second = svg.find("<g class=\"series\"", first);
  EXPECT_LT(first, svg.find("class=\"peak\""));
  EXPECT_GT(second, svg.find("class=\"peak\""));
  EXPECT_GT(second, svg.find("class=\"saturation\""));
}

TEST(ChartSvg, EscapesTextAndAttributes) {
  const std::string svg = renderSvg(threeSeries());
  EXPECT_NE(svg.find("data-series=\"a&lt;b &amp; &quot;c&quot;\""), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"lustre-ost&apos;x\""), std::string::npos);
  EXPECT_EQ(svg.find("a<b"), std::string::npos);
  EXPECT_EQ(svg.find("\"c\""), std::string::npos);
}

TEST(ChartSvg, ControlCharactersAndBrokenUtf8BecomeValidXml) {
  ChartSpec spec;
  spec.title = std::string("tab\there \x01 bad \xff byte, caf\xc3\xa9");
  const std::string svg = renderSvg(spec);
  EXPECT_EQ(texts(svg, "title"), std::vector<std::string>{"tab here   bad ? byte, caf\xc3\xa9"});
}

TEST(ChartSvg, LongLabelsAreTruncatedWithAnEllipsis) {
  ChartSpec spec = threeSeries();
  spec.title = std::string(300, 'T');
  spec.series[0].label = std::string(100, 'L');
  const std::string svg = renderSvg(spec);
  const auto title = texts(svg, "title").at(0);
  EXPECT_LT(title.size(), 100u);
  EXPECT_EQ(title.substr(title.size() - 3), "\u2026");
  const auto legend = texts(svg, "legend-label").at(0);
  EXPECT_EQ(legend, std::string(27, 'L') + "\u2026");
  // The data attribute keeps the full label: machines match on it.
  EXPECT_NE(svg.find("data-series=\"" + std::string(100, 'L') + "\""), std::string::npos);
}

// Every x/y coordinate of every text lies inside the canvas.
void expectTextInside(const std::string& svg, double width, double height) {
  const std::regex pattern("<text [^>]*? x=\"([-0-9.]+)\" y=\"([-0-9.]+)\"");
  std::size_t checked = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), pattern); it != std::sregex_iterator(); ++it) {
    const double x = std::stod((*it)[1]);
    const double y = std::stod((*it)[2]);
    EXPECT_GE(x, 0.0) << it->str();
    EXPECT_LE(x, width) << it->str();
    EXPECT_GE(y, 0.0) << it->str();
    EXPECT_LE(y, height) << it->str();
    ++checked;
  }
  EXPECT_GT(checked, 10u);
}

TEST(ChartSvg, TextStaysInsideTheCanvas) {
  ChartSpec spec = threeSeries();
  spec.series[1].label = std::string(80, 'x');
  spec.y_label = std::string(200, 'y');
  expectTextInside(renderSvg(spec), 800, 500);
  spec.width = 100;  // below the minimum: the minimum is used
  spec.height = 50;
  const std::string small = renderSvg(spec);
  EXPECT_NE(small.find("viewBox=\"0 0 240 180\""), std::string::npos);
  expectTextInside(small, 240, 180);
}

TEST(ChartSvg, AnnotationsDoNotOverlapEachOther) {
  const std::string svg = renderSvg(crowded());
  const std::regex pattern(
      "class=\"label-bg\" x=\"([-0-9.]+)\" y=\"([-0-9.]+)\" width=\"([-0-9.]+)\" height=\"([-0-9.]+)\"");
  std::vector<std::array<double, 4>> boxes;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), pattern); it != std::sregex_iterator(); ++it) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
    boxes.push_back({x, y, x + std::stod((*it)[3]), y + std::stod((*it)[4])});
  }
  ASSERT_EQ(boxes.size(), 8u);  // four peaks, four saturations
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    for (std::size_t j = i + 1; j < boxes.size(); ++j) {
      const auto& a = boxes[i];
      const auto& b = boxes[j];
      EXPECT_FALSE(a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]) << i << " overlaps " << j;
    }
  }
  EXPECT_EQ(texts(svg, "saturation-label"),
            (std::vector<std::string>{"saturates at 256", "saturates at 1024", "saturates at 1024",
                                      "saturates at 1024"}));
}

TEST(ChartSvg, ReferenceLine) {
  ChartSpec spec;
  spec.y_label = "relative to baseline";
  spec.reference_y = 1.0;
  spec.reference_label = "baseline = 1.0";
  spec.series = {{"b", {at(1, 1.0), at(4, 1.2), at(16, 0.9)}}};
  const std::string svg = renderSvg(spec);
  EXPECT_EQ(count(svg, "<g class=\"reference\" data-y=\"1\""), 1u);
  EXPECT_EQ(texts(svg, "reference-label"), std::vector<std::string>{"baseline = 1.0"});
  EXPECT_EQ(texts(svg, "tick-label y"),
            (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1", "1.2", "1.4"}));
  spec.reference_label.clear();
  EXPECT_EQ(texts(renderSvg(spec), "reference-label"), std::vector<std::string>{"1"});
}

TEST(ChartSvg, LinearXForNarrowRangesAvoidsFractionalCounts) {
  ChartSpec spec;
  spec.series = {{"s", {at(2, 10), at(3, 12), at(4, 13)}}};
  EXPECT_EQ(resolveXScale(spec), XScale::kLinear);
  EXPECT_EQ(texts(renderSvg(spec), "tick-label x"), (std::vector<std::string>{"2", "3", "4"}));
}

TEST(ChartSvg, ResolveXScale) {
  ChartSpec spec;
  EXPECT_EQ(resolveXScale(spec), XScale::kLinear);  // no data
  spec.series = {{"s", {at(1, 1), at(4, 1)}}};
  EXPECT_EQ(resolveXScale(spec), XScale::kLog2);
  spec.series[0].points[0].x = 1.01;
  EXPECT_EQ(resolveXScale(spec), XScale::kLinear);  // max/min < 4
  spec.x_scale = XScale::kLog2;
  EXPECT_EQ(resolveXScale(spec), XScale::kLog2);
  spec.series[0].points[0].x = 0;
  EXPECT_EQ(resolveXScale(spec), XScale::kLinear);  // log2 of 0 has no place on the axis
  spec.x_scale = XScale::kLinear;
  spec.series[0].points[0].x = 1;
  EXPECT_EQ(resolveXScale(spec), XScale::kLinear);
}

bool hasNonFinite(std::string svg) {
  for (auto& c : svg) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return svg.find("nan") != std::string::npos || svg.find("inf") != std::string::npos ||
         svg.find("n/a") != std::string::npos;
}

TEST(ChartSvg, DegenerateSpecsGiveValidCharts) {
  std::vector<ChartSpec> specs(7);
  specs[1].series = {{"empty", {}}};
  specs[2].series = {{"one", {at(8, 1234.5, 10)}}};
  specs[2].series[0].peak = 0;
  specs[2].series[0].saturation = 0;
  specs[3].series = {{"zeros", {at(1, 0), at(2, 0), at(4, 0)}}};
  specs[4].series = {{"same x", {at(4, 10), at(4, 20)}}, {"same x 2", {at(4, 0)}}};
  specs[4].x_scale = XScale::kLog2;
  specs[5].series = {{"bad", {at(NAN, 1), at(1, INFINITY), at(2, NAN), {4, 5, NAN, INFINITY}, at(8, 3)}}};
  specs[5].series[0].peak = 2;         // not drawable: no peak
  specs[5].series[0].saturation = 99;  // out of range: ignored
  specs[5].reference_y = NAN;
  specs[6].series = {{"negative", {at(0, -5), at(1, 5), at(2, -1e-9)}}};
  specs[6].x_scale = XScale::kLog2;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    SCOPED_TRACE(i);
    const std::string svg = renderSvg(specs[i]);
    EXPECT_FALSE(hasNonFinite(svg));
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
    EXPECT_GE(texts(svg, "tick-label y").size(), 4u);
  }
  EXPECT_EQ(texts(renderSvg(specs[0]), "no-data"), std::vector<std::string>{"no data"});
  EXPECT_EQ(count(renderSvg(specs[0]), "class=\"legend\""), 0u);
  EXPECT_EQ(texts(renderSvg(specs[2]), "tick-label x"), std::vector<std::string>{"8"});
  EXPECT_EQ(count(renderSvg(specs[2]), "class=\"peak\""), 1u);
  EXPECT_EQ(texts(renderSvg(specs[3]), "tick-label y"),
            (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1"}));
  EXPECT_EQ(texts(renderSvg(specs[4]), "tick-label x"), std::vector<std::string>{"4"});
  const std::string bad = renderSvg(specs[5]);
  EXPECT_EQ(count(bad, "class=\"point\""), 2u);
  EXPECT_EQ(count(bad, "class=\"error-bar\""), 0u);
  EXPECT_EQ(count(bad, "class=\"peak\""), 0u);
  EXPECT_EQ(count(bad, "class=\"saturation\""), 0u);
  EXPECT_EQ(count(bad, "class=\"reference\""), 0u);
  EXPECT_EQ(texts(renderSvg(specs[6]), "tick-label y").front(), "-6");
}

TEST(ChartSvg, Deterministic) {
  const ChartSpec spec = threeSeries();
  const ChartSpec copy = spec;
  EXPECT_EQ(renderSvg(spec), renderSvg(copy));
  EXPECT_EQ(renderPanels({spec, copy}, 2, "t"), renderPanels({copy, spec}, 2, "t"));
}

std::vector<ChartSpec> panelSpecs() {
  std::vector<ChartSpec> panels;
  for (const char* phase : {"dir-create", "file-create", "file-stat"}) {
    ChartSpec spec = threeSeries();
    spec.title = phase;
    spec.subtitle.clear();
    spec.y_label = std::string(phase) + " (ops/s)";
    spec.width = 420;
    spec.height = 300;
    panels.push_back(spec);
  }
  panels[2].series.erase(panels[2].series.begin());  // a panel without the first label
  return panels;
}

// Two configurations of identical values: the second's markers would cover the first's exactly. They are set
// side by side around their place, each keeping its data, so both are seen; apart ones are not moved.
ChartSpec twins(double second_factor) {
  ChartSpec spec;
  spec.x_label = "ranks";
  spec.y_label = "file-create (ops/s)";
  spec.series = {{"A", {at(1, 100000), at(2, 200000), at(4, 300000)}},
                 {"B", {at(1, 100000 * second_factor), at(2, 200000 * second_factor), at(4, 300000)}}};
  return spec;
}

std::vector<double> circleXs(const std::string& svg) {
  const std::regex pattern("<circle class=\"point\" cx=\"([-0-9.]+)\"");
  std::vector<double> xs;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), pattern); it != std::sregex_iterator(); ++it)
    xs.push_back(std::stod((*it)[1]));
  return xs;
}

TEST(ChartSvg, CoincidingMarkersOfTwoSeriesAreSetSideBySide) {
  const std::string svg = renderSvg(twins(1.0));
  EXPECT_EQ(count(svg, "class=\"point\""), 6u);
  EXPECT_EQ(count(svg, "data-dodge=\"-5.5\""), 3u);             // A, left of its place
  EXPECT_EQ(count(svg, "data-dodge=\"5.5\""), 3u);              // B, right of it
  EXPECT_EQ(count(svg, "data-x=\"2\" data-y=\"200000\""), 2u);  // the values are kept
  // A's circles sit 5.5 px left of where A alone puts them; B is drawn in its own marker (a square).
  ChartSpec alone = twins(1.0);
  alone.series[1].points.clear();
  const std::vector<double> moved = circleXs(svg), placed = circleXs(renderSvg(alone));
  ASSERT_EQ(moved.size(), 3u);
  ASSERT_EQ(placed.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(moved[i], placed[i] - 5.5, 0.01) << i;
  EXPECT_NE(svg.find("data-series=\"B\" data-colour=\"#D55E00\" data-marker=\"square\""), std::string::npos);
  // Closer than a marker is as good as equal; apart points stay where they are.
  const std::string near = renderSvg(twins(1.004));
  EXPECT_EQ(count(near, "data-dodge="), 6u);
  const std::string apart = renderSvg(twins(1.5));
  EXPECT_EQ(count(apart, "data-dodge="), 2u);  // only at 4 ranks, where the two still meet
}

TEST(ChartPanels, Structure) {
  const std::string svg = renderPanels(panelSpecs(), 2, "Metadata scaling & <acceptance>");
  EXPECT_EQ(count(svg, "<g class=\"panel\""), 3u);
  EXPECT_NE(svg.find("<g class=\"panel\" data-title=\"file-stat\" transform=\"translate(0 "),
            std::string::npos);
  EXPECT_EQ(count(svg, "<g class=\"series\""), 8u);
  EXPECT_EQ(count(svg, "class=\"point\""), 40u);
  EXPECT_EQ(count(svg, "<g class=\"legend\""), 1u);
  EXPECT_EQ(texts(svg, "legend-label").size(), 3u);
  EXPECT_EQ(texts(svg, "title"), (std::vector<std::string>{"dir-create", "file-create", "file-stat"}));
  EXPECT_EQ(texts(svg, "figure-title"),
            std::vector<std::string>{"Metadata scaling &amp; &lt;acceptance&gt;"});
  EXPECT_NE(svg.find("viewBox=\"0 0 840 "), std::string::npos);  // two 420 px columns
  EXPECT_FALSE(hasNonFinite(svg));
}

TEST(ChartPanels, ALabelKeepsItsColourInEveryPanel) {
  const std::string svg = renderPanels(panelSpecs(), 3, "t");
  // The third panel lacks the first series; its first series is the second label, in the second colour.
  std::vector<std::pair<std::string, std::string>> seen;  // label, fill of its first point
  const std::string group = "class=\"series\" data-series=\"";
  for (auto g = svg.find(group); g != std::string::npos; g = svg.find(group, g + 1)) {
    const auto label_end = svg.find('"', g + group.size());
    const auto fill = svg.find("fill=\"", svg.find("class=\"point\"", g));
    seen.emplace_back(svg.substr(g + group.size(), label_end - g - group.size()), svg.substr(fill + 6, 7));
  }
  ASSERT_EQ(seen.size(), 8u);
  for (const auto& [label, colour] : seen) {
    EXPECT_EQ(colour, label == "nvme-a"              ? "#0072B2"
                      : label == "lustre-ost&apos;x" ? "#009E73"
                                                     : "#D55E00")
        << label;
  }
}

TEST(ChartPanels, ColumnsAreClampedAndEmptyIsValid) {
  EXPECT_NE(renderPanels(panelSpecs(), 0, "t").find("viewBox=\"0 0 420 "), std::string::npos);
  EXPECT_NE(renderPanels(panelSpecs(), 10, "t").find("viewBox=\"0 0 1260 "), std::string::npos);
  const std::string empty = renderPanels({}, 2, "nothing");
  EXPECT_EQ(count(empty, "class=\"panel\""), 0u);
  EXPECT_NE(empty.find("</svg>"), std::string::npos);
  EXPECT_FALSE(hasNonFinite(empty));
}

// --- Line looks (time series) ----------------------------------------------------------------------------

ChartSpec lineLooks() {
  ChartSpec spec;
  spec.x_scale = XScale::kLinear;
  ChartSeries total{"all ranks", {at(0, 30), at(1, 30), at(1, 20), at(2, 20)}};
  total.look = SeriesLook::kBoldLine;
  ChartSeries rank{"rank 0", {at(0, 10), at(1, 10), at(1, 5), at(2, 5)}};
  rank.look = SeriesLook::kThinLine;
  ChartSeries lone{"rank 1", {at(0.5, 7)}};
  lone.look = SeriesLook::kThinLine;
  spec.series = {total, rank, lone};
  return spec;
}

TEST(ChartSvg, LineLooksDrawLinesWithTheirDataAndNoMarkers) {
  const std::string svg = renderSvg(lineLooks());
  EXPECT_EQ(count(svg, "data-look=\"bold\""), 1u);
  EXPECT_EQ(count(svg, "data-look=\"thin\""), 2u);
  EXPECT_NE(svg.find("class=\"line\" points=\""), std::string::npos);
  EXPECT_NE(
      svg.find("data-values=\"0,30 1,30 1,20 2,20\" fill=\"none\" stroke=\"#222222\" stroke-width=\"3\""),
      std::string::npos);
  EXPECT_NE(
      svg.find("data-values=\"0,10 1,10 1,5 2,5\" fill=\"none\" stroke=\"#D55E00\" stroke-width=\"1.25\" "
               "stroke-opacity=\"0.85\""),
      std::string::npos);
  // A lone point cannot be a line: it gets a small marker, the only one in the chart.
  EXPECT_EQ(count(svg, "class=\"point\""), 1u);
  EXPECT_NE(svg.find("class=\"point\" cx=\""), std::string::npos);
  EXPECT_NE(svg.find("data-x=\"0.5\" data-y=\"7\""), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"error-bar\""), 0u);
  // The legend shows lines, no markers.
  EXPECT_EQ(count(svg, "class=\"legend-line\""), 3u);
  EXPECT_EQ(count(svg, "class=\"legend-marker\""), 0u);
  EXPECT_EQ(texts(svg, "legend-label"), (std::vector<std::string>{"all ranks", "rank 0", "rank 1"}));
}

TEST(ChartSvg, BoldLinesAreDrawnOverTheOthers) {
  const std::string svg = renderSvg(lineLooks());
  EXPECT_LT(svg.find("data-series=\"rank 0\""), svg.find("data-series=\"all ranks\""));
  EXPECT_LT(svg.find("data-series=\"rank 1\""), svg.find("data-series=\"all ranks\""));
}

TEST(ChartSvg, ThinLinesAreDashedOnceTheColoursRepeat) {
  ChartSpec spec;
  for (int r = 0; r < 17; ++r) {
    ChartSeries s{"rank " + std::to_string(r), {at(0, r), at(1, r)}};
    s.look = SeriesLook::kThinLine;
    spec.series.push_back(s);
  }
  const std::string svg = renderSvg(spec);
  EXPECT_EQ(count(svg, "stroke-dasharray=\"6 3\""), 2u * 8);  // ranks 8 to 15: line and legend swatch
  EXPECT_EQ(count(svg, "stroke-dasharray=\"2 2\""), 2u);      // rank 16
  EXPECT_FALSE(hasNonFinite(svg));
}

TEST(NiceTicks, ExactValues) {
  using V = std::vector<double>;
  EXPECT_EQ(niceTicks(0, 412000), (V{0, 100000, 200000, 300000, 400000, 500000}));
  EXPECT_EQ(niceTicks(0, 1), (V{0, 0.2, 0.4, 0.6, 0.8, 1}));
  EXPECT_EQ(niceTicks(0, 1.3), (V{0, 0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4}));
  EXPECT_EQ(niceTicks(0, 1.2), (V{0, 0.2, 0.4, 0.6, 0.8, 1, 1.2}));
  EXPECT_EQ(niceTicks(0, 2.4), (V{0, 0.5, 1, 1.5, 2, 2.5}));
  EXPECT_EQ(niceTicks(0, 1.5e6), (V{0, 250000, 500000, 750000, 1e6, 1.25e6, 1.5e6}));
  EXPECT_EQ(niceTicks(0, 7), (V{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(niceTicks(0, 100), (V{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(niceTicks(-3, 7), (V{-4, -2, 0, 2, 4, 6, 8}));
  EXPECT_EQ(niceTicks(7, -3), niceTicks(-3, 7));
  EXPECT_EQ(niceTicks(0, 0), (V{0, 0.2, 0.4, 0.6, 0.8, 1}));
  EXPECT_EQ(niceTicks(5, 5), (V{2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(niceTicks(NAN, 1), (V{0, 1}));
  EXPECT_EQ(niceTicks(0, INFINITY), (V{0, 1}));
}

TEST(NiceTicks, AlwaysFourToEightEvenTicksCoveringTheRange) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> exponent(-6, 12);
  for (int i = 0; i < 20000; ++i) {
    const double a = std::pow(10.0, exponent(rng)) * (rng() % 2 ? 1 : -1);
    const double b = std::pow(10.0, exponent(rng));
    const double lo = std::min(a, b), hi = std::max(a, b);
    const auto t = niceTicks(lo, hi);
    ASSERT_GE(t.size(), 4u) << lo << " " << hi;
    ASSERT_LE(t.size(), 8u) << lo << " " << hi;
    ASSERT_LE(t.front(), lo);
    ASSERT_GE(t.back(), hi);
    const double step = t[1] - t[0];
    for (std::size_t k = 1; k < t.size(); ++k) ASSERT_NEAR(t[k] - t[k - 1], step, step * 1e-9);
  }
}

TEST(FormatSi, ThreeSignificantDigitsAndSuffixes) {
  EXPECT_EQ(formatSi(0), "0");
  EXPECT_EQ(formatSi(0.25), "0.25");
  EXPECT_EQ(formatSi(0.001), "0.001");
  EXPECT_EQ(formatSi(1), "1");
  EXPECT_EQ(formatSi(1.234), "1.23");
  EXPECT_EQ(formatSi(12.345), "12.3");
  EXPECT_EQ(formatSi(412), "412");
  EXPECT_EQ(formatSi(999.7), "1k");
  EXPECT_EQ(formatSi(50000), "50k");
  EXPECT_EQ(formatSi(100000), "100k");
  EXPECT_EQ(formatSi(412345), "412k");
  EXPECT_EQ(formatSi(999700), "1M");
  EXPECT_EQ(formatSi(1.5e6), "1.5M");
  EXPECT_EQ(formatSi(1.25e6), "1.25M");
  EXPECT_EQ(formatSi(2.5e9), "2.5G");
  EXPECT_EQ(formatSi(3e12), "3T");
  EXPECT_EQ(formatSi(4.56e15), "4.56P");
  EXPECT_EQ(formatSi(7e18), "7E");
  EXPECT_EQ(formatSi(2e21), "2000E");
  EXPECT_EQ(formatSi(-2500), "-2.5k");
  EXPECT_EQ(formatSi(1e-5), "1e-05");
  EXPECT_EQ(formatSi(NAN), "n/a");
  EXPECT_EQ(formatSi(-INFINITY), "n/a");
}

// --- Throughput over time in mdbench report ------------------------------------------------------------

using Points = std::vector<ChartPoint>;

// x, y of each point (ratesOverTime gives no error bars: y_low = y_high = y).
std::vector<std::pair<double, double>> xy(const Points& points) {
  std::vector<std::pair<double, double>> out;
  for (const ChartPoint& p : points) {
    EXPECT_EQ(p.y_low, p.y);
    EXPECT_EQ(p.y_high, p.y);
    out.emplace_back(p.x, p.y);
  }
  return out;
}

using XY = std::vector<std::pair<double, double>>;

TEST(RatesOverTime, StepsOfCountOverLength) {
  const std::vector<std::uint64_t> counts = {10, 20, 5};
  // The rank finished 0.08 s into its third interval: that one is 0.08 s long.
  const XY steps = xy(ratesOverTime(counts, 0.1, 0.28));
  ASSERT_EQ(steps.size(), 6u);
  EXPECT_EQ(steps[0], std::make_pair(0.0, 100.0));
  EXPECT_EQ(steps[1], std::make_pair(0.1, 100.0));
  EXPECT_EQ(steps[2], std::make_pair(0.1, 200.0));
  EXPECT_DOUBLE_EQ(steps[3].first, 0.2);
  EXPECT_DOUBLE_EQ(steps[3].second, 200.0);
  EXPECT_DOUBLE_EQ(steps[4].first, 0.2);
  EXPECT_DOUBLE_EQ(steps[4].second, 62.5);
  EXPECT_DOUBLE_EQ(steps[5].first, 0.28);
  EXPECT_DOUBLE_EQ(steps[5].second, 62.5);
}

TEST(RatesOverTime, ASliverAtTheEndJoinsTheIntervalBefore) {
  const std::vector<std::uint64_t> counts = {10, 20, 5};
  // 5 ops in 0.01 s would read as 500 ops/s: with the interval before, 25 ops in 0.11 s.
  const XY steps = xy(ratesOverTime(counts, 0.1, 0.21));
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[1], std::make_pair(0.1, 100.0));
  EXPECT_DOUBLE_EQ(steps[2].first, 0.1);
  EXPECT_DOUBLE_EQ(steps[2].second, 25 / 0.11);
  EXPECT_DOUBLE_EQ(steps[3].first, 0.21);
}

TEST(RatesOverTime, ShortAndOddRows) {
  // A phase shorter than an interval: its real length.
  EXPECT_EQ(xy(ratesOverTime(std::vector<std::uint64_t>{3}, 0.1, 0.05)), (XY{{0.0, 60.0}, {0.05, 60.0}}));
  // Intervals after the one holding the end are not drawn (they are zeros: the rank had finished).
  EXPECT_EQ(xy(ratesOverTime(std::vector<std::uint64_t>{5, 0, 0, 0}, 0.1, 0.1)),
            (XY{{0.0, 50.0}, {0.1, 50.0}}));
  // An end beyond the counts (no end known inside the last one): whole intervals.
  EXPECT_EQ(xy(ratesOverTime(std::vector<std::uint64_t>{4, 4}, 0.1, 0.35)),
            (XY{{0.0, 40.0}, {0.1, 40.0}, {0.1, 40.0}, {0.2, 40.0}}));
  // A rank that ended at its start (no time): whole intervals too.
  EXPECT_EQ(xy(ratesOverTime(std::vector<std::uint64_t>{1}, 0.5, 0.0)), (XY{{0.0, 2.0}, {0.5, 2.0}}));
  EXPECT_TRUE(ratesOverTime({}, 0.1, 1.0).empty());
  EXPECT_TRUE(ratesOverTime(std::vector<std::uint64_t>{1}, 0.0, 1.0).empty());
  EXPECT_TRUE(ratesOverTime(std::vector<std::uint64_t>{1}, NAN, 1.0).empty());
  EXPECT_TRUE(ratesOverTime(std::vector<std::uint64_t>{1}, 0.1, INFINITY).empty());
}

// A made-up 4-rank run at 0.1 s intervals: in file-create rank 3 is a straggler (60 ops per interval for
// 3 s, the others 100 for 2 s); in file-stat every rank stalls from 1 s to 1.3 s.
StoredPhase timelinePhase(Phase phase, std::uint32_t iteration, std::uint32_t ranks,
                          const std::vector<std::vector<std::uint32_t>>& rows) {
  StoredPhase p;
  p.phase = phase;
  p.iteration = iteration;
  p.has_series = true;
  p.series.interval_s = 0.1;
  std::size_t n = 0;
  for (const auto& row : rows) n = std::max(n, row.size());
  p.series.intervals = static_cast<std::uint32_t>(n);
  p.series.total.assign(n, 0);
  for (std::uint32_t r = 0; r < ranks; ++r) {
    const std::vector<std::uint32_t>& row = rows[r % rows.size()];
    RankPhaseRecord rank;  // rank r: the r-th of p.ranks
    rank.t_start = 10.0;
    rank.t_local_end = 10.0 + 0.1 * static_cast<double>(row.size());
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint32_t count = k < row.size() ? row[k] : 0;
      p.series.per_rank.push_back(count);
      p.series.total[k] += count;
      rank.ok += count;
    }
    rank.planned = rank.ok;
    p.aggregate.ok += rank.ok;
    p.ranks.push_back(rank);
  }
  p.aggregate.ops_per_s = static_cast<double>(p.aggregate.ok) / 3.5;
  p.done = doneRates(p.ranks, p.series);
  return p;
}

StoredRun timelineRun(const std::string& group, std::uint32_t ranks) {
  StoredRun run;
  run.group = group;
  run.info.ranks = ranks;
  run.has_series = true;
  const std::vector<std::uint32_t> fast(20, 100), slow(30, 60);
  std::vector<std::uint32_t> stalled(25, 200);
  for (std::size_t k = 10; k < 13; ++k) stalled[k] = 0;
  run.phases.push_back(timelinePhase(Phase::kFileCreate, 0, ranks, {fast, fast, fast, slow}));
  run.phases.push_back(timelinePhase(Phase::kFileStat, 0, ranks, {stalled}));
  run.phases.push_back(timelinePhase(Phase::kFileCreate, 1, ranks, {fast}));  // not drawn: iteration 1
  return run;
}

// The run above, and one from a file written before schema version 5.
StoredResults timelineResults() {
  StoredResults results;
  results.schema_version = kSchemaVersion;
  results.runs.push_back(timelineRun("/runs/run-0000", 4));
  StoredRun old;
  old.group = "/runs/run-0001";
  old.info.ranks = 2;
  StoredPhase p;
  p.phase = Phase::kFileCreate;
  old.phases.push_back(p);
  results.runs.push_back(old);
  return results;
}

TEST(Timeline, RunsOfAConfiguration) {
  const std::vector<TimelineRun> runs = timelineRuns("ssd", {"a.h5"}, {timelineResults()});
  ASSERT_EQ(runs.size(), 2u);
  const TimelineRun& t = runs[0];
  EXPECT_EQ(t.label, "ssd");
  EXPECT_EQ(t.file, "a.h5");
  EXPECT_EQ(t.group, "/runs/run-0000");
  EXPECT_EQ(t.stem, "timeline-ssd-run-0000");
  EXPECT_EQ(t.ranks, 4u);
  EXPECT_TRUE(t.has_series);
  ASSERT_EQ(t.phases.size(), 2u);  // the first iteration's
  const TimelinePhase& create = t.phases[0];
  EXPECT_EQ(create.phase, Phase::kFileCreate);
  EXPECT_EQ(create.interval_s, 0.1);
  EXPECT_EQ(create.done.first_done_ops, 7200u);  // ranks 0 to 2 all 6000, rank 3 its first 20 intervals
  // Every rank: 2 points per interval up to its end; the sum up to the slowest rank's, one step for as long
  // as its rate does not change.
  ASSERT_EQ(create.ranks.size(), 4u);
  EXPECT_EQ(create.ranks[0].size(), 40u);
  EXPECT_EQ(create.ranks[3].size(), 60u);
  // (Near: 29 x 0.1 and 13 - 10 are not exact in binary.)
  EXPECT_NEAR(create.ranks[3].back().x, 3.0, 1e-9);
  EXPECT_NEAR(create.ranks[3].back().y, 600.0, 1e-6);
  ASSERT_EQ(create.total.size(), 4u);
  EXPECT_DOUBLE_EQ(create.total.front().y, 3600.0);  // 3 x 100 + 60 ops in 0.1 s, for 2 s
  EXPECT_NEAR(create.total[1].x, 2.0, 1e-9);
  EXPECT_NEAR(create.total.back().y, 600.0, 1e-6);  // the straggler alone
  const TimelinePhase& stat = t.phases[1];
  ASSERT_EQ(stat.total.size(), 6u);
  EXPECT_NEAR(stat.total[2].x, 1.0, 1e-9);  // the stall, from 1 s to 1.3 s
  EXPECT_DOUBLE_EQ(stat.total[2].y, 0.0);
  EXPECT_NEAR(stat.total[3].x, 1.3, 1e-9);
  EXPECT_DOUBLE_EQ(stat.total[4].y, 8000.0);

  EXPECT_EQ(runs[1].stem, "timeline-ssd-run-0001");
  EXPECT_FALSE(runs[1].has_series);
  EXPECT_TRUE(runs[1].phases.empty());

  // With several files, the file's place in the configuration tells runs of the same name apart.
  const std::vector<TimelineRun> two =
      timelineRuns("a b", {"x.h5", "y.h5"}, {timelineResults(), timelineResults()});
  ASSERT_EQ(two.size(), 4u);
  EXPECT_EQ(two[2].stem, "timeline-a-b-2-run-0000");
  EXPECT_EQ(two[2].file, "y.h5");
}

TEST(Timeline, RankLinesUpToSixteenRanksAndOnlyForRanksWithWork) {
  StoredResults many;
  many.runs.push_back(timelineRun("/runs/run-0000", kTimelineMaxRankLines + 1));
  const TimelinePhase p = timelineRuns("x", {"x.h5"}, {many}).at(0).phases.at(0);
  EXPECT_TRUE(p.ranks.empty());
  EXPECT_FALSE(p.total.empty());

  StoredResults idle = timelineResults();
  StoredPhase& create = idle.runs[0].phases[0];
  create.ranks[1].planned = 0;  // a rank without work (rank 0 alone builds a shared tree) draws no line
  const TimelinePhase q = timelineRuns("x", {"x.h5"}, {idle}).at(0).phases.at(0);
  ASSERT_EQ(q.ranks.size(), 4u);
  EXPECT_TRUE(q.ranks[1].empty());
  EXPECT_FALSE(q.ranks[2].empty());
  const std::vector<ChartSpec> charts = timelineCharts(timelineRuns("x", {"x.h5"}, {idle}).at(0));
  ASSERT_EQ(charts.size(), 2u);
  std::vector<std::string> labels;
  for (const ChartSeries& s : charts[0].series) labels.push_back(s.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"all ranks", "rank 0", "rank 2", "rank 3"}));
}

TEST(Timeline, ChartsOfARun) {
  const TimelineRun run = timelineRuns("ssd", {"a.h5"}, {timelineResults()}).at(0);
  const std::vector<ChartSpec> charts = timelineCharts(run);
  ASSERT_EQ(charts.size(), 2u);
  const ChartSpec& c = charts[0];
  EXPECT_EQ(c.title, "file-create");
  EXPECT_EQ(c.subtitle, "first done 2 s, last done 3 s");
  EXPECT_EQ(c.x_label, "s since the phase started");
  EXPECT_EQ(c.y_label, "ops/s");
  EXPECT_EQ(c.x_scale, XScale::kLinear);
  ASSERT_EQ(c.series.size(), 5u);
  EXPECT_EQ(c.series[0].label, "all ranks");
  EXPECT_EQ(c.series[0].look, SeriesLook::kBoldLine);
  EXPECT_EQ(c.series[4].label, "rank 3");
  EXPECT_EQ(c.series[4].look, SeriesLook::kThinLine);

  // A short phase reads in milliseconds: the times are scaled, the rates are not.
  StoredResults quick;
  quick.runs.push_back(timelineRun("/runs/run-0000", 1));
  StoredPhase& p = quick.runs[0].phases[0];
  p.series.interval_s = 0.001;
  p.ranks[0].t_local_end = p.ranks[0].t_start + 0.02;
  p.done = {0.02, 2000, 100000.0, 0.02, 100000.0};
  const ChartSpec ms = timelineCharts(timelineRuns("q", {"q.h5"}, {quick}).at(0)).at(0);
  EXPECT_EQ(ms.x_label, "ms since the phase started");
  EXPECT_EQ(ms.subtitle, "first done 20 ms, last done 20 ms");
  EXPECT_NEAR(ms.series[0].points.back().x, 20.0, 1e-9);
  EXPECT_NEAR(ms.series[0].points.back().y, 100000.0, 1e-3);
}

TEST(Timeline, InTheReport) {
  const std::vector<StoredResults> results = {timelineResults()};
  const std::vector<Configuration> configs = {buildConfiguration("ssd", {"a.h5"}, results)};
  const std::vector<TimelineRun> timelines = timelineRuns("ssd", {"a.h5"}, results);
  const std::vector<ReportChart> charts = reportCharts(configs, ReportOptions{}, timelines);
  const auto timeline = std::find_if(charts.begin(), charts.end(),
                                     [](const ReportChart& c) { return c.stem == "timeline-ssd-run-0000"; });
  ASSERT_NE(timeline, charts.end());
  EXPECT_EQ(timeline->timeline, std::optional<std::size_t>(0));
  EXPECT_EQ(timeline->series, "");
  EXPECT_EQ(std::count_if(charts.begin(), charts.end(), [](const ReportChart& c) { return c.timeline; }), 1);
  const std::string& svg = timeline->svg;
  EXPECT_EQ(count(svg, "<g class=\"panel\""), 2u);
  EXPECT_EQ(texts(svg, "figure-title"),
            std::vector<std::string>{"ssd: a.h5 /runs/run-0000 (4 ranks): ops/s over time, iteration 0"});
  EXPECT_EQ(texts(svg, "legend-label"),
            (std::vector<std::string>{"all ranks", "rank 0", "rank 1", "rank 2", "rank 3"}));
  EXPECT_EQ(count(svg, "data-look=\"bold\""), 2u);
  EXPECT_EQ(count(svg, "data-look=\"thin\""), 8u);
  EXPECT_NE(svg.find("data-values=\"0,3600 2,3600 2,600 3,600\""), std::string::npos);
  EXPECT_FALSE(hasNonFinite(svg));

  const std::string md = reportMarkdown(configs, ReportOptions{}, charts, timelines);
  EXPECT_NE(md.find("## Throughput over time\n"), std::string::npos);
  EXPECT_NE(
      md.find(
          "### ssd: a.h5 /runs/run-0000 (4 ranks)\n\n![timeline-ssd-run-0000](timeline-ssd-run-0000.svg)"),
      std::string::npos);
  EXPECT_NE(md.find("| phase | ops/s | first done | first-done ops/s | last done | last-done ops/s |"),
            std::string::npos);
  EXPECT_NE(md.find("| file-create | 2,229 | 2 s | 3,600 | 3 s | 2,600 |"), std::string::npos);
  EXPECT_NE(
      md.find("- ssd: a.h5: written before results schema version 5: no throughput over time was stored"),
      std::string::npos);
  EXPECT_EQ(count(md, "![overview]"), 1u);  // the timeline is not taken for the overview

  const std::string text = reportText(configs, ReportOptions{}, timelines);
  EXPECT_NE(text.find("First-done and last-done rates (first iteration of each run):\n"
                      "  ssd: a.h5 /runs/run-0000 (4 ranks)\n"),
            std::string::npos);
  EXPECT_NE(text.find("  ssd: a.h5: written before results schema version 5"), std::string::npos);
  // Without timelines (callers that have none), the report is as before.
  EXPECT_EQ(reportText(configs, ReportOptions{}).find("First-done"), std::string::npos);
}

// --- PNG ----------------------------------------------------------------------------------------------

class SvgToPng : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) / ("chart_test." + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& content) {
    const auto path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  std::filesystem::path dir_;
};

std::uint32_t bigEndian(const std::string& s, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(s[at + i]);
  return v;
}

void expectPng(const std::string& path, std::uint32_t width, std::uint32_t height) {
  std::ifstream in(path, std::ios::binary);
  const std::string png((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(png.size(), 24u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  EXPECT_EQ(bigEndian(png, 16), width);
  EXPECT_EQ(bigEndian(png, 20), height);
}

// The height in the viewBox of an SVG file written by the renderer.
std::uint32_t pngHeight(const std::string& svg_path) {
  std::ifstream in(svg_path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::smatch height;
  EXPECT_TRUE(std::regex_search(text, height, std::regex("viewBox=\"0 0 [0-9]+ ([0-9]+)\""))) << svg_path;
  return height.empty() ? 0 : static_cast<std::uint32_t>(std::stoul(height[1]));
}

TEST_F(SvgToPng, ChartAndPanelsBecomePngsOfTheirSize) {
  // MDBENCH_CHART_GALLERY=DIR also keeps the samples there, for people to look at.
  const char* gallery = std::getenv("MDBENCH_CHART_GALLERY");
  const auto keep = [&](const std::string& name, const std::string& svg) {
    if (gallery != nullptr) std::ofstream(std::filesystem::path(gallery) / name, std::ios::binary) << svg;
    return write(name, svg);
  };
  ChartSpec relative;
  relative.title = "file-create relative to nvme-a";
  relative.x_label = "ranks";
  relative.y_label = "ops/s relative to baseline";
  relative.reference_y = 1.0;
  relative.reference_label = "baseline = 1.0";
  relative.series = {{"lustre", {at(1, 0.17), at(2, 0.17), at(4, 0.17), at(8, 0.15), at(16, 0.29)}},
                     {"ceph", {at(1, 0.77), at(2, 0.77), at(4, 0.76), at(8, 0.51), at(16, 0.64)}}};
  const std::string chart = keep("scaling.svg", renderSvg(threeSeries()));
  svgToPng(keep("crowded.svg", renderSvg(crowded())), (dir_ / "crowded.png").string());
  expectPng((dir_ / "crowded.png").string(), 800, 500);
  const std::string rel = keep("relative.svg", renderSvg(relative));
  const std::string panels = keep("panels.svg", renderPanels(panelSpecs(), 2, "Metadata scaling"));
  const TimelineRun run = timelineRuns("ssd", {"sweep.h5"}, {timelineResults()}).at(0);
  const std::string timeline =
      keep("timeline.svg", renderPanels(timelineCharts(run), 2, "ssd: ops/s over time"));
  svgToPng(timeline, (dir_ / "timeline.png").string());
  expectPng((dir_ / "timeline.png").string(), 1040, pngHeight(timeline));
  svgToPng(chart, (dir_ / "scaling.png").string());
  expectPng((dir_ / "scaling.png").string(), 800, 500);
  svgToPng(rel, (dir_ / "relative.png").string());
  expectPng((dir_ / "relative.png").string(), 800, 500);
  svgToPng(panels, (dir_ / "panels.png").string());
  expectPng((dir_ / "panels.png").string(), 840, pngHeight(panels));
}

std::string errorOf(const std::string& svg, const std::string& png) {
  try {
    svgToPng(svg, png);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

TEST_F(SvgToPng, ErrorsNameTheProblem) {
  const std::string missing = (dir_ / "missing.svg").string();
  EXPECT_EQ(errorOf(missing, (dir_ / "x.png").string()),
            "cannot read SVG file " + missing + ": No such file or directory");
  const std::string broken = write("broken.svg", "<svg><unclosed>");
  EXPECT_EQ(errorOf(broken, (dir_ / "x.png").string())
                .rfind("rsvg-convert failed converting " + broken + " to " + (dir_ / "x.png").string() +
                           " (exit status 1): ",
                       0),
            0u);
  const std::string good = write("good.svg", renderSvg(ChartSpec{}));
  const char* old_path = std::getenv("PATH");
  const std::string path = old_path != nullptr ? old_path : "/usr/bin:/bin";
  ::setenv("PATH", dir_.c_str(), 1);
  const std::string not_installed = errorOf(good, (dir_ / "x.png").string());
  ::setenv("PATH", path.c_str(), 1);
  EXPECT_EQ(not_installed, "PNG output needs rsvg-convert (apt-get install librsvg2-bin)");
}

}  // namespace
}  // namespace mdbench
