// Opening, creating and checking results files for writing: results_files.hpp.
#include "results_files.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "h5.hpp"
#include "link_guard.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"
#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/file_io.hpp"
#include "mdbench/util/process.hpp"
#include "results_layout.hpp"

namespace mdbench {
namespace results {

namespace {

FileKey keyOf(const struct stat& st) { return {st.st_dev, st.st_ino}; }

std::string kindOf(mode_t mode) {
  return S_ISDIR(mode)    ? "a directory"
         : S_ISLNK(mode)  ? "a symbolic link"
         : S_ISFIFO(mode) ? "a FIFO"
                          : "not a regular file";
}

[[noreturn]] void throwNotAFile(const std::string& path, mode_t mode, std::string_view verb) {
  throw ResultsFileError(fmt::format("{} is {}, not a results file: cannot {} it", path, kindOf(mode), verb));
}

// The name HDF5 is given for the file behind `fd`: the descriptor's own file, whatever `path` names by now;
// `path` itself only where /proc is not mounted (the file HDF5 opened is compared afterwards either way).
std::string nameFor(int fd, const std::string& path) {
  std::string proc = fmt::format("/proc/self/fd/{}", fd);
  return ::access(proc.c_str(), F_OK) == 0 ? proc : path;
}

// HDF5's messages name the /proc path it was given; the user named `path`.
std::string detailFor(const std::string& proc, const std::string& path) {
  std::string detail = h5::errorDetail();
  for (std::size_t at = detail.find(proc); at != std::string::npos; at = detail.find(proc, at + path.size()))
    detail.replace(at, proc.size(), path);
  return detail;
}

// The file HDF5 opened must be the one checked: else it is closed again and refused.
void requireSame(h5::Handle& file, const FileKey& checked, const std::string& path) {
  struct stat st {};
  const int fd = descriptorOf(file.get());
  if (fd >= 0 && ::fstat(fd, &st) == 0 && keyOf(st) == checked) return;
  static_cast<void>(file.close());
  throw ResultsFileError(fmt::format(
      "{} was replaced while it was being opened (it no longer names the file checked): not opened", path));
}

// Refuses a file holding anything that could make HDF5 touch another file, before any object is opened.
void requireNoForeignReference(h5::Handle& file, const std::string& path, std::string_view verb) {
  const std::string problem = foreignReference(file.get());
  if (problem.empty()) return;
  static_cast<void>(file.close());
  throw ResultsFileError(fmt::format(
      "{}: {}: mdbench never makes one and never follows one: cannot {} the file", path, problem, verb));
}

// The regular file `path` names, opened without waiting on a FIFO (nor following a link with kRefuse).
int openChecked(const std::string& path, std::string_view verb, Links links, struct stat& st) {
  const bool follow = links == Links::kFollow;
  if ((follow ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st)) != 0) {
    throw ResultsFileError(fmt::format("cannot {} {}: {}", verb, path, describeErrno(lastErrno())));
  }
  if (!S_ISREG(st.st_mode)) throwNotAFile(path, st.st_mode, verb);
  const int fd = ::open(path.c_str(), O_RDONLY | (follow ? 0 : O_NOFOLLOW) | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int err = lastErrno();
    if (err == ELOOP) throwNotAFile(path, S_IFLNK, verb);
    throw ResultsFileError(fmt::format("cannot {} {}: {}", verb, path, describeErrno(err)));
  }
  struct stat opened {};
  if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode) || keyOf(opened) != keyOf(st)) {
    ::close(fd);
    throw ResultsFileError(fmt::format("{} changed while it was being opened: cannot {} it", path, verb));
  }
  st = opened;
  return fd;
}

// HDF5's signature at offset 0, 512, 1024, 2048, ... (where HDF5 looks for it), read from the descriptor
// checked rather than by name (H5Fis_hdf5 opens the name again).
bool hasHdf5Signature(int fd, off_t size) {
  static constexpr std::array<unsigned char, 8> kSignature = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  for (off_t at = 0; at + 8 <= size; at = at == 0 ? 512 : at * 2) {
    std::array<unsigned char, 8> bytes{};
    if (::pread(fd, bytes.data(), bytes.size(), at) != static_cast<ssize_t>(bytes.size())) return false;
    if (bytes == kSignature) return true;
  }
  return false;
}

}  // namespace

h5::Handle createFile(int fd, const std::string& path) {
  configureHdf5();
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    throw ResultsFileError(fmt::format("cannot create {}: not a regular file", path));
  }
  const std::string name = nameFor(fd, path);
  const h5::Handle fapl = h5::fileAccess();
  const hid_t id = H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get());
  if (id < 0) {
    // The file made a moment ago, or its directory, removed or replaced before HDF5 opened it (HDF5 then
    // says "can't retrieve real path for file"): the same words as when that happens later in the run.
    struct stat now {};
    if (::lstat(path.c_str(), &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
      throw ResultsFileError(fmt::format(
          "{}: the results file is gone (it, or its directory, was removed or replaced as it was created)",
          path));
    }
    const std::string detail = detailFor(name, path);
    throw ResultsFileError(fmt::format("cannot create {}{}{}", path, detail.empty() ? "" : ": ", detail));
  }
  h5::Handle handle(id);
  requireSame(handle, keyOf(st), path);
  h5::writeAttribute(handle.get(), "schema", kSchemaName);
  h5::writeAttribute(handle.get(), "schema_version", kSchemaVersion);
  h5::createGroup(handle.get(), results::kRunsGroup);
  h5::flush(handle.get());
  return handle;
}

namespace {

// Another process holds the file open for writing (HDF5's file lock): say so in words.
[[noreturn]] void throwInUse(const std::string& path) {
  throw ResultsFileError(fmt::format(
      "{} is in use: another process (an mdbench run or import adding to it?) has it open for writing; "
      "try again when that has finished",
      path));
}

}  // namespace

h5::Handle openFile(const std::string& path, unsigned flags, std::string_view verb, const FileKey* expected,
                    FileKey* key) {
  configureHdf5();
  struct stat st {};
  // Only a reader follows a link the user named (to a regular file: its descriptor is what HDF5 opens);
  // what is written to, or was checked before, is never reached through one.
  const Links links =
      flags == H5F_ACC_RDONLY && expected == nullptr && verb == "read" ? Links::kFollow : Links::kRefuse;
  const Fd fd(openChecked(path, verb, links, st));
  if (expected != nullptr && keyOf(st) != *expected) {
    throw ResultsFileError(fmt::format(
        "{} is no longer the file checked when the run started (replaced, or a link swapped in): cannot {} "
        "it",
        path, verb));
  }
  if (!hasHdf5Signature(fd.get(), st.st_size)) {
    throw ResultsFileError(fmt::format("{} is not an mdbench results file (not an HDF5 file){}", path,
                                       verb == "read" ? "" : fmt::format(": cannot {} it", verb)));
  }
  const std::string name = nameFor(fd.get(), path);
  const h5::Handle fapl = h5::fileAccess();
  const hid_t id = H5Fopen(name.c_str(), flags, fapl.get());
  if (id < 0) {
    const std::string detail = detailFor(name, path);
    if (detail.find("unable to lock file") != std::string::npos) throwInUse(path);
    throw ResultsFileError(fmt::format("cannot open {}{}{} (damaged, or still open for writing?)", path,
                                       detail.empty() ? "" : ": ", detail));
  }
  h5::Handle file(id);
  requireSame(file, keyOf(st), path);
  requireNoForeignReference(file, path, verb);
  if (key != nullptr) *key = keyOf(st);
  return file;
}

FileKey requireRegularFile(const std::string& path, std::string_view verb) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    throw ResultsFileError(fmt::format("cannot {} {}: {}", verb, path, describeErrno(errno)));
  }
  if (!S_ISREG(st.st_mode)) throwNotAFile(path, st.st_mode, verb);
  return keyOf(st);
}

FileKey checkAppendable(const std::string& path) {
  FileKey key;
  {
    const h5::Handle file = openFile(path, H5F_ACC_RDONLY, "append to", nullptr, &key);
    const std::string problem = results::rootProblem(file.get(), path, "writes");
    if (!problem.empty()) throw ResultsFileError(fmt::format("{}: cannot append to it", problem));
  }
  if (const ValidationResult valid = validateExpected(path, key); !valid.ok) {
    throw ResultsFileError(fmt::format(
        "{} is not a valid results file ({}): nothing is added to it; `mdbench validate {}` says more", path,
        valid.first_problem, path));
  }
  return key;
}

// Opens an existing results file for appending. Checks it read-only first, so that a file that is not
// ours is never opened for writing (which can rewrite its superblock).
h5::Handle openForAppend(const std::string& path) {
  const FileKey key = checkAppendable(path);
  return openFile(path, H5F_ACC_RDWR, "append to", &key);
}

bool noRoom(int err) { return err == ENOSPC || err == EDQUOT; }

// The descriptor behind a file opened with the default (sec2) driver; -1 with any other driver.
int descriptorOf(hid_t file) {
  const h5::Handle fapl(H5Fget_access_plist(file));
  void* handle = nullptr;
  if (!fapl.valid() || H5Pget_driver(fapl.get()) != H5FD_SEC2) return -1;
  if (H5Fget_vfd_handle(file, fapl.get(), &handle) < 0 || handle == nullptr) return -1;
  return *static_cast<int*>(handle);
}

// Creates `path` as a new results file: it must not exist (exists_error otherwise). It is ours from the
// O_EXCL create on, so every later failure removes it again. Room for the header is checked first, so that
// a full file system is reported plainly (ENOSPC) and HDF5 never half-creates the file.
h5::Handle createNewFile(const std::string& path, std::uint64_t header_bytes, bool& exists_error,
                         FileKey& key) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int err = lastErrno();
    exists_error = err == EEXIST;
    if (exists_error) {
      throw ResultsFileError(
          fmt::format("{} exists: use --append to add this run to it, or --force to replace it", path));
    }
    throw ResultsFileError(fmt::format("cannot create {}: {}", path, describeErrno(err)));
  }
  const Fd made(fd);
  struct stat st {};
  if (::fstat(fd, &st) == 0) key = keyOf(st);
  // Removed on failure only while the name is still the file made here.
  const auto removeMade = [&] {
    struct stat now {};
    if (::lstat(path.c_str(), &now) == 0 && keyOf(now) == key) std::remove(path.c_str());
  };
  const int err = ::fallocate(fd, 0, 0, static_cast<off_t>(header_bytes)) == 0 ? 0 : lastErrno();
  if (noRoom(err)) {
    removeMade();
    throw ResultsFileError(fmt::format("cannot create {}: {}", path, describeErrno(err)));
  }
  try {
    // HDF5 creates the file in the descriptor made here, not whatever the name stands for by now.
    return createFile(fd, path);
  } catch (const ResultsFileError&) {
    removeMade();
    throw;
  }
}

}  // namespace results

}  // namespace mdbench
