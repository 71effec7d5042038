// `mdbench clean DIR` through any backend (Storage::clean's default): the marked directories found at DIR,
// emptied by the one cleanup walk (tree_walk.cpp) and removed with their marks, all by the backend's own
// calls (walkInto, readMark, readFile, identify, listNames, removeName), so POSIX, -a CEPHFS and -a LIBNFS
// keep the same rules: only directories carrying mdbench's mark are entered, only what an iteration
// directory's record says the run made is removed, links are never followed, anything else stays and is
// listed. While it runs the backend names every entry by an open directory (OwnFilesScope), never by a
// path built from names.
#include <fmt/format.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <vector>

#include "mdbench/backend/backend.hpp"
#include "mdbench/backend/cleanup.hpp"
#include "mdbench/backend/storage.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/file_io.hpp"

namespace mdbench {
namespace {

// An open directory of `backend`, closed at the end of the scope.
class OpenDir {
 public:
  OpenDir(Backend& backend, DirHandle dir) : backend_(backend), dir_(dir) {}
  ~OpenDir() { (void)backend_.closeDir(dir_); }
  OpenDir(const OpenDir&) = delete;
  OpenDir& operator=(const OpenDir&) = delete;
  DirHandle get() const { return dir_; }

 private:
  Backend& backend_;
  DirHandle dir_;
};

// The run's own file `name` in `dir` (its mark, the record), removed only when it is a regular file: no
// backend's unlink is trusted to refuse another type (NFSv4's removes a directory too).
void removeOwnFile(Backend& backend, DirHandle dir, std::string_view name) {
  const std::string entry(name);
  EntryInfo info;
  if (backend.lookUp(dir, entry.c_str(), info) == 0 && info.kind == EntryKind::kFile) {
    (void)backend.removeName(dir, entry.c_str(), EntryType::kFile);
  }
}

// The ownership record of the iteration directory `dir` (ownership.hpp): "" with `fates` filled (without a
// layout when there is none: then only the steady state's names, which keep no record, are the run's), or
// why it cannot be used (damaged, truncated, edited, copied from another directory, of another version).
std::string readOwnership(Backend& backend, DirHandle dir, ItemFates& fates) {
  std::string text;
  if (const int err = readTakenRecord(backend, dir, text); err != 0) {
    return err == ENOENT ? std::string() : describeErrno(err);
  }
  std::string why = ItemFates::parseRecord(text, fates);
  StorageId id;
  if (why.empty()) {
    const int err = backend.identify(dir, id);
    if (err != 0 && err != ENOTSUP) why = describeErrno(err);
  }
  if (why.empty()) why = fates.dirMismatch(id.ino);
  if (!why.empty()) fates.clear();
  return why;
}

void logDir(const std::string& path, const CleanTally& tally, bool dry_run, bool removed,
            std::vector<std::string>& log) {
  const std::string counts = fmt::format("{} files, {} directories", tally.files, tally.dirs);
  if (dry_run) {
    log.push_back(tally.kept == 0 ? fmt::format("would remove {} ({})", path, counts)
                                  : fmt::format("would keep {}: would remove {}, {} entries left", path,
                                                counts, tally.kept));
  } else {
    log.push_back(removed ? fmt::format("removed {} ({})", path, counts)
                          : fmt::format("kept {}: removed {}, {} entries left", path, counts, tally.kept));
  }
}

// A marked directory `name` in `parent`: an iteration directory (emptied of what its record says the run
// made) or a target mdbench created (holding iteration directories). Removed with its mark when nothing
// else is left. Returns whether it is gone (a dry run: whether it would be), so that a target keeps an
// iteration directory that stays, in a dry run as in a real one.
bool cleanMarked(Backend& backend, DirHandle parent, const std::string& name, const std::string& path,
                 bool dry_run, CleanSummary& summary, std::vector<std::string>& log) {
  DirHandle handle;
  if (backend.walkInto(parent, name.c_str(), handle) != 0) return false;  // not a directory, or a link
  const OpenDir dir(backend, handle);
  if (const MarkKind kind = backend.readMark(dir.get()); kind != MarkKind::kOurs) {
    if (isIterationDirName(name) || name.starts_with("mdbench.")) {
      log.push_back(kind == MarkKind::kNone
                        ? fmt::format("left {}: it has no mark, so mdbench did not make it", path)
                        : "left " + markRefusal(path, kind));
    }
    return false;
  }
  ++summary.run_dirs;
  CleanTally tally;
  if (isIterationDirName(name)) {
    ItemFates fates;
    if (const std::string why = readOwnership(backend, dir.get(), fates); !why.empty()) {
      tally.keep(path, fmt::format("its ownership record {} cannot be used ({}): nothing in it is removed",
                                   kTakenName, why));
    } else {
      const CleanOptions options{.dry_run = dry_run, .leave = &fates};
      if (const int err = removeGeneratedWalk(backend, dir.get(), path, options, tally); err != 0) {
        tally.keep(path, fmt::format("cannot list it: {}", describeErrno(err)));
      }
    }
  } else {
    std::vector<std::string> names;
    if (const int err = backend.listNames(dir.get(), names); err != 0) {
      tally.keep(path, fmt::format("cannot list it: {}", describeErrno(err)));
    }
    for (const std::string& child : names) {
      if (child == kMarkName) continue;
      const std::uint64_t before = summary.run_dirs;
      const bool gone = isIterationDirName(child) &&
                        cleanMarked(backend, dir.get(), child, path + "/" + child, dry_run, summary, log);
      if (summary.run_dirs == before) {
        tally.keep(path + "/" + child, "not made by mdbench; left alone");
      } else if (!gone) {
        ++tally.kept;  // an iteration directory that stays: its own line says why
      }
    }
  }
  bool removed = false;
  if (tally.kept == 0 && !dry_run) {
    for (const std::string_view own : {kTakenName, kTakenTempName, kMarkName}) {
      removeOwnFile(backend, dir.get(), own);
    }
    const int err = backend.removeName(parent, name.c_str(), EntryType::kDir);
    removed = err == 0;
    if (!removed) {
      // Something appeared meanwhile: the directory stays, and so does its mark (the same bytes: the text
      // depends only on the directory's inode).
      (void)backend.writeMark(dir.get());
      tally.keep(path, describeErrno(err));
    }
  }
  if (removed) ++summary.removed_run_dirs;
  logDir(path, tally, dry_run, removed, log);
  summary.tally += tally;
  return dry_run ? tally.kept == 0 : removed;
}

std::unique_ptr<Backend> openAt(Storage& storage, const std::string& path, CleanSummary& summary) {
  int err = 0;
  std::unique_ptr<Backend> backend = storage.open(path, 0, err);
  if (!backend) {
    const std::string problem = storage.lastProblem();
    summary.error = problem.empty() ? fmt::format("cannot open {}: {}", path, describeErrno(err))
                                    : fmt::format("cannot open {}: {}", path, problem);
  }
  return backend;
}

}  // namespace

int readTakenRecord(Backend& backend, DirHandle dir, std::string& text) {
  const OwnFilesScope own(backend);
  const std::string record(kTakenName);
  std::string header(kTakenHeaderBytes, '\0');
  int err = backend.readFile(dir, record.c_str(), std::as_writable_bytes(std::span(header)));
  if (err != 0) return err == ENODATA ? EBADMSG : err;
  const std::size_t length = ItemFates::recordLength(header);
  if (length == 0) return EBADMSG;
  text.assign(length, '\0');
  err = backend.readFile(dir, record.c_str(), std::as_writable_bytes(std::span(text)));
  return err == ENODATA ? EBADMSG : err;
}

CleanSummary Storage::clean(const std::string& dir, bool dry_run, std::vector<std::string>& log) {
  CleanSummary summary;
  // A storage that cannot be reached at all (a client that cannot mount) is the user's to fix: exit 2.
  if (std::string problem = reachProblem(); !problem.empty()) {
    summary.error = fmt::format("{}: {}", dir, problem);
    summary.usage = true;
    return summary;
  }
  // "LINK/" and "LINK/." would make a POSIX lookup follow LINK: its last component is looked at without
  // them (and the backend opens it without following: O_NOFOLLOW, a type check).
  const std::string last = withoutTrailingDots(dir);
  StorageKind kind = StorageKind::kMissing;
  int err = kindOf(last, kind);
  if (err == 0 && kind == StorageKind::kMissing) err = ENOENT;
  if (err != 0) {
    const std::string problem = lastProblem();
    summary.error = fmt::format("{}: {}", dir, problem.empty() ? describeErrno(err) : problem);
    summary.usage = err == ENOENT || err == ENOTDIR;
    return summary;
  }
  if (kind == StorageKind::kLink) {
    summary.error =
        fmt::format("{} is a symbolic link; mdbench never follows links: give the directory", dir);
    summary.usage = true;
    return summary;
  }
  if (kind != StorageKind::kDirectory) {
    summary.error = fmt::format("{} is not a directory", dir);
    summary.usage = true;
    return summary;
  }
  const std::unique_ptr<Backend> self = openAt(*this, last, summary);
  if (!self) return summary;
  const OwnFilesScope own_self(*self);
  const MarkKind mark = self->readMark(self->root());
  if (mark == MarkKind::kOld || mark == MarkKind::kForeign) {
    summary.error = markRefusal(dir, mark);
    return summary;
  }
  // DIR itself may be a marked directory: then it is cleaned from its parent.
  std::filesystem::path path = std::filesystem::path(dir).lexically_normal();
  if (path.filename().empty() && path.has_parent_path()) path = path.parent_path();  // "a/b/" is "a/b"
  const std::string name = path.filename().string();
  if (mark == MarkKind::kOurs && !name.empty() && name != "." && name != "..") {
    const std::string parent_path = path.has_parent_path() ? path.parent_path().string() : ".";
    const std::unique_ptr<Backend> parent = openAt(*this, parent_path, summary);
    if (!parent) return summary;
    const OwnFilesScope own_parent(*parent);
    cleanMarked(*parent, parent->root(), name, dir, dry_run, summary, log);
    return summary;
  }
  std::vector<std::string> names;
  if (const int list_err = self->listNames(self->root(), names); list_err != 0) {
    summary.error = fmt::format("cannot list {}: {}", dir, describeErrno(list_err));
    return summary;
  }
  for (const std::string& child : names) {
    cleanMarked(*self, self->root(), child, pathIn(last, child), dry_run, summary, log);  // "DIR//x" never
  }
  return summary;
}

}  // namespace mdbench
