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
// record (bounded, regular file only); the records are merged and every rank gets the result in `out`.
// Returns "" or the agreed setup error (a missing or damaged record: the directory is not used).
std::string loadTakenRecords(Comm& comm, Backend& backend, DirHandle dir, bool leads,
                             const std::string& where, ItemFates& out);

// An item a create or rename failed on, and whose it is (with -c rank 0 creates every rank's items).
struct FailedItem {
  std::uint64_t item = 0;
  std::uint32_t owner = 0;
};

// Collective, after a create or rename phase: every rank's failed items join `fates` on every rank with
// `fate`; `overflow` (a rank with more than kMaxItemFates) makes the kind all not ours.
void shareFailures(Comm& comm, std::span<const FailedItem> failed, bool overflow, ItemKind kind,
                   ItemFate fate, ItemFates& fates);

}  // namespace mdbench
