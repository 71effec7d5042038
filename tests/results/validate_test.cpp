// The results-file validator on whole files: files written by Hdf5Sink for a hand-made 3-rank,
// 2-iteration run pass (see validate_fixture.hpp); files that are not results files at all are refused;
// the compiled-in schema names the program's phases. Structural damage: validate_structure_test.cpp;
// numbers that do not add up: validate_consistency_test.cpp.
#include "mdbench/results/validate.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "mdbench/config/backends.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/results/results_file.hpp"
#include "results_config.hpp"
#include "results_fixture.hpp"  // downgrade()
#include "validate_fixture.hpp"

namespace mdbench::validate_test {
namespace {

// ---- Valid files ----

TEST_F(Validate, FailedRunWithAFailedOpPasses) {
  writeRun(file_, Outcome::kFailed);
  const ValidationResult result = validateResultsFile(file_);
  EXPECT_TRUE(result.ok) << result.first_problem;
  EXPECT_EQ(result.first_problem, "");
}

TEST_F(Validate, CompleteRunPasses) {
  writeRun(file_, Outcome::kComplete);
  const ValidationResult result = validateResultsFile(file_);
  EXPECT_TRUE(result.ok) << result.first_problem;
  EXPECT_TRUE(result.notes.empty()) << result.notes.front();
}

TEST_F(Validate, RunningRunPassesWithANote) {
  writeRun(file_, Outcome::kRunning);
  const ValidationResult result = validateResultsFile(file_);
  EXPECT_TRUE(result.ok) << result.first_problem;
  ASSERT_EQ(result.notes.size(), 1u);
  EXPECT_NE(result.notes[0].find("status running"), std::string::npos) << result.notes[0];
}

// A stop request cut a phase short and the job was killed before it finished (Hydra SIGKILLs the ranks):
// the writer marked the run interrupted with that phase, so the file is valid, --append may add to it, and
// the stopped phase's rows say what each rank did.
TEST_F(Validate, StoppedThenKilledRunPassesAsInterrupted) {
  writeRun(file_, Outcome::kStopped);
  const ValidationResult result = validateResultsFile(file_);
  EXPECT_TRUE(result.ok) << result.first_problem;
  const StoredRun run = readResultsFile(file_).runs.at(0);
  EXPECT_EQ(run.status, "interrupted");
  EXPECT_EQ(run.exit_status, -1);
  ASSERT_EQ(result.notes.size(), 1u);
  EXPECT_NE(result.notes[0].find("status interrupted and no exit status"), std::string::npos)
      << result.notes[0];
  EXPECT_EQ(readValidResultsFile(file_).runs.at(0).phases.back().ranks.at(0).planned, 1u);
}

// The same file with the status a writer that did not mark the stop left: a short phase in a run that does
// not say it was stopped is refused, and so by every tool that reads results.
TEST_F(Validate, ShortPhaseWithoutAStopIsRefusedByEveryReader) {
  writeRun(file_, Outcome::kStopped);
  setString(file_, kRun, "status", "running");
  EXPECT_TRUE(failsAt(kIter0 + "/file-stat/ranks", "row 0: planned: expected"));
  try {
    readValidResultsFile(file_);
    ADD_FAILURE() << "readValidResultsFile read a file validate rejects";
  } catch (const ResultsFileError& e) {
    EXPECT_NE(std::string(e.what()).find("`mdbench validate` rejects the file"), std::string::npos)
        << e.what();
  }
}

// Every stat fails: the phase has no successful op, so no interval ([ranks][0]), and first-done counts none.
TEST_F(Validate, PhaseWithoutSuccessfulOpsPasses) {
  writeRun(file_, Outcome::kStatsFail);
  const ValidationResult result = validateResultsFile(file_);
  EXPECT_TRUE(result.ok) << result.first_problem;
  EXPECT_EQ(shapeOf(file_, kIter0 + "/file-stat/ops_per_interval"), (std::vector<hsize_t>{3, 0}));
  EXPECT_EQ(shapeOf(file_, kIter0 + "/file-stat/ops_per_interval_total"), (std::vector<hsize_t>{0}));
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kIter0 + "/file-stat", "first_done_ops"), 0u);
  EXPECT_GT(getNumber<double>(file_, kIter0 + "/file-stat", "first_done_time_s"), 0.0);
}

// Files of versions 3 and 4 have no throughput over time, and need none.
TEST_F(Validate, EarlierVersionsWithoutSeriesPass) {
  for (const std::uint32_t version : {3u, 4u}) {
    writeRun(file_, Outcome::kFailed, OutputMode::kForce);
    results_test::downgrade(file_, version);
    const ValidationResult result = validateResultsFile(file_);
    EXPECT_TRUE(result.ok) << result.first_problem;
    EXPECT_EQ(result.schema_version, version);
    EXPECT_TRUE(result.notes.empty()) << result.notes.front();
  }
  // The same file claiming version 5 lacks what version 5 requires.
  setNumber<std::uint64_t>(file_, "/", "schema_version", kSchemaVersion);
  EXPECT_TRUE(failsAt(kConfig, "attribute series_interval_s missing"));
}

TEST_F(Validate, AppendedRunsPass) {
  writeRun(file_, Outcome::kComplete);
  writeRun(file_, Outcome::kFailed, OutputMode::kAppend);
  const ValidationResult result = validateResultsFile(file_);
  EXPECT_TRUE(result.ok) << result.first_problem;
}

TEST_F(Validate, ObjectsNotInTheSchemaAreNotedNotRefused) {
  valid();
  replaceByDataset(file_, kRun + "/extra", H5T_NATIVE_INT, 3);
  setString(file_, kRun, "comment", "newer minor addition");
  const ValidationResult result = validateResultsFile(file_);
  EXPECT_TRUE(result.ok) << result.first_problem;
  ASSERT_EQ(result.notes.size(), 2u);
  EXPECT_EQ(result.notes[0], kRun + ": attribute comment is not in the schema");
  EXPECT_EQ(result.notes[1], kRun + "/extra: not in the schema");
}

// ---- Not a results file ----

TEST_F(Validate, NonexistentFile) {
  file_ = (dir_ / "missing.h5").string();
  EXPECT_TRUE(failsAt("", "no such file"));
}

TEST_F(Validate, TextFile) {
  std::ofstream(file_) << "ops/s 1234\n";
  EXPECT_TRUE(failsAt("", "not an HDF5 file"));
}

TEST_F(Validate, TruncatedFile) {
  valid();
  fs::resize_file(file_, 4096);
  EXPECT_TRUE(failsAt("", "(damaged, or still open for writing?)"));
}

TEST_F(Validate, FileWithNoRun) {
  valid();
  {
    const Id file = openFile(file_);
    ASSERT_GE(H5Ldelete(file, kRun.c_str(), H5P_DEFAULT), 0);
  }
  EXPECT_TRUE(failsAt("/runs", "no group matching \"run-*\""));
}

TEST_F(Validate, Directory) {
  file_ = dir_.string();
  EXPECT_TRUE(failsAt("", "not a regular file"));
}

TEST_F(Validate, Hdf5FileWithoutSchemaAttribute) {
  H5Fclose(H5Fcreate(file_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  EXPECT_TRUE(failsAt("/", "no string attribute schema"));
}

TEST_F(Validate, WrongSchemaName) {
  setString(valid(), "/", "schema", "ior-results");
  EXPECT_TRUE(failsAt("/", "expected \"mdbench-results\", found \"ior-results\""));
}

TEST_F(Validate, UnknownSchemaVersion) {
  setNumber<std::uint64_t>(valid(), "/", "schema_version", 1);
  EXPECT_TRUE(
      failsAt("/", "knows versions 3 to 10, found 1"));  // version 1 files: mdbench before readdir and rename
}

// ---- The schema itself ----

TEST(Schema, CompiledInSchemaParsesAndNamesItself) {
  const nlohmann::json schema = nlohmann::json::parse(schemaJson());
  EXPECT_EQ(schema.at("schema"), std::string(kSchemaName));
  EXPECT_EQ(schema.at("version"), kSchemaVersion);
  EXPECT_GE(schema.at("objects").size(), 10u);
}

// Every phase name the program has is allowed where the schema names phases, and no other.
TEST(Schema, PhaseNamesAreThePrograms) {
  const nlohmann::json schema = nlohmann::json::parse(schemaJson());
  std::vector<std::string> names;
  for (const Phase phase : kSelectablePhases) names.emplace_back(phaseName(phase));
  int lists = 0;
  for (const nlohmann::json& object : schema.at("objects")) {
    // The steady phases (precreate, mix, cleanup) name themselves with a fixed value instead.
    if (object.at("path").get<std::string>().find("/steady/") != std::string::npos) continue;
    for (const nlohmann::json& attribute : object.value("attributes", nlohmann::json::array())) {
      if (attribute.at("name") != "phase") continue;
      EXPECT_EQ(attribute.at("one_of").get<std::vector<std::string>>(), names) << object.at("path");
      ++lists;
    }
  }
  EXPECT_EQ(lists, 2);  // the phase groups and the summary groups
}

// The backend rows are the one list (issue 31): the schema's `api` values are their names, and each
// backend's options are the config group's optional attributes.
TEST(Schema, ApiValuesAndBackendOptionsAreTheRows) {
  const nlohmann::json schema = nlohmann::json::parse(schemaJson());
  std::vector<std::string> names;
  for (const BackendRow& row : kBackendRows) names.emplace_back(row.name);
  std::vector<std::string> config_optional;
  int lists = 0;
  for (const nlohmann::json& object : schema.at("objects")) {
    for (const nlohmann::json& attribute : object.value("attributes", nlohmann::json::array())) {
      if (attribute.at("name") == "api") {
        EXPECT_EQ(attribute.at("one_of").get<std::vector<std::string>>(), names) << object.at("path");
        ++lists;
      }
      if (object.at("path") == "/runs/run-*/config" && attribute.value("optional", false)) {
        config_optional.push_back(attribute.at("name").get<std::string>());
      }
    }
  }
  EXPECT_EQ(lists, 1);
  std::vector<std::string> options;
  for (const BackendRow& row : kBackendRows) {
    Config config;
    config.api = row.api;
    for (const BackendOptionValue& option : backendOptionValues(config)) options.push_back(option.name);
  }
  EXPECT_EQ(config_optional, options);
}

// The config group is one table of rows (issue 33): the schema's non-optional config attributes are its
// rows, in order, with each row's type and the version that added it.
TEST(Schema, ConfigGroupIsTheRows) {
  const nlohmann::json schema = nlohmann::json::parse(schemaJson());
  std::vector<std::string> listed;
  for (const nlohmann::json& object : schema.at("objects")) {
    if (object.at("path") != "/runs/run-*/config") continue;
    for (const nlohmann::json& attribute : object.at("attributes")) {
      if (attribute.value("optional", false)) continue;
      listed.push_back(fmt::format("{} {} {}", attribute.at("name").get<std::string>(),
                                   attribute.at("type").get<std::string>(), attribute.value("since", 1)));
    }
  }
  std::vector<std::string> rows;
  for (const results::ConfigAttribute& row : results::configAttributes()) {
    rows.push_back(fmt::format("{} {} {}", row.name, results::configTypeName(row), row.since));
  }
  EXPECT_EQ(rows, listed);
  EXPECT_GT(rows.size(), 40U);
  // A row added after mdtest's options (version 6) says what an older file implies, so that the export
  // (which knows a run's parts up to version 6) never shows a default the file did not hold.
  for (const results::ConfigAttribute& row : results::configAttributes()) {
    if (row.since > kMdtestSchemaVersion) {
      EXPECT_NE(row.absent, nullptr) << row.name;
    }
  }
}

// --steady: what the sink wrote, read back through the HDF5 C API and through the reader.
TEST_F(Validate, SteadyRunReadsBack) {
  validSteady();
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kSteady0, "rounds"), kSteadyRounds);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kConfig, "steady_rounds"), kSteadyRounds);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kConfig, "datasets"), kSteadyDatasets);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kMix0, "stat_ok"), 3 * kSteadyRounds * kSteadyDatasets);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kMix1, "stat_failed"), 1u);
  EXPECT_EQ(fieldValue<std::uint64_t>(file_, kMix0 + "/ranks", 2, "read_ok"),
            kSteadyRounds * kSteadyDatasets);
  EXPECT_EQ(fieldValue<std::uint64_t>(file_, kPrecreate0 + "/ranks", 1, "mkdir_ok"), kSteadyDatasets);
  EXPECT_EQ(shapeOf(file_, kCleanup0 + "/latency_rmdir"), std::vector<hsize_t>{LatencyHistogram::kBuckets});

  const StoredResults results = readResultsFile(file_);
  ASSERT_EQ(results.runs.size(), 1u);
  const StoredRun& run = results.runs[0];
  EXPECT_EQ(run.config.steady_rounds, kSteadyRounds);
  EXPECT_EQ(run.config.datasets, kSteadyDatasets);
  // Both iterations' steady phases, in order, as the run's phases; the mix's items are its rounds.
  ASSERT_EQ(run.phases.size(), 2 * kSteadyPhaseCount);
  for (std::size_t i = 0; i < run.phases.size(); ++i) {
    const StoredPhase& p = run.phases[i];
    EXPECT_EQ(p.iteration, i / kSteadyPhaseCount);
    EXPECT_EQ(p.phase, kSteadyPhases[i % kSteadyPhaseCount]);
    EXPECT_EQ(p.order, i % kSteadyPhaseCount);
    EXPECT_EQ(p.items, p.phase == Phase::kSteadyMix ? kSteadyRounds : 0u);
  }
  const SteadyResult written = steadyResult(1, 3, 2.0, true);  // iteration 1, as writeSteadyRun made it
  const std::span<const StoredPhase> it(run.phases.begin() + kSteadyPhaseCount, kSteadyPhaseCount);
  EXPECT_EQ(it[0].group, kSteady1 + "/precreate");
  for (std::size_t i = 0; i < kSteadyPhaseCount; ++i) {
    const StoredPhase& p = it[i];
    const PhaseResult& w = written.phases[i];
    EXPECT_EQ(p.phase, w.phase);
    ASSERT_EQ(p.ranks.size(), w.ranks.size());
    for (std::size_t r = 0; r < p.ranks.size(); ++r) {
      EXPECT_EQ(fieldValue<std::uint64_t>(file_, p.group + "/ranks", r, "rank"), r);
      EXPECT_EQ(p.ranks[r].t_local_end, w.ranks[r].t_local_end);
      EXPECT_EQ(p.ranks[r].rounds, w.ranks[r].rounds);
      for (std::size_t op = 0; op < kOpKindCount; ++op) {
        EXPECT_EQ(p.ranks[r].kinds[op].ok, w.ranks[r].kinds[op].ok);
        EXPECT_EQ(p.ranks[r].kinds[op].failed, w.ranks[r].kinds[op].failed);
      }
    }
    const SteadyPhaseSummary want = summarizeSteadyPhase(w);
    EXPECT_EQ(p.summary.aggregate.ok, want.aggregate.ok);
    EXPECT_EQ(p.summary.aggregate.time_s, want.aggregate.time_s);
    EXPECT_EQ(p.summary.aggregate.balance, want.aggregate.balance);
    for (const OpKind op : opKindsOf(p.phase)) {
      const std::size_t o = opKindIndex(op);
      EXPECT_TRUE(std::ranges::equal(p.kind_latency[o].counts(), w.kind_latency[o].counts()))
          << opKindName(op);
      EXPECT_EQ(p.summary.ops[o].ops_per_s, want.ops[o].ops_per_s);
      EXPECT_EQ(p.summary.ops[o].latency.p99_ns, want.ops[o].latency.p99_ns);
    }
  }
  EXPECT_EQ(it[1].summary.rounds_per_s, summarizeSteadyPhase(written.phases[1]).rounds_per_s);
  // Schema version 10: the series, the stall and the faults, as written.
  for (std::size_t i = 0; i < kSteadyPhaseCount; ++i) {
    const StoredPhase& p = it[i];
    const PhaseResult& w = written.phases[i];
    EXPECT_TRUE(p.has_series);
    EXPECT_EQ(p.series.intervals, w.series.intervals);
    EXPECT_EQ(p.series.interval_s, w.series.interval_s);
    EXPECT_EQ(p.series.per_rank, w.series.per_rank);
    EXPECT_EQ(p.series.total, w.series.total);
    EXPECT_TRUE(p.stall.measured) << phaseName(p.phase);  // stored in every phase from version 10
    EXPECT_EQ(p.stall.stall_s, w.stall.stall_s);
    EXPECT_EQ(p.faults.size(), w.faults.size());
  }
  ASSERT_EQ(it[1].faults.size(), 1u);
  EXPECT_EQ(it[1].faults[0].command, "true");
  EXPECT_TRUE(it[1].faults[0].injected);
  ASSERT_EQ(it[1].errors.size(), 1u);
  const StoredError& e = it[1].errors[0];
  EXPECT_EQ(e.rank, 1u);
  EXPECT_EQ(e.kind, OpKind::kStat);
  EXPECT_EQ(e.errno_name, "ENOENT");
  EXPECT_EQ(e.path, "/scratch/mdbench.test/mdbench.iter.1/steady.mdbench.0.1/obj.mdbench.0.1.0");
}

}  // namespace
}  // namespace mdbench::validate_test
