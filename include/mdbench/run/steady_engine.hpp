// The steady-state engine: runs the precreate, mix and cleanup phases that model/steady.hpp describes,
// on the injected Comm, Clock and Backend, and fills the plain records defined there.
#pragma once

#include <cstdint>
#include <functional>

#include "mdbench/backend/backend.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/run/comm.hpp"
#include "mdbench/util/clock.hpp"

namespace mdbench {

// Called collectively after every round with the rounds done so far (1 .. R), outside the timings (the
// phase's t_local_end and t_global_end leave out the time spent in it, and so does the stonewall timer).
// For tests: e.g. a barrier and a count of the objects on disk. With a hook and a stonewall, the ranks
// agree after every round whether any timer fired (the hook synchronises them anyway) and then all stop
// after that round, so there is no wear-out.
using SteadyRoundHook = std::function<void(std::uint64_t rounds_done)>;

class FaultInjector;  // the runner's (--fault-at)

struct SteadyParts {
  Comm& comm;
  Clock& clock;
  Backend& backend;
  DirHandle dir;  // the run's directory: the same (new, empty) directory on every rank
  SteadyRoundHook after_round = {};
  // Every rank: each phase's successful ops of every type are counted per interval of this many ns (the
  // runner's --series-interval), its gaps kept for the stall (result.hpp's PhaseTimeline), as the runner's
  // phases do. A hook's pause (after_round) is inside them: a test's, never a run's.
  std::int64_t series_interval_ns = 100'000'000;
  // Rank 0 with --fault-at (nullptr elsewhere and without): told each phase's t_start, it starts the faults
  // of the phases it was given; each injected fault's recovery is measured from the phase's series.
  FaultInjector* faults = nullptr;
  std::uint32_t iteration = 0;  // the phases' iteration, and the fault commands' MDBENCH_ITERATION
  // Rank 0: each phase's result as soon as it is collected (the mix's holds its agreed rounds as its items),
  // e.g. for the sinks' phase().
  std::function<void(const PhaseResult& phase)> after_phase = {};
};

// Collective: every rank calls it with the same config, one that steadyConfigProblems accepts (the engine
// does not check it again). Rank 0's result holds every rank's records.
SteadyResult runSteady(const SteadyConfig& config, SteadyParts parts);

}  // namespace mdbench
