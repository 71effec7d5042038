// The CephFS backend's cleanup walk calls (Backend::listNames, lookUp, identify, walkInto, removeName) over
// libcephfs paths, for the one walk of tree_walk.cpp, which keeps cleanup.hpp's rules: only names mdbench
// generates, of the type it gives them, a link never followed, and with a record only what it says the run
// made.
#include <cephfs/libcephfs.h>
#include <dirent.h>
#include <sys/stat.h>

#include <string>
#include <string_view>
#include <vector>

#include "mdbench/backend/cephfs_backend.hpp"
#include "remote_paths.hpp"

namespace mdbench {
namespace {

int status(int ret) { return ret < 0 ? -ret : 0; }

constexpr unsigned kIdentityMask = CEPH_STATX_MODE | CEPH_STATX_INO;

int listPathNames(ceph_mount_info* cmount, const std::string& path, std::vector<std::string>& names) {
  ceph_dir_result* dir = nullptr;
  if (const int err = status(ceph_opendir(cmount, path.c_str(), &dir)); err != 0) return err;
  dirent entry{};
  int ret = 0;
  while ((ret = ceph_readdir_r(cmount, dir, &entry)) > 0) {
    const std::string_view name = entry.d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  ceph_closedir(cmount, dir);
  return status(ret);
}

}  // namespace

// The cleanup walk's calls (tree_walk.cpp: the one walk every backend's cleanup and `mdbench clean` use),
// on the paths the handles stand for; nothing is followed (AT_SYMLINK_NOFOLLOW, openDir's type check).
int CephfsBackend::listNames(DirHandle dir, std::vector<std::string>& names) {
  const std::string path = dirPath(dir);
  return path.empty() ? EBADF : listPathNames(cmount_, path, names);
}

int CephfsBackend::lookUp(DirHandle dir, const char* name, EntryInfo& info) {
  const char* path = pathIn(dir, name, path_);
  if (path == nullptr) return EBADF;
  struct ceph_statx stx {};
  if (const int err = status(ceph_statx(cmount_, path, &stx, kIdentityMask, AT_SYMLINK_NOFOLLOW)); err != 0) {
    return err;
  }
  info.kind = S_ISREG(stx.stx_mode)   ? EntryKind::kFile
              : S_ISDIR(stx.stx_mode) ? EntryKind::kDir
              : S_ISLNK(stx.stx_mode) ? EntryKind::kLink
                                      : EntryKind::kOther;
  info.id = StorageId{0, stx.stx_ino};
  return 0;
}

// The inode is what the mark and the record of a create job name (the same number ceph-fuse reports as
// st_ino); one file system per mount, so no device.
int CephfsBackend::identify(DirHandle dir, StorageId& id) {
  const std::string path = dirPath(dir);
  if (path.empty()) return EBADF;
  struct ceph_statx stx {};
  const int err = status(ceph_statx(cmount_, path.c_str(), &stx, kIdentityMask, AT_SYMLINK_NOFOLLOW));
  if (err == 0) id = StorageId{0, stx.stx_ino};
  return err;
}

int CephfsBackend::walkInto(DirHandle dir, const char* name, DirHandle& out) {
  if (std::string_view(name) != "..") return openDir(dir, name, out);
  const std::string path = dirPath(dir);
  return path.empty() ? EBADF : openPath(remoteParent(path), out);
}

// The walk looked the name up just before (lookUp), and the MDS refuses a wrong type for rmdir (ENOTDIR)
// and a directory for unlink (EISDIR).
int CephfsBackend::removeName(DirHandle dir, const char* name, EntryType type) {
  const char* path = pathIn(dir, name, path_);
  if (path == nullptr) return EBADF;
  return status(type == EntryType::kDir ? ceph_rmdir(cmount_, path) : ceph_unlink(cmount_, path));
}

}  // namespace mdbench
