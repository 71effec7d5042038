// Shared by the validator's tests: a hand-made 3-rank, 2-iteration run written through Hdf5Sink, helpers that
// damage a copy with the HDF5 C API, and the `Validate` fixture that checks where the validator says the
// damage is.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "mdbench/config/config.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/result.hpp"
#include "mdbench/model/stats.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"

namespace mdbench::validate_test {

namespace fs = std::filesystem;

inline const std::string kRun = "/runs/run-0000";
inline const std::string kConfig = kRun + "/config";
inline const std::string kIter0 = kRun + "/iterations/iter-0000";
inline const std::string kIter1 = kRun + "/iterations/iter-0001";
inline const std::string kFileCreate0 = kIter0 + "/file-create";
inline const std::string kFileCreate1 = kIter1 + "/file-create";  // stonewalled: 2 of the 3 items
inline const std::string kFileStat1 = kIter1 + "/file-stat";      // rank 1 fails one stat here (failed runs)
inline const std::string kCounts0 = kFileCreate0 + "/ops_per_interval";        // [3][4], 1 ms intervals
inline const std::string kTotals0 = kFileCreate0 + "/ops_per_interval_total";  // {3, 3, 2, 1}

// ---- Writing a run as the runner would ----

enum class Outcome : std::uint8_t {
  kFailed,     // rank 1 fails one stat in iteration 1; exit 1
  kComplete,   // every op succeeds; exit 0
  kRunning,    // killed after iteration 0's first three phases: no end(), no finish()
  kStatsFail,  // every stat of iteration 0 fails (no op succeeds in that phase: an empty series); exit 1
  kStopped,    // a stop request cuts iteration 0's file-stat short (one op per rank), then the job is
               // killed (Hydra's SIGKILL): no end(), no finish()
};

// Files only in a shared tree, every phase (the default's, --file-rename's and readdir), rank shift 1, and a
// stonewall.
inline const std::vector<std::string> kArgs = {"-n", "3", "-i", "2",  "-F",           "-z", "1",
                                               "-b", "2", "-w", "64", "-e",           "64", "--readdir",
                                               "-N", "1", "-W", "30", "--file-rename"};
inline constexpr std::string_view kCommandLine =
    "mdbench -n 3 -i 2 -F -z 1 -b 2 -w 64 -e 64 --readdir -N 1 -W 30 --file-rename";

// The stonewall fires in iteration 1's file-create after these many ops on ranks 0, 1, 2 (3 ranks), and
// every rank wears out to the largest: the file phases of iteration 1 work on 2 items.
inline constexpr std::uint64_t kOpsAtStonewall[] = {2, 1, 1};
inline constexpr std::uint64_t kStonewalledItems = 2;

// Ops take 0.4 to 1.4 ms here: intervals of 1 ms (the smallest --series-interval) give every phase of more
// than a few ops several of them.
inline constexpr std::int64_t kIntervalNs = 1000000;

inline Config runConfig() {
  CliRequest request = parseCommandLine(kArgs);
  EXPECT_TRUE(request.errors.empty()) << request.errors.front();
  request.config.command_line = kCommandLine;
  request.config.series_interval_s = static_cast<double>(kIntervalNs) * 1e-9;
  return request.config;
}

// The run's shape: its hosts (3 ranks on 2 nodes unless a test says otherwise).
struct RunShape {
  std::vector<std::string> hosts = {"node-a", "node-a", "node-b"};
};

inline RunInfo runInfo(const RunShape& shape) {
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

inline bool stonewalled(std::uint32_t iteration, Phase phase) {
  return iteration == 1 && phase == Phase::kFileCreate;
}

// Counts each rank's successful ops by the kIntervalNs interval they completed in (`done_ns`: every rank's
// completion times since its start), as the runner's series does: as many intervals as the slowest rank's
// last op needs, the others' rows padded with zeros.
inline OpsSeries seriesOf(const std::vector<std::vector<std::int64_t>>& done_ns) {
  OpsSeries s;
  s.interval_s = static_cast<double>(kIntervalNs) * 1e-9;
  std::int64_t last = -1;
  for (const auto& rank : done_ns) {
    if (!rank.empty()) last = std::max(last, rank.back());
  }
  s.intervals = last < 0 ? 0 : static_cast<std::uint32_t>(last / kIntervalNs + 1);
  s.per_rank.assign(done_ns.size() * s.intervals, 0);
  s.total.assign(s.intervals, 0);
  for (std::size_t r = 0; r < done_ns.size(); ++r) {
    for (const std::int64_t ns : done_ns[r]) {
      const auto k = static_cast<std::size_t>(ns / kIntervalNs);
      ++s.per_rank[r * s.intervals + k];
      ++s.total[k];
    }
  }
  return s;
}

// One phase on every rank, with realistic times and latencies (a slow file system's: 0.4 ms and more): rank r
// is (r + 1) times slower than rank 0.
inline PhaseResult measure(const Plan& run_plan, std::uint32_t iteration, Phase phase, double t0,
                           Outcome outcome) {
  PhaseResult result;
  result.iteration = iteration;
  result.phase = phase;
  result.items = iteration == 1 && !isTreePhase(phase) ? kStonewalledItems : run_plan.config().items;
  const Plan plan = run_plan.withItems(result.items);
  double t_end = t0;
  std::vector<std::vector<std::int64_t>> done_ns(plan.ranks());
  for (std::uint32_t rank = 0; rank < plan.ranks(); ++rank) {
    RankPhaseRecord r;
    r.planned = plan.plannedOps(phase, rank);
    // The runner records a stopped rank as having planned what it did.
    if (outcome == Outcome::kStopped && iteration == 0 && phase == Phase::kFileStat)
      r.planned = std::min<std::uint64_t>(r.planned, 1);
    r.ok = r.planned;
    if (outcome == Outcome::kFailed && iteration == 1 && phase == Phase::kFileStat && rank == 1) {
      r.ok -= 1;
      r.failed = 1;
      r.first_error = FirstError{ENOENT, plan.owner(phase, rank), 1, 1};  // item 1 of 2 lives in directory 1
    }
    if (outcome == Outcome::kStatsFail && iteration == 0 && phase == Phase::kFileStat) {
      r.failed = r.ok;
      r.ok = 0;
      r.first_error = FirstError{ENOENT, plan.owner(phase, rank), 0, 0};
    }
    if (phase == Phase::kFileCreate) r.bytes = r.ok * plan.config().write_bytes;
    if (phase == Phase::kFileRead) r.bytes = r.ok * plan.config().read_bytes;
    r.ops_at_stonewall = stonewalled(iteration, phase) ? kOpsAtStonewall[rank % 3] : r.ok;
    r.t_start = t0 + 1e-4 * rank;
    r.t_local_end = r.t_start;
    std::int64_t elapsed_ns = 0;
    for (std::uint64_t op = 0; op < r.planned; ++op) {
      const std::uint64_t ns = 20 * (20000 * (rank + 1) + 1337 * op + 5000 * iteration);
      r.t_local_end += static_cast<double>(ns) * 1e-9;
      elapsed_ns += static_cast<std::int64_t>(ns);
      if (op < r.ok) {
        result.latency.add(ns);
        done_ns[rank].push_back(elapsed_ns);
      }
      if (stonewalled(iteration, phase) && op + 1 == r.ops_at_stonewall) r.t_stonewall = r.t_local_end;
    }
    t_end = std::max(t_end, r.t_local_end);
    result.ranks.push_back(r);
  }
  for (RankPhaseRecord& r : result.ranks) r.t_global_end = t_end + 2e-4;
  result.series = seriesOf(done_ns);
  return result;
}

// Writes a whole run through Hdf5Sink into `path`.
inline void writeRun(const std::string& path, Outcome outcome, OutputMode mode = OutputMode::kCreate,
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
      if (outcome == Outcome::kStopped && phase == Phase::kFileStat) return;  // stopped, then killed
      t = run.phases.back().ranks[0].t_global_end + 1e-3;
    }
  }
  run.info.end_utc = "2026-11-30T13:23:09Z";
  sink->end(run, plan);
  sink->finish(outcome == Outcome::kComplete ? 0 : 1);
}

// ---- A steady run (--steady), as the runner would write it ----

inline const std::string kSteady0 = kIter0 + "/steady";
inline const std::string kSteady1 = kIter1 + "/steady";
inline const std::string kMix0 = kSteady0 + "/mix";
inline const std::string kMix1 = kSteady1 + "/mix";  // rank 1 fails one stat here (failed runs)
inline const std::string kPrecreate0 = kSteady0 + "/precreate";
inline const std::string kCleanup0 = kSteady0 + "/cleanup";

// 4 objects per rank in 2 datasets (2 per dataset), 3 rounds, 2 iterations, 64-byte objects.
inline const std::vector<std::string> kSteadyArgs = {"--steady", "3",  "--datasets", "2",  "-n",
                                                     "4",        "-i", "2",          "-w", "64"};
inline constexpr std::string_view kSteadyCommandLine = "mdbench --steady 3 --datasets 2 -n 4 -i 2 -w 64";
inline constexpr std::uint64_t kSteadyRounds = 3;
inline constexpr std::uint64_t kSteadyDatasets = 2;
inline constexpr std::uint64_t kSteadyItems = 4;
inline constexpr std::uint64_t kSteadyBytes = 64;

inline Config steadyConfig() {
  CliRequest request = parseCommandLine(kSteadyArgs);
  EXPECT_TRUE(request.errors.empty()) << request.errors.front();
  request.config.command_line = kSteadyCommandLine;
  return request.config;
}

// One rank's record of a phase that did `ok[op]` ops of each type, each taking 1 us + 100 ns x rank,
// starting at `t0`; its latencies go into `latency`.
inline RankPhaseRecord steadyRecord(std::uint32_t rank, double t0,
                                    const std::array<std::uint64_t, kOpKindCount>& ok,
                                    std::vector<LatencyHistogram>& latency) {
  RankPhaseRecord r;
  std::uint64_t ops = 0;
  for (std::size_t op = 0; op < kOpKindCount; ++op) {
    r.kinds[op].ok = ok[op];
    for (std::uint64_t i = 0; i < ok[op]; ++i) latency[op].add(1000 + 100 * rank + i);
    ops += ok[op];
  }
  const auto at = [](OpKind op) { return opKindIndex(op); };
  r.bytes = (ok[at(OpKind::kCreate)] + ok[at(OpKind::kRead)]) * kSteadyBytes;
  r.t_start = t0;
  r.t_local_end = t0 + static_cast<double>(ops) * (1e-6 + 1e-7 * rank);
  r.t_global_end = t0 + 1e-3;
  sumKinds(r);
  return r;
}

// The three phases of one iteration on `ranks` ranks, every op succeeding; with `stat_fails`, rank 1's
// first stat of the mix fails (ENOENT), which skips that object's read, delete and create.
inline SteadyResult steadyResult(std::uint32_t iteration, std::uint32_t ranks, double t0, bool stat_fails) {
  SteadyResult result;
  result.rounds = kSteadyRounds;
  const auto at = [](OpKind op) { return opKindIndex(op); };
  for (std::size_t i = 0; i < kSteadyPhaseCount; ++i) {
    PhaseResult phase;
    phase.iteration = iteration;
    phase.phase = kSteadyPhases[i];
    phase.items = phase.phase == Phase::kSteadyMix ? kSteadyRounds : 0;
    phase.kind_latency.resize(kOpKindCount);
    for (std::uint32_t rank = 0; rank < ranks; ++rank) {
      std::array<std::uint64_t, kOpKindCount> ok{};
      switch (phase.phase) {
        case Phase::kSteadyPrecreate:
          ok[at(OpKind::kMkdir)] = kSteadyDatasets;
          ok[at(OpKind::kCreate)] = kSteadyItems;
          break;
        case Phase::kSteadyMix:
          for (const OpKind op : opKindsOf(Phase::kSteadyMix)) ok[at(op)] = kSteadyRounds * kSteadyDatasets;
          if (stat_fails && rank == 1) {
            for (const OpKind op : opKindsOf(Phase::kSteadyMix)) ok[at(op)] -= 1;
          }
          break;
        case Phase::kSteadyCleanup:
          ok[at(OpKind::kDelete)] = kSteadyItems;
          ok[at(OpKind::kRmdir)] = kSteadyDatasets;
          break;
        default:
          break;
      }
      RankPhaseRecord r = steadyRecord(rank, t0, ok, phase.kind_latency);
      if (phase.phase == Phase::kSteadyMix) {
        r.rounds = kSteadyRounds;
        r.ops_at_stonewall = kSteadyRounds;
        if (stat_fails && rank == 1) {
          r.kinds[at(OpKind::kStat)].failed = 1;
          sumKinds(r);
          r.first_error = FirstError{ENOENT, 0, 1, 0};
          r.first_error_kind = OpKind::kStat;
        }
      }
      phase.ranks.push_back(r);
    }
    // Every op type's successes per interval (schema version 10), at the times steadyRecord gives them.
    std::vector<std::vector<std::int64_t>> done_ns(ranks);
    for (std::uint32_t rank = 0; rank < ranks; ++rank) {
      const std::uint64_t ok = phase.ranks[rank].ok;
      for (std::uint64_t i = 1; i <= ok; ++i)
        done_ns[rank].push_back(static_cast<std::int64_t>(i * (1000 + 100 * rank)));
    }
    for (const LatencyHistogram& h : phase.kind_latency) phase.latency += h;
    phase.series = seriesOf(done_ns);
    // The mix had a fault (--fault-at 0) and a stall of 10 us, 5 us into it (rank 0's t_start is t0).
    if (phase.phase == Phase::kSteadyMix) {
      phase.stall = PhaseStall{true, 1e-5, t0 + 5e-6, t0 + 1.5e-5, 1e-6};
      FaultRecord fault;
      fault.command = "true";
      fault.injected = true;
      fault.t_start = 2e-6;
      fault.exit_status = 0;
      phase.faults.push_back(fault);
    }
    t0 += 2e-3;
    result.phases.push_back(std::move(phase));
  }
  return result;
}

// Writes a whole steady run through Hdf5Sink: kComplete, or kFailed (rank 1's stat in iteration 1).
inline void writeSteadyRun(const std::string& path, Outcome outcome, const RunShape& shape = {}) {
  const Config config = steadyConfig();
  const Plan plan(config, nodeLayout(shape.hosts).node_of_rank);
  RunResult run;
  run.info = runInfo(shape);
  run.info.command_line = kSteadyCommandLine;
  run.config = config;
  bool exists_error = false;
  std::unique_ptr<Hdf5Sink> sink = Hdf5Sink::open(path, OutputMode::kCreate, exists_error);
  sink->begin(run.info, plan);
  for (std::uint32_t iteration = 0; iteration < config.iterations; ++iteration) {
    const bool fails = outcome == Outcome::kFailed && iteration == 1;
    for (const PhaseResult& p : steadyResult(iteration, run.info.ranks, 1.0 + iteration, fails).phases)
      sink->phase(p, plan);
  }
  run.info.end_utc = "2026-11-30T13:23:09Z";
  sink->end(run, plan);
  sink->finish(outcome == Outcome::kComplete ? 0 : 1);
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

inline Id openFile(const std::string& path) { return Id(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)); }
inline Id openObject(hid_t file, const std::string& object) {
  return Id(H5Oopen(file, object.c_str(), H5P_DEFAULT));
}

inline Id vlenString() {
  Id type(H5Tcopy(H5T_C_S1));
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  return type;
}

inline void deleteAttribute(const std::string& path, const std::string& object, const std::string& name) {
  const Id file = openFile(path);
  ASSERT_GE(H5Adelete_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT), 0);
}

// Replaces an attribute by a scalar of `file_type` holding *value (in `memory_type`).
inline void replaceAttribute(const std::string& path, const std::string& object, const std::string& name,
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

inline void setString(const std::string& path, const std::string& object, const std::string& name,
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

inline void deleteLink(const std::string& path, const std::string& object) {
  const Id file = openFile(path);
  ASSERT_GE(H5Ldelete(file, object.c_str(), H5P_DEFAULT), 0);
}

// Replaces an object by a fresh 1-D dataset of `type` and `length` (zero-filled).
inline void replaceByDataset(const std::string& path, const std::string& object, hid_t type, hsize_t length) {
  const Id file = openFile(path);
  if (H5Lexists(file, object.c_str(), H5P_DEFAULT) > 0) {
    ASSERT_GE(H5Ldelete(file, object.c_str(), H5P_DEFAULT), 0);
  }
  const Id space(H5Screate_simple(1, &length, nullptr));
  const Id dataset(H5Dcreate2(file, object.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
}

// Replaces an object by a fresh 2-D dataset of `type`, rows x cols (zero-filled).
inline void replaceByMatrix(const std::string& path, const std::string& object, hid_t type, hsize_t rows,
                            hsize_t cols) {
  const Id file = openFile(path);
  if (H5Lexists(file, object.c_str(), H5P_DEFAULT) > 0) {
    ASSERT_GE(H5Ldelete(file, object.c_str(), H5P_DEFAULT), 0);
  }
  const hsize_t dims[2] = {rows, cols};
  const Id space(H5Screate_simple(2, dims, nullptr));
  const Id dataset(H5Dcreate2(file, object.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
}

// Adds 1 to element `index` of a 1-D integer dataset.
inline void bumpElement(const std::string& path, const std::string& object, std::size_t index) {
  const Id file = openFile(path);
  const Id dataset(H5Dopen2(file, object.c_str(), H5P_DEFAULT));
  const Id space(H5Dget_space(dataset));
  std::vector<std::uint64_t> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  ASSERT_GE(H5Dread(dataset, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  values.at(index) += 1;
  ASSERT_GE(H5Dwrite(dataset, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
}

// Adds `delta` to element `index` (row-major) of an integer dataset of any shape.
inline void addToElement(const std::string& path, const std::string& object, std::size_t index,
                         std::int64_t delta) {
  const Id file = openFile(path);
  const Id dataset(H5Dopen2(file, object.c_str(), H5P_DEFAULT));
  const Id space(H5Dget_space(dataset));
  std::vector<std::int64_t> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  ASSERT_GE(H5Dread(dataset, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  values.at(index) += delta;
  ASSERT_GE(H5Dwrite(dataset, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
}

// The shape of a dataset.
inline std::vector<hsize_t> shapeOf(const std::string& path, const std::string& object) {
  const Id file = openFile(path);
  const Id dataset(H5Dopen2(file, object.c_str(), H5P_DEFAULT));
  const Id space(H5Dget_space(dataset));
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(0, H5Sget_simple_extent_ndims(space))));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  return dims;
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
inline void setStringField(const std::string& path, const std::string& object, const std::string& field,
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

  // A steady run, checked to pass as written.
  const std::string& validSteady(Outcome outcome = Outcome::kFailed) {
    writeSteadyRun(file_, outcome);
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

}  // namespace mdbench::validate_test
