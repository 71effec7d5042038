// The mdtest console sink (--output mdtest): synthetic runs matched line by line; its layout against real
// mdtest 4.1 output (tests/fixtures/import/mdtest-4.1-real-*, numbers masked, every word and column end
// kept); its text read back by the mdtest importer to the same rates; the --saveRankPerformanceDetails CSV.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "import_fixture.hpp"
#include "mdbench/config/config.hpp"
#include "mdbench/console/mdtest_console_sink.hpp"
#include "mdbench/model/imported.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/util/file_io.hpp"
#include "output_lines.hpp"

namespace mdbench {
namespace {

using output_test::linesAre;
using output_test::splitLines;

RankPhaseRecord record(std::uint64_t ok, double t_start, double t_local_end, double t_global_end) {
  RankPhaseRecord r;
  r.planned = ok;
  r.ok = ok;
  r.t_start = t_start;
  r.t_local_end = t_local_end;
  r.t_global_end = t_global_end;
  r.ops_at_stonewall = ok;
  return r;
}

PhaseResult phaseResult(Phase phase, std::uint32_t iteration, std::vector<RankPhaseRecord> ranks) {
  PhaseResult p;
  p.phase = phase;
  p.iteration = iteration;
  p.items = ranks.front().planned;
  p.ranks = std::move(ranks);
  return p;
}

RunInfo runInfo(std::uint32_t ranks) {
  RunInfo info;
  info.version = "0.1.0";
  info.git_commit = "abc1234";
  info.command_line = "mdbench --output mdtest -n 10 -F -C -T -d /scratch/t";
  info.invoked_as = "mdbench";
  info.arguments = {"--output", "mdtest", "-n", "10", "-F", "-C", "-T", "-d", "/scratch/t"};
  info.target = "/scratch/t";
  info.start_utc = "2026-11-30T13:23:06Z";
  info.end_utc = "2026-11-30T13:24:10Z";
  info.ranks = ranks;
  info.nodes = 1;
  info.host_of_rank.assign(ranks, "node1");
  info.fs_type = "tmpfs";
  info.fs_total_bytes = 4ull << 30;
  info.fs_free_bytes = 3ull << 30;
  info.fs_total_inodes = 2ull << 20;
  info.fs_free_inodes = 1ull << 20;
  return info;
}

std::string printRun(const RunResult& run, const Plan& plan) {
  return output_test::sinkText<MdtestConsoleSink>(run, plan);
}

Config filesConfig() {
  Config c;
  c.items = 10;
  c.kinds = ItemKinds::kFilesOnly;
  c.phases = {.create = true, .stat = true};
  c.target = "/scratch/t";
  c.targets = {"/scratch/t"};
  return c;
}

// One rank, 10 files created in 2.5 s barrier to barrier (4 ops/s; 2 s to its last op: 5 ops/s), stated in
// 2 s (5 ops/s; 1 s: 10 ops/s); the tree (one directory) made in 0.5 s (2 ops/s).
RunResult oneRankRun(const Config& c) {
  RunResult run;
  run.info = runInfo(1);
  run.config = c;
  run.phases = {phaseResult(Phase::kTreeCreate, 0, {record(1, 0.0, 0.5, 0.5)}),
                phaseResult(Phase::kFileCreate, 0, {record(10, 1.0, 3.0, 3.5)}),
                phaseResult(Phase::kFileStat, 0, {record(10, 4.0, 5.0, 6.0)})};
  return run;
}

const std::vector<std::string> kHeader = {
    "-- started at 11/30/2026 13:23:06 --",
    "",
    "mdtest-4.1.0+mdbench-0.1.0 was launched with 1 total task(s) on 1 node(s)",
    "Command line used: mdbench '--output' 'mdtest' '-n' '10' '-F' '-C' '-T' '-d' '/scratch/t'",
    "Nodemap: 1",
    "Path                : /scratch/t",
    "FS                  : 4.0 GiB   Used FS: 25.0%   Inodes: 2.0 Mi   Used Inodes: 50.0%",
    "1 tasks, 10 files",
};

std::vector<std::string> concat(std::initializer_list<std::vector<std::string>> parts) {
  std::vector<std::string> all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

TEST(MdtestConsole, RateTable) {
  const Config c = filesConfig();
  const Plan plan(c, 1);
  EXPECT_TRUE(linesAre(
      printRun(oneRankRun(c), plan),
      concat({kHeader,
              {"", "SUMMARY rate (in ops/sec): (of 1 iterations)",
               "   Operation                     Max            Min           Mean        Std Dev",
               "   ---------                     ---            ---           ----        -------",
               "   File creation                   4.000          4.000          4.000          0.000",
               "   File stat                       5.000          5.000          5.000          0.000",
               "   File read                       0.000          0.000          0.000          0.000",
               "   File removal                    0.000          0.000          0.000          0.000",
               "   Tree creation                   2.000          2.000          2.000          0.000",
               "   Tree removal                    0.000          0.000          0.000          0.000",
               "-- finished at 11/30/2026 13:24:10 --", ""}})));
}

// -P: the rate table, then the time table (barrier-to-barrier seconds, under mdtest's "ms/op" label);
// --showRankStatistics: each rank's rate (time) up to its last op, max, min and mean.
TEST(MdtestConsole, RateAndTimeWithRankStatistics) {
  Config c = filesConfig();
  c.print_rate_and_time = true;
  c.show_rank_statistics = true;
  const Plan plan(c, 1);
  // Each line split where the per-iteration columns begin.
  const std::vector<std::string> tables = {
      "",
      "SUMMARY rate (in ops/sec): (of 1 iterations)",
      "   Operation     per Rank: Max            Min           Mean      "
      "per Iteration: Max            Min           Mean        Std Dev",
      "   ---------               ---            ---           ----      "
      "                ---            ---           ----        -------",
      "   File creation               5.000          5.000          5.000"
      "                  4.000          4.000          4.000          0.000",
      "   File stat                  10.000         10.000         10.000"
      "                  5.000          5.000          5.000          0.000",
      "   File read                   0.000          0.000          0.000"
      "                  0.000          0.000          0.000          0.000",
      "   File removal                0.000          0.000          0.000"
      "                  0.000          0.000          0.000          0.000",
      "   Tree creation                   2.000          2.000          2"
      ".000              2.000          2.000          2.000          0.000",
      "   Tree removal                    0.000          0.000          0"
      ".000              0.000          0.000          0.000          0.000",
      "",
      "SUMMARY time (in ms/op): (of 1 iterations)",
      "   Operation     per Rank: Max            Min           Mean      "
      "per Iteration: Max            Min           Mean        Std Dev",
      "   ---------               ---            ---           ----      "
      "                ---            ---           ----        -------",
      "   File creation               2.000          2.000          2.000"
      "                  2.500          2.500          2.500          0.000",
      "   File stat                   1.000          1.000          1.000"
      "                  2.000          2.000          2.000          0.000",
      "   File read                   0.000          0.000          0.000"
      "                  0.000          0.000          0.000          0.000",
      "   File removal                0.000          0.000          0.000"
      "                  0.000          0.000          0.000          0.000",
      "   Tree creation                   0.500          0.500          0"
      ".500              0.500          0.500          0.500          0.000",
      "   Tree removal                    0.000          0.000          0"
      ".000              0.000          0.000          0.000          0.000",
      "-- finished at 11/30/2026 13:24:10 --",
      ""};
  EXPECT_TRUE(linesAre(printRun(oneRankRun(c), plan), concat({kHeader, tables})));
}

// -v's header: mdtest 4.1's startup traces and option dump (its names, order and formats; mdbench's
// values) between the command line and the node map, and its trace before each timestamp.
const std::vector<std::string> kVerboseHeader = {
    "V-1: Entering PrintTimestamp...",
    "-- started at 11/30/2026 13:23:06 --",
    "",
    "mdtest-4.1.0+mdbench-0.1.0 was launched with 1 total task(s) on 1 node(s)",
    "Command line used: mdbench '--output' 'mdtest' '-n' '10' '-F' '-C' '-T' '-d' '/scratch/t'",
    "V-1: Rank   0 Line   251 Entering parse_dirpath on /scratch/t...",
    "V-1: Rank   0 Line  1804 Entering md_validate_tests...",
    "V-1: Rank   0 Line  2442 api                     : POSIX",
    "V-1: Rank   0 Line  2443 barriers                : True",
    "V-1: Rank   0 Line  2444 collective_creates      : False",
    "V-1: Rank   0 Line  2445 create_only             : True",
    "V-1: Rank   0 Line  2446 dirpath(s):",
    "V-1: Rank   0 Line  2448 \t/scratch/t",
    "V-1: Rank   0 Line  2450 dirs_only               : False",
    "V-1: Rank   0 Line  2451 read_bytes              : 0",
    "V-1: Rank   0 Line  2452 read_only               : False",
    "V-1: Rank   0 Line  2453 first                   : 1",
    "V-1: Rank   0 Line  2454 files_only              : True",
    "V-1: Rank   0 Line  2458 iterations              : 1",
    "V-1: Rank   0 Line  2459 items_per_dir           : 0",
    "V-1: Rank   0 Line  2460 last                    : 0",
    "V-1: Rank   0 Line  2461 leaf_only               : False",
    "V-1: Rank   0 Line  2462 items                   : 10",
    "V-1: Rank   0 Line  2463 nstride                 : 0",
    "V-1: Rank   0 Line  2464 pre_delay               : 0",
    "V-1: Rank   0 Line  2465 remove_only             : False",
    "V-1: Rank   0 Line  2466 random_seed             : 0",
    "V-1: Rank   0 Line  2467 stride                  : 1",
    "V-1: Rank   0 Line  2468 shared_file             : False",
    "V-1: Rank   0 Line  2469 time_unique_dir_overhead: False",
    "V-1: Rank   0 Line  2470 stone_wall_timer_seconds: 0",
    "V-1: Rank   0 Line  2471 stat_only               : True",
    "V-1: Rank   0 Line  2472 unique_dir_per_task     : False",
    "V-1: Rank   0 Line  2473 write_bytes             : 0",
    "V-1: Rank   0 Line  2474 sync_file               : False",
    "V-1: Rank   0 Line  2475 call_sync               : False",
    "V-1: Rank   0 Line  2476 depth                   : 0",
    "V-1: Rank   0 Line  2477 make_node               : 0",
    "Nodemap: 1",
    "Path                : /scratch/t",
    "FS                  : 4.0 GiB   Used FS: 25.0%   Inodes: 2.0 Mi   Used Inodes: 50.0%",
    "1 tasks, 10 files",
};

// -v: mdtest's per-iteration lines (its rank and source line prefix), the files' after the last file phase.
TEST(MdtestConsole, VerboseLinesPerIteration) {
  Config c = filesConfig();
  c.verbosity = 1;
  c.print_time = true;
  const Plan plan(c, 1);
  EXPECT_TRUE(linesAre(
      printRun(oneRankRun(c), plan),
      concat({kVerboseHeader,
              {"V-1: Rank   0 Line  2677 ",
               "V-1: Rank   0 Line  2678    Operation               Duration              Rate",
               "V-1: Rank   0 Line  2679    ---------               --------              ----",
               "V-1: Rank   0 Line  2063 main: * iteration 1 *",
               "V-1: Rank   0 Line  2139 V-1: main:   Tree creation     :          0.500 sec,          2.000 "
               "ops/sec",
               "V-1: Rank   0 Line  1435   File creation     :          2.500 sec,          4.000 ops/sec",
               "V-1: Rank   0 Line  1439   File stat         :          2.000 sec,          5.000 ops/sec",
               "V-1: Rank   0 Line  1440   File read         :          0.000 sec,          0.000 ops/sec",
               "V-1: Rank   0 Line  1441   File removal      :          0.000 sec,          0.000 ops/sec",
               "",
               "SUMMARY time (in ms/op): (of 1 iterations)",
               "   Operation                     Max            Min           Mean        Std Dev",
               "   ---------                     ---            ---           ----        -------",
               "   File creation                   2.500          2.500          2.500          0.000",
               "   File stat                       2.000          2.000          2.000          0.000",
               "   File read                       0.000          0.000          0.000          0.000",
               "   File removal                    0.000          0.000          0.000          0.000",
               "   Tree creation                   0.500          0.500          0.500          0.000",
               "   Tree removal                    0.000          0.000          0.000          0.000",
               "V-1: Entering PrintTimestamp...",
               "-- finished at 11/30/2026 13:24:10 --",
               ""}})));
}

// --print-all-procs: rank 0 prints every rank's rate (mdtest's "Per process result") before the table;
// failed ops and cleanup problems, which mdtest has no words for, are not hidden.
TEST(MdtestConsole, PerProcessLinesAndFailures) {
  Config c = filesConfig();
  c.print_all_procs = true;
  const Plan plan(c, 2);
  RunResult run;
  run.info = runInfo(2);
  run.info.host_of_rank = {"a", "b"};
  run.config = c;
  run.phases = {phaseResult(Phase::kFileCreate, 0, {record(10, 0.0, 2.0, 2.5), record(10, 0.0, 1.0, 2.5)})};
  run.phases[0].ranks[1].failed = 1;
  run.problems = {"--run-cmd-after-phase='false' at the end of file-create (iteration 0): exit status 1"};
  run.cleanup_problems = {"/scratch/t not removed: ENOTEMPTY"};
  const std::vector<std::string> lines = splitLines(printRun(run, plan));
  ASSERT_GE(lines.size(), 13u);
  EXPECT_EQ(lines[4], "Nodemap: 10");
  EXPECT_EQ(lines[7], "2 tasks, 20 files");
  const std::vector<std::string> tail(lines.begin() + 8, lines.begin() + 17);
  EXPECT_EQ(
      tail,
      (std::vector<std::string>{
          "", "Per process result (rate):", "iteration: 0", "Test File creation 5.000000e+00,1.000000e+01",
          "Test File stat 0.000000e+00,0.000000e+00", "Test File read 0.000000e+00,0.000000e+00",
          "Test File removal 0.000000e+00,0.000000e+00", "Test Tree creation 0.000000e+00,0.000000e+00",
          "Test Tree removal 0.000000e+00,0.000000e+00"}));
  const std::vector<std::string> end(lines.end() - 6, lines.end());
  EXPECT_EQ(
      end,
      (std::vector<std::string>{
          "", "ERROR: 1 operation failed; the rates count only those that succeeded",
          "ERROR: --run-cmd-after-phase='false' at the end of file-create (iteration 0): exit status 1",
          "ERROR: cleanup: /scratch/t not removed: ENOTEMPTY", "-- finished at 11/30/2026 13:24:10 --", ""}));
}

// A line's layout: its words, with every number (dates, times, percentages, %e lists) reduced to a '#' at
// the column where it ends (mdtest's numbers are right-aligned in fixed widths), and the run's own words
// (version, command line, path) as placeholders.
std::string layoutOf(const std::string& line) {
  for (const std::string_view prefix : {"Command line used: ", "Path                : "}) {
    if (line.starts_with(prefix)) return std::string(prefix) + "<run's own>";
  }
  std::string text = line;
  if (text.starts_with("mdtest-")) text = "mdtest-<version>" + text.substr(text.find(' '));
  std::string out(text.size(), ' ');
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t end = std::min(text.find_first_of(" ,", i), text.size());
    const std::string word = text.substr(i, end - i);
    const bool number = !word.empty() && word.find_first_of("0123456789") != std::string::npos &&
                        word.find_first_not_of("0123456789.e+-/:%") == std::string::npos;
    if (number) {
      out[end - 1] = '#';
    } else {
      out.replace(i, word.size(), word);
    }
    if (end < text.size()) out[end] = text[end];
    i = end + 1;
  }
  return out;
}

// A run of every phase the plan has, with made-up times (each rank a little slower than the one before).
RunResult syntheticRun(const Config& c, std::uint32_t ranks) {
  const Plan plan(c, ranks);
  RunResult run;
  run.info = runInfo(ranks);
  run.config = c;
  double t = 0.0;
  for (std::uint32_t i = 0; i < c.iterations; ++i) {
    for (const Phase phase : plan.phases()) {
      std::vector<RankPhaseRecord> recs;
      const double slowest = 0.001 * ranks * (i + 1);
      for (std::uint32_t r = 0; r < ranks; ++r) {
        const std::uint64_t ops = plan.plannedOps(phase, r);
        recs.push_back(record(ops, t, t + 0.001 * (r + 1) * (i + 1), t + slowest));
      }
      run.phases.push_back(phaseResult(phase, i, std::move(recs)));
      t += slowest;
    }
  }
  return run;
}

struct FixtureCase {
  const char* fixture;
  std::uint32_t ranks;
  std::uint64_t items;
  std::uint32_t iterations;
  void (*options)(Config&);
};

const FixtureCase kFixtureCases[] = {
    {"mdtest-4.1-real-plain-n2.txt", 2, 100, 2, [](Config&) {}},
    {"mdtest-4.1-real-P-n2.txt", 2, 100, 2, [](Config& c) { c.print_rate_and_time = true; }},
    {"mdtest-4.1-real-rankstats-n2.txt", 2, 100, 2, [](Config& c) { c.show_rank_statistics = true; }},
    {"mdtest-4.1-real-P-rankstats-n2.txt", 2, 100, 2,
     [](Config& c) { c.print_rate_and_time = c.show_rank_statistics = true; }},
    {"mdtest-4.1-real-Z-n1.txt", 1, 10, 1, [](Config& c) { c.print_time = true; }},
    {"mdtest-4.1-real-PZ-n1.txt", 1, 10, 1, [](Config& c) { c.print_time = c.print_rate_and_time = true; }},
    {"mdtest-4.1-real-allprocs-n2.txt", 2, 10, 1, [](Config& c) { c.print_all_procs = true; }},
    {"mdtest-4.1-real-F-n1.txt", 1, 10, 1, [](Config& c) { c.kinds = ItemKinds::kFilesOnly; }},
    {"mdtest-4.1-real-D-n1.txt", 1, 10, 1, [](Config& c) { c.kinds = ItemKinds::kDirsOnly; }},
    {"mdtest-4.1-real-C-n1.txt", 1, 10, 1, [](Config& c) { c.phases = {.create = true}; }},
};

// Line for line, the layout of real mdtest 4.1 output: the same lines in the same order, the same words,
// each number ending in the same column.
TEST(MdtestConsole, LayoutOfRealMdtestOutput) {
  for (const FixtureCase& fc : kFixtureCases) {
    Config c;
    c.items = fc.items;
    c.iterations = fc.iterations;
    c.phases = {.create = true, .stat = true, .read = true, .remove = true};
    c.target = "/dev/shm/x";
    c.targets = {c.target};
    fc.options(c);
    const Plan plan(c, fc.ranks);
    RunResult run = syntheticRun(c, fc.ranks);
    // The file system of the fixtures' runs (23.5 GiB, 2.9 Mi inodes, nothing used): those numbers are
    // printed without padding, so their widths must match.
    run.info.fs_total_bytes = run.info.fs_free_bytes = 25'232'932'864;
    run.info.fs_total_inodes = run.info.fs_free_inodes = 3'040'870;
    std::vector<std::string> expected;
    for (const std::string& line : splitLines(import_test::readFixture(fc.fixture))) {
      expected.push_back(layoutOf(line));
    }
    // mdtest's output, line for line, to its "-- finished at ... --" and blank line (mdbench's own note on
    // the phases too short to time goes to the other stream: PhasesTooShortToTimeAfterTheOutput).
    std::string actual;
    for (const std::string& line : splitLines(printRun(run, plan))) actual += layoutOf(line) + "\n";
    EXPECT_TRUE(linesAre(actual, expected)) << fc.fixture;
  }
}

// -W: the stonewall fired before every rank had made every item. mdtest's "Continue stonewall hit" line (the
// fewest, most and mean items made when it fired) and its two blank lines, as a real mdtest 4.1 run printed
// them; no such line when every rank made every item.
TEST(MdtestConsole, ContinueStonewallLineAsRealMdtest) {
  Config c;
  c.items = 200000;
  c.kinds = ItemKinds::kFilesOnly;
  c.phases = {.create = true};
  c.stonewall_s = 1.0;
  c.target = "/dev/shm/x";
  c.targets = {c.target};
  const Plan plan(c, 2);
  RunResult run = syntheticRun(c, 2);
  run.info.fs_total_bytes = run.info.fs_free_bytes = 25'232'932'864;
  run.info.fs_total_inodes = 3'040'870;  // 13.6% of them used when the fixture was made
  run.info.fs_free_inodes = 2'627'312;
  const std::string whole = printRun(run, plan);
  EXPECT_EQ(whole.find("Continue stonewall"), std::string::npos) << whole;
  for (PhaseResult& p : run.phases) {
    if (p.phase != Phase::kFileCreate) continue;
    p.ranks[0].ops_at_stonewall = 63726;
    p.ranks[1].ops_at_stonewall = 94792;
  }
  const std::string text = printRun(run, plan);
  EXPECT_NE(text.find("\nContinue stonewall hit min: 63726 max: 94792 avg: 79259.0 \n\n\nSUMMARY"),
            std::string::npos)
      << text;
  std::vector<std::string> expected;
  for (const std::string& line : splitLines(import_test::readFixture("mdtest-4.1-real-W-n2.txt"))) {
    expected.push_back(layoutOf(line));
  }
  std::string actual;
  for (const std::string& line : splitLines(text)) actual += layoutOf(line) + "\n";
  EXPECT_TRUE(linesAre(actual, expected));
}

// The FS line of a file system whose statvfs counts are unknown or zero, as real mdtest 4.1 printed it:
// ceph-fuse (f_files 3, f_ffree all ones, stored as unknown: mdtest reads -1 and prints 133.3% used) and a
// tmpfs with size=0,nr_inodes=0 (every count 0: mdtest divides 0 by 0 and prints -nan).
TEST(MdtestConsole, FileSystemLineAsRealMdtestForUnknownAndZeroCounts) {
  struct Case {
    const char* fixture;
    std::uint64_t total_bytes, free_bytes, total_inodes, free_inodes;
  };
  const Case cases[] = {
      {"mdtest-4.1-real-cephfuse-n1.txt", 486ull * 4194304, 486ull * 4194304, 3, ~0ull},
      {"mdtest-4.1-real-zero-counts-n1.txt", 0, 0, 0, 0},
  };
  for (const Case& fc : cases) {
    const Config c = filesConfig();
    const Plan plan(c, 1);
    RunResult run = oneRankRun(c);
    run.info.fs_total_bytes = fc.total_bytes;
    run.info.fs_free_bytes = fc.free_bytes;
    run.info.fs_total_inodes = fc.total_inodes;
    run.info.fs_free_inodes = fc.free_inodes;
    std::string expected;
    for (const std::string& line : splitLines(import_test::readFixture(fc.fixture))) {
      if (line.rfind("FS ", 0) == 0) expected = line;
    }
    ASSERT_FALSE(expected.empty()) << fc.fixture;
    const std::vector<std::string> lines = splitLines(printRun(run, plan));
    EXPECT_NE(std::find(lines.begin(), lines.end(), expected), lines.end()) << expected << "\n" << lines[6];
  }
}

// The note names each SUMMARY row whose phase was too short to time, in the table's order, with the mark
// the other outputs give it; a run whose phases were all timed has none.
TEST(MdtestConsole, PhasesTooShortToTimeAfterTheOutput) {
  Config c;
  c.items = 100;
  c.iterations = 1;
  c.kinds = ItemKinds::kFilesOnly;
  c.phases = {.create = true, .stat = true};
  c.target = "/dev/shm/x";
  c.targets = {c.target};
  const Plan plan(c, 2);
  // tree-create: 1 op in 1 ms; file-create 100 ops per rank in 2 s (timed); file-stat 100 per rank in 4 ms.
  RunResult run;
  run.info = runInfo(2);
  run.config = c;
  run.phases = {
      phaseResult(Phase::kTreeCreate, 0, {record(1, 0.0, 0.001, 0.001), record(0, 0.0, 0.0, 0.001)}),
      phaseResult(Phase::kFileCreate, 0, {record(100, 1.0, 3.0, 3.0), record(100, 1.0, 2.0, 3.0)}),
      phaseResult(Phase::kFileStat, 0, {record(100, 3.0, 3.004, 3.004), record(100, 3.0, 3.003, 3.004)}),
      phaseResult(Phase::kTreeRemove, 0, {record(1, 4.0, 5.0, 5.0), record(0, 4.0, 4.0, 5.0)})};
  // mdtest's stream ends at "-- finished at"; the note is on the other one (standard error in a run).
  const auto print = [](const RunResult& r, const Plan& p, std::string& notes) {
    output_test::CapturedFile out;
    output_test::CapturedFile note_file;
    MdtestConsoleSink sink(out.file(), note_file.file());
    sink.begin(r.info, p);
    for (const PhaseResult& phase : r.phases) sink.phase(phase, p);
    sink.end(r, p);
    notes = note_file.text();
    return out.text();
  };
  std::string notes;
  const std::vector<std::string> lines = splitLines(print(run, plan, notes));
  ASSERT_GE(lines.size(), 2u);
  EXPECT_TRUE(lines[lines.size() - 2].starts_with("-- finished at ")) << lines[lines.size() - 2];
  EXPECT_EQ(
      notes,
      "note:     rates of phases too short to time (fewer than 10 ops per rank or under 10 ms) are mostly "
      "the barriers around them: File stat (too short: 200 ops (100 per rank) in 4 ms); Tree creation "
      "(too short: 1 op in 1 ms); Tree removal (too short: 1 op in 1 s)\n");
  // Every phase timed: no note.
  run.phases.resize(2);
  run.phases.erase(run.phases.begin());
  Config files_only = c;
  files_only.phases = {.create = true};
  const std::vector<std::string> timed = splitLines(print(run, Plan(files_only, 2), notes));
  ASSERT_GE(timed.size(), 2u);
  EXPECT_TRUE(timed[timed.size() - 2].starts_with("-- finished at ")) << timed[timed.size() - 2];
  EXPECT_EQ(notes, "");
}

// What the importer reads back from the sink's text is what the sink printed: the same rates, exact to the
// printed precision (3 decimals), and the time table's mean.
TEST(MdtestConsole, ImportReadsTheSameNumbers) {
  Config c;
  c.items = 7;
  c.iterations = 3;
  c.phases = {.create = true, .stat = true, .read = true, .remove = true};
  c.print_rate_and_time = true;
  c.show_rank_statistics = true;
  const Plan plan(c, 2);
  const RunResult run = syntheticRun(c, 2);
  const MetadataImport imported = parseMdtest(printRun(run, plan), "sink.txt");
  const auto printed = [](double x) { return std::stod(fmt::format("{:.3f}", x)); };
  std::size_t checked = 0;
  for (const Phase phase : plan.phases()) {
    std::vector<double> rates;
    std::vector<double> times;
    for (const PhaseResult& p : run.phases) {
      if (p.phase != phase) continue;
      rates.push_back(aggregate(p.ranks).ops_per_s);
      times.push_back(aggregate(p.ranks).time_s);
    }
    const IterationSummary s = summarize(rates);
    const MetadataImportRow* row = nullptr;
    for (const MetadataImportRow& r : imported.rows) {
      if (r.phase == phaseName(phase)) row = &r;
    }
    ASSERT_NE(row, nullptr) << phaseName(phase);
    EXPECT_EQ(row->ranks, 2u);
    EXPECT_EQ(row->iterations, 3u);
    EXPECT_DOUBLE_EQ(row->ops_per_s_max, printed(s.max)) << phaseName(phase);
    EXPECT_DOUBLE_EQ(row->ops_per_s_min, printed(s.min)) << phaseName(phase);
    EXPECT_DOUBLE_EQ(row->ops_per_s_mean, printed(s.mean)) << phaseName(phase);
    EXPECT_DOUBLE_EQ(row->ops_per_s_stddev, printed(s.stddev)) << phaseName(phase);
    EXPECT_DOUBLE_EQ(row->time_s_mean, printed(summarize(times).mean)) << phaseName(phase);
    ++checked;
  }
  EXPECT_EQ(checked, imported.rows.size());
  EXPECT_EQ(imported.tool_version, "4.1.0+mdbench-0.1.0");
  // As mdtest prints it: the program, then each argument quoted.
  EXPECT_EQ(imported.command_line, "mdbench '--output' 'mdtest' '-n' '10' '-F' '-C' '-T' '-d' '/scratch/t'");
  EXPECT_EQ(imported.began, "11/30/2026 13:23:06");
}

// One row per rank, iteration and phase; the header first. A sweep's steps follow each other, each row with
// its step's rank count.
TEST(RankDetailsCsv, RowsAndHeader) {
  const Config c = filesConfig();
  RunResult run;
  run.info = runInfo(2);
  run.config = c;
  run.phases = {phaseResult(Phase::kFileCreate, 0, {record(10, 0.0, 2.0, 2.5), record(8, 0.0, 0.0, 2.5)}),
                phaseResult(Phase::kFileStat, 0, {record(10, 3.0, 3.5, 4.0), record(10, 3.0, 4.0, 4.0)})};
  run.phases[0].ranks[1].failed = 2;
  const std::string header =
      "rank,items,rate-Directory creation,time-Directory creation,rate-Directory stat,time-Directory stat,"
      "rate-Directory read,time-Directory read,rate-Directory rename,time-Directory rename,"
      "rate-Directory removal,time-Directory removal,rate-File creation,time-File creation,"
      "rate-File stat,time-File stat,rate-File read,time-File read,rate-File removal,time-File removal,"
      "rate-Tree creation,time-Tree creation,rate-Tree removal,time-Tree removal";
  // all: 18 creates in 2.5 s, 20 stats in 1 s; rank 1's create made 8 in no time (rate 0).
  const std::vector<std::string> rows = {
      header, "all,10,,,,,,,,,,,7.2000000000e+00,2.5000000000e+00,2.0000000000e+01,1.0000000000e+00,,,,,,,,",
      "0,,,,,,,,,,,,5.0000000000e+00,2.0000000000e+00,2.0000000000e+01,5.0000000000e-01,,,,",
      "1,,,,,,,,,,,,0.0000000000e+00,0.0000000000e+00,1.0000000000e+01,1.0000000000e+00,,,,"};
  EXPECT_TRUE(linesAre(rankDetailsCsv(run), rows));
  // A sweep: the header once, then each step's "all" row and its ranks' rows, as mdtest appends them.
  RunResult step1;
  step1.info = runInfo(1);
  step1.config = c;
  step1.phases = {phaseResult(Phase::kFileCreate, 0, {record(4, 0.0, 0.5, 0.5)})};
  const std::vector<RunResult> sweep = {step1, run};
  std::vector<std::string> both = {header, "all,10,,,,,,,,,,,8.0000000000e+00,5.0000000000e-01,,,,,,,,,,",
                                   "0,,,,,,,,,,,,8.0000000000e+00,5.0000000000e-01,,,,,,"};
  both.insert(both.end(), rows.begin() + 1, rows.end());
  EXPECT_TRUE(linesAre(rankDetailsCsv(sweep), both));
}

// Against a file a real mdtest 4.1 wrote (2 ranks, -n 20, the default phases): the same header, and rows
// with the same number of fields, empty where mdtest's are (its "Directory read" aside: an empty loop's
// time in mdtest, no number in mdbench).
TEST(RankDetailsCsv, LayoutOfRealMdtestFile) {
  Config c;
  c.items = 20;
  c.phases = {.create = true, .stat = true, .read = true, .remove = true, .rename = true};
  c.target = "/dev/shm/x";
  c.targets = {c.target};
  const RunResult run = syntheticRun(c, 2);
  const std::vector<std::string> real =
      splitLines(import_test::readFixture("mdtest-4.1-real-rankdetails-n2.csv"));
  const std::vector<std::string> ours = splitLines(rankDetailsCsv(run));
  ASSERT_EQ(ours.size(), real.size());
  EXPECT_EQ(ours[0], real[0]);
  const auto fields = [](const std::string& line) {
    std::vector<std::string> out(1);
    for (const char ch : line) {
      if (ch == ',') {
        out.emplace_back();
      } else {
        out.back() += ch;
      }
    }
    return out;
  };
  for (std::size_t i = 1; i < real.size(); ++i) {
    const std::vector<std::string> want = fields(real[i]);
    const std::vector<std::string> got = fields(ours[i]);
    ASSERT_EQ(got.size(), want.size()) << "row " << i << ": " << ours[i];
    for (std::size_t f = 0; f < want.size(); ++f) {
      if (f == 6 || f == 7) continue;  // Directory read
      EXPECT_EQ(got[f].empty(), want[f].empty()) << "row " << i << " field " << f << ": " << ours[i];
    }
    EXPECT_EQ(got[0], want[0]) << "row " << i;
  }
  EXPECT_EQ(fields(ours[1])[1], "20");
}

// The sink writes the file through util/file_io, and never over a file that is there.
TEST(RankDetailsCsv, WrittenOnceNeverOverwritten) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("mdbench-rank-details-{}", getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "ranks.csv").string();
  const Config c = filesConfig();
  const Plan plan(c, 1);
  const RunResult run = oneRankRun(c);
  RankDetailsSink sink(path);
  sink.end(run, plan);
  EXPECT_EQ(sink.error(), "");
  std::string text;
  EXPECT_EQ(readRegularFile(path, {.role = "csv", .max_bytes = 1 << 20}, text), "");
  EXPECT_EQ(text, rankDetailsCsv(run));
  RankDetailsSink again(path);
  again.end(RunResult{}, plan);
  EXPECT_NE(again.error(), "");
  text.clear();
  EXPECT_EQ(readRegularFile(path, {.role = "csv", .max_bytes = 1 << 20}, text), "");
  EXPECT_EQ(text, rankDetailsCsv(run));
  std::filesystem::remove_all(dir);
}

// Checked before any phase runs: an existing FILE (or anything else there) is refused, naming the option.
TEST(RankDetailsCsv, ExistingFileRefusedBeforeTheRun) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("mdbench-rank-check-{}", getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "ranks.csv").string();
  EXPECT_EQ(rankDetailsFileProblem(""), "");
  EXPECT_EQ(rankDetailsFileProblem(path), "");
  EXPECT_EQ(writeFileAtomically(path, "mine\n", Replace::kNothing, "test file"), "");
  EXPECT_EQ(rankDetailsFileProblem(path),
            "--saveRankPerformanceDetails: " + path + " exists; mdbench never overwrites it");
  std::filesystem::create_directory(dir / "sub");
  EXPECT_NE(rankDetailsFileProblem((dir / "sub").string()).find("--saveRankPerformanceDetails: "),
            std::string::npos);
  EXPECT_NE(rankDetailsFileProblem((dir / "missing" / "x.csv").string()), "");
  std::filesystem::remove_all(dir);
}

// mdtest's "Directory read" times an empty loop: mdbench's directory listing (readdir) is not it, so the
// per-process line shows 0 and the CSV has no number for it.
TEST(MdtestConsole, DirectoryReadIsNotReaddir) {
  Config c = filesConfig();
  c.kinds = ItemKinds::kDirsOnly;
  c.phases = {.create = true, .readdir = true};
  c.print_all_procs = true;
  const Plan plan(c, 1);
  RunResult run;
  run.info = runInfo(1);
  run.config = c;
  run.phases = {phaseResult(Phase::kDirCreate, 0, {record(10, 0.0, 1.0, 1.0)}),
                phaseResult(Phase::kDirReaddir, 0, {record(1, 1.0, 1.5, 1.5)})};
  const std::vector<std::string> lines = splitLines(printRun(run, plan));
  ASSERT_GE(lines.size(), 14u);
  EXPECT_EQ(lines[11], "Test Directory creation 1.000000e+01");
  EXPECT_EQ(lines[12], "Test Directory stat 0.000000e+00");
  EXPECT_EQ(lines[13], "Test Directory read 0.000000e+00");
  // The CSV's "Directory read" columns stay empty: only the creates have numbers.
  EXPECT_EQ(splitLines(rankDetailsCsv(run)).back(),
            "0,,1.0000000000e+01,1.0000000000e+00" + std::string(16, ','));
}

}  // namespace
}  // namespace mdbench
