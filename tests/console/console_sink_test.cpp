// The console sink's output, pinned line by line (google/benchmark's output tests are the model): synthetic
// runs fed through begin, phase (or steady) and end, the text captured and matched exactly. The numbers
// are chosen so that every rate, time and balance shown can be worked out by hand (see each case).
#include "mdbench/console/console_sink.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "mdbench/config/config.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/steady.hpp"
#include "output_lines.hpp"
#include "series_fixture.hpp"

namespace mdbench {
namespace {

using output_test::CapturedFile;
using output_test::linesAre;

RankPhaseRecord record(std::uint64_t ok, std::uint64_t failed, double t_start, double t_local_end,
                       double t_global_end) {
  RankPhaseRecord r;
  r.planned = ok + failed;
  r.ok = ok;
  r.failed = failed;
  r.t_start = t_start;
  r.t_local_end = t_local_end;
  r.t_global_end = t_global_end;
  r.ops_at_stonewall = ok;  // the timer never fired
  return r;
}

LatencyHistogram histogram(std::initializer_list<std::pair<std::uint64_t, int>> samples) {
  LatencyHistogram h;
  for (const auto& [ns, count] : samples) {
    for (int i = 0; i < count; ++i) h.add(ns);
  }
  return h;
}

using series_test::series;

PhaseResult phaseResult(Phase phase, std::uint32_t iteration, std::vector<RankPhaseRecord> ranks) {
  PhaseResult p;
  p.phase = phase;
  p.iteration = iteration;
  p.items = ranks.front().planned;
  p.ranks = std::move(ranks);
  return p;
}

RunInfo runInfo(std::uint32_t ranks, const std::string& command_line) {
  RunInfo info;
  info.version = "0.1.0";
  info.git_commit = "abc1234";
  info.command_line = command_line;
  info.target = "/scratch/t";
  info.start_utc = "2026-11-30T13:23:06Z";
  info.end_utc = "2026-11-30T13:24:10Z";
  info.ranks = ranks;
  info.nodes = 1;
  info.fs_type = "tmpfs";
  info.fs_total_bytes = 1ull << 30;
  info.fs_free_bytes = 512ull << 20;
  info.fs_total_inodes = 1'000'000;
  info.fs_free_inodes = 25'000'000;
  return info;
}

Config filesConfig(std::uint64_t items, std::uint32_t iterations) {
  Config c;
  c.items = items;
  c.kinds = ItemKinds::kFilesOnly;
  c.iterations = iterations;
  c.target = "/scratch/t";
  c.targets = {"/scratch/t"};
  return c;
}

// Feeds a whole run through a console sink: begin, each phase, end; the text it printed.
std::string printRun(const RunResult& run, const Plan& plan) {
  return output_test::sinkText<ConsoleSink>(run, plan);
}

const std::vector<std::string> kFootnotes = {
    "ops/s: operations that succeeded, over all ranks, divided by the slowest rank's barrier-to-barrier "
    "time;",
    "rank min/max: one rank's ops/s up to its own last operation, balance = min/max (worst iteration); "
    "stddev over iterations (n-1);",
    "latency: upper bound of the histogram bucket (at most 6.25% wide) holding the percentile;",
    "first done: ops all ranks had done when the fastest finished, over its time; last done: all ops over "
    "the slowest rank's time to its last op.",
};

// After the footnotes when some rate was marked too short to time (model's rate_timing.hpp).
const std::string kShortLegend =
    "too short: fewer than 10 ops per rank or under 10 ms: such a rate is mostly the cost of one call and "
    "the "
    "barriers around it, not of the file system (docs/numbers.md).";

std::vector<std::string> concat(std::initializer_list<std::vector<std::string>> parts) {
  std::vector<std::string> all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// One rank, create and stat of 10 files in one directory. create: 10 ok, 2 s to its last op, 2.5 s
// barrier to barrier: 4.0 ops/s, rank rate 5.0; stat: 10 ok in 1 s (10.0 per rank), 2 s: 5.0 ops/s.
// Latency: 10 creates at 1000 ns (the bucket 992-1024 ns: 1.0 us shown), 10 stats at 200 ns. One rank:
// first done is last done.
RunResult oneRankRun(const Config& c) {
  RunResult run;
  run.info = runInfo(1, "mdbench -n 10 -F -C -T -d /scratch/t");
  run.config = c;
  run.phases = {phaseResult(Phase::kFileCreate, 0, {record(10, 0, 0.0, 2.0, 2.5)}),
                phaseResult(Phase::kFileStat, 0, {record(10, 0, 3.0, 4.0, 5.0)})};
  run.phases[0].latency = histogram({{1000, 10}});
  run.phases[0].series = series({{2, 3, 3, 2}});
  run.phases[1].latency = histogram({{200, 10}});
  run.phases[1].series = series({{5, 5}});
  return run;
}

Config oneRankConfig() {
  Config c = filesConfig(10, 1);
  c.phases = {.create = true, .stat = true};
  return c;
}

TEST(ConsoleSink, OneRank) {
  const Config c = oneRankConfig();
  const Plan plan(c, 1);
  const std::string text = printRun(oneRankRun(c), plan);
  const std::vector<std::string> expected = concat(
      {{"mdbench 0.1.0 (commit abc1234) on 1 rank, 1 node",
        "command:  mdbench -n 10 -F -C -T -d /scratch/t",
        "target:   /scratch/t (tmpfs, 512.0 MiB free of 1.0 GiB, 25.0M inodes free of 1000.0k)",
        "paths:    full (--path-style): each call names its item by its full path, as mdtest's POSIX backend "
        "does",
        "workload: 10 items per rank (files), shared tree: depth 0, branching 1, 1 directory, items in 1 of "
        "them; 1 iteration",
        "started:  2026-11-30T13:23:06Z",
        "",
        "  done: iteration 0 file-create           10 ops           4.0 ops/s      2.500 s        0 failed",
        "  done: iteration 0 file-stat             10 ops           5.0 ops/s      2.000 s        0 failed",
        "phase           ops/iter    mean ops/s     max ops/s     min ops/s      stddev      rank min      "
        "rank max balance   failed",
        "file-create           10           4.0           4.0           4.0         0.0           5.0        "
        "   5.0   1.000        0",
        "file-stat             10           5.0           5.0           5.0         0.0          10.0        "
        "  10.0   1.000        0",
        "",
        "phase                p50         p90         p99       p99.9         max   latency in microseconds",
        "file-create          1.0         1.0         1.0         1.0         1.0",
        "file-stat            0.2         0.2         0.2         0.2         0.2",
        "",
        "phase          first done s          ops/s    last done s          ops/s",
        "file-create           2.000            5.0          2.000            5.0",
        "file-stat             1.000           10.0          1.000           10.0",
        ""},
       kFootnotes,
       {"finished: 2026-11-30T13:24:10Z"}});
  EXPECT_TRUE(linesAre(text, expected));
}

// Two ranks, unique trees, create and remove of 4 files each, 2 iterations, -N 1. Iteration 0: rank 1's
// last create fails (EEXIST on its own item 3), then rank 0's first remove (ENOENT on rank 1's item 0, -N
// 1): 7 ok each, 2 s and 1 s barrier to barrier: 3.5 and 7.0 ops/s; iteration 1: 8 ok in 1 s each. create:
// mean of 3.5 and 8.0 = 5.75, stddev 4.5 / sqrt(2) = 3.18; rank rates 4/1, 3/2 (iteration 0) and 4/1, 4/0.5
// (iteration 1): min 1.5, max 8.0, worst balance 1.5/4 = 0.375.
RunResult twoRankRun(const Config& c) {
  RunResult run;
  run.info = runInfo(2, "mdbench -n 4 -F -u -C -r -i 2 -N 1 -d /scratch/t");
  run.config = c;
  run.phases = {
      phaseResult(Phase::kFileCreate, 0, {record(4, 0, 0.0, 1.0, 2.0), record(3, 1, 0.0, 2.0, 2.0)}),
      phaseResult(Phase::kFileRemove, 0, {record(3, 1, 3.0, 3.5, 4.0), record(4, 0, 3.0, 4.0, 4.0)}),
      phaseResult(Phase::kFileCreate, 1, {record(4, 0, 5.0, 6.0, 6.0), record(4, 0, 5.0, 5.5, 6.0)}),
      phaseResult(Phase::kFileRemove, 1, {record(4, 0, 7.0, 7.5, 8.0), record(4, 0, 7.0, 8.0, 8.0)})};
  run.phases[0].ranks[1].first_error = {.err = EEXIST, .owner = 1, .dir = 0, .item = 3};
  run.phases[1].ranks[0].first_error = {.err = ENOENT, .owner = 1, .dir = 0, .item = 0};
  for (PhaseResult& p : run.phases) {
    p.latency = histogram({{10'000, 4}, {100'000, 3}});
    p.series = series({{2, 2, 0, 0}, {1, 1, 1, 1}});
  }
  return run;
}

Config twoRankConfig() {
  Config c = filesConfig(4, 2);
  c.sharing = TreeSharing::kUnique;
  c.shift = 1;
  c.phases = {.create = true, .remove = true};
  return c;
}

TEST(ConsoleSink, TwoRanksWithFailures) {
  const Config c = twoRankConfig();
  const Plan plan(c, 2);
  const std::string text = printRun(twoRankRun(c), plan);
  const std::vector<std::string> expected = concat(
      {{"mdbench 0.1.0 (commit abc1234) on 2 ranks, 1 node",
        "command:  mdbench -n 4 -F -u -C -r -i 2 -N 1 -d /scratch/t",
        "target:   /scratch/t (tmpfs, 512.0 MiB free of 1.0 GiB, 25.0M inodes free of 1000.0k)",
        "paths:    full (--path-style): each call names its item by its full path, as mdtest's POSIX backend "
        "does",
        "workload: 4 items per rank (files), unique tree per rank: depth 0, branching 1, 1 directory, items "
        "in 1 of them; 2 iterations",
        "options:  rank shift 1 (-N)",
        "started:  2026-11-30T13:23:06Z",
        "",
        "  done: iteration 0 file-create            8 ops           3.5 ops/s      2.000 s        1 failed   "
        "too short: 7 ops (3.5 per rank) in 2 s",
        "  done: iteration 0 file-remove            8 ops           7.0 ops/s      1.000 s        1 failed   "
        "too short: 7 ops (3.5 per rank) in 1 s",
        "  done: iteration 1 file-create            8 ops           8.0 ops/s      1.000 s        0 failed   "
        "too short: 8 ops (4 per rank) in 1 s",
        "  done: iteration 1 file-remove            8 ops           8.0 ops/s      1.000 s        0 failed   "
        "too short: 8 ops (4 per rank) in 1 s",
        "phase           ops/iter    mean ops/s     max ops/s     min ops/s      stddev      rank min      "
        "rank max balance   failed",
        "file-create            8           5.8           8.0           3.5         3.2           1.5        "
        "   8.0   0.375        1",
        "             too short: 7.5 ops (3.75 per rank) in 1.5 s",
        "file-remove            8           7.5           8.0           7.0         0.7           4.0        "
        "   8.0   0.500        1",
        "             too short: 7.5 ops (3.75 per rank) in 1 s",
        "",
        "phase                p50         p90         p99       p99.9         max   latency in microseconds",
        "file-create         10.2       102.4       102.4       102.4       102.4",
        "file-remove         10.2       102.4       102.4       102.4       102.4",
        "",
        "phase          first done s          ops/s    last done s          ops/s",
        "file-create           0.750            9.0          1.500            5.8",
        "             too short: 7.5 ops (3.75 per rank) in 1.5 s",
        "file-remove           0.500            9.0          1.000            7.5",
        "             too short: 7.5 ops (3.75 per rank) in 1 s",
        ""},
       kFootnotes,
       {kShortLegend, "", "2 operations failed; first error of each rank:",
        "  rank 0: file-remove (iteration 0): unlink "
        "/scratch/t/mdbench.iter.0/mdbench_tree.1.0/file.mdbench.1.0: ENOENT (No such file or directory)",
        "  rank 1: file-create (iteration 0): create "
        "/scratch/t/mdbench.iter.0/mdbench_tree.1.0/file.mdbench.1.3: EEXIST (File exists)",
        "finished: 2026-11-30T13:24:10Z"}});
  EXPECT_TRUE(linesAre(text, expected));
}

// -v: every rank's numbers under its phase's line.
TEST(ConsoleSink, VerboseShowsEveryRank) {
  Config c = twoRankConfig();
  c.verbosity = 1;
  const Plan plan(c, 2);
  const RunResult run = twoRankRun(c);
  CapturedFile out;
  ConsoleSink sink(out.file());
  sink.phase(run.phases[0], plan);
  const std::vector<std::string> expected = {
      "  done: iteration 0 file-create            8 ops           3.5 ops/s      2.000 s        1 failed   "
      "too short: 7 ops (3.5 per rank) in 2 s",
      "        rank     0:          4 ok        0 failed           4.0 ops/s      1.000 s to its last op",
      "        rank     1:          3 ok        1 failed           1.5 ops/s      2.000 s to its last op"};
  EXPECT_TRUE(linesAre(out.text(), expected));
}

// -W 1: rank 0's timer fires 1 s into the create, after 5 of its ops; rank 1's never does (its 6 count):
// 11 ops in 1 s at the stonewall beside 12 in 2 s (6.0 ops/s). Rank rates 6/1.5 and 6/0.8 (balance 0.533).
// First done at 0.8 s (rank 1): its 6 and rank 0's 2 + 0.3/0.5 of 3 = 9.8, so 10 ops: 12.5 ops/s; last
// done 12 ops in 1.5 s. 6 ops per rank: too short to time (over the slowest rank's 1.5 s to its last op).
TEST(ConsoleSink, AStonewalledPhase) {
  Config c = filesConfig(6, 1);
  c.stonewall_s = 1.0;
  c.phases = {.create = true};
  const Plan plan(c, 2);
  RunResult run;
  run.info = runInfo(2, "mdbench -n 6 -F -C -W 1 -d /scratch/t");
  run.config = c;
  run.phases = {
      phaseResult(Phase::kFileCreate, 0, {record(6, 0, 0.0, 1.5, 2.0), record(6, 0, 0.0, 0.8, 2.0)})};
  run.phases[0].ranks[0].t_stonewall = 1.0;
  run.phases[0].ranks[0].ops_at_stonewall = 5;
  run.phases[0].latency = histogram({{5'000, 12}});
  run.phases[0].series = series({{2, 3, 1, 0}, {4, 2, 0, 0}});
  const std::string text = printRun(run, plan);
  const std::vector<std::string> expected = concat(
      {{"mdbench 0.1.0 (commit abc1234) on 2 ranks, 1 node",
        "command:  mdbench -n 6 -F -C -W 1 -d /scratch/t",
        "target:   /scratch/t (tmpfs, 512.0 MiB free of 1.0 GiB, 25.0M inodes free of 1000.0k)",
        "paths:    full (--path-style): each call names its item by its full path, as mdtest's POSIX backend "
        "does",
        "workload: 6 items per rank (files), shared tree: depth 0, branching 1, 1 directory, items in 1 of "
        "them; 1 iteration",
        "options:  stonewall 1 s (-W)",
        "started:  2026-11-30T13:23:06Z",
        "",
        "  done: iteration 0 file-create           12 ops           6.0 ops/s      2.000 s        0 failed   "
        "stonewall: 11 ops in 1.000 s = 11.0 ops/s   too short: 12 ops (6 per rank) in 1.5 s",
        "phase           ops/iter    mean ops/s     max ops/s     min ops/s      stddev      rank min      "
        "rank max balance   failed",
        "file-create           12           6.0           6.0           6.0         0.0           4.0        "
        "   7.5   0.533        0",
        "             too short: 12 ops (6 per rank) in 1.5 s",
        "",
        "phase                p50         p90         p99       p99.9         max   latency in microseconds",
        "file-create          5.1         5.1         5.1         5.1         5.1",
        "",
        "phase          first done s          ops/s    last done s          ops/s",
        "file-create           0.800           12.5          1.500            8.0",
        "             too short: 12 ops (6 per rank) in 1.5 s",
        "",
        "stonewall    iteration ops at stonewall       time s ops/s at stonewall    ops (full)  ops/s (full)",
        "file-create          0               11        1.000               11.0            12           6.0",
        "             too short: 12 ops (6 per rank) in 1.5 s",
        ""},
       kFootnotes,
       {kShortLegend, "finished: 2026-11-30T13:24:10Z"}});
  EXPECT_TRUE(linesAre(text, expected));
}

// mdtest's -P (print rate and time) is accepted and changes nothing: the same run prints the same with it.
TEST(ConsoleSink, PrintRateAndTimeChangesNothing) {
  const CliRequest plain = parseCommandLine({"-n", "10", "-F", "-C", "-T", "-d", "/scratch/t"});
  const CliRequest with_p = parseCommandLine({"-n", "10", "-F", "-C", "-T", "-d", "/scratch/t", "-P"});
  ASSERT_TRUE(plain.errors.empty());
  ASSERT_TRUE(with_p.errors.empty());
  const std::string text = printRun(oneRankRun(plain.config), Plan(plain.config, 1));
  EXPECT_EQ(printRun(oneRankRun(with_p.config), Plan(with_p.config, 1)), text);
  EXPECT_EQ(text, printRun(oneRankRun(oneRankConfig()), Plan(oneRankConfig(), 1)));
}

// A setup error before the first phase: no tables.
TEST(ConsoleSink, NoPhaseRan) {
  const Config c = oneRankConfig();
  const Plan plan(c, 1);
  RunResult run;
  run.info = runInfo(1, "mdbench -n 10 -F -C -T -d /scratch/t");
  run.problems = {"--run-cmd-after-phase='false' at the end of file-create (iteration 0): exit status 1"};
  run.cleanup_problems = {"/scratch/t/mdbench.iter.0: ENOTEMPTY (Directory not empty)"};
  CapturedFile out;
  ConsoleSink sink(out.file());
  sink.end(run, plan);
  EXPECT_TRUE(linesAre(
      out.text(),
      {"no phase ran",
       "problem: --run-cmd-after-phase='false' at the end of file-create (iteration 0): exit status 1",
       "cleanup: /scratch/t/mdbench.iter.0: ENOTEMPTY (Directory not empty)",
       "finished: 2026-11-30T13:24:10Z"}));
}

// A rank that did `per_op_ok` of each op of the phase, 2 s barrier to barrier.
RankPhaseRecord steadyRecord(Phase phase, double t_local_end, std::uint64_t per_op_ok) {
  RankPhaseRecord r;
  r.t_start = 0.0;
  r.t_local_end = t_local_end;
  r.t_global_end = 2.0;
  for (const OpKind op : opKindsOf(phase)) r.kinds[opKindIndex(op)].ok = per_op_ok;
  sumKinds(r);
  return r;
}

// --steady 3 on 2 ranks, 4 objects in 2 datasets each: precreate, mix, cleanup, each 2 s barrier to barrier,
// ranks 1 s and 2 s to their last op (time balance 0.5), 6 of each op per rank (12 ok: 6.0 ops/s). In the
// mix rank 1's first read fails (ENOENT): 11 reads, 5.5 objects/s; 3 rounds in 2 s, 1.5 rounds/s; rank
// rates 24 / 1 s and 23 / 2 s (balance 11.5 / 24 = 0.479).
TEST(ConsoleSink, ASteadyRun) {
  Config c = filesConfig(4, 1);
  c.steady_rounds = 3;
  c.datasets = 2;
  c.write_bytes = 3;
  const Plan plan(c, 2);
  std::vector<PhaseResult> steady;
  for (const Phase phase : {Phase::kSteadyPrecreate, Phase::kSteadyMix, Phase::kSteadyCleanup}) {
    PhaseResult p;
    p.phase = phase;
    p.items = phase == Phase::kSteadyMix ? 3 : 0;
    p.ranks = {steadyRecord(phase, 1.0, 6), steadyRecord(phase, 2.0, 6)};
    p.ranks[0].rounds = p.ranks[1].rounds = phase == Phase::kSteadyMix ? 3 : 0;
    p.ranks[0].ops_at_stonewall = p.ranks[1].ops_at_stonewall = p.ranks[0].rounds;
    p.kind_latency.assign(kOpKindCount, histogram({{2'000, 12}}));
    steady.push_back(std::move(p));
  }
  steady[1].ranks[1].kinds[opKindIndex(OpKind::kRead)] = {5, 1};
  sumKinds(steady[1].ranks[1]);
  steady[1].ranks[1].first_error = {.err = ENOENT, .owner = 0, .dir = 1, .item = 2};
  steady[1].ranks[1].first_error_kind = OpKind::kRead;
  RunResult run;
  run.info = runInfo(2, "mdbench -n 4 --steady 3 --datasets 2 -w 3 -d /scratch/t");
  run.config = c;
  run.phases = steady;  // the runner's record at the end: the first errors and the legend come from it
  CapturedFile out;
  ConsoleSink sink(out.file());
  sink.begin(run.info, plan);
  for (const PhaseResult& p : steady) sink.phase(p, plan);
  sink.end(run, plan);
  const std::vector<std::string> expected = {
      "mdbench 0.1.0 (commit abc1234) on 2 ranks, 1 node",
      "command:  mdbench -n 4 --steady 3 --datasets 2 -w 3 -d /scratch/t",
      "target:   /scratch/t (tmpfs, 512.0 MiB free of 1.0 GiB, 25.0M inodes free of 1000.0k)",
      "paths:    full (--path-style): each call names its item by its full path, as mdtest's POSIX backend "
      "does",
      "workload: steady state: 4 objects per rank in 2 datasets of 2, 3 B each, 3 rounds (stat, read, "
      "delete, create one object per dataset), ring offset 1; 1 iteration",
      "note:     3 rounds > 2 objects per dataset: a rank more rounds ahead than that of the rank writing "
      "the dataset it reads finds its objects missing (ENOENT), as in md-workbench",
      "started:  2026-11-30T13:23:06Z",
      "",
      "steady state, iteration 0",
      "phase      op               ok   failed         ops/s        p50        p90        p99        max   "
      "latency in microseconds",
      "precreate  mkdir            12        0           6.0        2.0        2.0        2.0        2.0",
      "precreate  create           12        0           6.0        2.0        2.0        2.0        2.0",
      "precreate  all              24        0          12.0   2.000 s barrier to barrier, balance 0.500",
      "mix        stat             12        0           6.0        2.0        2.0        2.0        2.0",
      "mix        read             11        1           5.5        2.0        2.0        2.0        2.0",
      "mix        delete           12        0           6.0        2.0        2.0        2.0        2.0",
      "mix        create           12        0           6.0        2.0        2.0        2.0        2.0",
      "mix        all              47        1          23.5   2.000 s barrier to barrier, balance 0.500",
      "mix: 3 rounds, 1.5 rounds/s, 5.5 objects/s cycled; rank time 1.000-2.000 s (balance 0.500), rank "
      "ops/s 11.5-24.0 (balance 0.479)",
      "cleanup    delete           12        0           6.0        2.0        2.0        2.0        2.0",
      "cleanup    rmdir            12        0           6.0        2.0        2.0        2.0        2.0",
      "cleanup    all              24        0          12.0   2.000 s barrier to barrier, balance 0.500",
      "",
      "ops/s: operations that succeeded, over all ranks, divided by the slowest rank's barrier-to-barrier "
      "time;",
      "balance: fastest over slowest rank's time to its last op (md-workbench's); latency: upper bound of "
      "the histogram bucket holding the percentile.",
      "first error: rank 1: read steady.mdbench.0.1/obj.mdbench.0.1.2: ENOENT (No such file or directory) "
      "(mix)",
      "finished: 2026-11-30T13:24:10Z"};
  EXPECT_TRUE(linesAre(out.text(), expected));
}

// Two sweep steps of a create of `ops_per_rank` files per rank: 1 s on 1 rank, then 1.6 s on 2.
std::vector<RunResult> sweepSteps(std::uint64_t ops_per_rank, double first_time_s = 1.0) {
  Config c = filesConfig(ops_per_rank, 1);
  c.phases = {.create = true};
  std::vector<RunResult> steps(2);
  for (std::uint32_t k = 0; k < 2; ++k) {
    RunResult& step = steps[k];
    step.config = c;
    step.info = runInfo(k + 1, "mdbench -F -C --sweep 1,2");
    step.info.sweep = {.step = k + 1, .placement = SweepPlacement::kBlock, .job_ranks = 2};
    const double end = k == 0 ? first_time_s : 1.6;
    std::vector<RankPhaseRecord> ranks;
    for (std::uint32_t r = 0; r <= k; ++r) ranks.push_back(record(ops_per_rank, 0, 0.0, end, end));
    step.phases = {phaseResult(Phase::kFileCreate, 0, std::move(ranks))};
  }
  return steps;
}

const std::vector<std::string> kSweepFootnotes = {
    "", "mean ops/s: over the step's iterations; ops/s per rank: mean ops/s / ranks with work in the phase;",
    "efficiency: ops/s per rank / the first step's (100% = linear scaling); -: this step's or the first "
    "step's phase was too short to time",
    "(fewer than 10 ops per rank or under 10 ms)."};

// After a sweep: one row per phase and step; efficiency against the first step's rate per rank: 40 ops in
// 1 s on 1 rank, then 80 in 1.6 s on 2 (50.0 ops/s, 25.0 per rank: 62.5%).
TEST(ConsoleSink, TheSweepTable) {
  CapturedFile out;
  printSweepTable(out.file(), sweepSteps(40));
  const std::vector<std::string> expected =
      concat({{"", "sweep: 2 steps of the job's 2 ranks, placement block",
               "phase         step  ranks  nodes     mean ops/s  ops/s per rank  efficiency   failed",
               "file-create      1      1      1           40.0            40.0      100.0%        0",
               "file-create      2      2      1           50.0            25.0       62.5%        0"},
              kSweepFootnotes});
  EXPECT_TRUE(linesAre(out.text(), expected));
}

// A step too short to time (4 ops per rank; or the first step's 40 ops in 5 ms) has no efficiency, and
// neither has any step measured against it: the line under its row says why.
TEST(ConsoleSink, TheSweepTableMarksStepsTooShortToTime) {
  CapturedFile few;
  printSweepTable(few.file(), sweepSteps(4));
  EXPECT_TRUE(linesAre(
      few.text(),
      concat({{"", "sweep: 2 steps of the job's 2 ranks, placement block",
               "phase         step  ranks  nodes     mean ops/s  ops/s per rank  efficiency   failed",
               "file-create      1      1      1            4.0             4.0           -        0",
               "             too short: 4 ops in 1 s",
               "file-create      2      2      1            5.0             2.5           -        0",
               "             too short: 8 ops (4 per rank) in 1.6 s"},
              kSweepFootnotes})));
  CapturedFile quick_first;
  printSweepTable(quick_first.file(), sweepSteps(40, 0.005));
  EXPECT_TRUE(linesAre(
      quick_first.text(),
      concat({{"", "sweep: 2 steps of the job's 2 ranks, placement block",
               "phase         step  ranks  nodes     mean ops/s  ops/s per rank  efficiency   failed",
               "file-create      1      1      1         8000.0          8000.0           -        0",
               "             too short: 40 ops in 5 ms",
               "file-create      2      2      1           50.0            25.0           -        0"},
              kSweepFootnotes})));
}

// A steady run's sweep has a row per step for each of its phases, in execution order (its config selects
// none of the phase workload's: the table was empty).
TEST(ConsoleSink, TheSweepTableOfASteadyRun) {
  std::vector<RunResult> steps = sweepSteps(40);
  for (RunResult& step : steps) {
    step.config.steady_rounds = 3;
    const std::vector<RankPhaseRecord> ranks = step.phases.front().ranks;
    step.phases.clear();
    for (const Phase phase : kSteadyPhases) step.phases.push_back(phaseResult(phase, 0, ranks));
  }
  CapturedFile out;
  printSweepTable(out.file(), steps);
  const std::vector<std::string> expected =
      concat({{"", "sweep: 2 steps of the job's 2 ranks, placement block",
               "phase         step  ranks  nodes     mean ops/s  ops/s per rank  efficiency   failed",
               "precreate        1      1      1           40.0            40.0      100.0%        0",
               "precreate        2      2      1           50.0            25.0       62.5%        0",
               "mix              1      1      1           40.0            40.0      100.0%        0",
               "mix              2      2      1           50.0            25.0       62.5%        0",
               "cleanup          1      1      1           40.0            40.0      100.0%        0",
               "cleanup          2      2      1           50.0            25.0       62.5%        0"},
              kSweepFootnotes});
  EXPECT_TRUE(linesAre(out.text(), expected));
}

// The header names the path style (what a rate can be compared with) and, when it is not POSIX, the API.
TEST(ConsoleSink, HeaderNamesPathStyleAndApi) {
  Config c = oneRankConfig();
  c.path_style = PathStyle::kDirfd;
  c.api = Api::kDummy;
  const Plan plan(c, 1);
  CapturedFile out;
  ConsoleSink sink(out.file());
  sink.begin(runInfo(1, "mdbench -a DUMMY --path-style dirfd"), plan);
  const std::vector<std::string> lines = output_test::splitLines(out.text());
  ASSERT_GE(lines.size(), 5u);
  EXPECT_EQ(lines[3],
            "paths:    dirfd (--path-style): each call names its item relative to a directory descriptor "
            "opened once");
  EXPECT_EQ(lines[4], "api:      DUMMY (-a): no file-system I/O; the rates measure mdbench itself");
}

// Under --steady, -N is the ring's offset and nothing else: on 4 ranks in blocks of 2 per node, -N 1 is the
// ring offset 1 (the phase workload's node-aware shift, 2, and its note are not printed), and -N 4 keeps
// each rank to its own datasets, which the workload line says.
TEST(ConsoleSink, SteadyHeaderGivesTheRingOffsetNotARankShift) {
  const auto header = [](std::uint32_t shift) {
    Config c = filesConfig(20, 1);
    c.steady_rounds = 5;
    c.datasets = 2;
    c.shift = shift;
    const Plan plan(c, std::vector<std::uint32_t>{0, 0, 1, 1});
    CapturedFile out;
    ConsoleSink sink(out.file());
    sink.begin(runInfo(4, "mdbench --steady 5 -n 20 --datasets 2"), plan);
    std::vector<std::string> lines;
    for (const std::string& line : output_test::splitLines(out.text())) {
      if (line.starts_with("workload:") || line.starts_with("options:") || line.starts_with("note:"))
        lines.push_back(line);
    }
    return lines;
  };
  EXPECT_EQ(Plan(filesConfig(20, 1), std::vector<std::uint32_t>{0, 0, 1, 1}).shift(), 0u);
  Config phases = filesConfig(20, 1);
  phases.shift = 1;
  ASSERT_EQ(Plan(phases, std::vector<std::uint32_t>{0, 0, 1, 1}).shift(), 2u);  // what the phases would use
  const std::string workload =
      "workload: steady state: 20 objects per rank in 2 datasets of 10, 0 B each, 5 rounds (stat, read, "
      "delete, create one object per dataset), ring offset ";
  const std::string ending = "; 1 iteration";
  EXPECT_EQ(header(1), std::vector<std::string>{workload + "1" + ending});
  EXPECT_EQ(header(0), std::vector<std::string>{workload + "1" + ending});
  EXPECT_EQ(header(4),
            std::vector<std::string>{
                workload + "4 (a multiple of the 4 ranks: each rank in its own datasets)" + ending});
  EXPECT_EQ(header(3), std::vector<std::string>{workload + "3" + ending});
}

// -Y's header names the call the backend makes: sync(2) by default (as mdtest), syncfs(2) when asked.
TEST(ConsoleSink, HeaderNamesTheSyncCall) {
  const auto with = [](SyncCall call) {
    Config c = oneRankConfig();
    c.sync_phases = true;
    c.sync_call = call;
    return c;
  };
  const auto options = [](const Config& c) {
    const Plan plan(c, 1);
    CapturedFile out;
    ConsoleSink sink(out.file());
    sink.begin(runInfo(1, "mdbench -Y"), plan);
    for (const std::string& line : output_test::splitLines(out.text())) {
      if (line.starts_with("options:")) return line;
    }
    return std::string();
  };
  EXPECT_EQ(
      options(with(SyncCall::kSync)),
      "options:  sync(2) of every file system of the node at the end of each item phase, inside the timed "
      "region (-Y, as mdtest)");
  EXPECT_EQ(options(with(SyncCall::kSyncfs)),
            "options:  syncfs(2) of the target's file system at the end of each item phase, inside the timed "
            "region (-Y --sync-call syncfs)");
  // Under a preset, only the item creates sync (Plan::syncsAfter), and the header says so.
  Config preset = with(SyncCall::kSync);
  preset.sync_creates_only = true;
  EXPECT_EQ(options(preset),
            "options:  sync(2) of every file system of the node at the end of each item create phase (the "
            "preset's), inside the timed region (-Y, as mdtest)");
}

}  // namespace
}  // namespace mdbench
