#include "taken_record.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "mdbench/model/layout.hpp"
#include "mdbench/util/errno_name.hpp"

namespace mdbench {
namespace {

const std::string kRecord(kTakenName);
const std::string kTemp(kTakenTempName);

// The inode the record names: the directory's (Backend::identify), 0 for a backend without identities.
int dirInode(Backend& backend, DirHandle dir, std::uint64_t& inode) {
  StorageId id;
  const int err = backend.identify(dir, id);
  inode = err == 0 ? id.ino : 0;
  return err == ENOTSUP ? 0 : err;
}

int removeIfThere(Backend& backend, DirHandle dir, const std::string& name) {
  const int err = backend.unlinkFile(dir, name.c_str());
  return err == ENOENT ? 0 : err;
}

}  // namespace

int writeTakenRecord(Backend& backend, DirHandle dir, const ItemFates& fates) {
  std::uint64_t inode = 0;
  if (int err = dirInode(backend, dir, inode); err != 0) return err;
  const std::string text = fates.encode(inode);
  const OwnFilesScope own(backend);
  if (int err = removeIfThere(backend, dir, kRecord); err != 0) return err;
  if (int err = removeIfThere(backend, dir, kTemp); err != 0) return err;
  if (int err = backend.createFile(dir, kTemp.c_str(), std::as_bytes(std::span(text)), {}); err != 0) {
    (void)removeIfThere(backend, dir, kTemp);
    return err;
  }
  return backend.renameEntry(dir, kTemp.c_str(), kRecord.c_str(), EntryType::kFile);
}

int removeTakenRecord(Backend& backend, DirHandle dir) {
  const OwnFilesScope own(backend);
  const int err = removeIfThere(backend, dir, kTemp);
  const int record_err = removeIfThere(backend, dir, kRecord);
  return err != 0 ? err : record_err;
}

std::string loadTakenRecords(Comm& comm, Comm& target_comm, Backend& backend, DirHandle dir, bool leads,
                             const std::string& where, const RecordLayout& job, ItemFates& out, bool& usage) {
  usage = false;
  out.clear();
  if (backend.storesNothing()) {
    out.setLayout(job);
    const std::vector<std::uint64_t> all(job.ranks, job.items);
    out.setMade(ItemKind::kFile, all);
    out.setMade(ItemKind::kDir, all);
    return {};
  }
  std::string text;
  int err = leads ? readTakenRecord(backend, dir, text) : 0;
  std::string problem = agreeOnSetup(
      comm, err,
      fmt::format("{}/{}: the record of what the create job made cannot be read; the directory is not used "
                  "(remove it with mdbench clean, which leaves everything in it)",
                  where, kRecord));
  if (!problem.empty()) return problem;
  // Each target's own record, from its lead (rank 0 of the target's communicator) to its ranks.
  target_comm.broadcast(text);
  std::string why = ItemFates::parseRecord(text, out);
  std::uint64_t inode = 0;
  if (why.empty()) {
    const int id_err = dirInode(backend, dir, inode);
    why = id_err != 0 ? fmt::format("its directory's identity: {}", describeErrno(id_err))
                      : out.dirMismatch(inode);
  }
  if (why.empty() && out.layout().target != job.target) {
    why = fmt::format("it is target {}'s, this is target {}", out.layout().target, job.target);
  }
  if (why.empty() && out.layout().tree_removed) {
    why = "an earlier job removed the run's tree; what is left in it is not the run's any more";
  }
  if (why.empty() && !out.layout().tree_complete) {
    why = "the create job was stopped before it made its whole tree";
  }
  problem = agreeOnProblem(
      comm, why.empty()
                ? std::string()
                : fmt::format("{}/{}: the record of what the create job made cannot be used ({}); the "
                              "directory is not used (remove it with mdbench clean)",
                              where, kRecord, why));
  if (!problem.empty()) return problem;
  const std::string difference = layoutDifference(out.layout(), job);
  problem = agreeOnProblem(
      comm,
      difference.empty()
          ? std::string()
          : fmt::format("{}: {}: a later job of a split workload must map items to the paths the create "
                        "job used; nothing was touched",
                        where, difference));
  usage = !problem.empty();
  return problem;
}

void shareFailures(Comm& comm, std::span<const FailedItem> failed, bool overflow, ItemKind kind,
                   ItemFates& fates) {
  const std::uint64_t most = comm.allreduceMax(overflow ? 1 : failed.size());
  if (most == 0) return;
  struct Slot {
    std::uint64_t item;
    std::uint32_t owner;
    std::int32_t err;
    std::uint32_t fate;
    std::uint32_t used;  // 0: padding, 1: the item, 2: this rank's failures overflowed
  };
  std::vector<Slot> mine(most, Slot{0, 0, 0, 0, 0});
  if (overflow) {
    mine[0] = Slot{0, 0, 0, 0, 2};
  } else {
    for (std::size_t i = 0; i < failed.size(); ++i) {
      mine[i] =
          Slot{failed[i].item, failed[i].owner, failed[i].err, static_cast<std::uint32_t>(failed[i].fate), 1};
    }
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
    if (slot.used == 1) fates.add(kind, slot.owner, slot.item, static_cast<ItemFate>(slot.fate), slot.err);
  }
}

}  // namespace mdbench
