// When a phase takes the listings its type checks use (backend.hpp's checksTypesByListing; the backend keeps
// them, mdbench/backend/type_listings.hpp), for phase_ops.cpp and the executor: which phases list their
// directories before the opening barrier, and that listing shared between the ranks. Private to the runner.
#pragma once

#include <cstdint>

#include "mdbench/backend/backend.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/run/runner.hpp"

namespace mdbench {

// Whether the phase's calls check types by listings that shareTypeListings takes before its opening
// barrier: file-remove and renames always, dir-remove and read when the backend's calls need them.
bool listsBeforePhase(const Backend& backend, Phase phase);

// Whether a phase checks types by one listing of each directory (backend.hpp), not before each call: where
// the listing is not much larger than this rank's share of it (its own tree, or one shared by a few ranks).
bool listsForTypeChecks(const Plan& plan);

// Collective. Before the opening barrier of a phase whose calls check types by listings (listsBeforePhase),
// after its hook (outside its timing): one listing of each of its directories (backend.hpp), directory d by
// rank d mod ranks in a shared tree (every rank receives the few names not of the items' type), by its owner
// in -u's.
void shareTypeListings(const Plan& plan, const RunParts& parts, DirHandle iteration_dir, std::uint32_t owner,
                       ItemKind kind);

}  // namespace mdbench
