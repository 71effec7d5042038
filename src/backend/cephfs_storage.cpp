// -a CEPHFS's storage: cephfs_storage.hpp. Every call goes to rank 0's own libcephfs client, by the path
// inside the CephFS; a target's last component is never followed (AT_SYMLINK_NOFOLLOW, O_NOFOLLOW).
#include "cephfs_storage.hpp"

#include <cephfs/libcephfs.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <filesystem>
#include <utility>

#include "cephfs_mount.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/file_io.hpp"
#include "remote_paths.hpp"

namespace mdbench {
namespace {

int status(int ret) { return ret < 0 ? -ret : 0; }

CephfsOptions optionsOf(const Config& config) {
  CephfsOptions o;
  o.user = config.cephfs.user;
  o.conf = config.cephfs.conf;
  o.prefix = config.cephfs.prefix;
  o.remote_prefix = config.cephfs.remote_prefix;
  o.olazy = config.cephfs.olazy;
  o.make_node = config.make_node;
  o.verify_write = config.verify_write;
  return o;
}

}  // namespace

CephfsStorage::CephfsStorage(const Config& config)
    : options_(optionsOf(config)),
      refusal_(remoteRefusal(config, "-a CEPHFS", "libcephfs names every item by its path inside the CephFS",
                             "", true)) {}

CephfsStorage::~CephfsStorage() { unmountCephfs(cmount_); }

ceph_mount_info* CephfsStorage::mount(int& err) {
  if (cmount_ == nullptr && mount_err_ == 0) {
    CephfsOpenError error;
    cmount_ = mountCephfs(options_, error);
    if (cmount_ == nullptr) {
      mount_err_ = error.err != 0 ? error.err : EIO;
      last_problem_ = error.message;
    }
  }
  err = mount_err_;
  return cmount_;
}

std::string CephfsStorage::reachProblem() {
  if (!refusal_.empty()) return refusal_;
  int err = 0;
  return mount(err) == nullptr ? last_problem_ : std::string();
}

std::string CephfsStorage::inside(const std::string& path) const {
  return CephfsBackend::mountPath(path, options_.prefix);
}

int CephfsStorage::kindOf(const std::string& path, StorageKind& kind) {
  kind = StorageKind::kMissing;
  int err = 0;
  ceph_mount_info* cmount = mount(err);
  if (cmount == nullptr) return err;
  struct ceph_statx stx {};
  err = status(ceph_statx(cmount, inside(path).c_str(), &stx, CEPH_STATX_MODE, AT_SYMLINK_NOFOLLOW));
  if (err != 0) return err == ENOENT ? 0 : err;
  kind = S_ISLNK(stx.stx_mode)   ? StorageKind::kLink
         : S_ISDIR(stx.stx_mode) ? StorageKind::kDirectory
                                 : StorageKind::kOther;
  return 0;
}

// Paths keep -d's form (the prefix included) so that each rank's backend takes the prefix off as mdtest
// does. Nothing in the path is followed here: a target that is a link is refused by kindOf's kLink before
// any call that would follow it, and a link above it is the CephFS's own business, as for mdtest.
int CephfsStorage::resolve(const std::string& path, std::string& out) {
  int err = 0;
  ceph_mount_info* cmount = mount(err);
  if (cmount == nullptr) return err;
  struct ceph_statx stx {};
  if (const int e = status(ceph_statx(cmount, inside(path).c_str(), &stx, CEPH_STATX_MODE, 0)); e != 0) {
    return e;
  }
  out = resolveLinks(path);
  return 0;
}

std::string CephfsStorage::resolveLinks(const std::string& absolute) {
  return withoutTrailingSlashes(std::filesystem::path(absolute).lexically_normal().string());
}

int CephfsStorage::identify(const std::string& path, StorageId& id) {
  int err = 0;
  ceph_mount_info* cmount = mount(err);
  if (cmount == nullptr) return err;
  struct ceph_statx stx {};
  err = status(ceph_statx(cmount, inside(path).c_str(), &stx, CEPH_STATX_INO, AT_SYMLINK_NOFOLLOW));
  if (err == 0) id = StorageId{stx.stx_dev, stx.stx_ino};
  return err;
}

// The directory and each one above it to the mount's root, by "..": a CephFS seen under two names (a
// second -d through the prefix and without it) shows as the same directories.
StorageIdChain CephfsStorage::identityChain(const std::string& absolute) {
  StorageIdChain out;
  int err = 0;
  ceph_mount_info* cmount = mount(err);
  if (cmount == nullptr) return out;
  std::filesystem::path at = std::filesystem::path(inside(absolute)).lexically_normal();
  struct ceph_statx stx {};
  for (bool first = true;; first = false) {
    if (ceph_statx(cmount, at.string().c_str(), &stx, CEPH_STATX_INO, 0) == 0) {
      out.exists = first;
      break;
    }
    if (!at.has_relative_path()) return out;
    at = at.parent_path();
  }
  std::string up = at.string();
  for (int level = 0; level < 4096; ++level) {
    const StorageId id{stx.stx_dev, stx.stx_ino};
    if (!out.chain.empty() && out.chain.back() == id) break;  // the root is its own parent
    out.chain.push_back(id);
    up += up.back() == '/' ? ".." : "/..";
    if (ceph_statx(cmount, up.c_str(), &stx, CEPH_STATX_INO, 0) != 0) break;
  }
  return out;
}

int CephfsStorage::makeDir(const std::string& path) {
  int err = 0;
  ceph_mount_info* cmount = mount(err);
  return cmount == nullptr ? err : status(ceph_mkdir(cmount, inside(path).c_str(), 0777));
}

int CephfsStorage::removeDir(const std::string& path) {
  int err = 0;
  ceph_mount_info* cmount = mount(err);
  return cmount == nullptr ? err : status(ceph_rmdir(cmount, inside(path).c_str()));
}

int CephfsStorage::writeMark(const std::string& path) {
  int err = 0;
  ceph_mount_info* cmount = mount(err);
  if (cmount == nullptr) return err;
  StorageKind kind{};
  if ((err = kindOf(path, kind)) != 0) return err;
  if (kind != StorageKind::kDirectory) return kind == StorageKind::kMissing ? ENOENT : ENOTDIR;
  return writeCephfsMark(cmount, inside(path));
}

MarkKind CephfsStorage::readMark(const std::string& path) {
  int err = 0;
  ceph_mount_info* cmount = mount(err);
  if (cmount == nullptr) return MarkKind::kForeign;
  StorageKind kind{};
  if (kindOf(path, kind) != 0 || kind == StorageKind::kLink || kind == StorageKind::kOther) {
    return MarkKind::kForeign;
  }
  return kind == StorageKind::kMissing ? MarkKind::kNone : readCephfsMark(cmount, inside(path));
}

int CephfsStorage::removeMarkedDir(const std::string& path, const StorageId* expect) {
  int err = 0;
  ceph_mount_info* cmount = mount(err);
  if (cmount == nullptr) return err;
  StorageId id;
  if ((err = identify(path, id)) != 0) return err;
  const bool same = expect == nullptr || expect->ino == 0 || id == *expect;
  if (!same || readMark(path) != MarkKind::kOurs) return EPERM;
  const std::string dir = inside(path);
  const std::string mark = dir + "/" + std::string(kMarkName);
  if ((err = status(ceph_unlink(cmount, mark.c_str()))) != 0) return err;
  if ((err = status(ceph_rmdir(cmount, dir.c_str()))) != 0) (void)writeCephfsMark(cmount, dir);
  return err;
}

std::optional<FsInfo> CephfsStorage::describe(const std::string& path) {
  int err = 0;
  ceph_mount_info* cmount = mount(err);
  if (cmount == nullptr) return std::nullopt;
  struct statvfs st {};
  if (ceph_statfs(cmount, inside(path).c_str(), &st) != 0) return std::nullopt;
  FsInfo info;
  info.type = "ceph (libcephfs)";
  info.total_bytes = static_cast<std::uint64_t>(st.f_blocks) * st.f_frsize;
  info.free_bytes = static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
  // CephFS has no inode table to run out of: its f_files counts the files there are and f_ffree is
  // meaningless, so neither is an inode limit.
  info.total_inodes = kUnknownCount;
  info.free_inodes = kUnknownCount;
  knownCounts(info);
  return info;
}

std::unique_ptr<Backend> CephfsStorage::open(const std::string& root, std::uint32_t /*rank*/, int& err) {
  CephfsOpenError error;
  std::unique_ptr<CephfsBackend> backend = CephfsBackend::open(root, options_, error);
  err = backend ? 0 : (error.err != 0 ? error.err : EIO);
  if (!backend) last_problem_ = error.message;
  return backend;
}

}  // namespace mdbench
