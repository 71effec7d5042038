// Fault commands on rank 0: fault_injector.hpp.
#include "fault_injector.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>

#include "mdbench/run/signals.hpp"
#include "mdbench/util/process.hpp"
#include "phase_hooks.hpp"

namespace mdbench {

// A started fault command: its shell's pid (and group), the read end of its output pipe (-1 once at EOF).
struct FaultInjector::Running {
  std::size_t index = 0;
  pid_t pid = -1;
  int out = -1;
  std::size_t dropped = 0;  // output bytes beyond FaultRecord::kMaxOutput
  bool reaped = false;
};

namespace {

constexpr std::chrono::milliseconds kPollStep(5);

double secondsBetween(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Reads what the command wrote since the last call into its record (bounded), closing the pipe at EOF.
void drain(int& fd, FaultRecord& record, std::size_t& dropped) {
  char buf[4096];
  while (fd >= 0) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      const std::size_t room =
          FaultRecord::kMaxOutput - std::min(FaultRecord::kMaxOutput, record.output.size());
      const std::size_t kept = std::min(room, static_cast<std::size_t>(n));
      record.output.append(buf, kept);
      dropped += static_cast<std::size_t>(n) - kept;
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    ::close(fd);  // EOF or an error: nothing more to read
    fd = -1;
  }
}

}  // namespace

FaultInjector::~FaultInjector() {
  if (thread_.joinable()) (void)end();
}

void FaultInjector::begin(std::string_view phase, std::uint32_t iteration) {
  records_.clear();
  if (!phases_.empty() && std::find(phases_.begin(), phases_.end(), phase) == phases_.end()) return;
  for (const FaultSpec& f : faults_) {
    FaultRecord r;
    r.at_s = f.at_s;
    r.command = f.command;
    records_.push_back(std::move(r));
  }
  ended_ = false;
  start_ = std::chrono::steady_clock::now();
  thread_ = std::thread([this, name = std::string(phase), iteration] { run(name, iteration); });
}

std::vector<FaultRecord> FaultInjector::end() {
  ended_ = true;
  if (thread_.joinable()) thread_.join();
  return records_;
}

// Starts fault i with its output on a pipe; notes it in `running` when it started.
void FaultInjector::start(std::size_t i, const std::vector<std::string>& env, std::vector<Running>& running) {
  FaultRecord& r = records_[i];
  Pipe pipe = makePipe(/*nonblocking_read=*/true);
  if (pipe.err != 0) {
    r.problem = fmt::format("cannot make a pipe for its output: {}", std::strerror(pipe.err));
    return;
  }
  std::vector<std::string> own = env;
  own.back() = fmt::format("MDBENCH_FAULT_AT={}", faults_[i].at_s);
  // The time before the spawn: a command that stops this process (SIGSTOP to rank 0) would otherwise start
  // when the process resumes, after the stall it caused.
  r.t_start = secondsBetween(start_, std::chrono::steady_clock::now());
  const pid_t pid = spawnShellGroup(faults_[i].command, own, pipe.write_end.get(), r.problem);
  pipe.write_end.reset();
  if (pid < 0) return;
  r.injected = true;
  running.push_back(Running{i, pid, pipe.read_end.release()});
}

void FaultInjector::run(std::string phase, std::uint32_t iteration) {
  const std::vector<std::string> env = {fmt::format("MDBENCH_PHASE={}", phase),
                                        fmt::format("MDBENCH_ITERATION={}", iteration),
                                        fmt::format("MDBENCH_FAULT_AT=")};
  std::vector<Running> running;
  std::vector<bool> decided(faults_.size(), false);
  Time ended_at{};
  Time term_at{};
  bool terminated = false, killed = false;
  while (true) {
    const Time now = std::chrono::steady_clock::now();
    const bool ended = ended_.load();
    if (ended && ended_at == Time{}) ended_at = now;
    for (std::size_t i = 0; i < faults_.size(); ++i) {
      if (decided[i]) continue;
      if (ended) {  // the phase's operations ended first: "the fault was not injected"
        decided[i] = true;
        continue;
      }
      if (secondsBetween(start_, now) < faults_[i].at_s) continue;
      decided[i] = true;
      start(i, env, running);
    }
    bool all_done = std::all_of(decided.begin(), decided.end(), [](bool d) { return d; });
    for (Running& c : running) {
      drain(c.out, records_[c.index], c.dropped);
      if (c.reaped) continue;
      int status = 0;
      if (::waitpid(c.pid, &status, WNOHANG) == c.pid) {
        c.reaped = true;
        FaultRecord& r = records_[c.index];
        r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        r.problem = waitStatusText(status);
        if (killed || terminated) {
          r.problem = fmt::format("still running {} s after the phase: SIGTERM to its process group{}; {}",
                                  kWaitAfterPhase_s, killed ? ", then SIGKILL" : "",
                                  r.problem.empty() ? "exit status 0" : r.problem);
        }
      } else {
        all_done = false;
      }
    }
    if (all_done && std::all_of(running.begin(), running.end(), [](const Running& c) { return c.out < 0; }))
      break;
    // After the phase: the commands still running get kWaitAfterPhase_s (less on a stop request).
    const double after = ended ? secondsBetween(ended_at, now) : 0.0;
    const bool give_up = ended && (after > kWaitAfterPhase_s || stopSignal() != 0);
    if (give_up && !terminated) {
      for (const Running& c : running) {
        if (!c.reaped) (void)::kill(-c.pid, SIGTERM);
      }
      terminated = true;
      term_at = now;
    } else if (terminated && !killed && secondsBetween(term_at, now) > kHookGrace_s) {
      for (Running& c : running) {
        if (!c.reaped) (void)::kill(-c.pid, SIGKILL);
        if (c.out >= 0) {  // a grandchild may hold the pipe open: stop reading
          ::close(c.out);
          c.out = -1;
        }
      }
      killed = true;
    }
    std::this_thread::sleep_for(kPollStep);
  }
  for (const Running& c : running) {
    if (c.dropped > 0) records_[c.index].output += fmt::format("[... {} bytes more]", c.dropped);
  }
}

}  // namespace mdbench
