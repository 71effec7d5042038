// The report's failover part (issue 34, --fault-at): the throughput over time shades each phase's stall and
// draws each injected fault at its start, where the chart's own axis puts those times (read back from the
// SVG's numbers); the failover table's rows in the text and the Markdown; and a run without faults shows
// neither, exactly as before.
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

// The part of a panel figure that is the panel titled `title`.
std::string panel(const std::string& svg, const std::string& title) {
  const std::size_t at = svg.find("<g class=\"panel\" data-title=\"" + title + "\"");
  EXPECT_NE(at, std::string::npos) << "no panel " << title;
  if (at == std::string::npos) return {};
  return svg.substr(at, svg.find("<g class=\"panel\"", at + 1) - at);
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

// --- From a results file: the throughput over time --------------------------------------------------------

FaultRecord fault(double at_s, bool injected, double t_start, const std::string& problem, double recovery_s) {
  FaultRecord f;
  f.at_s = at_s;
  f.command = "kill -STOP $PPID; sleep 0.5; kill -CONT $PPID";
  f.injected = injected;
  f.t_start = t_start;
  f.exit_status = injected && problem.empty() ? 0 : -1;
  f.problem = problem;
  f.recovery_s = recovery_s;
  return f;
}

// One rank at 0.1 s intervals (times x `scale`), its phase starting 10 s into the run: 100 ops an interval
// for 3 s, none from 1.2 s to 1.7 s, the stall; 3 failed ops, the latency max 503 ms.
StoredPhase createPhase(std::uint32_t iteration, std::vector<FaultRecord> faults, double scale = 1.0) {
  StoredPhase p;
  p.phase = Phase::kFileCreate;
  p.iteration = iteration;
  p.has_series = true;
  p.series.interval_s = 0.1 * scale;
  std::vector<std::uint32_t> counts(30, 100);
  std::fill(counts.begin() + 12, counts.begin() + 17, 0);
  p.series.intervals = 30;
  p.series.per_rank = counts;
  p.series.total.assign(counts.begin(), counts.end());
  RankPhaseRecord rank;
  rank.t_start = 10.0;
  rank.t_local_end = 10.0 + 3.0 * scale;
  rank.planned = rank.ok = 2500;
  rank.failed = 3;
  p.ranks = {rank};
  p.aggregate.ok = 2500;
  p.aggregate.failed = 3;
  p.aggregate.ops_per_s = 2500 / (3.0 * scale);
  p.latency_summary.max_ns = 503'000'000;
  p.stall = {true, 0.5 * scale, 10.0 + 1.2 * scale, 10.0 + 1.7 * scale, 0.001 * scale};
  p.faults = std::move(faults);
  return p;
}

// A tree-create of one op, over before any fault's time: the faults not injected, no stall to show.
StoredPhase treePhase(std::uint32_t iteration, std::size_t faults) {
  StoredPhase p;
  p.phase = Phase::kTreeCreate;
  p.iteration = iteration;
  p.has_series = true;
  p.series.interval_s = 0.1;
  p.series.intervals = 1;
  p.series.per_rank = {1};
  p.series.total = {1};
  RankPhaseRecord rank;
  rank.t_start = 9.9;
  rank.t_local_end = 9.9001;
  rank.planned = rank.ok = 1;
  p.ranks = {rank};
  p.aggregate.ok = 1;
  p.latency_summary.max_ns = 83'000;
  p.stall = {true, 0.0001, 9.9, 9.9001, 0.001};
  for (std::size_t i = 0; i < faults; ++i) p.faults.push_back(fault(1.2, false, 0.0, "", NAN));
  return p;
}

StoredResults resultsOf(std::vector<StoredPhase> phases) {
  StoredResults results;
  results.schema_version = kSchemaVersion;
  StoredRun run;
  run.group = "/runs/run-0000";
  run.info.ranks = 1;
  run.has_series = true;
  run.status = "complete";
  run.exit_status = 0;
  run.phases = std::move(phases);
  results.runs.push_back(std::move(run));
  return results;
}

// --fault-at 1.2 with a freeze of 0.5 s: injected at 1.2 s, recovered 1 s later; two iterations, the second
// never recovering within its phase.
StoredResults freezeResults() {
  return resultsOf({treePhase(0, 1), createPhase(0, {fault(1.2, true, 1.2, "", 1.0)}), treePhase(1, 1),
                    createPhase(1, {fault(1.2, true, 1.25, "", FaultRecord::kNotRecovered)})});
}

TEST(TimelineFailover, TheStallIsABandAndEachInjectedFaultALineInTheChartsUnit) {
  const std::vector<TimelineRun> runs = timelineRuns("freeze", {"f.h5"}, {freezeResults()});
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(runs[0].failover.size(), 4u);  // every iteration's phases with faults given
  EXPECT_EQ(runs[0].failover[3].iteration, 1u);
  const std::vector<ChartSpec> charts = timelineCharts(runs[0]);
  ASSERT_EQ(charts.size(), 1u);  // the tree-create is too short to chart
  const ChartSpec& c = charts[0];
  ASSERT_EQ(c.bands.size(), 1u);
  EXPECT_NEAR(c.bands[0].from, 1.2, 1e-9);
  EXPECT_NEAR(c.bands[0].to, 1.7, 1e-9);
  EXPECT_EQ(c.bands[0].label, "stall 500 ms");
  ASSERT_EQ(c.marks.size(), 1u);
  EXPECT_NEAR(c.marks[0].x, 1.2, 1e-9);
  EXPECT_EQ(c.marks[0].label, "fault 1");

  // A fault not injected gets no line; the others keep their numbers.
  StoredResults two = resultsOf(
      {createPhase(0, {fault(100, false, 0.0, "", NAN), fault(2.5, true, 2.5, "exit status 3", NAN)})});
  const ChartSpec c2 = timelineCharts(timelineRuns("x", {"x.h5"}, {two}).at(0)).at(0);
  ASSERT_EQ(c2.marks.size(), 1u);
  EXPECT_NEAR(c2.marks[0].x, 2.5, 1e-9);
  EXPECT_EQ(c2.marks[0].label, "fault 2");

  // A phase of 30 ms reads in milliseconds: so do the band and the lines.
  StoredResults quick = resultsOf({createPhase(0, {fault(0.012, true, 0.012, "", NAN)}, 0.01)});
  const ChartSpec ms = timelineCharts(timelineRuns("q", {"q.h5"}, {quick}).at(0)).at(0);
  EXPECT_EQ(ms.x_label, "ms since the phase started");
  ASSERT_EQ(ms.bands.size(), 1u);
  EXPECT_NEAR(ms.bands[0].from, 12.0, 1e-6);
  EXPECT_NEAR(ms.bands[0].to, 17.0, 1e-6);
  EXPECT_EQ(ms.bands[0].label, "stall 5 ms");
  ASSERT_EQ(ms.marks.size(), 1u);
  EXPECT_NEAR(ms.marks[0].x, 12.0, 1e-6);
}

TEST(TimelineFailover, TheReportsFigureDrawsThemWhereItsAxisPutsTheirTimes) {
  const std::vector<StoredResults> results = {freezeResults()};
  const std::vector<TimelineRun> runs = timelineRuns("freeze", {"f.h5"}, results);
  const std::vector<ReportChart> charts =
      reportCharts({buildConfiguration("freeze", {"f.h5"}, results)}, {}, runs);
  const auto timeline =
      std::find_if(charts.begin(), charts.end(), [](const ReportChart& c) { return c.timeline.has_value(); });
  ASSERT_NE(timeline, charts.end());
  const std::string svg = panel(timeline->svg, "file-create");
  const Axes axes = axesOf(svg);
  const std::vector<std::string> areas = tags(svg, "rect", "band-area");
  ASSERT_EQ(areas.size(), 1u) << svg;
  EXPECT_NEAR(attr(areas[0], "x"), axes.pixel(1.2), kPixel);
  EXPECT_NEAR(attr(areas[0], "x") + attr(areas[0], "width"), axes.pixel(1.7), kPixel);
  EXPECT_NEAR(attr(areas[0], "height"), axes.bottom - axes.top, kPixel);
  const std::vector<std::string> lines = tags(svg, "line", "mark-line");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NEAR(attr(lines[0], "x1"), axes.pixel(1.2), kPixel);
  // The band is where the data says nothing was done: the bold line at 0 from 1.2 s to 1.7 s.
  std::smatch values;
  ASSERT_TRUE(std::regex_search(
      svg, values, std::regex("data-look=\"bold\">\\s*<polyline[^>]* data-values=\"([^\"]*)\"")));
  std::vector<double> zero;
  const std::string data = values[1];
  const std::regex pair("([-0-9.e]+),([-0-9.e]+)");
  for (auto it = std::sregex_iterator(data.begin(), data.end(), pair); it != std::sregex_iterator(); ++it) {
    if (std::stod((*it)[2]) == 0.0) zero.push_back(std::stod((*it)[1]));
  }
  ASSERT_FALSE(zero.empty());
  EXPECT_NEAR(*std::min_element(zero.begin(), zero.end()), 1.2, 1e-9);
  EXPECT_NEAR(*std::max_element(zero.begin(), zero.end()), 1.7, 1e-9);
  EXPECT_FALSE(overlap(labelPatches(svg, "mark-label").at(0), labelPatches(svg, "band-label").at(0)));
}

// --- The failover table ---------------------------------------------------------------------------------

constexpr const char* kIntro =
    "Per run, every phase of every iteration that had a fault given (--fault-at, --fault-cmd): its stall, "
    "the "
    "longest interval in which no rank completed an operation, and where it lay in the phase; each fault's "
    "start and how its command ended; its recovery, from its start to the first whole second whose rate is "
    "at least half the median rate of the whole seconds before it; the phase's failed operations and its "
    "longest latency. Times into a phase count from rank 0's start of it. The throughput over time shades "
    "the stall of each phase of the first iteration and draws each injected fault as a dashed line at its "
    "start.";

// A section of a rendering: its heading line and the lines after it, up to the next heading ("## " in the
// Markdown, a line at the margin in the text).
std::vector<std::string> sectionLines(const std::string& rendering, const std::string& heading) {
  const std::vector<std::string> all = splitLines(rendering);
  auto at = std::find(all.begin(), all.end(), heading);
  EXPECT_NE(at, all.end()) << heading << " not in\n" << rendering;
  if (at == all.end()) return {};
  const bool markdown = heading.starts_with("## ");
  const auto next = std::find_if(at + 1, all.end(), [&](const std::string& line) {
    return markdown ? line.starts_with("## ") : !line.empty() && line.front() != ' ';
  });
  return {at, next};
}

TEST(ReportFailover, ATableOfEveryPhaseWithFaultsInTheText) {
  const std::vector<StoredResults> results = {freezeResults()};
  const std::vector<TimelineRun> runs = timelineRuns("freeze", {"f.h5"}, results);
  const std::string text = reportText({buildConfiguration("freeze", {"f.h5"}, results)}, {}, runs);
  const std::vector<std::string> expected = {
      "Failover (--fault-at):",
      "  freeze: f.h5 /runs/run-0000 (1 rank)",
      "  phase        iteration                                   stall                              "
      "                faults                        recovery  failed ops  latency max",
      "  tree-create          0                           under 0.001 s  the fault was not injected (the "
      "phase ended first)                    not measured           0        83 us",
      "  file-create          0  0.500 s (1.200-1.700 s into the phase)                   started at 1.200 "
      "s, exit status 0                             1 s           3       503 ms",
      "  tree-create          1                           under 0.001 s  the fault was not injected (the "
      "phase ended first)                    not measured           0        83 us",
      "  file-create          1  0.500 s (1.200-1.700 s into the phase)                   started at 1.250 "
      "s, exit status 0  not recovered within the phase           3       503 ms",
      "  fault 1 at 1.2 s into each phase: kill -STOP $PPID; sleep 0.5; kill -CONT $PPID",
      ""};
  EXPECT_EQ(sectionLines(text, "Failover (--fault-at):"), expected) << text;
}

TEST(ReportFailover, ATableOfEveryPhaseWithFaultsInTheMarkdown) {
  const std::vector<StoredResults> results = {freezeResults()};
  const std::vector<TimelineRun> runs = timelineRuns("freeze", {"f.h5"}, results);
  const std::string md = reportMarkdown({buildConfiguration("freeze", {"f.h5"}, results)}, {}, {}, runs);
  const std::vector<std::string> expected = {
      "## Failover (--fault-at)",
      "",
      kIntro,
      "",
      "### freeze: f.h5 /runs/run-0000 (1 rank)",
      "",
      "| phase | iteration | stall | faults | recovery | failed ops | latency max |",
      "|---|---:|---:|---:|---:|---:|---:|",
      "| tree-create | 0 | under 0.001 s | the fault was not injected (the phase ended first) | not measured "
      "| 0 | "
      "83 us |",
      "| file-create | 0 | 0.500 s (1.200-1.700 s into the phase) | started at 1.200 s, exit status 0 | 1 s "
      "| 3 "
      "| 503 ms |",
      "| tree-create | 1 | under 0.001 s | the fault was not injected (the phase ended first) | not measured "
      "| 0 | "
      "83 us |",
      "| file-create | 1 | 0.500 s (1.200-1.700 s into the phase) | started at 1.250 s, exit status 0 | not "
      "recovered within the phase | 3 | 503 ms |",
      "",
      "- fault 1 at 1.2 s into each phase: kill -STOP $PPID; sleep 0.5; kill -CONT $PPID",
      ""};
  EXPECT_EQ(sectionLines(md, "## Failover (--fault-at)"), expected) << md;
  // After the throughput over time, whose charts it explains.
  EXPECT_LT(md.find("## Throughput over time"), md.find("## Failover (--fault-at)"));
}

TEST(ReportFailover, SeveralFaultsAPhaseAreNumberedAndOneIterationHasNoIterationColumn) {
  const std::vector<StoredResults> results = {resultsOf({createPhase(
      0, {fault(1.2, true, 1.2, "", 1.0), fault(2.5, true, 2.5, "exit status 3", FaultRecord::kNotRecovered),
          fault(100, false, 0.0, "", NAN)})})};
  const std::vector<TimelineRun> runs = timelineRuns("x", {"x.h5"}, results);
  const std::vector<std::string> md = splitLines(reportMarkdown({}, {}, {}, runs));
  const std::vector<std::string> rows = {
      "| phase | stall | faults | recovery | failed ops | latency max |", "|---|---:|---:|---:|---:|---:|",
      "| file-create | 0.500 s (1.200-1.700 s into the phase) | fault 1: started at 1.200 s, exit status 0; "
      "fault 2: started at 2.500 s, exit status 3; fault 3: the fault was not injected (the phase ended "
      "first) "
      "| fault 1: 1 s; fault 2: not recovered within the phase; fault 3: not measured | 3 | 503 ms |"};
  const auto at = std::find(md.begin(), md.end(), rows[0]);
  ASSERT_NE(at, md.end()) << reportMarkdown({}, {}, {}, runs);
  EXPECT_EQ(std::vector<std::string>(at, at + 3), rows);
  EXPECT_NE(std::find(md.begin(), md.end(),
                      "- fault 3 at 100 s into each phase: kill -STOP $PPID; sleep 0.5; "
                      "kill -CONT $PPID"),
            md.end());
}

// The section is in every rendering, under reportSections' headings.
TEST(ReportFailover, InEveryRendering) {
  const std::vector<TimelineRun> runs = timelineRuns("freeze", {"f.h5"}, {freezeResults()});
  const std::vector<ReportSection> sections = reportSections({}, runs);
  const auto failover = std::find_if(sections.begin(), sections.end(), [](const ReportSection& s) {
    return s.markdown == "## Failover (--fault-at)";
  });
  ASSERT_NE(failover, sections.end());
  EXPECT_EQ(failover->text, "Failover (--fault-at):");
  const std::vector<std::string> text = splitLines(reportText({}, {}, runs));
  EXPECT_NE(std::find(text.begin(), text.end(), failover->text), text.end());
}

// --- Without faults: as before ----------------------------------------------------------------------------

TEST(ReportFailover, ARunWithoutFaultsHasNeitherTableNorMarks) {
  // Version 9 without --fault-at (stall data, no faults), and the same phase as an older file stores it.
  StoredResults measured = resultsOf({createPhase(0, {})});
  StoredResults older = measured;
  older.runs[0].phases[0].stall = PhaseStall{};
  for (const StoredResults& r : {measured, older}) {
    const std::vector<StoredResults> results = {r};
    const std::vector<TimelineRun> runs = timelineRuns("x", {"x.h5"}, results);
    EXPECT_TRUE(runs[0].failover.empty());
    const ChartSpec c = timelineCharts(runs[0]).at(0);
    EXPECT_TRUE(c.bands.empty());
    EXPECT_TRUE(c.marks.empty());
    const std::vector<Configuration> configs = {buildConfiguration("x", {"x.h5"}, results)};
    const std::vector<ReportChart> charts = reportCharts(configs, {}, runs);
    for (const ReportChart& chart : charts) {
      EXPECT_TRUE(tags(chart.svg, "g", "band").empty()) << chart.stem;
      EXPECT_TRUE(tags(chart.svg, "g", "mark").empty()) << chart.stem;
    }
    EXPECT_EQ(reportText(configs, {}, runs).find("Failover"), std::string::npos);
    EXPECT_EQ(reportMarkdown(configs, {}, charts, runs).find("Failover"), std::string::npos);
  }
  // And both render alike: the stall alone changes nothing.
  const std::vector<TimelineRun> a = timelineRuns("x", {"x.h5"}, {measured});
  const std::vector<TimelineRun> b = timelineRuns("x", {"x.h5"}, {older});
  EXPECT_EQ(renderPanels(timelineCharts(a[0]), 3, "t"), renderPanels(timelineCharts(b[0]), 3, "t"));
  EXPECT_EQ(reportText({}, {}, a), reportText({}, {}, b));
}

}  // namespace
}  // namespace mdbench
