// Opening, creating and walking results files: shared by the run writer, the import writer and the reader.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "h5.hpp"

namespace mdbench::results {

bool pathExists(const std::string& path);  // also for a dangling symlink
// Creates a results file (root attributes and an empty /runs); flags H5F_ACC_EXCL or H5F_ACC_TRUNC.
h5::Handle createFile(const std::string& path, unsigned flags);
// Opens an existing file (H5F_ACC_RDONLY or H5F_ACC_RDWR); a file another process holds open for writing
// is reported as in use.
h5::Handle openFile(const std::string& path, unsigned flags);
// Throws unless `path` is a regular file (not a link, FIFO or directory); `verb` says what was refused.
void requireRegularFile(const std::string& path, std::string_view verb);
// Throws unless `path` can take another run or import: a regular file (never through a link: HDF5 would
// write through it, and block on a FIFO) holding a results file of this schema version that `mdbench
// validate` accepts, so that nothing is ever added to a file that is not ours or is damaged.
void checkAppendable(const std::string& path);
// Opens an existing results file of this schema version for appending (checkAppendable first). Checks it
// read-only first, so that a file that is not ours is never opened for writing (which can rewrite its
// superblock).
h5::Handle openForAppend(const std::string& path);
// ENOSPC or EDQUOT.
bool noRoom(int err);
// The descriptor behind a file opened with the default (sec2) driver; -1 with any other driver.
int descriptorOf(hid_t file);
// Allocates the file's blocks up to its end plus `bytes` without changing its size, so the next write step
// cannot run out of space halfway: 0, or ENOSPC / EDQUOT / EFBIG (a file size limit).
int reserveSpace(int fd, std::uint64_t bytes);
// Gives back what reserveSpace allocated past the end.
void releaseSpace(int fd);
// Creates `path` as a new results file (O_EXCL: exists_error when it exists), `header_bytes` reserved
// first; removed again on any later failure.
h5::Handle createNewFile(const std::string& path, std::uint64_t header_bytes, bool& exists_error);
// Children named <prefix><number>, in numeric order (run-9999 before run-10000); others are ignored.
std::vector<std::string> numberedChildren(hid_t group, std::string_view prefix);

}  // namespace mdbench::results
