// What a phase does besides its operations, on request: mdtest's phase commands (--run-cmd-before-phase,
// --run-cmd-after-phase) and the per-op record (--savePerOpDataCSV). Private to the runner.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mdbench/model/phase.hpp"

namespace mdbench {

class NewFile;

// How long a hook has after the SIGTERM a stop sends its process group, before SIGKILL.
inline constexpr double kHookGrace_s = 2.0;

// Starts `command` through /bin/sh -c in a process group of its own (its pid is the group's id), with
// `added` ("NAME=value" each) in its environment in place of this process's values of those names, its
// stdout and stderr on `out_fd` when >= 0. Does not wait. Its pid, or -1 with `error` set.
pid_t spawnShellGroup(const std::string& command, const std::vector<std::string>& added, int out_fd,
                      std::string& error);

// Runs `command` through /bin/sh -c, in a process group of its own, with MDBENCH_PHASE (the phase's stable
// name), MDBENCH_ITERATION and MDBENCH_RANK added to this process's environment, and waits for it. A stop
// request (signals.hpp) while it runs sends its group SIGTERM, then SIGKILL after kHookGrace_s. "" when it
// exited with status 0 unstopped, else what happened ("exit status 3", "killed by SIGKILL", "cannot run
// /bin/sh: ENOENT ...", "stopped with the run: SIGTERM to its process group; killed by SIGTERM").
std::string runPhaseCommand(const std::string& command, std::string_view phase, std::uint32_t iteration,
                            std::uint32_t rank);

// --run-cmd-before-phase and --run-cmd-after-phase on one rank (runPhaseCommand, each when given, around the
// phases mdtest brackets: PhaseInfo::bracketed, not the tree phases), and what each said in the last phase
// ("" when it succeeded or there was none).
class PhaseCommands {
 public:
  PhaseCommands(std::string before, std::string after, std::uint32_t rank)
      : before_(std::move(before)), after_(std::move(after)), rank_(rank) {}

  bool hasBefore() const { return !before_.empty(); }
  void runBefore(Phase phase, std::uint32_t iteration) { before_problem_ = run(before_, phase, iteration); }
  void runAfter(Phase phase, std::uint32_t iteration) { after_problem_ = run(after_, phase, iteration); }
  const std::string& beforeProblem() const { return before_problem_; }
  const std::string& afterProblem() const { return after_problem_; }

 private:
  std::string run(const std::string& command, Phase phase, std::uint32_t iteration) const {
    if (command.empty() || !phaseInfo(phase).bracketed()) return {};
    return runPhaseCommand(command, phaseName(phase), iteration, rank_);
  }

  std::string before_;
  std::string after_;
  std::uint32_t rank_;
  std::string before_problem_;
  std::string after_problem_;
};

// --savePerOpDataCSV: one rank's file of every op it did (start relative to its phase's t_start, and
// duration), written after each phase (outside the timing) into a new file that is put in place at the end
// of the run, never over an existing one. Each phase records at most kMaxOps ops; the rest are counted as
// dropped.
class PerOpLog {
 public:
  static constexpr std::size_t kMaxOps = 1'000'000;  // per rank and phase: 24 MB of records at most

  // This rank's file: PREFIX-<rank, 5 digits>.csv (mdtest's per-rank form, without the phase: one file
  // holds every phase), or PREFIX-step<N>-<rank>.csv in sweep step N.
  static std::string pathFor(const std::string& prefix, std::uint32_t rank, std::uint32_t sweep_step);

  explicit PerOpLog(std::size_t max_ops = kMaxOps);
  ~PerOpLog();
  PerOpLog(const PerOpLog&) = delete;
  PerOpLog& operator=(const PerOpLog&) = delete;

  // Checks that nothing has the name and starts the new file: "" or the problem.
  std::string open(const std::string& path);

  // The hot loop's call, once per op when the option is on.
  void add(std::uint64_t op, std::int64_t start_ns, std::int64_t end_ns) {
    if (ops_.size() < max_ops_) [[likely]] {
      ops_.push_back(Op{op, start_ns, end_ns - start_ns});
    } else {
      ++dropped_;
    }
  }
  // Starts a phase whose t_start is `t_start_ns` and that plans `planned` ops (room for them is made now,
  // so that the loop does not grow the buffer).
  void begin(std::int64_t t_start_ns, std::uint64_t planned);
  // Writes the phase's rows and forgets them; returns the ops dropped in it. Write errors are kept for
  // finish().
  std::uint64_t end(std::string_view phase, std::uint32_t iteration, std::uint32_t rank);
  // Puts the file in place: "" or the problem.
  std::string finish();

 private:
  struct Op {
    std::uint64_t op;  // the item number, or the tree directory for tree and readdir phases
    std::int64_t start_ns;
    std::int64_t duration_ns;
  };
  std::size_t max_ops_;
  std::unique_ptr<NewFile> file_;
  std::string error_;
  std::vector<Op> ops_;
  std::int64_t t_start_ns_ = 0;
  std::uint64_t dropped_ = 0;
};

}  // namespace mdbench
