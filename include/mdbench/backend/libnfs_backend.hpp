// The NFS backend (-a LIBNFS): an NFS server (v3 or v4) through libnfs, one client context and mount per
// process (per rank), with the calls mdtest 4.1's aiori-LIBNFS.c makes on full paths inside the export, plus
// the checks that keep mdbench's promises (libnfs_backend.cpp lists them). Built only when CMake found libnfs
// (MDBENCH_HAVE_LIBNFS); this header names no libnfs type, so it compiles without it.
#pragma once

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/backend/backend.hpp"
#include "mdbench/backend/type_listings.hpp"

struct nfs_context;

namespace mdbench {

// mdtest 4.1's --libnfs.url, and what mdbench adds.
struct LibnfsOptions {
  std::string url;  // nfs://SERVER/EXPORT/?version=4 (libnfs's URL options: version, nfsport, uid...)
  bool verify_write = false;  // --verify-write: what a create wrote read back through its handle
  // Every RPC's bound (nfs_set_timeout): a call the server does not answer within it fails (libnfs says
  // EINTR), and libnfs reconnects for the next. After kMaxTimeouts such calls in a row the server is taken
  // for gone: every later call fails at once with ETIMEDOUT instead of each waiting again, and the client is
  // made anew at most once per kRevive_s until the server answers (it may come back: a failover).
  static constexpr int kMaxTimeouts = 3;
  static constexpr double kRevive_s = 1.0;
  std::uint32_t timeout_s = 30;
};

// Why a client could not be made: the errno and one sentence naming what is wrong (the URL, the server, the
// export or the directory).
struct LibnfsOpenError {
  int err = 0;
  std::string message;
};

class LibnfsBackend final : public Backend {
 public:
  // Makes a client, mounts the URL's export and opens `root_path` (a path inside the export, as mdtest's
  // -d) as the root directory, which must exist and be a directory (not a symlink). On failure returns
  // nullptr and fills `error` (nothing is created).
  static std::unique_ptr<LibnfsBackend> open(const std::string& root_path, const LibnfsOptions& options,
                                             LibnfsOpenError& error);
  ~LibnfsBackend() override;  // unmounts and frees the client
  LibnfsBackend(const LibnfsBackend&) = delete;
  LibnfsBackend& operator=(const LibnfsBackend&) = delete;

  DirHandle root() const override { return DirHandle{0}; }
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
  // Unlink, rename and rmdir (NFSv4 removes a file by rmdir and a directory by unlink), and over NFSv3 a
  // read (it has no OPEN to refuse a wrong type).
  bool checksTypesByListing(CheckedCall call) const override {
    return call != CheckedCall::kRead || !open_refuses_types_;
  }
  void adoptListings(std::string_view listings) override;
  // NFSv4: opens the run's mark with O_CREAT alone. Refused (EEXIST): this libnfs makes a plain O_CREAT an
  // exclusive create (EXCLUSIVE4; libnfs <= 5.0.3), and the creates that follow pass O_CREAT alone, as
  // mdtest does, without the SETATTR of the mode that libnfs sends after an O_EXCL create (the mode is then
  // the server's). Opened: closed untouched, and creates keep O_EXCL. Once per backend, when answered.
  void prepareCreates(DirHandle marked_dir) override;
  int moveEntry(DirHandle from_dir, const char* from, DirHandle to_dir, const char* to,
                EntryType type) override;
  int countEntries(DirHandle dir, std::span<const std::string_view> prefixes, std::span<std::uint64_t> counts,
                   std::uint64_t& total) override;
  int syncFileSystem() override { return ENOTSUP; }  // refused before the run (remoteRefusal)
  int listNames(DirHandle dir, std::vector<std::string>& names) override;
  int lookUp(DirHandle dir, const char* name, EntryInfo& info) override;
  int identify(DirHandle dir, StorageId& id) override;
  int walkInto(DirHandle dir, const char* name, DirHandle& out) override;
  int removeName(DirHandle dir, const char* name, EntryType type) override;
  int writeMark(DirHandle dir) override;
  MarkKind readMark(DirHandle dir) override;

  // The path inside the export of an open directory ("" for a handle that is none).
  std::string dirPath(DirHandle dir) const;

 private:
  LibnfsBackend(nfs_context* nfs, std::string root_path, const LibnfsOptions& options);
  // Makes the client anew when it has been idle long enough for its NFSv4 lease to lapse (libnfs_client.hpp
  // leaseLapsed), or when it is lost (dead_): the call waits for the server up to timeout_s from the loss,
  // trying once per kRevive_s; after that one try per kRevive_s, the calls between failing at once.
  void refresh();
  // `name`'s path in the open directory `dir`, built in `out`; nullptr for a handle that is no open
  // directory of this backend, or once the client is unusable.
  const char* pathIn(DirHandle dir, const char* name, std::string& out);
  // Why pathIn gave nullptr: ETIMEDOUT once the client is unusable, else EBADF.
  int unusable() const { return dead_ ? ETIMEDOUT : EBADF; }
  int openPath(std::string path, DirHandle& out);
  int checkType(const char* path, EntryType want);
  // Whether the call on `name` must check its type first (see beginTypeChecks).
  bool needsTypeCheck(DirHandle dir, const char* name);
  int listSuspects(const std::string& dir_path, EntryType type, TypeListings::Listed& listed);
  // A libnfs return (0 or a negative errno) as an errno; kMaxTimeouts timeouts, or EIOs, in a row lose the
  // client (dead_).
  int status(int ret);

  nfs_context* nfs_;
  LibnfsOptions options_;
  std::chrono::steady_clock::time_point last_call_;
  std::vector<std::string> dir_paths_;  // by handle: the path of each open directory ("" when closed)
  std::string path_;
  std::string path_to_;
  std::vector<std::byte> verify_buf_;  // --verify-write's read-back
  TypeListings listings_;              // the type checks' listings, by handle and by path (adopted)
  int timeouts_ = 0;                   // calls in a row that the server did not answer in time
  int io_errors_ = 0;  // calls in a row that failed with EIO: a server restarted under the client (its
                       // NFSv4 session is gone; libnfs 4.0 reconnects but every call then fails so)
  bool dead_ = false;  // lost: every call fails at once (ETIMEDOUT) until refresh makes a client again
  std::chrono::steady_clock::time_point revive_at_{};  // the next try at a new client, once lost
  std::chrono::steady_clock::time_point lost_at_{};
  int create_flags_;            // O_WRONLY|O_CREAT|O_EXCL, or without O_EXCL where that is exclusive too
  bool create_probed_ = false;  // prepareCreates has had its answer
  bool open_refuses_types_;     // NFSv4: OPEN fails on anything but a regular file
};

}  // namespace mdbench
