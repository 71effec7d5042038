// The results file's record of mdtest's options (schema version 6): the run attributes path_style, api and
// barrier_timed and the config's collective_creates, sync_creates_only, phase commands and per-op prefix,
// read back and exported; files of version 5 read as the dirfd style on POSIX with barriers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "mdbench/results/export.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"
#include "results_fixture.hpp"

namespace mdbench::results_test {
namespace {

SyntheticRun mdtestRun() {
  SyntheticRun run;
  run.config.api = Api::kDummy;
  run.config.path_style = PathStyle::kDirfd;
  run.config.no_barriers = true;
  run.config.collective_creates = true;
  run.config.sync_creates_only = true;
  run.config.cmd_before_phase = "echo \"$MDBENCH_PHASE\", before";
  run.config.cmd_after_phase = "sync";
  run.config.per_op_csv_prefix = "/scratch/ops";
  run.plan = Plan(run.config, 3);
  run.result.config = run.config;
  return run;
}

// A file of version 5: this mdbench's without version 6's attributes.
void toVersion5(const std::string& path) {
  withRawFile(path, [&](hid_t file) {
    const hid_t run = H5Gopen2(file, "runs/run-0000", H5P_DEFAULT);
    for (const char* name : {"path_style", "api", "barrier_timed"})
      EXPECT_GE(H5Adelete(run, name), 0) << name;
    const hid_t config = H5Gopen2(run, "config", H5P_DEFAULT);
    for (const char* name : {"collective_creates", "sync_creates_only", "cmd_before_phase", "cmd_after_phase",
                             "per_op_csv_prefix"}) {
      EXPECT_GE(H5Adelete(config, name), 0) << name;
    }
    H5Gclose(config);
    H5Gclose(run);
    const std::uint32_t version = 5;
    const hid_t attribute = H5Aopen(file, "schema_version", H5P_DEFAULT);
    EXPECT_GE(H5Awrite(attribute, H5T_NATIVE_UINT32, &version), 0);
    H5Aclose(attribute);
  });
}

TEST(ResultsMdtest, OptionsRoundTrip) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  const SyntheticRun run = mdtestRun();
  writeRun(path, OutputMode::kCreate, run, 0);
  const StoredResults stored = readResultsFile(path);
  EXPECT_EQ(stored.schema_version, kSchemaVersion);  // version 6 or later
  ASSERT_EQ(stored.runs.size(), 1u);
  const StoredRun& r = stored.runs[0];
  EXPECT_TRUE(r.has_mdtest_options);
  EXPECT_EQ(r.config.api, Api::kDummy);
  EXPECT_EQ(r.config.path_style, PathStyle::kDirfd);
  EXPECT_TRUE(r.config.no_barriers);
  EXPECT_TRUE(r.config.collective_creates);
  EXPECT_TRUE(r.config.sync_creates_only);
  EXPECT_EQ(r.config.cmd_before_phase, run.config.cmd_before_phase);
  EXPECT_EQ(r.config.cmd_after_phase, "sync");
  EXPECT_EQ(r.config.per_op_csv_prefix, "/scratch/ops");

  std::ostringstream out;
  exportJson(stored, out);
  const nlohmann::json doc = nlohmann::json::parse(out.str());
  EXPECT_EQ(doc["runs"].size(), 1u);
  EXPECT_NE(out.str().find("\"path_style\": \"dirfd\""), std::string::npos);
  EXPECT_NE(out.str().find("\"api\": \"DUMMY\""), std::string::npos);
  EXPECT_NE(out.str().find("\"barrier_timed\": false"), std::string::npos);
  EXPECT_NE(out.str().find("\"collective_creates\": true"), std::string::npos);
  EXPECT_NE(out.str().find("\"per_op_csv_prefix\": \"/scratch/ops\""), std::string::npos);
}

// The default: the full style, barrier-timed.
TEST(ResultsMdtest, DefaultsRoundTrip) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  writeRun(path, OutputMode::kCreate, SyntheticRun{}, 0);
  const StoredRun r = readResultsFile(path).runs.at(0);
  EXPECT_EQ(r.config.path_style, PathStyle::kFull);
  EXPECT_EQ(r.config.api, Api::kPosix);
  EXPECT_FALSE(r.config.no_barriers);
  EXPECT_FALSE(r.config.collective_creates);
}

// A version 5 file has none of it: read as what every earlier mdbench did, and still valid.
TEST(ResultsMdtest, Version5ReadsAsDirfdPosixWithBarriers) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  writeRun(path, OutputMode::kCreate, mdtestRun(), 0);
  toVersion5(path);
  const StoredResults stored = readResultsFile(path);
  EXPECT_EQ(stored.schema_version, 5u);
  const StoredRun& r = stored.runs.at(0);
  EXPECT_FALSE(r.has_mdtest_options);
  EXPECT_EQ(r.config.path_style, PathStyle::kDirfd);
  EXPECT_EQ(r.config.api, Api::kPosix);
  EXPECT_FALSE(r.config.no_barriers);
  EXPECT_FALSE(r.config.collective_creates);
  std::ostringstream out;
  exportJson(stored, out);
  EXPECT_EQ(out.str().find("path_style"), std::string::npos);
  EXPECT_EQ(out.str().find("barrier_timed"), std::string::npos);
}

// -B's rows must have t_global_end = t_local_end: the synthetic run's waited at a closing barrier.
TEST(ResultsMdtest, ValidateRefusesABarrierWaitWithoutBarriers) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  SyntheticRun run = mdtestRun();
  run.config.collective_creates = false;
  run.plan = Plan(run.config, 3);
  run.result.config = run.config;
  writeRun(path, OutputMode::kCreate, run, 1);  // the synthetic run has failed ops
  const ValidationResult valid = validateResultsFile(path);
  EXPECT_FALSE(valid.ok);
  EXPECT_NE(valid.first_problem.find("barrier_timed is 0"), std::string::npos) << valid.first_problem;
}

}  // namespace
}  // namespace mdbench::results_test
