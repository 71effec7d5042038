// The directories a run works in: checked, made and removed on rank 0.
#include "targets.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <limits.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string_view>
#include <utility>

#include "mdbench/backend/cleanup.hpp"
#include "mdbench/backend/fsinfo.hpp"
#include "mdbench/config/backends.hpp"
#include "mdbench/config/option_docs.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/util/errno_name.hpp"

namespace mdbench {

namespace {

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// PATH without the trailing "/" and "/." that make the kernel follow a link in its last component ("/"
// stays "/", "." stays ".").
std::string withoutTrailingDots(std::string path) {
  for (;;) {
    if (path.size() > 1 && path.back() == '/') {
      path.pop_back();
    } else if (path.size() > 2 && path.ends_with("/.")) {
      path.resize(path.size() - 2);
    } else {
      return path;
    }
  }
}

// "" or a hint for an errno that says the working directory is too deep to be named.
std::string_view deepHint(int err) {
  return err == ENAMETOOLONG ? " (is the working directory deeper than PATH_MAX? give -d an absolute path)"
                             : "";
}

// Rank 0 only: makes and marks the missing target `path`; on any failure removes what it made and returns
// the message. Its parent is resolved first, so that a path that cannot be named makes nothing.
std::string createTarget(const std::string& path, Target& target) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  char resolved[PATH_MAX];
  if (realpath(parent.empty() ? "." : parent.c_str(), resolved) == nullptr) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) {  // what mkdir would say: the parent is missing
      return fmt::format("cannot create target directory {}: {}", path, describeErrno(err));
    }
    return fmt::format("cannot resolve target {}: {}{}", path, describeErrno(err), deepHint(err));
  }
  if (mkdir(path.c_str(), 0777) != 0) {
    return fmt::format("cannot create target directory {}: {}", path, describeErrno(errno));
  }
  // Marked, so that `mdbench clean` and later jobs can tell a target an interrupted run left from any other.
  const int fd = open(path.c_str(), kDirFlags);
  const int err = fd < 0 ? errno : writeMark(fd);
  if (fd >= 0) close(fd);
  if (err != 0) {
    const int rmdir_err = rmdir(path.c_str()) == 0 ? 0 : errno;
    return fmt::format(
        "cannot mark target directory {}: {}{}", path, describeErrno(err),
        rmdir_err == 0 ? std::string() : fmt::format("; it stays: {}", describeErrno(rmdir_err)));
  }
  target.created = true;
  return {};
}

// "" or why an existing `path` cannot be a target: a link (with or without a trailing '/') or not a
// directory. A missing one is made later.
std::string targetKindProblem(const std::string& path) {
  struct stat st {};
  if (lstat(withoutTrailingDots(path).c_str(), &st) != 0) return {};
  if (S_ISLNK(st.st_mode)) {
    return fmt::format(
        "target {} is a symbolic link; mdbench never follows links: give the directory it points to", path);
  }
  if (!S_ISDIR(st.st_mode)) return fmt::format("target {} exists and is not a directory", path);
  return {};
}

// Rank 0 only: finds or makes one target directory. Returns "" or a message for the user; nothing it made
// stays behind a failure.
std::string prepareTarget(std::string path, Target& target) {
  if (path.empty()) {
    // A fresh directory in the cwd, named so that concurrent and later runs never collide.
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    path = fmt::format("mdbench.{}.{}", stamp, static_cast<long>(getpid()));
  }
  // "LINK/" and "LINK/." make the kernel follow LINK: the last component is looked at without them.
  path = withoutTrailingDots(path);
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      return fmt::format(
          "target {} is a symbolic link; mdbench never follows links: give the directory it points to", path);
    }
    if (!S_ISDIR(st.st_mode)) return fmt::format("target {} exists and is not a directory", path);
    const int fd = open(path.c_str(), kDirFlags);
    if (fd >= 0) {
      target.marked = hasMark(fd);
      close(fd);
    }
  } else if (errno != ENOENT) {
    return fmt::format("cannot use target {}: {}", path, describeErrno(errno));
  } else if (std::string error = createTarget(path, target); !error.empty()) {
    return error;
  }
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) {
    const int err = errno;
    std::string message =
        fmt::format("cannot resolve target {}: {}{}", path, describeErrno(err), deepHint(err));
    if (target.created) {
      if (const int undo = removeMarkedDir(path); undo != 0) {
        message += fmt::format("; {} stays: {}", path, describeErrno(undo));
      }
    }
    return message;
  }
  target.path = resolved;
  if (lstat(resolved, &st) == 0) {
    target.dev = st.st_dev;
    target.ino = st.st_ino;
  }
  return {};
}

// An absolute path without "." or ".." components or a trailing '/'.
std::string normalPath(const std::filesystem::path& path) {
  std::string text = path.lexically_normal().string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

// The directory an absolute path names with every link in it followed, even a link to what does not exist
// yet (the missing rest is taken as written), so that a target still to be made is compared as the
// directory it would be. Gives the lexical path after 40 links, as the kernel gives up (ELOOP).
std::filesystem::path resolveTarget(const std::filesystem::path& absolute) {
  namespace fs = std::filesystem;
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
    if (ec || ++links > 40) return absolute.lexically_normal();
    if (link.is_absolute()) done = "/";
    std::vector<std::string> parts;
    for (const fs::path& part : link.relative_path()) parts.push_back(part.string());
    todo.insert(todo.end(), parts.rbegin(), parts.rend());
  }
  return done;
}

// The identities (st_dev, st_ino) of PATH, if it exists, and of each directory above it up to "/", found by
// opening ".." from the directory itself: so a bind mount or a second name of a directory shows the same
// inode as the original, whatever the names say. A missing PATH starts at its nearest existing parent.
struct Identity {
  dev_t dev;
  ino_t ino;
  bool operator==(const Identity&) const = default;
};
struct IdentityChain {
  bool exists = false;          // chain.front() is PATH's own
  std::vector<Identity> chain;  // PATH (or its nearest existing parent) first
};

IdentityChain identityChain(const std::filesystem::path& absolute) {
  IdentityChain out;
  std::filesystem::path at = absolute.lexically_normal();
  int fd = -1;
  for (bool first = true;; first = false) {
    fd = open(withoutTrailingDots(at.string()).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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
    const Identity id{st.st_dev, st.st_ino};
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

// Two targets that are one directory, or one inside the other, by inode (bind mounts, hard-linked
// directories on file systems that allow them): "" when none.
std::string sameOrNestedByInode(const std::vector<std::string>& given,
                                const std::vector<std::filesystem::path>& absolute) {
  std::vector<IdentityChain> chains;
  for (const std::filesystem::path& path : absolute) chains.push_back(identityChain(path));
  const auto contains = [](const IdentityChain& c, Identity id) {
    return std::find(c.chain.begin(), c.chain.end(), id) != c.chain.end();
  };
  for (std::size_t i = 0; i < chains.size(); ++i) {
    for (std::size_t j = 0; j < chains.size(); ++j) {
      if (i == j || !chains[i].exists) continue;
      const Identity outer = chains[i].chain.front();
      if (chains[j].exists && chains[j].chain.front() == outer) {
        if (j < i) continue;  // said once, in the order given
        return fmt::format(
            "{}: '{}' and '{}' are the same directory (device {}, inode {}: a bind mount or another name "
            "of it): each target must be its own",
            optionLabel("dir"), given[i], given[j], outer.dev, outer.ino);
      }
      if (contains(chains[j], outer)) {
        return fmt::format(
            "{}: '{}' is inside '{}' (through a bind mount or another name of it): no target may hold "
            "another, their trees would mix",
            optionLabel("dir"), given[j], given[i]);
      }
    }
  }
  return {};
}

}  // namespace

namespace {

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

int removeMarkedDir(const std::string& path) {
  const int fd = open(path.c_str(), kDirFlags);
  return fd < 0 ? errno : removeMarkedAt(fd, path, true);
}

int removeMarkedDir(const Target& target) {
  const int fd = open(target.path.c_str(), kDirFlags);
  if (fd < 0) return errno;
  struct stat st {};
  const bool same =
      target.ino == 0 || (fstat(fd, &st) == 0 && st.st_dev == target.dev && st.st_ino == target.ino);
  return removeMarkedAt(fd, target.path, same);
}

std::string prepareTargetsOnRoot(const Config& config, std::vector<Target>& targets) {
  const std::vector<std::string> paths =
      config.targets.empty() ? std::vector<std::string>{""} : config.targets;
  for (const std::string& path : paths) {
    Target target;
    if (!backendRow(config.api).local_paths) {  // mdtest's DUMMY touches no file system: -d is only a name
      target.path = normalPath(std::filesystem::absolute(path.empty() ? "mdbench.dummy" : path));
      targets.push_back(target);
      continue;
    }
    if (std::string error = prepareTarget(path, target); !error.empty()) {
      for (auto made = targets.rbegin(); made != targets.rend(); ++made) {
        if (!made->created) continue;
        if (const int err = removeMarkedDir(*made); err != 0) {
          error += fmt::format("; {} stays: {}", made->path, describeErrno(err));
        }
      }
      targets.clear();
      return error;
    }
    targets.push_back(target);
  }
  return {};
}

// Duplicate or nested targets: compared as absolute, lexically normal paths and as resolved ones (the links
// in what exists followed), so that X@X/., X@./X, X@X/sub and A@link-to-A are caught whether or not the
// directories exist yet, and by inode (bind mounts).
namespace {
std::string sameOrNested(const Config& config) {
  if (config.targets.size() < 2) return {};
  std::vector<std::string> lexical;
  std::vector<std::string> resolved;
  std::vector<std::filesystem::path> absolutes;
  for (const std::string& t : config.targets) {
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(t, ec);
    if (ec) return {};  // the working directory cannot be named: prepareTarget says so and makes nothing
    lexical.push_back(normalPath(absolute));
    resolved.push_back(normalPath(resolveTarget(absolute)));
    absolutes.push_back(absolute);
  }
  std::string problem = nestedTargets(config.targets, lexical);
  if (problem.empty()) problem = nestedTargets(config.targets, resolved);
  return problem.empty() ? sameOrNestedByInode(config.targets, absolutes) : problem;
}
}  // namespace

namespace {
// --posix.odirect: each target's file system (the nearest directory that exists: a fresh target is made
// there) must take O_DIRECT, and -w and -e must be multiples of its alignment, or every write or read of
// the run would fail (EINVAL).
std::string directIoProblem(const Config& config) {
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
}  // namespace

// Duplicate or nested targets first (the message names both), then each target's kind, then what the
// backend's options need of the file system.
std::string checkTargetsOnRoot(const Config& config) {
  std::string problem = sameOrNested(config);
  // A backend without local paths (-a DUMMY): the targets are names only.
  const bool local = backendRow(config.api).local_paths;
  for (std::size_t i = 0; problem.empty() && local && i < config.targets.size(); ++i) {
    if (std::string kind = targetKindProblem(config.targets[i]); !kind.empty()) {
      problem = fmt::format("{}: {}", optionLabel("dir"), kind);
    }
  }
  if (problem.empty() && local) problem = directIoProblem(config);
  return problem;
}

std::string checkDepthOnRoot(const Config& config, std::uint32_t ranks) {
  if (!backendRow(config.api).local_paths || config.depth == 0 || config.steady_rounds > 0) return {};
  if (config.path_style == PathStyle::kDirfd) {
    // The runner holds the chain of directories from the tree's root down to the one it works in.
    constexpr std::uint64_t kSpareDescriptors = 64;
    struct rlimit limit {};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return {};
    if (config.depth + 1 + kSpareDescriptors <= limit.rlim_cur) return {};
    return fmt::format(
        "{}: {} needs {} open directories per rank in the dirfd path style, beyond the open-file limit "
        "(ulimit -n: {}) less {} for the rest: raise the limit or give a smaller depth",
        optionLabel("depth"), config.depth, config.depth + 1, limit.rlim_cur, kSpareDescriptors);
  }
  // The full style names every item by its whole path: the deepest one (the last directory of the last
  // loop, whose names are the longest, and the last item of the last rank, renamed) must fit in PATH_MAX.
  const TreeLayout layout(config);
  const std::uint32_t owner = ranks == 0 ? 0 : ranks - 1;
  const std::string tree = treeDirPath(layout, config.sharing, owner, layout.dirCount() - 1);
  const std::string item =
      itemName(ItemKind::kFile, owner, config.items == 0 ? 0 : config.items - 1, NameForm::kRenamed);
  std::size_t target = 0;
  for (const std::string& t : config.targets) {
    std::error_code ec;
    target = std::max(target, normalPath(std::filesystem::absolute(t, ec)).size());
  }
  if (config.targets.empty()) {
    std::error_code ec;
    target = std::filesystem::current_path(ec).string().size() + 40;  // mdbench.<stamp>.<pid>
  }
  const std::size_t longest =
      target + 1 + iterationDirName(config.iterations - 1).size() + 1 + tree.size() + 1 + item.size();
  if (longest < PATH_MAX) return {};
  return fmt::format(
      "{}: {} makes paths of up to {} bytes in the full path style, more than PATH_MAX ({}): the calls "
      "below that would fail (ENAMETOOLONG); give a smaller depth, a shorter {}, or --path-style dirfd",
      optionLabel("depth"), config.depth, longest, PATH_MAX, optionLabel("dir"));
}

std::string joinPaths(const std::vector<Target>& targets, char separator) {
  std::string joined;
  for (const Target& t : targets) {
    if (!joined.empty()) joined.push_back(separator);
    for (const char c : t.path) {
      if (c == '@' && separator == '@') joined.push_back('\\');  // as -d takes it: "\@" is in the name
      joined.push_back(c);
    }
  }
  return joined;
}

}  // namespace mdbench
