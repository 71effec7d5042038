// -a LIBNFS's storage: libnfs_storage.hpp. Every call goes to rank 0's own libnfs client, by the path inside
// the export; a target's last component is never followed (nfs_lstat64).
#include "libnfs_storage.hpp"

#include <fmt/format.h>
#include <nfsc/libnfs.h>
#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <utility>

#include "libnfs_client.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/util/file_io.hpp"
#include "remote_paths.hpp"

namespace mdbench {
namespace {

int negated(int ret) { return ret < 0 ? -ret : 0; }

std::string inside(const std::string& path) { return remotePath(path, ""); }

}  // namespace

LibnfsStorage::LibnfsStorage(const Config& config)
    : refusal_(remoteRefusal(config, "-a LIBNFS", "libnfs names every item by its path inside the export",
                             "NFS makes a regular file only by CREATE (v3) or OPEN (v4); MKNOD makes "
                             "special files alone",
                             false)) {
  options_.url = config.libnfs.url;
  options_.verify_write = config.verify_write;
}

LibnfsStorage::~LibnfsStorage() { unmountLibnfs(nfs_); }

nfs_context* LibnfsStorage::mount(int& err) {
  // Idle through the phases, the client may have lost its server (a restart) or its lease
  // (libnfs_client.hpp): a new one for what follows.
  if (idleFor(last_call_, kLibnfsStorageIdle) && nfs_ != nullptr) {
    unmountLibnfs(nfs_);
    nfs_ = nullptr;
  }
  if (nfs_ == nullptr && mount_err_ == 0) {
    LibnfsOpenError error;
    nfs_ = mountLibnfs(options_, error);
    if (nfs_ == nullptr) {
      mount_err_ = error.err != 0 ? error.err : EIO;
      last_problem_ = error.message;
    }
  }
  err = mount_err_;
  return nfs_;
}

std::string LibnfsStorage::reachProblem() {
  if (!refusal_.empty()) return refusal_;
  int err = 0;
  return mount(err) == nullptr ? last_problem_ : std::string();
}

int LibnfsStorage::kindOf(const std::string& path, StorageKind& kind) {
  kind = StorageKind::kMissing;
  int err = 0;
  nfs_context* nfs = mount(err);
  if (nfs == nullptr) return err;
  LibnfsEntry entry;
  if ((err = lstatLibnfs(nfs, inside(path), entry)) != 0) return err == ENOENT ? 0 : err;
  kind = S_ISLNK(entry.mode)   ? StorageKind::kLink
         : S_ISDIR(entry.mode) ? StorageKind::kDirectory
                               : StorageKind::kOther;
  return 0;
}

// Paths keep -d's form: a target that is a link is refused by kindOf's kLink before any call that would
// follow it, and a link above it is the server's business, as for mdtest.
int LibnfsStorage::resolve(const std::string& path, std::string& out) {
  int err = 0;
  nfs_context* nfs = mount(err);
  if (nfs == nullptr) return err;
  nfs_stat_64 st{};
  if ((err = negated(nfs_stat64(nfs, inside(path).c_str(), &st))) != 0) return err;
  out = resolveLinks(path);
  return 0;
}

std::string LibnfsStorage::resolveLinks(const std::string& absolute) {
  return withoutTrailingSlashes(std::filesystem::path(absolute).lexically_normal().string());
}

int LibnfsStorage::identify(const std::string& path, StorageId& id) {
  int err = 0;
  nfs_context* nfs = mount(err);
  if (nfs == nullptr) return err;
  LibnfsEntry entry;
  if ((err = lstatLibnfs(nfs, inside(path), entry)) == 0) id = entry.id;
  return err;
}

// The directory (or its nearest existing parent) and each one above it to the export's root.
StorageIdChain LibnfsStorage::identityChain(const std::string& absolute) {
  StorageIdChain out;
  int err = 0;
  nfs_context* nfs = mount(err);
  if (nfs == nullptr) return out;
  std::filesystem::path at = std::filesystem::path(inside(absolute)).lexically_normal();
  LibnfsEntry entry;
  for (bool first = true;; first = false) {
    if (lstatLibnfs(nfs, at.string(), entry) == 0) {
      out.exists = first;
      break;
    }
    if (!at.has_relative_path()) return out;
    at = at.parent_path();
  }
  while (true) {
    out.chain.push_back(entry.id);
    if (!at.has_relative_path() || lstatLibnfs(nfs, at.parent_path().string(), entry) != 0) break;
    at = at.parent_path();
  }
  return out;
}

int LibnfsStorage::makeDir(const std::string& path) {
  int err = 0;
  nfs_context* nfs = mount(err);
  return nfs == nullptr ? err : negated(nfs_mkdir2(nfs, inside(path).c_str(), 0777));
}

// NFSv4's rmdir removes a file as readily (libnfs): only a directory is removed.
int LibnfsStorage::removeDir(const std::string& path) {
  StorageKind kind{};
  if (const int err = kindOf(path, kind); err != 0) return err;
  if (kind != StorageKind::kDirectory) return kind == StorageKind::kMissing ? ENOENT : ENOTDIR;
  return negated(nfs_rmdir(nfs_, inside(path).c_str()));
}

int LibnfsStorage::writeMark(const std::string& path) {
  StorageKind kind{};
  if (const int err = kindOf(path, kind); err != 0) return err;
  if (kind != StorageKind::kDirectory) return kind == StorageKind::kMissing ? ENOENT : ENOTDIR;
  return writeLibnfsMark(nfs_, inside(path));
}

MarkKind LibnfsStorage::readMark(const std::string& path) {
  StorageKind kind{};
  if (kindOf(path, kind) != 0 || kind == StorageKind::kLink || kind == StorageKind::kOther) {
    return MarkKind::kForeign;
  }
  return kind == StorageKind::kMissing ? MarkKind::kNone : readLibnfsMark(nfs_, inside(path));
}

int LibnfsStorage::removeMarkedDir(const std::string& path, const StorageId* expect) {
  StorageId id;
  if (const int err = identify(path, id); err != 0) return err;
  const bool same = expect == nullptr || expect->ino == 0 || id == *expect;
  if (!same || readMark(path) != MarkKind::kOurs) return EPERM;
  const std::string dir = inside(path);
  const std::string mark = dir + "/" + std::string(kMarkName);
  if (const int err = negated(nfs_unlink(nfs_, mark.c_str())); err != 0) return err;
  const int err = negated(nfs_rmdir(nfs_, dir.c_str()));
  if (err != 0) (void)writeLibnfsMark(nfs_, dir);
  return err;
}

std::optional<FsInfo> LibnfsStorage::describe(const std::string& path) {
  int err = 0;
  nfs_context* nfs = mount(err);
  if (nfs == nullptr) return std::nullopt;
  nfs_statvfs_64 st{};
  if (nfs_statvfs64(nfs, inside(path).c_str(), &st) != 0) return std::nullopt;
  FsInfo info;
  info.type = libnfsDescription(options_.url);
  info.total_bytes = st.f_blocks * st.f_frsize;
  info.free_bytes = st.f_bavail * st.f_frsize;
  info.total_inodes = st.f_files;
  info.free_inodes = st.f_favail;
  knownCounts(info);
  return info;
}

std::unique_ptr<Backend> LibnfsStorage::open(const std::string& root, std::uint32_t /*rank*/, int& err) {
  LibnfsOpenError error;
  std::unique_ptr<LibnfsBackend> backend = LibnfsBackend::open(root, options_, error);
  err = backend ? 0 : (error.err != 0 ? error.err : EIO);
  if (!backend) last_problem_ = error.message;
  return backend;
}

}  // namespace mdbench
