// The results file for a sweep (schema version 3): one run group per step from one Hdf5Sink, the attributes
// sweep_step, sweep_placement and job_ranks written, read back, validated and exported.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "mdbench/model/plan.hpp"
#include "mdbench/results/export.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"

namespace mdbench {
namespace {

class TempDir {
 public:
  TempDir() {
    char templ[] = "/tmp/mdbench-sweep-results-XXXXXX";
    if (mkdtemp(templ) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

Config stepConfig() {
  Config c;
  c.items = 10;
  c.kinds = ItemKinds::kFilesOnly;
  c.phases = {true, true, false, true};
  c.sweep.kind = SweepSpec::Kind::kList;
  c.sweep.steps = {1, 2, 4};
  c.command_line = "mdbench --sweep 1,2,4 -F -n 10";
  return c;
}

RunInfo stepInfo(std::uint32_t ranks, SweepStepInfo sweep) {
  RunInfo info;
  info.version = "0.1.0";
  info.git_commit = "0123456789ab";
  info.command_line = "mdbench --sweep 1,2,4 -F -n 10";
  info.target = "/scratch/t";
  info.start_utc = "2026-11-30T13:00:00Z";
  info.end_utc = "2026-11-30T13:00:01Z";
  info.ranks = ranks;
  info.nodes = ranks > 1 ? 2 : 1;
  for (std::uint32_t r = 0; r < ranks; ++r) info.host_of_rank.push_back(r % 2 == 0 ? "n0" : "n1");
  info.fs_type = "tmpfs";
  info.mpi_library = "MPICH Version: 4.0.2";
  info.hdf5_version = "1.10.8";
  info.sweep = sweep;
  return info;
}

// A complete run of `info.ranks` ranks, every op planned done in 1 us.
void writeRun(Hdf5Sink& sink, const RunInfo& info) {
  const Config config = stepConfig();
  std::vector<std::uint32_t> node_of_rank;
  for (std::uint32_t r = 0; r < info.ranks; ++r) node_of_rank.push_back(r % 2);
  const Plan plan(config, node_of_rank);
  RunResult result;
  result.info = info;
  result.config = config;
  sink.begin(info, plan);
  for (const Phase phase : plan.phases()) {
    PhaseResult p;
    p.phase = phase;
    p.items = config.items;
    for (std::uint32_t r = 0; r < info.ranks; ++r) {
      RankPhaseRecord record;
      record.planned = record.ok = record.ops_at_stonewall = plan.plannedOps(phase, r);
      record.t_start = 0.25;
      record.t_local_end = 0.5;
      record.t_global_end = 0.75;
      for (std::uint64_t op = 0; op < record.ok; ++op) p.latency.add(1000);
      p.ranks.push_back(record);
    }
    // Throughput over time (schema version 5): each rank's ops in the first of its three 0.1 s intervals
    // (it took 0.25 s).
    p.series.interval_s = config.series_interval_s;
    p.series.intervals = 3;
    p.series.total.assign(3, 0);
    for (const RankPhaseRecord& r : p.ranks) {
      p.series.per_rank.insert(p.series.per_rank.end(), {static_cast<std::uint32_t>(r.ok), 0, 0});
      p.series.total[0] += r.ok;
    }
    sink.phase(p, plan);
    result.phases.push_back(std::move(p));
  }
  sink.end(result, plan);
  sink.finish(0);
}

// Steps of 1, 2 and 4 ranks (spread) into one file through one sink.
void writeSweep(const std::string& path) {
  bool exists_error = false;
  const std::unique_ptr<Hdf5Sink> sink = Hdf5Sink::open(path, OutputMode::kCreate, exists_error);
  const std::uint32_t steps[] = {1, 2, 4};
  for (std::uint32_t i = 0; i < 3; ++i) {
    writeRun(*sink, stepInfo(steps[i], SweepStepInfo{i + 1, SweepPlacement::kSpread, 4}));
    EXPECT_EQ(sink->runGroup(), runGroupName(i).insert(0, "/runs/"));
  }
}

TEST(SweepResults, EachStepIsItsOwnRunGroup) {
  const TempDir dir;
  const std::string path = dir.file("sweep.h5");
  writeSweep(path);
  const StoredResults stored = readResultsFile(path);
  EXPECT_EQ(stored.schema_version, kSchemaVersion);
  ASSERT_EQ(stored.runs.size(), 3u);
  const std::uint32_t ranks[] = {1, 2, 4};
  for (std::uint32_t i = 0; i < 3; ++i) {
    const StoredRun& run = stored.runs[i];
    EXPECT_EQ(run.group, "/runs/" + runGroupName(i));
    EXPECT_EQ(run.status, "complete");
    EXPECT_EQ(run.info.ranks, ranks[i]);
    EXPECT_EQ(run.info.sweep.step, i + 1);
    EXPECT_EQ(run.info.sweep.placement, SweepPlacement::kSpread);
    EXPECT_EQ(run.info.sweep.job_ranks, 4u);
    EXPECT_EQ(run.info.host_of_rank.size(), ranks[i]);
    ASSERT_FALSE(run.phases.empty());
    EXPECT_EQ(run.phases.front().ranks.size(), ranks[i]);
  }
  const ValidationResult valid = validateResultsFile(path);
  EXPECT_TRUE(valid.ok) << valid.first_problem;
}

TEST(SweepResults, OutsideASweepTheJobIsTheRun) {
  const TempDir dir;
  const std::string path = dir.file("single.h5");
  bool exists_error = false;
  {
    const std::unique_ptr<Hdf5Sink> sink = Hdf5Sink::open(path, OutputMode::kCreate, exists_error);
    writeRun(*sink, stepInfo(3, SweepStepInfo{}));  // job_ranks 0: the run's own
  }
  const StoredResults stored = readResultsFile(path);
  ASSERT_EQ(stored.runs.size(), 1u);
  const SweepStepInfo& sweep = stored.runs[0].info.sweep;
  EXPECT_EQ(sweep.step, 0u);
  EXPECT_EQ(sweep.placement, SweepPlacement::kNone);
  EXPECT_EQ(sweep.job_ranks, 3u);
  const ValidationResult valid = validateResultsFile(path);
  EXPECT_TRUE(valid.ok) << valid.first_problem;
}

TEST(SweepResults, BeginTwiceWithoutFinishIsRefused) {
  const TempDir dir;
  const std::string path = dir.file("twice.h5");
  bool exists_error = false;
  const std::unique_ptr<Hdf5Sink> sink = Hdf5Sink::open(path, OutputMode::kCreate, exists_error);
  const RunInfo info = stepInfo(1, SweepStepInfo{1, SweepPlacement::kBlock, 2});
  const Plan plan(stepConfig(), 1);
  sink->begin(info, plan);
  EXPECT_THROW(sink->begin(info, plan), ResultsFileError);
  sink->finish(0);
  sink->finish(0);  // finishing twice is harmless
  EXPECT_EQ(readResultsFile(path).runs.size(), 1u);
}

TEST(SweepResults, AppendingAfterASweepAddsTheNextGroup) {
  const TempDir dir;
  const std::string path = dir.file("append.h5");
  writeSweep(path);
  bool exists_error = false;
  const std::unique_ptr<Hdf5Sink> sink = Hdf5Sink::open(path, OutputMode::kAppend, exists_error);
  EXPECT_EQ(sink->runGroup(), "/runs/run-0003");
  writeRun(*sink, stepInfo(2, SweepStepInfo{}));
  writeRun(*sink, stepInfo(2, SweepStepInfo{}));
  EXPECT_EQ(sink->runGroup(), "/runs/run-0004");
  EXPECT_EQ(readResultsFile(path).runs.size(), 5u);
  EXPECT_TRUE(validateResultsFile(path).ok);
}

// Raw HDF5 edits of a run group's attributes, as another tool (or a bug) could make them.
void editRun(const std::string& path, const std::string& run, const std::function<void(hid_t)>& edit) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  const hid_t group = H5Gopen2(file, run.c_str(), H5P_DEFAULT);
  ASSERT_GE(group, 0);
  edit(group);
  H5Gclose(group);
  H5Fclose(file);
}

void setUint32(hid_t object, const char* name, std::uint32_t value) {
  const hid_t attribute = H5Aopen(object, name, H5P_DEFAULT);
  ASSERT_GE(attribute, 0);
  EXPECT_GE(H5Awrite(attribute, H5T_NATIVE_UINT32, &value), 0);
  H5Aclose(attribute);
}

void setString(hid_t object, const char* name, const char* value) {
  const hid_t attribute = H5Aopen(object, name, H5P_DEFAULT);
  ASSERT_GE(attribute, 0);
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  EXPECT_GE(H5Awrite(attribute, type, &value), 0);
  H5Tclose(type);
  H5Aclose(attribute);
}

std::string problemAfter(const std::string& name, const std::function<void(hid_t)>& edit,
                         const std::string& run = "/runs/run-0001") {
  const TempDir dir;
  const std::string path = dir.file(name);
  writeSweep(path);
  editRun(path, run, edit);
  const ValidationResult result = validateResultsFile(path);
  EXPECT_FALSE(result.ok) << name;
  return result.first_problem;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(SweepResults, ValidatorChecksTheSweepAttributes) {
  std::string problem = problemAfter("step0.h5", [](hid_t run) { setUint32(run, "sweep_step", 0); });
  EXPECT_TRUE(contains(problem, "/runs/run-0001: sweep_step: expected at least 1 (a sweep step), found 0"))
      << problem;
  problem = problemAfter("job1.h5", [](hid_t run) { setUint32(run, "job_ranks", 1); });
  EXPECT_TRUE(contains(problem,
                       "job_ranks: expected at least ranks = 2 (a step runs on some of the job's "
                       "ranks), found 1"))
      << problem;
  problem = problemAfter("none.h5", [](hid_t run) { setString(run, "sweep_placement", "none"); });
  EXPECT_TRUE(contains(problem, "/runs/run-0001: sweep_step")) << problem;
  problem = problemAfter("none-job.h5", [](hid_t run) {
    setString(run, "sweep_placement", "none");
    setUint32(run, "sweep_step", 0);
  });
  EXPECT_TRUE(contains(problem, "/runs/run-0001: job_ranks")) << problem;
  problem = problemAfter("diagonal.h5", [](hid_t run) { setString(run, "sweep_placement", "diagonal"); });
  EXPECT_TRUE(contains(problem, "/runs/run-0001")) << problem;
  EXPECT_TRUE(contains(problem, "sweep_placement")) << problem;
  problem = problemAfter("missing.h5", [](hid_t run) { EXPECT_GE(H5Adelete(run, "job_ranks"), 0); });
  EXPECT_TRUE(contains(problem, "job_ranks")) << problem;
}

TEST(SweepResults, ReaderRefusesAnUnknownPlacement) {
  const TempDir dir;
  const std::string path = dir.file("bad.h5");
  writeSweep(path);
  editRun(path, "/runs/run-0002", [](hid_t run) { setString(run, "sweep_placement", "cyclic"); });
  try {
    readResultsFile(path);
    ADD_FAILURE() << "read a placement 'cyclic'";
  } catch (const ResultsFileError& e) {
    EXPECT_EQ(std::string(e.what()),
              path +
                  ": /runs/run-0002: attribute 'sweep_placement' is 'cyclic', expected "
                  "none, block or spread");
  }
}

TEST(SweepResults, ExportedToJson) {
  const TempDir dir;
  const std::string path = dir.file("export.h5");
  writeSweep(path);
  std::ostringstream out;
  exportJson(readResultsFile(path), out);
  const nlohmann::json doc = nlohmann::json::parse(out.str());
  EXPECT_EQ(doc["schema_version"], kSchemaVersion);
  ASSERT_EQ(doc["runs"].size(), 3u);
  for (std::uint32_t i = 0; i < 3; ++i) {
    const nlohmann::json& attributes = doc["runs"][i]["attributes"];
    EXPECT_EQ(attributes["sweep_step"], i + 1);
    EXPECT_EQ(attributes["sweep_placement"], "spread");
    EXPECT_EQ(attributes["job_ranks"], 4);
    EXPECT_EQ(attributes["ranks"], 1u << i);
  }
}

}  // namespace
}  // namespace mdbench
