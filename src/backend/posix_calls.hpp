// The system-call helpers both path styles of the POSIX backend share (posix_backend.cpp: dirfd style,
// posix_full.cpp: full style): errno as the status, loops over short transfers, the type checks.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "mdbench/backend/backend.hpp"
#include "mdbench/backend/posix_backend.hpp"

namespace mdbench::posix {

// errno of the last failed call; EIO if the library left it unset.
int lastError();
// Writes all of `data` from the descriptor's offset; retries short writes and EINTR.
int writeAll(int fd, std::span<const std::byte> data);
// Reads until `buf` is full; a file that ends first is ENODATA.
int readFull(int fd, std::span<std::byte> buf);
// What an entry of the wrong type fails with: EISDIR / ENOTDIR between files and directories, EINVAL for
// anything else (a symlink, FIFO, socket or device).
int typeError(const struct stat& st, EntryType want);
// The type of `name` in `dir_fd` (AT_FDCWD with a full path), never through a link on the final component.
int checkType(int dir_fd, const char* name, EntryType want);
// -S: the descriptor opened without O_CREAT is the file the creating rank made and wrote: a regular file,
// one link (a hard link planted to a precious file has two), the creator's size.
int checkCreated(int fd, std::size_t size);
// Closes fd; the first error (the operation's, else close's) is the result.
int closeAfter(int fd, int op_err);
// open(2)'s extra flag for the files' opens: O_DIRECT under --posix.odirect (mdtest's set_o_direct_flag
// in POSIX_Create and POSIX_Open), else none.
int dataFlags(const PosixOptions& posix);
// The file data's transfer from offset 0, with --posix.* applied: under --posix.odirect through an aligned
// copy; under --posix.rangelocks inside an fcntl lock of the range (F_SETLKW; a write lock for a write, a
// read lock for a read), released after, as mdtest's POSIX_Xfer. A lock that fails fails the op.
int writeData(int fd, std::span<const std::byte> data, const PosixOptions& posix, AlignedBuffer& scratch);
int readData(int fd, std::span<std::byte> buf, const PosixOptions& posix, AlignedBuffer& scratch);
// --verify-write: reads what was just written back through the same descriptor, as mdtest does (lseek to
// 0, read), into `scratch`, and compares; a difference or a short file is EBADMSG.
int verifyWritten(int fd, std::span<const std::byte> data, AlignedBuffer& scratch);
// A rename's two ends: `from` in the directory from_fd, `to` in to_fd (AT_FDCWD for full paths).
struct RenameEnds {
  int from_fd;
  const char* from;
  int to_fd;
  const char* to;
};
// Renames `from` to `to` without ever replacing an existing `to` (EEXIST), once `from` is known to have the
// type mdbench made.
// `refused`, when given: set once the file system refused RENAME_NOREPLACE, and then the refused renameat2
// (a round trip to ceph-fuse's daemon, as costly as the rename) is not tried again.
int renameChecked(const RenameEnds& ends, EntryType type, bool* refused = nullptr);
// The rename itself, without the type check: renameat2 RENAME_NOREPLACE, or where the file system lacks
// it a check that `to` is absent and renameat.
int renameNoReplace(const RenameEnds& ends, bool* refused = nullptr);

// The full path style's operations (posix_full.cpp): each takes the item's full path, as mdtest 4.1's
// POSIX backend does, and makes the same system calls but for the safety additions listed there.
int fullMakeDir(const char* path);
int fullRemoveDir(const char* path);
int fullCreate(const char* path, std::span<const std::byte> data, CreateOptions options,
               const PosixOptions& posix, AlignedBuffer& scratch);
int fullStat(const char* path, EntryType type);
int fullRead(const char* path, std::span<std::byte> buf, const PosixOptions& posix, AlignedBuffer& scratch);
// unlink and rename check the type of the entry by its name in `dir_fd`, the open descriptor of the
// directory the path names (no second walk of the path), then make mdtest's call on the full path. A
// negative dir_fd: the caller knows the type already (PosixBackend::needsTypeCheck), call at once.
int fullUnlink(int dir_fd, const char* name, const char* path);
int fullRename(int dir_fd, const char* from, const char* from_path, const char* to_path, EntryType type,
               bool* refused = nullptr);

// The cleanup walk's listing (posix_walk.cpp): the entry names of dir_fd (not "." or ".."), through a fresh
// descriptor so dir_fd's offset stays; all names first, so the walk stays correct while entries go.
int listNames(int dir_fd, std::vector<std::string>& names);

}  // namespace mdbench::posix
