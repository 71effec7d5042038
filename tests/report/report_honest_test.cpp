// Charts and tables that do not mislead (issue 21): the line of all ranks is the sum of the rank lines at
// every moment, a configuration has one colour and marker in every figure, counts with too few ops for a
// rate are tabled and not charted, short curves carry no peak or saturation marks, data-path charts say
// MiB/s or GiB/s, and results of different tools or command lines under one label are kept apart.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "mdbench/report/report.hpp"
#include "mdbench/report/scaling.hpp"

namespace mdbench {
namespace {

// ---- The line of all ranks ----

// The rate of a step line at t (0 outside its steps), as a reader of the chart sees it.
double rateAt(const std::vector<ChartPoint>& steps, double t) {
  for (std::size_t i = 0; i + 1 < steps.size(); i += 2) {
    if (steps[i].x <= t && t < steps[i + 1].x) return steps[i].y;
  }
  return 0.0;
}

// Every moment between two consecutive ends of any step: the sum line equals the rank lines' sum there.
void expectSumOfRanks(const std::vector<ChartPoint>& total,
                      const std::vector<std::vector<ChartPoint>>& ranks) {
  std::vector<double> xs;
  for (const auto& line : ranks)
    for (const ChartPoint& p : line) xs.push_back(p.x);
  for (const ChartPoint& p : total) xs.push_back(p.x);
  std::sort(xs.begin(), xs.end());
  ASSERT_GE(xs.size(), 2u);
  for (std::size_t k = 0; k + 1 < xs.size(); ++k) {
    if (xs[k + 1] - xs[k] < 1e-12) continue;
    const double t = (xs[k] + xs[k + 1]) / 2;
    double sum = 0.0;
    for (const auto& line : ranks) sum += rateAt(line, t);
    EXPECT_NEAR(rateAt(total, t), sum, 1e-9 * std::max(1.0, sum)) << "at t = " << t;
  }
}

TEST(TimelineSum, AFinishedRankAddsNothingAndALastShortIntervalCountsAtItsOwnRate) {
  // Rank 0: 100 ops, then 30 in the 0.03 s it had left (joined to the interval before: 130 in 0.13 s);
  // rank 1: 50 ops in each of three whole intervals. The stored totals {150, 80, 50} over 0.1 s would
  // draw 800 ops/s from 0.1 s to 0.2 s, where the ranks did 1000 then 500.
  const std::vector<std::uint64_t> r0 = {100, 30}, r1 = {50, 50, 50};
  const std::vector<std::vector<ChartPoint>> ranks = {ratesOverTime(r0, 0.1, 0.13),
                                                      ratesOverTime(r1, 0.1, 0.3)};
  const std::vector<ChartPoint> sum = sumOfSteps(ranks, 0.1);
  ASSERT_EQ(sum.size(), 4u);  // equal rates on either side of 0.1 s make one step
  EXPECT_DOUBLE_EQ(sum[0].y, 1000.0 + 500.0);
  EXPECT_DOUBLE_EQ(sum[1].x, 0.13);
  EXPECT_DOUBLE_EQ(sum[2].x, 0.13);
  EXPECT_DOUBLE_EQ(sum[2].y, 500.0);  // rank 0 has finished
  EXPECT_DOUBLE_EQ(sum[3].x, 0.3);
  expectSumOfRanks(sum, ranks);
  EXPECT_TRUE(sumOfSteps({}, 0.1).empty());
}

StoredPhase phaseOfRows(const std::vector<std::vector<std::uint32_t>>& rows,
                        const std::vector<double>& ends) {
  StoredPhase p;
  p.phase = Phase::kFileCreate;
  p.has_series = true;
  p.series.interval_s = 0.1;
  std::size_t n = 0;
  for (const auto& row : rows) n = std::max(n, row.size());
  p.series.intervals = static_cast<std::uint32_t>(n);
  p.series.total.assign(n, 0);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    RankPhaseRecord rank;  // rank r: the r-th of p.ranks
    rank.t_start = 5.0;
    rank.t_local_end = 5.0 + ends[r];
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint32_t c = k < rows[r].size() ? rows[r][k] : 0;
      p.series.per_rank.push_back(c);
      p.series.total[k] += c;
      rank.ok += c;
    }
    rank.planned = rank.ok;
    p.ranks.push_back(rank);
  }
  return p;
}

TimelinePhase timelineOf(const StoredPhase& phase) {
  StoredResults results;
  StoredRun run;
  run.group = "/runs/run-0000";
  run.info.ranks = static_cast<std::uint32_t>(phase.ranks.size());
  run.has_series = true;
  run.phases.push_back(phase);
  results.runs.push_back(run);
  return timelineRuns("x", {"x.h5"}, {results}).at(0).phases.at(0);
}

TEST(TimelineSum, TheRunsLineIsTheSumOfItsRanks) {
  // A straggler with a short last interval, a rank ending in a sliver, a rank ending on a boundary.
  const TimelinePhase p =
      timelineOf(phaseOfRows({{192, 190, 40}, {86, 80, 81, 79, 3}, {100, 100}}, {0.25, 0.404, 0.2}));
  ASSERT_EQ(p.ranks.size(), 3u);
  expectSumOfRanks(p.total, p.ranks);
  EXPECT_NEAR(p.total.back().x, 0.404, 1e-12);
  EXPECT_NEAR(p.total.back().y, (79 + 3) / 0.104, 1e-6);  // the straggler alone, its own last rate
}

TEST(TimelineSum, ManyRanksAreSummedWithoutTheirLines) {
  std::vector<std::vector<std::uint32_t>> rows;
  std::vector<double> ends;
  for (std::uint32_t r = 0; r < kTimelineMaxRankLines + 4; ++r) {
    rows.push_back(std::vector<std::uint32_t>(2 + r % 3, 10 + r));
    ends.push_back(0.1 * (2 + r % 3) - 0.03);
  }
  const StoredPhase phase = phaseOfRows(rows, ends);
  const TimelinePhase p = timelineOf(phase);
  EXPECT_TRUE(p.ranks.empty());
  std::vector<std::vector<ChartPoint>> lines;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::vector<std::uint64_t> counts(rows[r].begin(), rows[r].end());
    lines.push_back(ratesOverTime(counts, 0.1, ends[r]));
  }
  expectSumOfRanks(p.total, lines);
}

// ---- One configuration, one look ----

Series series(const std::string& name, SeriesKind kind, std::vector<ScalingPoint> points) {
  const bool meta = kind == SeriesKind::kMetadata;
  return {kind, name, meta ? "ops/s" : "MiB/s", meta ? "ranks" : "clients", std::move(points)};
}

ScalingPoint at(std::uint32_t ranks, double mean, double ops_per_rank = 0.0, double time_s = 0.0) {
  ScalingPoint p;
  p.ranks = ranks;
  p.iterations = 1;
  p.mean = p.min = p.max = mean;
  p.ops_per_rank = ops_per_rank;
  p.time_s = time_s;
  return p;
}

// The colour and marker of every series group of every chart, by label.
std::map<std::string, std::set<std::string>> looks(const std::vector<ReportChart>& charts) {
  const std::regex group(
      R"re(class="series" data-series="([^"]*)" data-colour="([^"]*)" data-marker="([^"]*)")re");
  const std::regex legend(
      R"re(data-marker="([^"]*)" fill="([^"]*)"[^>]*class="legend-marker" data-series="([^"]*)")re");
  std::map<std::string, std::set<std::string>> out;
  for (const ReportChart& c : charts) {
    for (auto it = std::sregex_iterator(c.svg.begin(), c.svg.end(), group); it != std::sregex_iterator();
         ++it)
      out[(*it)[1]].insert((*it)[2].str() + " " + (*it)[3].str());
  }
  return out;
}

std::vector<Configuration> threeConfigs() {
  Configuration a{"a",
                  {"a.h5"},
                  {series("file-create", SeriesKind::kMetadata, {at(1, 100), at(2, 190), at(4, 300)})},
                  {}};
  Configuration b{"b",
                  {"b.h5"},
                  {series("file-create", SeriesKind::kMetadata, {at(1, 90), at(2, 150), at(4, 200)}),
                   series("ior:write", SeriesKind::kDataPath, {at(1, 1500), at(2, 2316), at(4, 2300)})},
                  {}};
  Configuration c{
      "c", {"c.h5"}, {series("ior:write", SeriesKind::kDataPath, {at(1, 800), at(2, 900), at(4, 950)})}, {}};
  return {a, b, c};
}

TEST(ReportLooks, AConfigurationLooksTheSameInEveryFigure) {
  ReportOptions options;
  options.baseline = 0;
  const std::vector<ReportChart> charts = reportCharts(threeConfigs(), options);
  const auto seen = looks(charts);
  ASSERT_EQ(seen.size(), 3u);
  for (const auto& [label, styles] : seen) EXPECT_EQ(styles.size(), 1u) << label;
  // b is the second configuration everywhere: in ior-write (where it is the first curve) too.
  EXPECT_EQ(*seen.at("b").begin(), "#D55E00 square");
  EXPECT_EQ(*seen.at("c").begin(), "#009E73 triangle-up");
}

// ---- Units, short curves, too few ops ----

TEST(ReportCharts, DataPathChartsInBinaryUnits) {
  const ChartSpec spec = seriesChart(threeConfigs(), "ior:write", {});
  EXPECT_EQ(spec.y_label, "ior:write (GiB/s)");
  EXPECT_EQ(spec.title, "ior:write: GiB/s against clients");
  EXPECT_NEAR(spec.series[0].points[1].y, 2316.0 / 1024, 1e-12);
  const std::string svg = renderSvg(spec);
  EXPECT_NE(svg.find(">peak 2.26 GiB/s<"), std::string::npos);
  EXPECT_EQ(svg.find("k<"), std::string::npos);  // no SI prefix on a binary unit
  EXPECT_EQ(formatPlain(1020.4), "1020");
  EXPECT_EQ(formatPlain(2.2617), "2.26");
  EXPECT_EQ(formatPlain(0.25), "0.25");
  EXPECT_EQ(formatPlain(12.5), "12.5");
}

TEST(ReportCharts, CurvesOfOneOrTwoPointsHaveNoPeakOrSaturation) {
  // 100 then 95: the shape formula calls 1 rank the saturation point; with two points that means nothing.
  const std::vector<Configuration> two = {
      {"t", {"t.h5"}, {series("file-create", SeriesKind::kMetadata, {at(1, 100), at(2, 95)})}, {}}};
  const ChartSpec spec = seriesChart(two, "file-create", {});
  ASSERT_EQ(spec.series.size(), 1u);
  EXPECT_FALSE(spec.series[0].peak);
  EXPECT_FALSE(spec.series[0].saturation);
  const std::string svg = renderSvg(spec);
  EXPECT_EQ(svg.find("saturates at"), std::string::npos);
  EXPECT_EQ(svg.find("peak "), std::string::npos);
  EXPECT_NE(reportText(two, {}).find("two counts measured, too few to tell where it saturates"),
            std::string::npos);
}

TEST(ReportCharts, TooFewOpsForARateAreTabledNotCharted) {
  // tree-create: 1 op per rank everywhere; file-create: 5 ops per rank at 1 rank, 2 ms at 2 ranks.
  const std::vector<Configuration> configs = {
      {"t",
       {"t.h5"},
       {series("tree-create", SeriesKind::kMetadata, {at(1, 3000, 1, 0.0003), at(2, 5000, 1, 0.0004)}),
        series("file-create", SeriesKind::kMetadata,
               {at(1, 900, 5, 0.5), at(2, 1800, 1800, 0.002), at(4, 3000, 3000, 4), at(8, 3100, 3100, 8)})},
       {}}};
  EXPECT_TRUE(tooFewForRate(configs[0].series[0].points[0]));
  EXPECT_FALSE(tooFewForRate(at(1, 10, 10, 0.01)));
  EXPECT_FALSE(tooFewForRate(at(1, 10)));  // not known: drawn
  const std::vector<ReportChart> charts = reportCharts(configs, {});
  std::vector<std::string> stems;
  for (const ReportChart& c : charts) stems.push_back(c.stem);
  EXPECT_EQ(stems, (std::vector<std::string>{"file-create", "overview"}));
  const ChartSpec spec = seriesChart(configs, "file-create", {});
  ASSERT_EQ(spec.series.at(0).points.size(), 2u);
  EXPECT_EQ(spec.series[0].points[0].x, 4.0);
  const std::string text = reportText(configs, {});
  EXPECT_NE(text.find("  t: fewer than 10 ops per rank or under 10 ms at every count: too few for a rate; "
                      "tabled, not charted"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("; not charted at 1, 2 ranks: fewer than 10 ops per rank or under 10 ms, too few for a "
                      "rate"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  2        1,800"), std::string::npos) << text;  // still in the table
}

TEST(ReportMarkdownPng, LinksThePngsWhenAsked) {
  const std::vector<Configuration> configs = threeConfigs();
  ReportOptions options;
  const std::vector<ReportChart> charts = reportCharts(configs, options);
  EXPECT_EQ(reportMarkdown(configs, options, charts).find(".png"), std::string::npos);
  options.png = true;
  const std::string md = reportMarkdown(configs, options, charts);
  EXPECT_NE(md.find("![overview](overview.svg) ([PNG](overview.png))"), std::string::npos);
  EXPECT_NE(md.find("![ior-write](ior-write.svg) ([PNG](ior-write.png))"), std::string::npos);
}

// ---- Several sources under one label ----

MetadataImport mdtestImport(const std::string& command_line, std::uint32_t ranks, double rate) {
  MetadataImport imp;
  imp.tool = "mdtest";
  imp.command_line = command_line;
  MetadataImportRow row;
  row.phase = "file-create";
  row.operation = "File creation";
  row.ranks = ranks;
  row.iterations = 1;
  row.ops_per_s_mean = row.ops_per_s_min = row.ops_per_s_max = rate;
  imp.rows.push_back(row);
  return imp;
}

TEST(ReportGroups, DifferentCommandLinesAreDifferentConfigurations) {
  StoredResults r;
  r.metadata_imports = {mdtestImport("mdtest -n 1000 -F", 1, 100),
                        mdtestImport("mdtest  -n 1000 -F ", 2, 180), mdtestImport("mdtest -n 50 -F", 1, 40)};
  const std::vector<Configuration> configs = buildConfigurations("lustre", {"l.h5"}, {r});
  ASSERT_EQ(configs.size(), 2u);
  EXPECT_EQ(configs[0].label, "lustre");
  EXPECT_EQ(configs[1].label, "lustre (mdtest 2)");
  EXPECT_EQ(configs[0].find("file-create")->points.size(), 2u);  // the same command line at 1 and 2 ranks
  EXPECT_EQ(configs[1].find("file-create")->points.at(0).mean, 40.0);
  EXPECT_EQ(
      configs[1].notes.at(0),
      "2 of 2 configurations from the files labelled 'lustre': mdtest run as 'mdtest -n 50 -F'; results "
      "of different tools or command lines are kept apart, not averaged");
  // Pooled when the user says so: one configuration, the two at 1 rank averaged.
  const std::vector<Configuration> pooled = buildConfigurations("lustre", {"l.h5"}, {r}, Grouping::kPooled);
  ASSERT_EQ(pooled.size(), 1u);
  EXPECT_EQ(pooled[0].find("file-create")->points.at(0).mean, 70.0);
}

TEST(ReportGroups, AnImportAppendedToRunsIsKeptApart) {
  StoredResults r;
  StoredRun run;
  run.group = "/runs/run-0000";
  run.status = "complete";
  run.info.ranks = 2;
  StoredPhase p;
  p.phase = Phase::kFileCreate;
  p.aggregate.ok = 2000;
  p.aggregate.time_s = 1.0;
  p.aggregate.ops_per_s = 2000;
  run.phases.push_back(p);
  r.runs.push_back(run);
  r.metadata_imports = {mdtestImport("mdtest -n 1000 -F", 2, 900)};
  DataPathImport ior;
  ior.tool = "ior";
  ior.command_line = "ior -w -r";
  ior.rows.push_back({"write", 2, 1, 1, 3000, 3000, 3000, 0});
  r.datapath.push_back(ior);
  const std::vector<Configuration> configs = buildConfigurations("tmpfs", {"t.h5"}, {r});
  ASSERT_EQ(configs.size(), 3u);
  EXPECT_EQ(configs[0].label, "tmpfs");
  EXPECT_EQ(configs[0].find("file-create")->points.at(0).mean, 2000.0);  // not pooled with mdtest's 900
  EXPECT_EQ(configs[0].find("ior:write"), nullptr);
  EXPECT_EQ(configs[1].label, "tmpfs (mdtest)");
  EXPECT_EQ(configs[2].label, "tmpfs (ior)");
  EXPECT_EQ(configs[2].find("ior:write")->points.at(0).mean, 3000.0);
  EXPECT_EQ(configs[0].find("file-create")->points.at(0).ops_per_rank, 1000.0);
  // One source keeps its label and has no note.
  StoredResults only;
  only.runs.push_back(run);
  const std::vector<Configuration> one = buildConfigurations("tmpfs", {"t.h5"}, {only});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].label, "tmpfs");
  EXPECT_TRUE(one[0].notes.empty());
}

}  // namespace
}  // namespace mdbench
