// The phase loop of one rank (runner.cpp's steps run it): the barrier-timed measurement of a phase, put
// together from its concerns: the timing and the stonewall's agreement (phase_timing.hpp), the hot loops
// (item_loop.hpp), each phase's operations (phase_ops.hpp), the names' fates (name_fates.hpp), the data
// (phase_data.hpp), the type checks' listings (phase_listings.hpp) and the phase commands (phase_hooks.hpp).
// Private to the runner.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dir_cursor.hpp"
#include "fault_injector.hpp"
#include "item_loop.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/result.hpp"
#include "mdbench/run/runner.hpp"
#include "name_fates.hpp"
#include "phase_data.hpp"
#include "phase_hooks.hpp"
#include "phase_ops.hpp"
#include "phase_timing.hpp"
#include "run_steps.hpp"

namespace mdbench {

// Everything one rank needs to measure a phase. `plan` outlives it.
class PhaseExecutor {
 public:
  PhaseExecutor(const Plan& plan, RunParts parts);
  PhaseExecutor(const PhaseExecutor&) = delete;
  PhaseExecutor& operator=(const PhaseExecutor&) = delete;

  void setEpoch(std::int64_t epoch_ns) { timing_.setEpoch(epoch_ns); }
  void setIteration(std::uint32_t iteration) { timing_.setIteration(iteration); }
  // The last phase's ops per interval on this rank (collectSeries gathers them).
  SeriesRecorder& series() { return timing_.series(); }
  // This rank's gaps between successful completions (collectStall); rank 0's --fault-at injector (t_start).
  const GapRecorder& gaps() const { return timing_.gaps(); }
  void setFaults(FaultInjector* faults) { timing_.setFaults(faults); }
  // --savePerOpDataCSV: the log every op of the following phases goes into (nullptr: off).
  void setPerOpLog(PerOpLog* log) { timing_.setPerOpLog(log); }
  // What the last phase's --run-cmd-before-phase and --run-cmd-after-phase said on this rank ("" when
  // they succeeded or there were none).
  const std::string& beforeCommandProblem() const { return commands_.beforeProblem(); }
  const std::string& afterCommandProblem() const { return commands_.afterProblem(); }

  // --run-cmd-before-phase, barrier, t_start, the planned operations (with the stonewall's agreement and
  // wear-out), -Y's sync, --run-cmd-after-phase, t_local_end, barrier, t_global_end. With -B no barrier:
  // each rank goes on to the phase's work and then out of it on its own, and its t_global_end is its
  // t_local_end. With -c rank 0 does every rank's operations of the collective phases (metrics.hpp).
  RankPhaseRecord measure(Phase phase, DirHandle iteration_dir, ItemLimits& limits,
                          LatencyHistogram& latency);

  // Collective, after a create or rename phase: every rank learns which items could not be created (the name
  // was taken, or the create failed: not made by this run) or renamed (still under the original name).
  // Later phases, whichever rank -N gives the items to, skip the former (failed, EEXIST) and use the
  // original name for the latter; the lead ranks write it all into the ownership record for later jobs.
  void shareFailures(Comm& comm, Phase phase) { names_.share(comm, itemKindOf(phase)); }
  ItemFates& fates() { return names_.fates(); }
  // Per slot (ItemFates::slotOf), the items this rank's last item phase attempted, [0, count).
  const std::vector<std::uint64_t>& reach() const { return names_.reach(); }
  // Whether the last tree-create was stopped by a signal before it made every directory.
  bool treeStopped() const { return tree_stopped_; }

  // The item count readdir checks against (the phase's kind), set before a readdir phase.
  void setReaddirLimit(std::uint64_t limit) { loop_.setReaddirLimit(limit); }
  // Items per rank the last item phase worked on (a stonewall's agreed count when it stopped early).
  std::uint64_t lastItems() const { return items_; }
  // The errno of -Y's sync (or syncfs) at the end of the last phase (0: fine, or no -Y).
  int lastSyncError() const { return sync_error_; }

 private:
  std::uint64_t collectivePlanned(Phase phase, std::uint64_t limit) const;
  void executeForEveryOwner(Phase phase, DirHandle iteration_dir, std::uint64_t limit);
  std::uint64_t wearOut(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t reached,
                        ItemLimits& limits);
  void closePhase(Phase phase, std::int64_t t_start);
  std::uint64_t plannedOps(Phase phase, std::uint64_t limit) const;

  const Plan& plan_;
  RunParts parts_;
  std::uint32_t rank_;
  PhaseTiming timing_;
  NameFates names_;
  PhaseData data_;
  ItemLoop loop_;
  PhaseOps ops_;
  PhaseCommands commands_;
  bool tree_stopped_ = false;
  std::uint64_t items_ = 0;
  int sync_error_ = 0;
};

}  // namespace mdbench
