// Tests of the IOzone throughput-mode importer against real and hand-written output, and of every malformed
// input naming its line.
#include <gtest/gtest.h>

#include <array>
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

ImportError iozoneError(std::string_view text) { return importErrorOf(parseIozone, text, "io.txt"); }

// IOzone prints KiB/s ("kB/sec"); the import stores MiB/s, and the aggregate is also min and max.
void expectKiB(const DataPathRow& row, double kib_per_s) {
  EXPECT_DOUBLE_EQ(row.mib_per_s_mean, kib_per_s / 1024.0) << row.operation;
  EXPECT_DOUBLE_EQ(row.mib_per_s_min, kib_per_s / 1024.0) << row.operation;
  EXPECT_DOUBLE_EQ(row.mib_per_s_max, kib_per_s / 1024.0) << row.operation;
  EXPECT_DOUBLE_EQ(row.mib_per_s_stddev, 0.0);
  EXPECT_DOUBLE_EQ(row.ops_per_s_mean, 0.0);
  EXPECT_EQ(row.iterations, 1u);
  EXPECT_EQ(row.nodes, 0u);
}

constexpr std::array<const char*, 13> kAllOperations = {
    "initial-write", "rewrite",      "read",   "re-read", "reverse-read", "stride-read", "random-read",
    "mixed",         "random-write", "pwrite", "pread",   "fwrite",       "fread"};

TEST(ImportIozone, RealAllTestsAtOneAndTwoProcesses) {
  const DataPathImport imported = parseIozone(readFixture("iozone-3.471-real-l1-u2.txt"), "iozone.txt");
  EXPECT_EQ(imported.tool, "iozone");
  EXPECT_EQ(imported.tool_version, "3.471");
  EXPECT_EQ(imported.began, "Mon Nov 30 15:55:43 2026");
  EXPECT_EQ(
      imported.command_line,
      "/tmp/iozone-build/iozone -l 1 -u 2 -r 64k -s 4m -i 0 -i 1 -i 2 -i 3 -i 5 -i 6 -i 7 -i 8 -i 9 -i 10");
  EXPECT_EQ(imported.source, "iozone.txt");
  ASSERT_EQ(imported.rows.size(), 26u);
  for (std::size_t i = 0; i < imported.rows.size(); ++i) {
    EXPECT_EQ(imported.rows[i].operation, kAllOperations[i % 13]) << i;
    EXPECT_EQ(imported.rows[i].clients, i < 13 ? 1u : 2u) << i;
    EXPECT_EQ(imported.rows[i].transfer_bytes, 65536u);
    EXPECT_EQ(imported.rows[i].block_bytes, 4194304u);
  }
  expectKiB(imported.rows[0], 3295072.75);
  expectKiB(imported.rows[3], 3703511.25);
  expectKiB(imported.rows[12], 3571100.25);
  expectKiB(imported.rows[13], 2385494.75);
  expectKiB(imported.rows[25], 7765279.00);
}

TEST(ImportIozone, HandWrittenOneToFourProcesses) {
  const DataPathImport imported = parseIozone(readFixture("iozone-3.506-l1-u4.txt"), "nfs.txt");
  EXPECT_EQ(imported.tool_version, "3.506");
  EXPECT_EQ(imported.began, "Thu Feb 16 10:21:07 2023");
  EXPECT_EQ(imported.command_line, "iozone -l 1 -u 4 -r 1m -s 2g -i 0 -i 1 -i 2 -e -c");
  ASSERT_EQ(imported.rows.size(), 24u);
  constexpr std::array<const char*, 6> kOperations = {"initial-write", "rewrite",     "read",
                                                      "re-read",       "random-read", "random-write"};
  for (std::size_t i = 0; i < imported.rows.size(); ++i) {
    EXPECT_EQ(imported.rows[i].operation, kOperations[i % 6]) << i;
    EXPECT_EQ(imported.rows[i].clients, i / 6 + 1) << i;
    EXPECT_EQ(imported.rows[i].transfer_bytes, 1048576u);
    EXPECT_EQ(imported.rows[i].block_bytes, 2147483648u);
  }
  expectKiB(imported.rows[0], 412345.67);
  expectKiB(imported.rows[16], 850777.66);
  expectKiB(imported.rows[23], 960654.31);
}

TEST(ImportIozone, OpsModeStoresOperationsNotBandwidth) {
  const DataPathImport imported = parseIozone(readFixture("iozone-3.471-real-t2-ops.txt"), "ops.txt");
  ASSERT_EQ(imported.rows.size(), 4u);
  constexpr std::array<double, 4> kOps = {4372.04, 98136.25, 180074.56, 181205.79};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(imported.rows[i].clients, 2u);
    EXPECT_DOUBLE_EQ(imported.rows[i].ops_per_s_mean, kOps[i]);
    EXPECT_DOUBLE_EQ(imported.rows[i].mib_per_s_mean, 0.0);
  }
}

TEST(ImportIozone, ThreadsWithExcelSummary) {
  const DataPathImport imported = parseIozone(readFixture("iozone-3.471-real-t2-threads-excel.txt"), "t.txt");
  ASSERT_EQ(imported.rows.size(), 4u);
  EXPECT_EQ(imported.rows[3].operation, "re-read");
  expectKiB(imported.rows[0], 2243152.50);
  expectKiB(imported.rows[3], 11039850.50);
}

// One complete block for 2 processes, with line numbers 1 to 6.
const std::string kBlock =
    "\tChildren see throughput for  2 initial writers \t= 2048.00 kB/sec\n"
    "\tParent sees throughput for  2 initial writers \t= 1024.00 kB/sec\n"
    "\tMin throughput per process \t\t\t= 1000.00 kB/sec \n"
    "\tMax throughput per process \t\t\t= 1048.00 kB/sec\n"
    "\tAvg throughput per process \t\t\t= 1024.00 kB/sec\n"
    "\tMin xfer \t\t\t\t\t= 4096.00 kB\n";

TEST(ImportIozone, MinimalBlockWithoutHeader) {
  const DataPathImport imported = parseIozone(kBlock, "min");
  ASSERT_EQ(imported.rows.size(), 1u);
  expectKiB(imported.rows[0], 2048.0);
  EXPECT_EQ(imported.rows[0].transfer_bytes, 0u);
  EXPECT_EQ(imported.tool_version, "");
}

TEST(ImportIozone, UnknownTestNameIsKept) {
  std::string text = kBlock;
  text.replace(text.find("initial writers"), 15, "strided fwriters");
  EXPECT_EQ(parseIozone(text, "x").rows[0].operation, "strided-fwriters");
}

TEST(ImportIozone, EmptyAndForeignInput) {
  EXPECT_STREQ(iozoneError("").what(),
               "io.txt:1: empty input, expected IOzone throughput-mode output (iozone -t N "
               "or -l/-u)");
  EXPECT_EQ(iozoneError("hello\nworld\n").line(), 1u);
  const ImportError auto_mode = iozoneError(
      "\tIozone: Performance Test of File I/O\n\t        Version $Revision: 3.506 $\n\n\tAuto Mode\n");
  EXPECT_EQ(auto_mode.line(), 4u);
  EXPECT_NE(std::string(auto_mode.what()).find("throughput mode"), std::string::npos);
}

TEST(ImportIozone, BadNumbersAndUnits) {
  auto with = [](std::string_view from, std::string_view to) {
    std::string text = kBlock;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  EXPECT_STREQ(iozoneError(with("2048.00 kB/sec", "2048.00 MB/sec")).what(),
               "io.txt:1: unit 'MB/sec', expected kB/sec or ops/sec");
  EXPECT_STREQ(iozoneError(with("2048.00 kB/sec", "-2048.00 kB/sec")).what(),
               "io.txt:1: 'initial writers' throughput is '-2048.00', expected a non-negative finite number");
  EXPECT_EQ(iozoneError(with("2048.00 kB/sec", "nan kB/sec")).line(), 1u);
  EXPECT_EQ(iozoneError(with("2048.00 kB/sec", "1e999 kB/sec")).line(), 1u);
  EXPECT_EQ(iozoneError(with("1048.00 kB/sec", "inf kB/sec")).line(), 4u);
  EXPECT_STREQ(iozoneError(with("for  2 initial", "for  0 initial")).what(),
               "io.txt:1: client count '0' is not a positive 32-bit integer");
  EXPECT_EQ(iozoneError(with("for  2 initial", "for  99999999999 initial")).line(), 1u);
  EXPECT_EQ(iozoneError(with("= 4096.00 kB\n", "= \n")).line(), 6u);
}

TEST(ImportIozone, CutShortOutput) {
  // A block without its "Min xfer" line: named at its "Children see" line.
  const std::string no_end = "\tRecord Size 4 kB\n" + kBlock.substr(0, kBlock.find("\tAvg"));
  EXPECT_STREQ(
      iozoneError(no_end).what(),
      "io.txt:2: 'initial writers' block for 2 clients has no 'Min xfer' line: the output was cut short");
  // Cut inside the last number: the line has no end, and a cut number would read as a smaller one.
  const std::string cut_number = kBlock.substr(0, kBlock.size() - 5);
  EXPECT_EQ(iozoneError(cut_number).line(), 6u);
  EXPECT_EQ(iozoneError(kBlock.substr(0, 40)).line(), 1u);
}

TEST(ImportIozone, BadHeaderSizes) {
  EXPECT_STREQ(iozoneError("\tRecord Size 99999999999999999999 kB\n" + kBlock).what(),
               "io.txt:1: record size '99999999999999999999' is not a size in kB that fits in 64 bits");
  EXPECT_EQ(iozoneError("\tEach process writes a x kByte file in 4 kByte records\n" + kBlock).line(), 1u);
}

}  // namespace
}  // namespace mdbench
