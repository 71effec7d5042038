// The POSIX backend's cleanup walk calls (backend.hpp, tree_walk.cpp): each relative to a directory
// descriptor, in both path styles, never through a link.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <new>

#include "mdbench/backend/posix_backend.hpp"
#include "posix_calls.hpp"

namespace mdbench {

namespace posix {

int listNames(int dir_fd, std::vector<std::string>& names) {
  const int fd = ::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return lastError();
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) {
    const int err = lastError();
    ::close(fd);
    return err;
  }
  errno = 0;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  const int err = errno;
  ::closedir(dir);
  return err;
}

}  // namespace posix

namespace {
int fdOf(DirHandle dir) { return static_cast<int>(dir.value); }
}  // namespace

std::unique_ptr<PosixBackend> PosixBackend::adopt(int dir_fd, int& err) {
  const int fd = ::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) {
    err = posix::lastError();
    return nullptr;
  }
  PosixOptions options;
  options.style = PathStyle::kDirfd;
  std::unique_ptr<PosixBackend> backend(new (std::nothrow) PosixBackend(fd, std::string(), options));
  if (!backend) {
    ::close(fd);
    err = ENOMEM;
    return nullptr;
  }
  err = 0;
  return backend;
}

int PosixBackend::listNames(DirHandle dir, std::vector<std::string>& names) {
  return dir.valid() ? posix::listNames(fdOf(dir), names) : EBADF;
}

int PosixBackend::lookUp(DirHandle dir, const char* name, EntryInfo& info) {
  if (!dir.valid()) return EBADF;
  struct stat st {};
  if (::fstatat(fdOf(dir), name, &st, AT_SYMLINK_NOFOLLOW) != 0) return posix::lastError();
  info.kind = S_ISLNK(st.st_mode)   ? EntryKind::kLink
              : S_ISDIR(st.st_mode) ? EntryKind::kDir
              : S_ISREG(st.st_mode) ? EntryKind::kFile
                                    : EntryKind::kOther;
  info.id = StorageId{st.st_dev, st.st_ino};
  return 0;
}

int PosixBackend::identify(DirHandle dir, StorageId& id) {
  if (!dir.valid()) return EBADF;
  struct stat st {};
  if (::fstat(fdOf(dir), &st) != 0) return posix::lastError();
  id = StorageId{st.st_dev, st.st_ino};
  return 0;
}

// No path is kept for the directory (closeDir finds none to clear), so the walk reaches any depth in both
// styles. ".." is no link; O_NOFOLLOW refuses one under any other name.
int PosixBackend::walkInto(DirHandle dir, const char* name, DirHandle& out) {
  out = DirHandle{};
  if (!dir.valid()) return EBADF;
  const int fd = ::openat(fdOf(dir), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return posix::lastError();
  out = DirHandle{fd};
  return 0;
}

int PosixBackend::removeName(DirHandle dir, const char* name, EntryType type) {
  if (!dir.valid()) return EBADF;
  const int flags = type == EntryType::kDir ? AT_REMOVEDIR : 0;
  return ::unlinkat(fdOf(dir), name, flags) == 0 ? 0 : posix::lastError();
}

}  // namespace mdbench
