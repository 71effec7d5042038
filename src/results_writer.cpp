// The HDF5 results writer (results-schema/README.md): one run group per run, written by rank 0 alone with
// the default driver and flushed after every sink call, so a killed job leaves every finished phase.
// Each call writes O(ranks) values; no per-op data ever reaches this file.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "h5.hpp"
#include "mdbench/errno_name.hpp"
#include "mdbench/metrics.hpp"
#include "mdbench/plan.hpp"
#include "mdbench/results_file.hpp"
#include "mdbench/stats.hpp"
#include "results_files.hpp"
#include "results_layout.hpp"

namespace mdbench {
namespace results {

bool pathExists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::symlink_status(path, ec));
}

h5::Handle createFile(const std::string& path, unsigned flags) {
  const h5::Handle fapl = h5::fileAccess();
  const hid_t file = H5Fcreate(path.c_str(), flags, H5P_DEFAULT, fapl.get());
  if (file < 0) {
    const std::string detail = h5::errorDetail();
    throw ResultsFileError(fmt::format("cannot create {}{}{}", path, detail.empty() ? "" : ": ", detail));
  }
  h5::Handle handle(file);
  h5::writeAttribute(handle.get(), "schema", kSchemaName);
  h5::writeAttribute(handle.get(), "schema_version", kSchemaVersion);
  h5::createGroup(handle.get(), results::kRunsGroup);
  h5::flush(handle.get());
  return handle;
}

namespace {
h5::Handle openFile(const std::string& path, unsigned flags) {
  const h5::Handle fapl = h5::fileAccess();
  const hid_t file = H5Fopen(path.c_str(), flags, fapl.get());
  if (file < 0) {
    const std::string detail = h5::errorDetail();
    throw ResultsFileError(fmt::format("cannot open {}{}{}", path, detail.empty() ? "" : ": ", detail));
  }
  return h5::Handle(file);
}
}  // namespace

// Opens an existing results file for appending. Checks it read-only first, so that a file that is not
// ours is never opened for writing (which can rewrite its superblock).
h5::Handle openForAppend(const std::string& path) {
  if (std::filesystem::is_directory(path)) throw ResultsFileError(fmt::format("{} is a directory", path));
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    throw ResultsFileError(
        fmt::format("{} is not an mdbench results file (not an HDF5 file): cannot append to it", path));
  }
  {
    const h5::Handle file = openFile(path, H5F_ACC_RDONLY);
    const std::string problem = results::rootProblem(file.get(), path, "writes");
    if (!problem.empty()) throw ResultsFileError(fmt::format("{}: cannot append to it", problem));
  }
  return openFile(path, H5F_ACC_RDWR);
}

}  // namespace results

namespace {
using results::createFile;
using results::openForAppend;
using results::pathExists;

// Runs `body` with HDF5's error printing off, adding the file name to h5::Error messages (object-level
// problems and misuse); messages that name the file already pass through unchanged.
template <class Body>
void inFile(const std::string& path, Body&& body) {
  const h5::QuietErrors quiet;
  try {
    body();
  } catch (const h5::Error& e) {
    throw ResultsFileError(fmt::format("{}: {}", path, e.what()));
  }
}

// The first free run group name; normally run-<number of runs so far>.
std::string nextRunName(hid_t file) {
  const h5::Handle runs = h5::openGroup(file, results::kRunsGroup);
  auto index = static_cast<std::uint32_t>(h5::childNames(runs.get()).size());
  while (h5::exists(runs.get(), runGroupName(index))) ++index;
  return runGroupName(index);
}

std::uint8_t flag(bool value) { return value ? 1 : 0; }

// Every resolved option, and the rank shift the plan settled on (-N can be raised on several nodes).
void writeConfig(hid_t group, const Plan& plan) {
  const Config& c = plan.config();
  h5::writeAttribute(group, "items", c.items);
  h5::writeAttribute(group, "target", c.target);
  h5::writeAttribute(group, "targets", results::joinTargets(c.targets));
  h5::writeAttribute(group, "sharing", results::sharingName(c.sharing));
  h5::writeAttribute(group, "depth", c.depth);
  h5::writeAttribute(group, "branching", c.branching);
  h5::writeAttribute(group, "items_per_dir", c.items_per_dir);
  h5::writeAttribute(group, "leaf_only", flag(c.leaf_only));
  h5::writeAttribute(group, "kinds", results::kindsName(c.kinds));
  h5::writeAttribute(group, "phase_create", flag(c.phases.create));
  h5::writeAttribute(group, "phase_stat", flag(c.phases.stat));
  h5::writeAttribute(group, "phase_read", flag(c.phases.read));
  h5::writeAttribute(group, "phase_remove", flag(c.phases.remove));
  h5::writeAttribute(group, "phase_rename", flag(c.phases.rename));
  h5::writeAttribute(group, "phase_readdir", flag(c.phases.readdir));
  h5::writeAttribute(group, "iterations", c.iterations);
  h5::writeAttribute(group, "write_bytes", c.write_bytes);
  h5::writeAttribute(group, "read_bytes", c.read_bytes);
  h5::writeAttribute(group, "keep", flag(c.keep));
  h5::writeAttribute(group, "shift", c.shift);
  h5::writeAttribute(group, "shift_used", plan.shift());
  h5::writeAttribute(group, "random_order", flag(c.random_order));
  h5::writeAttribute(group, "random_seed", c.random_seed);
  h5::writeAttribute(group, "stonewall_s", c.stonewall_s);
  h5::writeAttribute(group, "stonewall_file", c.stonewall_file);
  h5::writeAttribute(group, "renamed", flag(c.renamed));
  h5::writeAttribute(group, "fsync_writes", flag(c.fsync_writes));
  h5::writeAttribute(group, "sync_phases", flag(c.sync_phases));
  h5::writeAttribute(group, "verify_read", flag(c.verify_read));
  h5::writeAttribute(group, "shared_files", flag(c.shared_files));
  h5::writeAttribute(group, "pre_delay_s", c.pre_delay_s);
  h5::writeAttribute(group, "preset", c.preset);
}

void writeRunAttributes(hid_t run, const RunInfo& info, const NodeLayout& layout) {
  h5::writeAttribute(run, "mdbench_version", info.version);
  h5::writeAttribute(run, "git_commit", info.git_commit);
  h5::writeAttribute(run, "command_line", info.command_line);
  h5::writeAttribute(run, "start_utc", info.start_utc);
  h5::writeAttribute(run, "end_utc", "");
  h5::writeAttribute(run, "status", "running");
  h5::writeAttribute(run, "exit_status", std::int32_t{-1});
  h5::writeAttribute(run, "ranks", info.ranks);
  h5::writeAttribute(run, "nodes", layout.nodes);
  h5::writeAttribute(run, "ranks_per_node_min", layout.ranks_per_node_min);
  h5::writeAttribute(run, "ranks_per_node_max", layout.ranks_per_node_max);
  h5::writeAttribute(run, "scheduler", info.scheduler);
  h5::writeAttribute(run, "job_id", info.job_id);
  h5::writeAttribute(run, "job_name", info.job_name);
  h5::writeAttribute(run, "mpi_library", info.mpi_library);
  h5::writeAttribute(run, "hdf5_version", info.hdf5_version);
  h5::writeAttribute(run, "target", info.target);
  h5::writeAttribute(run, "fs_type", info.fs_type);
  h5::writeAttribute(run, "fs_total_bytes", info.fs_total_bytes);
  h5::writeAttribute(run, "fs_free_bytes", info.fs_free_bytes);
  h5::writeAttribute(run, "fs_total_inodes", info.fs_total_inodes);
  h5::writeAttribute(run, "fs_free_inodes", info.fs_free_inodes);
  // Version 3: the sweep. Outside a sweep: step 0, placement "none", and the job is the run's ranks.
  h5::writeAttribute(run, "job_ranks", info.sweep.job_ranks == 0 ? info.ranks : info.sweep.job_ranks);
  h5::writeAttribute(run, "sweep_step", info.sweep.step);
  h5::writeAttribute(run, "sweep_placement", sweepPlacementName(info.sweep.placement));
}

void writeBucketBounds(hid_t run) {
  std::vector<std::uint64_t> low(LatencyHistogram::kBuckets), high(LatencyHistogram::kBuckets);
  for (std::size_t b = 0; b < LatencyHistogram::kBuckets; ++b) {
    low[b] = LatencyHistogram::bucketLow(b);
    high[b] = LatencyHistogram::bucketHigh(b);
  }
  h5::writeVector(run, "latency_bucket_low", low);
  h5::writeVector(run, "latency_bucket_high", high);
}

void writeAggregate(hid_t group, const PhaseAggregate& a, const LatencySummary& l) {
  h5::writeAttribute(group, "ops_ok", a.ok);
  h5::writeAttribute(group, "ops_failed", a.failed);
  h5::writeAttribute(group, "bytes", a.bytes);
  h5::writeAttribute(group, "time_s", a.time_s);
  h5::writeAttribute(group, "ops_per_s", a.ops_per_s);
  h5::writeAttribute(group, "rate_formula", results::kRateFormula);
  h5::writeAttribute(group, "active_ranks", a.active_ranks);
  h5::writeAttribute(group, "rank_rate_min", a.rank_rate_min);
  h5::writeAttribute(group, "rank_rate_max", a.rank_rate_max);
  h5::writeAttribute(group, "rank_rate_mean", a.rank_rate_mean);
  h5::writeAttribute(group, "balance", a.balance);
  h5::writeAttribute(group, "stonewalled", flag(a.stonewalled));
  h5::writeAttribute(group, "ops_at_stonewall", a.ops_at_stonewall);
  h5::writeAttribute(group, "stonewall_time_s", a.stonewall_time_s);
  h5::writeAttribute(group, "ops_per_s_at_stonewall", a.ops_per_s_at_stonewall);
  h5::writeAttribute(group, "latency_p50_ns", l.p50_ns);
  h5::writeAttribute(group, "latency_p90_ns", l.p90_ns);
  h5::writeAttribute(group, "latency_p99_ns", l.p99_ns);
  h5::writeAttribute(group, "latency_p999_ns", l.p999_ns);
  h5::writeAttribute(group, "latency_max_ns", l.max_ns);
}

}  // namespace

struct Hdf5Sink::Impl {
  // Declared first so that it is closed last, after every object opened in it.
  h5::Handle file;
  std::string path;
  std::string run_name;  // of the run begin() writes next (or is writing)
  h5::Handle run;        // open from begin() to finish()
  h5::Handle iterations;
  std::vector<std::uint32_t> node_of_rank;
  std::vector<std::string> targets;  // RunInfo::target split at '@': rank r's error paths start with its own

  void requireRun(std::string_view call) const {
    if (!run.valid()) throw h5::Error(fmt::format("Hdf5Sink::{} called before begin()", call));
  }

  void begin(const RunInfo& info, const Plan& plan) {
    if (run.valid()) throw h5::Error("Hdf5Sink::begin called twice");
    if (!file.valid()) {
      // After finish(): another run (the next sweep step) goes into the same file, in the next group.
      file = openForAppend(path);
      run_name = nextRunName(file.get());
    }
    std::vector<std::string> hosts = info.host_of_rank;
    if (hosts.empty()) hosts.assign(info.ranks, std::string(results::kUnknownHost));
    if (hosts.size() != info.ranks) {
      throw h5::Error(fmt::format("Hdf5Sink::begin: {} host names for {} ranks", hosts.size(), info.ranks));
    }
    const NodeLayout layout = nodeLayout(hosts);
    const h5::Handle runs = h5::openGroup(file.get(), results::kRunsGroup);
    run = h5::createGroup(runs.get(), run_name);
    writeRunAttributes(run.get(), info, layout);
    h5::writeStrings(run.get(), "hosts", hosts);
    h5::writeVector(run.get(), "node_of_rank", layout.node_of_rank);
    writeBucketBounds(run.get());
    writeConfig(h5::createGroup(run.get(), "config").get(), plan);
    iterations = h5::createGroup(run.get(), "iterations");
    node_of_rank = layout.node_of_rank;
    targets = results::splitTargets(info.target);
    h5::flush(file.get());
  }

  h5::Handle iterationGroup(std::uint32_t iteration) {
    const std::string name = results::iterationGroupName(iteration);
    if (h5::exists(iterations.get(), name)) return h5::openGroup(iterations.get(), name);
    h5::Handle group = h5::createGroup(iterations.get(), name);
    h5::writeAttribute(group.get(), "iteration", iteration);
    return group;
  }

  void writeRanks(hid_t group, const PhaseResult& result) const {
    std::vector<StoredRankRow> rows;
    rows.reserve(result.ranks.size());
    for (std::uint32_t rank = 0; rank < result.ranks.size(); ++rank) {
      const RankPhaseRecord& r = result.ranks[rank];
      rows.push_back({rank, node_of_rank[rank], r.planned, r.ok, r.failed, r.bytes, r.t_start, r.t_local_end,
                      r.t_global_end, rankRate(r), r.ops_at_stonewall, r.t_stonewall});
    }
    h5::writeCompound<StoredRankRow>(group, "ranks", results::kRankFields, rows);
  }

  // The directory `rank` worked in: targets[rank mod the number of targets] (-d A@B@C).
  std::string targetOf(std::uint32_t rank, const Plan& plan) const {
    if (targets.empty()) return "";
    return targets.size() == 1 ? targets.front() : targets[plan.targetOf(rank) % targets.size()];
  }

  void writeErrors(hid_t group, const PhaseResult& result, const Plan& plan) const {
    std::vector<std::uint32_t> failed_ranks;
    for (std::uint32_t rank = 0; rank < result.ranks.size(); ++rank) {
      if (result.ranks[rank].first_error.any()) failed_ranks.push_back(rank);
    }
    if (failed_ranks.empty()) return;
    // The strings must outlive the rows pointing into them.
    std::vector<std::string> names, paths;
    for (const std::uint32_t rank : failed_ranks) {
      const FirstError& e = result.ranks[rank].first_error;
      names.push_back(errnoName(e.err));
      paths.push_back(targetOf(rank, plan) + "/" + errorPath(plan, result.iteration, result.phase, e));
    }
    std::vector<results::ErrorRow> rows;
    for (std::size_t i = 0; i < failed_ranks.size(); ++i) {
      const std::uint32_t rank = failed_ranks[i];
      rows.push_back({rank, result.ranks[rank].first_error.err, names[i].c_str(), paths[i].c_str()});
    }
    h5::writeCompound<results::ErrorRow>(group, "errors", results::kErrorFields, rows);
  }

  void phase(const PhaseResult& result, const Plan& plan) {
    requireRun("phase");
    const std::string name(phaseName(result.phase));
    if (result.ranks.size() != node_of_rank.size()) {
      throw h5::Error(fmt::format("Hdf5Sink::phase: {} has {} rank records for a run of {} ranks", name,
                                  result.ranks.size(), node_of_rank.size()));
    }
    const auto position = std::find(plan.phases().begin(), plan.phases().end(), result.phase);
    if (position == plan.phases().end()) {
      throw h5::Error(fmt::format("Hdf5Sink::phase: {} is not a phase of the plan", name));
    }
    const h5::Handle iteration = iterationGroup(result.iteration);
    if (h5::exists(iteration.get(), name)) {
      throw h5::Error(fmt::format("Hdf5Sink::phase: {} already holds {}", h5::pathOf(iteration.get()), name));
    }
    const h5::Handle group = h5::createGroup(iteration.get(), name);
    h5::writeAttribute(group.get(), "phase", name);
    h5::writeAttribute(group.get(), "iteration", result.iteration);
    h5::writeAttribute(group.get(), "order", static_cast<std::uint32_t>(position - plan.phases().begin()));
    h5::writeAttribute(group.get(), "items", result.items);
    writeAggregate(group.get(), aggregate(result.ranks), latencySummary(result.latency));
    writeRanks(group.get(), result);
    h5::writeVector(group.get(), "latency", result.latency.counts());
    writeErrors(group.get(), result, plan);
    h5::flush(file.get());
  }

  void end(const RunResult& result, const Plan& plan) {
    requireRun("end");
    const h5::Handle summary = h5::createGroup(run.get(), "summary");
    for (const Phase phase : plan.phases()) {
      std::vector<double> ops_per_s;
      for (const PhaseResult& p : result.phases) {
        if (p.phase == phase) ops_per_s.push_back(aggregate(p.ranks).ops_per_s);
      }
      if (ops_per_s.empty()) continue;
      const IterationSummary s = summarize(ops_per_s);
      const std::string name(phaseName(phase));
      const h5::Handle group = h5::createGroup(summary.get(), name);
      h5::writeAttribute(group.get(), "phase", name);
      h5::writeAttribute(group.get(), "iterations", s.iterations);
      h5::writeAttribute(group.get(), "ops_per_s_max", s.max);
      h5::writeAttribute(group.get(), "ops_per_s_min", s.min);
      h5::writeAttribute(group.get(), "ops_per_s_mean", s.mean);
      h5::writeAttribute(group.get(), "ops_per_s_stddev", s.stddev);
    }
    h5::writeAttribute(run.get(), "end_utc", result.info.end_utc);
    h5::flush(file.get());
  }

  void finish(int exit_status) {
    if (!file.valid()) return;  // finished already
    if (run.valid()) {
      h5::writeAttribute(run.get(), "status", exit_status == 0 ? "complete" : "failed");
      h5::writeAttribute(run.get(), "exit_status", static_cast<std::int32_t>(exit_status));
    }
    h5::check(iterations.close(), "/", "cannot close the iterations group");
    h5::check(run.close(), "/", "cannot close the run group");
    h5::check(file.close(), "/", "cannot close the file");
  }
};

std::unique_ptr<Hdf5Sink> Hdf5Sink::open(const std::string& path, OutputMode mode, bool& exists_error) {
  exists_error = false;
  auto impl = std::make_unique<Impl>();
  inFile(path, [&] {
    switch (mode) {
      case OutputMode::kCreate:
        if (pathExists(path)) {
          exists_error = true;
          throw ResultsFileError(
              fmt::format("{} exists: use --append to add this run to it, or --force to replace it", path));
        }
        impl->file = createFile(path, H5F_ACC_EXCL);
        break;
      case OutputMode::kForce:
        impl->file = createFile(path, H5F_ACC_TRUNC);
        break;
      case OutputMode::kAppend:
        impl->file = pathExists(path) ? openForAppend(path) : createFile(path, H5F_ACC_EXCL);
        break;
    }
    impl->run_name = nextRunName(impl->file.get());
  });
  impl->path = path;
  return std::unique_ptr<Hdf5Sink>(new Hdf5Sink(path, std::move(impl)));
}

Hdf5Sink::Hdf5Sink(std::string path, std::unique_ptr<Impl> impl)
    : path_(std::move(path)),
      run_group_(fmt::format("/{}/{}", results::kRunsGroup, impl->run_name)),
      impl_(std::move(impl)) {}

Hdf5Sink::~Hdf5Sink() {
  // Without finish() the run keeps status "running", as a killed job's would.
  const h5::QuietErrors quiet;
  impl_.reset();
}

void Hdf5Sink::begin(const RunInfo& info, const Plan& plan) {
  inFile(path_, [&] { impl_->begin(info, plan); });
  run_group_ = fmt::format("/{}/{}", results::kRunsGroup, impl_->run_name);
}

void Hdf5Sink::phase(const PhaseResult& result, const Plan& plan) {
  inFile(path_, [&] { impl_->phase(result, plan); });
}

void Hdf5Sink::end(const RunResult& result, const Plan& plan) {
  inFile(path_, [&] { impl_->end(result, plan); });
}

void Hdf5Sink::finish(int exit_status) {
  inFile(path_, [&] { impl_->finish(exit_status); });
}

}  // namespace mdbench
