// The --steady part of `mdbench validate`'s consistency pass. Private to src/validate*.cpp.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mdbench/config/config.hpp"
#include "mdbench/results/results_file.hpp"

namespace mdbench::validation {

// An iteration's steady group as the reader gave it: its path and its phases (StoredRun::phases of the
// iteration, in order).
struct SteadyIteration {
  std::string group;  // "/runs/run-0000/iterations/iter-0000/steady"
  std::uint32_t iteration = 0;
  std::vector<const StoredPhase*> phases;
};
// The run's steady groups, in iteration order (none in a run without steady phases).
std::vector<SteadyIteration> steadyIterations(const StoredRun& run);

// One iteration's steady group: all three phases, the agreed rounds (at most --steady's; exactly that
// without a stonewall, unless a signal stopped this iteration: `stopped`) and each phase's rows, histograms,
// counts and summary. Throws a Problem at the first thing wrong. `file`: the open file `it` was read from,
// for the rows' rank and node columns, which the reader does not keep. `cut`: the job was killed before the
// run ended and this is its last steady iteration, so its phases may stop after the first or the second
// (each is written as it is done; rounds is 0 until the mix is).
void checkSteadyIteration(hid_t file, const SteadyIteration& it, const Config& config,
                          const std::vector<std::uint32_t>& node_of_rank, bool stopped, bool cut);

}  // namespace mdbench::validation
