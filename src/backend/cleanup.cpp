// Removing what mdbench made and nothing else (cleanup.hpp): the tallies, the shares of a cleanup, and the
// marks (POSIX's, relative to an open directory with O_NOFOLLOW, and the default of the test doubles). The
// walk is tree_walk.cpp's; `mdbench clean` is storage_clean.cpp's.
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
#include "mdbench/util/process.hpp"
#include "posix_calls.hpp"

namespace mdbench {
namespace {

int lastError() { return errno != 0 ? errno : EIO; }

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
  if (fd.get() < 0) return errno == ENOENT ? MarkKind::kNone : MarkKind::kForeign;
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

}  // namespace mdbench
