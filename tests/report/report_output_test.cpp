// The report's text and Markdown, pinned line by line (google/benchmark's output tests are the model): the
// configurations, runs and steady states are built by hand, so that every number shown can be worked out
// from the case, and the output is matched exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "mdbench/report/report.hpp"
#include "output_lines.hpp"

namespace mdbench {
namespace {

using output_test::linesAre;

// The paragraph every Markdown report has after its configurations.
constexpr const char* kRatesParagraph =
    "Rates are the mean over iterations of the aggregate rate (ops/s of all ranks, barrier to barrier; MiB/s "
    "as the data-path tool reported it); n is the number of iterations; p99 is the latency of the merged "
    "histograms. The peak is the largest mean; the saturation point is the first count reaching 90% of the "
    "peak with larger counts measured (neither is marked on a curve of fewer than 3 points). A count with "
    "fewer than 10 ops per rank or under 10 ms is tabled but not charted: its rate is mostly the cost of one "
    "call and the barriers around it. The mdbench runs and each tool's imports with one command line are "
    "separate configurations, never averaged together.";

ScalingPoint point(std::uint32_t ranks, std::uint32_t iterations, double mean, double stddev, double min,
                   double max) {
  ScalingPoint p;
  p.ranks = ranks;
  p.iterations = iterations;
  p.mean = mean;
  p.stddev = stddev;
  p.min = min;
  p.max = max;
  return p;
}

// A metadata point of an mdbench run: with latency.
ScalingPoint measured(std::uint32_t ranks, double mean, double stddev, double min, double max,
                      std::uint64_t p99_ns) {
  ScalingPoint p = point(ranks, 3, mean, stddev, min, max);
  p.has_latency = true;
  p.latency.p99_ns = p99_ns;
  return p;
}

Series metadataSeries(const std::string& name, std::vector<ScalingPoint> points) {
  return {SeriesKind::kMetadata, name, "ops/s", "ranks", std::move(points)};
}

// ssd: file-create scales from 1000 to 3800 ops/s and flattens out at 4 ranks (3800 is 95% of the 4000
// peak at 8, past the 90% that is saturation); file-stat is measured at 1 rank only. hdd: file-create at
// 1 and 2 ranks, half of ssd's (ratios 0.50); nothing at 4 and 8 ("-").
std::vector<Configuration> scalingConfigs() {
  Configuration ssd;
  ssd.label = "ssd";
  ssd.files = {"ssd-1.h5", "ssd-2.h5"};
  ssd.series = {metadataSeries("file-create", {measured(1, 1000, 10, 990, 1010, 250'000),
                                               measured(2, 1900, 100, 1800, 2000, 300'000),
                                               measured(4, 3800, 0, 3800, 3800, 1'500'000),
                                               measured(8, 4000, 50, 3950, 4050, 12'500'000)}),
                metadataSeries("file-stat", {measured(1, 123456.4, 0.5, 123456, 123457, 850)})};
  Configuration hdd;
  hdd.label = "hdd";
  hdd.files = {"hdd.h5"};
  hdd.series = {metadataSeries("file-create",
                               {measured(1, 500, 5, 495, 505, 2'000'000), measured(2, 950, 0, 950, 950, 0)})};
  hdd.notes = {"hdd.h5 /runs/run-0001: 3 operations failed"};
  return {ssd, hdd};
}

TEST(ReportText, AScalingSeriesAgainstABaseline) {
  ReportOptions options;
  options.baseline = 0;
  const std::vector<std::string> expected = {
      "file-create: ops/s against ranks",
      "  ranks  ssd ops/s  +- sd    min    max  n      p99  hdd ops/s  +- sd  min  max  n   p99  / ssd",
      "  1          1,000     10    990  1,010  3   250 us        500      5  495  505  3  2 ms   0.50",
      "  2          1,900    100  1,800  2,000  3   300 us        950      0  950  950  3  0 ns   0.50",
      "  4          3,800      0  3,800  3,800  3   1.5 ms          -      -    -    -  -     -      -",
      "  8          4,000     50  3,950  4,050  3  12.5 ms          -      -    -    -  -     -      -",
      "  ssd: peak 4,000 ops/s at 8 ranks; saturates at 4 ranks (90% of the peak; more ranks add less than "
      "10%)",
      "  hdd: peak 950 ops/s at 2 ranks; two counts measured, too few to tell where it saturates",
      "",
      "file-stat: ops/s against ranks",
      "  ranks  ssd ops/s  +- sd      min      max  n     p99",
      "  1        123,456      0  123,456  123,457  3  850 ns",
      "  ssd: peak 123,456 ops/s at 1 rank; one count measured, no scaling to show",
      "",
      "note (hdd): hdd.h5 /runs/run-0001: 3 operations failed"};
  EXPECT_TRUE(linesAre(reportText(scalingConfigs(), options), expected));
}

// The charts a report of scalingConfigs() embeds, by stem (their SVG is not part of the Markdown).
std::vector<ReportChart> scalingCharts() {
  return {{"file-create", "file-create", false, ""},
          {"file-create", "file-create-relative", true, ""},
          {"file-stat", "file-stat", false, ""},
          {"", "overview", false, ""}};
}

TEST(ReportMarkdown, AScalingSeriesAgainstABaseline) {
  ReportOptions options;
  options.baseline = 0;
  const std::vector<std::string> expected = {
      "# mdbench report",
      "",
      "Configurations:",
      "",
      "- ssd: ssd-1.h5, ssd-2.h5",
      "- hdd: hdd.h5",
      "",
      "Ratios are to the baseline **ssd**.",
      "",
      kRatesParagraph,
      "",
      "![overview](overview.svg)",
      "",
      "## file-create: ops/s against ranks",
      "",
      "![file-create](file-create.svg)",
      "",
      "![file-create-relative](file-create-relative.svg)",
      "",
      "| ranks | ssd ops/s | +- sd | min | max | n | p99 | hdd ops/s | +- sd | min | max | n | p99 | / ssd |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      "| 1 | 1,000 | 10 | 990 | 1,010 | 3 | 250 us | 500 | 5 | 495 | 505 | 3 | 2 ms | 0.50 |",
      "| 2 | 1,900 | 100 | 1,800 | 2,000 | 3 | 300 us | 950 | 0 | 950 | 950 | 3 | 0 ns | 0.50 |",
      "| 4 | 3,800 | 0 | 3,800 | 3,800 | 3 | 1.5 ms | - | - | - | - | - | - | - |",
      "| 8 | 4,000 | 50 | 3,950 | 4,050 | 3 | 12.5 ms | - | - | - | - | - | - | - |",
      "",
      "- ssd: peak 4,000 ops/s at 8 ranks; saturates at 4 ranks (90% of the peak; more ranks add less than "
      "10%)",
      "- hdd: peak 950 ops/s at 2 ranks; two counts measured, too few to tell where it saturates",
      "",
      "## file-stat: ops/s against ranks",
      "",
      "![file-stat](file-stat.svg)",
      "",
      "| ranks | ssd ops/s | +- sd | min | max | n | p99 |",
      "|---|---:|---:|---:|---:|---:|---:|",
      "| 1 | 123,456 | 0 | 123,456 | 123,457 | 3 | 850 ns |",
      "",
      "- ssd: peak 123,456 ops/s at 1 rank; one count measured, no scaling to show",
      "",
      "## Notes",
      "",
      "- hdd: hdd.h5 /runs/run-0001: 3 operations failed"};
  EXPECT_TRUE(linesAre(reportMarkdown(scalingConfigs(), options, scalingCharts()), expected));
}

// An imported IOR run (MiB/s against clients, no latency): write at 1 and 2 clients, read at 2; the rates
// keep a decimal below 10000 MiB/s.
Configuration iorConfig() {
  Configuration ior;
  ior.label = "ior";
  ior.files = {"ior.h5"};
  ior.series = {
      {SeriesKind::kDataPath, "ior:read", "MiB/s", "clients", {point(2, 1, 20480.4, 0, 20480.4, 20480.4)}},
      {SeriesKind::kDataPath,
       "ior:write",
       "MiB/s",
       "clients",
       {point(1, 2, 3.5, 0.3, 3.2, 3.8), point(2, 2, 7.3, 0.5, 6.9, 7.6)}}};
  ior.notes = {"ior.h5 /runs/run-0000: imported from IOR 3.3.0"};
  return ior;
}

TEST(ReportText, AnImportedIorRun) {
  const std::vector<std::string> expected = {
      "ior:read: MiB/s against clients",
      "  clients  ior MiB/s  +- sd     min     max  n",
      "  2           20,480    0.0  20,480  20,480  1",
      "  ior: peak 20,480 MiB/s at 2 clients; one count measured, no scaling to show",
      "",
      "ior:write: MiB/s against clients",
      "  clients  ior MiB/s  +- sd  min  max  n",
      "  1              3.5    0.3  3.2  3.8  2",
      "  2              7.3    0.5  6.9  7.6  2",
      "  ior: peak 7.3 MiB/s at 2 clients; two counts measured, too few to tell where it saturates",
      "",
      "note (ior): ior.h5 /runs/run-0000: imported from IOR 3.3.0"};
  EXPECT_TRUE(linesAre(reportText({iorConfig()}, {}), expected));
}

TEST(ReportMarkdown, AnImportedIorRun) {
  const std::vector<ReportChart> charts = {{"ior:read", "ior-read", false, ""},
                                           {"ior:write", "ior-write", false, ""}};
  const std::vector<std::string> expected = {
      "# mdbench report",
      "",
      "Configurations:",
      "",
      "- ior: ior.h5",
      "",
      kRatesParagraph,
      "",
      "## ior:read: MiB/s against clients",
      "",
      "![ior-read](ior-read.svg)",
      "",
      "| clients | ior MiB/s | +- sd | min | max | n |",
      "|---|---:|---:|---:|---:|---:|",
      "| 2 | 20,480 | 0.0 | 20,480 | 20,480 | 1 |",
      "",
      "- ior: peak 20,480 MiB/s at 2 clients; one count measured, no scaling to show",
      "",
      "## ior:write: MiB/s against clients",
      "",
      "![ior-write](ior-write.svg)",
      "",
      "| clients | ior MiB/s | +- sd | min | max | n |",
      "|---|---:|---:|---:|---:|---:|",
      "| 1 | 3.5 | 0.3 | 3.2 | 3.8 | 2 |",
      "| 2 | 7.3 | 0.5 | 6.9 | 7.6 | 2 |",
      "",
      "- ior: peak 7.3 MiB/s at 2 clients; two counts measured, too few to tell where it saturates",
      "",
      "## Notes",
      "",
      "- ior: ior.h5 /runs/run-0000: imported from IOR 3.3.0"};
  EXPECT_TRUE(linesAre(reportMarkdown({iorConfig()}, {}, charts), expected));
}

// A run's first iteration over time: file-create's fastest rank done at 0.5 s (1,200 ops by then: 2,400
// ops/s), the slowest at 1.25 s (2,000 ops: 1,600 ops/s); the phase's barrier-to-barrier 1,500 ops/s. And
// a file written before schema version 5, without series.
std::vector<TimelineRun> timelines() {
  TimelineRun run;
  run.label = "ssd";
  run.file = "ssd-1.h5";
  run.group = "/runs/run-0000";
  run.stem = "timeline-ssd-run-0000";
  run.ranks = 2;
  run.has_series = true;
  TimelinePhase create;
  create.phase = Phase::kFileCreate;
  create.interval_s = 0.1;
  create.ops_per_s = 1500;
  create.done = {.first_done_time_s = 0.5,
                 .first_done_ops = 1200,
                 .first_done_ops_per_s = 2400,
                 .last_done_time_s = 1.25,
                 .last_done_ops_per_s = 1600};
  TimelinePhase stat;
  stat.phase = Phase::kFileStat;
  stat.interval_s = 0.1;
  stat.ops_per_s = 40000;
  stat.done = {.first_done_time_s = 0.0004,
               .first_done_ops = 10,
               .first_done_ops_per_s = 25000,
               .last_done_time_s = 0.05,
               .last_done_ops_per_s = 40000};
  run.phases = {create, stat};
  TimelineRun old;
  old.label = "hdd";
  old.file = "hdd.h5";
  old.group = "/runs/run-0000";
  old.stem = "timeline-hdd-run-0000";
  old.ranks = 1;
  return {run, old};
}

TEST(ReportText, FirstAndLastDoneRates) {
  const std::vector<std::string> expected = {
      "file-create: ops/s against ranks",
      "  ranks  ssd ops/s  +- sd    min    max  n      p99  hdd ops/s  +- sd  min  max  n   p99",
      "  1          1,000     10    990  1,010  3   250 us        500      5  495  505  3  2 ms",
      "  2          1,900    100  1,800  2,000  3   300 us        950      0  950  950  3  0 ns",
      "  4          3,800      0  3,800  3,800  3   1.5 ms          -      -    -    -  -     -",
      "  8          4,000     50  3,950  4,050  3  12.5 ms          -      -    -    -  -     -",
      "  ssd: peak 4,000 ops/s at 8 ranks; saturates at 4 ranks (90% of the peak; more ranks add less than "
      "10%)",
      "  hdd: peak 950 ops/s at 2 ranks; two counts measured, too few to tell where it saturates",
      "",
      "file-stat: ops/s against ranks",
      "  ranks  ssd ops/s  +- sd      min      max  n     p99",
      "  1        123,456      0  123,456  123,457  3  850 ns",
      "  ssd: peak 123,456 ops/s at 1 rank; one count measured, no scaling to show",
      "",
      "First-done and last-done rates (first iteration of each run):",
      "  ssd: ssd-1.h5 /runs/run-0000 (2 ranks)",
      "  phase         ops/s  first done  first-done ops/s  last done  last-done ops/s",
      "  file-create   1,500      500 ms             2,400     1.25 s            1,600",
      "  file-stat    40,000      400 us            25,000      50 ms           40,000",
      "  hdd: hdd.h5: written before results schema version 5: no throughput over time was stored",
      "",
      "note (hdd): hdd.h5 /runs/run-0001: 3 operations failed"};
  EXPECT_TRUE(linesAre(reportText(scalingConfigs(), {}, timelines()), expected));
}

TEST(ReportMarkdown, ThroughputOverTime) {
  std::vector<ReportChart> charts = scalingCharts();
  charts.push_back({"", "timeline-ssd-run-0000", false, "", 0});
  const std::vector<std::string> expected = {
      "# mdbench report",
      "",
      "Configurations:",
      "",
      "- ssd: ssd-1.h5, ssd-2.h5",
      "- hdd: hdd.h5",
      "",
      kRatesParagraph,
      "",
      "![overview](overview.svg)",
      "",
      "## file-create: ops/s against ranks",
      "",
      "![file-create](file-create.svg)",
      "",
      "![file-create-relative](file-create-relative.svg)",
      "",
      "| ranks | ssd ops/s | +- sd | min | max | n | p99 | hdd ops/s | +- sd | min | max | n | p99 |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      "| 1 | 1,000 | 10 | 990 | 1,010 | 3 | 250 us | 500 | 5 | 495 | 505 | 3 | 2 ms |",
      "| 2 | 1,900 | 100 | 1,800 | 2,000 | 3 | 300 us | 950 | 0 | 950 | 950 | 3 | 0 ns |",
      "| 4 | 3,800 | 0 | 3,800 | 3,800 | 3 | 1.5 ms | - | - | - | - | - | - |",
      "| 8 | 4,000 | 50 | 3,950 | 4,050 | 3 | 12.5 ms | - | - | - | - | - | - |",
      "",
      "- ssd: peak 4,000 ops/s at 8 ranks; saturates at 4 ranks (90% of the peak; more ranks add less than "
      "10%)",
      "- hdd: peak 950 ops/s at 2 ranks; two counts measured, too few to tell where it saturates",
      "",
      "## file-stat: ops/s against ranks",
      "",
      "![file-stat](file-stat.svg)",
      "",
      "| ranks | ssd ops/s | +- sd | min | max | n | p99 |",
      "|---|---:|---:|---:|---:|---:|---:|",
      "| 1 | 123,456 | 0 | 123,456 | 123,457 | 3 | 850 ns |",
      "",
      "- ssd: peak 123,456 ops/s at 1 rank; one count measured, no scaling to show",
      "",
      "## Throughput over time",
      "",
      "The first iteration of each run, phase by phase: the ops/s in each interval (100 ms), x the time "
      "since each rank started the phase. The bold line is all ranks, the thin lines one rank each (runs of "
      "up to 16 ranks), so that a straggler or a stall shows. First done: the fastest rank's time and the "
      "rate of all ranks until then; last done: the slowest rank's time and ops\\_ok over it. The ops/s "
      "column is the barrier-to-barrier rate of the tables above.",
      "",
      "### ssd: ssd-1.h5 /runs/run-0000 (2 ranks)",
      "",
      "![timeline-ssd-run-0000](timeline-ssd-run-0000.svg)",
      "",
      "| phase | ops/s | first done | first-done ops/s | last done | last-done ops/s |",
      "|---|---:|---:|---:|---:|---:|",
      "| file-create | 1,500 | 500 ms | 2,400 | 1.25 s | 1,600 |",
      "| file-stat | 40,000 | 400 us | 25,000 | 50 ms | 40,000 |",
      "",
      "- hdd: hdd.h5: written before results schema version 5: no throughput over time was stored",
      "",
      "## Notes",
      "",
      "- hdd: hdd.h5 /runs/run-0001: 3 operations failed"};
  EXPECT_TRUE(linesAre(reportMarkdown(scalingConfigs(), {}, charts, timelines()), expected));
}

// One summarised steady phase: `ok` of each of its ops at `ops_per_s`, p50 and p99 latency.
StoredPhase steadyPhase(Phase phase, double ops_per_s, std::uint64_t p50_ns, std::uint64_t p99_ns) {
  StoredPhase p;
  p.phase = phase;
  for (const OpKind op : opKindsOf(phase)) {
    SteadyOpSummary& o = p.summary.ops[opKindIndex(op)];
    o.ops_per_s = ops_per_s;
    o.latency.p50_ns = p50_ns;
    o.latency.p99_ns = p99_ns;
  }
  p.summary.time_balance = 0.5;
  p.summary.aggregate.balance = 0.479;
  return p;
}

// --steady: one iteration of 3 rounds on 2 ranks; the mix at 1.5 rounds/s cycling 5.5 objects/s.
TimelineRun steadyRun() {
  TimelineRun run;
  run.label = "steady";
  run.file = "steady.h5";
  run.group = "/runs/run-0000";
  run.stem = "timeline-steady-run-0000";
  run.ranks = 2;
  run.has_series = true;
  run.steady = {steadyPhase(Phase::kSteadyPrecreate, 6, 2'000, 9'500),
                steadyPhase(Phase::kSteadyMix, 5.6, 1'500, 1'250'000),
                steadyPhase(Phase::kSteadyCleanup, 12345.6, 700, 800)};
  run.steady[1].items = 3;  // the mix's: its rounds
  run.steady[1].summary.rounds_per_s = 1.5;
  run.steady[1].summary.objects_per_s = 5.5;
  return run;
}

TEST(ReportText, ASteadyRun) {
  const std::vector<std::string> expected = {"Steady state:",
                                             "  steady: steady.h5 /runs/run-0000 (2 ranks): 3 rounds",
                                             "  iteration      phase      op   ops/s     p50      p99  "
                                             "rounds/s  objects/s  time balance  rate balance",
                                             "  0          precreate   mkdir       6    2 us   9.5 us        "
                                             "                      50.0%         47.9%",
                                             "  0          precreate  create       6    2 us   9.5 us",
                                             "  0                mix    stat       6  1.5 us  1.25 ms       "
                                             "1.5        5.5         50.0%         47.9%",
                                             "  0                mix    read       6  1.5 us  1.25 ms",
                                             "  0                mix  delete       6  1.5 us  1.25 ms",
                                             "  0                mix  create       6  1.5 us  1.25 ms",
                                             "  0            cleanup  delete  12,346  700 ns   800 ns        "
                                             "                      50.0%         47.9%",
                                             "  0            cleanup   rmdir  12,346  700 ns   800 ns",
                                             ""};
  EXPECT_TRUE(linesAre(reportText({}, {}, {steadyRun()}), expected));
}

TEST(ReportMarkdown, ASteadyRun) {
  const std::vector<std::string> expected = {
      "# mdbench report",
      "",
      "Configurations:",
      "",
      "",
      kRatesParagraph,
      "",
      "## Steady state",
      "",
      "md-workbench's steady-state mix (--steady): per iteration and phase, each op type's rate over the "
      "phase's barrier-to-barrier time and its latency from the merged histogram; rounds/s and objects/s are "
      "the mix's (objects cycled through the working sets per second); the balances are the fastest rank's "
      "time (rate) over the slowest one's.",
      "",
      "### steady: steady.h5 /runs/run-0000 (2 ranks): 3 rounds",
      "",
      "| iteration | phase | op | ops/s | p50 | p99 | rounds/s | objects/s | time balance | rate balance |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      "| 0 | precreate | mkdir | 6 | 2 us | 9.5 us |  |  | 50.0% | 47.9% |",
      "| 0 | precreate | create | 6 | 2 us | 9.5 us |  |  |  |  |",
      "| 0 | mix | stat | 6 | 1.5 us | 1.25 ms | 1.5 | 5.5 | 50.0% | 47.9% |",
      "| 0 | mix | read | 6 | 1.5 us | 1.25 ms |  |  |  |  |",
      "| 0 | mix | delete | 6 | 1.5 us | 1.25 ms |  |  |  |  |",
      "| 0 | mix | create | 6 | 1.5 us | 1.25 ms |  |  |  |  |",
      "| 0 | cleanup | delete | 12,346 | 700 ns | 800 ns |  |  | 50.0% | 47.9% |",
      "| 0 | cleanup | rmdir | 12,346 | 700 ns | 800 ns |  |  |  |  |",
      ""};
  EXPECT_TRUE(linesAre(reportMarkdown({}, {}, {}, {steadyRun()}), expected));
}

TEST(ReportText, NothingToShow) {
  EXPECT_TRUE(linesAre(reportText({}, {}), {"no results in the files given"}));
}

// A run named relative to directory descriptors (--path-style dirfd) is called out: its rates are not
// comparable with mdtest's full-path ones. Runs in the default (full) style get no note.
TEST(ReportText, DirfdPathStyleIsNoted) {
  std::vector<TimelineRun> runs = timelines();
  runs[0].path_style = PathStyle::kDirfd;
  const std::string note =
      "ssd: ssd-1.h5 /runs/run-0000 (2 ranks): --path-style dirfd: each call named its item relative to a "
      "directory descriptor, without mdtest's full-path walk; its rates are not comparable with mdtest's";
  const std::vector<std::string> text = output_test::splitLines(reportText(scalingConfigs(), {}, runs));
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), "note: " + note);
  const std::vector<std::string> markdown =
      output_test::splitLines(reportMarkdown(scalingConfigs(), {}, {}, runs));
  ASSERT_FALSE(markdown.empty());
  EXPECT_EQ(markdown.back(), "- " + note);
  const std::vector<std::string> full =
      output_test::splitLines(reportText(scalingConfigs(), {}, timelines()));
  EXPECT_EQ(full.back(), "note (hdd): hdd.h5 /runs/run-0001: 3 operations failed");
}

// A run whose file-create cost one command source 2,000 requests (files went from 0 to 2,000).
TimelineRun serverRun() {
  TimelineRun run = timelines().front();
  ServerStatsDelta files;
  files.source = "cmd:count";
  files.kind = ServerSourceKind::kCommand;
  files.counters = {{"files", 0, 2000, 2000}};
  run.phases[0].ops = 2000;
  run.phases[0].server_stats = {files};
  return run;
}

TEST(ReportMarkdown, ServerCountersAsInTheText) {
  const std::vector<std::string> expected = {
      "## Metadata server counters (--server-stats; first iteration of each run)",
      "",
      "### ssd-1.h5 /runs/run-0000 (2 ranks)",
      "",
      "```text",
      "file-create        1500.0 ops/s       2000 ops",
      "  server cmd:count [ok]",
      "      files                                                      2000",
      "```",
      ""};
  const std::string md = reportMarkdown(scalingConfigs(), {}, {}, {serverRun()});
  const std::size_t at = md.find("## Metadata server counters");
  ASSERT_NE(at, std::string::npos) << md;
  const std::vector<std::string> lines = output_test::splitLines(md.substr(at, md.find("## Notes") - at));
  EXPECT_EQ(lines, expected);
  // The text shows the same lines under its heading.
  const std::string text = reportText(scalingConfigs(), {}, {serverRun()});
  EXPECT_NE(text.find("Metadata server counters (--server-stats; first iteration of each run):\n"
                      "  ssd-1.h5 /runs/run-0000 (2 ranks)\n"
                      "    file-create        1500.0 ops/s       2000 ops\n"
                      "      server cmd:count [ok]\n"),
            std::string::npos)
      << text;
}

// A source's name cannot end the block its lines are in.
TEST(ReportMarkdown, ServerCountersFenceOutlastsBackticks) {
  TimelineRun run = serverRun();
  run.phases[0].server_stats[0].source = "cmd:echo ```` files 1";
  run.ranks = 1;
  const std::string md = reportMarkdown({}, {}, {}, {run});
  EXPECT_NE(md.find("\n### ssd-1.h5 /runs/run-0000 (1 rank)\n"), std::string::npos) << md;
  EXPECT_NE(md.find("\n`````text\n"), std::string::npos) << md;
  EXPECT_NE(md.find("\n`````\n"), std::string::npos) << md;
}

// Every section of the text report is in the Markdown one, under reportSections' headings; and the text has
// no section reportSections does not know. A report with every kind of section: series, first/last-done
// rates, a steady state, server counters and notes.
TEST(ReportSections, EverySectionInEveryRendering) {
  const std::vector<Configuration> configs = scalingConfigs();
  std::vector<TimelineRun> runs = timelines();
  runs.push_back(serverRun());
  runs.push_back(steadyRun());
  const std::vector<ReportSection> sections = reportSections(configs, runs);
  ASSERT_EQ(sections.size(), 5u);  // file-create, file-stat, done rates, steady state, server counters
  const std::vector<std::string> text = output_test::splitLines(reportText(configs, {}, runs));
  const std::vector<std::string> md = output_test::splitLines(reportMarkdown(configs, {}, {}, runs));
  const auto has = [](const std::vector<std::string>& lines, const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
  };
  for (const ReportSection& s : sections) {
    EXPECT_TRUE(has(text, s.text)) << s.text;
    EXPECT_TRUE(has(md, s.markdown)) << s.markdown;
  }
  // The text's headings are its lines at the margin (notes aside): each is a known section.
  std::size_t headings = 0;
  for (const std::string& line : text) {
    if (line.empty() || line.front() == ' ' || line.starts_with("note")) continue;
    ++headings;
    EXPECT_TRUE(
        std::any_of(sections.begin(), sections.end(), [&](const ReportSection& s) { return s.text == line; }))
        << "a text section the Markdown may lack: " << line;
  }
  EXPECT_EQ(headings, sections.size());
  // Every note of the text is in the Markdown's notes.
  for (const std::string& line : text) {
    if (!line.starts_with("note (")) continue;
    const std::size_t close = line.find("): ");
    EXPECT_TRUE(has(md, "- " + line.substr(6, close - 6) + ": " + line.substr(close + 3))) << line;
  }
  // And the Markdown has no section the text lacks (its configuration list and notes aside).
  for (const std::string& line : md) {
    if (!line.starts_with("## ") || line == "## Notes") continue;
    EXPECT_TRUE(std::any_of(sections.begin(), sections.end(),
                            [&](const ReportSection& s) { return s.markdown == line; }))
        << "a Markdown section the text may lack: " << line;
  }
}

// What a block holds that a reader must find in a rendering: its lines, its table's cells, its notes, its
// paragraph's text, its chart's file.
std::vector<std::string> blockContent(const DocBlock& b) {
  std::vector<std::string> content = b.lines;
  content.insert(content.end(), b.table.header.begin(), b.table.header.end());
  for (const auto& row : b.table.rows) {
    for (const std::string& cell : row) {
      if (!cell.empty()) content.push_back(cell);
    }
  }
  for (const DocNote& n : b.notes) {
    if (!n.label.empty()) content.push_back(n.label);
    content.push_back(n.text);
  }
  for (const DocSpan& span : b.spans) content.push_back(span.text);
  if (b.kind == DocBlockKind::kChart) content.push_back(b.chart_stem + ".svg");
  return content;
}

// The Markdown as read: without the backslashes that escape its special characters.
std::string unescaped(const std::string& md) {
  std::string out;
  for (std::size_t i = 0; i < md.size(); ++i) {
    if (md[i] == '\\' && i + 1 < md.size()) ++i;
    out += md[i];
  }
  return out;
}

// One document, every rendering: each section of a report with every kind of section (series with charts,
// throughput over time, steady state, server counters, notes) has its heading in the text and the Markdown,
// in the document's order, and everything each block holds is in the Markdown and, prose and charts aside,
// in the text; the prose is not in the text.
TEST(ReportDocument, EverySectionAndBlockInEveryRendering) {
  std::vector<TimelineRun> runs = timelines();
  runs.push_back(serverRun());
  runs.push_back(steadyRun());
  std::vector<ReportChart> charts = scalingCharts();
  charts.push_back({"", "timeline-ssd-run-0000", false, "", 0});
  ReportOptions options;
  options.baseline = 0;
  const ReportDocument doc = reportDocument(scalingConfigs(), options, charts, runs);
  ASSERT_EQ(doc.sections.size(), 6u);  // file-create, file-stat, done rates, steady state, server, notes
  const std::string text = renderText(doc);
  const std::string md = unescaped(renderMarkdown(doc));
  EXPECT_EQ(text, reportText(scalingConfigs(), options, runs));
  EXPECT_EQ(renderMarkdown(doc), reportMarkdown(scalingConfigs(), options, charts, runs));
  std::size_t text_at = 0;
  std::size_t md_at = 0;
  std::set<DocBlockKind> kinds;
  for (const DocSection& s : doc.sections) {
    if (!textHeading(s).empty()) {
      const std::size_t at = ("\n" + text).find("\n" + textHeading(s) + "\n", text_at);
      ASSERT_NE(at, std::string::npos) << "text lacks, or has out of order: " << textHeading(s) << "\n"
                                       << text;
      text_at = at + 1;
    }
    const std::size_t at = md.find("\n## " + s.heading + "\n", md_at);
    ASSERT_NE(at, std::string::npos) << "Markdown lacks, or has out of order: " << s.heading << "\n" << md;
    md_at = at + 1;
    for (const DocBlock& b : s.blocks) {
      kinds.insert(b.kind);
      for (const std::string& piece : blockContent(b)) {
        EXPECT_NE(md.find(piece), std::string::npos) << "Markdown lacks " << piece;
        if (b.kind == DocBlockKind::kChart) continue;  // its file's name may be in a table of the text
        EXPECT_EQ(text.find(piece) != std::string::npos, !b.prose) << "text and " << piece;
      }
    }
  }
  EXPECT_EQ(kinds.size(), 7u) << "a report with every kind of block";
}

// The renderers on their own: a block of each kind, as each rendering shows it.
TEST(ReportDocument, EachKindOfBlockRendered) {
  ReportDocument doc{"A [title]", {docParagraph({DocSpan{"Read "}, DocSpan{"this_one", true}})}, {}};
  doc.sections.push_back(
      {"Sec*tion",
       "Section:",
       {docSubheading("run <1>"), docChart("chart", "c-1", true),
        docTable({{"phase", "ops/s"}, {{"create", "1,000"}}}), docList({"a|b"}), docLines({"  x  ``` 1"})}});
  doc.sections.push_back({"Notes", "", {docNotes({{"ssd", "n_1"}, {"", "run note"}})}});
  EXPECT_EQ(renderText(doc),
            "Section:\n"
            "  run <1>\n"
            "  phase   ops/s\n"
            "  create  1,000\n"
            "  a|b\n"
            "      x  ``` 1\n"
            "\n"
            "note (ssd): n_1\n"
            "note: run note\n");
  EXPECT_EQ(renderMarkdown(doc),
            "# A \\[title\\]\n\n"
            "Read **this\\_one**\n\n"
            "## Sec\\*tion\n\n"
            "### run \\<1\\>\n\n"
            "![chart](c-1.svg) ([PNG](c-1.png))\n\n"
            "| phase | ops/s |\n|---|---:|\n| create | 1,000 |\n\n"
            "- a\\|b\n\n"
            "````text\n  x  ``` 1\n````\n\n"
            "## Notes\n\n"
            "- ssd: n\\_1\n"
            "- run note\n");
  EXPECT_EQ(renderText(ReportDocument{}), "no results in the files given\n");
}

}  // namespace
}  // namespace mdbench
