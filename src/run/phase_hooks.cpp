// Phase commands and the per-op record: phase_hooks.hpp.
#include "phase_hooks.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iterator>
#include <thread>

#include "mdbench/run/signals.hpp"
#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/file_io.hpp"
#include "mdbench/util/process.hpp"

extern char** environ;

namespace mdbench {
namespace {

constexpr std::string_view kCsvHeader = "phase,iteration,rank,op,start_s,duration_s\n";

// Whether the environment entry NAME=... is one of `added`'s names.
bool overridden(const char* entry, const std::vector<std::string>& added) {
  for (const std::string& a : added) {
    const std::size_t name = a.find('=') + 1;
    if (std::strncmp(entry, a.c_str(), name) == 0) return true;
  }
  return false;
}

}  // namespace

namespace {

// How far a stop got with a hook's process group.
enum class HookStop : std::uint8_t { kNone, kTerminated, kKilled };

using HookClock = std::chrono::steady_clock;

// Sleeps until the hook's shell may have changed state: its pidfd readable (it exited), a signal (poll's
// EINTR: SA_RESTART does not restart poll), or `most` at the latest, so that a stop request that came just
// before the call is seen within it. Without a pidfd (an old kernel), a short sleep.
void waitAWhile(int pidfd, std::chrono::milliseconds most) {
  if (pidfd < 0) {
    std::this_thread::sleep_for(std::min(most, std::chrono::milliseconds(10)));
    return;
  }
  pollfd p{pidfd, POLLIN, 0};
  (void)::poll(&p, 1, static_cast<int>(most.count()));
}

// Waits for the hook's shell `pid`, the leader of a process group of its own. On a stop request (a signal
// to mdbench) the group gets SIGTERM, and SIGKILL if it is still there kHookGrace_s later, so that a stop
// never waits for a hook. Returns the wait status, `stop` saying what was sent.
int waitForHook(pid_t pid, HookStop& stop, std::string& error) {
  static constexpr std::chrono::milliseconds kStopLatency(100);
  // glibc 2.36's <sys/pidfd.h> declares pidfd_open without C linkage: the system call itself.
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  HookClock::time_point kill_at{};
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      error = fmt::format("cannot wait for /bin/sh: {}", describeErrno(errno));
      break;
    }
    if (stop == HookStop::kNone && stopSignal() != 0) {
      (void)::kill(-pid, SIGTERM);
      stop = HookStop::kTerminated;
      kill_at = HookClock::now() +
                std::chrono::duration_cast<HookClock::duration>(std::chrono::duration<double>(kHookGrace_s));
    } else if (stop == HookStop::kTerminated && HookClock::now() >= kill_at) {
      (void)::kill(-pid, SIGKILL);
      stop = HookStop::kKilled;
    }
    waitAWhile(pidfd, kStopLatency);
  }
  if (pidfd >= 0) ::close(pidfd);
  return status;
}

}  // namespace

pid_t spawnShellGroup(const std::string& command, const std::vector<std::string>& added, int out_fd,
                      std::string& error) {
  std::vector<char*> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (!overridden(*e, added)) env.push_back(*e);
  }
  std::vector<std::string> own = added;
  for (std::string& a : own) env.push_back(a.data());
  env.push_back(nullptr);
  SpawnSpec shell = shellCommand(command);
  shell.env = &env;
  if (out_fd >= 0) {
    shell.stdout_fd = out_fd;
    shell.stderr_fd = out_fd;
  }
  // A process group of its own: a stop signals the hook and whatever it started, and a signal to mdbench's
  // group (the job script's, at a time limit) reaches the hook only through mdbench, which then waits.
  shell.own_group = true;
  int err = 0;
  const pid_t pid = spawnProcess(shell, err);
  if (pid < 0) error = fmt::format("cannot run /bin/sh: {}", describeErrno(err));
  return pid;
}

std::string runPhaseCommand(const std::string& command, std::string_view phase, std::uint32_t iteration,
                            std::uint32_t rank) {
  const std::vector<std::string> added = {fmt::format("MDBENCH_PHASE={}", phase),
                                          fmt::format("MDBENCH_ITERATION={}", iteration),
                                          fmt::format("MDBENCH_RANK={}", rank)};
  std::string spawn_error;
  const pid_t pid = spawnShellGroup(command, added, -1, spawn_error);
  if (pid < 0) return spawn_error;
  HookStop stop = HookStop::kNone;
  std::string error;
  setChildGroup(pid);
  const int status = waitForHook(pid, stop, error);
  setChildGroup(0);
  if (!error.empty()) return error;
  std::string what = waitStatusText(status);
  if (stop == HookStop::kNone) return what;
  // The hook's fate when the run was stopped under it (even when it exited 0 on SIGTERM: it did not finish).
  return fmt::format("stopped with the run: SIGTERM to its process group{}; {}",
                     stop == HookStop::kKilled ? fmt::format(", SIGKILL {} s later", kHookGrace_s) : "",
                     what.empty() ? "exit status 0" : what);
}

std::string PerOpLog::pathFor(const std::string& prefix, std::uint32_t rank, std::uint32_t sweep_step) {
  return sweep_step == 0 ? fmt::format("{}-{:05}.csv", prefix, rank)
                         : fmt::format("{}-step{}-{:05}.csv", prefix, sweep_step, rank);
}

PerOpLog::PerOpLog(std::size_t max_ops) : max_ops_(max_ops) {}
PerOpLog::~PerOpLog() = default;

std::string PerOpLog::open(const std::string& path) {
  static constexpr std::string_view kRole = "per-op file (--savePerOpDataCSV)";
  const OutputCheck check = checkOutput(path, kRole);
  if (check.state == OutputState::kRegularFile) {
    return fmt::format("{} {} exists: choose another prefix or remove it (never overwritten)", kRole, path);
  }
  if (check.state == OutputState::kRefused) return check.problem;
  file_ = std::make_unique<NewFile>(path, kRole);
  if (!file_->error().empty()) {
    std::string problem = file_->error();
    file_.reset();
    return problem;
  }
  error_ = file_->write(kCsvHeader);
  return error_;
}

void PerOpLog::begin(std::int64_t t_start_ns, std::uint64_t planned) {
  t_start_ns_ = t_start_ns;
  ops_.clear();
  ops_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(planned, max_ops_)));
  dropped_ = 0;
}

std::uint64_t PerOpLog::end(std::string_view phase, std::uint32_t iteration, std::uint32_t rank) {
  std::string rows;
  rows.reserve(ops_.size() * 48);
  for (const Op& op : ops_) {
    fmt::format_to(std::back_inserter(rows), "{},{},{},{},{:.9f},{:.9f}\n", phase, iteration, rank, op.op,
                   static_cast<double>(op.start_ns - t_start_ns_) * 1e-9,
                   static_cast<double>(op.duration_ns) * 1e-9);
  }
  if (file_ != nullptr && error_.empty()) error_ = file_->write(rows);
  ops_.clear();
  return dropped_;
}

std::string PerOpLog::finish() {
  if (file_ == nullptr) return error_;
  if (error_.empty()) error_ = file_->commit(Replace::kNothing);
  file_.reset();
  return error_;
}

}  // namespace mdbench
