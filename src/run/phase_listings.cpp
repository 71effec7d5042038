// The listings a phase's type checks use (phase_listings.hpp).
#include "phase_listings.hpp"

#include <string>

#include "dir_cursor.hpp"
#include "mdbench/run/comm.hpp"

namespace mdbench {
namespace {

// A read, remove or rename phase lists each directory once for the type checks (TypeCheckBatch) when the
// tree is the rank's own or shared by at most this many ranks: beyond, each listing costs more.
constexpr std::uint32_t kMaxRanksListingSharedDirs = 8;

}  // namespace

bool listsBeforePhase(const Backend& backend, Phase phase) {
  if (phaseInfo(phase).renames()) return backend.checksTypesByListing(CheckedCall::kRename);
  switch (phase) {
    case Phase::kFileRemove:
      return backend.checksTypesByListing(CheckedCall::kUnlink);
    case Phase::kDirRemove:
      return backend.checksTypesByListing(CheckedCall::kRemoveDir);
    case Phase::kFileRead:
      return backend.checksTypesByListing(CheckedCall::kRead);
    default:
      return false;
  }
}

bool listsForTypeChecks(const Plan& plan) {
  return plan.settings().sharing == TreeSharing::kUnique || plan.ranks() <= kMaxRanksListingSharedDirs;
}

void shareTypeListings(const Plan& plan, const RunParts& parts, DirHandle iteration_dir, std::uint32_t owner,
                       ItemKind kind) {
  const EntryType type = kind == ItemKind::kDir ? EntryType::kDir : EntryType::kFile;
  const PhaseSettings& settings = plan.settings();
  const bool shared = settings.sharing != TreeSharing::kUnique;
  const std::uint32_t ranks = plan.ranks();
  const std::uint32_t rank = parts.comm.rank();
  if (settings.no_barriers) return;  // -B: no rank waits for another; each lists at its first remove there
  if (!settings.cmd_before_phase.empty()) parts.comm.barrier();  // every rank's hook done: its work listed
  std::string mine;
  {
    DirCursor cursor(parts.backend, iteration_dir, plan.layout(), settings.sharing, owner);
    for (std::uint64_t d = 0; d < plan.layout().dirCount(); ++d) {
      if (shared && d % ranks != rank) continue;
      DirHandle dir;
      if (cursor.open(d, dir) == 0) (void)parts.backend.listTypes(dir, type, mine);
    }
  }
  if (shared && ranks > 1) mine = gatherToAll(parts.comm, mine);
  parts.backend.adoptListings(mine);
}

}  // namespace mdbench
