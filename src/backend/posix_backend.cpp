// The POSIX backend. Each operation is the shortest syscall sequence that does it: no allocation, no
// formatting, errno returned as the status. O_NOFOLLOW / AT_SYMLINK_NOFOLLOW everywhere so a symlink planted
// under the target directory is never followed.
#include "mdbench/backend/posix_backend.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE (glibc 2.28+, _GNU_SOURCE)
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string_view>

namespace mdbench {
namespace {

constexpr int kDirOpenFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
constexpr int kCreateFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
// -S's ranks that did not create a shared name open it after its creator did: never O_CREAT (a name that is
// gone stays gone), O_NOFOLLOW (a symlink fails with ELOOP), O_NONBLOCK (a FIFO fails with ENXIO instead of
// waiting for a reader), and no O_TRUNC: the checks on the descriptor come before any byte is written.
constexpr int kOpenCreatedFlags = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
// A fresh descriptor for listing, so the caller's descriptor keeps its own offset ("." is never a symlink).
constexpr int kListFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
// getdents64 buffer on the stack: a few hundred names per call, far below any thread's stack limit.
constexpr std::size_t kDirentBufferBytes = 32 * 1024;
// O_NONBLOCK: a FIFO planted under a generated name opens at once (and is refused by type) instead of
// blocking the rank until a writer comes; it changes nothing for regular files.
constexpr int kReadFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
constexpr mode_t kDirMode = 0777;   // the umask applies
constexpr mode_t kFileMode = 0666;  // the umask applies

// A negative handle must never reach the *at() calls: AT_FDCWD (-100) would silently mean the cwd.
constexpr bool usable(DirHandle dir) { return dir.value >= 0; }
constexpr int fdOf(DirHandle dir) { return static_cast<int>(dir.value); }

// errno of the last failed call; EIO if the library left it unset.
int lastError() { return errno != 0 ? errno : EIO; }

int writeAll(int fd, std::span<const std::byte> data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return lastError();
    }
    if (n == 0) return EIO;  // no progress on a regular file: avoid spinning forever
    data = data.subspan(static_cast<std::size_t>(n));
  }
  return 0;
}

int readFull(int fd, std::span<std::byte> buf) {
  while (!buf.empty()) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return lastError();
    }
    if (n == 0) return ENODATA;  // the file is shorter than expected
    buf = buf.subspan(static_cast<std::size_t>(n));
  }
  return 0;
}

// What an entry of the wrong type fails with: EISDIR / ENOTDIR between files and directories, EINVAL for
// anything else (a symlink, FIFO, socket or device), as statEntry reports them.
int typeError(const struct stat& st, EntryType want) {
  if (want == EntryType::kDir) return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
  if (S_ISREG(st.st_mode)) return 0;
  return S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
}

int checkType(int dir_fd, const char* name, EntryType want) {
  struct stat st;
  if (::fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return lastError();
  return typeError(st, want);
}

// -S: the descriptor opened without O_CREAT must be the file the creating rank made and wrote: a regular
// file, one link (a hard link planted to a precious file has two), the creator's size.
int checkCreated(int fd, std::size_t size) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return lastError();
  if (const int err = typeError(st, EntryType::kFile); err != 0) return err;
  if (st.st_nlink != 1) return EMLINK;
  return static_cast<std::uint64_t>(st.st_size) == size ? 0 : EBADMSG;
}

// Closes fd; the first error (the operation's, else close's) is the result.
int closeAfter(int fd, int op_err) {
  const int close_err = ::close(fd) == 0 ? 0 : lastError();
  return op_err != 0 ? op_err : close_err;
}

}  // namespace

std::unique_ptr<PosixBackend> PosixBackend::open(const std::string& root_path, int& err) {
  const int fd = ::open(root_path.c_str(), kDirOpenFlags);
  if (fd < 0) {
    err = lastError();
    return nullptr;
  }
  std::unique_ptr<PosixBackend> backend(new (std::nothrow) PosixBackend(fd));
  if (!backend) {
    ::close(fd);
    err = ENOMEM;
    return nullptr;
  }
  err = 0;
  return backend;
}

PosixBackend::~PosixBackend() {
  if (root_fd_ >= 0) ::close(root_fd_);
}

DirHandle PosixBackend::root() const { return DirHandle{root_fd_}; }

int PosixBackend::openDir(DirHandle parent, const char* name, DirHandle& out) {
  out = DirHandle{};
  if (!usable(parent)) return EBADF;
  const int fd = ::openat(fdOf(parent), name, kDirOpenFlags);
  if (fd < 0) return lastError();
  out = DirHandle{fd};
  return 0;
}

int PosixBackend::closeDir(DirHandle dir) {
  // The root descriptor belongs to the backend (closed by the destructor), not to the caller.
  if (!usable(dir) || dir.value == root_fd_) return EBADF;
  return ::close(fdOf(dir)) == 0 ? 0 : lastError();
}

int PosixBackend::makeDir(DirHandle parent, const char* name) {
  if (!usable(parent)) return EBADF;
  return ::mkdirat(fdOf(parent), name, kDirMode) == 0 ? 0 : lastError();
}

// unlinkat(AT_REMOVEDIR) already refuses a symlink (ENOTDIR) and anything that is not a directory.
int PosixBackend::removeDir(DirHandle parent, const char* name) {
  if (!usable(parent)) return EBADF;
  return ::unlinkat(fdOf(parent), name, AT_REMOVEDIR) == 0 ? 0 : lastError();
}

int PosixBackend::createFile(DirHandle parent, const char* name, std::span<const std::byte> data,
                             CreateOptions options) {
  if (!usable(parent)) return EBADF;
  const bool created = options.mode == CreateMode::kExclusive;
  const int fd = ::openat(fdOf(parent), name, created ? kCreateFlags : kOpenCreatedFlags, kFileMode);
  if (fd < 0) return lastError();
  int err = created ? 0 : checkCreated(fd, data.size());
  if (err == 0 && options.made != nullptr) *options.made = true;
  if (err == 0) err = writeAll(fd, data);
  if (err == 0 && options.fsync && ::fsync(fd) != 0) err = lastError();
  return closeAfter(fd, err);
}

int PosixBackend::statEntry(DirHandle parent, const char* name, bool is_dir) {
  if (!usable(parent)) return EBADF;
  struct stat st;
  if (::fstatat(fdOf(parent), name, &st, AT_SYMLINK_NOFOLLOW) != 0) return lastError();
  return typeError(st, is_dir ? EntryType::kDir : EntryType::kFile);
}

int PosixBackend::readFile(DirHandle parent, const char* name, std::span<std::byte> buf) {
  if (!usable(parent)) return EBADF;
  const int fd = ::openat(fdOf(parent), name, kReadFlags);
  if (fd < 0) return lastError();
  struct stat st;
  int err = ::fstat(fd, &st) == 0 ? typeError(st, EntryType::kFile) : lastError();
  if (err == 0) err = readFull(fd, buf);
  return closeAfter(fd, err);
}

// The type is checked first: unlinkat would remove a symlink, FIFO or socket planted under a file's name
// as readily as the file. (Something swapped in between the two calls by another process is not caught:
// POSIX has no unlink-if-regular.)
int PosixBackend::unlinkFile(DirHandle parent, const char* name) {
  if (!usable(parent)) return EBADF;
  if (const int err = checkType(fdOf(parent), name, EntryType::kFile); err != 0) return err;
  return ::unlinkat(fdOf(parent), name, 0) == 0 ? 0 : lastError();
}

// rename(2) never follows symlinks, but would move a link planted under a generated name: the type of
// `from` is checked first, so only what mdbench made is renamed.
int PosixBackend::renameEntry(DirHandle dir, const char* from, const char* to, EntryType type) {
  if (!usable(dir)) return EBADF;
  const int fd = fdOf(dir);
  if (const int err = checkType(fd, from, type); err != 0) return err;
  if (::renameat2(fd, from, fd, to, RENAME_NOREPLACE) == 0) return 0;
  const int err = lastError();
  // EINVAL / ENOSYS: the file system (or kernel) does not support RENAME_NOREPLACE (e.g. older NFS). linkat
  // + unlinkat would be atomic but cannot move directories, so check then rename instead. Small race: an
  // entry created as `to` between the fstatat and the renameat is replaced; within one run no two ranks
  // rename onto the same name, so only an outside process could cause it. An EINVAL that is a real error
  // (e.g. `from` is ".") comes back from the plain renameat below.
  if (err != EINVAL && err != ENOSYS) return err;
  struct stat st;
  if (::fstatat(fd, to, &st, AT_SYMLINK_NOFOLLOW) == 0) return EEXIST;
  if (errno != ENOENT) return lastError();
  return ::renameat(fd, from, fd, to) == 0 ? 0 : lastError();
}

namespace {

// Counts the names of one getdents64 batch into counts/total.
void countBatch(const char* buf, std::size_t len, std::span<const std::string_view> prefixes,
                std::span<std::uint64_t> counts, std::uint64_t& total) {
  // The kernel's records have glibc's struct dirent64 layout up to d_name, but are only d_reclen long (d_name
  // is not 256 bytes), so read the fields by offset rather than through a dirent64 pointer.
  constexpr std::size_t kReclenOffset = offsetof(struct dirent64, d_reclen);
  constexpr std::size_t kNameOffset = offsetof(struct dirent64, d_name);
  for (std::size_t pos = 0; pos < len;) {
    decltype(dirent64::d_reclen) reclen;
    std::memcpy(&reclen, buf + pos + kReclenOffset, sizeof reclen);
    const std::string_view name(buf + pos + kNameOffset);  // NUL-terminated within the record
    pos += reclen;
    if (name == "." || name == "..") continue;
    ++total;
    for (std::size_t k = 0; k < prefixes.size(); ++k) {
      if (name.starts_with(prefixes[k])) ++counts[k];
    }
  }
}

}  // namespace

int PosixBackend::countEntries(DirHandle dir, std::span<const std::string_view> prefixes,
                               std::span<std::uint64_t> counts, std::uint64_t& total) {
  total = 0;
  if (counts.size() != prefixes.size()) return EINVAL;
  for (std::uint64_t& c : counts) c = 0;
  if (!usable(dir)) return EBADF;
  const int fd = ::openat(fdOf(dir), ".", kListFlags);
  if (fd < 0) return lastError();
  alignas(8) char buf[kDirentBufferBytes];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return closeAfter(fd, lastError());
    }
    if (n == 0) break;
    countBatch(buf, static_cast<std::size_t>(n), prefixes, counts, total);
  }
  return closeAfter(fd, 0);
}

int PosixBackend::syncFileSystem() { return ::syncfs(root_fd_) == 0 ? 0 : lastError(); }

}  // namespace mdbench
