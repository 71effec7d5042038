// Opening, creating and checking results files for writing: results_files.hpp.
#include "results_files.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include "h5.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"
#include "mdbench/util/errno_name.hpp"
#include "results_layout.hpp"

namespace mdbench {
namespace results {

bool pathExists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::symlink_status(path, ec));
}

h5::Handle createFile(const std::string& path, unsigned flags) {
  const h5::Handle fapl = h5::fileAccess();
  const hid_t file = H5Fcreate(path.c_str(), flags, H5P_DEFAULT, fapl.get());
  if (file < 0) {
    const std::string detail = h5::errorDetail();
    throw ResultsFileError(fmt::format("cannot create {}{}{}", path, detail.empty() ? "" : ": ", detail));
  }
  h5::Handle handle(file);
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

h5::Handle openFile(const std::string& path, unsigned flags) {
  const h5::Handle fapl = h5::fileAccess();
  const hid_t file = H5Fopen(path.c_str(), flags, fapl.get());
  if (file < 0) {
    const std::string detail = h5::errorDetail();
    if (detail.find("unable to lock file") != std::string::npos) throwInUse(path);
    throw ResultsFileError(fmt::format("cannot open {}{}{}", path, detail.empty() ? "" : ": ", detail));
  }
  return h5::Handle(file);
}

void requireRegularFile(const std::string& path, std::string_view verb) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    throw ResultsFileError(fmt::format("cannot {} {}: {}", verb, path, describeErrno(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    throw ResultsFileError(fmt::format("{} is {}, not a results file: cannot {} it", path,
                                       S_ISDIR(st.st_mode)    ? "a directory"
                                       : S_ISLNK(st.st_mode)  ? "a symbolic link"
                                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                                                              : "not a regular file",
                                       verb));
  }
}

void checkAppendable(const std::string& path) {
  requireRegularFile(path, "append to");
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    throw ResultsFileError(
        fmt::format("{} is not an mdbench results file (not an HDF5 file): cannot append to it", path));
  }
  {
    const h5::Handle file = openFile(path, H5F_ACC_RDONLY);
    const std::string problem = results::rootProblem(file.get(), path, "writes");
    if (!problem.empty()) throw ResultsFileError(fmt::format("{}: cannot append to it", problem));
  }
  if (const ValidationResult valid = validateResultsFile(path); !valid.ok) {
    throw ResultsFileError(fmt::format(
        "{} is not a valid results file ({}): nothing is added to it; `mdbench validate {}` says more", path,
        valid.first_problem, path));
  }
}

// Opens an existing results file for appending. Checks it read-only first, so that a file that is not
// ours is never opened for writing (which can rewrite its superblock).
h5::Handle openForAppend(const std::string& path) {
  checkAppendable(path);
  return openFile(path, H5F_ACC_RDWR);
}

namespace {
int lastErrno() { return errno != 0 ? errno : EIO; }
}  // namespace

bool noRoom(int err) { return err == ENOSPC || err == EDQUOT; }

// The descriptor behind a file opened with the default (sec2) driver; -1 with any other driver.
int descriptorOf(hid_t file) {
  const h5::Handle fapl(H5Fget_access_plist(file));
  void* handle = nullptr;
  if (!fapl.valid() || H5Pget_driver(fapl.get()) != H5FD_SEC2) return -1;
  if (H5Fget_vfd_handle(file, fapl.get(), &handle) < 0 || handle == nullptr) return -1;
  return *static_cast<int*>(handle);
}

// Allocates every block of the file up to its end plus `bytes` (holes included) without changing its size,
// so the next write step cannot run out of space halfway. 0, or ENOSPC / EDQUOT when there is no room; a
// file system without fallocate gets no such guarantee (0).
// A file size limit (RLIMIT_FSIZE) counts as no room too (EFBIG); where fallocate is not supported, the
// file system's free space is checked instead.
int reserveSpace(int fd, std::uint64_t bytes) {
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) return 0;
  const std::uint64_t end = static_cast<std::uint64_t>(st.st_size) + bytes;
  rlimit limit{};
  if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && end > limit.rlim_cur) {
    return EFBIG;
  }
  if (::fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(end)) == 0) return 0;
  const int err = lastErrno();
  if (noRoom(err)) return err;
  struct statvfs fs {};
  if (::fstatvfs(fd, &fs) == 0 && static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize < bytes)
    return ENOSPC;
  return 0;
}

// Gives back what reserveSpace allocated past the end (truncating to the same size frees it on ext4, XFS,
// tmpfs).
void releaseSpace(int fd) {
  struct stat st {};
  if (fd >= 0 && ::fstat(fd, &st) == 0) static_cast<void>(::ftruncate(fd, st.st_size));
}

// Creates `path` as a new results file: it must not exist (exists_error otherwise). It is ours from the
// O_EXCL create on, so every later failure removes it again. Room for the header is checked first, so that
// a full file system is reported plainly (ENOSPC) and HDF5 never half-creates the file.
h5::Handle createNewFile(const std::string& path, std::uint64_t header_bytes, bool& exists_error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int err = lastErrno();
    exists_error = err == EEXIST;
    if (exists_error) {
      throw ResultsFileError(
          fmt::format("{} exists: use --append to add this run to it, or --force to replace it", path));
    }
    throw ResultsFileError(fmt::format("cannot create {}: {}", path, describeErrno(err)));
  }
  const int err = ::fallocate(fd, 0, 0, static_cast<off_t>(header_bytes)) == 0 ? 0 : lastErrno();
  ::close(fd);
  if (noRoom(err)) {
    std::remove(path.c_str());
    throw ResultsFileError(fmt::format("cannot create {}: {}", path, describeErrno(err)));
  }
  try {
    return createFile(path, H5F_ACC_TRUNC);
  } catch (const ResultsFileError&) {
    std::remove(path.c_str());
    throw;
  }
}

}  // namespace results

}  // namespace mdbench
