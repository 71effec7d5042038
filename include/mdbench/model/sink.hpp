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
  // Called as soon as a phase has been measured and collected, so a killed job keeps finished phases: each
  // selected phase, or under --steady each of an iteration's three (precreate, mix, cleanup; the mix's items
  // are its agreed rounds). A sink that does not show the steady state ignores those (phaseInfo's steady()).
  virtual void phase(const PhaseResult& result, const Plan& plan) = 0;
  virtual void end(const RunResult& result, const Plan& plan) = 0;
};

}  // namespace mdbench
