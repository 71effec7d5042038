#include "mdbench/app.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <hdf5.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <sstream>

#include "mdbench/clock.hpp"
#include "mdbench/config.hpp"
#include "mdbench/console_sink.hpp"
#include "mdbench/errno_name.hpp"
#include "mdbench/fsinfo.hpp"
#include "mdbench/metrics.hpp"
#include "mdbench/mpi_comm.hpp"
#include "mdbench/plan.hpp"
#include "mdbench/posix_backend.hpp"
#include "mdbench/results_file.hpp"
#include "mdbench/runner.hpp"
#include "mdbench/scheduler.hpp"
#include "mdbench/version.hpp"
#include "tools.hpp"

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

// A directory the run works in. Decided on rank 0, shared with every rank.
struct Target {
  std::string path;      // absolute
  bool created = false;  // this run made it (and so may remove it when it is empty)
};

// Rank 0 only: finds or makes one target directory. Returns "" or a message for the user.
std::string prepareTarget(std::string path, Target& target) {
  if (path.empty()) {
    // A fresh directory in the cwd, named so that concurrent and later runs never collide.
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    path = fmt::format("mdbench.{}.{}", stamp, static_cast<long>(getpid()));
  }
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      return fmt::format(
          "target {} is a symbolic link; mdbench never follows links: give the directory it points to", path);
    }
    if (!S_ISDIR(st.st_mode)) return fmt::format("target {} exists and is not a directory", path);
  } else if (errno != ENOENT) {
    return fmt::format("cannot use target {}: {}", path, describeErrno(errno));
  } else if (mkdir(path.c_str(), 0777) != 0) {
    return fmt::format("cannot create target directory {}: {}", path, describeErrno(errno));
  } else {
    target.created = true;
  }
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) {
    return fmt::format("cannot resolve target {}: {}", path, describeErrno(errno));
  }
  target.path = resolved;
  return {};
}

// Rank 0 only: every target (-d A@B@C), or the one fresh default directory. On failure, removes what
// it made and returns the message.
std::string prepareTargetsOnRoot(const Config& config, std::vector<Target>& targets) {
  const std::vector<std::string> paths =
      config.targets.empty() ? std::vector<std::string>{""} : config.targets;
  for (const std::string& path : paths) {
    Target target;
    if (std::string error = prepareTarget(path, target); !error.empty()) {
      for (const Target& made : targets) {
        if (made.created) rmdir(made.path.c_str());
      }
      targets.clear();
      return error;
    }
    targets.push_back(target);
  }
  return {};
}

std::string joinPaths(const std::vector<Target>& targets, char separator) {
  std::string joined;
  for (const Target& t : targets) joined += (joined.empty() ? "" : std::string(1, separator)) + t.path;
  return joined;
}

// Collective: where every rank runs. Rank 0 learns the hosts; every rank learns every rank's node index
// (the plan's node-aware shift needs it).
struct Placement {
  std::vector<std::string> host_of_rank;  // rank 0 only
  std::vector<std::uint32_t> node_of_rank;
  std::uint32_t nodes = 1;
};

Placement placeRanks(Comm& comm) {
  Placement placement;
  const NodeMap map = gatherNodeMap(comm);
  std::string encoded;
  if (comm.rank() == 0) {
    const NodeLayout layout = nodeLayout(map.host_of_rank);
    placement.host_of_rank = map.host_of_rank;
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

RunInfo describeRun(Comm& comm, const Config& config, const std::vector<Target>& targets,
                    const Placement& placement, const SchedulerInfo& scheduler) {
  RunInfo info;
  info.version = std::string(version());
  info.git_commit = std::string(gitCommit());
  info.command_line = config.command_line;
  info.target = joinPaths(targets, '@');
  info.start_utc = utcTimestampNow();
  info.ranks = comm.size();
  info.nodes = placement.nodes;
  info.host_of_rank = placement.host_of_rank;
  info.mpi_library = MpiSession::libraryVersion();
  info.hdf5_version = hdf5Version();
  info.scheduler = scheduler.scheduler;
  info.job_id = scheduler.job_id;
  info.job_name = scheduler.job_name;
  if (const auto fs = targets.empty() ? std::nullopt : probeFileSystem(targets.front().path)) {
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

// Rank 0's verdict on a setup step, shared with every rank: its exit status (kExitOk to go on) and message.
int agreeOnRootStatus(Comm& comm, int status, std::string& message) {
  comm.broadcast(message);
  return static_cast<int>(comm.allreduceMax(comm.rank() == 0 ? static_cast<std::uint64_t>(status) : 0));
}

struct Output {
  std::unique_ptr<Hdf5Sink> sink;
  bool created = false;  // the file did not exist before: ours to remove if the run never begins
};

// Rank 0: opens the results file before anything touches the target, so that a name clash is a usage
// error and costs nothing.
int openResultsOnRoot(const Config& config, const SchedulerInfo& scheduler, Output& output,
                      std::string& error) {
  // A default name is ours to choose: runs started in the same second from the same directory (a loop
  // in a job script) get "-2", "-3", ... rather than failing. A name the user gave is taken as given.
  const bool chosen = !config.output.empty();
  const std::string base = chosen ? config.output : defaultResultsName(scheduler, std::time(nullptr));
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

// Collective. Returns the exit status, the same on every rank.
int runConfigured(const Config& config, Comm& comm) {
  const bool root = comm.rank() == 0;
  if (config.targets.size() > comm.size()) {
    if (root) {
      fmt::print(stderr, "mdbench: error: -d/--dir: {} targets for {} ranks: each target needs a rank\n",
                 config.targets.size(), comm.size());
    }
    return kExitUsage;
  }
  const SchedulerInfo scheduler = detectScheduler();
  Output output;
  std::string error;
  int status = root ? openResultsOnRoot(config, scheduler, output, error) : kExitOk;
  if ((status = agreeOnRootStatus(comm, status, error)) != kExitOk) {
    if (root) fmt::print(stderr, "mdbench: error: {}\n", error);
    return status;
  }

  std::vector<Target> targets;
  if (root) error = prepareTargetsOnRoot(config, targets);
  if ((status = agreeOnRootStatus(comm, error.empty() ? kExitOk : kExitFailed, error)) != kExitOk) {
    if (root) fmt::print(stderr, "mdbench: error: {}\n", error);
    discardResults(output);
    return status;
  }
  std::string paths = joinPaths(targets, '\n');
  comm.broadcast(paths);
  std::vector<std::string> target_paths;
  std::istringstream lines(paths);
  for (std::string line; std::getline(lines, line);) target_paths.push_back(line);
  const std::string& my_target = target_paths[comm.rank() % target_paths.size()];

  int err = 0;
  std::unique_ptr<PosixBackend> backend = PosixBackend::open(my_target, err);
  error = agreeOnSetup(comm, err, fmt::format("cannot open target {}", my_target));
  if (!error.empty()) {
    if (root) {
      fmt::print(stderr, "mdbench: error: {}\n", error);
      for (const Target& t : targets) {
        if (t.created) rmdir(t.path.c_str());
      }
    }
    discardResults(output);
    return kExitFailed;
  }

  const Placement placement = placeRanks(comm);
  const Plan plan(config, placement.node_of_rank);
  SteadyClock clock;
  ConsoleSink console(stdout);
  std::vector<Sink*> sinks;
  if (output.sink) sinks.push_back(output.sink.get());  // first: a phase is on disk before it is shown
  sinks.push_back(&console);
  RunResult result = runBenchmark(plan, RunParts{comm, clock, *backend, my_target},
                                  describeRun(comm, config, targets, placement, scheduler), sinks);
  backend.reset();

  if (root) {
    if (!result.setup_error.empty()) fmt::print(stderr, "mdbench: error: {}\n", result.setup_error);
    const bool removed_tree = config.phases.remove && result.setup_error.empty();
    for (const Target& t : targets) {
      if (t.created && removed_tree) {
        if (rmdir(t.path.c_str()) != 0) {
          result.cleanup_problems.push_back(fmt::format("{} not removed: {}", t.path, describeErrno(errno)));
          fmt::print("cleanup: {}\n", result.cleanup_problems.back());
        }
      } else if (!removed_tree && result.setup_error.empty()) {
        fmt::print("kept:     {}\n", t.path);
      }
    }
    const bool failed =
        !result.setup_error.empty() || result.failedOps() > 0 || !result.cleanup_problems.empty();
    status = failed ? kExitFailed : kExitOk;
    output.sink->finish(status);
    fmt::print("results:  {} ({})\n", output.sink->path(), output.sink->runGroup());
  }
  std::fflush(stdout);
  return static_cast<int>(comm.allreduceMax(static_cast<std::uint64_t>(status)));
}

}  // namespace

int runApp(const std::vector<std::string>& args, Comm& comm) {
  const bool root = comm.rank() == 0;
  // Subcommands on results files need one process; under mpiexec the other ranks only wait for its status.
  if (!args.empty() && (args[0] == "validate" || args[0] == "export")) {
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    int status = kExitOk;
    if (root) status = args[0] == "validate" ? runValidate(rest) : runExport(rest);
    return static_cast<int>(comm.allreduceMax(static_cast<std::uint64_t>(status)));
  }
  const bool explicit_run = !args.empty() && args[0] == "run";
  const CliRequest request =
      parseCommandLine(explicit_run ? std::vector<std::string>(args.begin() + 1, args.end()) : args);
  if (!request.errors.empty() && request.action == CliAction::kRun) {
    if (root) {
      for (const std::string& e : request.errors) fmt::print(stderr, "mdbench: error: {}\n", e);
      fmt::print(stderr, "Try 'mdbench --help' for the options.\n");
    }
    return kExitUsage;
  }
  if (request.action == CliAction::kHelp) {
    if (root) fmt::print("{}", helpText());
    return kExitOk;
  }
  if (request.action == CliAction::kVersion) {
    if (root) fmt::print("{}", versionText());
    return kExitOk;
  }
  return runConfigured(request.config, comm);
}

}  // namespace mdbench
