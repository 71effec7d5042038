#include "mdbench/app.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <hdf5.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "mdbench/clock.hpp"
#include "mdbench/config.hpp"
#include "mdbench/console_sink.hpp"
#include "mdbench/errno_name.hpp"
#include "mdbench/fsinfo.hpp"
#include "mdbench/metrics.hpp"
#include "mdbench/mpi_comm.hpp"
#include "mdbench/plan.hpp"
#include "mdbench/posix_backend.hpp"
#include "mdbench/runner.hpp"
#include "mdbench/version.hpp"

namespace mdbench {
namespace {

std::string versionText() {
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  return fmt::format("mdbench {} (commit {})\nMPI:  {}\nHDF5: {}.{}.{}\n", version(), gitCommit(),
                     MpiSession::libraryVersion(), major, minor, release);
}

// The directory the run works in. Decided on rank 0, shared with every rank.
struct Target {
  std::string path;      // absolute
  bool created = false;  // this run made it (and so may remove it when it is empty)
};

// Rank 0 only: finds or makes the target directory. Returns "" or a message for the user.
std::string prepareTargetOnRoot(const Config& config, Target& target) {
  std::string path = config.target;
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
          "target {} is a symbolic link; mdbench never follows links: give the directory it "
          "points to",
          path);
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

RunInfo describeRun(Comm& comm, const Config& config, const Target& target) {
  RunInfo info;
  const NodeMap nodes = gatherNodeMap(comm);
  info.version = std::string(version());
  info.git_commit = std::string(gitCommit());
  info.command_line = config.command_line;
  info.target = target.path;
  info.start_utc = utcTimestampNow();
  info.ranks = comm.size();
  info.nodes = nodes.nodes;
  info.host_of_rank = nodes.host_of_rank;
  info.mpi_library = MpiSession::libraryVersion();
  if (const auto fs = probeFileSystem(target.path)) {
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

// Collective. Returns the exit status, the same on every rank.
int runConfigured(const Config& config, Comm& comm) {
  const bool root = comm.rank() == 0;
  Target target;
  std::string error;
  if (root) error = prepareTargetOnRoot(config, target);
  comm.broadcast(error);
  if (!error.empty()) {
    if (root) fmt::print(stderr, "mdbench: error: {}\n", error);
    return kExitFailed;
  }
  comm.broadcast(target.path);

  int err = 0;
  std::unique_ptr<PosixBackend> backend = PosixBackend::open(target.path, err);
  error = agreeOnSetup(comm, err, fmt::format("cannot open target {}", target.path));
  if (!error.empty()) {
    if (root) fmt::print(stderr, "mdbench: error: {}\n", error);
    return kExitFailed;
  }

  const Plan plan(config, comm.size());
  SteadyClock clock;
  ConsoleSink console(stdout);
  Sink* const sinks[] = {&console};
  RunResult result =
      runBenchmark(plan, RunParts{comm, clock, *backend}, describeRun(comm, config, target), sinks);
  backend.reset();

  int status = kExitOk;
  if (root) {
    if (!result.setup_error.empty()) fmt::print(stderr, "mdbench: error: {}\n", result.setup_error);
    const bool removed_tree = config.phases.remove && result.setup_error.empty();
    if (target.created && removed_tree) {
      if (rmdir(target.path.c_str()) != 0) {
        result.cleanup_problems.push_back(
            fmt::format("{} not removed: {}", target.path, describeErrno(errno)));
        fmt::print("cleanup: {}\n", result.cleanup_problems.back());
      }
    } else if (!removed_tree && result.setup_error.empty()) {
      fmt::print("kept:     {}\n", target.path);
    }
    if (!result.setup_error.empty() || result.failedOps() > 0 || !result.cleanup_problems.empty()) {
      status = kExitFailed;
    }
  }
  std::fflush(stdout);
  return static_cast<int>(comm.allreduceMax(static_cast<std::uint64_t>(status)));
}

}  // namespace

int runApp(const std::vector<std::string>& args, Comm& comm) {
  const bool root = comm.rank() == 0;
  const CliRequest request = parseCommandLine(args);
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
