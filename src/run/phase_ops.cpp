// The operations of each phase (phase_ops.hpp): the one place the item loops are instantiated.
#include "phase_ops.hpp"

#include <cerrno>
#include <span>

#include "dir_rotation.hpp"
#include "mdbench/model/ownership.hpp"
#include "phase_listings.hpp"

namespace mdbench {

std::uint64_t PhaseOps::execute(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                                std::uint64_t to) {
  Backend& b = parts_.backend;
  switch (phase) {
    case Phase::kTreeCreate:
      loop_.tree(cursor, owner, ItemLoop::TreeOrder::kPreorder,
                 [&b](DirHandle parent, const char* name) { return b.makeDir(parent, name); });
      return to;
    case Phase::kTreeRemove:
      loop_.tree(cursor, owner, ItemLoop::TreeOrder::kPostorder,
                 [&b](DirHandle parent, const char* name) { return b.removeDir(parent, name); });
      return to;
    case Phase::kDirReaddir:
    case Phase::kFileReaddir:
      loop_.readdir(phase, cursor, owner);
      return to;
    default:
      return executeItems(phase, cursor, owner, from, to);
  }
}

// The item phases: one backend call per item.
std::uint64_t PhaseOps::executeItems(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                                     std::uint64_t to) {
  Backend& b = parts_.backend;
  const ItemKind kind = itemKindOf(phase);
  PhaseNames names(names_.fates(), kind, owner, to);
  const ItemLoop::Range all{from, to};
  switch (phase) {
    case Phase::kDirCreate:
      return loop_.items(phase, cursor, owner, all, 0, [&](DirHandle dir, std::uint64_t item) {
        return b.makeDir(dir, names.planned(item));
      });
    case Phase::kDirStat:
    case Phase::kFileStat:
      return loop_.items(phase, cursor, owner, all, 0, [&](DirHandle dir, std::uint64_t item) {
        const char* name = names(item);
        return name == nullptr ? names.error() : b.statEntry(dir, name, kind == ItemKind::kDir);
      });
    case Phase::kDirRemove: {
      const TypeCheckBatch batch(b, EntryType::kDir, listsBeforePhase(b, phase) || listsForTypeChecks(plan_));
      return loop_.items(phase, cursor, owner, all, 0, [&](DirHandle dir, std::uint64_t item) {
        const char* name = names(item);
        return name == nullptr ? names.error() : b.removeDir(dir, name);
      });
    }
    case Phase::kFileCreate:
      return plan_.settings().shared_files ? createShared(cursor, owner, from, to)
                                           : createFiles(cursor, owner, from, to, Pick::kAll);
    case Phase::kFileRead:
      return readFiles(cursor, owner, from, to, names);
    case Phase::kFileRemove: {  // listed before the phase (shareTypeListings), at any rank count
      const TypeCheckBatch batch(b, EntryType::kFile, true);
      return loop_.items(phase, cursor, owner, all, 0, [&](DirHandle dir, std::uint64_t item) {
        const char* name = names(item);
        return name == nullptr ? names.error() : b.unlinkFile(dir, name);
      });
    }
    case Phase::kDirRename:
      return rotateDirs(cursor, owner, from, to, names);
    case Phase::kFileRename:
      return renameItems(phase, cursor, owner, from, to, names);
    default:
      return to;
  }
}

// Reads each file into the read buffer; with -X, checks the data its creator wrote.
std::uint64_t PhaseOps::readFiles(DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                                  std::uint64_t to, PhaseNames& names) {
  Backend& b = parts_.backend;
  PhaseData& data = data_;
  const std::span<std::byte> buf = data.readBuffer();
  const bool verify = plan_.settings().verify_read;
  const TypeCheckBatch batch(b, EntryType::kFile,
                             listsBeforePhase(b, Phase::kFileRead) || listsForTypeChecks(plan_));
  return loop_.items(Phase::kFileRead, cursor, owner, {from, to}, buf.size(),
                     [&](DirHandle dir, std::uint64_t item) {
                       const char* name = names(item);
                       const int err = name == nullptr ? names.error() : b.readFile(dir, name, buf);
                       if (err == 0 && verify && !data.check(owner, item)) return ItemLoop::kMismatch;
                       return err;
                     });
}

// Renames each item to its renamed name (layout.hpp's kRenamedSuffix); one an earlier job renamed
// already is left as it is (and stays renamed).
std::uint64_t PhaseOps::renameItems(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                                    std::uint64_t to, PhaseNames& names) {
  Backend& b = parts_.backend;
  const ItemKind kind = itemKindOf(phase);
  const EntryType type = kind == ItemKind::kDir ? EntryType::kDir : EntryType::kFile;
  ItemNamer renamed(kind, owner, NameForm::kRenamed);
  const ItemFates& fates = names_.fates();
  const TypeCheckBatch batch(b, type, true);  // listed before the phase (shareTypeListings)
  return loop_.items(phase, cursor, owner, {from, to}, 0, [&](DirHandle dir, std::uint64_t item) {
    const char* name = names(item);
    if (name == nullptr) return names.error();
    if (names.atRenamedName()) return kErrAlreadyRenamed;
    const int err = b.renameEntry(dir, name, renamed.name(item), type);
    // An item an earlier rename left under its original name is renamed now: its exception goes.
    if (err == 0 && !fates.empty() && fates.of(kind, owner, item) == ItemFate::kOriginalName) {
      names_.noteRenamedNow(owner, item);
    }
    return err;
  });
}

// mdtest's directory rename: the owner's names rotate (dir_rotation.hpp). Items the run does not own are
// skipped (failed, untouched); a name the rotation lost to another process is recorded as not the run's.
std::uint64_t PhaseOps::rotateDirs(DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                                   std::uint64_t to, PhaseNames& names) {
  Backend& b = parts_.backend;
  DirRotation rotation(b, cursor.base(), plan_.layout(), plan_.settings().sharing, owner, to - 1);
  const TypeCheckBatch batch(b, EntryType::kDir, true);  // listed before the phase (shareTypeListings)
  const std::uint64_t reached =
      loop_.items(Phase::kDirRename, cursor, owner, {from, to}, 0, [&](DirHandle dir, std::uint64_t item) {
        const char* name = names(item);
        return name == nullptr ? names.error() : rotation.step(dir, item, name);
      });
  // Not an op of its own: only after a signal, or when the set's last items were skipped (counted failed).
  (void)rotation.finish();
  for (const std::uint64_t item : rotation.lost()) names_.noteLost(owner, item);
  return reached;
}

// File creates of the items `pick` selects, with O_EXCL (PhaseData::createOptions) or, for -S's second step,
// opening what their creators made (CreateMode::kOpenCreated); names this run does not own are skipped.
std::uint64_t PhaseOps::createFiles(DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                                    std::uint64_t to, Pick pick) {
  Backend& b = parts_.backend;
  ItemNamer namer(ItemKind::kFile, owner);
  const ItemFates& fates = names_.fates();
  PhaseData& data = data_;
  const std::span<std::byte> written = data.written();
  bool& name_made = loop_.nameMade();
  CreateOptions options = data.createOptions();
  if (pick == Pick::kOthers) options.mode = CreateMode::kOpenCreated;
  options.made = &name_made;
  return loop_.items(Phase::kFileCreate, cursor, owner, {from, to, pick}, written.size(),
                     [&](DirHandle dir, std::uint64_t item) {
                       if (!fates.empty() && fates.of(ItemKind::kFile, owner, item) != ItemFate::kOurs) {
                         const int err = fates.errOf(ItemKind::kFile, owner, item);
                         return err == EEXIST ? EEXIST : kErrNotCreated | err;
                       }
                       data.stamp(owner, item);  // mdtest's update before each write (data_pattern.hpp)
                       name_made = false;
                       return b.createFile(dir, namer.name(item), written, options);
                     });
}

// -S: each shared name is created by one rank alone, with O_EXCL: the rank it falls to round robin (item
// mod ranks), which spreads the creates as evenly as items over ranks. Then every rank learns which
// creates failed (a name that was there before is nobody's to write), and only then opens the names it
// did not create (never with O_CREAT), so no rank writes into anything before its creator made it. The
// agreement is one allreduce (plus a gather and broadcast of the failures when there are any) inside the
// timed phase, and every rank waits there for the slowest creator.
std::uint64_t PhaseOps::createShared(DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                                     std::uint64_t to) {
  const std::uint64_t reached = createFiles(cursor, owner, from, to, Pick::kMine);
  names_.noteCreatorReach(rank_, reached);
  names_.share(parts_.comm, ItemKind::kFile);
  if (!loop_.stopped()) (void)createFiles(cursor, owner, from, to, Pick::kOthers);
  return to;
}

}  // namespace mdbench
