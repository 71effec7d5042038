// The POSIX backend. Each operation is the shortest syscall sequence that does it: no allocation, no
// formatting, errno returned as the status. O_NOFOLLOW / AT_SYMLINK_NOFOLLOW everywhere so a symlink planted
// under the target directory is never followed.
#include "mdbench/posix_backend.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <new>

namespace mdbench {
namespace {

constexpr int kDirOpenFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
constexpr int kCreateFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
constexpr int kReadFlags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC;
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

int PosixBackend::removeDir(DirHandle parent, const char* name) {
  if (!usable(parent)) return EBADF;
  return ::unlinkat(fdOf(parent), name, AT_REMOVEDIR) == 0 ? 0 : lastError();
}

int PosixBackend::createFile(DirHandle parent, const char* name, std::span<const std::byte> data) {
  if (!usable(parent)) return EBADF;
  const int fd = ::openat(fdOf(parent), name, kCreateFlags, kFileMode);
  if (fd < 0) return lastError();
  return closeAfter(fd, writeAll(fd, data));
}

int PosixBackend::statEntry(DirHandle parent, const char* name, bool is_dir) {
  if (!usable(parent)) return EBADF;
  struct stat st;
  if (::fstatat(fdOf(parent), name, &st, AT_SYMLINK_NOFOLLOW) != 0) return lastError();
  if (is_dir) return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
  if (S_ISREG(st.st_mode)) return 0;
  return S_ISDIR(st.st_mode) ? EISDIR : EINVAL;  // EINVAL: a symlink, fifo, socket or device
}

int PosixBackend::readFile(DirHandle parent, const char* name, std::span<std::byte> buf) {
  if (!usable(parent)) return EBADF;
  const int fd = ::openat(fdOf(parent), name, kReadFlags);
  if (fd < 0) return lastError();
  return closeAfter(fd, readFull(fd, buf));
}

int PosixBackend::unlinkFile(DirHandle parent, const char* name) {
  if (!usable(parent)) return EBADF;
  return ::unlinkat(fdOf(parent), name, 0) == 0 ? 0 : lastError();
}

}  // namespace mdbench
