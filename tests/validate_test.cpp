// The results-file validator: files written by Hdf5Sink for a hand-made 3-rank, 2-iteration run pass;
// every kind of damage the validator claims to catch, made on a copy with the HDF5 C API, is reported
// with the object it is in.
#include "mdbench/validate.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "mdbench/config.hpp"
#include "mdbench/metrics.hpp"
#include "mdbench/phase.hpp"
#include "mdbench/plan.hpp"
#include "mdbench/result.hpp"
#include "mdbench/results_file.hpp"

namespace mdbench {
namespace {

namespace fs = std::filesystem;

const std::string kRun = "/runs/run-0000";
const std::string kConfig = kRun + "/config";
const std::string kIter0 = kRun + "/iterations/iter-0000";
const std::string kIter1 = kRun + "/iterations/iter-0001";
const std::string kFileCreate0 = kIter0 + "/file-create";
const std::string kFileCreate1 = kIter1 + "/file-create";  // stonewalled: 2 of the 3 items
const std::string kFileStat1 = kIter1 + "/file-stat";      // rank 1 fails one stat here (failed runs)

// ---- Writing a run as the runner would ----

enum class Outcome : std::uint8_t {
  kFailed,    // rank 1 fails one stat in iteration 1; exit 1
  kComplete,  // every op succeeds; exit 0
  kRunning,   // killed after iteration 0's first three phases: no end(), no finish()
};

// Files only in a shared tree, every phase (readdir and rename too), rank shift 1, and a stonewall.
const std::vector<std::string> kArgs = {"-n", "3",  "-i", "2",  "-F",        "-z", "1", "-b", "2", "-w",
                                        "64", "-e", "64", "-U", "--readdir", "-N", "1", "-W", "30"};
constexpr std::string_view kCommandLine =
    "mdbench -n 3 -i 2 -F -z 1 -b 2 -w 64 -e 64 -U --readdir -N 1 -W 30";

// The stonewall fires in iteration 1's file-create after these many ops on ranks 0, 1, 2 (3 ranks), and
// every rank wears out to the largest: the file phases of iteration 1 work on 2 items.
constexpr std::uint64_t kOpsAtStonewall[] = {2, 1, 1};
constexpr std::uint64_t kStonewalledItems = 2;

Config runConfig() {
  CliRequest request = parseCommandLine(kArgs);
  EXPECT_TRUE(request.errors.empty()) << request.errors.front();
  request.config.command_line = kCommandLine;
  return request.config;
}

// The run's shape: its hosts (3 ranks on 2 nodes unless a test says otherwise).
struct RunShape {
  std::vector<std::string> hosts = {"node-a", "node-a", "node-b"};
};

RunInfo runInfo(const RunShape& shape) {
  RunInfo info;
  info.version = "0.1.0";
  info.git_commit = "df90c78";
  info.command_line = kCommandLine;
  info.target = "/scratch/mdbench.test";
  info.start_utc = "2026-11-30T13:23:06Z";
  info.ranks = static_cast<std::uint32_t>(shape.hosts.size());
  info.nodes = nodeLayout(shape.hosts).nodes;
  info.host_of_rank = shape.hosts;
  info.fs_type = "tmpfs";
  info.fs_total_bytes = 1 << 30;
  info.fs_free_bytes = 1 << 29;
  info.fs_total_inodes = 100000;
  info.fs_free_inodes = 90000;
  info.mpi_library = "MPICH Version: 4.0.2";
  info.hdf5_version = "1.10.8";
  return info;
}

bool stonewalled(std::uint32_t iteration, Phase phase) {
  return iteration == 1 && phase == Phase::kFileCreate;
}

// One phase on every rank, with realistic times and latencies: rank r is (r + 1) times slower than rank 0.
PhaseResult measure(const Plan& run_plan, std::uint32_t iteration, Phase phase, double t0, Outcome outcome) {
  PhaseResult result;
  result.iteration = iteration;
  result.phase = phase;
  result.items = iteration == 1 && !isTreePhase(phase) ? kStonewalledItems : run_plan.config().items;
  const Plan plan = run_plan.withItems(result.items);
  double t_end = t0;
  for (std::uint32_t rank = 0; rank < plan.ranks(); ++rank) {
    RankPhaseRecord r;
    r.planned = plan.plannedOps(phase, rank);
    r.ok = r.planned;
    if (outcome == Outcome::kFailed && iteration == 1 && phase == Phase::kFileStat && rank == 1) {
      r.ok -= 1;
      r.failed = 1;
      r.first_error = FirstError{ENOENT, plan.owner(phase, rank), 1, 1};  // item 1 of 2 lives in directory 1
    }
    if (phase == Phase::kFileCreate) r.bytes = r.ok * plan.config().write_bytes;
    if (phase == Phase::kFileRead) r.bytes = r.ok * plan.config().read_bytes;
    r.ops_at_stonewall = stonewalled(iteration, phase) ? kOpsAtStonewall[rank % 3] : r.ok;
    r.t_start = t0 + 1e-4 * rank;
    r.t_local_end = r.t_start;
    for (std::uint64_t op = 0; op < r.planned; ++op) {
      const std::uint64_t ns = 20000 * (rank + 1) + 1337 * op + 5000 * iteration;
      r.t_local_end += static_cast<double>(ns) * 1e-9;
      if (op < r.ok) result.latency.add(ns);
      if (stonewalled(iteration, phase) && op + 1 == r.ops_at_stonewall) r.t_stonewall = r.t_local_end;
    }
    t_end = std::max(t_end, r.t_local_end);
    result.ranks.push_back(r);
  }
  for (RankPhaseRecord& r : result.ranks) r.t_global_end = t_end + 2e-4;
  return result;
}

// Writes a whole run through Hdf5Sink into `path`.
void writeRun(const std::string& path, Outcome outcome, OutputMode mode = OutputMode::kCreate,
              const RunShape& shape = {}) {
  const Config config = runConfig();
  const Plan plan(config, nodeLayout(shape.hosts).node_of_rank);
  RunResult run;
  run.info = runInfo(shape);
  run.config = config;
  bool exists_error = false;
  std::unique_ptr<Hdf5Sink> sink = Hdf5Sink::open(path, mode, exists_error);
  sink->begin(run.info, plan);
  double t = 0.0;
  for (std::uint32_t iteration = 0; iteration < config.iterations; ++iteration) {
    for (const Phase phase : plan.phases()) {
      if (outcome == Outcome::kRunning && run.phases.size() == 3) return;  // killed: the sink goes away
      run.phases.push_back(measure(plan, iteration, phase, t, outcome));
      sink->phase(run.phases.back(), plan);
      t = run.phases.back().ranks[0].t_global_end + 1e-3;
    }
  }
  run.info.end_utc = "2026-11-30T13:23:09Z";
  sink->end(run, plan);
  sink->finish(outcome == Outcome::kFailed ? 1 : 0);
}

// ---- Damaging a file with the HDF5 C API ----

// An HDF5 identifier closed at scope exit (tests only).
class Id {
 public:
  explicit Id(hid_t id) : id_(id) { EXPECT_GE(id_, 0) << "HDF5 call failed"; }
  ~Id() {
    if (id_ < 0) return;
    switch (H5Iget_type(id_)) {
      case H5I_FILE:
        H5Fclose(id_);
        break;
      case H5I_GROUP:
        H5Gclose(id_);
        break;
      case H5I_DATASET:
        H5Dclose(id_);
        break;
      case H5I_ATTR:
        H5Aclose(id_);
        break;
      case H5I_DATATYPE:
        H5Tclose(id_);
        break;
      case H5I_DATASPACE:
        H5Sclose(id_);
        break;
      default:
        H5Idec_ref(id_);
        break;
    }
  }
  Id(Id&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)) {}
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  Id& operator=(Id&&) = delete;
  operator hid_t() const { return id_; }  // NOLINT(google-explicit-constructor): reads like the C API

 private:
  hid_t id_;
};

Id openFile(const std::string& path) { return Id(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)); }
Id openObject(hid_t file, const std::string& object) {
  return Id(H5Oopen(file, object.c_str(), H5P_DEFAULT));
}

Id vlenString() {
  Id type(H5Tcopy(H5T_C_S1));
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  return type;
}

void deleteAttribute(const std::string& path, const std::string& object, const std::string& name) {
  const Id file = openFile(path);
  ASSERT_GE(H5Adelete_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT), 0);
}

// Replaces an attribute by a scalar of `file_type` holding *value (in `memory_type`).
void replaceAttribute(const std::string& path, const std::string& object, const std::string& name,
                      hid_t file_type, hid_t memory_type, const void* value) {
  const Id file = openFile(path);
  const Id target = openObject(file, object);
  if (H5Aexists(target, name.c_str()) > 0) {
    ASSERT_GE(H5Adelete(target, name.c_str()), 0);
  }
  const Id space(H5Screate(H5S_SCALAR));
  const Id attribute(H5Acreate2(target, name.c_str(), file_type, space, H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_GE(H5Awrite(attribute, memory_type, value), 0);
}

void setString(const std::string& path, const std::string& object, const std::string& name,
               const std::string& value) {
  const char* text = value.c_str();
  const Id type = vlenString();
  replaceAttribute(path, object, name, type, type, &text);
}

// Rewrites an existing numeric attribute's value, keeping its stored type (HDF5 converts).
template <class T>
void setNumber(const std::string& path, const std::string& object, const std::string& name, T value) {
  const Id file = openFile(path);
  const Id target = openObject(file, object);
  const Id attribute(H5Aopen(target, name.c_str(), H5P_DEFAULT));
  const hid_t memory = std::is_same_v<T, double>         ? H5T_NATIVE_DOUBLE
                       : std::is_same_v<T, std::int32_t> ? H5T_NATIVE_INT32
                                                         : H5T_NATIVE_UINT64;
  ASSERT_GE(H5Awrite(attribute, memory, &value), 0);
}

template <class T>
T getNumber(const std::string& path, const std::string& object, const std::string& name) {
  const Id file = openFile(path);
  const Id target = openObject(file, object);
  const Id attribute(H5Aopen(target, name.c_str(), H5P_DEFAULT));
  T value{};
  H5Aread(attribute, std::is_same_v<T, double> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_UINT64, &value);
  return value;
}

void deleteLink(const std::string& path, const std::string& object) {
  const Id file = openFile(path);
  ASSERT_GE(H5Ldelete(file, object.c_str(), H5P_DEFAULT), 0);
}

// Replaces an object by a fresh 1-D dataset of `type` and `length` (zero-filled).
void replaceByDataset(const std::string& path, const std::string& object, hid_t type, hsize_t length) {
  const Id file = openFile(path);
  if (H5Lexists(file, object.c_str(), H5P_DEFAULT) > 0) {
    ASSERT_GE(H5Ldelete(file, object.c_str(), H5P_DEFAULT), 0);
  }
  const Id space(H5Screate_simple(1, &length, nullptr));
  const Id dataset(H5Dcreate2(file, object.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
}

// Adds 1 to element `index` of a 1-D integer dataset.
void bumpElement(const std::string& path, const std::string& object, std::size_t index) {
  const Id file = openFile(path);
  const Id dataset(H5Dopen2(file, object.c_str(), H5P_DEFAULT));
  const Id space(H5Dget_space(dataset));
  std::vector<std::uint64_t> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  ASSERT_GE(H5Dread(dataset, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  values.at(index) += 1;
  ASSERT_GE(H5Dwrite(dataset, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
}

// Changes one field of one row of a compound dataset (reading and writing that field alone).
template <class T>
void changeField(const std::string& path, const std::string& object, std::size_t row,
                 const std::string& field, T delta) {
  const Id file = openFile(path);
  const Id dataset(H5Dopen2(file, object.c_str(), H5P_DEFAULT));
  const Id space(H5Dget_space(dataset));
  const Id memory(H5Tcreate(H5T_COMPOUND, sizeof(T)));
  H5Tinsert(memory, field.c_str(), 0, std::is_same_v<T, double> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_UINT64);
  std::vector<T> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  ASSERT_GE(H5Dread(dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  values.at(row) += delta;
  ASSERT_GE(H5Dwrite(dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
}

// One field of one row of a compound dataset.
template <class T>
T fieldValue(const std::string& path, const std::string& object, std::size_t row, const std::string& field) {
  const Id file = openFile(path);
  const Id dataset(H5Dopen2(file, object.c_str(), H5P_DEFAULT));
  const Id space(H5Dget_space(dataset));
  const Id memory(H5Tcreate(H5T_COMPOUND, sizeof(T)));
  H5Tinsert(memory, field.c_str(), 0, std::is_same_v<T, double> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_UINT64);
  std::vector<T> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  EXPECT_GE(H5Dread(dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  return values.at(row);
}

// Sets a string field of a compound dataset to `value` in every row.
void setStringField(const std::string& path, const std::string& object, const std::string& field,
                    const std::string& value) {
  const Id file = openFile(path);
  const Id dataset(H5Dopen2(file, object.c_str(), H5P_DEFAULT));
  const Id space(H5Dget_space(dataset));
  const Id text = vlenString();
  const Id memory(H5Tcreate(H5T_COMPOUND, sizeof(const char*)));
  H5Tinsert(memory, field.c_str(), 0, text);
  const std::vector<const char*> rows(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)),
                                      value.c_str());
  ASSERT_GE(H5Dwrite(dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()), 0);
}

// ---- The fixture ----

class Validate : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / fmt::format("mdbench-validate-{}-{}", getpid(), info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    file_ = (dir_ / "results.h5").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes the run, checks that it passes as written, and returns the file to damage.
  const std::string& valid(Outcome outcome = Outcome::kFailed) {
    writeRun(file_, outcome);
    const ValidationResult result = validateResultsFile(file_);
    EXPECT_TRUE(result.ok) << result.first_problem;
    return file_;
  }

  // !ok, and first_problem is "<file>: <object>: ..." containing `what`.
  testing::AssertionResult failsAt(const std::string& object, std::string_view what) const {
    const ValidationResult result = validateResultsFile(file_);
    const std::string prefix = object.empty() ? file_ + ": " : file_ + ": " + object + ": ";
    if (result.ok) return testing::AssertionFailure() << "passed; expected a problem at " << object;
    if (!result.first_problem.starts_with(prefix) ||
        result.first_problem.find(what, prefix.size()) == std::string::npos) {
      return testing::AssertionFailure() << "first_problem is \"" << result.first_problem << "\"; expected \""
                                         << prefix << "...\" mentioning \"" << what << "\"";
    }
    return testing::AssertionSuccess() << result.first_problem;
  }

  fs::path dir_;
  std::string file_;
};

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
  EXPECT_TRUE(failsAt("", "cannot be opened read-only with HDF5"));
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
      failsAt("/", "knows version 2, found 1"));  // version 1 files: mdbench before readdir and rename
}

// ---- Structure ----

TEST_F(Validate, MissingRunAttribute) {
  deleteAttribute(valid(), kRun, "fs_type");
  EXPECT_TRUE(failsAt(kRun, "attribute fs_type missing"));
}

TEST_F(Validate, AttributeOfWrongType) {
  const double ranks = 3.0;
  replaceAttribute(valid(), kRun, "ranks", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &ranks);
  EXPECT_TRUE(failsAt(kRun, "attribute ranks: expected type uint32, found float64"));
}

TEST_F(Validate, SignedWhereUnsignedIsRequired) {
  const std::int32_t ok = 5;
  replaceAttribute(valid(), kFileCreate0, "ops_ok", H5T_STD_I32LE, H5T_NATIVE_INT32, &ok);
  EXPECT_TRUE(failsAt(kFileCreate0, "attribute ops_ok: expected type uint64, found int32"));
}

TEST_F(Validate, AttributeThatIsNotAScalar) {
  valid();
  {
    const Id file = openFile(file_);
    const Id run = openObject(file, kRun);
    ASSERT_GE(H5Adelete(run, "nodes"), 0);
    const hsize_t two = 2;
    const Id space(H5Screate_simple(1, &two, nullptr));
    const Id attribute(H5Acreate2(run, "nodes", H5T_STD_U32LE, space, H5P_DEFAULT, H5P_DEFAULT));
  }
  EXPECT_TRUE(failsAt(kRun, "attribute nodes: expected a scalar, found 2 value(s)"));
}

TEST_F(Validate, StatusNotAllowed) {
  setString(valid(), kRun, "status", "done");
  EXPECT_TRUE(failsAt(kRun, "attribute status: expected one of running|complete|failed, found \"done\""));
}

TEST_F(Validate, PhaseNameNotAllowed) {
  setString(valid(), kFileCreate0, "phase", "file-touch");
  EXPECT_TRUE(failsAt(kFileCreate0, "attribute phase: expected one of"));
}

TEST_F(Validate, MissingRequiredDataset) {
  deleteLink(valid(), kRun + "/hosts");
  EXPECT_TRUE(failsAt(kRun + "/hosts", "missing (a required dataset)"));
}

TEST_F(Validate, MissingRequiredGroup) {
  deleteLink(valid(), kRun + "/config");
  EXPECT_TRUE(failsAt(kRun + "/config", "missing (a required group)"));
}

TEST_F(Validate, MissingPhaseHistogram) {
  deleteLink(valid(), kFileCreate0 + "/latency");
  EXPECT_TRUE(failsAt(kFileCreate0 + "/latency", "missing"));
}

TEST_F(Validate, MissingSummaryOfAFinishedRun) {
  deleteLink(valid(), kRun + "/summary");
  EXPECT_TRUE(failsAt(kRun + "/summary", "missing (a required group)"));
}

TEST_F(Validate, GroupWhereADatasetBelongs) {
  deleteLink(valid(), kRun + "/hosts");
  {
    const Id file = openFile(file_);
    const Id group(H5Gcreate2(file, (kRun + "/hosts").c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  }
  EXPECT_TRUE(failsAt(kRun + "/hosts", "expected a dataset, found a group"));
}

TEST_F(Validate, DatasetOfWrongShape) {
  replaceByDataset(valid(), kRun + "/node_of_rank", H5T_STD_U32LE, 5);
  EXPECT_TRUE(failsAt(kRun + "/node_of_rank", "expected shape dimension 0 = 3 (ranks), found shape [5]"));
}

TEST_F(Validate, HistogramOfWrongLength) {
  replaceByDataset(valid(), kFileCreate0 + "/latency", H5T_STD_U64LE, 591);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/latency", "expected shape dimension 0 = 592, found shape [591]"));
}

TEST_F(Validate, DatasetOfWrongType) {
  replaceByDataset(valid(), kRun + "/latency_bucket_low", H5T_IEEE_F64LE, 592);
  EXPECT_TRUE(failsAt(kRun + "/latency_bucket_low", "expected type uint64, found float64"));
}

TEST_F(Validate, CompoundWithAMissingField) {
  valid();
  const Id rows(H5Tcreate(H5T_COMPOUND, 16));
  H5Tinsert(rows, "rank", 0, H5T_STD_U32LE);
  H5Tinsert(rows, "node", 4, H5T_STD_U32LE);
  H5Tinsert(rows, "planned", 8, H5T_STD_U64LE);
  replaceByDataset(file_, kFileCreate0 + "/ranks", rows, 3);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "compound field ok missing"));
}

TEST_F(Validate, ErrorsCompoundWithAFieldOfWrongType) {
  valid();
  const Id rows(H5Tcreate(H5T_COMPOUND, 24));
  H5Tinsert(rows, "rank", 0, H5T_STD_U32LE);
  H5Tinsert(rows, "errno", 4, H5T_STD_I32LE);
  H5Tinsert(rows, "errno_name", 8, H5T_STD_U64LE);
  H5Tinsert(rows, "path", 16, vlenString());
  replaceByDataset(file_, kFileStat1 + "/errors", rows, 1);
  EXPECT_TRUE(
      failsAt(kFileStat1 + "/errors", "compound field errno_name: expected type string, found uint64"));
}

// ---- Consistency ----

TEST_F(Validate, PerRankOkChanged) {
  changeField<std::uint64_t>(valid(), kFileCreate0 + "/ranks", 1, "ok", 1);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 1: ok + failed"));
}

TEST_F(Validate, PlannedDiffersFromThePlan) {
  valid();
  changeField<std::uint64_t>(file_, kFileCreate0 + "/ranks", 2, "planned", 1);
  changeField<std::uint64_t>(file_, kFileCreate0 + "/ranks", 2, "ok", 1);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 2: planned: expected"));
}

TEST_F(Validate, RowOutOfRankOrder) {
  changeField<std::uint64_t>(valid(), kFileCreate0 + "/ranks", 0, "rank", 1);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 0: rank: expected 0"));
}

TEST_F(Validate, RowNodeDiffersFromNodeOfRank) {
  changeField<std::uint64_t>(valid(), kFileCreate0 + "/ranks", 2, "node", 1);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 2: node: expected 1"));
}

TEST_F(Validate, RowRateChanged) {
  changeField<double>(valid(), kFileCreate0 + "/ranks", 1, "rate", 0.5);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 1: rate"));
}

TEST_F(Validate, OpsOkDiffersFromTheSum) {
  setNumber<std::uint64_t>(valid(), kFileCreate0, "ops_ok", 10);
  EXPECT_TRUE(failsAt(kFileCreate0, "ops_ok: expected 9 (sum of ranks.ok), found 10"));
}

TEST_F(Validate, BytesDifferFromTheSum) {
  setNumber<std::uint64_t>(valid(), kFileCreate0, "bytes", 1);
  EXPECT_TRUE(failsAt(kFileCreate0, "bytes: expected 576"));
}

TEST_F(Validate, TimeDiffersFromTheSlowestRank) {
  changeField<double>(valid(), kFileCreate0 + "/ranks", 0, "t_global_end", 1.0);
  EXPECT_TRUE(failsAt(kFileCreate0, "time_s"));
}

TEST_F(Validate, OpsPerSecondChanged) {
  valid();
  setNumber(file_, kFileCreate0, "ops_per_s", getNumber<double>(file_, kFileCreate0, "ops_per_s") * 1.01);
  EXPECT_TRUE(failsAt(kFileCreate0, "ops_per_s: expected"));
}

TEST_F(Validate, TinyRoundingDifferenceIsTolerated) {
  valid();
  setNumber(file_, kFileCreate0, "ops_per_s",
            getNumber<double>(file_, kFileCreate0, "ops_per_s") * (1 + 1e-12));
  const ValidationResult result = validateResultsFile(file_);
  EXPECT_TRUE(result.ok) << result.first_problem;
}

TEST_F(Validate, ActiveRanksChanged) {
  setNumber<std::uint64_t>(valid(), kIter0 + "/tree-create", "active_ranks", 3);
  EXPECT_TRUE(failsAt(kIter0 + "/tree-create", "active_ranks: expected 1"));
}

TEST_F(Validate, BalanceChanged) {
  setNumber(valid(), kFileCreate0, "balance", 1.0);
  EXPECT_TRUE(failsAt(kFileCreate0, "balance"));
}

TEST_F(Validate, RateFormulaChanged) {
  setString(valid(), kFileCreate0, "rate_formula", "ops_ok / mean(t_local_end - t_start)");
  EXPECT_TRUE(failsAt(kFileCreate0, "rate_formula"));
}

TEST_F(Validate, HistogramCountChanged) {
  bumpElement(valid(), kFileCreate0 + "/latency", 300);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/latency", "sum of counts: expected 9 (ops_ok), found 10"));
}

TEST_F(Validate, PercentileChanged) {
  setNumber<std::uint64_t>(valid(), kFileCreate0, "latency_p99_ns", 1);
  EXPECT_TRUE(failsAt(kFileCreate0, "latency_p99_ns"));
}

TEST_F(Validate, BucketBoundChanged) {
  bumpElement(valid(), kRun + "/latency_bucket_high", 100);
  EXPECT_TRUE(failsAt(kRun + "/latency_bucket_high", "element 100"));
}

TEST_F(Validate, NodeOfRankChanged) {
  bumpElement(valid(), kRun + "/node_of_rank", 1);
  EXPECT_TRUE(failsAt(kRun + "/node_of_rank", "element 1: expected 0 (host \"node-a\""));
}

TEST_F(Validate, NodesChanged) {
  setNumber<std::uint64_t>(valid(), kRun, "nodes", 3);
  EXPECT_TRUE(failsAt(kRun, "nodes: expected 2 (distinct hosts), found 3"));
}

TEST_F(Validate, RanksPerNodeChanged) {
  setNumber<std::uint64_t>(valid(), kRun, "ranks_per_node_max", 3);
  EXPECT_TRUE(failsAt(kRun, "ranks_per_node_max: expected 2"));
}

TEST_F(Validate, SummaryMeanChanged) {
  setNumber(valid(), kRun + "/summary/file-create", "ops_per_s_mean", 1.0);
  EXPECT_TRUE(failsAt(kRun + "/summary/file-create", "ops_per_s_mean"));
}

TEST_F(Validate, SummaryIterationsChanged) {
  setNumber<std::uint64_t>(valid(), kRun + "/summary/file-stat", "iterations", 3);
  EXPECT_TRUE(failsAt(kRun + "/summary/file-stat", "iterations: expected 2"));
}

TEST_F(Validate, SummaryOfAPhaseMissing) {
  deleteLink(valid(), kRun + "/summary/file-read");
  EXPECT_TRUE(failsAt(kRun + "/summary/file-read", "missing"));
}

TEST_F(Validate, ErrorRowMissingForAFailedRank) {
  deleteLink(valid(), kFileStat1 + "/errors");
  EXPECT_TRUE(failsAt(kFileStat1 + "/errors", "no row for rank 1"));
}

TEST_F(Validate, ErrorRowForARankThatDidNotFail) {
  changeField<std::uint64_t>(valid(), kFileStat1 + "/errors", 0, "rank", 1);  // rank 2
  EXPECT_TRUE(failsAt(kFileStat1 + "/errors", "row 0: rank 2 has no failed operation"));
}

TEST_F(Validate, ErrorRowWithoutErrnoName) {
  setStringField(valid(), kFileStat1 + "/errors", "errno_name", "");
  EXPECT_TRUE(failsAt(kFileStat1 + "/errors", "row 0: errno_name is empty"));
}

TEST_F(Validate, FlagOutOfRangeIsReportedByTheReader) {
  setNumber<std::uint64_t>(valid(), kRun + "/config", "leaf_only", 2);
  EXPECT_TRUE(failsAt(kRun + "/config", "leaf_only"));
}

TEST_F(Validate, FailedStatusWithExitStatusZero) {
  setNumber<std::int32_t>(valid(), kRun, "exit_status", 0);
  EXPECT_TRUE(failsAt(kRun, "exit_status: expected a positive exit status (status failed), found 0"));
}

TEST_F(Validate, CompleteStatusWithExitStatusOne) {
  setNumber<std::int32_t>(valid(Outcome::kComplete), kRun, "exit_status", 1);
  EXPECT_TRUE(failsAt(kRun, "exit_status: expected 0 (status complete), found 1"));
}

TEST_F(Validate, CompleteStatusWithAFailedOperation) {
  valid();
  setString(file_, kRun, "status", "complete");
  setNumber<std::int32_t>(file_, kRun, "exit_status", 0);
  EXPECT_TRUE(failsAt(kRun, "failed operations: expected 0"));
}

TEST_F(Validate, RunningStatusWithAnEndTime) {
  setString(valid(Outcome::kRunning), kRun, "end_utc", "2026-11-30T13:23:09Z");
  EXPECT_TRUE(failsAt(kRun, "end_utc: expected \"\" (status running)"));
}

TEST_F(Validate, StartTimeNotIso) {
  setString(valid(), kRun, "start_utc", "Mon Nov 30 13:23:06 2026");
  EXPECT_TRUE(failsAt(kRun, "start_utc: expected an ISO 8601 UTC time"));
}

TEST_F(Validate, CompleteRunMissingAPhase) {
  deleteLink(valid(Outcome::kComplete), kIter1 + "/file-remove");
  EXPECT_TRUE(failsAt(kIter1 + "/file-remove", "missing: the run is complete"));
}

TEST_F(Validate, PhaseGroupUnderTheWrongName) {
  valid();
  const Id file = openFile(file_);
  ASSERT_GE(H5Lmove(file, (kIter0 + "/file-stat").c_str(), file, (kIter0 + "/dir-stat").c_str(), H5P_DEFAULT,
                    H5P_DEFAULT),
            0);
  EXPECT_TRUE(
      failsAt(kIter0 + "/dir-stat", "(phase file-stat, iteration 0) belong in " + kIter0 + "/file-stat"));
}

TEST_F(Validate, PhaseOrderChanged) {
  setNumber<std::uint64_t>(valid(), kFileCreate0, "order", 4);
  EXPECT_TRUE(failsAt(kFileCreate0, "order: expected 1"));
}

TEST_F(Validate, IterationBeyondTheConfiguredCount) {
  setNumber<std::uint64_t>(valid(), kRun + "/config", "iterations", 1);
  EXPECT_TRUE(failsAt(kIter1 + "/tree-create", "iteration: expected less than config iterations = 1"));
}

// ---- Stonewall, items, new phases and options (schema version 2) ----

TEST_F(Validate, TheFixtureHasAStonewalledPhaseAndTheNewPhases) {
  valid();
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kFileCreate1, "stonewalled"), 1u);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kFileCreate1, "ops_at_stonewall"), 4u);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kFileCreate1, "items"), 2u);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kFileCreate0, "stonewalled"), 0u);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kIter0 + "/file-readdir", "ops_ok"), 3u);  // 3 dirs, 3 ranks
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kIter1 + "/file-rename", "ops_ok"), 6u);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kConfig, "shift_used"), 1u);
}

TEST_F(Validate, StonewalledFlagChanged) {
  setNumber<std::uint64_t>(valid(), kFileCreate1, "stonewalled", 0);
  EXPECT_TRUE(
      failsAt(kFileCreate1, "stonewalled: expected true (some rank has t_stonewall > 0), found false"));
}

TEST_F(Validate, OpsAtStonewallDifferFromTheSum) {
  setNumber<std::uint64_t>(valid(), kFileCreate1, "ops_at_stonewall", 6);
  EXPECT_TRUE(failsAt(kFileCreate1, "ops_at_stonewall: expected 4"));
}

TEST_F(Validate, OpsAtStonewallOfAPhaseThatWasNotStonewalled) {
  setNumber<std::uint64_t>(valid(), kFileCreate0, "ops_at_stonewall", 9);
  EXPECT_TRUE(failsAt(kFileCreate0, "ops_at_stonewall: expected 0"));
}

TEST_F(Validate, StonewallTimeChanged) {
  valid();
  setNumber(file_, kFileCreate1, "stonewall_time_s",
            getNumber<double>(file_, kFileCreate1, "stonewall_time_s") * 2);
  EXPECT_TRUE(failsAt(kFileCreate1, "stonewall_time_s: expected"));
}

TEST_F(Validate, RateAtStonewallChanged) {
  setNumber(valid(), kFileCreate1, "ops_per_s_at_stonewall", 1.0);
  EXPECT_TRUE(failsAt(kFileCreate1, "ops_per_s_at_stonewall: expected"));
}

TEST_F(Validate, RowOpsAtStonewallBeyondItsOps) {
  changeField<std::uint64_t>(valid(), kFileCreate1 + "/ranks", 1, "ops_at_stonewall", 5);
  EXPECT_TRUE(failsAt(kFileCreate1 + "/ranks", "row 1: ops_at_stonewall: expected at most ok = 2"));
}

TEST_F(Validate, RowOpsAtStonewallOfARankThatNeverFired) {
  changeField<std::uint64_t>(valid(), kFileCreate0 + "/ranks", 0, "ops_at_stonewall", ~std::uint64_t{0});
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 0: ops_at_stonewall: expected ok = 3"));
}

TEST_F(Validate, RowFiringOutsideThePhase) {
  changeField<double>(valid(), kFileCreate1 + "/ranks", 2, "t_stonewall", 100.0);
  EXPECT_TRUE(failsAt(kFileCreate1 + "/ranks",
                      "row 2: expected t_stonewall = 0 or t_start <= t_stonewall <= t_local_end"));
}

TEST_F(Validate, TreePhaseWithAFiring) {
  valid();
  changeField<double>(file_, kIter0 + "/tree-create/ranks", 0, "t_stonewall",
                      fieldValue<double>(file_, kIter0 + "/tree-create/ranks", 0, "t_local_end"));
  EXPECT_TRUE(failsAt(kIter0 + "/tree-create/ranks",
                      "row 0: t_stonewall: expected 0 (tree-create has no stonewall)"));
}

TEST_F(Validate, FiringWithoutAStonewallConfigured) {
  valid(Outcome::kRunning);  // iteration 0 only: every phase worked on -n items
  setNumber(file_, kConfig, "stonewall_s", 0.0);
  changeField<double>(file_, kFileCreate0 + "/ranks", 0, "t_stonewall",
                      fieldValue<double>(file_, kFileCreate0 + "/ranks", 0, "t_local_end"));
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 0: t_stonewall: expected 0 (config stonewall_s = 0"));
}

TEST_F(Validate, ItemsOtherThanConfiguredWithoutAStonewall) {
  valid(Outcome::kRunning);
  setNumber(file_, kConfig, "stonewall_s", 0.0);
  setNumber<std::uint64_t>(file_, kFileCreate0, "items", 2);
  EXPECT_TRUE(failsAt(kFileCreate0, "items: expected 3 (config items: no -W"));
}

TEST_F(Validate, MoreItemsThanConfigured) {
  setNumber<std::uint64_t>(valid(), kFileCreate1, "items", 4);
  EXPECT_TRUE(failsAt(kFileCreate1, "items: expected at most config items = 3"));
}

TEST_F(Validate, StatOfMoreItemsThanTheCreateMade) {
  setNumber<std::uint64_t>(valid(), kFileStat1, "items", 3);
  EXPECT_TRUE(failsAt(kFileStat1, "items: expected at most 2 (" + kFileCreate1 + " made that many"));
}

TEST_F(Validate, RemoveOfFewerItemsThanTheCreateMade) {
  setNumber<std::uint64_t>(valid(), kIter1 + "/file-remove", "items", 1);
  EXPECT_TRUE(failsAt(
      kIter1 + "/file-remove",
      "items: expected 2 (" + kFileCreate1 + " made that many; rename and remove work on all of them)"));
}

TEST_F(Validate, PlannedFollowsThePhaseItems) {
  setNumber<std::uint64_t>(valid(), kFileStat1, "items", 1);  // fewer than created: allowed, but planned 2
  EXPECT_TRUE(failsAt(kFileStat1 + "/ranks", "row 0: planned: expected 1"));
}

TEST_F(Validate, ReaddirPlannedDiffersFromThePlan) {
  valid();
  changeField<std::uint64_t>(file_, kIter0 + "/file-readdir/ranks", 2, "planned", 1);
  changeField<std::uint64_t>(file_, kIter0 + "/file-readdir/ranks", 2, "ok", 1);
  EXPECT_TRUE(failsAt(kIter0 + "/file-readdir/ranks", "row 2: planned: expected 1"));
}

TEST_F(Validate, MissingPhaseItems) {
  deleteAttribute(valid(), kIter0 + "/file-rename", "items");
  EXPECT_TRUE(failsAt(kIter0 + "/file-rename", "attribute items missing (expected type uint64)"));
}

TEST_F(Validate, ShiftUsedChanged) {
  setNumber<std::uint64_t>(valid(), kConfig, "shift_used", 2);
  EXPECT_TRUE(failsAt(kConfig, "shift_used: expected 1 (the plan's shift"));
}

// 4 ranks in blocks of 2 per node: -N 1 would stat items of the same node, so the plan shifts by 2.
TEST_F(Validate, NodeAwareShiftPasses) {
  writeRun(file_, Outcome::kComplete, OutputMode::kCreate, RunShape{{"n-a", "n-a", "n-b", "n-b"}});
  const ValidationResult result = validateResultsFile(file_);
  EXPECT_TRUE(result.ok) << result.first_problem;
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kConfig, "shift"), 1u);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kConfig, "shift_used"), 2u);
  setNumber<std::uint64_t>(file_, kConfig, "shift_used", 1);
  EXPECT_TRUE(failsAt(kConfig, "shift_used: expected 2"));
}

TEST_F(Validate, ConfigAttributeOfWrongType) {
  const std::uint32_t seconds = 30;
  replaceAttribute(valid(), kConfig, "stonewall_s", H5T_STD_U32LE, H5T_NATIVE_UINT32, &seconds);
  EXPECT_TRUE(failsAt(kConfig, "attribute stonewall_s: expected type float64, found uint32"));
}

TEST_F(Validate, PresetNotAllowed) {
  setString(valid(), kConfig, "preset", "io500-medium");
  EXPECT_TRUE(
      failsAt(kConfig, "attribute preset: expected one of |io500-easy|io500-hard, found \"io500-medium\""));
}

TEST_F(Validate, NewFlagOutOfRangeIsReportedByTheReader) {
  setNumber<std::uint64_t>(valid(), kConfig, "verify_read", 2);
  EXPECT_TRUE(failsAt(kConfig, "attribute 'verify_read' is 2, expected 0 or 1"));
}

TEST_F(Validate, NegativeStonewall) {
  setNumber(valid(), kConfig, "stonewall_s", -1.0);
  EXPECT_TRUE(failsAt(kConfig, "invalid configuration: -W/--stonewall: -1"));
}

TEST_F(Validate, SeveralTargetsInASharedTree) {
  setString(valid(), kConfig, "targets", "/scratch/a@/scratch/b");  // read back as two targets
  EXPECT_TRUE(failsAt(kConfig, "a shared tree cannot span several directories"));
}

TEST_F(Validate, SummaryPhaseNameNotAllowed) {
  setString(valid(), kRun + "/summary/file-rename", "phase", "file-move");
  EXPECT_TRUE(failsAt(kRun + "/summary/file-rename", "attribute phase: expected one of"));
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
  for (const Phase phase : kAllPhases) names.emplace_back(phaseName(phase));
  int lists = 0;
  for (const nlohmann::json& object : schema.at("objects")) {
    for (const nlohmann::json& attribute : object.value("attributes", nlohmann::json::array())) {
      if (attribute.at("name") != "phase") continue;
      EXPECT_EQ(attribute.at("one_of").get<std::vector<std::string>>(), names) << object.at("path");
      ++lists;
    }
  }
  EXPECT_EQ(lists, 2);  // the phase groups and the summary groups
}

}  // namespace
}  // namespace mdbench
