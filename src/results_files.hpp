// Opening, creating and walking results files: shared by the run writer, the import writer and the reader.
#pragma once

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
// Children named <prefix><number>, in numeric order (run-9999 before run-10000); others are ignored.
std::vector<std::string> numberedChildren(hid_t group, std::string_view prefix);

}  // namespace mdbench::results
