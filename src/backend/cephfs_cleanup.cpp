// The CephFS backend's cleanup walk (Backend::removeGenerated, cleanup.hpp's rules) over libcephfs paths:
// only names mdbench generates, of the type it gives them (ceph_statx AT_SYMLINK_NOFOLLOW: a link is never
// followed, only reported), and with an ownership record only what it says the run made; a directory is
// removed once nothing below it was kept. Recursive: the depth is the run's tree depth (-z), which the
// run's own paths already bound. The mark and the ownership record at the top are left for the caller.
#include <cephfs/libcephfs.h>
#include <dirent.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "mdbench/backend/cephfs_backend.hpp"
#include "mdbench/backend/cleanup.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/util/errno_name.hpp"

namespace mdbench {
namespace {

int status(int ret) { return ret < 0 ? -ret : 0; }

std::string_view typeName(std::uint16_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISREG(mode)) return "a file";
  return "a special file";
}

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

int CephfsBackend::removeGenerated(DirHandle dir, const CleanOptions& options, CleanTally& tally) {
  const std::string path = dirPath(dir);
  if (path.empty()) return EBADF;
  std::vector<std::string> names;
  if (const int err = listPathNames(cmount_, path, names); err != 0) return err;
  for (const std::string& name : names) {
    if (name == kMarkName || name == kTakenName || name == kTakenTempName) continue;
    if (options.parts > 1 && cleanPartOf(name, options.parts) != options.part) continue;
    (void)removeBelow(path + "/" + name, name, options, tally);
  }
  return 0;
}

// Handles the entry at `entry_path` ("relative" below the top, for the ownership record): removes it when it
// is mdbench's (a directory after what is below it). Returns whether it is gone (or would be: dry run).
bool CephfsBackend::removeBelow(const std::string& entry_path, const std::string& relative,
                                const CleanOptions& options, CleanTally& tally) {
  struct ceph_statx stx {};
  if (const int err =
          status(ceph_statx(cmount_, entry_path.c_str(), &stx, CEPH_STATX_MODE, AT_SYMLINK_NOFOLLOW));
      err != 0) {
    if (err != ENOENT) tally.keep(entry_path, describeErrno(err));
    return err == ENOENT;
  }
  const std::string_view name = std::string_view(relative).substr(relative.rfind('/') + 1);
  const GeneratedName kind = classifyName(name);
  const bool file = kind == GeneratedName::kGeneratedFile && S_ISREG(stx.stx_mode);
  const bool dir = kind == GeneratedName::kGeneratedDir && S_ISDIR(stx.stx_mode);
  if (!file && !dir) {
    tally.keep(entry_path,
               kind == GeneratedName::kForeign
                   ? fmt::format("{} mdbench did not make; left alone", typeName(stx.stx_mode))
                   : fmt::format("{} with a name mdbench gives to {}; left alone", typeName(stx.stx_mode),
                                 kind == GeneratedName::kGeneratedDir ? "directories" : "files"));
    return false;
  }
  if (options.leave != nullptr) {
    if (const std::string_view why = options.leave->notOursBecause(relative); !why.empty()) {
      tally.keep(entry_path, why);
      return false;
    }
  }
  if (file) {
    const int err = options.dry_run ? 0 : status(ceph_unlink(cmount_, entry_path.c_str()));
    if (err == 0) ++tally.files;
    if (err != 0 && err != ENOENT) tally.keep(entry_path, describeErrno(err));
    return err == 0;
  }
  std::vector<std::string> names;
  if (const int err = listPathNames(cmount_, entry_path, names); err != 0) {
    tally.keep(entry_path, fmt::format("cannot list it: {}", describeErrno(err)));
    return false;
  }
  const std::uint64_t kept_before = tally.kept;
  for (const std::string& child : names) {
    (void)removeBelow(entry_path + "/" + child, relative + "/" + child, options, tally);
  }
  if (tally.kept != kept_before) return false;
  const int err = options.dry_run ? 0 : status(ceph_rmdir(cmount_, entry_path.c_str()));
  if (err == 0) ++tally.dirs;
  if (err != 0) tally.keep(entry_path, describeErrno(err));
  return err == 0;
}

}  // namespace mdbench
