// The timing of one rank's phase (phase_executor.hpp): the opening and closing barriers, t_start and the
// ends from the clock, the ops series, the gaps, rank 0's progress line and --fault-at, and the stonewall's
// deadline with the ranks' agreement after it. Private to the runner.
#pragma once

#include <cstdint>
#include <limits>

#include "fault_injector.hpp"
#include "mdbench/model/fault.hpp"
#include "mdbench/model/ops_series.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/result.hpp"
#include "mdbench/run/runner.hpp"
#include "phase_hooks.hpp"

namespace mdbench {

class PhaseTiming {
 public:
  static constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

  // `settings` and `parts` outlive this.
  PhaseTiming(const PhaseSettings& settings, const RunParts& parts) : settings_(settings), parts_(parts) {}

  void setEpoch(std::int64_t epoch_ns) { epoch_ns_ = epoch_ns; }
  void setIteration(std::uint32_t iteration) { iteration_ = iteration; }
  std::uint32_t iteration() const { return iteration_; }
  void setFaults(FaultInjector* faults) { faults_ = faults; }
  void setPerOpLog(PerOpLog* log) { per_op_ = log; }
  // --savePerOpDataCSV's log of the phase's ops (nullptr: off).
  PerOpLog* perOp() const { return per_op_; }
  SeriesRecorder& series() { return series_; }
  const GapRecorder& gaps() const { return gaps_; }

  // The opening barrier (not with -B) and t_start; the series, the gaps, --fault-at, the per-op log, the
  // progress line and the stonewall's deadline (by `rule`) start from it. Returns t_start.
  std::int64_t open(Phase phase, std::uint64_t planned, StonewallRule rule);
  // t_local_end, the closing barrier (not with -B) and t_global_end, into `record` with t_start, each in
  // seconds from the epoch.
  void close(std::int64_t t_start, RankPhaseRecord& record);

  // The loops' calls, per op. Whether the clock reached the next tick (the end of the series' interval or
  // rank 0's next progress line); then tick() before the op that completed at `now` is counted (it belongs
  // to the interval `now` is in). Rare: once per interval and progress line.
  bool due(std::int64_t now) const { return now >= next_tick_; }
  void tick(std::int64_t now, const RankPhaseRecord& record);
  // An op that succeeded at `now` (the gaps between them).
  void succeeded(std::int64_t now) { gaps_.done(now); }
  // Whether the stonewall's deadline passed at `now`; then noteStonewall() once: the stonewall's count and
  // time go into `record`, and the answer is whether the phase stops there.
  bool pastDeadline(std::int64_t now) const { return now >= deadline_ns_; }
  bool noteStonewall(std::int64_t now, RankPhaseRecord& record);
  // Collective, after a stonewall that stops the phase: the furthest count any rank reached (`reached`:
  // this rank's); the deadline is over.
  std::uint64_t agreeFurthest(std::uint64_t reached);

 private:
  double seconds(std::int64_t ns) const { return static_cast<double>(ns - epoch_ns_) * 1e-9; }
  std::int64_t nextTick() const;
  void closingBarrier(std::int64_t t_local_end, std::uint64_t done);

  const PhaseSettings& settings_;
  const RunParts& parts_;
  std::int64_t epoch_ns_ = 0;
  std::uint32_t iteration_ = 0;
  std::int64_t deadline_ns_ = kNever;
  bool stop_at_deadline_ = false;
  std::int64_t next_tick_ = kNever;  // min of the series' next boundary and rank 0's next progress line
  SeriesRecorder series_;
  GapRecorder gaps_;
  FaultInjector* faults_ = nullptr;
  PerOpLog* per_op_ = nullptr;
};

}  // namespace mdbench
