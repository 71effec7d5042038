// Opening, creating and walking results files: shared by the run writer, the import writer and the reader.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "h5.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"

namespace mdbench::results {

// Which file a name stood for when it was checked: every later open of the name must find the same one.
struct FileKey {
  dev_t dev = 0;
  ino_t ino = 0;
  bool operator==(const FileKey&) const = default;
};

// HDF5 opens files by name, so a name checked once and opened later could meanwhile name something else
// (a symbolic link swapped in). Every open here opens the name itself first (O_NOFOLLOW, O_NONBLOCK: no
// link followed, no FIFO waited on), checks that descriptor (a regular file; with `expected`, that very
// file), lets HDF5 open that descriptor's file (/proc/self/fd/N), and compares the file HDF5 opened with it.
// Then every link in the file must be a hard link inside it (link_guard.hpp), before any object is opened.
// Throws ResultsFileError naming `path`; `verb` says what was refused ("read", "append to").
// Creates a results file (root attributes and an empty /runs) in the regular file `fd` names (a new file
// the caller made with O_EXCL, or its own temporary), truncating it.
h5::Handle createFile(int fd, const std::string& path);
// Opens an existing file (H5F_ACC_RDONLY or H5F_ACC_RDWR); a file another process holds open for writing
// is reported as in use. `key`, when given, receives the identity of the file opened.
h5::Handle openFile(const std::string& path, unsigned flags, std::string_view verb,
                    const FileKey* expected = nullptr, FileKey* key = nullptr);
// Throws unless `path` is a regular file (not a link, FIFO or directory); `verb` says what was refused.
// Returns its identity.
FileKey requireRegularFile(const std::string& path, std::string_view verb);
// Throws unless `path` can take another run or import: a regular file (never through a link: HDF5 would
// write through it, and block on a FIFO) holding a results file of this schema version that `mdbench
// validate` accepts, so that nothing is ever added to a file that is not ours or is damaged. Returns the
// identity of the file checked.
FileKey checkAppendable(const std::string& path);
// Opens an existing results file of this schema version for appending (checkAppendable first), and only
// the file checked. Checks it read-only first, so that a file that is not ours is never opened for writing
// (which can rewrite its superblock).
h5::Handle openForAppend(const std::string& path);
// The whole of an open results file (readResultsFile's body): throws ResultsFileError naming `path`.
StoredResults readStored(hid_t file, const std::string& path);
// validateResultsFile, of the very file `expected` names (--append: the file checked is the one added to).
ValidationResult validateExpected(const std::string& path, const FileKey& expected);
// ENOSPC or EDQUOT.
bool noRoom(int err);
// The descriptor behind a file opened with the default (sec2) driver; -1 with any other driver.
int descriptorOf(hid_t file);
// reserveSpace and releaseSpace: util's file_io.
// Creates `path` as a new results file (O_EXCL: exists_error when it exists), `header_bytes` reserved
// first; removed again on any later failure. `key` receives its identity.
h5::Handle createNewFile(const std::string& path, std::uint64_t header_bytes, bool& exists_error,
                         FileKey& key);
// Children named <prefix><number>, in numeric order (run-9999 before run-10000); others are ignored.
std::vector<std::string> numberedChildren(hid_t group, std::string_view prefix);

}  // namespace mdbench::results
