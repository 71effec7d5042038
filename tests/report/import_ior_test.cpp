// Tests of the IOR JSON importer against real and hand-written IOR output, every malformed input naming its
// line; and of every parser on every fixture cut short at many offsets (ImportError or a result, nothing
// else).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "import_fixture.hpp"
#include "mdbench/model/imported.hpp"

namespace mdbench {
namespace {

using import_test::importErrorOf;
using import_test::kFixtures;
using import_test::readFixture;

ImportError iorError(std::string_view text) { return importErrorOf(parseIorJson, text, "in.json"); }

void expectRow(const DataPathRow& row, const char* operation, std::uint32_t clients, std::uint32_t nodes,
               std::uint32_t iterations) {
  EXPECT_EQ(row.operation, operation);
  EXPECT_EQ(row.clients, clients);
  EXPECT_EQ(row.nodes, nodes);
  EXPECT_EQ(row.iterations, iterations);
}

void expectBandwidth(const DataPathRow& row, double max, double min, double mean, double stddev, double ops) {
  EXPECT_DOUBLE_EQ(row.mib_per_s_max, max);
  EXPECT_DOUBLE_EQ(row.mib_per_s_min, min);
  EXPECT_DOUBLE_EQ(row.mib_per_s_mean, mean);
  EXPECT_DOUBLE_EQ(row.mib_per_s_stddev, stddev);
  EXPECT_DOUBLE_EQ(row.ops_per_s_mean, ops);
}

TEST(ImportIor, RealWriteReadTwoRepetitions) {
  const DataPathImport imported = parseIorJson(readFixture("ior-4.1-real-n2.json"), "ior.json");
  EXPECT_EQ(imported.tool, "ior");
  EXPECT_EQ(imported.tool_version, "4.1.0+dev");
  EXPECT_EQ(imported.command_line,
            "./ior -a POSIX -w -r -i 2 -t 64k -b 1m -O summaryFormat=JSON -o /dev/shm/iortest");
  EXPECT_EQ(imported.began, "Mon Nov 30 15:54:27 2026");
  EXPECT_EQ(imported.source, "ior.json");
  ASSERT_EQ(imported.rows.size(), 2u);
  expectRow(imported.rows[0], "write", 2, 1, 2);
  expectBandwidth(imported.rows[0], 2557.5024, 2323.0706, 2440.2865, 117.2159, 39044.5845);
  EXPECT_EQ(imported.rows[0].transfer_bytes, 65536u);
  EXPECT_EQ(imported.rows[0].block_bytes, 1048576u);
  expectRow(imported.rows[1], "read", 2, 1, 2);
  expectBandwidth(imported.rows[1], 9127.9739, 8264.6384, 8696.3062, 431.6677, 139140.8985);
}

TEST(ImportIor, RealSingleTaskAndSummaryFile) {
  const DataPathImport one = parseIorJson(readFixture("ior-4.1-real-n1.json"), "n1");
  ASSERT_EQ(one.rows.size(), 2u);
  expectRow(one.rows[0], "write", 1, 1, 2);
  const DataPathImport file = parseIorJson(readFixture("ior-4.1-real-summaryfile.json"), "file");
  ASSERT_EQ(file.rows.size(), 2u);
  expectRow(file.rows[1], "read", 2, 1, 2);
  EXPECT_EQ(file.began, "Mon Nov 30 15:54:31 2026");
}

// IOR's tasksPerNode is the job's figure on node 0 (2 here) even for the 1-task test: the node count must
// come from the test's Parameters, not from numTasks / tasksPerNode.
TEST(ImportIor, RealTwoTestsWithDifferentTaskCounts) {
  const DataPathImport imported = parseIorJson(readFixture("ior-4.1-real-two-tests.json"), "two");
  ASSERT_EQ(imported.rows.size(), 4u);
  expectRow(imported.rows[0], "write", 1, 1, 2);
  expectBandwidth(imported.rows[0], 4462.0255, 2330.1689, 3396.0972, 1065.9283, 54337.5554);
  expectRow(imported.rows[1], "read", 1, 1, 2);
  expectBandwidth(imported.rows[1], 8405.4188, 6898.5263, 7651.9726, 753.4463, 122431.5612);
  expectRow(imported.rows[2], "write", 2, 1, 2);
  expectBandwidth(imported.rows[2], 1357.3250, 761.1131, 1059.2191, 298.1060, 4236.8762);
  expectRow(imported.rows[3], "read", 2, 1, 2);
  expectBandwidth(imported.rows[3], 7926.8679, 7760.0444, 7843.4562, 83.4118, 31373.8247);
  EXPECT_EQ(imported.rows[0].transfer_bytes, 65536u);
  EXPECT_EQ(imported.rows[0].block_bytes, 1048576u);
  EXPECT_EQ(imported.rows[2].transfer_bytes, 262144u);
  EXPECT_EQ(imported.rows[2].block_bytes, 4194304u);
}

TEST(ImportIor, StdoutCaptureWithTextAroundTheObject) {
  const DataPathImport imported = parseIorJson(readFixture("ior-3.3-stdout-two-tests.json"), "stdout");
  EXPECT_EQ(imported.tool_version, "3.3.0");
  EXPECT_EQ(imported.began, "Tue Jun  2 18:03:10 2020");
  EXPECT_EQ(imported.command_line,
            "/opt/ior/bin/ior -a POSIX -w -r -i 3 -F -t 1m -b 4g -e -C -O summaryFormat=JSON -o "
            "/lustre/scratch/ior/testfile");
  ASSERT_EQ(imported.rows.size(), 4u);
  expectRow(imported.rows[0], "write", 16, 2, 3);
  expectBandwidth(imported.rows[0], 5201.0009, 4987.1122, 5103.8566, 88.4121, 5103.8566);
  expectRow(imported.rows[1], "read", 16, 2, 3);
  expectBandwidth(imported.rows[1], 7101.7788, 6890.5566, 7001.5566, 86.5950, 7001.5566);
  expectRow(imported.rows[2], "write", 32, 4, 3);
  expectBandwidth(imported.rows[2], 9833.4150, 9512.8830, 9696.8333, 135.1172, 9696.8333);
  expectRow(imported.rows[3], "read", 32, 4, 3);
  expectBandwidth(imported.rows[3], 13301.2277, 12877.0904, 13066.3274, 176.2143, 13066.3274);
  EXPECT_EQ(imported.rows[3].transfer_bytes, 1048576u);
  EXPECT_EQ(imported.rows[3].block_bytes, 4294967296u);
}

// A minimal IOR document around one summary entry (its "operation" key on line 4).
std::string iorWith(const std::string& entry_fields) {
  return "{\n\"Began\": \"Mon Jan  1 00:00:00 2024\", \n\"summary\": [\n    {\n    \"operation\": \"write\", "
         "\n" +
         entry_fields + "\n  }\n]\n}\n";
}
const std::string kGoodFields =
    "\"numTasks\": 4, \n\"repetitions\": 1, \n\"bwMaxMIB\": 10.5000, \n\"bwMinMIB\": 10.5000, \n"
    "\"bwMeanMIB\": 10.5000, \n\"bwStdMIB\": 0.0000";

TEST(ImportIor, MinimalDocumentAndNodesFromTasksPerNode) {
  const DataPathImport imported = parseIorJson(iorWith(kGoodFields + ", \n\"tasksPerNode\": 2"), "min");
  ASSERT_EQ(imported.rows.size(), 1u);
  expectRow(imported.rows[0], "write", 4, 2, 1);
  expectBandwidth(imported.rows[0], 10.5, 10.5, 10.5, 0.0, 0.0);
  EXPECT_EQ(imported.tool_version, "");  // IOR 3.2 wrote no Version
  EXPECT_EQ(parseIorJson(iorWith(kGoodFields + ", \n\"tasksPerNode\": 3"), "min").rows[0].nodes, 0u);
}

TEST(ImportIor, EmptyAndBinaryInput) {
  EXPECT_STREQ(iorError("").what(),
               "in.json:1: empty input, expected IOR JSON output (ior -O summaryFormat=JSON)");
  EXPECT_EQ(iorError(" \n\n").line(), 1u);
  EXPECT_EQ(iorError(std::string("{\n\"a\"\n\0\x01", 9)).line(), 3u);
}

TEST(ImportIor, TextThatIsNotJson) {
  const ImportError e = iorError("IOR-3.3.0: MPI Coordinated Test of Parallel I/O\nBegan: today\n");
  EXPECT_EQ(e.line(), 1u);
  EXPECT_NE(std::string(e.what()).find("no JSON object found"), std::string::npos) << e.what();
}

TEST(ImportIor, InvalidJsonNamesTheLine) {
  const ImportError e = iorError("banner\n{\n  \"a\": 1,\n  \"b\": ,\n  \"c\": 2\n}\n");
  EXPECT_EQ(e.line(), 4u) << e.what();
  EXPECT_NE(std::string(e.what()).find("in.json:4: invalid JSON at column"), std::string::npos) << e.what();
}

TEST(ImportIor, TruncatedFileNamesItsLastLine) {
  const std::string full = readFixture("ior-4.1-real-n2.json");
  const std::string cut = full.substr(0, full.find("\"bwMeanMIB\""));  // inside the summary, no closing brace
  const ImportError e = iorError(cut);
  EXPECT_EQ(e.line(), static_cast<std::size_t>(std::count(cut.begin(), cut.end(), '\n')) + 1) << e.what();
}

TEST(ImportIor, ValidJsonThatIsNotIor) {
  EXPECT_NE(std::string(iorError("{\n\"a\": 1\n}\n").what()).find("without a \"summary\" array"),
            std::string::npos);
  EXPECT_NE(std::string(iorError("{\n\"summary\": 5\n}\n").what()).find("\"summary\" array"),
            std::string::npos);
  const ImportError array = iorError("[1, 2]\n");
  EXPECT_NE(std::string(array.what()).find("no JSON object found"), std::string::npos) << array.what();
  EXPECT_EQ(iorError("{\n\"tests\": [],\n\"summary\": []\n}\n").line(), 3u);
}

TEST(ImportIor, BadSummaryEntriesNameTheEntryLine) {
  const ImportError inf =
      iorError(iorWith("\"numTasks\": 4, \n\"repetitions\": 1, \n\"bwMaxMIB\": \"inf\", \n\"bwMinMIB\": 1.0, "
                       "\n\"bwMeanMIB\": 1.0, "
                       "\n\"bwStdMIB\": 0.0"));
  EXPECT_STREQ(inf.what(), "in.json:5: summary entry 1: 'bwMaxMIB' is '\"inf\"', expected a finite number");
  const ImportError negative =
      iorError(iorWith("\"numTasks\": 4, \n\"repetitions\": 1, \n\"bwMaxMIB\": 1.0, \n\"bwMinMIB\": -1.0, "
                       "\n\"bwMeanMIB\": 1.0, "
                       "\n\"bwStdMIB\": 0.0"));
  EXPECT_EQ(negative.line(), 5u);
  EXPECT_NE(std::string(negative.what()).find("'bwMinMIB' is -1"), std::string::npos) << negative.what();
  const ImportError missing = iorError(iorWith("\"numTasks\": 4, \n\"repetitions\": 1"));
  EXPECT_STREQ(missing.what(), "in.json:5: summary entry 1: no 'bwMaxMIB', expected a number");
  const ImportError zero_tasks =
      iorError(iorWith("\"numTasks\": 0, \n\"repetitions\": 1, \n\"bwMaxMIB\": 1.0, \n\"bwMinMIB\": 1.0, "
                       "\n\"bwMeanMIB\": 1.0, "
                       "\n\"bwStdMIB\": 0.0"));
  EXPECT_STREQ(zero_tasks.what(), "in.json:5: summary entry 1: 'numTasks' is 0, expected at least 1");
  const ImportError huge_tasks =
      iorError(iorWith("\"numTasks\": 99999999999, \n\"repetitions\": 1, \n\"bwMaxMIB\": 1.0, "
                       "\n\"bwMinMIB\": 1.0, \n\"bwMeanMIB\": "
                       "1.0, \n\"bwStdMIB\": 0.0"));
  EXPECT_STREQ(
      huge_tasks.what(),
      "in.json:5: summary entry 1: 'numTasks' is '99999999999', expected an integer from 0 to 4294967295");
}

TEST(ImportIor, SecondEntryAndUnknownOperation) {
  const std::string text = "{\n\"summary\": [\n  {\n  \"operation\": \"write\", \n" + kGoodFields +
                           "\n  }\n, \n  {\n  \"operation\": \"remove\", \n" + kGoodFields + "\n  }\n]\n}\n";
  EXPECT_STREQ(iorError(text).what(),
               "in.json:14: summary entry 2: operation 'remove', expected \"write\" or \"read\"");
  const ImportError not_object = iorError("{\n\"summary\": [\n  5\n]\n}\n");
  EXPECT_NE(std::string(not_object.what()).find("summary entry 1 is a JSON number"), std::string::npos);
}

TEST(ImportIor, NumberOverflowNamesTheLine) {
  const ImportError e =
      iorError(iorWith("\"numTasks\": 4, \n\"repetitions\": 1, \n\"bwMaxMIB\": 1e999, \n\"bwMinMIB\": 1.0, "
                       "\n\"bwMeanMIB\": 1.0, "
                       "\n\"bwStdMIB\": 0.0"));
  EXPECT_EQ(e.line(), 8u) << e.what();
  EXPECT_NE(std::string(e.what()).find("number overflow"), std::string::npos) << e.what();
}

TEST(ImportDetect, EveryFixtureIsRecognised) {
  for (const auto& entry : std::filesystem::directory_iterator(kFixtures)) {
    const std::string name = entry.path().filename().string();
    // .csv: mdtest's --saveRankPerformanceDetails file, a fixture of the writer, not an import input.
    if (name == "README.md" || name.ends_with(".script") || name.ends_with(".csv") || entry.is_directory()) {
      continue;
    }
    const std::string expected = name.starts_with("md-workbench-") ? "md-workbench"
                                 : name.find("-real-text-") != std::string::npos
                                     ? "ior-text"
                                     : name.substr(0, name.find('-'));
    EXPECT_EQ(detectImportFormat(readFixture(name)), expected) << name;
  }
  EXPECT_EQ(detectImportFormat(""), "");
  EXPECT_EQ(detectImportFormat("{\n\"a\": 1\n}\n"), "");
  EXPECT_EQ(detectImportFormat("hello world\n"), "");
  EXPECT_EQ(detectImportFormat(std::string("mdtest-\0 was launched with ", 27)), "");
}

// The sniffer names only formats of the table, and every format of the table has exactly one parser: the
// importer and the fuzz target, which go by the table, then reach each parser.
TEST(ImportDetect, EveryFormatIsATableRowWithOneParser) {
  std::set<std::string_view> names;
  for (const TextFormat& format : textFormats()) {
    EXPECT_TRUE(names.insert(format.name).second) << format.name;
    EXPECT_NE(format.datapath == nullptr, format.metadata == nullptr) << format.name;
    EXPECT_EQ(findTextFormat(format.name), &format) << format.name;
  }
  EXPECT_EQ(findTextFormat("io500"), nullptr);
  for (const auto& entry : std::filesystem::directory_iterator(kFixtures)) {
    if (!entry.is_regular_file()) continue;
    const std::string detected = detectImportFormat(readFixture(entry.path().filename().string()));
    EXPECT_TRUE(detected.empty() || names.contains(detected)) << entry.path() << ": " << detected;
  }
}

// Feeds text to every parser and the sniffer: each returns or throws ImportError; any other exception (or
// a crash) fails the test.
void expectResultsOrImportErrors(std::string_view text, const std::string& what) {
  std::vector<std::function<void(std::string_view)>> parsers = {
      [](std::string_view t) { detectImportFormat(t); }};
  for (const TextFormat& format : textFormats()) {
    parsers.emplace_back([&format](std::string_view t) {
      if (format.datapath != nullptr) format.datapath(t, "x");
      if (format.metadata != nullptr) format.metadata(t, "x");
    });
  }
  for (const auto& parse : parsers) {
    try {
      parse(text);
    } catch (const ImportError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << what << ": " << e.what();
    }
  }
}

// Every fixture cut at every 37th byte.
TEST(ImportRobustness, TruncatedFixturesGiveResultsOrImportErrors) {
  std::size_t cuts = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kFixtures)) {
    if (entry.is_directory()) continue;
    const std::string text = readFixture(entry.path().filename().string());
    for (std::size_t cut = 0; cut < text.size() + 37; cut += 37) {
      const std::size_t length = std::min(cut, text.size());
      expectResultsOrImportErrors(std::string_view(text).substr(0, length),
                                  entry.path().filename().string() + " cut at " + std::to_string(length));
      ++cuts;
    }
  }
  EXPECT_GT(cuts, 1000u);
}

// Every fixture with one byte replaced, at every 53rd offset, by bytes that break numbers, structure and
// lines: the same contract as for cut files.
TEST(ImportRobustness, CorruptedFixturesGiveResultsOrImportErrors) {
  constexpr std::string_view kReplacements("\0-9}]{\n:xe.\xff", 13);
  std::size_t corruptions = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kFixtures)) {
    if (entry.is_directory()) continue;
    const std::string text = readFixture(entry.path().filename().string());
    for (std::size_t at = 0; at < text.size(); at += 53) {
      std::string corrupt = text;
      corrupt[at] = kReplacements[(at / 53) % kReplacements.size()];
      expectResultsOrImportErrors(corrupt,
                                  entry.path().filename().string() + " corrupted at " + std::to_string(at));
      ++corruptions;
    }
  }
  EXPECT_GT(corruptions, 500u);
}

}  // namespace
}  // namespace mdbench
