// --steady runs in the report and the check gate (issue 34, issue 33 item 2): each iteration's mix is a point
// of the `steady` series (its rate over every op type, its merged latencies, its stall and faults), on which
// check rules pass, fail or have no data as on a phase; a steady phase with faults has its row in the
// failover table; the steady phases' throughput over time is charted with the faults marked and the stall
// shaded. Steady runs of files older than schema version 10 have no series, stall or faults.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "mdbench/model/fault.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/report/check.hpp"
#include "mdbench/report/report.hpp"
#include "mdbench/report/scaling.hpp"
#include "mdbench/results/results_file.hpp"
#include "output_lines.hpp"

namespace mdbench {
namespace {

using output_test::splitLines;

constexpr std::uint32_t kRanks = 2;
constexpr double kInterval = 0.1;

FaultRecord freeze(double recovery_s) {
  FaultRecord f;
  f.at_s = 1.5;
  f.command = "kill -STOP $PPID; sleep 1; kill -CONT $PPID";
  f.injected = true;
  f.t_start = 1.5;
  f.exit_status = 0;
  f.recovery_s = recovery_s;
  return f;
}

// A steady phase of kRanks ranks from t_start to t_start + length: `per_op` successes of each of its op types
// on every rank (rank 1 also failed `failed` stats), counted `per_interval` an interval except for the
// intervals [gap_from, gap_to), where none completed; every op's latency `latency_ns`, and in the mix one
// create of `slowest_ns`. The summary as summarizeSteadyPhase gives it.
struct SteadySpec {
  Phase phase = Phase::kSteadyMix;
  double t_start = 5.0;
  double length = 4.0;
  std::uint64_t per_op = 375;
  std::uint64_t failed = 0;
  std::uint32_t intervals = 40;
  std::uint32_t gap_from = 15;
  std::uint32_t gap_to = 25;
  std::uint64_t latency_ns = 100'000;
  std::uint64_t slowest_ns = 1'000'000'000;
};

StoredPhase steadyPhase(const SteadySpec& spec) {
  StoredPhase p;
  p.phase = spec.phase;
  const std::span<const OpKind> ops = opKindsOf(spec.phase);
  for (std::uint32_t r = 0; r < kRanks; ++r) {
    RankPhaseRecord row;
    for (const OpKind op : ops) row.kinds[opKindIndex(op)].ok = spec.per_op;
    if (r == 1) row.kinds[opKindIndex(ops.front())].failed = spec.failed;
    sumKinds(row);
    row.rounds = row.ops_at_stonewall = spec.phase == Phase::kSteadyMix ? spec.per_op : 0;
    row.t_start = spec.t_start;
    row.t_local_end = spec.t_start + spec.length;
    row.t_global_end = spec.t_start + spec.length;
    p.ranks.push_back(row);
  }
  p.kind_latency.resize(kOpKindCount);
  for (const OpKind op : ops) {
    LatencyHistogram& h = p.kind_latency[opKindIndex(op)];
    for (std::uint64_t i = 0; i < spec.per_op * kRanks; ++i) h.add(spec.latency_ns);
  }
  if (spec.phase == Phase::kSteadyMix) {
    p.kind_latency[opKindIndex(OpKind::kCreate)] = LatencyHistogram{};
    for (std::uint64_t i = 0; i + 1 < spec.per_op * kRanks; ++i)
      p.kind_latency[opKindIndex(OpKind::kCreate)].add(spec.latency_ns);
    p.kind_latency[opKindIndex(OpKind::kCreate)].add(spec.slowest_ns);
  }
  for (const LatencyHistogram& h : p.kind_latency) p.latency += h;
  // Every interval outside the gap gets an equal share of a rank's successes.
  const std::uint64_t ok_per_rank = spec.per_op * ops.size();
  const std::uint32_t busy = spec.intervals - (spec.gap_to - spec.gap_from);
  p.has_series = true;
  p.series.interval_s = kInterval;
  p.series.intervals = spec.intervals;
  p.series.total.assign(spec.intervals, 0);
  for (std::uint32_t r = 0; r < kRanks; ++r) {
    for (std::uint32_t k = 0; k < spec.intervals; ++k) {
      const bool gap = k >= spec.gap_from && k < spec.gap_to;
      const auto count = static_cast<std::uint32_t>(gap ? 0 : ok_per_rank / busy);
      p.series.per_rank.push_back(count);
      p.series.total[k] += count;
    }
  }
  p.summary = summarizeSteadyPhase(p);
  deriveFromRows(p);
  return p;
}

// One iteration of --steady on 2 ranks: a 5 ms precreate and cleanup (too short to chart), and a mix of 4 s
// at 750 ops/s in which no rank completed an op from 1.5 s to 2.5 s into it (the stall, 1 s) after a fault
// at 1.5 s, recovered `recovery_s` later; 2 stats failed.
// Its phases as the reader gives them: in order, the mix's items its rounds.
std::vector<StoredPhase> steadyIteration(std::uint32_t iteration, double recovery_s) {
  SteadySpec pre;
  pre.phase = Phase::kSteadyPrecreate;
  pre.t_start = 4.9;
  pre.length = 0.005;
  pre.per_op = 11;
  pre.intervals = 1;
  pre.gap_from = pre.gap_to = 1;
  SteadySpec mix;
  mix.failed = 2;
  SteadySpec cleanup = pre;
  cleanup.phase = Phase::kSteadyCleanup;
  cleanup.t_start = 9.1;
  std::vector<StoredPhase> phases = {steadyPhase(pre), steadyPhase(mix), steadyPhase(cleanup)};
  for (StoredPhase& p : phases) {
    p.iteration = iteration;
    p.group = fmt::format("/runs/run-0000/iterations/iter-{:04}/steady/{}", iteration, phaseName(p.phase));
  }
  StoredPhase& m = phases[1];
  m.items = 375;
  m.stall = {true, 1.0, 6.5, 7.5, 0.001};
  m.faults = {freeze(recovery_s)};
  return phases;
}

StoredRun steadyRun(const std::vector<std::vector<StoredPhase>>& iterations) {
  StoredRun run;
  run.group = "/runs/run-0000";
  run.info.ranks = kRanks;
  run.info.nodes = 1;
  run.has_series = true;
  run.status = "complete";
  run.exit_status = 0;
  run.config.steady_rounds = 375;
  for (const std::vector<StoredPhase>& it : iterations)
    run.phases.insert(run.phases.end(), it.begin(), it.end());
  return run;
}

StoredResults resultsOf(StoredRun run) {
  StoredResults results;
  results.schema_version = kSchemaVersion;
  results.runs.push_back(std::move(run));
  return results;
}

// The same run as a file of schema version 9 or older holds it: no series, stall or faults.
StoredResults olderFile() {
  StoredRun run = steadyRun({steadyIteration(0, 2.0)});
  for (StoredPhase& p : run.phases) {
    static_cast<PhaseTimeline&>(p) = PhaseTimeline{};
    p.has_series = false;
  }
  StoredResults results = resultsOf(std::move(run));
  results.schema_version = kSteadyTimelineSchemaVersion - 1;
  return results;
}

// A runner's file-create of 2 ranks (for the series' order).
StoredPhase createPhase() {
  StoredPhase p;
  p.phase = Phase::kFileCreate;
  p.has_series = true;
  p.series.interval_s = kInterval;
  p.series.intervals = 1;
  p.series.per_rank = {100, 100};
  p.series.total = {200};
  for (std::uint32_t r = 0; r < kRanks; ++r) {
    RankPhaseRecord rank;
    rank.t_start = 1.0;
    rank.t_local_end = 1.5;
    rank.planned = rank.ok = 100;
    p.ranks.push_back(rank);
  }
  p.aggregate.ok = 200;
  p.aggregate.ops_per_s = 400;
  return p;
}

// --- The steady series ------------------------------------------------------------------------------------

TEST(SteadySeries, EachIterationsMixIsAPointWithItsStallAndRecovery) {
  const StoredResults results = resultsOf(steadyRun({steadyIteration(0, 2.0)}));
  const Configuration c = buildConfiguration("ha", {"ha.h5"}, {results});
  const Series* s = c.find(kSteadySeries);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, SeriesKind::kMetadata);
  EXPECT_EQ(s->unit, "ops/s");
  EXPECT_EQ(s->x_unit, "ranks");
  ASSERT_EQ(s->points.size(), 1u);
  const ScalingPoint& p = s->points[0];
  EXPECT_EQ(p.ranks, kRanks);
  EXPECT_EQ(p.iterations, 1u);
  EXPECT_DOUBLE_EQ(p.mean, 750.0);  // 4 op types x 375 x 2 ranks in 4 s, barrier to barrier
  EXPECT_EQ(p.ok, 3000u);
  EXPECT_EQ(p.failed, 2u);
  EXPECT_DOUBLE_EQ(p.stall_s, 1.0);
  EXPECT_DOUBLE_EQ(p.recovery_s, 2.0);
  // Every op type's latency merged: the one slow create is its maximum.
  EXPECT_TRUE(p.has_latency);
  const StoredPhase& mix = results.runs[0].phases[1];
  EXPECT_EQ(p.latency.max_ns, latencySummary(mix.latency).max_ns);
  EXPECT_GE(p.latency.max_ns, 1'000'000'000u);
  EXPECT_LT(p.latency.p50_ns, 1'000'000u);
  // Sized for the rule on phases too short to time: the mix's successes and its slowest rank's time.
  EXPECT_DOUBLE_EQ(p.ops, 3000.0);
  EXPECT_DOUBLE_EQ(p.ops_per_rank, 1500.0);
  EXPECT_DOUBLE_EQ(p.time_s, 4.0);
  EXPECT_FALSE(tooFewForRate(p));
  EXPECT_EQ(p.stonewall_mean, 0.0);  // --steady's stonewall counts rounds
  // Precreate and cleanup are not series of their own.
  ASSERT_EQ(c.series.size(), 1u);
}

TEST(SteadySeries, IterationsPoolAndTheWorstStallAndRecoveryCount) {
  const Configuration c = buildConfiguration(
      "ha", {"ha.h5"},
      {resultsOf(steadyRun({steadyIteration(0, 2.0), steadyIteration(1, FaultRecord::kNotRecovered)}))});
  const ScalingPoint& p = c.find(kSteadySeries)->points.at(0);
  EXPECT_EQ(p.iterations, 2u);
  EXPECT_EQ(p.ok, 6000u);
  EXPECT_EQ(p.failed, 4u);
  EXPECT_DOUBLE_EQ(p.stall_s, 1.0);
  EXPECT_EQ(p.recovery_s, std::numeric_limits<double>::infinity());  // one never recovered in its phase
}

TEST(SteadySeries, AfterThePhasesInTheReport) {
  StoredRun phases;
  phases.group = "/runs/run-0001";
  phases.info.ranks = kRanks;
  phases.has_series = true;
  phases.status = "complete";
  phases.exit_status = 0;
  phases.phases = {createPhase()};
  StoredResults results = resultsOf(steadyRun({steadyIteration(0, 2.0)}));
  results.runs.push_back(phases);
  const std::vector<Configuration> configs = {buildConfiguration("ha", {"ha.h5"}, {results})};
  ASSERT_EQ(configs[0].series.size(), 2u);
  EXPECT_EQ(configs[0].series[0].name, "file-create");
  EXPECT_EQ(configs[0].series[1].name, "steady");
  EXPECT_EQ(reportSeries(configs), (std::vector<std::string>{"file-create", "steady"}));
  // Charted and tabled as any metadata series.
  const std::vector<ReportChart> charts = reportCharts(configs, {});
  EXPECT_TRUE(std::any_of(charts.begin(), charts.end(),
                          [](const ReportChart& c) { return c.series == "steady" && c.stem == "steady"; }));
  const std::vector<std::string> text = splitLines(reportText(configs, {}));
  EXPECT_NE(std::find(text.begin(), text.end(), "steady: ops/s against ranks"), text.end())
      << reportText(configs, {});
}

TEST(SteadySeries, AnOlderFileHasNoStallOrRecovery) {
  const Configuration config = buildConfiguration("old", {"old.h5"}, {olderFile()});
  const ScalingPoint& p = config.find(kSteadySeries)->points.at(0);
  EXPECT_DOUBLE_EQ(p.mean, 750.0);
  EXPECT_TRUE(std::isnan(p.stall_s));
  EXPECT_TRUE(std::isnan(p.recovery_s));
}

// --- check ----------------------------------------------------------------------------------------------

std::vector<Outcome> check(const std::string& rule, const StoredResults& results) {
  const RuleParse parsed = parseRule(rule);
  EXPECT_TRUE(parsed.errors.empty()) << (parsed.errors.empty() ? "" : parsed.errors[0]);
  return evaluate(parsed.rules, buildConfiguration("ha", {"ha.h5"}, {results}));
}

std::string checkError(const std::string& rule) {
  const RuleParse parsed = parseRule(rule);
  EXPECT_TRUE(parsed.rules.empty()) << rule;
  return parsed.errors.empty() ? std::string() : parsed.errors[0];
}

struct Expected {
  std::string rule;
  Verdict verdict;
  std::string message;
};

TEST(SteadyCheck, RulesOnTheSteadySeriesPassAndFail) {
  const StoredResults results = resultsOf(steadyRun({steadyIteration(0, 2.0)}));
  const std::vector<Expected> expected = {
      {"steady.recovery<=60s", Verdict::kPass, "steady recovery at 2 ranks: 2 s, required <= 60 s"},
      {"steady.recovery<=1500ms", Verdict::kFail,
       "steady recovery at 2 ranks: 2,000 ms, required <= 1,500 ms"},
      {"steady.stall<=30s", Verdict::kPass, "steady stall at 2 ranks: 1 s, required <= 30 s"},
      {"steady.stall<500ms", Verdict::kFail, "steady stall at 2 ranks: 1,000 ms, required < 500 ms"},
      {"steady.failed==0", Verdict::kFail, "steady failed at 2 ranks: 2 ops, required == 0 ops"},
      {"steady.failed<=2", Verdict::kPass, "steady failed at 2 ranks: 2 ops, required <= 2 ops"},
      {"steady.rate>=700", Verdict::kPass, "steady at 2 ranks: 750 ops/s, required >= 700 ops/s"},
      {"steady.rate>=1000", Verdict::kFail, "steady at 2 ranks: 750 ops/s, required >= 1,000 ops/s"},
      {"steady.latency-max@2>=1s", Verdict::kPass, ""},
  };
  for (const Expected& e : expected) {
    const std::vector<Outcome> outcomes = check(e.rule, results);
    ASSERT_EQ(outcomes.size(), 1u) << e.rule;
    EXPECT_EQ(outcomes[0].verdict, e.verdict) << e.rule << ": " << outcomes[0].message;
    if (!e.message.empty()) {
      EXPECT_EQ(outcomes[0].message, e.message) << e.rule;
    }
  }
}

TEST(SteadyCheck, NoDataWithoutAFaultOrStallDataOrASteadyRun) {
  // A file older than version 10: the steady mix has a rate but no stall and no fault.
  const std::vector<Expected> older = {
      {"steady.stall<=30s", Verdict::kNoData,
       "steady.stall<=30s: no steady stall at 2 ranks in ha.h5: no stall data (results of schema version 8 "
       "or "
       "older; of --steady runs, 9 or older)"},
      {"steady.recovery<=60s", Verdict::kNoData,
       "steady.recovery<=60s: no steady recovery at 2 ranks in ha.h5: no fault was injected (--fault-at) "
       "with "
       "a measurable recovery"},
      {"steady.rate>=700", Verdict::kPass, "steady at 2 ranks: 750 ops/s, required >= 700 ops/s"},
  };
  for (const Expected& e : older) {
    const std::vector<Outcome> outcomes = check(e.rule, olderFile());
    ASSERT_EQ(outcomes.size(), 1u) << e.rule;
    EXPECT_EQ(outcomes[0].verdict, e.verdict) << e.rule;
    EXPECT_EQ(outcomes[0].message, e.message) << e.rule;
  }
  // A version-10 run without --fault-at: the stall is judged, the recovery has no data.
  StoredRun quiet = steadyRun({steadyIteration(0, 2.0)});
  quiet.phases[1].faults.clear();
  EXPECT_EQ(check("steady.stall<=30s", resultsOf(quiet)).at(0).verdict, Verdict::kPass);
  EXPECT_EQ(check("steady.recovery<=60s", resultsOf(quiet)).at(0).verdict, Verdict::kNoData);
  // Files without a steady run: no steady results.
  StoredRun phases = quiet;
  phases.phases = {createPhase()};
  const std::vector<Outcome> none = check("steady.recovery<=60s", resultsOf(phases));
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].verdict, Verdict::kNoData);
  EXPECT_EQ(none[0].message, "steady.recovery<=60s: no steady results in ha.h5");
}

TEST(SteadyCheck, WhatTheSteadySeriesDoesNotMeasureIsABadRule) {
  EXPECT_EQ(checkError("steady.stonewall-rate >= 5"),
            "rule 'steady.stonewall-rate >= 5': stonewall-rate is not measured for steady: --steady's "
            "stonewall counts rounds, not ops");
  EXPECT_EQ(
      checkError("steady.server(mds.request)/op <= 2"),
      "rule 'steady.server(mds.request)/op <= 2': server counters are recorded for the selected phases, "
      "not steady (--steady)");
  EXPECT_EQ(
      checkError("steady.rate >= 5 MiB/s"),
      "rule 'steady.rate >= 5 MiB/s': MiB/s does not fit steady: a metadata series is measured in ops/s "
      "(or ops/sec)");
}

// --- The failover table
// -------------------------------------------------------------------------------------

TEST(SteadyFailover, TheMixWithItsFaultIsARowOfTheTable) {
  const std::vector<StoredResults> results = {
      resultsOf(steadyRun({steadyIteration(0, 2.0), steadyIteration(1, FaultRecord::kNotRecovered)}))};
  const std::vector<TimelineRun> runs = timelineRuns("ha", {"ha.h5"}, results);
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(runs[0].failover.size(), 2u);  // each iteration's mix; precreate and cleanup had no fault given
  EXPECT_EQ(runPhaseName(runs[0].failover[0].phase), "steady mix");
  EXPECT_EQ(runs[0].failover[1].iteration, 1u);
  EXPECT_GE(runs[0].failover[0].latency_max_ns, 1'000'000'000u);  // the slow create, of all op types
  EXPECT_EQ(runs[0].failover[0].failed, 2u);
  const std::vector<std::string> md = splitLines(reportMarkdown({}, {}, {}, runs));
  const auto at = std::find(md.begin(), md.end(), "### ha: ha.h5 /runs/run-0000 (2 ranks)");
  ASSERT_NE(at, md.end()) << reportMarkdown({}, {}, {}, runs);
  const auto header = std::find(at, md.end(),
                                "| phase | iteration | stall | faults | recovery | failed ops | "
                                "latency max |");
  ASSERT_NE(header, md.end()) << reportMarkdown({}, {}, {}, runs);
  ASSERT_GE(md.end() - header, 4);
  const std::string row0 = header[2];
  const std::string row1 = header[3];
  EXPECT_TRUE(
      row0.starts_with("| steady mix | 0 | 1.000 s (1.500-2.500 s into the phase) | started at 1.500 "
                       "s, exit status 0 | 2 s | 2 | "))
      << row0;
  EXPECT_TRUE(
      row1.starts_with("| steady mix | 1 | 1.000 s (1.500-2.500 s into the phase) | started at 1.500 "
                       "s, exit status 0 | not recovered within the phase | 2 | "))
      << row1;
  EXPECT_NE(std::find(md.begin(), md.end(),
                      "- fault 1 at 1.5 s into each phase: kill -STOP $PPID; sleep 1; kill -CONT $PPID"),
            md.end());
}

// --- The throughput over time ------------------------------------------------------------------------------

TEST(SteadyTimeline, TheMixIsChartedWithItsStallShadedAndItsFaultMarked) {
  const std::vector<StoredResults> results = {resultsOf(steadyRun({steadyIteration(0, 2.0)}))};
  const std::vector<TimelineRun> runs = timelineRuns("ha", {"ha.h5"}, results);
  ASSERT_EQ(runs.size(), 1u);
  const TimelineRun& run = runs[0];
  EXPECT_TRUE(run.has_series);
  ASSERT_EQ(run.phases.size(), 3u);
  EXPECT_EQ(runPhaseName(run.phases[0].phase), "steady precreate");
  EXPECT_EQ(runPhaseName(run.phases[1].phase), "steady mix");
  EXPECT_EQ(runPhaseName(run.phases[2].phase), "steady cleanup");
  const TimelinePhase& mix = run.phases[1];
  EXPECT_DOUBLE_EQ(mix.ops_per_s, 750.0);
  EXPECT_EQ(mix.ops, 3002u);
  ASSERT_EQ(mix.ranks.size(), kRanks);
  // Both ranks ended together: all their successes were done at 4 s.
  EXPECT_DOUBLE_EQ(mix.done.first_done_time_s, 4.0);
  EXPECT_EQ(mix.done.first_done_ops, 3000u);
  EXPECT_DOUBLE_EQ(mix.done.last_done_ops_per_s, 750.0);
  // The summed line: 0 in the stall, 2 x 50 an interval around it.
  ASSERT_FALSE(mix.total.empty());
  EXPECT_NEAR(mix.total.back().x, 4.0, 1e-9);
  for (const ChartPoint& p : mix.total) {
    const bool in_stall = p.x > 1.5 + 1e-9 && p.x < 2.5 - 1e-9;
    if (in_stall) {
      EXPECT_EQ(p.y, 0.0) << p.x;
    }
  }
  EXPECT_DOUBLE_EQ(mix.total.front().y, 1000.0);

  const std::vector<ChartSpec> charts = timelineCharts(run);
  ASSERT_EQ(charts.size(), 1u);  // precreate and cleanup are too short to chart
  const ChartSpec& c = charts[0];
  EXPECT_EQ(c.title, "steady mix");
  ASSERT_EQ(c.bands.size(), 1u);
  EXPECT_NEAR(c.bands[0].from, 1.5, 1e-9);
  EXPECT_NEAR(c.bands[0].to, 2.5, 1e-9);
  EXPECT_EQ(c.bands[0].label, "stall 1 s");
  ASSERT_EQ(c.marks.size(), 1u);
  EXPECT_NEAR(c.marks[0].x, 1.5, 1e-9);
  EXPECT_EQ(c.marks[0].label, "fault 1");

  // The report's figure of the run, in the throughput over time beside its done rates.
  const std::vector<ReportChart> figures = reportCharts({}, {}, runs);
  const auto timeline = std::find_if(figures.begin(), figures.end(),
                                     [](const ReportChart& f) { return f.timeline.has_value(); });
  ASSERT_NE(timeline, figures.end());
  EXPECT_EQ(timeline->stem, "timeline-ha-run-0000");
  EXPECT_NE(timeline->svg.find("data-title=\"steady mix\""), std::string::npos);
  EXPECT_NE(timeline->svg.find("class=\"band-area\""), std::string::npos);
  EXPECT_NE(timeline->svg.find("class=\"mark-line\""), std::string::npos);
  EXPECT_NE(timeline->svg.find(">fault 1</text>"), std::string::npos);
  const std::string md = reportMarkdown({}, {}, figures, runs);
  EXPECT_NE(md.find("## Throughput over time"), std::string::npos) << md;
  EXPECT_NE(md.find("timeline-ha-run-0000.svg"), std::string::npos) << md;
  EXPECT_NE(md.find("| steady mix | 750 | 4 s | 750 | 4 s | 750 |"), std::string::npos) << md;
  EXPECT_NE(md.find("## Steady state"), std::string::npos);
}

TEST(SteadyTimeline, AnOlderFileHasNoChartAndSaysWhy) {
  const std::vector<TimelineRun> runs = timelineRuns("old", {"old.h5"}, {olderFile()});
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_FALSE(runs[0].has_series);
  EXPECT_TRUE(runs[0].phases.empty());
  EXPECT_TRUE(runs[0].failover.empty());
  EXPECT_TRUE(timelineCharts(runs[0]).empty());
  for (const ReportChart& chart : reportCharts({}, {}, runs)) EXPECT_FALSE(chart.timeline.has_value());
  const std::vector<std::string> text = splitLines(reportText({}, {}, runs));
  EXPECT_NE(std::find(text.begin(), text.end(),
                      "  old: old.h5: --steady runs written before results schema version 10: no throughput "
                      "over time, stall or faults were stored"),
            text.end())
      << reportText({}, {}, runs);
  EXPECT_NE(std::find(text.begin(), text.end(), "Steady state:"), text.end());
  EXPECT_EQ(reportText({}, {}, runs).find("Failover"), std::string::npos);
}

}  // namespace
}  // namespace mdbench
