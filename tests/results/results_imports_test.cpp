// Imported results in a results file (schema version 4): written, appended, read back exactly, validated;
// existing files are never replaced, and files that are not ours are never opened for writing.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "mdbench/results/export.hpp"
#include "mdbench/results/validate.hpp"
#include "results_fixture.hpp"

namespace mdbench::results_test {
namespace {

std::string bytesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

DataPathImport iorImport() {
  DataPathImport imp;
  imp.tool = "ior";
  imp.tool_version = "4.0.0";
  imp.command_line = "ior -w -r -i 2 -O summaryFormat=JSON";
  imp.began = "Mon Nov 30 12:00:00 2026";
  imp.source = "ior-2.json";
  imp.rows.push_back({"write", 2, 1, 2, 912.5, 700.25, 806.375, 150.0625, 14600.0, 65536, 1048576});
  imp.rows.push_back({"read", 2, 1, 2, 3000.0, 2999.5, 2999.75, 0.353553390593, 48000.0, 65536, 1048576});
  return imp;
}

MetadataImport mdtestImport() {
  MetadataImport imp;
  imp.tool = "mdtest";
  imp.tool_version = "4.0.0";
  imp.command_line = "mdtest -n 100 -i 2";
  imp.source = "mdtest.log";
  imp.rows.push_back({"file-create", "File creation", 4, 1, 2, 5000.5, 4000.25, 4500.375, 707.5, 0.0889});
  imp.rows.push_back({"", "Unknown op", 4, 1, 2, 1.0, 1.0, 1.0, 0.0, 0.0});
  return imp;
}

TEST(ResultsImports, WrittenAppendedAndReadBackExactly) {
  const TempDir dir;
  const std::string path = dir.file("imports.h5");
  const ImportRecord record{"2026-11-30T12:00:00Z", "0.1.0"};
  EXPECT_EQ(writeImports(path, OutputMode::kCreate, {iorImport()}, {}, record),
            (std::vector<std::string>{"/datapath/import-0000"}));
  EXPECT_EQ(writeImports(path, OutputMode::kAppend, {iorImport()}, {mdtestImport()}, record),
            (std::vector<std::string>{"/datapath/import-0001", "/metadata-imports/import-0000"}));

  const StoredResults stored = readResultsFile(path);
  EXPECT_EQ(stored.schema_version, kSchemaVersion);
  EXPECT_TRUE(stored.runs.empty());
  ASSERT_EQ(stored.datapath.size(), 2u);
  const DataPathImport& ior = stored.datapath[1];
  EXPECT_EQ(ior.group, "/datapath/import-0001");
  EXPECT_EQ(ior.tool, "ior");
  EXPECT_EQ(ior.tool_version, "4.0.0");
  EXPECT_EQ(ior.command_line, "ior -w -r -i 2 -O summaryFormat=JSON");
  EXPECT_EQ(ior.began, "Mon Nov 30 12:00:00 2026");
  EXPECT_EQ(ior.source, "ior-2.json");
  EXPECT_EQ(ior.imported_utc, "2026-11-30T12:00:00Z");
  EXPECT_EQ(ior.mdbench_version, "0.1.0");
  ASSERT_EQ(ior.rows.size(), 2u);
  const DataPathRow& w = ior.rows[0];
  EXPECT_EQ(w.operation, "write");
  EXPECT_EQ(w.clients, 2u);
  EXPECT_EQ(w.nodes, 1u);
  EXPECT_EQ(w.iterations, 2u);
  EXPECT_EQ(w.mib_per_s_max, 912.5);
  EXPECT_EQ(w.mib_per_s_min, 700.25);
  EXPECT_EQ(w.mib_per_s_mean, 806.375);
  EXPECT_EQ(w.mib_per_s_stddev, 150.0625);
  EXPECT_EQ(w.ops_per_s_mean, 14600.0);
  EXPECT_EQ(w.transfer_bytes, 65536u);
  EXPECT_EQ(w.block_bytes, 1048576u);
  EXPECT_EQ(ior.rows[1].mib_per_s_stddev, 0.353553390593);

  ASSERT_EQ(stored.metadata_imports.size(), 1u);
  const MetadataImport& md = stored.metadata_imports[0];
  EXPECT_EQ(md.group, "/metadata-imports/import-0000");
  EXPECT_EQ(md.began, "");
  ASSERT_EQ(md.rows.size(), 2u);
  EXPECT_EQ(md.rows[0].phase, "file-create");
  EXPECT_EQ(md.rows[0].operation, "File creation");
  EXPECT_EQ(md.rows[0].ranks, 4u);
  EXPECT_EQ(md.rows[0].ops_per_s_mean, 4500.375);
  EXPECT_EQ(md.rows[0].time_s_mean, 0.0889);
  EXPECT_EQ(md.rows[1].phase, "");

  const ValidationResult v = validateResultsFile(path);
  EXPECT_TRUE(v.ok) << v.first_problem;
  EXPECT_EQ(v.schema_version, kSchemaVersion);
}

// --showRankStatistics columns and md-workbench latencies: optional tables, read back onto their rows.
TEST(ResultsImports, RankStatisticsAndLatencyReadBack) {
  const TempDir dir;
  const std::string path = dir.file("details.h5");
  MetadataImport md = mdtestImport();
  md.rows[0].has_rank_statistics = true;
  md.rows[0].per_rank_ops_per_s_max = 2600.5;
  md.rows[0].per_rank_ops_per_s_min = 1900.25;
  md.rows[0].per_rank_ops_per_s_mean = 2250.125;
  md.rows[1].has_latency = true;
  md.rows[1].latency_p50_ns = 9059.9;
  md.rows[1].latency_p90_ns = 11921.0;
  md.rows[1].latency_p99_ns = 66042.0;
  md.rows[1].latency_max_ns = 66042.5;
  writeImports(path, OutputMode::kCreate, {}, {md, mdtestImport()}, {"2026-11-30T12:00:00Z", "0.1.0"});
  const StoredResults stored = readResultsFile(path);
  ASSERT_EQ(stored.metadata_imports.size(), 2u);
  const MetadataImportRow& a = stored.metadata_imports[0].rows[0];
  EXPECT_TRUE(a.has_rank_statistics);
  EXPECT_FALSE(a.has_latency);
  EXPECT_EQ(a.per_rank_ops_per_s_max, 2600.5);
  EXPECT_EQ(a.per_rank_ops_per_s_min, 1900.25);
  EXPECT_EQ(a.per_rank_ops_per_s_mean, 2250.125);
  const MetadataImportRow& b = stored.metadata_imports[0].rows[1];
  EXPECT_FALSE(b.has_rank_statistics);
  EXPECT_TRUE(b.has_latency);
  EXPECT_EQ(b.latency_p50_ns, 9059.9);
  EXPECT_EQ(b.latency_p90_ns, 11921.0);
  EXPECT_EQ(b.latency_p99_ns, 66042.0);
  EXPECT_EQ(b.latency_max_ns, 66042.5);
  for (const MetadataImportRow& r : stored.metadata_imports[1].rows) {
    EXPECT_FALSE(r.has_rank_statistics || r.has_latency) << r.operation;
  }
  const ValidationResult v = validateResultsFile(path);
  EXPECT_TRUE(v.ok) << v.first_problem;
}

// An import-only file exports its rows, with empty fields where the tool printed nothing.
TEST(ResultsImports, CsvOfAnImportOnlyFile) {
  const TempDir dir;
  const std::string path = dir.file("csv.h5");
  MetadataImport md = mdtestImport();
  md.rows[0].has_rank_statistics = true;
  md.rows[0].per_rank_ops_per_s_max = 2600.5;
  md.rows[0].per_rank_ops_per_s_min = 1900.25;
  md.rows[0].per_rank_ops_per_s_mean = 2250.125;
  md.rows.push_back({"file-create", "File creation", 8, 0, 2, 9000.0, 8000.0, 8500.0, 707.0, 0.0});
  md.command_line = "mdtest -n 100, -i 2";
  writeImports(path, OutputMode::kCreate, {iorImport()}, {md}, {"2026-11-30T12:00:00Z", "0.1.0"});
  std::ostringstream out;
  exportCsv(readResultsFile(path), out);
  EXPECT_EQ(
      out.str(),
      "import,tool,kind,operation,phase,ranks,nodes,sweep_step,iterations,ops_per_s_max,ops_per_s_min,"
      "ops_per_s_mean,ops_per_s_stddev,time_s_mean,per_rank_ops_per_s_max,per_rank_ops_per_s_min,"
      "per_rank_ops_per_s_mean,mib_per_s_max,mib_per_s_min,mib_per_s_mean,mib_per_s_stddev,"
      "transfer_bytes,block_bytes,p50_ns,p90_ns,p99_ns,max_ns,source,command_line\n"
      "/datapath/import-0000,ior,datapath,write,,2,1,,2,,,14600,,,,,,912.5,700.25,806.375,150.0625,65536,"
      "1048576,,,,,ior-2.json,ior -w -r -i 2 -O summaryFormat=JSON\n"
      "/datapath/import-0000,ior,datapath,read,,2,1,,2,,,48000,,,,,,3000,2999.5,2999.75,0.353553390593,"
      "65536,1048576,,,,,ior-2.json,ior -w -r -i 2 -O summaryFormat=JSON\n"
      "/metadata-imports/import-0000,mdtest,metadata,File creation,file-create,4,1,1,2,5000.5,4000.25,"
      "4500.375,707.5,0.0889,2600.5,1900.25,2250.125,,,,,,,,,,,mdtest.log,\"mdtest -n 100, -i 2\"\n"
      "/metadata-imports/import-0000,mdtest,metadata,Unknown op,,4,1,1,2,1,1,1,0,,,,,,,,,,,,,,,mdtest.log,"
      "\"mdtest -n 100, -i 2\"\n"
      "/metadata-imports/import-0000,mdtest,metadata,File creation,file-create,8,,2,2,9000,8000,8500,707,,"
      ",,,,,,,,,,,,,mdtest.log,\"mdtest -n 100, -i 2\"\n");
}

TEST(ResultsImports, NeverReplacesOrWritesForeignFiles) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  const ImportRecord record{"2026-11-30T12:00:00Z", "0.1.0"};
  writeImports(path, OutputMode::kCreate, {iorImport()}, {}, record);
  const std::string before = bytesOf(path);
  EXPECT_EQ(errorOf([&] { writeImports(path, OutputMode::kCreate, {iorImport()}, {}, record); }),
            path + " exists: use --append to add the imports to it");
  EXPECT_EQ(errorOf([&] { writeImports(path, OutputMode::kForce, {iorImport()}, {}, record); }),
            path + ": imports never replace a file (no --force)");
  EXPECT_EQ(bytesOf(path), before);

  const std::string notes = dir.file("notes.txt");
  writeText(notes, "my notes\n");
  EXPECT_EQ(errorOf([&] { writeImports(notes, OutputMode::kAppend, {iorImport()}, {}, record); }),
            notes + " is not an mdbench results file (not an HDF5 file): cannot append to it");
  EXPECT_EQ(bytesOf(notes), "my notes\n");
}

TEST(ResultsImports, ValidatorRefusesImpossibleRows) {
  const TempDir dir;
  const ImportRecord record{"2026-11-30T12:00:00Z", "0.1.0"};
  DataPathImport bad = iorImport();
  bad.rows[1].mib_per_s_min = 4000.0;  // above the mean
  const std::string a = dir.file("a.h5");
  writeImports(a, OutputMode::kCreate, {bad}, {}, record);
  ValidationResult v = validateResultsFile(a);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.first_problem,
            a + ": /datapath/import-0000/results row 1: min 4000 <= mean 2999.75 <= max 3000 does not hold");

  MetadataImport md = mdtestImport();
  md.rows[0].phase = "file-creat";
  md.rows[1].ranks = 0;
  const std::string b = dir.file("b.h5");
  writeImports(b, OutputMode::kCreate, {}, {md}, record);
  v = validateResultsFile(b);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.first_problem,
            b + ": /metadata-imports/import-0000/results row 0: phase 'file-creat' is not a phase name");

  md = mdtestImport();
  md.rows[1].ranks = 0;
  const std::string c = dir.file("c.h5");
  writeImports(c, OutputMode::kCreate, {}, {md}, record);
  v = validateResultsFile(c);
  EXPECT_EQ(v.first_problem,
            c + ": /metadata-imports/import-0000/results row 1: a client or rank count of 0");
}

}  // namespace
}  // namespace mdbench::results_test
