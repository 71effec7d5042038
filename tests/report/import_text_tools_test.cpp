// Tests of the importers of IOR's text output and of md-workbench's output against real runs of the tools
// (tests/fixtures/import/README.md), and of their messages on input they cannot read.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "import_fixture.hpp"
#include "mdbench/model/imported.hpp"

namespace mdbench {
namespace {

using import_test::importErrorOf;
using import_test::readFixture;

TEST(ImportIorText, RealTwoRepetitions) {
  const DataPathImport imp = parseIorText(readFixture("ior-4.1-real-text-n2.txt"), "ior.txt");
  EXPECT_EQ(imp.tool, "ior");
  EXPECT_EQ(imp.tool_version, "4.1.0+dev");
  EXPECT_EQ(imp.began, "Wed Dec  2 07:13:34 2026");
  EXPECT_EQ(imp.command_line, "/tmp/ior/src/ior -a POSIX -w -r -i 2 -t 64k -b 1m -o /dev/shm/imior");
  EXPECT_EQ(imp.source, "ior.txt");
  ASSERT_EQ(imp.rows.size(), 2u);
  const DataPathRow& w = imp.rows[0];
  EXPECT_EQ(w.operation, "write");
  EXPECT_EQ(w.clients, 2u);
  EXPECT_EQ(w.nodes, 1u);
  EXPECT_EQ(w.iterations, 2u);
  EXPECT_DOUBLE_EQ(w.mib_per_s_max, 437.73);
  EXPECT_DOUBLE_EQ(w.mib_per_s_min, 171.48);
  EXPECT_DOUBLE_EQ(w.mib_per_s_mean, 304.61);
  EXPECT_DOUBLE_EQ(w.mib_per_s_stddev, 133.12);
  EXPECT_DOUBLE_EQ(w.ops_per_s_mean, 4873.68);
  EXPECT_EQ(w.transfer_bytes, 65536u);
  EXPECT_EQ(w.block_bytes, 1048576u);
  EXPECT_EQ(imp.rows[1].operation, "read");
  EXPECT_DOUBLE_EQ(imp.rows[1].mib_per_s_stddev, 153.01);
}

// Two tests of one script: each row takes its own task count, sizes and the nodes of its own test.
TEST(ImportIorText, RealTwoTests) {
  const DataPathImport imp = parseIorText(readFixture("ior-4.1-real-text-two-tests.txt"), "two");
  ASSERT_EQ(imp.rows.size(), 4u);
  EXPECT_EQ(imp.rows[0].clients, 1u);
  EXPECT_EQ(imp.rows[0].transfer_bytes, 65536u);
  EXPECT_EQ(imp.rows[2].operation, "write");
  EXPECT_EQ(imp.rows[2].clients, 2u);
  EXPECT_EQ(imp.rows[2].nodes, 1u);
  EXPECT_EQ(imp.rows[2].transfer_bytes, 262144u);
  EXPECT_EQ(imp.rows[2].block_bytes, 4194304u);
  EXPECT_DOUBLE_EQ(imp.rows[2].mib_per_s_mean, 713.60);
}

TEST(ImportIorText, BadInputNamesTheLine) {
  const std::string text = readFixture("ior-4.1-real-text-n2.txt");
  const std::size_t summary = text.find("Summary of all tests:");
  ASSERT_NE(summary, std::string::npos);
  // Cut before the summary: the run ended early.
  const ImportError early = importErrorOf(parseIorText, std::string_view(text).substr(0, summary), "cut");
  EXPECT_NE(std::string(early.what()).find("ended before its summary"), std::string::npos) << early.what();
  // A number that is not one, on the write row (line 41 of the file).
  std::string bad = text;
  bad.replace(bad.find("437.73     171.48"), 6, "43x.73");
  const ImportError number = importErrorOf(parseIorText, bad, "bad");
  EXPECT_EQ(number.line(), 41u) << number.what();
  EXPECT_NE(std::string(number.what()).find("Max(MiB) '43x.73'"), std::string::npos) << number.what();
  // A row missing a column.
  std::string short_row = text;
  short_row.replace(short_row.find(" POSIX      0\nread"), 6, "");
  const ImportError columns = importErrorOf(parseIorText, short_row, "short");
  EXPECT_EQ(columns.line(), 41u) << columns.what();
  EXPECT_NE(std::string(columns.what()).find("'write' row has 26 columns, the header 27"), std::string::npos)
      << columns.what();
  EXPECT_EQ(importErrorOf(parseIorText, "hello\n", "h").line(), 1u);
}

TEST(ImportMdWorkbench, RealTwoIterations) {
  const MetadataImport imp = parseMdWorkbench(readFixture("md-workbench-4.1-real-n2.txt"), "wb.txt");
  EXPECT_EQ(imp.tool, "md-workbench");
  EXPECT_EQ(imp.tool_version, "4.1.0+dev");
  EXPECT_EQ(imp.began, "2026-12-02 07:01:11");
  EXPECT_EQ(imp.command_line,
            "/tmp/ior/src/md-workbench \"-D\" \"2\" \"-I\" \"20\" \"-P\" \"20\" \"-R\" \"2\" \"-o\" "
            "\"/dev/shm/imwb\"");
  ASSERT_EQ(imp.rows.size(), 7u);
  const MetadataImportRow& pre = imp.rows[0];
  EXPECT_EQ(pre.operation, "precreate");
  EXPECT_EQ(pre.phase, "");
  EXPECT_EQ(pre.ranks, 2u);
  EXPECT_EQ(pre.nodes, 1u);
  EXPECT_EQ(pre.iterations, 1u);
  EXPECT_DOUBLE_EQ(pre.ops_per_s_mean, 129008.3);
  ASSERT_TRUE(pre.has_latency);  // its only operation: create
  EXPECT_DOUBLE_EQ(pre.latency_p50_ns, 1.0967e-05 * 1e9);
  EXPECT_DOUBLE_EQ(pre.latency_p90_ns, 1.5020e-05 * 1e9);
  EXPECT_DOUBLE_EQ(pre.latency_p99_ns, 6.6042e-05 * 1e9);
  EXPECT_DOUBLE_EQ(pre.latency_max_ns, 6.6042e-05 * 1e9);
  const MetadataImportRow& bench = imp.rows[1];
  EXPECT_EQ(bench.operation, "benchmark");
  EXPECT_EQ(bench.iterations, 2u);
  EXPECT_DOUBLE_EQ(bench.ops_per_s_max, 265567.3);
  EXPECT_DOUBLE_EQ(bench.ops_per_s_min, 242401.5);
  EXPECT_DOUBLE_EQ(bench.ops_per_s_mean, (265567.3 + 242401.5) / 2);
  EXPECT_NEAR(bench.ops_per_s_stddev, (265567.3 - 242401.5) / std::sqrt(2.0), 1e-6);
  EXPECT_FALSE(bench.has_latency);  // four operations: their latencies are on their own rows
  const MetadataImportRow& stat = imp.rows[3];
  EXPECT_EQ(stat.operation, "benchmark stat");
  EXPECT_DOUBLE_EQ(stat.ops_per_s_max, 66391.8);
  EXPECT_DOUBLE_EQ(stat.ops_per_s_min, 60600.4);
  ASSERT_TRUE(stat.has_latency);  // the larger of the two iterations' figures
  EXPECT_DOUBLE_EQ(stat.latency_p50_ns, 3.0994e-06 * 1e9);
  EXPECT_DOUBLE_EQ(stat.latency_p90_ns, 4.0531e-06 * 1e9);
  EXPECT_DOUBLE_EQ(stat.latency_max_ns, 5.1975e-05 * 1e9);
  EXPECT_EQ(imp.rows[2].operation, "benchmark read");
  EXPECT_EQ(imp.rows[4].operation, "benchmark create");
  EXPECT_EQ(imp.rows[5].operation, "benchmark delete");
  const MetadataImportRow& cleanup = imp.rows[6];
  EXPECT_EQ(cleanup.operation, "cleanup");
  EXPECT_DOUBLE_EQ(cleanup.ops_per_s_mean, 272694.7);
  EXPECT_DOUBLE_EQ(cleanup.latency_max_ns, 3.2902e-05 * 1e9);
}

TEST(ImportMdWorkbench, BadInput) {
  const std::string text = readFixture("md-workbench-4.1-real-n2.txt");
  std::string no_map = text;
  no_map.replace(no_map.find("Nodemap: 11\n"), 12, "");
  EXPECT_NE(std::string(importErrorOf(parseMdWorkbench, no_map, "x").what()).find("no 'Nodemap:' line"),
            std::string::npos);
  std::string bad = text;
  bad.replace(bad.find("create(9.0599e-06s, "), 20, "create(9.0599e-06s, ");
  bad.replace(bad.find("1.0014e-05s, 1.0967e-05s"), 12, "");
  const ImportError figures = importErrorOf(parseMdWorkbench, bad, "x");
  EXPECT_EQ(figures.line(), 4u) << figures.what();
  EXPECT_NE(std::string(figures.what()).find("6 latency figures, expected 7"), std::string::npos)
      << figures.what();
  const std::size_t first_phase = text.find("precreate");
  const ImportError early =
      importErrorOf(parseMdWorkbench, std::string_view(text).substr(0, first_phase), "early");
  EXPECT_NE(std::string(early.what()).find("ended before its results"), std::string::npos) << early.what();
}

// The directory's logs as the command line reads them (every phase of the summary that has a log).
std::vector<Io500Log> io500Logs(const std::string& summary) {
  std::vector<Io500Log> logs;
  for (const std::string& phase : io500Phases(summary)) {
    const std::string name = "io500-real-logs-dir/" + phase + ".txt";
    logs.push_back({phase, name, readFixture(name)});
  }
  return logs;
}

TEST(ImportIo500, RealLogsAndSummary) {
  const std::string summary = readFixture("io500-real-logs-dir/result_summary.txt");
  EXPECT_EQ(io500Phases(summary),
            (std::vector<std::string>{"ior-easy-write", "mdtest-easy-write", "ior-easy-read",
                                      "mdtest-easy-stat", "mdtest-easy-delete"}));
  const Io500Import imp = parseIo500(summary, "dir/result_summary.txt", io500Logs(summary));
  // The summary's figures first (one import of each kind), then each log's import.
  ASSERT_EQ(imp.datapath.size(), 3u);
  ASSERT_EQ(imp.metadata.size(), 4u);
  const DataPathImport& bw = imp.datapath[0];
  EXPECT_EQ(bw.tool, "io500");
  EXPECT_EQ(bw.tool_version, "io500-sc24_v1 (standard)");
  EXPECT_EQ(bw.source, "dir/result_summary.txt");
  ASSERT_EQ(bw.rows.size(), 2u);
  EXPECT_EQ(bw.rows[0].operation, "ior-easy-write [INVALID]");
  EXPECT_EQ(bw.rows[0].clients, 2u);
  EXPECT_DOUBLE_EQ(bw.rows[0].mib_per_s_mean, 0.133877 * 1024);
  const MetadataImport& md = imp.metadata[0];
  EXPECT_EQ(md.tool, "io500");
  ASSERT_EQ(md.rows.size(), 3u);
  EXPECT_EQ(md.rows[1].operation, "mdtest-easy-stat [INVALID]");
  EXPECT_EQ(md.rows[1].phase, "");
  EXPECT_EQ(md.rows[1].ranks, 2u);
  EXPECT_DOUBLE_EQ(md.rows[1].ops_per_s_mean, 32.359212 * 1000);
  EXPECT_DOUBLE_EQ(md.rows[1].time_s_mean, 0.031);
  // The logs: ior's text output and mdtest's, each with its own command line.
  EXPECT_EQ(imp.datapath[1].tool, "ior");
  EXPECT_EQ(imp.datapath[1].source, "io500-real-logs-dir/ior-easy-write.txt");
  ASSERT_EQ(imp.datapath[1].rows.size(), 1u);
  EXPECT_DOUBLE_EQ(imp.datapath[1].rows[0].mib_per_s_mean, 137.09);
  EXPECT_EQ(imp.metadata[1].tool, "mdtest");
  ASSERT_EQ(imp.metadata[1].rows.size(), 2u);  // mdtest -C: File creation and Tree creation
  EXPECT_EQ(imp.metadata[1].rows[0].phase, "file-create");
  EXPECT_EQ(imp.metadata[1].rows[1].phase, "tree-create");
  EXPECT_NE(imp.metadata[1].command_line.find("'-C' '-Y' '-W' '2'"), std::string::npos)
      << imp.metadata[1].command_line;
  EXPECT_EQ(imp.metadata[3].rows[0].phase, "file-remove");
}

TEST(ImportIo500, BadSummary) {
  const std::string summary = readFixture("io500-real-logs-dir/result_summary.txt");
  EXPECT_NE(
      std::string(importErrorOf([](std::string_view t, const std::string& s) { return parseIo500(t, s, {}); },
                                summary, "s")
                      .what())
          .find("no ior or mdtest phase log"),
      std::string::npos);
  std::string bad = summary;
  bad.replace(bad.find("kIOPS"), 5, "IOPS!");
  const ImportError unit = importErrorOf(
      [&](std::string_view t, const std::string& s) { return parseIo500(t, s, io500Logs(summary)); }, bad,
      "s");
  EXPECT_EQ(unit.line(), 3u) << unit.what();
  EXPECT_NE(std::string(unit.what()).find("neither GiB/s nor kIOPS"), std::string::npos) << unit.what();
  EXPECT_NE(
      std::string(importErrorOf([](std::string_view t, const std::string& s) { return parseIo500(t, s, {}); },
                                "IO500 version x\n", "s")
                      .what())
          .find("no '[RESULT]' line"),
      std::string::npos);
}

}  // namespace
}  // namespace mdbench
