// Tests of the mdtest importer on ior 3.2, 3.3, 4.0 and 4.1 mdtest output (rate and time tables, rank
// statistics, sweeps), and of every malformed input naming its line.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "import_fixture.hpp"
#include "mdbench/model/imported.hpp"

namespace mdbench {
namespace {

using import_test::importErrorOf;
using import_test::kFixtures;
using import_test::readFixture;

ImportError mdtestError(std::string_view text) { return importErrorOf(parseMdtest, text, "md.txt"); }

struct Expected {
  const char* phase;
  const char* operation;
  std::uint32_t ranks;
  std::uint32_t nodes;
  std::uint32_t iterations;
  std::array<double, 4> rate;  // max, min, mean, stddev
  double time;
};

void expectRow(const MetadataImportRow& row, const Expected& e) {
  EXPECT_EQ(row.phase, e.phase) << e.operation;
  EXPECT_EQ(row.operation, e.operation);
  EXPECT_EQ(row.ranks, e.ranks) << e.operation;
  EXPECT_EQ(row.nodes, e.nodes) << e.operation;
  EXPECT_EQ(row.iterations, e.iterations) << e.operation;
  EXPECT_DOUBLE_EQ(row.ops_per_s_max, e.rate[0]) << e.operation;
  EXPECT_DOUBLE_EQ(row.ops_per_s_min, e.rate[1]) << e.operation;
  EXPECT_DOUBLE_EQ(row.ops_per_s_mean, e.rate[2]) << e.operation;
  EXPECT_DOUBLE_EQ(row.ops_per_s_stddev, e.rate[3]) << e.operation;
  EXPECT_DOUBLE_EQ(row.time_s_mean, e.time) << e.operation;
}

constexpr std::array<const char*, 10> kPhases41 = {"dir-create",  "dir-stat",   "dir-rename", "dir-remove",
                                                   "file-create", "file-stat",  "file-read",  "file-remove",
                                                   "tree-create", "tree-remove"};

TEST(ImportMdtest, RealRateAndTimeTables) {
  const MetadataImport imported = parseMdtest(readFixture("mdtest-4.1-real-P-n2.txt"), "md-P.txt");
  EXPECT_EQ(imported.tool, "mdtest");
  EXPECT_EQ(imported.tool_version, "4.1.0+dev");
  EXPECT_EQ(imported.command_line, "/tmp/ior-build/src/mdtest '-n' '100' '-i' '2' '-d' '/dev/shm/mdt' '-P'");
  EXPECT_EQ(imported.began, "11/30/2026 15:54:33");
  EXPECT_EQ(imported.source, "md-P.txt");
  ASSERT_EQ(imported.rows.size(), 10u);
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(imported.rows[i].phase, kPhases41[i]);
  expectRow(
      imported.rows[0],
      {"dir-create", "Directory creation", 2, 1, 2, {388361.481, 334474.003, 361417.742, 38104.201}, 0.001});
  expectRow(
      imported.rows[2],
      {"dir-rename", "Directory rename", 2, 1, 2, {338933.657, 42642.375, 190788.016, 209509.574}, 0.003});
  expectRow(
      imported.rows[9],
      {"tree-remove", "Tree removal", 2, 1, 2, {349525.333, 199728.762, 274627.048, 105922.171}, 0.000});
}

TEST(ImportMdtest, RealRateTableOnly) {
  const MetadataImport imported = parseMdtest(readFixture("mdtest-4.1-real-plain-n2.txt"), "plain");
  ASSERT_EQ(imported.rows.size(), 10u);
  expectRow(imported.rows[4],
            {"file-create", "File creation", 2, 1, 2, {322514.725, 310114.898, 316314.812, 8768.002}, 0.0});
}

// --showRankStatistics prints per-rank Max, Min and Mean first; the import keeps both sets of columns.
TEST(ImportMdtest, RealRankStatistics) {
  const MetadataImport imported = parseMdtest(readFixture("mdtest-4.1-real-rankstats-n2.txt"), "ranks");
  ASSERT_EQ(imported.rows.size(), 10u);
  expectRow(
      imported.rows[0],
      {"dir-create", "Directory creation", 2, 1, 2, {358334.387, 323634.568, 340984.477, 24536.477}, 0.0});
  expectRow(imported.rows[8],
            {"tree-create", "Tree creation", 2, 1, 2, {246723.765, 144631.172, 195677.469, 72190.364}, 0.0});
  ASSERT_TRUE(imported.rows[0].has_rank_statistics);
  EXPECT_DOUBLE_EQ(imported.rows[0].per_rank_ops_per_s_max, 194541.002);
  EXPECT_DOUBLE_EQ(imported.rows[0].per_rank_ops_per_s_min, 162632.959);
  EXPECT_DOUBLE_EQ(imported.rows[0].per_rank_ops_per_s_mean, 175589.492);
  EXPECT_DOUBLE_EQ(imported.rows[6].per_rank_ops_per_s_min, 23256.468);  // File read
  for (const MetadataImportRow& row : imported.rows) EXPECT_TRUE(row.has_rank_statistics) << row.operation;
  const MetadataImport plain = parseMdtest(readFixture("mdtest-4.1-real-plain-n2.txt"), "plain");
  for (const MetadataImportRow& row : plain.rows) EXPECT_FALSE(row.has_rank_statistics) << row.operation;
  const MetadataImport with_time = parseMdtest(readFixture("mdtest-4.1-real-P-rankstats-n2.txt"), "ranks-P");
  ASSERT_EQ(with_time.rows.size(), 10u);
  expectRow(with_time.rows[5],
            {"file-stat", "File stat", 2, 1, 2, {1325214.534, 1155455.647, 1240335.091, 120037.660}, 0.0});
  expectRow(
      with_time.rows[3],
      {"dir-remove", "Directory removal", 2, 1, 2, {309086.514, 268435.456, 288760.985, 28744.639}, 0.001});
}

TEST(ImportMdtest, RealSweepOverRankCounts) {
  const MetadataImport imported = parseMdtest(readFixture("mdtest-4.1-real-sweep-n4.txt"), "sweep");
  ASSERT_EQ(imported.rows.size(), 40u);
  for (std::size_t i = 0; i < 40; ++i) {
    EXPECT_EQ(imported.rows[i].ranks, i / 10 + 1) << i;
    EXPECT_EQ(imported.rows[i].nodes, i / 10 + 1 == 4 ? 1u : 0u)
        << i;  // only the full job's nodes are printed
    EXPECT_EQ(imported.rows[i].phase, kPhases41[i % 10]) << i;
  }
  expectRow(
      imported.rows[0],
      {"dir-create", "Directory creation", 1, 0, 2, {273066.667, 268521.383, 270794.025, 3214.001}, 0.0});
  expectRow(imported.rows[24],
            {"file-create", "File creation", 3, 0, 2, {18775.422, 18661.256, 18718.339, 80.727}, 0.008});
  expectRow(
      imported.rows[30],
      {"dir-create", "Directory creation", 4, 1, 2, {24963.123, 11193.766, 18078.445, 9736.406}, 0.013});
  expectRow(imported.rows[39],
            {"tree-remove", "Tree removal", 4, 1, 2, {126.038, 125.913, 125.976, 0.088}, 0.008});
}

// Rows of zeros are operations the options left out (here: directory rename); they are not imported.
TEST(ImportMdtest, Version40LayoutDropsOperationsThatDidNotRun) {
  const MetadataImport imported = parseMdtest(readFixture("mdtest-4.0-new.txt"), "40");
  EXPECT_EQ(imported.tool_version, "4.0.0");
  EXPECT_EQ(imported.began, "09/21/2022 11:02:53");
  ASSERT_EQ(imported.rows.size(), 9u);
  expectRow(imported.rows[0],
            {"dir-create", "Directory creation", 8, 2, 3, {30512.847, 27760.112, 29301.440, 1402.571}, 0.0});
  expectRow(imported.rows[2],
            {"dir-remove", "Directory removal", 8, 2, 3, {36004.775, 33187.240, 34709.019, 1420.804}, 0.0});
  expectRow(imported.rows[8],
            {"tree-remove", "Tree removal", 8, 2, 3, {1102.760, 940.115, 1028.390, 82.225}, 0.0});
}

TEST(ImportMdtest, Version33ColonLabelsStonewallRowAndSweep) {
  const MetadataImport imported = parseMdtest(readFixture("mdtest-3.3-old-P-sweep.txt"), "33");
  EXPECT_EQ(imported.tool_version, "3.3.0");
  EXPECT_EQ(
      imported.command_line,
      "./mdtest '-F' '-P' '-n' '500' '-i' '2' '-W' '5' '-f' '2' '-l' '4' '-s' '2' '-d' '/mnt/nvme/mdt'");
  ASSERT_EQ(imported.rows.size(), 14u);
  expectRow(imported.rows[0],
            {"file-create", "File creation", 2, 0, 2, {40112.503, 38270.116, 39191.310, 921.194}, 0.026});
  expectRow(imported.rows[4], {"", "File create (stonewall)", 2, 0, 2, {0.0, 0.0, 38870.225, 0.0}, 0.026});
  expectRow(imported.rows[6],
            {"tree-remove", "Tree removal", 2, 0, 2, {902.113, 851.006, 876.560, 25.554}, 0.001});
  expectRow(imported.rows[9],
            {"file-read", "File read", 4, 1, 2, {121870.440, 117303.891, 119587.166, 2283.275}, 0.017});
  expectRow(imported.rows[11], {"", "File create (stonewall)", 4, 1, 2, {0.0, 0.0, 67311.904, 0.0}, 0.030});
}

TEST(ImportMdtest, Version32Labels) {
  const MetadataImport imported = parseMdtest(readFixture("mdtest-3.2-old.txt"), "32");
  EXPECT_EQ(imported.tool_version, "3.2.0");
  EXPECT_EQ(imported.began, "03/14/2019 09:12:41");
  EXPECT_EQ(imported.command_line,
            "/opt/ior/bin/mdtest \"-n\" \"1000\" \"-i\" \"3\" \"-u\" \"-d\" \"/lustre/scratch/mdt\"");
  ASSERT_EQ(imported.rows.size(), 9u);
  expectRow(imported.rows[0],
            {"dir-create", "Directory creation", 4, 2, 3, {12754.318, 10422.907, 11603.551, 951.882}, 0.0});
  expectRow(imported.rows[2],
            {"dir-remove", "Directory removal", 4, 2, 3, {15890.012, 13377.254, 14519.700, 1040.163}, 0.0});
  expectRow(imported.rows[7],
            {"tree-create", "Tree creation", 4, 2, 3, {812.307, 604.112, 709.481, 85.003}, 0.0});
}

// A small 4.x output; "File creation" is line 7.
const std::string kSmall =
    "mdtest-4.0.0 was launched with 2 total task(s) on 1 node(s)\n"
    "Command line used: mdtest '-n' '10'\n"
    "2 tasks, 20 files/directories\n"
    "\n"
    "SUMMARY rate: (of 1 iterations)\n"
    "   Operation                     Max            Min           Mean        Std Dev\n"
    "   File creation                100.000         90.000         95.000          0.000\n"
    "   Bulk frobnication             10.000         10.000         10.000          0.000\n"
    "-- finished at 01/01/2024 00:00:00 --\n";

std::string replaced(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string smallWith(std::string_view from, std::string_view to) { return replaced(kSmall, from, to); }

TEST(ImportMdtest, UnknownLabelsAreKeptWithoutPhase) {
  const std::string text =
      smallWith("   Operation                     Max            Min           Mean        Std Dev\n",
                "   Operation   Max   Min   Mean   Std Dev\n   ---------   ---\n");
  const MetadataImport imported = parseMdtest(text, "small");
  ASSERT_EQ(imported.rows.size(), 2u);
  expectRow(imported.rows[1], {"", "Bulk frobnication", 2, 1, 1, {10.0, 10.0, 10.0, 0.0}, 0.0});
}

TEST(ImportMdtest, MissingDashedLine) {
  EXPECT_STREQ(
      mdtestError(kSmall).what(),
      "md.txt:6: expected the 'Operation  Max  Min  Mean  Std Dev' header and its dashed line after SUMMARY");
}

// The same small output with the dashed line; "File creation" is then line 8.
const std::string kGood = smallWith("Std Dev\n", "Std Dev\n   ---------   ---\n");

TEST(ImportMdtest, RowWithTooFewNumbers) {
  EXPECT_STREQ(mdtestError(replaced(kGood, "  95.000", "")).what(),
               "md.txt:8: 'File creation' row has 3 numbers, expected 4");
}

TEST(ImportMdtest, BadNumbers) {
  EXPECT_STREQ(mdtestError(replaced(kGood, "90.000", "-nan")).what(),
               "md.txt:8: 'File creation' row: '-nan' is not a non-negative finite number");
  EXPECT_STREQ(mdtestError(replaced(kGood, "90.000", "-90.000")).what(),
               "md.txt:8: 'File creation' row: '-90.000' is not a non-negative finite number");
  EXPECT_EQ(mdtestError(replaced(kGood, "90.000", "9e999")).line(), 8u);
}

TEST(ImportMdtest, SummaryWithoutRowsOrIterations) {
  const std::string no_rows = kGood.substr(0, kGood.find("   File creation")) + "-- finished at x --\n";
  EXPECT_STREQ(mdtestError(no_rows).what(), "md.txt:8: SUMMARY table has no rows");
  EXPECT_STREQ(mdtestError(replaced(kGood, "(of 1 iterations)", "")).what(),
               "md.txt:5: SUMMARY line without '(of N iterations)', N at least 1");
  EXPECT_EQ(mdtestError(replaced(kGood, "(of 1 ", "(of 0 ")).line(), 5u);
  EXPECT_EQ(mdtestError(kGood.substr(0, kGood.find("   Operation"))).line(), 5u);
}

TEST(ImportMdtest, CutShort) {
  const std::string cut = kGood.substr(0, kGood.find("95.000") + 3);  // "95." without its line end
  EXPECT_EQ(mdtestError(cut).line(), 8u);
  const std::string whole_row = kGood.substr(0, kGood.find("   Bulk"));
  EXPECT_EQ(parseMdtest(whole_row, "x").rows.size(), 1u);  // cut between rows: nothing to tell it apart
  // An operation's row cut before its numbers, with or without its line end, and a row cut in its label.
  const std::string bare_label = kGood.substr(0, kGood.find("100.000"));
  EXPECT_STREQ(mdtestError(bare_label).what(),
               "md.txt:8: 'File creation' row has no numbers, expected 4: the output was cut short");
  EXPECT_STREQ(mdtestError(bare_label + "\n").what(),
               "md.txt:8: 'File creation' row has no numbers, expected 4: the output was cut short");
  const std::string cut_label = kGood.substr(0, kGood.find("   Bulk")) + "   File st";  // "File stat"
  EXPECT_STREQ(mdtestError(cut_label).what(),
               "md.txt:9: the last SUMMARY row has no line end: the output was cut short");
  // A last line that is not the start of an operation's label is not taken for a cut row.
  EXPECT_EQ(parseMdtest(kGood.substr(0, kGood.find("   Bulk")) + "-- finished at x --", "x").rows.size(), 1u);
  const std::string no_summary = kGood.substr(0, kGood.find("SUMMARY"));
  EXPECT_STREQ(mdtestError(no_summary).what(),
               "md.txt:4: mdtest output without a SUMMARY table: the run ended before its summary");
}

TEST(ImportMdtest, ForeignEmptyAndBinaryInput) {
  EXPECT_STREQ(mdtestError("").what(), "md.txt:1: empty input, expected mdtest output");
  EXPECT_EQ(mdtestError("hello\n").line(), 1u);
  EXPECT_EQ(mdtestError(std::string("mdtest\n\n\0", 9)).line(), 3u);
}

TEST(ImportMdtest, RankCountsAndDuplicates) {
  const std::string no_ranks = kGood.substr(kGood.find("\nSUMMARY") + 1);
  EXPECT_STREQ(
      mdtestError(no_ranks).what(),
      "md.txt:4: SUMMARY table without a rank count: expected the 'mdtest-... was launched with N total "
      "task(s)' line or an 'N tasks, M files/directories' line before it");
  EXPECT_STREQ(mdtestError(smallWith("2 tasks,", "0 tasks,")).what(),
               "md.txt:3: '0' tasks: not a positive task count");
  EXPECT_EQ(mdtestError(smallWith("2 total task(s)", "x total task(s)")).line(), 1u);
  EXPECT_STREQ(mdtestError(replaced(kGood, "Bulk frobnication", "File creation")).what(),
               "md.txt:9: 'File creation' appears twice in one SUMMARY table");
}

TEST(ImportMdtest, AllZeroRowsMeanNothingRan) {
  std::string zeros = replaced(kGood, "100.000         90.000         95.000", "0.000   0.000   0.000");
  zeros = replaced(zeros, "10.000         10.000         10.000", "0.000   0.000   0.000");
  EXPECT_STREQ(mdtestError(zeros).what(), "md.txt:10: every SUMMARY row is 0: no operation ran");
}

// -Z alone prints only times, to the millisecond (0.000 for these fast phases): refused, saying why.
TEST(ImportMdtest, RealTimeTableOnlyIsRefused) {
  EXPECT_STREQ(
      mdtestError(readFixture("mdtest-4.1-real-Z-n1.txt")).what(),
      "md.txt:11: only a SUMMARY time table (mdtest -Z) and every time 0.000 (phases under 0.5 ms or "
      "not run): rates cannot be derived; run mdtest with -P (rates and times) or without -Z");
}

// -Z with phases long enough: each rate is the step's items over the phase's time ("2 tasks, 20000
// files", File creation 0.228 s); the tree rows (their item count is not printed) are left out.
TEST(ImportMdtest, RealTimeTableDerivesRates) {
  const MetadataImport imported = parseMdtest(readFixture("mdtest-4.1-real-Z-files-n2.txt"), "z");
  ASSERT_EQ(imported.rows.size(), 4u);
  expectRow(
      imported.rows[0],
      {"file-create", "File creation", 2, 1, 1, {20000 / 0.228, 20000 / 0.228, 20000 / 0.228, 0.0}, 0.228});
  expectRow(imported.rows[1],
            {"file-stat", "File stat", 2, 1, 1, {20000 / 0.108, 20000 / 0.108, 20000 / 0.108, 0.0}, 0.108});
  EXPECT_EQ(imported.rows[3].phase, "file-remove");
  for (const MetadataImportRow& row : imported.rows) EXPECT_GT(row.ops_per_s_min, 0.0) << row.operation;
  // Two iterations: the fastest and slowest times give the max and min rates, their mean and deviation.
  const MetadataImport two = parseMdtest(readFixture("mdtest-4.1-real-Z-i2-n1.txt"), "z2");
  ASSERT_EQ(two.rows.size(), 4u);
  const double max = 10000 / 0.245, min = 10000 / 0.273;
  expectRow(two.rows[0], {"file-create",
                          "File creation",
                          1,
                          1,
                          2,
                          {max, min, (max + min) / 2, (max - min) / std::sqrt(2.0)},
                          0.259});
  // A phase timed under 0.1 s, a stonewall or three iterations: refused, naming the line.
  const std::string text = readFixture("mdtest-4.1-real-Z-files-n2.txt");
  EXPECT_STREQ(
      mdtestError(
          replaced(text, "0.108          0.108          0.108", "0.050          0.050          0.050"))
          .what(),
      "md.txt:15: only a SUMMARY time table (mdtest -Z) and 'File stat' took 0.050 s, under the 0.1 s "
      "that keep the rounding under 0.5%: rates cannot be derived; run mdtest with -P (rates and "
      "times) or without -Z");
  EXPECT_NE(std::string(mdtestError(replaced(text, "'-Z'", "'-Z' '-W' '5'")).what()).find("a stonewall (-W)"),
            std::string::npos);
  EXPECT_NE(std::string(mdtestError(replaced(text, "(of 1 iterations)", "(of 3 iterations)")).what())
                .find("3 iterations"),
            std::string::npos);
}

// -P -Z: -P wins, both tables; the rates come from the rate table.
TEST(ImportMdtest, RealRateAndTimeWithZ) {
  const MetadataImport imported = parseMdtest(readFixture("mdtest-4.1-real-PZ-n1.txt"), "pz");
  ASSERT_EQ(imported.rows.size(), 10u);
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(imported.rows[i].phase, kPhases41[i]);
  expectRow(imported.rows[0],
            {"dir-create", "Directory creation", 1, 1, 1, {211833.535, 211833.535, 211833.535, 0.0}, 0.0});
  expectRow(imported.rows[8],
            {"tree-create", "Tree creation", 1, 1, 1, {22671.914, 22671.914, 22671.914, 0.0}, 0.0});
}

// --print-all-procs: the per-process lines before the table are not rows.
TEST(ImportMdtest, RealPerProcessLinesAreSkipped) {
  const MetadataImport imported = parseMdtest(readFixture("mdtest-4.1-real-allprocs-n2.txt"), "all");
  ASSERT_EQ(imported.rows.size(), 10u);
  expectRow(imported.rows[0],
            {"dir-create", "Directory creation", 2, 1, 1, {1655.341, 1655.341, 1655.341, 0.0}, 0.0});
  expectRow(imported.rows[9],
            {"tree-remove", "Tree removal", 2, 1, 1, {125.345, 125.345, 125.345, 0.0}, 0.0});
}

// -F, -D: only their rows; -C: the rows of zeros of the phases that did not run are dropped.
TEST(ImportMdtest, RealFilesDirsAndCreateOnly) {
  const MetadataImport files = parseMdtest(readFixture("mdtest-4.1-real-F-n1.txt"), "f");
  ASSERT_EQ(files.rows.size(), 6u);
  expectRow(files.rows[0],
            {"file-create", "File creation", 1, 1, 1, {68422.577, 68422.577, 68422.577, 0.0}, 0.0});
  const MetadataImport dirs = parseMdtest(readFixture("mdtest-4.1-real-D-n1.txt"), "d");
  ASSERT_EQ(dirs.rows.size(), 6u);
  EXPECT_EQ(dirs.rows[3].phase, "dir-remove");
  const MetadataImport create = parseMdtest(readFixture("mdtest-4.1-real-C-n1.txt"), "c");
  ASSERT_EQ(create.rows.size(), 3u);
  EXPECT_EQ(create.rows[0].phase, "dir-create");
  EXPECT_EQ(create.rows[1].phase, "file-create");
  expectRow(create.rows[2],
            {"tree-create", "Tree creation", 1, 1, 1, {167772.160, 167772.160, 167772.160, 0.0}, 0.0});
}

}  // namespace
}  // namespace mdbench
