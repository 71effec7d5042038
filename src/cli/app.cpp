#include "mdbench/cli/app.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <hdf5.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>

#include "mdbench/backend/storage.hpp"
#include "mdbench/cli/subcommands.hpp"
#include "mdbench/cli/version.hpp"
#include "mdbench/config/config.hpp"
#include "mdbench/config/option_docs.hpp"
#include "mdbench/console/console_sink.hpp"
#include "mdbench/console/mdtest_console_sink.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/model/sweep.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/run/mpi_comm.hpp"
#include "mdbench/run/per_op_files.hpp"
#include "mdbench/run/runner.hpp"
#include "mdbench/run/scheduler.hpp"
#include "mdbench/run/signals.hpp"
#include "mdbench/run/stonewall_file.hpp"
#include "mdbench/serverstats/source.hpp"
#include "mdbench/util/clock.hpp"
#include "mdbench/util/diagnostics.hpp"
#include "mdbench/util/errno_name.hpp"
#include "targets.hpp"

namespace mdbench {
namespace {

std::string hdf5Version() {
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  return fmt::format("{}.{}.{}", major, minor, release);
}

std::string versionText() {
  return fmt::format("mdbench {} (commit {})\nMPI:  {}\nHDF5: {}\n", version(), gitCommit(),
                     MpiSession::libraryVersion(), hdf5Version());
}

// Test hook: MDBENCH_FAKE_HOSTS="n0,n0,n1,n1" gives rank r the r-th name as its host name, so that what
// depends on the nodes (sweep placement, the rank shift, the results file's hosts) can be tested on one
// machine. One name per rank of the job. Rank 0 reads it; returns "" or the problem (a usage error).
std::string fakeHostsOnRoot(std::uint32_t ranks, std::vector<std::string>& hosts) {
  const char* text = std::getenv("MDBENCH_FAKE_HOSTS");
  if (text == nullptr) return {};
  std::istringstream in(text);
  for (std::string name; std::getline(in, name, ',');) hosts.push_back(name);
  const bool empty_name = std::any_of(hosts.begin(), hosts.end(), [](const auto& h) { return h.empty(); });
  if (hosts.size() != ranks || empty_name) {
    return fmt::format(
        "MDBENCH_FAKE_HOSTS (a test hook): '{}' does not give {} host names (one per rank, "
        "separated by commas)",
        text, ranks);
  }
  return {};
}

// Collective: where every rank runs. Rank 0 learns the hosts; every rank learns every rank's node index
// (the plan's node-aware shift and the sweep's placement need it).
struct Placement {
  std::vector<std::string> host_of_rank;  // rank 0 only
  std::vector<std::uint32_t> node_of_rank;
  std::uint32_t nodes = 1;
};

Placement placeRanks(Comm& comm, const std::vector<std::string>& fake_hosts) {
  Placement placement;
  const NodeMap map = gatherNodeMap(comm);
  std::string encoded;
  if (comm.rank() == 0) {
    placement.host_of_rank = fake_hosts.empty() ? map.host_of_rank : fake_hosts;
    const NodeLayout layout = nodeLayout(placement.host_of_rank);
    for (const std::uint32_t node : layout.node_of_rank) encoded += fmt::format("{} ", node);
  }
  comm.broadcast(encoded);
  std::istringstream in(encoded);
  for (std::uint32_t node = 0; in >> node;) placement.node_of_rank.push_back(node);
  placement.nodes = placement.node_of_rank.empty()
                        ? 1
                        : *std::max_element(placement.node_of_rank.begin(), placement.node_of_rank.end()) + 1;
  return placement;
}

// Rank 0's verdict on a setup step, shared with every rank: its exit status (kExitOk to go on) and message.
int agreeOnRootStatus(Comm& comm, int status, std::string& message) {
  comm.broadcast(message);
  return static_cast<int>(comm.allreduceMax(comm.rank() == 0 ? static_cast<std::uint64_t>(status) : 0));
}

struct Output {
  std::unique_ptr<Hdf5Sink> sink;
  bool created = false;  // the file did not exist before: ours to remove if the run never begins
  // mdbench's own closing lines (results, kept, cleanup): standard error with --output mdtest, whose log
  // ends at mdtest's "-- finished at" line for the parsers that read it.
  std::FILE* lines = stdout;
};

// Rank 0: opens the results file before anything touches the target, so that a name clash is a usage
// error and costs nothing.
int openResultsOnRoot(const Config& config, const SchedulerInfo& scheduler, Output& output,
                      std::string& error) {
  // A default name is ours to choose: runs started in the same second from the same directory (a loop
  // in a job script) get "-2", "-3", ... rather than failing. A name the user gave is taken as given.
  const bool chosen = !config.output.empty();
  const std::string base = chosen ? config.output : defaultResultsName(scheduler, std::time(nullptr));
  // Only a regular file is a results file: HDF5 would block on a FIFO and write through a link.
  if (struct stat st{}; chosen && lstat(base.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    const char* kind = S_ISDIR(st.st_mode)    ? "a directory"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISLNK(st.st_mode)  ? "a symbolic link"
                                              : "not a regular file";
    error = fmt::format("{}: {} is {}, not a results file", optionLabel("output"), base, kind);
    return kExitUsage;
  }
  constexpr int kMaxAttempts = 1000;
  for (int attempt = 1;; ++attempt) {
    std::string path = base;
    if (attempt > 1) path = fmt::format("{}-{}.h5", base.substr(0, base.size() - 3), attempt);
    struct stat st {};
    output.created = lstat(path.c_str(), &st) != 0;
    bool exists_error = false;
    try {
      output.sink = Hdf5Sink::open(path, config.output_mode, exists_error);
      return kExitOk;
    } catch (const ResultsFileError& e) {
      if (exists_error && !chosen && attempt < kMaxAttempts) continue;
      error = e.what();
      return exists_error ? kExitUsage : kExitFailed;
    }
  }
}

void discardResults(Output& output) {
  if (!output.sink) return;
  const std::string path = output.sink->path();
  output.sink.reset();
  if (output.created) std::remove(path.c_str());
}

// Rank 0, after a run stopped before its first phase: the results file as it was (--force, --append), or
// none (a new one goes again).
void discardStoppedRun(Output& output) {
  if (!output.sink) return;
  if (output.created) {
    fmt::print(output.lines, "results:  none: no phase ran ({} not kept)\n", output.sink->path());
  } else {
    fmt::print(output.lines, "results:  none: no phase ran; {} is as it was\n", output.sink->path());
  }
  discardResults(output);
}

// What every run of this invocation shares: the single run, or each step of a sweep.
struct RunSetup {
  const Config& config;
  Storage& storage;                              // the backend's: targets, description, backends
  const std::vector<Target>& targets;            // rank 0 only
  const std::vector<std::string>& target_paths;  // every rank
  const Placement& placement;                    // the job's
  const SchedulerInfo& scheduler;
  Output& output;  // rank 0 only
  Clock& clock;
};

RunInfo describeRun(const RunSetup& setup, std::uint32_t ranks, std::vector<std::string> host_of_rank,
                    std::uint32_t nodes, SweepStepInfo sweep) {
  RunInfo info;
  info.version = std::string(version());
  info.git_commit = std::string(gitCommit());
  info.command_line = setup.config.command_line;
  info.invoked_as = invokedAs();
  info.arguments = setup.config.arguments;
  info.target = joinPaths(setup.targets, '@');
  for (const Target& t : setup.targets) info.targets.push_back(t.path);
  info.start_utc = utcTimestampNow();
  info.ranks = ranks;
  info.nodes = nodes;
  info.host_of_rank = std::move(host_of_rank);
  info.mpi_library = MpiSession::libraryVersion();
  info.hdf5_version = hdf5Version();
  info.scheduler = setup.scheduler.scheduler;
  info.job_id = setup.scheduler.job_id;
  info.job_name = setup.scheduler.job_name;
  info.sweep = sweep;
  if (const auto fs =
          setup.targets.empty() ? std::nullopt : setup.storage.describe(setup.targets.front().path)) {
    info.fs_type = fs->type;
    info.fs_total_bytes = fs->total_bytes;
    info.fs_free_bytes = fs->free_bytes;
    info.fs_total_inodes = fs->total_inodes;
    info.fs_free_inodes = fs->free_inodes;
  } else {
    info.fs_type = "unknown";
  }
  return info;
}

// Collective over comm: the whole workload once, into the results file and onto the console (rank 0).
RunResult runWorkload(Comm& comm, Backend& backend, const std::string& my_target, const Plan& plan,
                      RunInfo info, const RunSetup& setup) {
  ConsoleSink console(stdout);
  MdtestConsoleSink mdtest_console(stdout);  // --output mdtest
  RankDetailsSink rank_details(setup.config.rank_details_csv);
  std::vector<Sink*> sinks;
  if (setup.output.sink) sinks.push_back(setup.output.sink.get());  // first: a phase is on disk before shown
  // --saveRankPerformanceDetails: a sweep writes its steps' rows together at its end (runSweep).
  if (!setup.config.rank_details_csv.empty() && info.sweep.step == 0) sinks.push_back(&rank_details);
  sinks.push_back(setup.config.console == ConsoleStyle::kMdtest ? static_cast<Sink*>(&mdtest_console)
                                                                : &console);
  // Live progress from rank 0: plain lines every --progress SECONDS, or (not given) a line redrawn four
  // times a second when its output is a terminal. Every rank learns whether it is on: the closing barrier
  // of each phase must be the same collective everywhere.
  ProgressStyle style = ProgressStyle::kOff;
  const double progress_s = setup.config.progress_s;
  if (comm.rank() == 0) {
    if (progress_s > 0.0) style = ProgressStyle::kLines;
    if (progress_s < 0.0 && isatty(streamFd(stdout)) == 1) style = ProgressStyle::kTerminal;
  }
  ProgressReporter progress(stdout, style, style == ProgressStyle::kLines ? progress_s : 0.25);
  RunParts parts{comm, setup.clock, backend, my_target};
  parts.progress = style == ProgressStyle::kOff ? nullptr : &progress;
  parts.progress_barrier = comm.allreduceMax(style == ProgressStyle::kOff ? 0 : 1) != 0;
  RunResult result = runBenchmark(plan, parts, std::move(info), sinks);
  if (comm.rank() == 0 && !result.setup_error.empty()) {
    printError(result.setup_error);
  }
  if (comm.rank() == 0 && !rank_details.error().empty()) {
    // Written after the run: a problem then fails the run (exit 1).
    printError(rank_details.error());
    result.problems.push_back(rank_details.error());
  }
  return result;
}

int exitStatusOf(const RunResult& result) {
  if (result.stop_signal != 0) return 128 + result.stop_signal;
  if (result.setup_usage) return kExitUsage;
  const bool failed = !result.setup_error.empty() || result.failedOps() > 0 || !result.problems.empty() ||
                      !result.cleanup_problems.empty() || result.fault_failed;
  if (failed) return kExitFailed;
  return result.server_stats_incomplete ? kExitServerStatsIncomplete : kExitOk;
}

// "SIGTERM", "SIGINT" (glibc's abbreviation, or the number).
std::string signalName(int signal) {
  const char* abbreviation = sigabbrev_np(signal);
  return abbreviation != nullptr ? fmt::format("SIG{}", abbreviation) : fmt::format("signal {}", signal);
}

// The status line's words for an exit status of a run (docs/running.md, "Exit status").
std::string exitStatusMeaning(int status) {
  if (status > 128) return fmt::format("stopped by {}", signalName(status - 128));
  switch (status) {
    case kExitOk:
      return "every operation succeeded";
    case kExitFailed:
      return "failed";
    case kExitUsage:
      return "bad options";
    case kExitServerStatsIncomplete:
      return "every operation succeeded; server counters incomplete (--server-stats)";
    default:
      return "failed";
  }
}

// Rank 0: what a signal stopped, and what became of the run's items.
void reportStop(const RunResult& result, bool keeps_trees) {
  if (result.stop_signal == 0) return;
  if (!result.phases_began) {
    fmt::print(stderr, "mdbench: stopped by {} {}: nothing was recorded, and what the run made was removed\n",
               signalName(result.stop_signal), result.steady_stopped_where);
    return;
  }
  const std::string after =
      !result.steady_stopped_where.empty() ? result.steady_stopped_where
      : result.phases.empty()              ? std::string("before its first phase ended")
                              : fmt::format("after {} (iteration {})", phaseName(result.phases.back().phase),
                                            result.phases.back().iteration);
  fmt::print(
      stderr, "mdbench: stopped by {} {}: the finished phases are in the results file; {}\n",
      signalName(result.stop_signal), after,
      keeps_trees ? "the trees are kept (--keep or no remove phase)" : "what the run made was removed");
}

// Rank 0: the run group's status, and where it went.
// Returns the status, or kExitFailed when the results could not all be written (the writer said so
// already once; this names the file again with what it keeps).
int finishRun(Output& output, int status) {
  try {
    output.sink->finish(status);
  } catch (const ResultsFileError& e) {
    printError(e.what());
    return std::max(status, kExitFailed);
  }
  if (!output.sink->holdsRun()) {
    // --force / --append: no phase ran, so nothing was replaced or added.
    fmt::print(output.lines, "results:  none: no phase ran; {} is as it was\n", output.sink->path());
    return status;
  }
  fmt::print(output.lines, "results:  {} ({})\n", output.sink->path(), output.sink->runGroup());
  return status;
}

// What the runs left in the targets: nothing (the trees were removed), the trees (--keep, a phase selection
// without remove), maybe something (a sweep that stopped early), or unknown after a setup error (then only
// what this run made goes, when it is empty).
enum class Trees : std::uint8_t { kRemoved, kKept, kMaybe, kSetupFailed };

// Rank 0: removes the target directories this invocation made once the trees in them are gone, or says
// which stay. Problems go into `problems`, each with the errno of the call that failed.
void removeTargets(Storage& storage, const std::vector<Target>& targets, Trees trees,
                   std::vector<std::string>& problems, std::FILE* out) {
  // In reverse order of making, so that nothing of a later target is in the way of an earlier one.
  for (auto t = targets.rbegin(); t != targets.rend(); ++t) {
    if (trees == Trees::kKept) {
      fmt::print(out, "kept:     {}\n", t->path);
      continue;
    }
    // After a setup failure only what this run made goes: a target an earlier job made stays for its jobs.
    const bool removes = trees == Trees::kSetupFailed ? t->created : t->created || t->marked;
    if (!removes) continue;
    const int err = removeTarget(storage, *t);
    if (err == 0) continue;
    if (t->created && trees != Trees::kMaybe) {
      // Made by this run and expected to be empty: something stayed in it, which the user is told.
      problems.push_back(fmt::format("{} not removed: {}", t->path, describeErrno(err)));
      fmt::print(out, "cleanup: {}\n", problems.back());
    } else {
      // Whatever is left stays, with the mark, and is shown; made by an earlier job: kept quietly otherwise.
      fmt::print(out, "kept:     {}\n", t->path);
    }
  }
}

// Collective over the step's ranks: one sweep step, its own run group. Rank 0's result (empty elsewhere);
// `began` is false when the step could not even start (then it has no run group).
RunResult runSweepStep(Comm& comm, const RunSetup& setup, const StepRanks& step, SweepStepInfo sweep,
                       bool& began) {
  // The step's rank r works in target r mod targets, as the plan says; not necessarily the job rank's.
  const std::string& my_target = setup.target_paths[comm.rank() % setup.target_paths.size()];
  int err = 0;
  std::unique_ptr<Backend> backend = setup.storage.open(my_target, comm.rank(), err);
  RunResult result;
  result.setup_error = agreeOnSetup(comm, err, fmt::format("cannot open target {}", my_target));
  began = result.setup_error.empty();
  if (!began) {
    if (comm.rank() == 0) printError(result.setup_error);
    return result;
  }
  std::vector<std::string> hosts;
  if (comm.rank() == 0) {
    for (const std::uint32_t r : step.ranks) hosts.push_back(setup.placement.host_of_rank[r]);
  }
  const Plan plan(setup.config, step.node_of_rank);
  return runWorkload(comm, *backend, my_target, plan,
                     describeRun(setup, comm.size(), hosts, step.nodes, sweep), setup);
}

// Collective over the job. Each step: the job is split, the step's ranks run the whole workload while the
// others wait (sleeping); then all agree on its status. A step that could not start, or left something behind
// that the next step's create would run into, ends the sweep. Returns the exit status, the same on every
// rank.
int runSweep(Comm& world, const RunSetup& setup, const std::vector<std::uint32_t>& steps) {
  const bool root = world.rank() == 0;
  const SweepPlacement placement = setup.config.sweep.placement;
  if (root) {
    fmt::print("sweep:    {} step{} ({} ranks) of the job's {} ranks, placement {}\n\n", steps.size(),
               steps.size() == 1 ? "" : "s", fmt::join(steps, ", "), world.size(),
               sweepPlacementName(placement));
  }
  std::vector<RunResult> done;  // rank 0: the steps that ran
  int status = kExitOk;
  std::size_t next = 0;
  bool stopped = false;
  for (; next < steps.size() && !stopped; ++next) {
    const StepRanks step = stepRanks(setup.placement.node_of_rank, steps[next], placement);
    const bool member = std::binary_search(step.ranks.begin(), step.ranks.end(), world.rank());
    int step_status = kExitOk;
    bool stop = false;
    if (std::unique_ptr<Comm> step_comm =
            world.split(member ? std::optional<std::uint32_t>{0} : kNotInSplit, world.rank())) {
      bool began = false;
      const SweepStepInfo sweep{static_cast<std::uint32_t>(next + 1), placement, world.size()};
      RunResult result = runSweepStep(*step_comm, setup, step, sweep, began);
      if (root) {
        step_status = began ? exitStatusOf(result) : kExitFailed;
        stop = !began || !result.setup_error.empty() || !result.cleanup_problems.empty() ||
               result.stop_signal != 0;
        reportStop(result, setup.config.keep || !setup.config.phases.remove);
        // A first step stopped before its first phase: nothing recorded, as for a single run (a later
        // step's run group is in a file that holds the earlier steps: it stays, interrupted).
        if (began && done.empty() && result.stop_signal != 0 && !result.phases_began) {
          discardStoppedRun(setup.output);
        } else if (began) {
          step_status = finishRun(setup.output, step_status);
          done.push_back(std::move(result));
        }
        std::fflush(stdout);
      }
    }
    world.idleBarrier();
    // A signal that reached only ranks outside the step also ends the sweep.
    stop = stop || stopSignal() != 0;
    const std::uint64_t verdict =
        world.allreduceMax(static_cast<std::uint64_t>(root ? step_status : 0) * 2 + (stop ? 1 : 0));
    status = std::max(status, static_cast<int>(verdict / 2));
    stopped = verdict % 2 == 1;
    if (root && !stopped && next + 1 < steps.size()) fmt::print("\n");
  }
  if (root) {
    printSweepTable(stdout, done);
    if (const std::string& csv = setup.config.rank_details_csv; !csv.empty() && !done.empty()) {
      const std::string problem = writeRankDetails(csv, done);
      if (!problem.empty()) printError(problem);
      if (!problem.empty()) status = std::max(status, kExitFailed);
    }
    if (stopped && next < steps.size()) {
      fmt::print("sweep stopped after step {}: steps of {} ranks not run\n", next,
                 fmt::join(steps.begin() + static_cast<std::ptrdiff_t>(next), steps.end(), ", "));
    }
    if (done.empty()) discardResults(setup.output);  // not a single run group: no results file either
    std::vector<std::string> problems;
    removeTargets(setup.storage, setup.targets, stopped ? Trees::kMaybe : Trees::kRemoved, problems,
                  setup.output.lines);
    if (!problems.empty()) status = std::max(status, kExitFailed);
  }
  std::fflush(stdout);
  status = static_cast<int>(world.allreduceMax(static_cast<std::uint64_t>(status)));
  const int signal = static_cast<int>(world.allreduceMax(static_cast<std::uint64_t>(stopSignal())));
  return signal != 0 ? 128 + signal : status;
}

// Problems only the job size shows, found before anything touches the file system: "" or the message.
std::string checkJobSize(const Config& config, std::uint32_t ranks, std::vector<std::uint32_t>& steps) {
  SweepSteps sweep = resolveSweepSteps(config.sweep, ranks);
  if (config.targets.size() > ranks) {
    return fmt::format("{}: {} targets for {} ranks: each target needs a rank", optionLabel("dir"),
                       config.targets.size(), ranks);
  }
  if (!sweep.error.empty()) return sweep.error;
  steps = std::move(sweep.steps);
  if (!steps.empty() && config.targets.size() > steps.front()) {
    return fmt::format("{}: a step of {} rank{} for {} targets ({}): each target needs a rank",
                       optionLabel("sweep"), steps.front(), steps.front() == 1 ? "" : "s",
                       config.targets.size(), optionLabel("dir"));
  }
  return {};
}

// Collective: rank 0's verdict on a check, on every rank; rank 0 prints the problem. kExitOk to go on.
int agreeOnUsage(Comm& comm, std::string& error) {
  const int status = agreeOnRootStatus(comm, error.empty() ? kExitOk : kExitUsage, error);
  if (status != kExitOk && comm.rank() == 0) printError(error);
  return status;
}

// Collective: the usage problems found before anything is touched, each a usage error (exit 2): duplicate
// or nested targets first (the message then names the paths, whatever else is wrong), the job size, the
// test hook's hosts, the stonewall file. Fills the sweep's steps and the fake hosts.
int checkUsage(const Config& config, Comm& comm, std::vector<std::uint32_t>& steps,
               std::vector<std::string>& fake_hosts) {
  const bool root = comm.rank() == 0;
  std::string error;
  if (root) error = checkTargetsOnRoot(config, *makeStorage(config));
  if (const int status = agreeOnUsage(comm, error); status != kExitOk) return status;
  if (const std::string problem = checkJobSize(config, comm.size(), steps); !problem.empty()) {
    if (root) printError(problem);
    return kExitUsage;
  }
  if (root) error = checkDepthOnRoot(config, comm.size());
  if (const int status = agreeOnUsage(comm, error); status != kExitOk) return status;
  if (root) error = fakeHostsOnRoot(comm.size(), fake_hosts);
  if (const int status = agreeOnUsage(comm, error); status != kExitOk) return status;
  // -x: a file the run could not read, or would refuse to overwrite, is a usage error found now, not after
  // the results file was opened and the create phase ran.
  if (root && !config.stonewall_file.empty()) {
    error =
        checkStonewallFile(config.stonewall_file,
                           config.phases.create ? StonewallUse::kWrite : StonewallUse::kRead, config.items);
    if (!error.empty()) error = fmt::format("{}: {}", optionLabel("stonewall-file"), error);
  }
  // --saveRankPerformanceDetails: a FILE that is there already is refused now, before any phase runs.
  if (root && error.empty()) error = rankDetailsFileProblem(config.rank_details_csv);
  // --savePerOpDataCSV: every rank's file is looked at as -o is, before the results file is made.
  if (root && error.empty()) {
    error = perOpFilesProblem(config.per_op_csv_prefix, static_cast<std::uint32_t>(comm.size()),
                              config.sweep.active() ? steps : std::vector<std::uint32_t>{});
  }
  // --server-stats: a source that cannot be read now is a usage error, found before anything is touched.
  if (root && error.empty() && !config.server_stats.empty()) {
    std::unique_ptr<serverstats::ServerSampler> probe;
    error = serverstats::ServerSampler::open(config.server_stats, serverstats::kDefaultTimeout_s, probe,
                                             [] { return stopSignal() != 0; });
  }
  return agreeOnUsage(comm, error);
}

// Collective, after each setup step of the invocation: a stop request on any rank ends it there, before
// any phase, as a failed step would (the caller undoes what was made). 0 or the signal; rank 0 says so.
int stopInSetup(Comm& comm, std::string_view step) {
  const int signal = agreeOnStop(comm);
  if (signal != 0 && comm.rank() == 0) {
    fmt::print(stderr,
               "mdbench: stopped by {} during setup ({}), before the first phase: nothing was recorded, and "
               "what the run made was removed\n",
               signalName(signal), step);
  }
  return signal;
}

// What a run works in, once made: the targets (rank 0's), every rank's paths, this rank's backend.
struct Workspace {
  std::unique_ptr<Storage> storage;
  std::vector<Target> targets;
  std::vector<std::string> target_paths;
  std::unique_ptr<Backend> backend;
};

// Collective: the results file (rank 0), then the targets, then each rank's backend on its target. On a
// failure what was made is removed again; returns the exit status (kExitOk to go on).
int prepareRun(const Config& config, Comm& comm, const SchedulerInfo& scheduler, Output& output,
               Workspace& space) {
  const bool root = comm.rank() == 0;
  std::string error;
  int status = root ? openResultsOnRoot(config, scheduler, output, error) : kExitOk;
  if ((status = agreeOnRootStatus(comm, status, error)) != kExitOk) {
    if (root) printError(error);
    return status;
  }
  if (const int signal = stopInSetup(comm, "opening the results file"); signal != 0) {
    discardResults(output);
    return 128 + signal;
  }
  space.storage = makeStorage(config);
  if (root) error = prepareTargetsOnRoot(config, *space.storage, space.targets);
  if ((status = agreeOnRootStatus(comm, error.empty() ? kExitOk : kExitFailed, error)) != kExitOk) {
    if (root) printError(error);
    discardResults(output);
    return status;
  }
  std::string paths = joinPaths(space.targets, '\n');
  comm.broadcast(paths);
  std::istringstream lines(paths);
  for (std::string line; std::getline(lines, line);) space.target_paths.push_back(line);
  const std::string& my_target = space.target_paths[comm.rank() % space.target_paths.size()];
  int err = 0;
  space.backend = space.storage->open(my_target, comm.rank(), err);
  // The storage's own words when it has them (a CephFS client that could not mount on this rank).
  const std::string refusal = err != 0 ? space.storage->lastProblem() : std::string();
  error = refusal.empty() ? agreeOnSetup(comm, err, fmt::format("cannot open target {}", my_target))
                          : agreeOnProblem(comm, refusal);
  const int signal = error.empty() ? stopInSetup(comm, "making the targets") : 0;
  if (error.empty() && signal == 0) return kExitOk;
  space.backend.reset();
  if (root) {
    if (!error.empty()) printError(error);
    std::vector<std::string> problems;
    removeTargets(*space.storage, space.targets, Trees::kSetupFailed, problems, output.lines);
  }
  discardResults(output);
  return signal != 0 ? 128 + signal : kExitFailed;
}

// Collective. Returns the exit status, the same on every rank.
int runConfigured(const Config& config, Comm& comm) {
  std::vector<std::uint32_t> steps;
  std::vector<std::string> fake_hosts;
  const int usage = checkUsage(config, comm, steps, fake_hosts);
  // The checks read every --server-stats source once: a stop then (a slow command) ends the run here.
  if (const int signal = stopInSetup(comm, "checking the options"); signal != 0) return 128 + signal;
  if (usage != kExitOk) return usage;
  const SchedulerInfo scheduler = detectScheduler();
  Output output;
  if (config.console == ConsoleStyle::kMdtest) output.lines = stderr;
  Workspace space;
  if (const int status = prepareRun(config, comm, scheduler, output, space); status != kExitOk) return status;

  const Placement placement = placeRanks(comm, fake_hosts);
  // The TSC where the kernel keeps time with it (cheaper per op; clock.hpp), else CLOCK_MONOTONIC.
  const std::unique_ptr<Clock> clock = makeRunClock();
  const RunSetup setup{config,    *space.storage, space.targets, space.target_paths,
                       placement, scheduler,      output,        *clock};
  if (config.sweep.active()) {
    space.backend.reset();  // each step opens its ranks' targets
    return runSweep(comm, setup, steps);
  }
  const std::string& my_target = space.target_paths[comm.rank() % space.target_paths.size()];
  const Plan plan(config, placement.node_of_rank);
  RunResult result =
      runWorkload(comm, *space.backend, my_target, plan,
                  describeRun(setup, comm.size(), placement.host_of_rank, placement.nodes, {}), setup);
  space.backend.reset();
  int status = kExitOk;
  if (comm.rank() == 0) {
    const bool keeps = config.keep || !config.phases.remove;
    // A stop before the first phase is a setup failure: only what this run made goes, --keep or not.
    const bool before_phases = result.stop_signal != 0 && !result.phases_began;
    const Trees trees = !result.setup_error.empty() || before_phases ? Trees::kSetupFailed
                        : keeps                                      ? Trees::kKept
                        : result.stop_signal != 0                    ? Trees::kMaybe
                                                                     : Trees::kRemoved;
    removeTargets(*space.storage, space.targets, trees, result.cleanup_problems, output.lines);
    status = exitStatusOf(result);
    reportStop(result, keeps);
    if (before_phases) {
      discardStoppedRun(output);
    } else {
      status = finishRun(output, status);
    }
  }
  std::fflush(stdout);
  return static_cast<int>(comm.allreduceMax(static_cast<std::uint64_t>(status)));
}

// The status line, the last one, for job scripts: a launcher's own exit status can be 0 when the ranks' was
// not (Hydra's mpiexec after SIGTERM), so they take it from here (jobscripts/README.md).
void printStatusLine(int status) {
  fmt::print(stderr, "mdbench: exit status {} ({})\n", status, exitStatusMeaning(status));
}

// A command line that does not parse: every problem, then where to look.
void printParseErrors(const CliRequest& request) {
  for (const std::string& e : request.errors) printError(e);
  fmt::print(stderr, "Try 'mdbench --help' for the options.\n");
}

std::vector<std::string> runArgs(const std::vector<std::string>& args) {
  const bool explicit_run = !args.empty() && args[0] == "run";
  return explicit_run ? std::vector<std::string>(args.begin() + 1, args.end()) : args;
}

// The command line of a run: parseCommandLine's request, with what the config module cannot check alone:
// --fault-phase's names are selectable phases' (model/phase.hpp), or with --steady its phases', and
// each is a phase this run runs (plan.hpp's selection): a fault placed in a phase the job does not run would
// never be injected, and a failover test would pass without its failover.
CliRequest parseRun(const std::vector<std::string>& args) {
  CliRequest request = parseCommandLine(runArgs(args));
  const Config& c = request.config;
  const bool steady = c.steady_rounds > 0;
  const std::vector<Phase> selected =
      request.errors.empty() && !steady ? selectPhases(c) : std::vector<Phase>{};
  for (const std::string& name : c.fault_phases) {
    const std::optional<Phase> phase = parsePhaseName(name);
    if (steady && !parseSteadyPhaseName(name)) {
      request.errors.push_back(fmt::format("{} {}: --steady's phases are {}, {} or {}",
                                           optionLabel("fault-phase"), name, phaseName(kSteadyPhases[0]),
                                           phaseName(kSteadyPhases[1]), phaseName(kSteadyPhases[2])));
    } else if (!steady && !phase) {
      request.errors.push_back(fmt::format("{} {}: no such phase (file-create, file-stat, dir-remove, ...)",
                                           optionLabel("fault-phase"), name));
    } else if (!steady && !selected.empty() && std::ranges::find(selected, *phase) == selected.end()) {
      std::vector<std::string_view> runs;
      for (const Phase p : selected) runs.push_back(phaseName(p));
      request.errors.push_back(
          fmt::format("{} {}: this run has no {} phase, so its fault would never be "
                      "injected (the run's phases: {})",
                      optionLabel("fault-phase"), name, name, fmt::join(runs, ", ")));
    }
  }
  return request;
}

}  // namespace

std::optional<int> runWithoutMpi(const std::vector<std::string>& args) {
  if (const Subcommand* sub = args.empty() ? nullptr : findSubcommand(args[0])) {
    return sub->run(std::vector<std::string>(args.begin() + 1, args.end()));
  }
  const CliRequest request = parseRun(args);
  switch (request.action) {
    case CliAction::kHelp:
      fmt::print("{}", helpText());
      return kExitOk;
    case CliAction::kVersion:
      fmt::print("{}", versionText());
      return kExitOk;
    default:
      break;
  }
  if (request.errors.empty()) return std::nullopt;
  // As runApp would say it (a stop installed first, so a broken console is no SIGPIPE death).
  const StopSignals stop_signals;
  printParseErrors(request);
  printStatusLine(kExitUsage);
  return kExitUsage;
}

int runApp(const std::vector<std::string>& args, Comm& comm) {
  const bool root = comm.rank() == 0;
  // Subcommands need one process; under mpiexec the other ranks only wait for its status.
  if (const Subcommand* sub = args.empty() ? nullptr : findSubcommand(args[0])) {
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    int status = kExitOk;
    if (root) status = sub->run(rest);
    return static_cast<int>(comm.allreduceMax(static_cast<std::uint64_t>(status)));
  }
  const CliRequest request = parseRun(args);
  if (request.action == CliAction::kHelp) {
    if (root) fmt::print("{}", helpText());
    return kExitOk;
  }
  if (request.action == CliAction::kVersion) {
    if (root) fmt::print("{}", versionText());
    return kExitOk;
  }
  // From here on a signal stops the run after the current operation and phase; a second one exits at once.
  // Still installed for the status line: a console that breaks then is a stop too, not a SIGPIPE death.
  const StopSignals stop_signals;
  int status = kExitUsage;
  if (!request.errors.empty()) {
    if (root) printParseErrors(request);
  } else {
    if (root) {
      for (const std::string& w : request.warnings) printWarning(w);
    }
    status = runConfigured(request.config, comm);
  }
  if (root) printStatusLine(status);
  return status;
}

}  // namespace mdbench
