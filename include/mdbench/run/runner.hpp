// The runner: executes a plan's iterations and phases with the one barrier-timed phase loop.
#pragma once

#include <functional>
#include <span>
#include <string>

#include "mdbench/backend/backend.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/result.hpp"
#include "mdbench/model/run_result.hpp"
#include "mdbench/model/sink.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/run/comm.hpp"
#include "mdbench/run/progress.hpp"
#include "mdbench/util/clock.hpp"

namespace mdbench {

struct RunParts {
  Comm& comm;
  Clock& clock;
  Backend& backend;         // opened on this rank's target directory
  std::string target = {};  // that directory's path, for messages
  // Collective, when set: called on every rank after each phase has been collected, outside the timed
  // region. For benchmarks of mdbench itself (bench/interleave.cpp runs its reference there, so that the
  // two measure the same phase moments apart); a run never sets it.
  std::function<void(Phase)> after_phase = {};
  // Live progress (--progress): the reporter on rank 0 (nullptr elsewhere, and when off), and on every rank
  // whether the closing barrier of a phase lets rank 0 print while it waits (the same on every rank).
  ProgressReporter* progress = nullptr;
  bool progress_barrier = false;
};

// Collective, after each phase: one gather of every rank's record and one reduction of the latency
// histograms (summed in place into `latency` on rank 0). Rank 0's result holds every rank's record.
PhaseResult collectPhase(Comm& comm, std::uint32_t iteration, Phase phase, std::uint64_t items,
                         const RankPhaseRecord& record, LatencyHistogram& latency);
// Collective, after each phase: every rank's series is coarsened to the coarsest interval any rank
// reached, padded to the longest, and gathered; rank 0 gets the per-rank counts and their sums.
OpsSeries collectSeries(Comm& comm, SeriesRecorder& series);
// Collective, after each phase: every rank's gaps (padded to the most any rank kept) and threshold are
// gathered; rank 0 gets the phase's stall (fault.hpp's commonStall) between the earliest t_start and the
// latest t_local_end of `ranks` (the records of a selected or a --steady phase; empty on the other ranks).
PhaseStall collectStall(Comm& comm, const GapRecorder& gaps, const std::vector<RankPhaseRecord>& ranks);

// Collective: every rank calls it. Per iteration the first rank of each target (rank t for target t)
// makes the iteration directory (when creating) and removes it (when removing), untimed, after -p's delay.
// -x: a run that creates writes the counts its creates reached (after a stonewall: the agreed count);
// a run that does not create reads them first and works on that many items. Each phase: barrier, t_start, the
// planned ops, t_local_end, barrier, t_global_end; then the records are gathered and the latency
// histograms reduced to rank 0, which hands the phase to the sinks. A setup failure on any rank is agreed
// by all ranks (no rank is left in a barrier) and ends the run with RunResult::setup_error set.
// Rank 0's result holds every rank's records; other ranks' results hold no phases.
RunResult runBenchmark(const Plan& plan, RunParts parts, RunInfo info, std::span<Sink* const> sinks);

}  // namespace mdbench
