// The steps of a run around an iteration's phases (runner.cpp): reading -x's counts, the pre-delay,
// claiming the iteration directory and starting its ownership record, undoing that, cleaning up after a
// stop and releasing the directory's mark. Collective, each of them, unless it says otherwise.
#pragma once

#include <cstdint>
#include <string>

#include "mdbench/backend/backend.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/run/comm.hpp"

namespace mdbench {

// Items per rank that exist for each kind in this iteration: -n, -x's counts, or a stonewalled create's.
struct ItemLimits {
  std::uint64_t dirs = 0;
  std::uint64_t files = 0;
  std::uint64_t& of(ItemKind kind) { return kind == ItemKind::kDir ? dirs : files; }
};

// The iteration directory of one iteration, and what this rank did to it so far (undone in reverse order
// when the setup fails).
struct IterationDir {
  std::string name;    // mdbench.iter.N
  std::string where;   // the rank's own path to it, for messages
  std::string target;  // the rank's own target directory (-d), for messages
  DirHandle handle;
  bool made = false;    // this rank made it
  bool marked = false;  // this rank wrote its mark
};

// Not collective: whether the run leaves its trees for a later job (--keep, or a phase selection without
// removal); then a signal does not remove them either. The steady state always cleans up after itself.
bool keepsTrees(const Plan& plan);
// Not collective: --steady's engine parameters from the command line's (config.hpp).
SteadyConfig steadyConfigOf(const Config& config);

// -x without creating: rank 0 reads the counts an earlier job left; every rank learns them or the error.
std::string readLimits(Comm& comm, const Config& config, ItemLimits& limits);
// Rank 0 alone, after a create phase with -x: writes the counts the creates reached; "" or the problem.
std::string writeCreateCounts(const Plan& plan, const ItemLimits& limits);

// -p in slices that see a stop request on any rank; the signal, or 0 after the whole delay.
int preDelay(Comm& comm, double delay_s);

// Makes, opens and claims the iteration directory (`creates`: this job makes it; `leads`: the first rank
// of its target). "" or the problem, after undoing what this rank did.
std::string openIterationDir(Comm& comm, Backend& backend, IterationDir& it, bool creates, bool leads);
// Undoes what openIterationDir did on this rank, in reverse order; "" or "; <what stays>".
std::string undoIterationDir(Comm& comm, Backend& backend, IterationDir& it);
// Once the iteration directory is claimed: starts (creates: nothing made yet, in the job's layout `job`)
// or loads the ownership record of this rank's target (`target_comm`, taken_record.hpp), whose layout must
// be the job's (`usage` set when it is not: exit 2).
struct OwnershipStart {
  Comm& comm;
  Comm& target_comm;
  Backend& backend;
  DirHandle dir;
  bool creates = false;
  bool leads = false;
};
std::string startOwnership(const OwnershipStart& start, const std::string& where, const RecordLayout& job,
                           ItemFates& fates, bool& usage);

// After a signal stopped an iteration whose trees the run does not keep: every rank of a target removes its
// share of what the iteration made (`fates`' names it did not make stay), as the last phases would have.
// "" or the problem (what was left, in rank 0's words).
std::string removeAfterStop(Comm& comm, Backend& backend, const IterationDir& it, const ItemFates& fates,
                            std::uint32_t targets);

// What becomes of the iteration directory at the end of an iteration, on the rank that leads its target.
enum class DirEnd : std::uint8_t { kKeep, kRemove };
// At the end of an iteration: with kRemove, the ownership record (`record`, nullptr for the steady state,
// which keeps none) and the mark go, then the directory; a directory that cannot go gets both back. The
// handle is closed on every rank. "" or the agreed problem.
std::string releaseIterationDir(Comm& comm, Backend& backend, IterationDir& it, DirEnd end,
                                const ItemFates* record);

}  // namespace mdbench
