// The POSIX backend: O_EXCL creates, no symlink followed on a final component, in two path styles (full
// paths as mdtest 4.1 passes them, or names relative to directory descriptors).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "mdbench/backend/backend.hpp"
#include "mdbench/backend/type_listings.hpp"
#include "mdbench/config/config.hpp"

namespace mdbench {

// How the backend makes its calls; fixed for its lifetime.
struct PosixOptions {
  PathStyle style = PathStyle::kFull;  // --path-style
  SyncCall sync = SyncCall::kSync;     // what syncFileSystem calls (-Y; --sync-call)
  // -k: a create with no data is a mknod (mdtest's mknod(path, S_IFREG | S_IRUSR, 0) in the full style,
  // mknodat(dir, name, S_IFREG | 0666, 0) in the dirfd style); mknod fails with EEXIST on any existing
  // entry, a symlink included, so it is exclusive like O_EXCL. Creates with data still open and write.
  bool make_node = false;
  bool verify_write = false;  // --verify-write: read each written file back at create and compare
  bool odirect = false;       // --posix.odirect: O_DIRECT on the files' opens, data through aligned buffers
  bool rangelocks = false;    // --posix.rangelocks: an fcntl lock of the range around each write and read
};

namespace posix {
// A buffer aligned for O_DIRECT (to the page, as mdtest's aligned_buffer_alloc), grown to the largest
// transfer once and kept: the file data's copy under --posix.odirect, --verify-write's read-back.
class AlignedBuffer {
 public:
  // The first n bytes; empty (and the op fails with ENOMEM) when it cannot grow.
  std::span<std::byte> first(std::size_t n);

 private:
  struct Free {
    void operator()(std::byte* p) const { std::free(p); }
  };
  std::unique_ptr<std::byte, Free> data_;
  std::size_t size_ = 0;
};
}  // namespace posix

class PosixBackend final : public Backend {
 public:
  // Opens `root_path` (which must be an existing directory, not a symlink). Returns nullptr and sets
  // `err` (an errno value) on failure. The full style names every item by `root_path` + '/' + the names
  // of the directories opened below it: a handle names the path its directory was opened under, so a
  // directory renamed while open is not followed by its handle, as it is in the dirfd style.
  static std::unique_ptr<PosixBackend> open(const std::string& root_path, const PosixOptions& options,
                                            int& err);
  static std::unique_ptr<PosixBackend> open(const std::string& root_path, int& err) {
    return open(root_path, PosixOptions{}, err);
  }
  // A backend on a duplicate of the open directory `dir_fd` (the caller keeps its own), in the dirfd style:
  // for the cleanup walk of `mdbench clean` (cleanup.cpp).
  static std::unique_ptr<PosixBackend> adopt(int dir_fd, int& err);
  ~PosixBackend() override;
  PosixBackend(const PosixBackend&) = delete;
  PosixBackend& operator=(const PosixBackend&) = delete;

  DirHandle root() const override;
  int openDir(DirHandle parent, const char* name, DirHandle& out) override;
  int closeDir(DirHandle dir) override;
  int makeDir(DirHandle parent, const char* name) override;
  int removeDir(DirHandle parent, const char* name) override;
  int createFile(DirHandle parent, const char* name, std::span<const std::byte> data,
                 CreateOptions options) override;
  int statEntry(DirHandle parent, const char* name, bool is_dir) override;
  int readFile(DirHandle parent, const char* name, std::span<std::byte> buf) override;
  int unlinkFile(DirHandle parent, const char* name) override;
  void beginTypeChecks(EntryType type) override;
  void endTypeChecks() override;
  int listTypes(DirHandle dir, EntryType type, std::string& out) override;
  void adoptListings(std::string_view listings) override;
  int moveEntry(DirHandle from_dir, const char* from, DirHandle to_dir, const char* to,
                EntryType type) override;
  int countEntries(DirHandle dir, std::span<const std::string_view> prefixes, std::span<std::uint64_t> counts,
                   std::uint64_t& total) override;
  int syncFileSystem() override;
  // The cleanup walk's calls (posix_walk.cpp): by descriptor in both path styles, never through a link.
  int listNames(DirHandle dir, std::vector<std::string>& names) override;
  int lookUp(DirHandle dir, const char* name, EntryInfo& info) override;
  int identify(DirHandle dir, StorageId& id) override;
  int walkInto(DirHandle dir, const char* name, DirHandle& out) override;
  int removeName(DirHandle dir, const char* name, EntryType type) override;
  int writeMark(DirHandle dir) override;      // cleanup.cpp
  MarkKind readMark(DirHandle dir) override;  // cleanup.cpp
  bool ownFilesByDescriptor(bool on) override {
    const bool was = own_files_;
    own_files_ = on;
    return was;
  }

 private:
  PosixBackend(int root_fd, std::string root_path, const PosixOptions& options);
  // The full style's paths, for the items only: the run's own files go by descriptor (ownFilesByDescriptor).
  bool full() const { return options_.style == PathStyle::kFull && !own_files_; }
  // Full style: `name`'s path in the open directory `dir`, built in `out` (reused, so no allocation once it
  // has grown to the longest path); nullptr for a handle that is not an open directory of this backend.
  const char* pathIn(DirHandle dir, const char* name, std::string& out) const;
  int createAt(int dir_fd, const char* name, std::span<const std::byte> data, CreateOptions options);
  // Whether unlinkFile or renameEntry must check the type of `name` in `dir_fd` first: always, but between
  // beginTypeChecks and endTypeChecks only for a name the directory's one listing found with another type
  // than the batch's (or when the listing failed, or the file system gives no types).
  bool needsTypeCheck(int dir_fd, const char* name);

  int root_fd_;
  PosixOptions options_;
  // The options of the run's own record files (layout.hpp kTakenName): --posix.* apply to the items' data
  // only, as mdtest has no such files; a record of a few bytes is no O_DIRECT transfer.
  PosixOptions record_options_;
  const PosixOptions& dataOptions(const char* name) const;
  std::vector<std::string> dir_paths_;  // by descriptor: the path of each open directory ("" when none)
  std::string path_;                    // full style: the operation's path
  std::string path_to_;                 // full style: a rename's new path
  posix::AlignedBuffer data_buf_;       // --posix.odirect's aligned copies, --verify-write's read-back
  TypeListings listings_;               // the type checks' listings, by descriptor and by "dev:ino" (adopted)
  bool own_files_ = false;              // ownFilesByDescriptor: every call by descriptor
  // The file system refused renameat2's RENAME_NOREPLACE once (ceph-fuse, older NFS): moveEntry goes to its
  // look-up and renameat at once from then on.
  bool noreplace_refused_ = false;
};

}  // namespace mdbench
