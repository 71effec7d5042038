// The steps around an iteration's phases (runner.cpp): the pre-delay, and claiming, undoing and starting
// the ownership record of the iteration directory. Collective, each of them.
#pragma once

#include <string>

#include "mdbench/backend/backend.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/run/comm.hpp"

namespace mdbench {

// The iteration directory of one iteration, and what this rank did to it so far (undone in reverse order
// when the setup fails).
struct IterationDir {
  std::string name;   // mdbench.iter.N
  std::string where;  // the rank's own path to it, for messages
  DirHandle handle;
  bool made = false;    // this rank made it
  bool marked = false;  // this rank wrote its mark
};

// Collective: makes, opens and claims the iteration directory (`creates`: this job makes it; `leads`: the
// first rank of its target). "" or the problem, after undoing what this rank did.
std::string openIterationDir(Comm& comm, Backend& backend, IterationDir& it, bool creates, bool leads);
// Collective: undoes what openIterationDir did on this rank, in reverse order; "" or "; <what stays>".
std::string undoIterationDir(Comm& comm, Backend& backend, IterationDir& it);
// Collective, once the iteration directory is claimed: starts (creates) or loads the ownership record.
std::string startOwnership(Comm& comm, Backend& backend, DirHandle dir, bool creates, bool leads,
                           const std::string& where, ItemFates& fates);
// Collective: -p in slices that see a stop request on any rank; the signal, or 0 after the whole delay.
int preDelay(Comm& comm, double delay_s);

}  // namespace mdbench
