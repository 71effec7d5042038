// A run's result in the runner's hands: what it measured, phase by phase, and what went wrong beside the
// operations. Its measured part is what a results file keeps and reads back (results_file.hpp's StoredRun:
// the same RunInfo, Config and PhaseResult, with what the file stores beside them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mdbench/config/config.hpp"
#include "mdbench/model/result.hpp"

namespace mdbench {

struct RunResult {
  RunInfo info;
  Config config;
  // Iteration-major, in execution order: the selected phases', or --steady's (precreate, mix, cleanup of
  // each iteration; a steady run has no others). The series' per-rank counts are released.
  std::vector<PhaseResult> phases;
  std::string setup_error;  // non-empty: the run could not start or continue (exit 1)
  bool setup_usage =
      false;  // the setup error is the options' (a later job's layout is not the create job's): exit 2
  // What went wrong beside the operations, each once (exit 1): a phase command, a record or sync after a
  // phase, the per-op files, -x's counts, the rank details file. The run went on after each.
  std::vector<std::string> problems;
  // What the run made and could not remove (exit 1): a sweep's next step would run into it, so it ends there.
  std::vector<std::string> cleanup_problems;
  // The stop request (signals.hpp) that stopped the run after the phase it arrived in; 0: none. The exit
  // status is then 128 + it.
  int stop_signal = 0;
  // Rank 0: where the signal stopped it when not after a phase ("" otherwise): --steady, e.g. "in the
  // steady mix of iteration 0 after 1234 of 100000 rounds", or "during the pre-delay (-p) of iteration 1".
  std::string steady_stopped_where;
  // Whether some phase (or steady iteration) began. A run stopped before that records nothing: --force and
  // --append leave the old file as it was, and a new results file is not kept.
  bool phases_began = false;
  // --server-stats: a source could not be read before or after some phase (exit status
  // kServerStatsIncomplete).
  bool server_stats_incomplete = false;
  // A --fault-cmd exited other than 0 (or could not run): recorded, the run went on, its exit status is 1.
  bool fault_failed = false;
  std::uint64_t failedOps() const;
};

}  // namespace mdbench
