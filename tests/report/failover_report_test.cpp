// The report's failover part (issue 34, --fault-at): the chart renderer's bands and marks, where the chart's
// own axis puts their times (read back from the SVG's numbers).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>
#include <string>
#include <vector>

#include "mdbench/model/fault.hpp"
#include "mdbench/report/chart.hpp"
#include "mdbench/report/report.hpp"
#include "mdbench/results/results_file.hpp"
#include "output_lines.hpp"

namespace mdbench {
namespace {

using output_test::linesAre;
using output_test::splitLines;

// --- Reading an SVG's numbers --------------------------------------------------------------------------

// The start tags of the elements <tag class="cls" ...>, in document order.
std::vector<std::string> tags(const std::string& svg, const std::string& tag, const std::string& cls) {
  const std::regex pattern("<" + tag + " class=\"" + cls + "\"[^>]*>");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), pattern); it != std::sregex_iterator(); ++it)
    out.push_back(it->str());
  return out;
}

double attr(const std::string& tag, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(tag, m, std::regex(" " + name + "=\"([^\"]*)\""))) {
    ADD_FAILURE() << "no " << name << " in " << tag;
    return std::numeric_limits<double>::quiet_NaN();
  }
  return std::stod(m[1]);
}

// A chart's plot area and x axis as drawn: the axis path "M left top V bottom H right", and the pixel of
// an x value from the x tick labels (their text is the value, their x its pixel).
struct Axes {
  double left = 0, top = 0, bottom = 0, right = 0;
  double x0 = 0, px0 = 0, x1 = 1, px1 = 1;  // two ticks: values and pixels
  double pixel(double x) const { return px0 + (x - x0) * (px1 - px0) / (x1 - x0); }
};

Axes axesOf(const std::string& svg) {
  Axes a;
  std::smatch m;
  EXPECT_TRUE(std::regex_search(
      svg, m, std::regex("<path class=\"axis\" d=\"M([-0-9.]+) ([-0-9.]+) V([-0-9.]+) H([-0-9.]+)\"")));
  if (m.empty()) return a;
  a.left = std::stod(m[1]);
  a.top = std::stod(m[2]);
  a.bottom = std::stod(m[3]);
  a.right = std::stod(m[4]);
  const std::regex tick("<text class=\"tick-label x\" x=\"([-0-9.]+)\"[^>]*>([-0-9.]+)</text>");
  std::vector<std::pair<double, double>> ticks;  // (value, pixel)
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tick); it != std::sregex_iterator(); ++it)
    ticks.emplace_back(std::stod((*it)[2]), std::stod((*it)[1]));
  EXPECT_GE(ticks.size(), 2u) << svg;
  if (ticks.size() < 2) return a;
  std::tie(a.x0, a.px0) = ticks.front();
  std::tie(a.x1, a.px1) = ticks.back();
  return a;
}

// The label boxes (their white patches) drawn for text of class `cls`: the rect just before each text.
std::vector<std::string> labelPatches(const std::string& svg, const std::string& cls) {
  const std::regex pattern("(<rect class=\"label-bg\"[^>]*>)\\s*<text class=\"" + cls + "\"");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), pattern); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

bool overlap(const std::string& a, const std::string& b) {
  return attr(a, "x") < attr(b, "x") + attr(b, "width") && attr(b, "x") < attr(a, "x") + attr(a, "width") &&
         attr(a, "y") < attr(b, "y") + attr(b, "height") && attr(b, "y") < attr(a, "y") + attr(a, "height");
}

// Within half a pixel: the SVG writes coordinates with two decimals, the ticks' labels round their values.
constexpr double kPixel = 0.5;

// --- The renderer: bands and marks of any chart ---------------------------------------------------------

ChartSpec lineChart() {
  ChartSpec spec;
  spec.title = "file-create";
  spec.x_label = "s since the phase started";
  spec.y_label = "ops/s";
  spec.x_scale = XScale::kLinear;
  ChartSeries total{"all ranks",
                    {{0, 1000, 1000, 1000},
                     {1.2, 1000, 1000, 1000},
                     {1.2, 0, 0, 0},
                     {1.7, 0, 0, 0},
                     {1.7, 900, 900, 900},
                     {4, 900, 900, 900}}};
  total.look = SeriesLook::kBoldLine;
  spec.series.push_back(total);
  return spec;
}

TEST(ChartMarks, ABandSpansThePlotFromItsStartToItsEndAndAMarkIsALineAtItsX) {
  ChartSpec spec = lineChart();
  spec.bands = {{1.2, 1.7, "stall 500 ms"}};
  spec.marks = {{1.2, "fault 1"}, {3.0, "fault 2"}};
  const std::string svg = renderSvg(spec);
  const Axes axes = axesOf(svg);

  const std::vector<std::string> bands = tags(svg, "g", "band");
  ASSERT_EQ(bands.size(), 1u) << svg;
  EXPECT_EQ(attr(bands[0], "data-from"), 1.2);
  EXPECT_EQ(attr(bands[0], "data-to"), 1.7);
  const std::vector<std::string> areas = tags(svg, "rect", "band-area");
  ASSERT_EQ(areas.size(), 1u);
  EXPECT_NEAR(attr(areas[0], "x"), axes.pixel(1.2), kPixel);
  EXPECT_NEAR(attr(areas[0], "x") + attr(areas[0], "width"), axes.pixel(1.7), kPixel);
  EXPECT_GT(attr(areas[0], "width"), 10.0);
  EXPECT_NEAR(attr(areas[0], "y"), axes.top, kPixel);  // the plot's whole height
  EXPECT_NEAR(attr(areas[0], "y") + attr(areas[0], "height"), axes.bottom, kPixel);
  EXPECT_LT(attr(areas[0], "fill-opacity"), 1.0);  // translucent: the data shows through

  const std::vector<std::string> lines = tags(svg, "line", "mark-line");
  ASSERT_EQ(lines.size(), 2u);
  const std::vector<double> at = {1.2, 3.0};
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_NEAR(attr(lines[i], "x1"), axes.pixel(at[i]), kPixel) << lines[i];
    EXPECT_EQ(attr(lines[i], "x1"), attr(lines[i], "x2")) << "vertical";
    EXPECT_NEAR(attr(lines[i], "y1"), axes.top, kPixel);
    EXPECT_NEAR(attr(lines[i], "y2"), axes.bottom, kPixel);
  }
  EXPECT_EQ(attr(tags(svg, "g", "mark")[1], "data-x"), 3.0);
  // Behind the data (drawn before the series), the marks over it.
  EXPECT_LT(svg.find("class=\"band\""), svg.find("class=\"series\""));
  EXPECT_GT(svg.find("class=\"mark\""), svg.find("class=\"series\""));

  // The labels, and none over another.
  const std::vector<std::string> marks = labelPatches(svg, "mark-label");
  const std::vector<std::string> band = labelPatches(svg, "band-label");
  ASSERT_EQ(marks.size(), 2u);
  ASSERT_EQ(band.size(), 1u);
  EXPECT_NE(svg.find(">fault 1</text>"), std::string::npos);
  EXPECT_NE(svg.find(">fault 2</text>"), std::string::npos);
  EXPECT_NE(svg.find(">stall 500 ms</text>"), std::string::npos);
  EXPECT_FALSE(overlap(marks[0], band[0]));
  EXPECT_FALSE(overlap(marks[1], band[0]));
  EXPECT_FALSE(overlap(marks[0], marks[1]));
}

TEST(ChartMarks, TwoMarksAtOneTimeKeepTheirLabelsApart) {
  ChartSpec spec = lineChart();
  spec.marks = {{2.0, "fault 1"}, {2.0, "fault 2"}, {2.0, "fault 3"}};
  const std::vector<std::string> labels = labelPatches(renderSvg(spec), "mark-label");
  ASSERT_EQ(labels.size(), 3u);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    for (std::size_t j = i + 1; j < labels.size(); ++j) EXPECT_FALSE(overlap(labels[i], labels[j])) << i << j;
  }
}

TEST(ChartMarks, NothingDrawnThatIsNotAnInterval) {
  ChartSpec spec = lineChart();
  spec.bands = {{1.7, 1.2, "backwards"}, {NAN, 1.0, "nan"}};
  spec.marks = {{INFINITY, "never"}};
  const std::string svg = renderSvg(spec);
  EXPECT_TRUE(tags(svg, "g", "band").empty());
  EXPECT_TRUE(tags(svg, "g", "mark").empty());
  EXPECT_EQ(svg, renderSvg(lineChart())) << "as if there were none";
}

TEST(ChartMarks, AMarkPastTheDataWidensTheAxisToShowIt) {
  ChartSpec spec = lineChart();
  spec.marks = {{9.0, "fault 1"}};
  const std::string svg = renderSvg(spec);
  const Axes axes = axesOf(svg);
  const std::vector<std::string> lines = tags(svg, "line", "mark-line");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NEAR(attr(lines[0], "x1"), axes.pixel(9.0), kPixel);
  EXPECT_LE(attr(lines[0], "x1"), axes.right);
}

}  // namespace
}  // namespace mdbench
