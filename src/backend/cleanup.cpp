// Removing what mdbench made and nothing else (cleanup.hpp): the marks, `mdbench clean`'s POSIX side (the
// marked directories found and removed) around the one walk of tree_walk.cpp. Every call is relative to an
// open directory with AT_SYMLINK_NOFOLLOW / O_NOFOLLOW, so a link planted anywhere below is reported, never
// followed; a name is removed only when mdbench generates it and the entry has the type mdbench gives it.
#include "mdbench/backend/cleanup.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "mdbench/backend/posix_backend.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/file_io.hpp"
#include "posix_calls.hpp"

namespace mdbench {
namespace {

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

int lastError() { return errno != 0 ? errno : EIO; }

// An owned descriptor.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

int listNames(int dir_fd, std::vector<std::string>& names) { return posix::listNames(dir_fd, names); }

// Empties dir_fd of what mdbench generated (the one walk, tree_walk.cpp, through a POSIX backend on a
// duplicate of dir_fd); the mark and the ownership record there are the caller's.
int removeBelow(int dir_fd, const std::string& display, const CleanOptions& options, CleanTally& tally) {
  int err = 0;
  const std::unique_ptr<PosixBackend> backend = PosixBackend::adopt(dir_fd, err);
  if (backend) err = removeGeneratedWalk(*backend, backend->root(), display, options, tally);
  return err;
}

// The ownership record of the iteration directory dir_fd (ownership.hpp): "" with `fates` filled (without a
// layout when there is none: then only the steady state's names, which keep no record, are the run's), or
// why it cannot be used (damaged, truncated, edited, of another version).
std::string readOwnership(int dir_fd, ItemFates& fates) {
  const Fd fd(
      ::openat(dir_fd, std::string(kTakenName).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) return errno == ENOENT ? std::string() : describeErrno(lastError());
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return describeErrno(lastError());
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  if (static_cast<std::uint64_t>(st.st_size) > kMaxTakenRecordBytes) return "too large";
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd.get(), text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n == 0 ? "shorter than it was" : describeErrno(lastError());
    got += static_cast<std::size_t>(n);
  }
  std::string why = ItemFates::parseRecord(text, fates);
  struct stat dir_st {};
  if (why.empty() && ::fstat(dir_fd, &dir_st) != 0) why = describeErrno(lastError());
  if (why.empty()) why = fates.dirMismatch(static_cast<std::uint64_t>(dir_st.st_ino));
  if (!why.empty()) fates.clear();
  return why;
}

// A marked directory below parent_fd: an iteration directory (emptied of generated names) or a target
// mdbench created (holding iteration directories). Removed with its mark when nothing else is left.
void cleanMarked(int parent_fd, const std::string& name, const std::string& path, bool dry_run,
                 CleanSummary& summary, std::vector<std::string>& log) {
  const Fd dir(::openat(parent_fd, name.c_str(), kDirFlags));
  if (!dir.valid()) return;
  if (const MarkKind kind = readMark(dir.get()); kind != MarkKind::kOurs) {
    if (isIterationDirName(name) || name.starts_with("mdbench.")) {
      log.push_back(kind == MarkKind::kNone
                        ? fmt::format("left {}: it has no mark, so mdbench did not make it", path)
                        : "left " + markRefusal(path, kind));
    }
    return;
  }
  ++summary.run_dirs;
  CleanTally tally;
  const CleanOptions options{dry_run, 0, 1};
  ItemFates fates;
  if (isIterationDirName(name)) {
    if (const std::string why = readOwnership(dir.get(), fates); !why.empty()) {
      tally.keep(path, fmt::format("its ownership record {} cannot be used ({}): nothing in it is removed",
                                   kTakenName, why));
    } else {
      CleanOptions with_record = options;
      with_record.leave = &fates;
      if (const int err = removeBelow(dir.get(), path, with_record, tally); err != 0) {
        tally.keep(path, fmt::format("cannot list it: {}", describeErrno(err)));
      }
    }
  } else {
    std::vector<std::string> names;
    if (const int err = listNames(dir.get(), names); err != 0) {
      tally.keep(path, fmt::format("cannot list it: {}", describeErrno(err)));
    }
    for (const std::string& child : names) {
      if (child == kMarkName) continue;
      const std::uint64_t before = summary.run_dirs;
      if (isIterationDirName(child)) cleanMarked(dir.get(), child, path + "/" + child, dry_run, summary, log);
      if (summary.run_dirs == before) tally.keep(path + "/" + child, "not made by mdbench; left alone");
    }
  }
  const std::string counts = fmt::format("{} files, {} directories", tally.files, tally.dirs);
  bool removed = false;
  if (tally.kept == 0 && !dry_run) {
    ::unlinkat(dir.get(), std::string(kTakenName).c_str(), 0);
    ::unlinkat(dir.get(), std::string(kTakenTempName).c_str(), 0);
    ::unlinkat(dir.get(), std::string(kMarkName).c_str(), 0);
    removed = ::unlinkat(parent_fd, name.c_str(), AT_REMOVEDIR) == 0;
    if (!removed) {
      // Something appeared meanwhile: the directory stays, and so does its mark.
      const int err = lastError();
      (void)writeMark(dir.get());  // the same bytes: the text depends only on the inode
      tally.keep(path, describeErrno(err));
    }
  }
  if (removed) ++summary.removed_run_dirs;
  if (dry_run) {
    log.push_back(tally.kept == 0
                      ? fmt::format("would remove {} ({})", path, counts)
                      : fmt::format("would empty {} of {}, keeping {} entries mdbench did not make", path,
                                    counts, tally.kept));
  } else {
    log.push_back(removed ? fmt::format("removed {} ({})", path, counts)
                          : fmt::format("kept {}: removed {}, {} entries left", path, counts, tally.kept));
  }
  summary.tally += tally;
}

}  // namespace

void CleanTally::keep(const std::string& path, std::string_view why) {
  ++kept;
  if (notes.size() < kMaxCleanNotes) notes.push_back(fmt::format("{}: {}", path, why));
}

CleanTally& CleanTally::operator+=(const CleanTally& other) {
  files += other.files;
  dirs += other.dirs;
  kept += other.kept;
  for (const std::string& note : other.notes) {
    if (notes.size() < kMaxCleanNotes) notes.push_back(note);
  }
  return *this;
}

std::uint32_t cleanPartOf(std::string_view name, std::uint32_t parts) {
  // FNV-1a: the same on every rank and build, unlike std::hash.
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return parts == 0 ? 0 : static_cast<std::uint32_t>(hash % parts);
}

int removeGeneratedBelow(int dir_fd, const std::string& display, const CleanOptions& options,
                         CleanTally& tally) {
  return removeBelow(dir_fd, display, options, tally);
}

std::string markText(std::uint64_t dir_inode) {
  return fmt::format("{}inode {:020}\n", kMarkHeader, dir_inode);
}

MarkKind classifyMark(std::string_view content, std::uint64_t dir_inode) {
  if (content.starts_with(markText(dir_inode))) return MarkKind::kOurs;
  // The header with another inode is a copy; "mdbench ..." without the header is what mdbench up to 0.2
  // wrote (target, run and clean marks alike).
  if (!content.starts_with(kMarkHeader) && content.starts_with("mdbench ")) return MarkKind::kOld;
  return MarkKind::kForeign;
}

std::string markRefusal(const std::string& path, MarkKind kind) {
  switch (kind) {
    case MarkKind::kOurs:
      return {};
    case MarkKind::kNone:
      return fmt::format("{} has no {} mark: mdbench did not make it, so it is never used or removed", path,
                         kMarkName);
    case MarkKind::kOld:
      return fmt::format(
          "{} carries the mark of an older mdbench, which does not prove who wrote it: it is never used or "
          "removed; check what is in it and remove it by hand (rm -r {})",
          path, path);
    case MarkKind::kForeign:
      break;
  }
  return fmt::format(
      "{}'s {} is not a mark mdbench wrote for this directory (empty, written by hand, copied from "
      "another directory, or not a regular file): it is never used or removed",
      path, kMarkName);
}

int writeMark(int dir_fd) {
  struct stat dir_st {};
  if (::fstat(dir_fd, &dir_st) != 0) return lastError();
  const std::string text = markText(static_cast<std::uint64_t>(dir_st.st_ino));
  const std::string name(kMarkName);
  const int fd = ::openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return lastError();
  int err = 0;
  if (::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) err = lastError();
  if (::close(fd) != 0 && err == 0) err = lastError();
  // O_EXCL made the file: a half-written one is ours to take back, so no torn mark is left.
  if (err != 0) ::unlinkat(dir_fd, name.c_str(), 0);
  return err;
}

MarkKind readMark(int dir_fd) {
  // O_NONBLOCK: a FIFO planted under the name must not hang the run; fstat then refuses it.
  const Fd fd(
      ::openat(dir_fd, std::string(kMarkName).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) return errno == ENOENT ? MarkKind::kNone : MarkKind::kForeign;
  struct stat st {};
  struct stat dir_st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || ::fstat(dir_fd, &dir_st) != 0) {
    return MarkKind::kForeign;
  }
  std::array<char, 128> buf{};
  std::size_t got = 0;
  while (got < buf.size()) {
    const ssize_t n = ::read(fd.get(), buf.data() + got, buf.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return MarkKind::kForeign;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return classifyMark(std::string_view(buf.data(), got), static_cast<std::uint64_t>(dir_st.st_ino));
}

// The default for backends that store no contents (the fake): a regular file of that name is the mark.
int Backend::writeMark(DirHandle dir) {
  const std::string text = markText(0);
  return createFile(dir, std::string(kMarkName).c_str(), std::as_bytes(std::span(text)), {});
}

MarkKind Backend::readMark(DirHandle dir) {
  const int err = statEntry(dir, std::string(kMarkName).c_str(), /*is_dir=*/false);
  return err == 0 ? MarkKind::kOurs : err == ENOENT ? MarkKind::kNone : MarkKind::kForeign;
}

int PosixBackend::writeMark(DirHandle dir) {
  return dir.value < 0 ? EBADF : mdbench::writeMark(static_cast<int>(dir.value));
}

MarkKind PosixBackend::readMark(DirHandle dir) {
  return dir.value < 0 ? MarkKind::kForeign : mdbench::readMark(static_cast<int>(dir.value));
}

CleanSummary cleanDirectory(const std::string& dir, bool dry_run, std::vector<std::string>& log) {
  CleanSummary summary;
  // "LINK/" and "LINK/." make the kernel follow LINK: its last component is looked at without them, and
  // opened so (O_NOFOLLOW then refuses a link swapped in after the lstat).
  const std::string last = withoutTrailingDots(dir);
  struct stat st {};
  if (::lstat(last.c_str(), &st) != 0) {
    summary.error = fmt::format("{}: {}", dir, describeErrno(lastError()));
    summary.usage = errno == ENOENT || errno == ENOTDIR;
    return summary;
  }
  if (S_ISLNK(st.st_mode)) {
    summary.error =
        fmt::format("{} is a symbolic link; mdbench never follows links: give the directory", dir);
    summary.usage = true;
    return summary;
  }
  if (!S_ISDIR(st.st_mode)) {
    summary.error = fmt::format("{} is not a directory", dir);
    summary.usage = true;
    return summary;
  }
  // DIR itself may be a marked directory: then it is cleaned from its parent.
  std::filesystem::path path = std::filesystem::path(dir).lexically_normal();
  if (path.filename().empty() && path.has_parent_path()) path = path.parent_path();  // "a/b/" is "a/b"
  const std::string name = path.filename().string();
  const Fd self(::open(last.c_str(), kDirFlags));
  if (!self.valid()) {
    summary.error = fmt::format("cannot open {}: {}", dir, describeErrno(lastError()));
    return summary;
  }
  const MarkKind kind = readMark(self.get());
  if (kind == MarkKind::kOld || kind == MarkKind::kForeign) {
    summary.error = markRefusal(dir, kind);
    return summary;
  }
  if (kind == MarkKind::kOurs && !name.empty() && name != "." && name != "..") {
    const std::string parent = path.has_parent_path() ? path.parent_path().string() : ".";
    const Fd parent_fd(::open(parent.c_str(), kDirFlags));
    if (!parent_fd.valid()) {
      summary.error = fmt::format("cannot open {}: {}", parent, describeErrno(lastError()));
      return summary;
    }
    cleanMarked(parent_fd.get(), name, dir, dry_run, summary, log);
    return summary;
  }
  std::vector<std::string> names;
  if (const int err = listNames(self.get(), names); err != 0) {
    summary.error = fmt::format("cannot list {}: {}", dir, describeErrno(err));
    return summary;
  }
  for (const std::string& child : names)
    cleanMarked(self.get(), child, pathIn(last, child), dry_run, summary, log);  // "DIR//x" never
  return summary;
}

}  // namespace mdbench
