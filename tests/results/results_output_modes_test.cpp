// The results file's output modes: create refuses an existing file, --force replaces it, --append adds the
// next run and refuses files that are not ours, leaving them untouched.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "mdbench/results/results_file.hpp"
#include "results_fixture.hpp"
#include "stored_rows.hpp"

namespace mdbench::results_test {
namespace {

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// ---- Tests ----

TEST(ResultsFile, CreateRefusesAnExistingFileAndLeavesItUntouched) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  writeRun(path, OutputMode::kCreate, SyntheticRun{}, 0);
  const std::string before = readBytes(path);

  bool exists_error = false;
  EXPECT_EQ(errorOf([&] { Hdf5Sink::open(path, OutputMode::kCreate, exists_error); }),
            path + " exists: use --append to add this run to it, or --force to replace it");
  EXPECT_TRUE(exists_error);
  EXPECT_EQ(readBytes(path), before);
}

TEST(ResultsFile, CreateReportsAnImpossiblePath) {
  const TempDir dir;
  const std::string path = dir.file("no-such-dir/r.h5");
  bool exists_error = true;
  EXPECT_EQ(errorOf([&] { Hdf5Sink::open(path, OutputMode::kCreate, exists_error); }),
            "cannot create " + path + ": ENOENT (No such file or directory)");
  EXPECT_FALSE(exists_error);
}

// A file that cannot grow (here: a file size limit, as a full file system would) stops the writing, not the
// run: no sink call throws until finish(), which reports the first failure; a new file that never got a run
// group is removed again.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) : signal_(std::signal(SIGXFSZ, SIG_IGN)) {
    getrlimit(RLIMIT_FSIZE, &saved_);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, signal_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit saved_{};
  void (*signal_)(int);
};

TEST(ResultsFile, AFileThatCannotGrowStopsTheWritingNotTheRun) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  const SyntheticRun run;
  bool exists_error = false;
  auto sink = Hdf5Sink::open(path, OutputMode::kCreate, exists_error);
  std::string error;
  {
    const FileSizeLimit limit(std::filesystem::file_size(path));
    EXPECT_NO_THROW(sink->begin(run.result.info, run.plan));
    EXPECT_NO_THROW(sink->phase(run.result.phases[0], run.plan));
    EXPECT_NO_THROW(sink->end(run.result, run.plan));
  }
  error = errorOf([&] { sink->finish(1); });
  EXPECT_EQ(error.rfind("results could not be written: " + path + ": ", 0), 0u) << error;
  EXPECT_NE(error.find(": no room for the run's description: EFBIG"), std::string::npos) << error;
  EXPECT_NE(error.find(path + " removed: it held no run"), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(path));

  // A run that began keeps its file, and the message says so.
  const std::string kept = dir.file("kept.h5");
  sink = Hdf5Sink::open(kept, OutputMode::kCreate, exists_error);
  sink->begin(run.result.info, run.plan);
  sink->phase(run.result.phases[0], run.plan);
  {
    const FileSizeLimit limit(std::filesystem::file_size(kept));
    EXPECT_NO_THROW(sink->phase(run.result.phases[1], run.plan));
    EXPECT_NO_THROW(sink->end(run.result, run.plan));
  }
  error = errorOf([&] { sink->finish(0); });
  EXPECT_EQ(error.rfind("results could not be written: " + kept + ": ", 0), 0u) << error;
  EXPECT_NE(error.find("; the file keeps what was written before that"), std::string::npos) << error;
  EXPECT_NE(error.find(": no room for iteration 0 file-stat: EFBIG"), std::string::npos) << error;
  // Valid, with the phase written before, and still "running": nothing was half-written.
  const StoredRun stored = readResultsFile(kept).runs.at(0);
  EXPECT_EQ(stored.phases.size(), 1u);
  EXPECT_EQ(stored.status, "running");
}

TEST(ResultsFile, ForceReplacesAnExistingFile) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  // --append adds only to a file `mdbench validate` accepts: the first run as the runner records it (a rank
  // whose stonewall timer never fired has ops_at_stonewall = ok).
  SyntheticRun first;
  for (PhaseResult& p : first.result.phases) {
    for (RankPhaseRecord& r : p.ranks) {
      if (r.t_stonewall == 0.0) r.ops_at_stonewall = r.ok;
    }
  }
  writeRun(path, OutputMode::kCreate, first, 1);
  SyntheticRun second;
  second.result.info.job_id = "456";
  EXPECT_EQ(writeRun(path, OutputMode::kForce, second, 0), "/runs/run-0000");

  const StoredResults stored = readResultsFile(path);
  ASSERT_EQ(stored.runs.size(), 1u);
  EXPECT_EQ(stored.runs[0].info.job_id, "456");
  EXPECT_EQ(stored.runs[0].status, "complete");

  writeText(path, "not HDF5 at all\n");
  writeRun(path, OutputMode::kForce, second, 0);
  EXPECT_EQ(readResultsFile(path).runs.size(), 1u);
}

TEST(ResultsFile, AppendAddsTheNextRunAndBothReadBack) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  // --append adds only to a file `mdbench validate` accepts: the first run as the runner records it (a rank
  // whose stonewall timer never fired has ops_at_stonewall = ok).
  SyntheticRun first;
  for (PhaseResult& p : first.result.phases) {
    for (RankPhaseRecord& r : p.ranks) {
      if (r.t_stonewall == 0.0) r.ops_at_stonewall = r.ok;
    }
  }
  writeRun(path, OutputMode::kCreate, first, 1);
  SyntheticRun second;
  second.result.info.host_of_rank.clear();  // unknown hosts: all on one node
  second.result.info.nodes = 1;
  second.result.info.job_id = "456";
  EXPECT_EQ(writeRun(path, OutputMode::kAppend, second, 0), "/runs/run-0001");

  const StoredResults stored = readResultsFile(path);
  ASSERT_EQ(stored.runs.size(), 2u);
  EXPECT_EQ(stored.runs[0].group, "/runs/run-0000");
  EXPECT_EQ(stored.runs[0].info.job_id, "123");
  EXPECT_EQ(stored.runs[0].status, "failed");
  EXPECT_EQ(stored.runs[0].phases.size(), 6u);
  const StoredRun& r = stored.runs[1];
  EXPECT_EQ(r.group, "/runs/run-0001");
  EXPECT_EQ(r.info.job_id, "456");
  EXPECT_EQ(r.status, "complete");
  EXPECT_EQ(r.info.host_of_rank, (std::vector<std::string>{"unknown", "unknown", "unknown"}));
  EXPECT_EQ(r.info.nodes, 1u);
  EXPECT_EQ(r.node_of_rank, (std::vector<std::uint32_t>{0, 0, 0}));
  EXPECT_EQ(r.ranks_per_node_min, 3u);
  EXPECT_EQ(r.ranks_per_node_max, 3u);
  ASSERT_EQ(r.phases.size(), 6u);
  EXPECT_EQ(r.phases[0].group, "/runs/run-0001/iterations/iter-0000/file-create");
  EXPECT_EQ(storedRankRows(path, r.phases[0].group).at(1).node, 0u);
  EXPECT_EQ(r.summaries.size(), 4u);
}

TEST(ResultsFile, AppendCreatesAMissingFile) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  EXPECT_EQ(writeRun(path, OutputMode::kAppend, SyntheticRun{}, 0), "/runs/run-0000");
  EXPECT_EQ(readResultsFile(path).runs.size(), 1u);
}

TEST(ResultsFile, AppendRefusesAnHdf5FileThatIsNotOursAndLeavesItUntouched) {
  const TempDir dir;
  const std::string path = dir.file("other.h5");
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  ASSERT_GE(H5Gclose(H5Gcreate2(file, "data", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)), 0);
  ASSERT_GE(H5Fclose(file), 0);
  const std::string before = readBytes(path);

  bool exists_error = false;
  EXPECT_EQ(
      errorOf([&] { Hdf5Sink::open(path, OutputMode::kAppend, exists_error); }),
      path +
          " is not an mdbench results file (no string attribute 'schema' at its root): cannot append to it");
  EXPECT_FALSE(exists_error);
  EXPECT_EQ(readBytes(path), before);
  EXPECT_EQ(errorOf([&] { readResultsFile(path); }),
            path + " is not an mdbench results file (no string attribute 'schema' at its root)");
}

TEST(ResultsFile, AppendRefusesAPlainTextFileAndLeavesItUntouched) {
  const TempDir dir;
  const std::string path = dir.file("notes.txt");
  writeText(path, "some notes\n");

  bool exists_error = false;
  EXPECT_EQ(errorOf([&] { Hdf5Sink::open(path, OutputMode::kAppend, exists_error); }),
            path + " is not an mdbench results file (not an HDF5 file): cannot append to it");
  EXPECT_EQ(readBytes(path), "some notes\n");
  EXPECT_EQ(errorOf([&] { readResultsFile(path); }),
            path + " is not an mdbench results file (not an HDF5 file)");
}

TEST(ResultsFile, AppendRefusesAnotherSchemaVersion) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  writeRun(path, OutputMode::kCreate, SyntheticRun{}, 0);
  withRawFile(path, [](hid_t file) {
    const std::uint32_t version = kSchemaVersion + 1;
    const hid_t attribute = H5Aopen(file, "schema_version", H5P_DEFAULT);
    ASSERT_GE(attribute, 0);
    EXPECT_GE(H5Awrite(attribute, H5T_NATIVE_UINT32, &version), 0);
    EXPECT_GE(H5Aclose(attribute), 0);
  });
  const std::string before = readBytes(path);

  bool exists_error = false;
  const std::string next = std::to_string(kSchemaVersion + 1), now = std::to_string(kSchemaVersion);
  EXPECT_EQ(errorOf([&] { Hdf5Sink::open(path, OutputMode::kAppend, exists_error); }),
            path + " has schema version " + next + ", this mdbench writes " + now + ": cannot append to it");
  EXPECT_EQ(readBytes(path), before);
  EXPECT_EQ(errorOf([&] { readResultsFile(path); }),
            path + " has schema version " + next + ", this mdbench reads versions 3 to " + now);
}

// Versions 4 and 5 only added objects: a file of version 3 or 4 (without version 5's throughput over time)
// is still read and valid, but never appended to (the file would then claim a version it does not have).
TEST(ResultsFile, ReadsButDoesNotAppendToVersions3And4) {
  for (const std::uint32_t version : {3u, 4u}) {
    const TempDir dir;
    const std::string path = dir.file("r.h5");
    writeRun(path, OutputMode::kCreate, SyntheticRun{}, 0);
    downgrade(path, version);
    const StoredResults stored = readResultsFile(path);
    EXPECT_EQ(stored.schema_version, version);
    ASSERT_EQ(stored.runs.size(), 1u);
    const StoredRun& run = stored.runs[0];
    EXPECT_FALSE(run.has_series);
    EXPECT_EQ(run.config.series_interval_s, Config{}.series_interval_s);  // not stored: the default
    ASSERT_EQ(run.phases.size(), 6u);
    for (const StoredPhase& p : run.phases) {
      EXPECT_FALSE(p.has_series) << p.group;
      EXPECT_EQ(p.series.intervals, 0u) << p.group;
      EXPECT_TRUE(p.series.per_rank.empty()) << p.group;
      EXPECT_TRUE(p.series.total.empty()) << p.group;
      EXPECT_EQ(p.done.first_done_ops, 0u) << p.group;
      EXPECT_EQ(p.done.last_done_time_s, 0.0) << p.group;
    }
    EXPECT_EQ(run.phases[0].aggregate.ok, 11u);  // the rest reads as before (validate_test.cpp: and is valid)
    bool exists_error = false;
    EXPECT_EQ(errorOf([&] { Hdf5Sink::open(path, OutputMode::kAppend, exists_error); }),
              path + " has schema version " + std::to_string(version) + ", this mdbench writes " +
                  std::to_string(kSchemaVersion) + ": cannot append to it");
  }
}

}  // namespace
}  // namespace mdbench::results_test
