// The one cleanup walk (backend.hpp removeGenerated): what mdbench generated below a directory is removed
// through the backend's walk calls (listNames, lookUp, walkInto, identify, removeName), so every backend
// that has them shares it. A name is removed only when mdbench generates it and the entry has the type
// mdbench gives it; a link planted anywhere below is reported, never followed.
#include <fmt/format.h>

#include <cerrno>
#include <utility>

#include "mdbench/backend/backend.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/util/errno_name.hpp"

namespace mdbench {
namespace {

std::string_view typeOf(EntryKind kind) {
  switch (kind) {
    case EntryKind::kLink:
      return "a symbolic link";
    case EntryKind::kDir:
      return "a directory";
    case EntryKind::kFile:
      return "a file";
    case EntryKind::kOther:
      break;
  }
  return "a special file";
}

// What the walk does with one entry.
enum class Verdict : std::uint8_t { kRemoveFile, kDescend, kKeep };

// The name-acceptance predicate: only a name mdbench generates, of the type it gives that name, and, with an
// ownership record (CleanOptions::leave), only where the record says the run made it, under that name, is
// removed; `why` says why anything else stays. The type is judged first (its message says what is there);
// `relative()` gives the entry's path below the iteration directory, built only when a record asks for it.
template <typename RelativePath>
Verdict judgeEntry(const std::string& name, EntryKind type, const CleanOptions& options,
                   const RelativePath& relative, std::string& why) {
  const GeneratedName kind = classifyName(name);
  const bool file = kind == GeneratedName::kGeneratedFile && type == EntryKind::kFile;
  const bool dir = kind == GeneratedName::kGeneratedDir && type == EntryKind::kDir;
  if (file || dir) {
    if (options.leave != nullptr) {
      if (const std::string_view reason = options.leave->notOursBecause(relative()); !reason.empty()) {
        why = std::string(reason);
        return Verdict::kKeep;
      }
    }
    return file ? Verdict::kRemoveFile : Verdict::kDescend;
  }
  why = kind == GeneratedName::kForeign
            ? fmt::format("{} mdbench did not make; left alone", typeOf(type))
            : fmt::format("{} with a name mdbench gives to {}; left alone", typeOf(type),
                          kind == GeneratedName::kGeneratedDir ? "directories" : "files");
  return Verdict::kKeep;
}

// Directories below the top kept open at once: deeper ones are closed and their parent reopened through
// ".." on the way back up, so a tree deeper than RLIMIT_NOFILE is walked all the same.
constexpr std::size_t kOpenFrames = 16;

// The depth-first walk that empties a directory of what mdbench generated, iterative so that a tree as deep
// as -z allows costs no call stack: memory is one frame (name, identity, pending names) per level, the
// display path is built only for a note, and at most kOpenFrames handles are open. A directory is entered
// by walkInto (never through a link) and must be the very directory lookUp judged; a parent reopened
// through ".." must be the one it was when entered, else the walk stops where it is (the tree was moved
// meanwhile), so nothing outside the tree is ever reached.
class TreeWalk {
 public:
  TreeWalk(Backend& backend, DirHandle top, const std::string& display, const CleanOptions& options,
           CleanTally& tally)
      : backend_(backend), top_(top), display_(display), options_(options), tally_(tally) {}
  ~TreeWalk() {
    while (!frames_.empty()) popFrame();
  }
  TreeWalk(const TreeWalk&) = delete;
  TreeWalk& operator=(const TreeWalk&) = delete;

  void run(std::vector<std::string> top_names) {
    Frame top;
    top.names = std::move(top_names);
    frames_.push_back(std::move(top));
    while (!frames_.empty()) {
      Frame& frame = frames_.back();
      if (frame.next < frame.names.size()) {
        const std::string name = std::move(frame.names[frame.next++]);
        if (!skippedAtTop(name)) visit(name);
      } else {
        leave();
      }
    }
  }

 private:
  struct Frame {
    std::string name;  // in its parent; "" for the top
    StorageId id;
    DirHandle dir;  // closed (invalid) for a frame more than kOpenFrames above the deepest
    std::vector<std::string> names;
    std::size_t next = 0;
    std::uint64_t kept_before = 0;
  };

  DirHandle handleOf(const Frame& frame) const { return &frame == &frames_.front() ? top_ : frame.dir; }
  void closeHandle(Frame& frame) {
    if (&frame != &frames_.front() && frame.dir.valid()) (void)backend_.closeDir(frame.dir);
    frame.dir = DirHandle{};
  }
  void popFrame() {
    closeHandle(frames_.back());
    frames_.pop_back();
  }

  bool skippedAtTop(const std::string& name) const {
    if (frames_.size() != 1) return false;
    // The caller removes the mark and the ownership record last.
    if (name == kMarkName || name == kTakenName || name == kTakenTempName) return true;
    return options_.parts > 1 && cleanPartOf(name, options_.parts) != options_.part;
  }

  // The display path of `name` in the deepest frame, built only when a note will hold it.
  std::string pathOf(const std::string& name) const {
    if (tally_.notes.size() >= kMaxCleanNotes) return {};
    std::string path = display_;
    for (std::size_t i = 1; i < frames_.size(); ++i) path.append("/").append(frames_[i].name);
    if (!name.empty()) path.append("/").append(name);
    return path;
  }
  void keep(const std::string& name, std::string_view why) { tally_.keep(pathOf(name), why); }
  // The path of `name` in the deepest frame below the top ("mdbench_tree.0/file.mdbench.1.7"), for the
  // ownership record: one name per level, so a deep tree costs its depth per entry, never kept.
  std::string relativeOf(const std::string& name) const {
    std::string path;
    for (std::size_t i = 1; i < frames_.size(); ++i) path.append(frames_[i].name).append("/");
    return path.append(name);
  }

  void visit(const std::string& name) {
    const DirHandle dir = handleOf(frames_.back());
    EntryInfo info;
    if (const int err = backend_.lookUp(dir, name.c_str(), info); err != 0) {
      if (err != ENOENT) keep(name, describeErrno(err));  // ENOENT: gone meanwhile
      return;
    }
    std::string why;
    switch (judgeEntry(
        name, info.kind, options_, [&] { return relativeOf(name); }, why)) {
      case Verdict::kKeep:
        keep(name, why);
        return;
      case Verdict::kRemoveFile:
        if (options_.dry_run) {
          ++tally_.files;
        } else if (const int err = backend_.removeName(dir, name.c_str(), EntryType::kFile); err == 0) {
          ++tally_.files;
        } else if (err != ENOENT) {
          keep(name, describeErrno(err));
        }
        return;
      case Verdict::kDescend:
        enter(dir, name, info.id);
        return;
    }
  }

  void enter(DirHandle dir, const std::string& name, const StorageId& judged) {
    Frame frame;
    if (const int err = backend_.walkInto(dir, name.c_str(), frame.dir); err != 0) {
      keep(name, describeErrno(err));
      return;
    }
    std::string why;
    if (const int err = backend_.identify(frame.dir, frame.id); err != 0) {
      why = describeErrno(err);
    } else if (frame.id != judged) {
      why = "replaced by another directory while it was being cleaned; left alone";
    } else if (const int list_err = backend_.listNames(frame.dir, frame.names); list_err != 0) {
      why = fmt::format("cannot list it: {}", describeErrno(list_err));
    }
    if (!why.empty()) {
      (void)backend_.closeDir(frame.dir);
      keep(name, why);
      return;
    }
    frame.name = name;
    frame.kept_before = tally_.kept;
    frames_.push_back(std::move(frame));
    // frames_[0] is the caller's handle; close the one that just left the open window.
    if (frames_.size() > kOpenFrames + 1) closeHandle(frames_[frames_.size() - kOpenFrames - 1]);
  }

  // Leaves the deepest frame, every entry handled: reopens its parent if needed, then removes the directory
  // from it when nothing was kept below.
  void leave() {
    if (frames_.size() == 1) {
      frames_.pop_back();
      return;
    }
    Frame& child = frames_.back();
    Frame& parent = frames_[frames_.size() - 2];
    if (&parent != &frames_.front() && !parent.dir.valid() && !reopenParent(child, parent)) {
      while (!frames_.empty()) popFrame();  // the tree moved: stop, touching nothing more
      return;
    }
    const bool clean_below = tally_.kept == child.kept_before;
    const std::string name = std::move(child.name);
    popFrame();
    const DirHandle parent_dir = handleOf(frames_.back());
    if (options_.dry_run) {
      if (clean_below) ++tally_.dirs;  // it would be empty
    } else if (const int err = backend_.removeName(parent_dir, name.c_str(), EntryType::kDir); err == 0) {
      ++tally_.dirs;
    } else if (clean_below) {
      keep(name, describeErrno(err));  // not because of something reported below
    }
  }

  bool reopenParent(const Frame& child, Frame& parent) {
    DirHandle up;
    StorageId id;
    int err = backend_.walkInto(child.dir, "..", up);
    if (err == 0) err = backend_.identify(up, id);
    if (err != 0) {
      if (up.valid()) (void)backend_.closeDir(up);
      keep("", fmt::format("cannot reopen its parent: {}; the walk stops here", describeErrno(err)));
      return false;
    }
    if (id != parent.id) {
      (void)backend_.closeDir(up);
      keep("", "moved to another directory while it was being cleaned; the walk stops here");
      return false;
    }
    parent.dir = up;
    return true;
  }

  Backend& backend_;
  DirHandle top_;
  const std::string& display_;
  const CleanOptions& options_;
  CleanTally& tally_;
  std::vector<Frame> frames_;
};

}  // namespace

int removeGeneratedWalk(Backend& backend, DirHandle top, const std::string& display,
                        const CleanOptions& options, CleanTally& tally) {
  std::vector<std::string> names;
  if (const int err = backend.listNames(top, names); err != 0) return err;
  TreeWalk(backend, top, display, options, tally).run(std::move(names));
  return 0;
}

int Backend::removeGenerated(DirHandle dir, const CleanOptions& options, CleanTally& tally) {
  return removeGeneratedWalk(*this, dir, ".", options, tally);
}

int Backend::listNames(DirHandle /*dir*/, std::vector<std::string>& /*names*/) { return ENOTSUP; }
int Backend::lookUp(DirHandle /*dir*/, const char* /*name*/, EntryInfo& /*info*/) { return ENOTSUP; }
int Backend::identify(DirHandle /*dir*/, StorageId& /*id*/) { return ENOTSUP; }
int Backend::walkInto(DirHandle /*dir*/, const char* /*name*/, DirHandle& /*out*/) { return ENOTSUP; }
int Backend::removeName(DirHandle /*dir*/, const char* /*name*/, EntryType /*type*/) { return ENOTSUP; }

}  // namespace mdbench
