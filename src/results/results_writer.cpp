// The HDF5 results writer (results-schema/README.md): one run group per run, written by rank 0 alone with
// the default driver and flushed after every sink call, so a killed job leaves every finished phase.
// Each call writes O(ranks) values (O(ranks x intervals) for the throughput over time, at most 1024
// intervals); no per-op data ever reaches this file.
// A full or failing file system must neither stop the benchmark (its numbers are still on the console, and
// the target must still be cleaned up) nor leave a file HDF5 cannot read: before each write the space it
// needs is reserved, and when that (or the write) fails the sink stops writing, says so once, and finish()
// throws, leaving the file as it was after the last complete write.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <span>
#include <system_error>
#include <utility>

#include "h5.hpp"
#include "mdbench/config/backends.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/stats.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/util/diagnostics.hpp"
#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/file_io.hpp"
#include "results_attributes.hpp"
#include "results_config.hpp"
#include "results_faults.hpp"
#include "results_files.hpp"
#include "results_layout.hpp"
#include "results_server_stats.hpp"

namespace mdbench {

namespace {
using results::createFile;
using results::descriptorOf;
using results::flag;
using results::noRoom;
using results::openForAppend;

// Space reserved before a write step, past the file's end: far more than one step writes (a phase is about
// 10 KiB plus a row per rank and a path per first error), since running short halfway leaves metadata
// pointing past the end of the file.
constexpr std::uint64_t kReserveFixed = 64 * 1024;
constexpr std::uint64_t kReservePerRank = 256;
constexpr std::uint64_t kReservePerError = 1024;

// A new results file, with room for its header reserved first.
h5::Handle createNewFile(const std::string& path, bool& exists_error, results::FileKey& key) {
  return results::createNewFile(path, kReserveFixed, exists_error, key);
}

// Whether a stop request cut the phase short: the runner records a stopped rank as having planned what it
// did, fewer ops than the plan gives it (a stonewall changes the phase's items, not this).
bool stoppedShort(const PhaseResult& result, const Plan& plan) {
  const auto shortOf = [&](const Plan& planned) {
    for (std::uint32_t rank = 0; rank < result.ranks.size(); ++rank) {
      if (result.ranks[rank].planned < plannedOpsOf(planned, result.phase, rank)) return true;
    }
    return false;
  };
  // Tree phases build the same tree whatever the item count (as the validator plans them).
  if (isTreePhase(result.phase) || result.items == plan.config().items) return shortOf(plan);
  return shortOf(plan.withItems(result.items));
}

// --steady: whether a precreate stopped early (a signal; one that failed also ends early, but its counts are
// not checked against the config).
bool precreateShort(const PhaseResult& precreate, const Plan& plan) {
  std::uint64_t created = 0;
  std::uint64_t failed = 0;
  for (const RankPhaseRecord& r : precreate.ranks) {
    failed += r.failed;
    created += r.kinds[opKindIndex(OpKind::kCreate)].ok;
  }
  return failed == 0 && created < plan.config().items * precreate.ranks.size();
}

// --steady: a stop ends the mix before its rounds (`items`), or precreate early (and then the mix runs no
// round).
bool mixStoppedShort(const PhaseResult& mix, bool precreate_short, const Plan& plan) {
  const Config& c = plan.config();
  if (c.stonewall_s == 0.0 && mix.items < c.steady_rounds) return true;
  return mix.items == 0 && precreate_short;
}

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

// Version 6: how the operations were made and timed (mdtest's -a, --path-style, -B).
void writeRunStyle(hid_t run, const Config& c) {
  h5::writeAttribute(run, "path_style", pathStyleName(c.path_style));
  h5::writeAttribute(run, "api", apiName(c.api));
  h5::writeAttribute(run, "barrier_timed", flag(!c.no_barriers));
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
  results::writeAttributes(group, results::kAggregateTotals, a);
  h5::writeAttribute(group, "rate_formula", results::kRateFormula);
  results::writeAttributes(group, results::kAggregateSpread, a);
  results::writeAttributes(group, results::kLatencyAttributes, l);
}

// Version 5 (--steady's phases: 10): every rank's ops per interval and their sum.
void writeSeriesCounts(hid_t group, const OpsSeries& s, std::size_t ranks) {
  const h5::Handle per_rank =
      h5::writeMatrix<std::uint32_t>(group, results::kOpsPerInterval, ranks, s.intervals, s.per_rank);
  h5::writeAttribute(per_rank.get(), results::kIntervalAttribute, s.interval_s);
  h5::writeVector(group, results::kOpsPerIntervalTotal, s.total);
}

// The series, and a phase's first/last-done rates computed from it.
void writeSeries(hid_t group, const PhaseResult& result) {
  writeSeriesCounts(group, result.series, result.ranks.size());
  results::writeAttributes(group, results::kDoneRateAttributes, doneRates(result.ranks, result.series));
}

// A series' size in the file: a uint32 per rank and interval, a uint64 total per interval.
std::uint64_t seriesBytes(const OpsSeries& s, std::size_t ranks) {
  return std::uint64_t{s.intervals} * (ranks * 4 + 8);
}

// Whether a series holds what it says (the runner empties per_rank once the sinks have seen the phase):
// "" or what is wrong.
std::string seriesProblem(const OpsSeries& s, std::size_t ranks) {
  if (s.per_rank.size() == ranks * s.intervals && s.total.size() == s.intervals) return {};
  return fmt::format(
      "a series of {} intervals with {} per-rank counts and {} totals for {} ranks (its per-rank "
      "counts were freed?)",
      s.intervals, s.per_rank.size(), s.total.size(), ranks);
}

// --steady: summarizeSteadyPhase's numbers; per op only for the phase's own op types, and the rounds and
// the stonewall only for the mix (the other phases have neither).
void writeSteadySummary(hid_t group, Phase phase, const SteadyPhaseSummary& s) {
  results::forSteadyTables(
      phase,
      [&](const auto& table, std::string_view op, const auto& part) {
        results::writeAttributes(group, table, part, op);
      },
      s);
}

// The path, relative to the iteration's directory, of the object a steady rank's first error was on.
std::string steadyErrorPath(const FirstError& e) {
  const auto dataset = static_cast<std::uint32_t>(e.dir);
  const std::string set = steadyDatasetName(e.owner, dataset);
  if (e.item == ~std::uint64_t{0}) return set;
  return fmt::format("{}/{}", set, steadyObjectName(e.owner, dataset, e.item));
}

// The ranks whose record holds a first error, in rank order.
std::vector<std::uint32_t> failedRanks(const std::vector<RankPhaseRecord>& ranks) {
  std::vector<std::uint32_t> failed;
  for (std::uint32_t rank = 0; rank < ranks.size(); ++rank) {
    if (ranks[rank].first_error.any()) failed.push_back(rank);
  }
  return failed;
}

// A phase's `errors` dataset, a row per failed rank with its first error: `path_of(rank)` names the object
// it was on; a steady phase's row also names its op kind. No dataset when no rank failed.
template <class PathOf>
void writeFirstErrors(hid_t group, const PhaseResult& result, PathOf path_of) {
  const std::vector<std::uint32_t> failed = failedRanks(result.ranks);
  if (failed.empty()) return;
  const bool steady = phaseInfo(result.phase).steady();
  // The strings must outlive the rows pointing into them.
  std::vector<std::string> names, paths;
  for (const std::uint32_t rank : failed) {
    names.push_back(opErrorName(result.ranks[rank].first_error.err));
    paths.push_back(path_of(rank));
  }
  std::vector<results::ErrorRow> rows;
  for (std::size_t i = 0; i < failed.size(); ++i) {
    const RankPhaseRecord& r = result.ranks[failed[i]];
    rows.push_back({failed[i], r.first_error.err, names[i].c_str(), paths[i].c_str(),
                    steady ? opKindName(r.first_error_kind) : nullptr});
  }
  h5::writeCompound<results::ErrorRow>(group, "errors", results::errorFieldsOf(result.phase), rows);
}

}  // namespace

struct Hdf5Sink::Impl {
  // Declared first so that it is closed last, after every object opened in it.
  h5::Handle file;
  std::string path;
  std::string run_name;  // of the run begin() writes next (or is writing)
  h5::Handle run;        // open from begin() to finish()
  h5::Handle iterations;
  bool steady_precreate_short = false;  // --steady: the last precreate written stopped early
  std::vector<std::uint32_t> node_of_rank;
  std::vector<std::string> targets;  // RunInfo::target split at '@': rank r's error paths start with its own
  // "" while every write succeeded; else what went wrong: nothing more is written, finish() throws it.
  std::string failure;
  bool made = false;   // open() created the file
  bool began = false;  // some run group was written completely
  // --force and --append onto an existing file touch nothing until the run has really begun: its first
  // phase (a run that fails before it, at setup or at claiming its directory, leaves the file as it was).
  // Until then begin() only keeps what it was given; commit() writes it.
  enum class Pending : std::uint8_t { kNone, kReplace, kAppend };
  Pending pending = Pending::kNone;
  std::optional<RunInfo> pending_info;
  const Plan* pending_plan = nullptr;
  // The file written, by device and inode: finish() checks that `path` still names it, and the next sweep
  // step reopens only it.
  std::optional<results::FileKey> identity;
  // --append: the file checked at open(), the only one commit() opens. --force: the file checked, the only
  // one the new file replaces.
  std::optional<results::FileKey> checked;
  FileIdentity replaced;

  // --force: a new file beside the old one, renamed over it once it holds the run's description, so the old
  // results stay whole until then (and the old inode is never written: hard links to it keep it).
  void replaceFile() {
    const std::filesystem::path final_path(path);
    const std::string temporary =
        (final_path.parent_path() /
         fmt::format(".{}.mdbench-new.{}", final_path.filename().string(), ::getpid()))
            .string();
    bool exists_error = false;
    results::FileKey key;
    file = createNewFile(temporary, exists_error, key);
    try {
      begin(*pending_info, *pending_plan);
      const Placed placed = putInPlace(temporary, path, Replace::kRegularFile, &replaced);
      if (placed.outcome == PlaceOutcome::kNotAFile) {
        throw ResultsFileError(fmt::format("{} is no longer a regular file: not replaced", path));
      }
      if (placed.outcome == PlaceOutcome::kChanged) {
        throw ResultsFileError(fmt::format(
            "{} is no longer the file checked when the run started (replaced, removed or written to "
            "meanwhile): not replaced",
            path));
      }
      if (placed.outcome != PlaceOutcome::kDone) {
        throw ResultsFileError(fmt::format("cannot replace {}: {}", path, describeErrno(placed.err)));
      }
    } catch (...) {
      const h5::QuietErrors quiet;
      static_cast<void>(iterations.close());
      static_cast<void>(run.close());
      static_cast<void>(file.close());
      std::remove(temporary.c_str());
      throw;
    }
    identity = key;
  }

  // The results are only where the user will look for them if `path` still names the file written: a
  // results directory removed or renamed during the run took them along.
  void checkStillThere() const {
    struct stat st {};
    if (!identity) return;
    if (::lstat(path.c_str(), &st) != 0 || st.st_dev != identity->dev || st.st_ino != identity->ino) {
      throw ResultsFileError(fmt::format(
          "{}: the results file is gone (it, or its directory, was removed or replaced during the run): "
          "the numbers are on the console only",
          path));
    }
  }

  // The run has begun: what --force or --append held back is written now.
  void commit() {
    if (pending == Pending::kNone) return;
    const Pending how = std::exchange(pending, Pending::kNone);
    if (how == Pending::kReplace) {
      replaceFile();
    } else {
      // Only the file checked at start: a link or another file swapped in since is refused.
      file = results::openFile(path, H5F_ACC_RDWR, "append to", &*checked);
      identity = checked;
      run_name = nextRunName(file.get());
      begin(*pending_info, *pending_plan);
    }
    pending_info.reset();
  }

  // A phase a stop cut short is the run's last: the run is "interrupted" from the same flush on, so that a
  // job killed before finish() (Hydra's SIGKILL after the stop) leaves a valid file saying so (exit_status
  // stays -1 until finish() knows it).
  void markIfStopped(bool stopped) {
    if (stopped) h5::writeAttribute(run.get(), "status", "interrupted");
  }

  void requireRun(std::string_view call) const {
    if (!run.valid()) throw h5::Error(fmt::format("Hdf5Sink::{} called before begin()", call));
  }

  // One write step. A failure (no room, an I/O error) is not the benchmark's: it is reported at once and
  // remembered, the run goes on (its numbers reach the console), and the file keeps its last complete state.
  template <class Body>
  void write(Body&& body) {
    if (!failure.empty()) return;
    try {
      inFile(path, body);
    } catch (const ResultsFileError& e) {
      // HDF5 1.10.8 cannot close a file after a failed flush (its cache keeps "slist enabled"), and crashes
      // at exit; reserve() is there so that it never comes to that. Give back the reserve at least.
      if (file.valid()) releaseSpace(descriptorOf(file.get()));
      failure = fmt::format("results could not be written: {}", e.what());
      printError(fmt::format("{}; the run goes on, its numbers on the console only", failure));
      std::fflush(stderr);
    }
  }

  // Throws when `bytes` more cannot be had for `what`; nothing is written then.
  void reserve(std::string_view what, std::uint64_t bytes) const {
    if (const int err = reserveSpace(descriptorOf(file.get()), bytes); err != 0) {
      throw ResultsFileError(fmt::format("{}: no room for {}: {}", path, what, describeErrno(err)));
    }
  }

  void checkBegin(const RunInfo& info) const {
    if (run.valid()) throw h5::Error("Hdf5Sink::begin called twice");
    const std::size_t hosts = info.host_of_rank.empty() ? info.ranks : info.host_of_rank.size();
    if (hosts != info.ranks) {
      throw h5::Error(fmt::format("Hdf5Sink::begin: {} host names for {} ranks", hosts, info.ranks));
    }
  }

  void begin(const RunInfo& info, const Plan& plan) {
    if (pending != Pending::kNone) {
      pending_info = info;
      pending_plan = &plan;
      return;
    }
    if (!file.valid()) {
      // After finish(): another run (the next sweep step) goes into the same file, in the next group.
      file = results::openFile(path, H5F_ACC_RDWR, "append to", identity ? &*identity : nullptr);
      run_name = nextRunName(file.get());
    }
    std::vector<std::string> hosts = info.host_of_rank;
    if (hosts.empty()) hosts.assign(info.ranks, std::string(results::kUnknownHost));
    std::uint64_t text = info.command_line.size() + info.target.size();
    for (const std::string& host : hosts) text += host.size();
    reserve("the run's description", kReserveFixed + info.ranks * kReservePerRank + text);
    const NodeLayout layout = nodeLayout(hosts);
    const h5::Handle runs = h5::openGroup(file.get(), results::kRunsGroup);
    run = h5::createGroup(runs.get(), run_name);
    writeRunAttributes(run.get(), info, layout);
    writeRunStyle(run.get(), plan.config());
    h5::writeStrings(run.get(), "hosts", hosts);
    h5::writeVector(run.get(), "node_of_rank", layout.node_of_rank);
    writeBucketBounds(run.get());
    results::writeConfigGroup(h5::createGroup(run.get(), "config").get(), {plan.config(), plan.shift()});
    iterations = h5::createGroup(run.get(), "iterations");
    steady_precreate_short = false;
    node_of_rank = layout.node_of_rank;
    targets = results::splitTargets(info.target);
    h5::flush(file.get());
    began = true;
  }

  h5::Handle iterationGroup(std::uint32_t iteration) {
    const std::string name = results::iterationGroupName(iteration);
    if (h5::exists(iterations.get(), name)) return h5::openGroup(iterations.get(), name);
    h5::Handle group = h5::createGroup(iterations.get(), name);
    h5::writeAttribute(group.get(), "iteration", iteration);
    return group;
  }

  void writeRanks(hid_t group, const PhaseResult& result) const {
    std::vector<results::RankRow> rows;
    rows.reserve(result.ranks.size());
    for (std::uint32_t rank = 0; rank < result.ranks.size(); ++rank) {
      rows.push_back(results::rankRowOf(rank, node_of_rank[rank], result.ranks[rank]));
    }
    h5::writeCompound<results::RankRow>(group, "ranks", results::kRankFields, rows);
  }

  // The directory `rank` worked in: targets[rank mod the number of targets] (-d A@B@C).
  std::string targetOf(std::uint32_t rank, const Plan& plan) const {
    if (targets.empty()) return "";
    return targets.size() == 1 ? targets.front() : targets[plan.targetOf(rank) % targets.size()];
  }

  // The path of each failed rank's first error under its target: a selected phase's item (errorPath), a
  // steady phase's dataset or object in the iteration's directory.
  void writeErrors(hid_t group, const PhaseResult& result, const Plan& plan) const {
    const bool steady = phaseInfo(result.phase).steady();
    writeFirstErrors(group, result, [&](std::uint32_t rank) {
      const FirstError& e = result.ranks[rank].first_error;
      return steady ? fmt::format("{}/{}/{}", targetOf(rank, plan), iterationDirName(result.iteration),
                                  steadyErrorPath(e))
                    : targetOf(rank, plan) + "/" + errorPath(plan, result.iteration, result.phase, e);
    });
  }

  // Room for the first errors' rows: each path starts with one of the targets.
  std::uint64_t errorRoom(std::uint64_t errors) const {
    std::uint64_t target_chars = 0;
    for (const std::string& t : targets) target_chars = std::max<std::uint64_t>(target_chars, t.size());
    return errors * (kReservePerError + target_chars);
  }

  void checkPhase(const PhaseResult& result, const Plan& plan) const {
    requireRun("phase");
    const std::string name(phaseName(result.phase));
    if (result.ranks.size() != node_of_rank.size()) {
      throw h5::Error(fmt::format("Hdf5Sink::phase: {} has {} rank records for a run of {} ranks", name,
                                  result.ranks.size(), node_of_rank.size()));
    }
    if (std::find(plan.phases().begin(), plan.phases().end(), result.phase) == plan.phases().end()) {
      throw h5::Error(fmt::format("Hdf5Sink::phase: {} is not a phase of the plan", name));
    }
    if (const std::string problem = seriesProblem(result.series, result.ranks.size()); !problem.empty()) {
      throw h5::Error(fmt::format("Hdf5Sink::phase: {} has {}", name, problem));
    }
    const std::string iteration = results::iterationGroupName(result.iteration);
    if (h5::exists(iterations.get(), iteration) &&
        h5::exists(h5::openGroup(iterations.get(), iteration).get(), name)) {
      throw h5::Error(fmt::format("Hdf5Sink::phase: {}/{} already holds {}", h5::pathOf(iterations.get()),
                                  iteration, name));
    }
  }

  void phase(const PhaseResult& result, const Plan& plan) {
    const std::string name(phaseName(result.phase));
    const std::uint64_t errors = failedRanks(result.ranks).size();
    const std::uint64_t series_bytes = seriesBytes(result.series, result.ranks.size());
    reserve(fmt::format("iteration {} {}", result.iteration, name),
            kReserveFixed + result.ranks.size() * kReservePerRank + series_bytes + errorRoom(errors));
    const auto position = std::find(plan.phases().begin(), plan.phases().end(), result.phase);
    const h5::Handle iteration = iterationGroup(result.iteration);
    const h5::Handle group = h5::createGroup(iteration.get(), name);
    h5::writeAttribute(group.get(), "phase", name);
    h5::writeAttribute(group.get(), "iteration", result.iteration);
    h5::writeAttribute(group.get(), "order", static_cast<std::uint32_t>(position - plan.phases().begin()));
    h5::writeAttribute(group.get(), "items", result.items);
    writeAggregate(group.get(), aggregate(result.ranks), latencySummary(result.latency));
    writeRanks(group.get(), result);
    h5::writeVector(group.get(), "latency", result.latency.counts());
    writeSeries(group.get(), result);
    writeErrors(group.get(), result, plan);
    results::writeServerStats(group.get(), result.server_stats);
    results::writeFailover(group.get(), result.stall, result.faults);
    markIfStopped(stoppedShort(result, plan));
    h5::flush(file.get());
  }

  // The steady group of `iteration` when it exists (a phase of it written already), else an invalid handle.
  h5::Handle existingSteadyGroup(std::uint32_t iteration) const {
    const std::string name = results::iterationGroupName(iteration);
    if (!h5::exists(iterations.get(), name)) return {};
    const h5::Handle group = h5::openGroup(iterations.get(), name);
    return h5::exists(group.get(), results::kSteadyGroup) ? h5::openGroup(group.get(), results::kSteadyGroup)
                                                          : h5::Handle();
  }

  // A steady phase: records that fit the run, and the next of its iteration (precreate, mix, cleanup, each
  // once).
  void checkSteadyPhase(const PhaseResult& p) const {
    const std::string name(phaseName(p.phase));
    if (p.ranks.size() != node_of_rank.size()) {
      throw h5::Error(fmt::format("Hdf5Sink::phase: {} has {} rank records for a run of {} ranks", name,
                                  p.ranks.size(), node_of_rank.size()));
    }
    if (const std::string problem = seriesProblem(p.series, p.ranks.size()); !problem.empty()) {
      throw h5::Error(fmt::format("Hdf5Sink::phase: {} has {}", name, problem));
    }
    const h5::Handle group = existingSteadyGroup(p.iteration);
    std::size_t written = 0;
    while (group.valid() && written < kSteadyPhaseCount &&
           h5::exists(group.get(), std::string(phaseName(kSteadyPhases[written])))) {
      ++written;
    }
    if (written == kSteadyPhaseCount || kSteadyPhases[written] != p.phase) {
      throw h5::Error(
          fmt::format("Hdf5Sink::phase: steady {} of iteration {} out of order ({} of its phases "
                      "written; they come as precreate, mix, cleanup, each once)",
                      name, p.iteration, written));
    }
  }

  void writeSteadyRanks(hid_t group, const PhaseResult& result) const {
    std::vector<results::SteadyRankRow> rows;
    rows.reserve(result.ranks.size());
    for (std::uint32_t rank = 0; rank < result.ranks.size(); ++rank) {
      rows.push_back({rank, node_of_rank[rank], result.ranks[rank]});
    }
    h5::writeCompound<results::SteadyRankRow>(group, "ranks", results::kSteadyRankFields, rows);
  }

  // iterations/iter-NNNN/steady, made with its first phase (rounds 0 until the mix is written).
  h5::Handle steadyGroup(std::uint32_t iteration) {
    h5::Handle group = existingSteadyGroup(iteration);
    if (group.valid()) return group;
    group = h5::createGroup(iterationGroup(iteration).get(), results::kSteadyGroup);
    h5::writeAttribute(group.get(), "rounds", std::uint64_t{0});
    return group;
  }

  // iterations/iter-NNNN/steady/<phase>: the same kind of data as a phase group, by op kind; flushed as a
  // phase is. The mix writes the iteration's agreed rounds and the stop's mark.
  void steadyPhase(const PhaseResult& p, const Plan& plan) {
    reserve(fmt::format("iteration {} steady {}", p.iteration, phaseName(p.phase)),
            kReserveFixed + node_of_rank.size() * kReservePerRank + seriesBytes(p.series, p.ranks.size()) +
                errorRoom(failedRanks(p.ranks).size()));
    const h5::Handle steady = steadyGroup(p.iteration);
    const h5::Handle group = h5::createGroup(steady.get(), std::string(phaseName(p.phase)));
    h5::writeAttribute(group.get(), "phase", std::string(phaseName(p.phase)));
    writeSteadySummary(group.get(), p.phase, summarizeSteadyPhase(p));
    writeSteadyRanks(group.get(), p);
    for (const OpKind op : opKindsOf(p.phase)) {
      h5::writeVector(group.get(), results::steadyLatencyName(op), p.kind_latency[opKindIndex(op)].counts());
    }
    writeErrors(group.get(), p, plan);
    writeSeriesCounts(group.get(), p.series, p.ranks.size());
    results::writeFailover(group.get(), p.stall, p.faults);
    if (p.phase == Phase::kSteadyPrecreate) steady_precreate_short = precreateShort(p, plan);
    if (p.phase == Phase::kSteadyMix) {
      h5::writeAttribute(steady.get(), "rounds", p.items);
      markIfStopped(mixStoppedShort(p, steady_precreate_short, plan));
    }
    h5::flush(file.get());
  }

  void end(const RunResult& result, const Plan& plan) {
    reserve("the summary", kReserveFixed + plan.phases().size() * kReservePerError);
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
      results::writeAttributes(group.get(), results::kIterationSummaryAttributes, s);
    }
    h5::writeAttribute(run.get(), "end_utc", result.info.end_utc);
    h5::flush(file.get());
  }

  void finish(int exit_status) {
    if (run.valid()) {
      reserve("the run's status", kReserveFixed);
      // Exit statuses above 128 are 128 + the signal that stopped the run (signals.hpp).
      h5::writeAttribute(run.get(), "status",
                         exit_status == 0    ? "complete"
                         : exit_status > 128 ? "interrupted"
                                             : "failed");
      h5::writeAttribute(run.get(), "exit_status", static_cast<std::int32_t>(exit_status));
    }
    h5::flush(file.get());
    releaseSpace(descriptorOf(file.get()));
    h5::check(iterations.close(), "/", "cannot close the iterations group");
    h5::check(run.close(), "/", "cannot close the run group");
    h5::check(file.close(), "/", "cannot close the file");
  }
};

std::unique_ptr<Hdf5Sink> Hdf5Sink::open(const std::string& path, OutputMode mode, bool& exists_error) {
  exists_error = false;
  auto impl = std::make_unique<Impl>();
  bool made = false;  // the file is new: ours to remove if opening fails
  try {
    inFile(path, [&] {
      if (mode == OutputMode::kForce && nameExists(path)) {
        // Only a regular file is replaced (never a directory, a FIFO or what a link points to), and only
        // the one checked now.
        results::requireRegularFile(path, "replace");
        struct stat st {};
        if (::lstat(path.c_str(), &st) == 0) impl->replaced = identityOf(st);
        impl->pending = Impl::Pending::kReplace;
        impl->run_name = runGroupName(0);
      } else if (mode == OutputMode::kAppend && nameExists(path)) {
        impl->checked = results::checkAppendable(path);
        impl->pending = Impl::Pending::kAppend;
        const h5::Handle file = results::openFile(path, H5F_ACC_RDONLY, "append to", &*impl->checked);
        impl->run_name = nextRunName(file.get());
      } else {
        results::FileKey key;
        impl->file = createNewFile(path, exists_error, key);
        made = true;
        impl->identity = key;
        impl->run_name = nextRunName(impl->file.get());
      }
    });
  } catch (const ResultsFileError&) {
    if (made) {
      impl.reset();
      std::remove(path.c_str());
    }
    throw;
  }
  impl->path = path;
  impl->made = made;
  return std::unique_ptr<Hdf5Sink>(new Hdf5Sink(path, std::move(impl)));
}

Hdf5Sink::Hdf5Sink(std::string path, std::unique_ptr<Impl> impl)
    : path_(std::move(path)),
      run_group_(fmt::format("/{}/{}", results::kRunsGroup, impl->run_name)),
      impl_(std::move(impl)) {}

Hdf5Sink::~Hdf5Sink() {
  // Without finish() the run keeps status "running", as a killed job's would.
  const h5::QuietErrors quiet;
  if (impl_->file.valid()) releaseSpace(descriptorOf(impl_->file.get()));
  impl_.reset();
}

// Misuse (a call out of order, records that do not fit the run) throws at once; a failing write does not
// (Impl::write).
void Hdf5Sink::begin(const RunInfo& info, const Plan& plan) {
  if (!impl_->failure.empty()) return;
  inFile(path_, [&] { impl_->checkBegin(info); });
  impl_->write([&] { impl_->begin(info, plan); });
  run_group_ = fmt::format("/{}/{}", results::kRunsGroup, impl_->run_name);
}

bool Hdf5Sink::commit() {
  if (impl_->failure.empty()) impl_->write([&] { impl_->commit(); });
  run_group_ = fmt::format("/{}/{}", results::kRunsGroup, impl_->run_name);
  return impl_->failure.empty();
}

void Hdf5Sink::phase(const PhaseResult& result, const Plan& plan) {
  if (!commit()) return;
  if (phaseInfo(result.phase).steady()) {
    inFile(path_, [&] {
      impl_->requireRun("phase");
      impl_->checkSteadyPhase(result);
    });
    impl_->write([&] { impl_->steadyPhase(result, plan); });
    return;
  }
  inFile(path_, [&] { impl_->checkPhase(result, plan); });
  impl_->write([&] { impl_->phase(result, plan); });
}

void Hdf5Sink::end(const RunResult& result, const Plan& plan) {
  if (!impl_->failure.empty() || impl_->pending != Impl::Pending::kNone) return;  // nothing began
  inFile(path_, [&] { impl_->requireRun("end"); });
  impl_->write([&] { impl_->end(result, plan); });
}

bool Hdf5Sink::holdsRun() const { return impl_->pending == Impl::Pending::kNone; }

// Throws the first write failure of the run (the benchmark itself may have gone well), after closing the
// file as far as it can be: it keeps what was written before the failure.
void Hdf5Sink::finish(int exit_status) {
  if (impl_->failure.empty()) {
    if (impl_->pending != Impl::Pending::kNone) {
      impl_->pending_info.reset();  // no phase ran: the file stays as it was; a later sweep step may begin
      return;
    }
    if (!impl_->file.valid()) return;  // finished already
    impl_->write([&] { impl_->finish(exit_status); });
    if (impl_->failure.empty()) {
      impl_->checkStillThere();
      return;
    }
  }
  {
    const h5::QuietErrors quiet;
    static_cast<void>(impl_->iterations.close());
    static_cast<void>(impl_->run.close());
    static_cast<void>(impl_->file.close());
  }
  if (impl_->made && !impl_->began && std::remove(path_.c_str()) == 0) {
    impl_->made = false;  // removed once; a sweep's later steps only report
    throw ResultsFileError(fmt::format("{}; {} removed: it held no run", impl_->failure, path_));
  }
  throw ResultsFileError(fmt::format("{}; the file keeps what was written before that", impl_->failure));
}

}  // namespace mdbench
