#include "taken_record.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "mdbench/model/layout.hpp"

namespace mdbench {
namespace {

const std::string kRecord(kTakenName);
const std::string kTemp(kTakenTempName);

int removeIfThere(Backend& backend, DirHandle dir, const std::string& name) {
  const int err = backend.unlinkFile(dir, name.c_str());
  return err == ENOENT ? 0 : err;
}

// Reads the whole record: its fixed header, then exactly the length it announces (bounded by the header's
// parser). readFile refuses anything but a regular file and never follows a link.
int readRecord(Backend& backend, DirHandle dir, std::string& text) {
  std::string header(kTakenHeaderBytes, '\0');
  int err = backend.readFile(dir, kRecord.c_str(), std::as_writable_bytes(std::span(header)));
  if (err != 0) return err == ENODATA ? EBADMSG : err;
  const std::size_t length = ItemFates::recordLength(header);
  if (length == 0) return EBADMSG;
  text.assign(length, '\0');
  err = backend.readFile(dir, kRecord.c_str(), std::as_writable_bytes(std::span(text)));
  return err == ENODATA ? EBADMSG : err;
}

}  // namespace

int writeTakenRecord(Backend& backend, DirHandle dir, const ItemFates& fates) {
  const std::string text = fates.encode();
  if (int err = removeIfThere(backend, dir, kRecord); err != 0) return err;
  if (int err = removeIfThere(backend, dir, kTemp); err != 0) return err;
  if (int err = backend.createFile(dir, kTemp.c_str(), std::as_bytes(std::span(text)), {}); err != 0) {
    (void)removeIfThere(backend, dir, kTemp);
    return err;
  }
  return backend.renameEntry(dir, kTemp.c_str(), kRecord.c_str(), EntryType::kFile);
}

int removeTakenRecord(Backend& backend, DirHandle dir) {
  const int err = removeIfThere(backend, dir, kTemp);
  const int record_err = removeIfThere(backend, dir, kRecord);
  return err != 0 ? err : record_err;
}

std::string loadTakenRecords(Comm& comm, Backend& backend, DirHandle dir, bool leads,
                             const std::string& where, ItemFates& out) {
  std::string text;
  ItemFates mine;
  std::string why;
  int err = leads ? readRecord(backend, dir, text) : 0;
  if (err == 0 && leads) {
    why = ItemFates::parseRecord(text, mine);
    if (!why.empty()) err = EBADMSG;
  }
  const std::string problem = agreeOnSetup(
      comm, err,
      fmt::format(
          "{}/{}: the record of the names the create job did not make cannot be read{}; the directory "
          "is not used (remove it with mdbench clean, which leaves the names it cannot vouch for)",
          where, kRecord, why.empty() ? "" : fmt::format(" ({})", why)));
  if (!problem.empty()) return problem;
  // Several targets: every lead's record, merged on rank 0 (a lead, rank 0 < targets) among the leads alone,
  // so the gather holds one record per target, not per rank. One target: rank 0's record alone.
  if (comm.allreduceSum(leads ? 1 : 0) > 1) {
    const std::unique_ptr<Comm> lead_comm =
        comm.split(leads ? std::optional<std::uint32_t>(0) : std::nullopt, comm.rank());
    if (lead_comm != nullptr) {
      const std::uint64_t longest = lead_comm->allreduceMax(text.size());
      std::vector<std::byte> padded(longest, std::byte{0});
      std::memcpy(padded.data(), text.data(), text.size());
      std::vector<std::byte> all;
      lead_comm->gatherBytes(padded, all);
      for (std::size_t at = 0; lead_comm->rank() == 0 && at + longest <= all.size(); at += longest) {
        const std::string_view chunk(reinterpret_cast<const char*>(all.data()) + at, longest);
        ItemFates each;
        const std::size_t length = ItemFates::recordLength(chunk.substr(0, kTakenHeaderBytes));
        if (length > 0 && ItemFates::parseRecord(chunk.substr(0, length), each).empty()) mine.merge(each);
      }
    }
  }
  std::string merged;
  if (comm.rank() == 0) merged = mine.encode();
  comm.broadcast(merged);
  (void)ItemFates::parseRecord(merged, out);  // rank 0's own encoding: parses
  return {};
}

void shareFailures(Comm& comm, std::span<const FailedItem> failed, bool overflow, ItemKind kind,
                   ItemFate fate, ItemFates& fates) {
  const std::uint64_t most = comm.allreduceMax(overflow ? 1 : failed.size());
  if (most == 0) return;
  struct Slot {
    std::uint64_t item;
    std::uint32_t owner;
    std::uint32_t used;  // 0: padding, 1: the item, 2: this rank's failures overflowed
  };
  std::vector<Slot> mine(most, Slot{0, 0, 0});
  if (overflow) {
    mine[0] = Slot{0, 0, 2};
  } else {
    for (std::size_t i = 0; i < failed.size(); ++i) mine[i] = Slot{failed[i].item, failed[i].owner, 1};
  }
  std::vector<std::byte> all;
  comm.gatherBytes(std::as_bytes(std::span(mine)), all);
  std::string bytes =
      comm.rank() == 0 ? std::string(reinterpret_cast<const char*>(all.data()), all.size()) : std::string();
  comm.broadcast(bytes);
  for (std::size_t at = 0; at + sizeof(Slot) <= bytes.size(); at += sizeof(Slot)) {
    Slot slot;
    std::memcpy(&slot, bytes.data() + at, sizeof slot);
    if (slot.used == 2) fates.setAllNotOurs(kind);
    if (slot.used == 1) fates.add(kind, slot.owner, slot.item, fate);
  }
}

}  // namespace mdbench
