// The directories a run works in: checked, made and removed on rank 0.
#include "targets.hpp"

#include <fmt/format.h>
#include <limits.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string_view>
#include <utility>

#include "mdbench/config/backends.hpp"
#include "mdbench/config/option_docs.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/file_io.hpp"

namespace mdbench {

namespace {

// "" or a hint for an errno that says the working directory is too deep to be named.
std::string_view deepHint(int err) {
  return err == ENAMETOOLONG ? " (is the working directory deeper than PATH_MAX? give -d an absolute path)"
                             : "";
}

// Rank 0 only: makes and marks the missing target `path`; on any failure removes what it made and returns
// the message. Its parent is resolved first, so that a path that cannot be named makes nothing.
std::string createTarget(Storage& storage, const std::string& path, Target& target) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  std::string resolved;
  if (const int err = storage.resolve(parent.empty() ? "." : parent, resolved); err != 0) {
    if (err == ENOENT || err == ENOTDIR) {  // what mkdir would say: the parent is missing
      return fmt::format("cannot create target directory {}: {}", path, describeErrno(err));
    }
    return fmt::format("cannot resolve target {}: {}{}", path, describeErrno(err), deepHint(err));
  }
  if (const int err = storage.makeDir(path); err != 0) {
    return fmt::format("cannot create target directory {}: {}", path, describeErrno(err));
  }
  // Marked, so that `mdbench clean` and later jobs can tell a target an interrupted run left from any other.
  if (const int err = storage.writeMark(path); err != 0) {
    const int rmdir_err = storage.removeDir(path);
    return fmt::format(
        "cannot mark target directory {}: {}{}", path, describeErrno(err),
        rmdir_err == 0 ? std::string() : fmt::format("; it stays: {}", describeErrno(rmdir_err)));
  }
  target.created = true;
  return {};
}

// "" or why an existing `path` of kind `kind` cannot be a target: a link (with or without a trailing '/')
// or not a directory. A missing one is made later.
std::string kindProblem(const std::string& path, StorageKind kind) {
  if (kind == StorageKind::kLink) {
    return fmt::format(
        "target {} is a symbolic link; mdbench never follows links: give the directory it points to", path);
  }
  if (kind == StorageKind::kOther) return fmt::format("target {} exists and is not a directory", path);
  return {};
}

std::string targetKindProblem(Storage& storage, const std::string& path) {
  StorageKind kind = StorageKind::kMissing;
  if (storage.kindOf(withoutTrailingDots(path), kind) != 0) return {};
  return kindProblem(path, kind);
}

// Rank 0 only: finds or makes one target directory. Returns "" or a message for the user; nothing it made
// stays behind a failure.
std::string prepareTarget(Storage& storage, std::string path, Target& target) {
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
  StorageKind kind = StorageKind::kMissing;
  if (const int err = storage.kindOf(path, kind); err != 0) {
    return fmt::format("cannot use target {}: {}", path, describeErrno(err));
  }
  if (kind != StorageKind::kMissing) {
    if (std::string problem = kindProblem(path, kind); !problem.empty()) return problem;
    target.marked = storage.readMark(path) == MarkKind::kOurs;
  } else if (std::string error = createTarget(storage, path, target); !error.empty()) {
    return error;
  }
  std::string resolved;
  if (const int err = storage.resolve(path, resolved); err != 0) {
    std::string message =
        fmt::format("cannot resolve target {}: {}{}", path, describeErrno(err), deepHint(err));
    if (target.created) {
      if (const int undo = storage.removeMarkedDir(path, nullptr); undo != 0) {
        message += fmt::format("; {} stays: {}", path, describeErrno(undo));
      }
    }
    return message;
  }
  target.path = resolved;
  (void)storage.identify(resolved, target.id);
  return {};
}

// An absolute path without "." or ".." components or a trailing '/'.
std::string normalPath(const std::filesystem::path& path) {
  std::string text = path.lexically_normal().string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

// Two targets that are one directory, or one inside the other, by inode (bind mounts, hard-linked
// directories on file systems that allow them): "" when none.
std::string sameOrNestedByInode(Storage& storage, const std::vector<std::string>& given,
                                const std::vector<std::filesystem::path>& absolute) {
  std::vector<StorageIdChain> chains;
  for (const std::filesystem::path& path : absolute) chains.push_back(storage.identityChain(path.string()));
  const auto contains = [](const StorageIdChain& c, StorageId id) {
    return std::find(c.chain.begin(), c.chain.end(), id) != c.chain.end();
  };
  for (std::size_t i = 0; i < chains.size(); ++i) {
    for (std::size_t j = 0; j < chains.size(); ++j) {
      if (i == j || !chains[i].exists) continue;
      const StorageId outer = chains[i].chain.front();
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

int removeTarget(Storage& storage, const Target& target) {
  return storage.removeMarkedDir(target.path, &target.id);
}

std::string prepareTargetsOnRoot(const Config& config, Storage& storage, std::vector<Target>& targets) {
  const std::vector<std::string> paths =
      config.targets.empty() ? std::vector<std::string>{""} : config.targets;
  for (const std::string& path : paths) {
    Target target;
    if (!backendRow(config.api).local_paths) {  // mdtest's DUMMY touches no file system: -d is only a name
      target.path = normalPath(std::filesystem::absolute(path.empty() ? "mdbench.dummy" : path));
      targets.push_back(target);
      continue;
    }
    if (std::string error = prepareTarget(storage, path, target); !error.empty()) {
      for (auto made = targets.rbegin(); made != targets.rend(); ++made) {
        if (!made->created) continue;
        if (const int err = removeTarget(storage, *made); err != 0) {
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
std::string sameOrNested(const Config& config, Storage& storage) {
  if (config.targets.size() < 2) return {};
  std::vector<std::string> lexical;
  std::vector<std::string> resolved;
  std::vector<std::filesystem::path> absolutes;
  for (const std::string& t : config.targets) {
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(t, ec);
    if (ec) return {};  // the working directory cannot be named: prepareTarget says so and makes nothing
    lexical.push_back(normalPath(absolute));
    resolved.push_back(normalPath(storage.resolveLinks(absolute.string())));
    absolutes.push_back(absolute);
  }
  std::string problem = nestedTargets(config.targets, lexical);
  if (problem.empty()) problem = nestedTargets(config.targets, resolved);
  return problem.empty() ? sameOrNestedByInode(storage, config.targets, absolutes) : problem;
}
}  // namespace

// Duplicate or nested targets first (the message names both), then each target's kind, then what the
// backend's options need of the file system.
std::string checkTargetsOnRoot(const Config& config, Storage& storage) {
  // A storage that cannot be reached (-a CEPHFS: a client that cannot mount) says why first.
  if (std::string reach = storage.reachProblem(); !reach.empty()) return reach;
  std::string problem = sameOrNested(config, storage);
  // A backend without local paths (-a DUMMY): the targets are names only.
  const bool local = backendRow(config.api).local_paths;
  for (std::size_t i = 0; problem.empty() && local && i < config.targets.size(); ++i) {
    if (std::string kind = targetKindProblem(storage, config.targets[i]); !kind.empty()) {
      problem = fmt::format("{}: {}", optionLabel("dir"), kind);
    }
  }
  if (problem.empty() && local) problem = storage.optionProblem(config);
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
