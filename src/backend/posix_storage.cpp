// -a POSIX's storage: the targets are directories of this node, reached by POSIX calls (storage.hpp).
#include "posix_storage.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <utility>

#include "mdbench/backend/posix_backend.hpp"
#include "mdbench/config/option_docs.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/file_io.hpp"

namespace mdbench {

namespace {

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// The mark first, then the directory, when `fd` (opened on `path`) has mdbench's mark and `same` says it is
// the directory expected.
int removeMarkedAt(int fd, const std::string& path, bool same) {
  int err = same && hasMark(fd) ? 0 : EPERM;
  if (err == 0 && unlinkat(fd, std::string(kMarkName).c_str(), 0) != 0) err = errno;
  if (err == 0 && rmdir(path.c_str()) != 0) {
    err = errno;
    (void)writeMark(fd);
  }
  close(fd);
  return err;
}

}  // namespace

int PosixStorage::kindOf(const std::string& path, StorageKind& kind) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) {
    kind = StorageKind::kMissing;
    return errno == ENOENT ? 0 : errno;
  }
  kind = S_ISLNK(st.st_mode)   ? StorageKind::kLink
         : S_ISDIR(st.st_mode) ? StorageKind::kDirectory
                               : StorageKind::kOther;
  return 0;
}

int PosixStorage::resolve(const std::string& path, std::string& out) {
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) return errno;
  out = resolved;
  return 0;
}

std::string PosixStorage::resolveLinks(const std::string& absolute_path) {
  namespace fs = std::filesystem;
  const fs::path absolute(absolute_path);
  std::vector<std::string> todo;  // the components still to walk, the next one last
  for (const fs::path& c : absolute.relative_path()) todo.insert(todo.begin(), c.string());
  fs::path done = "/";
  for (int links = 0; !todo.empty();) {
    const std::string c = todo.back();
    todo.pop_back();
    if (c.empty() || c == ".") continue;
    if (c == "..") {
      done = done.parent_path();  // `done` holds no link, so its lexical parent is the real one
      continue;
    }
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(done / c, ec))) {
      done /= c;
      continue;
    }
    const fs::path link = fs::read_symlink(done / c, ec);
    // After 40 links the kernel gives up (ELOOP): the lexical path then.
    if (ec || ++links > 40) return absolute.lexically_normal().string();
    if (link.is_absolute()) done = "/";
    std::vector<std::string> parts;
    for (const fs::path& part : link.relative_path()) parts.push_back(part.string());
    todo.insert(todo.end(), parts.rbegin(), parts.rend());
  }
  return done.string();
}

int PosixStorage::identify(const std::string& path, StorageId& id) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return errno;
  id = StorageId{st.st_dev, st.st_ino};
  return 0;
}

StorageIdChain PosixStorage::identityChain(const std::string& absolute) {
  StorageIdChain out;
  std::filesystem::path at = std::filesystem::path(absolute).lexically_normal();
  int fd = -1;
  for (bool first = true;; first = false) {
    fd = ::open(withoutTrailingDots(at.string()).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
      out.exists = first;
      break;
    }
    if (!at.has_relative_path()) return out;
    at = at.parent_path();
  }
  // At most PATH_MAX levels: a directory is at least one byte of name and a '/' below the one above it.
  for (int level = 0; level < PATH_MAX; ++level) {
    struct stat st {};
    if (fstat(fd, &st) != 0) break;
    const StorageId id{st.st_dev, st.st_ino};
    if (!out.chain.empty() && out.chain.back() == id) break;  // "/" is its own parent
    out.chain.push_back(id);
    const int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    close(fd);
    fd = up;
    if (fd < 0) break;
  }
  if (fd >= 0) close(fd);
  return out;
}

int PosixStorage::makeDir(const std::string& path) { return mkdir(path.c_str(), 0777) == 0 ? 0 : errno; }

int PosixStorage::removeDir(const std::string& path) { return rmdir(path.c_str()) == 0 ? 0 : errno; }

int PosixStorage::writeMark(const std::string& path) {
  const int fd = ::open(path.c_str(), kDirFlags);
  if (fd < 0) return errno;
  const int err = mdbench::writeMark(fd);
  close(fd);
  return err;
}

MarkKind PosixStorage::readMark(const std::string& path) {
  const int fd = ::open(path.c_str(), kDirFlags);
  if (fd < 0) return errno == ENOENT ? MarkKind::kNone : MarkKind::kForeign;
  const MarkKind kind = mdbench::readMark(fd);
  close(fd);
  return kind;
}

int PosixStorage::removeMarkedDir(const std::string& path, const StorageId* expect) {
  const int fd = ::open(path.c_str(), kDirFlags);
  if (fd < 0) return errno;
  struct stat st {};
  const bool same = expect == nullptr || expect->ino == 0 ||
                    (fstat(fd, &st) == 0 && st.st_dev == expect->dev && st.st_ino == expect->ino);
  return removeMarkedAt(fd, path, same);
}

std::optional<FsInfo> PosixStorage::describe(const std::string& path) { return probeFileSystem(path); }

// --posix.odirect: each target's file system (the nearest directory that exists: a fresh target is made
// there) must take O_DIRECT, and -w and -e must be multiples of its alignment, or every write or read of
// the run would fail (EINVAL).
std::string PosixStorage::optionProblem(const Config& config) {
  if (!config.posix.odirect) return {};
  const std::vector<std::string> given =
      config.targets.empty() ? std::vector<std::string>{"."} : config.targets;
  for (const std::string& target : given) {
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::absolute(target, ec);
    while (!ec && dir.has_parent_path() && dir != dir.parent_path() &&
           !std::filesystem::is_directory(dir, ec)) {
      ec.clear();
      dir = dir.parent_path();
    }
    std::uint32_t align = 0;
    const int err = probeDirectIo(dir.string(), align);
    const std::optional<FsInfo> fs = probeFileSystem(dir.string());
    const std::string where = fmt::format("{} ({})", dir.string(), fs ? fs->type : "unknown");
    if (err == EINVAL) {
      return fmt::format("{}: the file system of {} has no O_DIRECT (an O_DIRECT open there fails: EINVAL)",
                         optionLabel("posix.odirect"), where);
    }
    if (err != 0) {
      return fmt::format("{}: cannot try O_DIRECT in {}: {}", optionLabel("posix.odirect"), where,
                         describeErrno(err));
    }
    for (const auto& [name, bytes] :
         {std::pair{"write-bytes", config.write_bytes}, std::pair{"read-bytes", config.read_bytes}}) {
      if (align == 0 || bytes % align == 0) continue;
      return fmt::format(
          "{}: {} {} is not a multiple of {}, the O_DIRECT alignment of {}: its transfers "
          "would fail (EINVAL)",
          optionLabel("posix.odirect"), optionLabel(name), bytes, align, where);
    }
  }
  return {};
}

std::unique_ptr<Backend> PosixStorage::open(const std::string& root, std::uint32_t /*rank*/, int& err) {
  const PosixOptions options{.style = config_.path_style,
                             .sync = config_.sync_call,
                             .make_node = config_.make_node,
                             .verify_write = config_.verify_write,
                             .odirect = config_.posix.odirect,
                             .rangelocks = config_.posix.rangelocks};
  return PosixBackend::open(root, options, err);
}

}  // namespace mdbench
