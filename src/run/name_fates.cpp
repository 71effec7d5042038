// The fates of the names in one rank's phases (name_fates.hpp).
#include "name_fates.hpp"

#include <algorithm>
#include <cerrno>

namespace mdbench {

void NameFates::begin(std::uint32_t slots) {
  failed_here_.clear();
  failed_overflow_ = false;
  reach_.assign(slots, 0);
  creator_reach_set_ = false;
}

void NameFates::noteReach(std::uint32_t owner, std::uint64_t reached) {
  if (owner != kSharedOwner) {
    if (owner < reach_.size()) reach_[owner] = std::max(reach_[owner], reached);
    return;
  }
  if (creator_reach_set_) return;  // the -S create noted the creating rank's own pass
  std::fill(reach_.begin(), reach_.end(), reached);
}

void NameFates::noteCreatorReach(std::uint32_t rank, std::uint64_t reached) {
  if (rank < reach_.size()) reach_[rank] = reached;
  creator_reach_set_ = true;
}

void NameFates::noteFailure(Phase phase, std::uint32_t owner, std::uint64_t item, int err) {
  if ((err & ~kOpErrorMask) != 0) return;
  if (phase == Phase::kDirRename && err == EEXIST) return;
  ItemFate fate = ItemFate::kNotOurs;
  if (!phaseInfo(phase).creates() && phase != Phase::kDirRename) {
    fate = err == ENOENT ? ItemFate::kGone : ItemFate::kOriginalName;
  }
  keep(FailedItem{item, owner, err, fate});
}

void NameFates::noteRenamedNow(std::uint32_t owner, std::uint64_t item) {
  keep(FailedItem{item, owner, 0, ItemFate::kOurs});
}

void NameFates::noteLost(std::uint32_t owner, std::uint64_t item) {
  keep(FailedItem{item, owner, EEXIST, ItemFate::kNotOurs});
}

void NameFates::keep(const FailedItem& failed) {
  if (failed_here_.size() < kMaxItemFates) {
    failed_here_.push_back(failed);
  } else {
    failed_overflow_ = true;
  }
}

void NameFates::share(Comm& comm, ItemKind kind) {
  shareFailures(comm, failed_here_, failed_overflow_, kind, fates_);
  failed_here_.clear();
  failed_overflow_ = false;
}

}  // namespace mdbench
