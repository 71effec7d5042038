// Output sinks: the console table, the HDF5 writer and exports all implement this; sinks do no math
// beyond calling metrics.hpp. Called on rank 0 only.
#pragma once

#include "mdbench/model/plan.hpp"
#include "mdbench/model/run_result.hpp"

namespace mdbench {

class Sink {
 public:
  virtual ~Sink() = default;
  virtual void begin(const RunInfo& info, const Plan& plan) = 0;
  // --steady: instead of phase(), once per iteration, its three phases (precreate, mix, cleanup) as soon as
  // they have been measured. A sink that does not show the steady state ignores it.
  virtual void steady(std::uint32_t /*iteration*/, const SteadyResult& /*result*/, const Plan& /*plan*/) {}
  // --steady: each of an iteration's phases as soon as it has been measured and collected, before steady()
  // has the whole iteration, so that a killed job keeps the phases it finished (the results file's).
  // `rounds` is the mix's agreed round count once the mix is done, 0 before.
  virtual void steadyPhase(std::uint32_t /*iteration*/, const SteadyPhaseResult& /*phase*/,
                           std::uint64_t /*rounds*/, const Plan& /*plan*/) {}
  // Called as soon as a phase has been measured and collected, so a killed job keeps finished phases.
  virtual void phase(const PhaseResult& result, const Plan& plan) = 0;
  virtual void end(const RunResult& result, const Plan& plan) = 0;
};

}  // namespace mdbench
