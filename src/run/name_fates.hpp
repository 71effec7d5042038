// The fates of the names in one rank's phases (phase_executor.hpp): the ownership record (ownership.hpp)
// the item phases name their items by, what this rank's create and rename phases found (shared with every
// rank after the phase, taken_record.hpp), and how far each owner's items were reached. Private to the
// runner.
#pragma once

#include <cstdint>
#include <vector>

#include "mdbench/model/layout.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/run/comm.hpp"
#include "taken_record.hpp"

namespace mdbench {

// An item's name in an item phase by the ownership record: under the name the record says the item has
// (the original, or the renamed one after a rename that succeeded), or nullptr for an item this run did not
// make (skipped; error() is what the phase counts it failed with: not made by the create job, not created,
// EEXIST for a name found taken). One test per op when every item up to the phase's limit is the run's
// under one name.
class PhaseNames {
 public:
  PhaseNames(const ItemFates& fates, ItemKind kind, std::uint32_t owner, std::uint64_t limit)
      : fates_(fates),
        kind_(kind),
        owner_(owner),
        original_(kind, owner, NameForm::kOriginal),
        renamed_(kind, owner, NameForm::kRenamed) {
    uniform_ = fates.uniform(kind, owner, limit, where_);
  }

  const char* operator()(std::uint64_t item) {
    if (uniform_) [[likely]]
      return where_ == ItemState::Where::kRenamed ? renamed_.name(item) : original_.name(item);
    const ItemState state = fates_.state(kind_, owner_, item);
    where_ = state.where;
    err_ = state.err;
    switch (state.where) {
      case ItemState::Where::kNone:
        return nullptr;
      case ItemState::Where::kRenamed:
        return renamed_.name(item);
      default:
        return original_.name(item);
    }
  }
  // After operator(): why the item was skipped, and whether its name is the renamed one.
  int error() const { return err_; }
  bool atRenamedName() const { return where_ == ItemState::Where::kRenamed; }
  // The original name whatever the item's fate: for the creates, which decide it.
  const char* planned(std::uint64_t item) { return original_.name(item); }

 private:
  const ItemFates& fates_;
  ItemKind kind_;
  std::uint32_t owner_;
  ItemNamer original_;
  ItemNamer renamed_;
  bool uniform_ = false;
  ItemState::Where where_ = ItemState::Where::kOriginal;
  int err_ = 0;
};

// What every rank knows of the run's names (fates()), and what this rank's phase found out about them.
class NameFates {
 public:
  ItemFates& fates() { return fates_; }
  const ItemFates& fates() const { return fates_; }
  // Per slot (ItemFates::slotOf), the items this rank's last item phase attempted, [0, count).
  const std::vector<std::uint64_t>& reach() const { return reach_; }

  // At a phase's start: nothing found yet, nothing reached in any of `slots`.
  void begin(std::uint32_t slots);
  // The items of `owner` this rank's pass of the phase attempted: [0, reached). With -S the creates are
  // kept per creating rank (ItemFates::slotOf), and rank 0's renames of the shared names count for all.
  void noteReach(std::uint32_t owner, std::uint64_t reached);
  // -S's create: this rank's own pass reached `reached` (noteReach leaves it as it is).
  void noteCreatorReach(std::uint32_t rank, std::uint64_t reached);

  // A failed create leaves a name this run does not own (with the create's errno); a failed rename leaves
  // the item under its original name, unless the rename found no item there (then neither name is known
  // to be the run's). Only EEXIST means the new name is someone else's. An item the record already kept
  // from the op (err: one of ownership.hpp's codes) keeps its fate. Shared after the phase (share) and
  // recorded; bounded per rank.
  // The directory rename keeps every name: a directory its rename left in place (EEXIST: the name it was to
  // take was found taken) is still the run's under its name; one gone or no longer a directory is not.
  void noteFailure(Phase phase, std::uint32_t owner, std::uint64_t item, int err);
  // An item an earlier rename left under its original name, renamed now: its exception goes.
  void noteRenamedNow(std::uint32_t owner, std::uint64_t item);
  // A name the directory rotation lost to another process: not the run's.
  void noteLost(std::uint32_t owner, std::uint64_t item);

  // Collective: every rank's findings of the phase (on `kind`'s items) join fates() on every rank.
  void share(Comm& comm, ItemKind kind);

 private:
  void keep(const FailedItem& failed);

  ItemFates fates_;
  // Items this rank's last create or rename phase failed on (bounded: past kMaxItemFates, overflow).
  std::vector<FailedItem> failed_here_;
  bool failed_overflow_ = false;
  std::vector<std::uint64_t> reach_;
  bool creator_reach_set_ = false;
};

}  // namespace mdbench
