// The ownership record of an iteration directory (ownership.hpp's format) on a backend, and the exchanges
// that give every rank the same ItemFates. Private to the runner.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "mdbench/backend/backend.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/run/comm.hpp"

namespace mdbench {

// Replaces the record in `dir` with `fates`: the old record goes first, then the new one is written under a
// temporary name (O_EXCL, never through a link) and renamed into place, so a record that is there is
// always complete, and a failure leaves none (a later job then refuses the directory rather than guessing).
// Returns 0 or the errno of the step that failed.
int writeTakenRecord(Backend& backend, DirHandle dir, const ItemFates& fates);
// Removes the record (and a temporary left by a crash); ENOENT counts as done.
int removeTakenRecord(Backend& backend, DirHandle dir);

// Collective, for a job that did not create the items: the lead rank of each target reads its target's
// record (bounded, regular file only) and hands it to the ranks of its target (`target_comm`: the ranks of
// this rank's target, the lead first); every rank gets its target's record in `out`, checked against the
// job's own layout (`job`). Returns "" or the agreed setup error: a missing or damaged record (the
// directory is not used), or a layout that differs (`usage` set: the options are wrong, exit 2).
std::string loadTakenRecords(Comm& comm, Comm& target_comm, Backend& backend, DirHandle dir, bool leads,
                             const std::string& where, const RecordLayout& job, ItemFates& out, bool& usage);

// An item a create or rename failed on, whose it is (with -c rank 0 creates every rank's items), the errno
// and what it means for the item's names.
struct FailedItem {
  std::uint64_t item = 0;
  std::uint32_t owner = 0;
  std::int32_t err = 0;
  ItemFate fate = ItemFate::kNotOurs;
};

// Collective, after a create or rename phase: every rank's failed items join `fates` on every rank;
// `overflow` (a rank with more than kMaxItemFates) makes the kind all not ours.
void shareFailures(Comm& comm, std::span<const FailedItem> failed, bool overflow, ItemKind kind,
                   ItemFates& fates);

}  // namespace mdbench
