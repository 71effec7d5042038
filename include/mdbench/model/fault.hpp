// Failover measurement (issue 34): the faults a phase injected (--fault-at/--fault-cmd), its stall (the
// longest interval in which no rank completed an operation) and each fault's recovery.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "mdbench/model/ops_series.hpp"

namespace mdbench {

// An interval without a successful completion on one rank, in seconds since the run's epoch.
struct Gap {
  double from = 0.0;
  double to = 0.0;
};

// One rank's intervals between successive successful completions in a phase (from its t_start to its first
// one, and from its last one on: to = +infinity, since the rank completes nothing more in the phase). Only
// gaps longer than threshold() are kept, at most kMaxGaps: when full, the threshold doubles and the shorter
// gaps go, so memory stays bounded (64 KiB) and every gap of the run that is longer than the final
// threshold is kept exactly.
class GapRecorder {
 public:
  static constexpr std::size_t kMaxGaps = 4096;
  static constexpr std::int64_t kFirstThresholdNs = 1'000'000;  // 1 ms

  // A phase starts at t_start_ns (on the rank's clock; epoch_ns is the run's epoch on it).
  void begin(std::int64_t t_start_ns, std::int64_t epoch_ns);
  // A successful completion at now_ns: the hot loops' call.
  void done(std::int64_t now_ns) {
    if (now_ns - last_ns_ > threshold_ns_) [[unlikely]]
      keep(last_ns_, now_ns);
    last_ns_ = now_ns;
  }
  // The phase's operations ended on this rank: the open gap after its last completion is added.
  void finish();
  const std::vector<Gap>& gaps() const { return gaps_; }
  std::int64_t thresholdNs() const { return threshold_ns_; }

 private:
  void keep(std::int64_t from_ns, std::int64_t to_ns);
  double seconds(std::int64_t ns) const { return static_cast<double>(ns - epoch_ns_) * 1e-9; }
  std::int64_t epoch_ns_ = 0;
  std::int64_t last_ns_ = 0;
  std::int64_t threshold_ns_ = kFirstThresholdNs;
  std::vector<Gap> gaps_;
};

// A phase's stall: the longest interval of [t_start, t_end] (the earliest rank's t_start, the latest rank's
// t_local_end) that lies in a gap of every rank, i.e. in which no rank completed an operation. Exact when
// longer than resolution_s (the largest threshold a rank's recorder reached); shorter stalls read as 0.
struct PhaseStall {
  bool measured = false;  // false: a results file older than version 9, or a phase whose ranks sent none
  double stall_s = 0.0;
  double t_start = 0.0;  // where it began and ended, seconds since the run's epoch (0 and 0 when none)
  double t_end = 0.0;
  double resolution_s = 0.0;
};

// The longest interval of [t_start, t_end] covered by a gap of every one of `per_rank` (each rank's gaps
// disjoint and in order, as GapRecorder keeps them).
PhaseStall commonStall(const std::vector<std::vector<Gap>>& per_rank, double t_start, double t_end,
                       double resolution_s);

// What became of one --fault-at/--fault-cmd pair in one phase (rank 0's record).
struct FaultRecord {
  static constexpr double kNotRecovered = -1.0;  // recovery_s: the rate never came back within the phase
  double at_s = 0.0;                             // the time asked for, seconds into the phase
  std::string command;                           // as given
  bool injected = false;  // false: the phase ended first ("the fault was not injected")
  double t_start = 0.0;   // when the command started, seconds after the phase's t_start (injected only)
  std::int32_t exit_status = -1;  // the shell's exit status; -1: not injected, killed, or not started
  std::string problem;  // "" when it exited 0; else what happened ("exit status 3", "killed by SIGTERM")
  std::string output;   // its stdout and stderr, at most kMaxOutput bytes (then "[... N bytes more]")
  // Seconds from t_start to the first whole second (windows counted from t_start) whose rate is at least
  // half the median rate of the whole seconds before it, after one that was not (the dip); 0 when no whole
  // second fell below half; kNotRecovered, or NaN when it cannot be measured (not injected, no whole second
  // before the fault, no series).
  double recovery_s = std::numeric_limits<double>::quiet_NaN();
  bool failed() const { return !problem.empty(); }
  static constexpr std::size_t kMaxOutput = 4096;
};

// The recovery of a fault started `fault_s` seconds after the phase's start, from the phase's series of
// successful ops per interval (all ranks' totals) and the phase's length: the rate of a window [a, a + 1)
// is the ops of the intervals in it (an interval partly in it counts in proportion). NaN when the series is
// empty or no whole second precedes the fault; 0 when no window after the fault falls below half the
// median; else the start of the first window that reaches half the median after one that did not (a window
// before the dip, while the fault's command had not yet acted, is no recovery), FaultRecord::kNotRecovered
// when none does within the phase.
double recoverySeconds(const OpsSeries& series, double fault_s, double phase_s);

// Where a phase's stall lay, in seconds into the phase. Times into a phase count from rank 0's t_start (the
// faults' t_start does too: rank 0 starts them), given as `phase_t_start`, seconds since the run's epoch.
struct StallSpan {
  double from = 0.0;
  double to = 0.0;
};
StallSpan stallIntoPhase(const PhaseStall& stall, double phase_t_start);
// Whether there is a stall to show: measured, and longer than its resolution. A shorter one is not exact (a
// rank keeps only gaps longer than the resolution, and the open one after its last completion, so the few
// microseconds between the last completion and the phase's end show as a stall), and reads as "under" it.
bool hasStall(const PhaseStall& stall);

struct PhaseTimeline;
struct PhaseResult;
// The console's words for a phase's stall and faults: nothing when no fault was given. `t_start`: rank 0's
// (model's stallIntoPhase), `failed` the phase's failed ops, `latency_max_ns` its slowest successful op.
// "stall 0.512 s (1.234-1.746 s into the phase), 0 failed ops, latency max 0.515 s", then per fault
// "fault 1 at 2 s: started at 2.003 s, exit status 0, recovery 1 s: CMD" or "... the fault was not
// injected (the phase ended first): CMD". The report's failover table says the same with these helpers.
std::vector<std::string> failoverLines(const PhaseTimeline& timeline, double t_start, std::uint64_t failed,
                                       std::uint64_t latency_max_ns);
std::vector<std::string> failoverLines(const PhaseResult& result);
// A stall in words: "0.512 s (1.234-1.746 s into the phase)", "under 0.001 s" (not longer than its
// resolution), "not measured" (results older than version 9).
std::string stallText(const PhaseStall& stall, double phase_t_start);
// What became of one fault: "started at 2.003 s, exit status 0" (or its problem: "started at 2.003 s, exit
// status 3"), or "the fault was not injected (the phase ended first)".
std::string faultOutcomeText(const FaultRecord& fault);
// One fault's recovery in words: "1 s", "not recovered within the phase", "not measured".
std::string recoveryText(double recovery_s);

}  // namespace mdbench
