// The CephFS backend over libcephfs (cephfs_backend.hpp). Per operation, mdtest 4.1's calls (aiori-CEPHFS.c
// CEPHFS_Create / _Open / _Xfer / _Close / _Delete / _MkDir / _RmDir / _Stat / _Sync, as mdtest.c calls
// them) on the item's path inside the mount, and what mdbench's promises add:
//   create    ceph_open(path, O_WRONLY|O_CREAT|O_EXCL, 0664) [ceph_write] [ceph_fsync] ceph_close
//             (mdtest: no O_EXCL). O_CREAT|O_EXCL never reuses an entry, a symlink included (libcephfs
//             does not follow a final symlink with O_CREAT|O_EXCL; EEXIST).
//   -S open   ceph_open(path, O_WRONLY|O_NOFOLLOW), ceph_fstatx: a regular file, one link, the size
//             written, or EINVAL / EMLINK / EBADMSG and nothing written (backend.hpp kOpenCreated).
//   stat      ceph_statx(path, CEPH_STATX_MODE, AT_SYMLINK_NOFOLLOW) (mdtest: ceph_stat, which follows
//             a symlink), then the type must be the item's.
//   read      ceph_open(path, O_RDONLY|O_NOFOLLOW) ceph_fstatx [ceph_read] ceph_close: a symlink fails the
//             open (ELOOP); fstatx (served from the open's caps, no MDS request) refuses anything but a
//             regular file with EINVAL before any byte is read.
//   mkdir     ceph_mkdir(path, 0775); EEXIST on any existing entry, a symlink included.
//   rmdir     ceph_rmdir(path): the MDS refuses a non-directory (ENOTDIR; Server::handle_client_unlink
//             checks the type of the dentry's inode against the request: RMDIR on a file or link is
//             ENOTDIR, UNLINK on a directory EISDIR), so no check of its own is needed.
//   unlink    a type check, then ceph_unlink(path): ceph_unlink removes a symlink or any special file as
//             readily, and refuses only a directory (EISDIR, from the MDS as above). The check: in a
//             file-remove or rename phase (beginTypeChecks), each directory is listed once (ceph_opendir /
//             ceph_readdir, d_type) before the phase's opening barrier (listTypes), or at its first call
//             with -B, and only a name listed with another type is checked by
//             ceph_statx(AT_SYMLINK_NOFOLLOW); elsewhere every name is.
//   rename    the same check of the old name, then ceph_statx(new, AT_SYMLINK_NOFOLLOW) must say ENOENT
//             (else EEXIST), then ceph_rename(old, new). libcephfs has no RENAME_NOREPLACE: an entry made
//             under the new name by another client between the statx and the rename is replaced (the
//             race window is one MDS round trip; no client of a run makes a name another one renames to).
//   count     ceph_opendir, ceph_readdir until NULL, ceph_closedir.
//   -Y        ceph_sync_fs; -y ceph_fsync(fd, 0) before the close (mdtest's CEPHFS_Fsync).
// Errors are libcephfs's negative returns, negated into errno values.
#include "mdbench/backend/cephfs_backend.hpp"

#include <cephfs/libcephfs.h>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <new>
#include <utility>

#include "cephfs_mount.hpp"
#include "mdbench/backend/cleanup.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/util/errno_name.hpp"
#include "remote_paths.hpp"

namespace mdbench {
namespace {

constexpr mode_t kDirMode = 0775;   // mdtest's DIRMODE
constexpr mode_t kFileMode = 0664;  // mdtest's CEPHFS_Open mode
constexpr int kCreateFlags = O_WRONLY | O_CREAT | O_EXCL;
constexpr int kOpenCreatedFlags = O_WRONLY | O_NOFOLLOW;
constexpr int kReadFlags = O_RDONLY | O_NOFOLLOW;
constexpr unsigned kNoFollow = AT_SYMLINK_NOFOLLOW;

// libcephfs returns 0 or a negative errno.
int status(int ret) { return ret < 0 ? -ret : 0; }

int typeError(std::uint16_t mode, EntryType want) {
  if (want == EntryType::kDir) return S_ISDIR(mode) ? 0 : ENOTDIR;
  if (S_ISREG(mode)) return 0;
  return S_ISDIR(mode) ? EISDIR : EINVAL;
}

bool isDot(const char* name) { return std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0; }

// A directory stream, closed when it goes.
class DirStream {
 public:
  DirStream(ceph_mount_info* cmount, const char* path) : cmount_(cmount) {
    err_ = status(ceph_opendir(cmount, path, &dir_));
  }
  ~DirStream() {
    if (dir_ != nullptr) ceph_closedir(cmount_, dir_);
  }
  DirStream(const DirStream&) = delete;
  DirStream& operator=(const DirStream&) = delete;
  int error() const { return err_; }
  // The next entry (not "." or ".."), or nullptr at the end or on an error (then error() is set).
  const dirent* next() {
    while (true) {
      const int ret = ceph_readdir_r(cmount_, dir_, &entry_);
      if (ret <= 0) {
        err_ = status(ret);
        return nullptr;
      }
      if (!isDot(entry_.d_name)) return &entry_;
    }
  }

 private:
  ceph_mount_info* cmount_;
  ceph_dir_result* dir_ = nullptr;
  dirent entry_{};
  int err_ = 0;
};

std::string monitors(ceph_mount_info* cmount) {
  std::array<char, 512> buf{};
  if (ceph_conf_get(cmount, "mon_host", buf.data(), buf.size()) != 0 || buf[0] == '\0') return "(none set)";
  return buf.data();
}

// The message for a failed ceph_mount: what the errno usually means for a libcephfs client.
std::string mountFailure(ceph_mount_info* cmount, const CephfsOptions& o, int err) {
  const std::string who = o.user.empty() ? "client.admin" : "client." + o.user;
  const std::string root = o.remote_prefix.empty() ? "/" : o.remote_prefix;
  const std::string conf = o.conf.empty() ? "libcephfs's default conf" : o.conf;
  std::string why;
  if (err == ETIMEDOUT) {
    why = fmt::format("no monitor at {} answered within {} s (are they up and reachable?)", monitors(cmount),
                      o.mount_timeout_s);
  } else if (err == EACCES || err == EPERM || err == EINVAL) {
    why = fmt::format(
        "the monitors at {} refused {} (a wrong --cephfs.user, or its key missing from the "
        "keyring {} names)",
        monitors(cmount), who, conf);
  } else if (err == ENOENT) {
    why = fmt::format(
        "{} (--cephfs.remote_prefix) does not exist in the CephFS, or {} has no key in "
        "the keyring {} names",
        root, who, conf);
  } else {
    why = fmt::format("monitors {}", monitors(cmount));
  }
  return fmt::format("-a CEPHFS: cannot mount {} of the CephFS as {} ({}): {}", root, who, describeErrno(err),
                     why);
}

}  // namespace

std::string CephfsBackend::mountPath(const std::string& root_path, const std::string& prefix) {
  return remotePath(root_path, prefix);  // mdtest's pfix: taken off only when the path starts with all of it
}

ceph_mount_info* mountCephfs(const CephfsOptions& options, CephfsOpenError& error) {
  ceph_mount_info* cmount = nullptr;
  const char* user = options.user.empty() ? nullptr : options.user.c_str();
  if (const int err = status(ceph_create(&cmount, user)); err != 0) {
    error = {err, fmt::format("-a CEPHFS: cannot create a libcephfs client as {}: {}",
                              options.user.empty() ? "client.admin" : "client." + options.user,
                              describeErrno(err))};
    return nullptr;
  }
  const auto fail = [&](int err, std::string message) {
    ceph_release(cmount);  // after a failed mount or none: nothing mounted to unmount
    error = {err, std::move(message)};
    return nullptr;
  };
  const char* conf = options.conf.empty() ? nullptr : options.conf.c_str();
  if (const int err = status(ceph_conf_read_file(cmount, conf)); err != 0) {
    return fail(err, fmt::format("-a CEPHFS: cannot read the ceph configuration {} (--cephfs.conf): {}",
                                 options.conf.empty() ? "(libcephfs's default search)" : options.conf,
                                 describeErrno(err)));
  }
  const std::string timeout = std::to_string(options.mount_timeout_s);
  for (const char* key : {"client_mount_timeout", "rados_mon_op_timeout"}) {
    if (const int err = status(ceph_conf_set(cmount, key, timeout.c_str())); err != 0) {
      return fail(err, fmt::format("-a CEPHFS: cannot set {}: {}", key, describeErrno(err)));
    }
  }
  const std::string remote = options.remote_prefix.empty() ? "/" : options.remote_prefix;
  if (const int err = status(ceph_mount(cmount, remote.c_str())); err != 0) {
    return fail(err, mountFailure(cmount, options, err));
  }
  return cmount;
}

void unmountCephfs(ceph_mount_info* cmount) {
  if (cmount == nullptr) return;
  ceph_unmount(cmount);
  ceph_release(cmount);
}

std::unique_ptr<CephfsBackend> CephfsBackend::open(const std::string& root_path, const CephfsOptions& options,
                                                   CephfsOpenError& error) {
  ceph_mount_info* cmount = mountCephfs(options, error);
  if (cmount == nullptr) return nullptr;
  const std::string path = mountPath(root_path, options.prefix);
  struct ceph_statx stx {};
  int err = status(ceph_statx(cmount, path.c_str(), &stx, CEPH_STATX_MODE, kNoFollow));
  if (err == 0 && !S_ISDIR(stx.stx_mode)) err = ENOTDIR;
  if (err != 0) {
    unmountCephfs(cmount);
    error = {err, fmt::format("-a CEPHFS: {} (the CephFS path of {}, below {}) is not a directory there: {}",
                              path, root_path, options.remote_prefix.empty() ? "/" : options.remote_prefix,
                              describeErrno(err))};
    return nullptr;
  }
  std::unique_ptr<CephfsBackend> backend(new (std::nothrow) CephfsBackend(cmount, path, options));
  if (!backend) {
    unmountCephfs(cmount);
    error = {ENOMEM, "-a CEPHFS: out of memory"};
    return nullptr;
  }
  return backend;
}

CephfsBackend::CephfsBackend(ceph_mount_info* cmount, std::string root_path, const CephfsOptions& options)
    : cmount_(cmount), options_(options) {
  dir_paths_.push_back(std::move(root_path));
}

CephfsBackend::~CephfsBackend() { unmountCephfs(cmount_); }

std::string CephfsBackend::dirPath(DirHandle dir) const {
  if (dir.value < 0 || static_cast<std::size_t>(dir.value) >= dir_paths_.size()) return {};
  return dir_paths_[static_cast<std::size_t>(dir.value)];
}

const char* CephfsBackend::pathIn(DirHandle dir, const char* name, std::string& out) const {
  if (dir.value < 0 || static_cast<std::size_t>(dir.value) >= dir_paths_.size()) return nullptr;
  const std::string& base = dir_paths_[static_cast<std::size_t>(dir.value)];
  if (base.empty()) return nullptr;
  out.assign(base);
  if (out.back() != '/') out.push_back('/');
  out.append(name);
  return out.c_str();
}

int CephfsBackend::openDir(DirHandle parent, const char* name, DirHandle& out) {
  std::string path;
  if (pathIn(parent, name, path) == nullptr) return EBADF;
  if (const int err = checkType(path.c_str(), EntryType::kDir); err != 0) return err;
  return openPath(std::move(path), out);
}

int CephfsBackend::openPath(std::string path, DirHandle& out) {
  std::size_t slot = 1;
  while (slot < dir_paths_.size() && !dir_paths_[slot].empty()) ++slot;
  if (slot == dir_paths_.size()) dir_paths_.emplace_back();
  dir_paths_[slot] = std::move(path);
  out = DirHandle{static_cast<std::int64_t>(slot)};
  return 0;
}

int CephfsBackend::closeDir(DirHandle dir) {
  if (dir.value <= 0 || static_cast<std::size_t>(dir.value) >= dir_paths_.size() ||
      dir_paths_[static_cast<std::size_t>(dir.value)].empty()) {
    return EBADF;
  }
  dir_paths_[static_cast<std::size_t>(dir.value)].clear();
  listings_.forget(dir.value);
  return 0;
}

int CephfsBackend::checkType(const char* path, EntryType want) {
  struct ceph_statx stx {};
  if (const int err = status(ceph_statx(cmount_, path, &stx, CEPH_STATX_MODE, kNoFollow)); err != 0) {
    return err;
  }
  return typeError(stx.stx_mode, want);
}

int CephfsBackend::makeDir(DirHandle parent, const char* name) {
  const char* path = pathIn(parent, name, path_);
  return path == nullptr ? EBADF : status(ceph_mkdir(cmount_, path, kDirMode));
}

int CephfsBackend::removeDir(DirHandle parent, const char* name) {
  const char* path = pathIn(parent, name, path_);
  return path == nullptr ? EBADF : status(ceph_rmdir(cmount_, path));
}

int CephfsBackend::openFile(const char* path, int flags, int& fd) {
  const int ret = ceph_open(cmount_, path, flags, kFileMode);
  if (ret < 0) return -ret;
  fd = ret;
  if (options_.olazy) (void)ceph_lazyio(cmount_, fd, 1);  // mdtest only warns when it fails
  return 0;
}

int CephfsBackend::createFile(DirHandle parent, const char* name, std::span<const std::byte> data,
                              CreateOptions options) {
  const char* path = pathIn(parent, name, path_);
  if (path == nullptr) return EBADF;
  const bool created = options.mode == CreateMode::kExclusive;
  if (created && options_.make_node && data.empty()) {
    const int err = status(ceph_mknod(cmount_, path, S_IFREG | kFileMode, 0));  // EEXIST on any entry
    if (err == 0 && options.made != nullptr) *options.made = true;
    return err;
  }
  const bool verify = options_.verify_write && !data.empty();
  const int base = created ? kCreateFlags : kOpenCreatedFlags;
  const int flags = verify ? readBackFlags(base) : base;
  int fd = -1;
  if (const int err = openFile(path, flags, fd); err != 0) return err;
  int err = 0;
  if (!created) {
    struct ceph_statx stx {};
    err = status(ceph_fstatx(cmount_, fd, &stx, CEPH_STATX_MODE | CEPH_STATX_NLINK | CEPH_STATX_SIZE, 0));
    if (err == 0) err = typeError(stx.stx_mode, EntryType::kFile);
    if (err == 0 && stx.stx_nlink != 1) err = EMLINK;
    if (err == 0 && stx.stx_size != data.size()) err = EBADMSG;
  }
  if (err == 0 && options.made != nullptr) *options.made = true;
  if (err == 0 && !data.empty()) {
    const auto size = static_cast<std::int64_t>(data.size());
    const int ret = ceph_write(cmount_, fd, reinterpret_cast<const char*>(data.data()), size, 0);
    err = ret < 0 ? -ret : (ret < size ? EIO : 0);
    if (err == 0 && options.fsync) err = status(ceph_fsync(cmount_, fd, 0));  // -y
    if (err == 0 && verify) {
      err = verifyReadBack(data, verify_buf_, [&](std::size_t offset, std::byte* into, std::size_t count) {
        return ceph_read(cmount_, fd, reinterpret_cast<char*>(into), static_cast<std::int64_t>(count),
                         static_cast<std::int64_t>(offset));
      });
    }
  }
  const int close_err = status(ceph_close(cmount_, fd));
  return err != 0 ? err : close_err;
}

int CephfsBackend::statEntry(DirHandle parent, const char* name, bool is_dir) {
  const char* path = pathIn(parent, name, path_);
  return path == nullptr ? EBADF : checkType(path, is_dir ? EntryType::kDir : EntryType::kFile);
}

int CephfsBackend::readFile(DirHandle parent, const char* name, std::span<std::byte> buf) {
  const char* path = pathIn(parent, name, path_);
  if (path == nullptr) return EBADF;
  int fd = -1;
  if (const int err = openFile(path, kReadFlags, fd); err != 0) return err;
  struct ceph_statx stx {};
  int err = status(ceph_fstatx(cmount_, fd, &stx, CEPH_STATX_MODE, 0));
  if (err == 0) err = S_ISREG(stx.stx_mode) ? 0 : EINVAL;
  std::int64_t offset = 0;
  while (err == 0 && static_cast<std::size_t>(offset) < buf.size()) {
    const auto want = static_cast<std::int64_t>(buf.size()) - offset;
    const int ret = ceph_read(cmount_, fd, reinterpret_cast<char*>(buf.data()) + offset, want, offset);
    if (ret < 0) err = -ret;
    if (ret == 0) err = ENODATA;  // the file is shorter than expected
    if (ret > 0) offset += ret;
  }
  const int close_err = status(ceph_close(cmount_, fd));
  return err != 0 ? err : close_err;
}

void CephfsBackend::beginTypeChecks(EntryType type) { listings_.begin(type); }

void CephfsBackend::endTypeChecks() { listings_.end(); }

int CephfsBackend::listSuspects(const std::string& dir_path, EntryType type, TypeListings::Listed& listed) {
  DirStream stream(cmount_, dir_path.c_str());
  if (stream.error() != 0) return stream.error();
  const unsigned char want = type == EntryType::kDir ? DT_DIR : DT_REG;
  while (const dirent* entry = stream.next()) {
    if (entry->d_type != want) listed.suspects.emplace(entry->d_name);
  }
  return stream.error();
}

// Keyed by the directory's path in the file system, the same for every rank's client.
int CephfsBackend::listTypes(DirHandle dir, EntryType type, std::string& out) {
  const std::string path = dirPath(dir);
  if (path.empty()) return EBADF;
  TypeListings::Listed listed;
  const int err = listSuspects(path, type, listed);
  if (err != 0) listed.check_all = true;
  TypeListings::append(out, path, listed);
  return err;
}

void CephfsBackend::adoptListings(std::string_view listings) { listings_.adopt(listings); }

bool CephfsBackend::needsTypeCheck(DirHandle dir, const char* name) {
  return listings_.needsCheck(
      dir.value, name, [&] { return dirPath(dir); },
      [&](EntryType type, TypeListings::Listed& listed) { return listSuspects(dirPath(dir), type, listed); });
}

int CephfsBackend::unlinkFile(DirHandle parent, const char* name) {
  const char* path = pathIn(parent, name, path_);
  if (path == nullptr) return EBADF;
  if (needsTypeCheck(parent, name)) {
    if (const int err = checkType(path, EntryType::kFile); err != 0) return err;
  }
  return status(ceph_unlink(cmount_, path));
}

int CephfsBackend::moveEntry(DirHandle from_dir, const char* from, DirHandle to_dir, const char* to,
                             EntryType type) {
  const char* from_path = pathIn(from_dir, from, path_);
  const char* to_path = pathIn(to_dir, to, path_to_);
  if (from_path == nullptr || to_path == nullptr) return EBADF;
  if (needsTypeCheck(from_dir, from)) {
    if (const int err = checkType(from_path, type); err != 0) return err;
  }
  struct ceph_statx stx {};
  const int err = status(ceph_statx(cmount_, to_path, &stx, CEPH_STATX_MODE, kNoFollow));
  if (err == 0) return EEXIST;  // never replaced (see the race above)
  if (err != ENOENT) return err;
  return status(ceph_rename(cmount_, from_path, to_path));
}

int CephfsBackend::countEntries(DirHandle dir, std::span<const std::string_view> prefixes,
                                std::span<std::uint64_t> counts, std::uint64_t& total) {
  const std::string path = dirPath(dir);
  if (path.empty() || counts.size() != prefixes.size()) return EBADF;
  DirStream stream(cmount_, path.c_str());
  if (stream.error() != 0) return stream.error();
  total = 0;
  for (std::uint64_t& count : counts) count = 0;
  while (const dirent* entry = stream.next()) {
    ++total;
    const std::string_view name = entry->d_name;
    for (std::size_t k = 0; k < prefixes.size(); ++k) {
      if (name.starts_with(prefixes[k])) ++counts[k];
    }
  }
  return stream.error();
}

int CephfsBackend::syncFileSystem() { return status(ceph_sync_fs(cmount_)); }

int writeCephfsMark(ceph_mount_info* cmount, const std::string& dir_path) {
  struct ceph_statx stx {};
  if (const int err = status(ceph_statx(cmount, dir_path.c_str(), &stx, CEPH_STATX_INO, kNoFollow));
      err != 0) {
    return err;
  }
  const std::string text = markText(stx.stx_ino);
  const std::string path = dir_path + "/" + std::string(kMarkName);
  const int ret = ceph_open(cmount, path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (ret < 0) return -ret;
  const auto size = static_cast<std::int64_t>(text.size());
  const int wrote = ceph_write(cmount, ret, text.data(), size, 0);
  int err = wrote < 0 ? -wrote : (wrote < size ? EIO : 0);
  if (const int close_err = status(ceph_close(cmount, ret)); err == 0) err = close_err;
  // O_EXCL made the file: a half-written one is ours to take back, so no torn mark is left.
  if (err != 0) ceph_unlink(cmount, path.c_str());
  return err;
}

MarkKind readCephfsMark(ceph_mount_info* cmount, const std::string& dir_path) {
  const std::string path = dir_path + "/" + std::string(kMarkName);
  const int fd = ceph_open(cmount, path.c_str(), O_RDONLY | O_NOFOLLOW, 0);
  if (fd < 0) return fd == -ENOENT ? MarkKind::kNone : MarkKind::kForeign;
  struct ceph_statx st {};
  struct ceph_statx dir_st {};
  std::array<char, 128> buf{};
  int got = -1;
  if (ceph_fstatx(cmount, fd, &st, CEPH_STATX_MODE, 0) == 0 && S_ISREG(st.stx_mode) &&
      ceph_statx(cmount, dir_path.c_str(), &dir_st, CEPH_STATX_INO, kNoFollow) == 0) {
    got = ceph_read(cmount, fd, buf.data(), static_cast<std::int64_t>(buf.size()), 0);
  }
  ceph_close(cmount, fd);
  if (got < 0) return MarkKind::kForeign;
  return classifyMark(std::string_view(buf.data(), static_cast<std::size_t>(got)), dir_st.stx_ino);
}

int CephfsBackend::writeMark(DirHandle dir) {
  const std::string dir_path = dirPath(dir);
  return dir_path.empty() ? EBADF : writeCephfsMark(cmount_, dir_path);
}

MarkKind CephfsBackend::readMark(DirHandle dir) {
  const std::string dir_path = dirPath(dir);
  return dir_path.empty() ? MarkKind::kForeign : readCephfsMark(cmount_, dir_path);
}

}  // namespace mdbench
