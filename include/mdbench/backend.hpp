// The storage backend: the metadata operations a phase performs, each returning a status (0 or an errno).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace mdbench {

// An open directory of the backend. Opaque to callers; the backend gives it meaning (a descriptor for
// POSIX). root() is the directory the backend was opened on; closing it is refused (EBADF).
struct DirHandle {
  std::int64_t value = -1;
  bool valid() const { return value >= 0; }
};

// Every operation returns 0 on success or an errno value (EIO for failures without one); none throws.
// Names are single path components, never containing '/'. Nothing ever follows a symbolic link.
class Backend {
 public:
  virtual ~Backend() = default;

  // The directory the backend works in (the run's target directory).
  virtual DirHandle root() const = 0;
  // Opens the existing subdirectory `name` of `parent`.
  virtual int openDir(DirHandle parent, const char* name, DirHandle& out) = 0;
  virtual int closeDir(DirHandle dir) = 0;

  virtual int makeDir(DirHandle parent, const char* name) = 0;    // fails with EEXIST if present
  virtual int removeDir(DirHandle parent, const char* name) = 0;  // must be empty
  // Creates a new regular file (fails with EEXIST if present), writes `data` into it, closes it.
  virtual int createFile(DirHandle parent, const char* name, std::span<const std::byte> data) = 0;
  // Stats `name`; fails with ENOTDIR (expected a directory), EISDIR (expected a
  // file, found a directory) or EINVAL (anything else, e.g. a symlink).
  virtual int statEntry(DirHandle parent, const char* name, bool is_dir) = 0;
  // Opens the file, reads into buf until it is full (a short file is ENODATA), closes it. An empty buf only
  // opens and closes.
  virtual int readFile(DirHandle parent, const char* name, std::span<std::byte> buf) = 0;
  virtual int unlinkFile(DirHandle parent, const char* name) = 0;
};

}  // namespace mdbench
