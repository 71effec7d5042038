// The storage backend: the metadata operations a phase performs, each returning a status (0 or an errno).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/backend/cleanup.hpp"

namespace mdbench {

// An open directory of the backend. Opaque to callers; the backend gives it meaning (a descriptor for
// POSIX). root() is the directory the backend was opened on; closing it is refused (EBADF).
struct DirHandle {
  std::int64_t value = -1;
  bool valid() const { return value >= 0; }
};

// A directory's or entry's identity on its storage (POSIX: st_dev, st_ino).
struct StorageId {
  std::uint64_t dev = 0;
  std::uint64_t ino = 0;
  bool operator==(const StorageId&) const = default;
};

// What a name holds, looked at without following it (the cleanup walk's judgement).
enum class EntryKind : std::uint8_t { kFile, kDir, kLink, kOther };
struct EntryInfo {
  EntryKind kind = EntryKind::kOther;
  StorageId id;
};

// How a file is created: exclusively (O_EXCL: never reuse anything), or, for -S, opened after the one rank
// that creates each shared name made it with O_EXCL (the others never create): then the name must hold a
// regular file with one link and the size of `data` (what the creating rank wrote), or the open fails
// (EINVAL for a wrong type, EMLINK for a planted hard link, EBADMSG for another size) and nothing is written.
enum class CreateMode : std::uint8_t { kExclusive, kOpenCreated };
// The type of entry an operation expects under a name.
enum class EntryType : std::uint8_t { kFile, kDir };

struct CreateOptions {
  CreateMode mode = CreateMode::kExclusive;
  bool fsync = false;  // -y: fsync after writing, before close
  // When set, *made becomes true once the name holds the file this call created (or, kOpenCreated, the
  // file its creator made), also when writing it then failed: such a name is the run's, to remove later;
  // a create that failed without it left the name to whoever has it.
  bool* made = nullptr;
};

// The calls a type-check batch brackets (Backend::beginTypeChecks): unlinkFile, moveEntry, removeDir,
// readFile.
enum class CheckedCall : std::uint8_t { kUnlink, kRename, kRemoveDir, kRead };

// Every operation returns 0 on success or an errno value (EIO for failures without one); none throws.
// Names are single path components, never containing '/'. Nothing ever follows a symbolic link.
class Backend {
 public:
  virtual ~Backend() = default;

  // The directory the backend works in (the run's target directory).
  virtual DirHandle root() const = 0;
  // Opens the existing subdirectory `name` of `parent`.
  virtual int openDir(DirHandle parent, const char* name, DirHandle& out) = 0;
  virtual int closeDir(DirHandle dir) = 0;

  virtual int makeDir(DirHandle parent, const char* name) = 0;    // fails with EEXIST if present
  virtual int removeDir(DirHandle parent, const char* name) = 0;  // must be empty
  // Creates a new regular file (fails with EEXIST if present), writes `data` into it, closes it.
  virtual int createFile(DirHandle parent, const char* name, std::span<const std::byte> data,
                         CreateOptions options) = 0;
  // Stats `name`; fails with ENOTDIR (expected a directory), EISDIR (expected a
  // file, found a directory) or EINVAL (anything else, e.g. a symlink).
  virtual int statEntry(DirHandle parent, const char* name, bool is_dir) = 0;
  // Opens the file, reads into buf until it is full (a short file is ENODATA), closes it. An empty buf only
  // opens and closes.
  // Anything but a regular file fails with EINVAL and is not read (a FIFO never blocks the run). The POSIX
  // full style makes mdtest's calls only: with an empty buf it opens and closes a FIFO (no byte read), and
  // a device node (only root makes them) is read (posix_full.cpp).
  virtual int readFile(DirHandle parent, const char* name, std::span<std::byte> buf) = 0;
  // Removes the regular file `name`; anything else (a symlink, a FIFO, a directory) is left and fails
  // (EINVAL, or EISDIR for a directory): mdbench removes only what has the type it made.
  virtual int unlinkFile(DirHandle parent, const char* name) = 0;
  // A file-remove or rename phase brackets its unlinkFile or renameEntry calls with these, `type` the type
  // of its items; a read or dir-remove phase its readFile or removeDir calls (for backends whose calls do
  // not refuse a wrong type themselves: LIBNFS). In between, a backend may check the types of a directory's
  // entries once, at the phase's first call in that directory, instead of before each call: the POSIX backend
  // lists the directory (getdents64's d_type) and checks only the names listed with another type, so that a
  // remove or rename costs mdtest's one call. What is planted in a directory after its listing, during the
  // phase, is not caught.
  virtual void beginTypeChecks(EntryType /*type*/) {}
  virtual void endTypeChecks() {}
  // A listing taken once for ranks that share a directory: listTypes appends to `out` what the batch's
  // check needs of `dir` (the names whose type is not `type`, or "check every name"), in a form
  // adoptListings reads back on any rank; adoptListings keeps them for the next batch, whose first call in
  // a listed directory then lists nothing itself. Returns 0 or the errno of the listing. By default none.
  virtual int listTypes(DirHandle /*dir*/, EntryType /*type*/, std::string& /*out*/) { return 0; }
  // Whether this backend's `call` checks the item's type by its directory's listing inside a batch: then a
  // phase of such calls lists each directory before its opening barrier (listTypes), outside its timing.
  // By default unlinkFile and moveEntry (POSIX, CEPHFS: their rmdir and open refuse a wrong type).
  virtual bool checksTypesByListing(CheckedCall call) const {
    return call == CheckedCall::kUnlink || call == CheckedCall::kRename;
  }
  virtual void adoptListings(std::string_view /*listings*/) {}
  // Before each create phase on every rank, outside its timing and before --server-stats' read:
  // `marked_dir` holds the run's mark (layout.hpp kMarkName), a file of the run's own. A backend may learn
  // there how its creates can be both exclusive and cheap (LIBNFS: whether its library's plain O_CREAT is
  // already exclusive). By default nothing.
  virtual void prepareCreates(DirHandle /*marked_dir*/) {}
  // Renames `from` in `from_dir` to `to` in `to_dir` (the same directory or another of the run's), never
  // replacing an existing `to` (EEXIST), and only when `from` has the type mdbench made (ENOTDIR / EISDIR /
  // EINVAL otherwise, nothing renamed).
  virtual int moveEntry(DirHandle from_dir, const char* from, DirHandle to_dir, const char* to,
                        EntryType type) = 0;
  // moveEntry within one directory.
  int renameEntry(DirHandle dir, const char* from, const char* to, EntryType type) {
    return moveEntry(dir, from, dir, to, type);
  }
  // Lists every entry of `dir` (not "." or ".."): counts[k] = entries whose name starts with prefixes[k]
  // (counts.size() == prefixes.size()); `total` = all entries.
  virtual int countEntries(DirHandle dir, std::span<const std::string_view> prefixes,
                           std::span<std::uint64_t> counts, std::uint64_t& total) = 0;
  // -Y, at the end of each phase: sync(2), every file system (as mdtest), or syncfs(2) of the root's.
  virtual int syncFileSystem() = 0;
  // The cleanup after a signal: removes what mdbench generated below `dir` by cleanup.hpp's rules (only
  // generated names of the right type, never through a link), this caller's share of the top-level entries
  // (options.part of options.parts). Returns 0, or the errno of listing `dir`; what stays is in `tally`.
  // By default the one iterative walk of tree_walk.cpp over the walk's calls below (removeGeneratedWalk).
  virtual int removeGenerated(DirHandle dir, const CleanOptions& options, CleanTally& tally);
  // The walk's calls: each relative to the open directory `dir` in every path style (never a path built
  // from names), never through a link; ENOTSUP by default (a backend without them has no cleanup walk).
  // The names in `dir` (not "." or "..").
  virtual int listNames(DirHandle dir, std::vector<std::string>& names);
  // What `name` in `dir` is, not followed (lstat).
  virtual int lookUp(DirHandle dir, const char* name, EntryInfo& info);
  // The identity of the open directory `dir` (fstat). Its inode is what the mark's proof holds, and the
  // record of what a create job made names it too (a record copied into another directory does not count
  // there); a backend without identities (ENOTSUP: test doubles, which keep no proof either) records 0.
  virtual int identify(DirHandle dir, StorageId& id);
  // Opens the subdirectory `name` of `dir`, or its parent for "..", by the handle alone (no path kept, so
  // any depth); closed by closeDir.
  virtual int walkInto(DirHandle dir, const char* name, DirHandle& out);
  // Removes `name` from `dir`: a file (unlink) or an empty directory (rmdir) as `type` says.
  virtual int removeName(DirHandle dir, const char* name, EntryType type);
  // The mark (cleanup.hpp) of `dir`: written with O_EXCL (never over another entry), and read back. The
  // POSIX backend writes and checks the proof (the directory's inode); the default, for test doubles that
  // store no contents, creates and finds a regular file of that name (defined in cleanup.cpp).
  virtual int writeMark(DirHandle dir);
  virtual MarkKind readMark(DirHandle dir);
  // A backend that keeps nothing (-a DUMMY): no ownership record to read; a later job of a split workload
  // counts every item of its own layout made (nothing it could touch is anyone's).
  virtual bool storesNothing() const { return false; }
  // While on, the run's own files in a directory it made (its mark, the record of what a create job made)
  // and the removal of that directory name their entry relative to the directory's descriptor, in every
  // path style: a run directory swapped for a link while the run works cannot lead them into a directory
  // the run did not make. Returns the previous state. OwnFilesScope turns it on for a scope.
  virtual bool ownFilesByDescriptor(bool /*on*/) { return false; }
};

// The cleanup walk (tree_walk.cpp) over `backend`'s walk calls below its open directory `top` (named
// `display` in notes): 0, or the errno of listing `top` (then nothing is touched).
int removeGeneratedWalk(Backend& backend, DirHandle top, const std::string& display,
                        const CleanOptions& options, CleanTally& tally);

// The record of what a create job made (layout.hpp kTakenName) in the open directory `dir`, read whole by
// `backend`'s readFile (a regular file only, never through a link): its fixed header, then exactly the
// length the header announces. EBADMSG when it is no such record; ENOENT when there is none.
int readTakenRecord(Backend& backend, DirHandle dir, std::string& text);

// beginTypeChecks(type) for the lifetime of a scope, endTypeChecks() when it ends; nothing when `batch` is
// false.
class TypeCheckBatch {
 public:
  TypeCheckBatch(Backend& backend, EntryType type, bool batch) : backend_(batch ? &backend : nullptr) {
    if (backend_ != nullptr) backend_->beginTypeChecks(type);
  }
  ~TypeCheckBatch() {
    if (backend_ != nullptr) backend_->endTypeChecks();
  }
  TypeCheckBatch(const TypeCheckBatch&) = delete;
  TypeCheckBatch& operator=(const TypeCheckBatch&) = delete;

 private:
  Backend* backend_;
};

// ownFilesByDescriptor(true) for the lifetime of a scope, the previous state back when it ends.
class OwnFilesScope {
 public:
  explicit OwnFilesScope(Backend& backend) : backend_(backend), was_(backend.ownFilesByDescriptor(true)) {}
  ~OwnFilesScope() { backend_.ownFilesByDescriptor(was_); }
  OwnFilesScope(const OwnFilesScope&) = delete;
  OwnFilesScope& operator=(const OwnFilesScope&) = delete;

 private:
  Backend& backend_;
  bool was_;
};

}  // namespace mdbench
