// The CephFS backend (-a CEPHFS): the metadata servers through libcephfs, one client and mount per process
// (per rank), with the calls mdtest 4.1's aiori-CEPHFS.c makes on full paths, plus the checks that keep
// mdbench's promises (cephfs_backend.cpp lists them). Built only when CMake found libcephfs
// (MDBENCH_HAVE_CEPHFS); this header names no libcephfs type, so it compiles without it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/backend/backend.hpp"
#include "mdbench/backend/type_listings.hpp"

struct ceph_mount_info;

namespace mdbench {

// mdtest 4.1's --cephfs.* options, with their meanings there, and what mdbench adds.
struct CephfsOptions {
  std::string user;    // --cephfs.user: the cephx id without "client." ("" = libcephfs's default, admin)
  std::string conf;    // --cephfs.conf: the ceph.conf to read ("" = libcephfs's search: $CEPH_CONF, ...)
  std::string prefix;  // --cephfs.prefix: stripped from the front of -d's path (mdtest's pfix)
  std::string remote_prefix;  // --cephfs.remote_prefix: the CephFS directory mounted ("" = "/")
  bool olazy = false;         // --cephfs.olazy: ceph_lazyio on every file opened
  bool sync_call = true;      // -Y: ceph_sync_fs (the only sync libcephfs has)
  bool make_node = false;     // -k: files made by ceph_mknod (empty: not with -w)
  bool verify_write = false;  // --verify-write: what a create wrote read back through its descriptor
  // Bounds ceph_mount (client_mount_timeout, set after the conf is read): an unreachable monitor or MDS
  // fails the mount within about this many seconds instead of libcephfs's default 300.
  std::uint32_t mount_timeout_s = 30;
};

// Why a CephfsBackend could not be opened: the errno and one sentence naming what is wrong (the conf, the
// user, the monitors, the prefix or the directory).
struct CephfsOpenError {
  int err = 0;
  std::string message;
};

class CephfsBackend final : public Backend {
 public:
  // Creates a client as `options.user`, reads `options.conf`, mounts `options.remote_prefix` and opens
  // `root_path` (with options.prefix stripped, as mdtest) as the root directory, which must exist and be a
  // directory (not a symlink). On failure returns nullptr and fills `error` (nothing is created).
  static std::unique_ptr<CephfsBackend> open(const std::string& root_path, const CephfsOptions& options,
                                             CephfsOpenError& error);
  ~CephfsBackend() override;  // unmounts and releases the client
  CephfsBackend(const CephfsBackend&) = delete;
  CephfsBackend& operator=(const CephfsBackend&) = delete;

  // The path inside the mount that `root_path` names (prefix stripped, no trailing '/'; "/" for the top).
  static std::string mountPath(const std::string& root_path, const std::string& prefix);

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
  void adoptListings(std::string_view listings) override;
  int moveEntry(DirHandle from_dir, const char* from, DirHandle to_dir, const char* to,
                EntryType type) override;
  int countEntries(DirHandle dir, std::span<const std::string_view> prefixes, std::span<std::uint64_t> counts,
                   std::uint64_t& total) override;
  int syncFileSystem() override;
  int listNames(DirHandle dir, std::vector<std::string>& names) override;
  int lookUp(DirHandle dir, const char* name, EntryInfo& info) override;
  int identify(DirHandle dir, StorageId& id) override;
  int walkInto(DirHandle dir, const char* name, DirHandle& out) override;
  int removeName(DirHandle dir, const char* name, EntryType type) override;
  int writeMark(DirHandle dir) override;
  MarkKind readMark(DirHandle dir) override;

  // The path inside the mount of an open directory ("" for a handle that is none).
  std::string dirPath(DirHandle dir) const;

 private:
  CephfsBackend(ceph_mount_info* cmount, std::string root_path, const CephfsOptions& options);
  // `name`'s path in the open directory `dir`, built in `out`; nullptr for a handle that is no open
  // directory of this backend.
  const char* pathIn(DirHandle dir, const char* name, std::string& out) const;
  int checkType(const char* path, EntryType want);
  // Whether unlinkFile or moveEntry must check `name`'s type first (see beginTypeChecks).
  bool needsTypeCheck(DirHandle dir, const char* name);
  int listSuspects(const std::string& dir_path, EntryType type, TypeListings::Listed& listed);
  int openFile(const char* path, int flags, int& fd);
  // A handle for the directory at `path` (inside the mount), already checked.
  int openPath(std::string path, DirHandle& out);

  ceph_mount_info* cmount_;
  CephfsOptions options_;
  std::vector<std::string> dir_paths_;  // by handle: the path of each open directory ("" when closed)
  std::string path_;
  std::string path_to_;
  std::vector<std::byte> verify_buf_;  // --verify-write's read-back
  TypeListings listings_;              // the type checks' listings, by handle and by path (adopted)
};

}  // namespace mdbench
