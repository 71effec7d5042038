// The full path style (--path-style full, the default): per operation, the system calls mdtest 4.1's POSIX
// backend makes (aiori-POSIX.c POSIX_Create / POSIX_Mknod / POSIX_Open / POSIX_Xfer / POSIX_Close /
// POSIX_Delete / POSIX_Rename, aiori.c aiori_posix_stat / _mkdir / _rmdir, as mdtest.c's create_file,
// mdtest_stat, mdtest_read, remove_file, create_remove_dirs and rename_dir_test call them), on the item's
// full path from -d, with mdtest's open flags and modes:
//   create    open(path, O_RDWR|O_CREAT, 0664) [lseek(fd, 0, SEEK_SET) write] [fsync] close
//   -k        mknod(path, S_IFREG|S_IRUSR, 0)
//   stat      stat(path)
//   read      open(path, O_RDWR) [lseek(fd, 0, SEEK_SET) read] close
//   remove    unlink(path) / rmdir(path)
//   mkdir     mkdir(path, 0775)
//   rename    rename(from, to)
//   verify    after the write: lseek(fd, 0, SEEK_SET) read, through the create's descriptor
//   --posix.odirect: O_DIRECT on create's and read's open, the data through a page-aligned buffer
//   --posix.rangelocks: fcntl(F_SETLKW) of the range before the write or read, fcntl(F_SETLK, F_UNLCK) after
// What the safety promise (nothing followed through a link on a final component, nothing touched that the
// run did not make) adds, and nothing else (docs/path-style.md, checked by the test e2e_syscalls):
//   1. create: O_EXCL (never reuses an existing entry; with O_CREAT it also refuses a symlink).
//   2. stat: lstat semantics (AT_SYMLINK_NOFOLLOW), and the type must be the item's.
//   3. read: O_NOFOLLOW and O_NONBLOCK (a FIFO never blocks the rank). No type check of its own: a symlink
//      fails the open (ELOOP), a directory too (O_RDWR: EISDIR), a socket too (ENXIO), and mdtest's own
//      lseek before the read fails on a FIFO (ESPIPE, reported as EINVAL), so no byte of a planted FIFO is
//      ever read. With -e 0 nothing is read, and a FIFO is opened and closed as mdtest would (no byte moves).
//      Only a device node (which only root can make) is read as mdtest would read it.
//   4. unlink: only a regular file is removed (unlink would remove a planted link or FIFO as readily; it
//      refuses a directory itself). In a file-remove phase, each directory is listed once when its first
//      file is removed (getdents64 on a descriptor of its own; d_type), and only a name listed as neither
//      a regular file nor a directory is checked before its unlink; elsewhere (and where the file system
//      gives no d_type) every name is, by fstatat(dirfd, name, AT_SYMLINK_NOFOLLOW) on the descriptor of
//      its directory the backend holds open. Then mdtest's unlink(path).
//   5. rename: the same check of the old name (only the type mdbench made moves), and renameat2 with
//      RENAME_NOREPLACE on the full paths, which never replaces an existing new name (where the file system
//      refuses the flag: fstatat of the new name and renameat, without the refused call once one worked).
//   6. -S's ranks that did not create a shared name open it without O_CREAT (O_WRONLY|O_NOFOLLOW|
//      O_NONBLOCK, O_RDWR with --verify-write) and check it with fstat before writing (posix_backend.hpp
//      CreateMode::kOpenCreated); mdtest creates it on every rank.
// mkdir, rmdir and mknod never follow a final symlink (EEXIST / ENOTDIR), so they are mdtest's calls as
// they are. No item call carries O_CLOEXEC: mdtest's do not, and each descriptor is closed in the call.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "posix_calls.hpp"

namespace mdbench::posix {
namespace {

constexpr mode_t kDirMode = 0775;                // mdtest's DIRMODE; the umask applies
constexpr mode_t kFileMode = 0664;               // POSIX_Create's mode; the umask applies
constexpr mode_t kNodeMode = S_IFREG | S_IRUSR;  // POSIX_Mknod's
constexpr int kCreateFlags = O_RDWR | O_CREAT | O_EXCL;
// -S's second step (not mdtest's: see 6. above); O_RDWR only to read back for --verify-write.
constexpr int kOpenCreatedFlags = O_WRONLY | O_NOFOLLOW | O_NONBLOCK;
constexpr int kOpenCreatedVerifyFlags = O_RDWR | O_NOFOLLOW | O_NONBLOCK;
// mdtest_read asks POSIX_Open for O_RDONLY, which is 0, so POSIX_Open opens O_RDWR.
constexpr int kReadFlags = O_RDWR | O_NOFOLLOW | O_NONBLOCK;

// POSIX_Xfer seeks to the offset before each transfer.
int rewind(int fd) { return ::lseek(fd, 0, SEEK_SET) == 0 ? 0 : lastError(); }

}  // namespace

int fullMakeDir(const char* path) { return ::mkdir(path, kDirMode) == 0 ? 0 : lastError(); }

int fullRemoveDir(const char* path) { return ::rmdir(path) == 0 ? 0 : lastError(); }

int fullCreate(const char* path, std::span<const std::byte> data, CreateOptions options,
               const PosixOptions& posix, AlignedBuffer& scratch) {
  const bool created = options.mode == CreateMode::kExclusive;
  if (created && posix.make_node && data.empty()) {
    if (::mknod(path, kNodeMode, 0) != 0) return lastError();
    if (options.made != nullptr) *options.made = true;
    return 0;
  }
  const int open_created = posix.verify_write ? kOpenCreatedVerifyFlags : kOpenCreatedFlags;
  const int direct = dataFlags(posix);
  const int fd =
      created ? ::open(path, kCreateFlags | direct, kFileMode) : ::open(path, open_created | direct);
  if (fd < 0) return lastError();
  int err = created ? 0 : checkCreated(fd, data.size());
  if (err == 0 && options.made != nullptr) *options.made = true;
  if (err == 0 && !data.empty()) {
    err = rewind(fd);
    if (err == 0) err = writeData(fd, data, posix, scratch);
    if (err == 0 && options.fsync && ::fsync(fd) != 0) err = lastError();  // -y: fsyncPerWrite
    if (err == 0 && posix.verify_write) err = verifyWritten(fd, data, scratch);
  }
  return closeAfter(fd, err);
}

int fullStat(const char* path, EntryType type) {
  struct stat st;
  if (::lstat(path, &st) != 0) return lastError();
  return typeError(st, type);
}

int fullRead(const char* path, std::span<std::byte> buf, const PosixOptions& posix, AlignedBuffer& scratch) {
  const int fd = ::open(path, kReadFlags | dataFlags(posix));
  if (fd < 0) return lastError();
  int err = 0;
  if (!buf.empty()) {
    err = rewind(fd);
    if (err == ESPIPE) err = EINVAL;  // a FIFO or socket: not a file mdbench made, and never read
    if (err == 0) err = readData(fd, buf, posix, scratch);
  }
  return closeAfter(fd, err);
}

int fullUnlink(int dir_fd, const char* name, const char* path) {
  if (dir_fd >= 0) {
    if (const int err = checkType(dir_fd, name, EntryType::kFile); err != 0) return err;
  }
  return ::unlink(path) == 0 ? 0 : lastError();
}

int fullRename(int dir_fd, const char* from, const char* from_path, const char* to_path, EntryType type,
               bool* refused) {
  if (dir_fd >= 0) {
    if (const int err = checkType(dir_fd, from, type); err != 0) return err;
  }
  return renameNoReplace({AT_FDCWD, from_path, AT_FDCWD, to_path}, refused);
}

}  // namespace mdbench::posix
