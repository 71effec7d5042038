// The POSIX backend. Each operation is the shortest syscall sequence that does it: no allocation, no
// formatting, errno returned as the status. Two path styles (posix_backend.hpp): this file has the dirfd
// style (O_NOFOLLOW / AT_SYMLINK_NOFOLLOW on every name, relative to directory descriptors) and what both
// styles share; posix_full.cpp has the full style's operations.
#include "mdbench/backend/posix_backend.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE (glibc 2.28+, _GNU_SOURCE)
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <utility>

#include "mdbench/model/layout.hpp"
#include "posix_calls.hpp"

namespace mdbench {
namespace posix {

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

int typeError(const struct stat& st, EntryType want) {
  if (want == EntryType::kDir) return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
  if (S_ISREG(st.st_mode)) return 0;
  return S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
}

int checkType(int dir_fd, const char* name, EntryType want) {
  struct stat st;
  if (::fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return lastError();
  return typeError(st, want);
}

int checkCreated(int fd, std::size_t size) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return lastError();
  if (const int err = typeError(st, EntryType::kFile); err != 0) return err;
  if (st.st_nlink != 1) return EMLINK;
  return static_cast<std::uint64_t>(st.st_size) == size ? 0 : EBADMSG;
}

int closeAfter(int fd, int op_err) {
  const int close_err = ::close(fd) == 0 ? 0 : lastError();
  return op_err != 0 ? op_err : close_err;
}

std::span<std::byte> AlignedBuffer::first(std::size_t n) {
  constexpr std::size_t kAlign = 4096;
  if (n > size_) {
    const std::size_t size = (n + kAlign - 1) / kAlign * kAlign;
    void* p = nullptr;
    if (::posix_memalign(&p, kAlign, size) != 0) return {};
    data_.reset(static_cast<std::byte*>(p));
    size_ = size;
  }
  return {data_.get(), n};
}

int dataFlags(const PosixOptions& posix) { return posix.odirect ? O_DIRECT : 0; }

namespace {

// --posix.rangelocks: the range [0, length) of fd, locked (F_SETLKW, waiting) or unlocked.
int rangeLock(int fd, std::size_t length, short type) {
  struct flock lock {};
  lock.l_whence = SEEK_SET;
  lock.l_start = 0;
  lock.l_len = static_cast<off_t>(length);
  lock.l_type = type;
  while (::fcntl(fd, type == F_UNLCK ? F_SETLK : F_SETLKW, &lock) != 0) {
    if (errno != EINTR) return lastError();
  }
  return 0;
}

// The transfer between the lock and the unlock when --posix.rangelocks asks for them.
template <typename Transfer>
int locked(int fd, std::size_t length, short type, const PosixOptions& posix, Transfer transfer) {
  if (!posix.rangelocks || length == 0) return transfer();
  if (const int err = rangeLock(fd, length, type); err != 0) return err;
  const int err = transfer();
  const int unlock_err = rangeLock(fd, length, F_UNLCK);
  return err != 0 ? err : unlock_err;
}

}  // namespace

int writeData(int fd, std::span<const std::byte> data, const PosixOptions& posix, AlignedBuffer& scratch) {
  return locked(fd, data.size(), F_WRLCK, posix, [&] {
    if (!posix.odirect || data.empty()) return writeAll(fd, data);
    const std::span<std::byte> aligned = scratch.first(data.size());
    if (aligned.empty()) return ENOMEM;
    std::memcpy(aligned.data(), data.data(), data.size());
    return writeAll(fd, aligned);
  });
}

int readData(int fd, std::span<std::byte> buf, const PosixOptions& posix, AlignedBuffer& scratch) {
  return locked(fd, buf.size(), F_RDLCK, posix, [&] {
    if (!posix.odirect || buf.empty()) return readFull(fd, buf);
    const std::span<std::byte> aligned = scratch.first(buf.size());
    if (aligned.empty()) return ENOMEM;
    const int err = readFull(fd, aligned);
    if (err == 0) std::memcpy(buf.data(), aligned.data(), buf.size());
    return err;
  });
}

int verifyWritten(int fd, std::span<const std::byte> data, AlignedBuffer& scratch) {
  const std::span<std::byte> back = scratch.first(data.size());
  if (back.empty()) return ENOMEM;
  back[0] = ~data[0];  // as mdtest spoils its buffer: a read that returns nothing cannot pass
  if (::lseek(fd, 0, SEEK_SET) != 0) return lastError();
  const int err = readFull(fd, back);
  if (err == ENODATA) return EBADMSG;
  if (err != 0) return err;
  return std::memcmp(back.data(), data.data(), data.size()) == 0 ? 0 : EBADMSG;
}

// rename(2) never follows symlinks, but would move a link planted under a generated name: the type of
// `from` is checked first, so only what mdbench made is renamed.
int renameChecked(const RenameEnds& ends, EntryType type, bool* refused) {
  if (const int err = checkType(ends.from_fd, ends.from, type); err != 0) return err;
  return renameNoReplace(ends, refused);
}

int renameNoReplace(const RenameEnds& ends, bool* refused) {
  const auto [from_fd, from, to_fd, to] = ends;
  int err = EINVAL;
  if (refused == nullptr || !*refused) {
    if (::renameat2(from_fd, from, to_fd, to, RENAME_NOREPLACE) == 0) return 0;
    err = lastError();
  }
  // EINVAL / ENOSYS: the file system (or kernel) does not support RENAME_NOREPLACE (e.g. older NFS). linkat
  // + unlinkat would be atomic but cannot move directories, so check then rename instead. Small race: an
  // entry created as `to` between the fstatat and the renameat is replaced; within one run no two ranks
  // rename onto the same name, so only an outside process could cause it. An EINVAL that is a real error
  // (e.g. `from` is ".") comes back from the plain renameat below.
  if (err != EINVAL && err != ENOSYS) return err;
  struct stat st;
  if (::fstatat(to_fd, to, &st, AT_SYMLINK_NOFOLLOW) == 0) return EEXIST;
  if (errno != ENOENT) return lastError();
  if (::renameat(from_fd, from, to_fd, to) != 0) return lastError();
  if (refused != nullptr) *refused = true;  // the plain rename did it: the flag, not the names, was refused
  return 0;
}

}  // namespace posix

namespace {

using posix::closeAfter;
using posix::lastError;
using posix::typeError;

constexpr int kDirOpenFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
constexpr int kCreateFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
// --verify-write reads the file back through the descriptor it wrote with.
constexpr int kCreateVerifyFlags = (kCreateFlags & ~O_WRONLY) | O_RDWR;
// -S's ranks that did not create a shared name open it after its creator did: never O_CREAT (a name that is
// gone stays gone), O_NOFOLLOW (a symlink fails with ELOOP), O_NONBLOCK (a FIFO fails with ENXIO instead of
// waiting for a reader), and no O_TRUNC: the checks on the descriptor come before any byte is written.
constexpr int kOpenCreatedFlags = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
constexpr int kOpenCreatedVerifyFlags = (kOpenCreatedFlags & ~O_WRONLY) | O_RDWR;
// A fresh descriptor for listing, so the caller's descriptor keeps its own offset ("." is never a symlink).
constexpr int kListFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
// getdents64 buffer on the stack: a few hundred names per call, far below any thread's stack limit.
constexpr std::size_t kDirentBufferBytes = 32 * 1024;
// O_NONBLOCK: a FIFO planted under a generated name opens at once (and is refused by type) instead of
// blocking the rank until a writer comes; it changes nothing for regular files.
constexpr int kReadFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
constexpr mode_t kDirMode = 0777;   // the umask applies
constexpr mode_t kFileMode = 0666;  // the umask applies

// A negative handle must never reach the *at() calls: AT_FDCWD (-100) would silently mean the cwd.
constexpr bool usable(DirHandle dir) { return dir.value >= 0; }
constexpr int fdOf(DirHandle dir) { return static_cast<int>(dir.value); }

// The root path as the full style joins names to it: without trailing slashes ("/" stays "/").
std::string trimmed(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

}  // namespace

const PosixOptions& PosixBackend::dataOptions(const char* name) const {
  const std::string_view n(name);
  return n == kTakenName || n == kTakenTempName ? record_options_ : options_;
}

std::unique_ptr<PosixBackend> PosixBackend::open(const std::string& root_path, const PosixOptions& options,
                                                 int& err) {
  const int fd = ::open(root_path.c_str(), kDirOpenFlags);
  if (fd < 0) {
    err = lastError();
    return nullptr;
  }
  std::unique_ptr<PosixBackend> backend(new (std::nothrow) PosixBackend(fd, trimmed(root_path), options));
  if (!backend) {
    ::close(fd);
    err = ENOMEM;
    return nullptr;
  }
  err = 0;
  return backend;
}

PosixBackend::PosixBackend(int root_fd, std::string root_path, const PosixOptions& options)
    : root_fd_(root_fd), options_(options), record_options_(options) {
  record_options_.odirect = false;
  record_options_.rangelocks = false;
  dir_paths_.resize(static_cast<std::size_t>(root_fd) + 1);
  dir_paths_[static_cast<std::size_t>(root_fd)] = std::move(root_path);
}

PosixBackend::~PosixBackend() {
  if (root_fd_ >= 0) ::close(root_fd_);
}

DirHandle PosixBackend::root() const { return DirHandle{root_fd_}; }

const char* PosixBackend::pathIn(DirHandle dir, const char* name, std::string& out) const {
  if (!usable(dir) || static_cast<std::size_t>(dir.value) >= dir_paths_.size()) return nullptr;
  const std::string& parent = dir_paths_[static_cast<std::size_t>(dir.value)];
  if (parent.empty()) return nullptr;
  out.assign(parent);
  if (parent != "/") out.push_back('/');
  out.append(name);
  return out.c_str();
}

// Both styles open each directory once, by descriptor, never through a link: the full style keeps the
// descriptor for what works on a directory (listing, marks, cleanup) and its path for the item operations.
int PosixBackend::openDir(DirHandle parent, const char* name, DirHandle& out) {
  out = DirHandle{};
  if (!usable(parent)) return EBADF;
  const int fd = ::openat(fdOf(parent), name, kDirOpenFlags);
  if (fd < 0) return lastError();
  if (full()) {
    std::string path;
    if (pathIn(parent, name, path) == nullptr) return closeAfter(fd, EBADF);
    // No call can name anything below a directory whose path is PATH_MAX long: refuse it here, so that the
    // paths kept per open directory stay bounded (a tree deeper than that would cost depth squared).
    if (path.size() >= PATH_MAX) return closeAfter(fd, ENAMETOOLONG);
    const auto slot = static_cast<std::size_t>(fd);
    if (slot >= dir_paths_.size()) dir_paths_.resize(slot + 1);
    dir_paths_[slot].assign(path);  // keeps the slot's capacity when the descriptor number comes back
  }
  out = DirHandle{fd};
  return 0;
}

int PosixBackend::closeDir(DirHandle dir) {
  // The root descriptor belongs to the backend (closed by the destructor), not to the caller.
  if (!usable(dir) || dir.value == root_fd_) return EBADF;
  listings_.forget(fdOf(dir));
  if (static_cast<std::size_t>(dir.value) < dir_paths_.size())
    dir_paths_[static_cast<std::size_t>(dir.value)].clear();
  return ::close(fdOf(dir)) == 0 ? 0 : lastError();
}

int PosixBackend::makeDir(DirHandle parent, const char* name) {
  if (full()) {
    const char* path = pathIn(parent, name, path_);
    return path == nullptr ? EBADF : posix::fullMakeDir(path);
  }
  if (!usable(parent)) return EBADF;
  return ::mkdirat(fdOf(parent), name, kDirMode) == 0 ? 0 : lastError();
}

// unlinkat(AT_REMOVEDIR) already refuses a symlink (ENOTDIR) and anything that is not a directory.
int PosixBackend::removeDir(DirHandle parent, const char* name) {
  if (full()) {
    const char* path = pathIn(parent, name, path_);
    return path == nullptr ? EBADF : posix::fullRemoveDir(path);
  }
  if (!usable(parent)) return EBADF;
  return ::unlinkat(fdOf(parent), name, AT_REMOVEDIR) == 0 ? 0 : lastError();
}

int PosixBackend::createFile(DirHandle parent, const char* name, std::span<const std::byte> data,
                             CreateOptions options) {
  if (full()) {
    const char* path = pathIn(parent, name, path_);
    return path == nullptr ? EBADF : posix::fullCreate(path, data, options, dataOptions(name), data_buf_);
  }
  if (!usable(parent)) return EBADF;
  return createAt(fdOf(parent), name, data, options);
}

int PosixBackend::createAt(int dir_fd, const char* name, std::span<const std::byte> data,
                           CreateOptions options) {
  const bool created = options.mode == CreateMode::kExclusive;
  if (created && options_.make_node && data.empty()) {
    if (::mknodat(dir_fd, name, S_IFREG | kFileMode, 0) != 0) return lastError();
    if (options.made != nullptr) *options.made = true;
    return 0;
  }
  const bool verify = options_.verify_write && !data.empty();
  const int flags = created ? (verify ? kCreateVerifyFlags : kCreateFlags)
                            : (verify ? kOpenCreatedVerifyFlags : kOpenCreatedFlags);
  const PosixOptions& data_options = dataOptions(name);
  const int fd = ::openat(dir_fd, name, flags | posix::dataFlags(data_options), kFileMode);
  if (fd < 0) return lastError();
  int err = created ? 0 : posix::checkCreated(fd, data.size());
  if (err == 0 && options.made != nullptr) *options.made = true;
  if (err == 0) err = posix::writeData(fd, data, data_options, data_buf_);
  if (err == 0 && options.fsync && ::fsync(fd) != 0) err = lastError();
  if (err == 0 && verify) err = posix::verifyWritten(fd, data, data_buf_);
  return closeAfter(fd, err);
}

int PosixBackend::statEntry(DirHandle parent, const char* name, bool is_dir) {
  const EntryType type = is_dir ? EntryType::kDir : EntryType::kFile;
  if (full()) {
    const char* path = pathIn(parent, name, path_);
    return path == nullptr ? EBADF : posix::fullStat(path, type);
  }
  if (!usable(parent)) return EBADF;
  return posix::checkType(fdOf(parent), name, type);
}

int PosixBackend::readFile(DirHandle parent, const char* name, std::span<std::byte> buf) {
  if (full()) {
    const char* path = pathIn(parent, name, path_);
    return path == nullptr ? EBADF : posix::fullRead(path, buf, dataOptions(name), data_buf_);
  }
  if (!usable(parent)) return EBADF;
  const PosixOptions& data_options = dataOptions(name);
  const int fd = ::openat(fdOf(parent), name, kReadFlags | posix::dataFlags(data_options));
  if (fd < 0) return lastError();
  struct stat st;
  int err = ::fstat(fd, &st) == 0 ? typeError(st, EntryType::kFile) : lastError();
  if (err == 0) err = posix::readData(fd, buf, data_options, data_buf_);
  return closeAfter(fd, err);
}

// The type is checked first: unlinkat would remove a symlink, FIFO or socket planted under a file's name
// as readily as the file; inside a file-remove phase by the directory's one listing (needsTypeCheck), else
// by fstatat. (Something swapped in after the check by another process is not caught: POSIX has no
// unlink-if-regular.) A directory needs no check: unlink refuses it (EISDIR).
int PosixBackend::unlinkFile(DirHandle parent, const char* name) {
  if (!usable(parent)) return EBADF;
  const bool check = needsTypeCheck(fdOf(parent), name);
  if (full()) {
    const char* path = pathIn(parent, name, path_);
    return path == nullptr ? EBADF : posix::fullUnlink(check ? fdOf(parent) : -1, name, path);
  }
  if (check) {
    if (const int err = posix::checkType(fdOf(parent), name, EntryType::kFile); err != 0) return err;
  }
  return ::unlinkat(fdOf(parent), name, 0) == 0 ? 0 : lastError();
}

// As unlinkFile: the type of `from` is checked first (rename would move a planted link or FIFO as readily),
// inside a rename phase by the directory's one listing (needsTypeCheck), else by fstatat.
int PosixBackend::moveEntry(DirHandle from_dir, const char* from, DirHandle to_dir, const char* to,
                            EntryType type) {
  if (!usable(from_dir) || !usable(to_dir)) return EBADF;
  const bool check = needsTypeCheck(fdOf(from_dir), from);
  if (full()) {
    const char* from_path = pathIn(from_dir, from, path_);
    const char* to_path = pathIn(to_dir, to, path_to_);
    if (from_path == nullptr || to_path == nullptr) return EBADF;
    return posix::fullRename(check ? fdOf(from_dir) : -1, from, from_path, to_path, type,
                             &noreplace_refused_);
  }
  const posix::RenameEnds ends{fdOf(from_dir), from, fdOf(to_dir), to};
  if (!check) return posix::renameNoReplace(ends, &noreplace_refused_);
  return posix::renameChecked(ends, type, &noreplace_refused_);
}

namespace {

// Calls visit(name, d_type) for every entry of the directory `dir_fd` but "." and "..", through a descriptor
// of its own (the caller's keeps its offset). Returns 0 or the errno of the listing.
template <class Visit>
int forEachEntry(int dir_fd, Visit&& visit) {
  const int fd = ::openat(dir_fd, ".", kListFlags);
  if (fd < 0) return lastError();
  // The kernel's records have glibc's struct dirent64 layout up to d_name, but are only d_reclen long (d_name
  // is not 256 bytes), so read the fields by offset rather than through a dirent64 pointer.
  constexpr std::size_t kReclenOffset = offsetof(struct dirent64, d_reclen);
  constexpr std::size_t kTypeOffset = offsetof(struct dirent64, d_type);
  constexpr std::size_t kNameOffset = offsetof(struct dirent64, d_name);
  alignas(8) char buf[kDirentBufferBytes];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return closeAfter(fd, lastError());
    }
    if (n == 0) break;
    for (std::size_t pos = 0; pos < static_cast<std::size_t>(n);) {
      decltype(dirent64::d_reclen) reclen;
      std::memcpy(&reclen, buf + pos + kReclenOffset, sizeof reclen);
      const auto type = static_cast<unsigned char>(buf[pos + kTypeOffset]);
      const std::string_view name(buf + pos + kNameOffset);  // NUL-terminated within the record
      pos += reclen;
      if (name != "." && name != "..") visit(name, type);
    }
  }
  return closeAfter(fd, 0);
}

}  // namespace

int PosixBackend::countEntries(DirHandle dir, std::span<const std::string_view> prefixes,
                               std::span<std::uint64_t> counts, std::uint64_t& total) {
  total = 0;
  if (counts.size() != prefixes.size()) return EINVAL;
  for (std::uint64_t& c : counts) c = 0;
  if (!usable(dir)) return EBADF;
  return forEachEntry(fdOf(dir), [&](std::string_view name, unsigned char) {
    ++total;
    for (std::size_t k = 0; k < prefixes.size(); ++k) {
      if (name.starts_with(prefixes[k])) ++counts[k];
    }
  });
}

void PosixBackend::beginTypeChecks(EntryType type) { listings_.begin(type); }

void PosixBackend::endTypeChecks() { listings_.end(); }

namespace {

// The directory's identity on this node and every other: "dev:ino" ("" when fstat fails).
std::string dirKey(int dir_fd) {
  struct stat st;
  if (::fstat(dir_fd, &st) != 0) return {};
  return std::to_string(st.st_dev) + ':' + std::to_string(st.st_ino);
}

// The names of `dir_fd` whose type is not `type`'s, or check_all when the file system gives no types.
// Returns 0 or the errno of the listing.
int listSuspects(int dir_fd, EntryType type, TypeListings::Listed& listed) {
  const unsigned char expected = type == EntryType::kDir ? DT_DIR : DT_REG;
  return forEachEntry(dir_fd, [&](std::string_view entry, unsigned char found) {
    if (listed.check_all || found == expected) return;
    if (found == DT_UNKNOWN) {  // a file system without d_type: every name is checked, as outside a batch
      listed.check_all = true;
      listed.suspects.clear();
      return;
    }
    listed.suspects.emplace(entry);  // a link, FIFO, socket, device or entry of the other kind
  });
}

}  // namespace

// Keyed by the directory's "dev:ino", the same on every node.
int PosixBackend::listTypes(DirHandle dir, EntryType type, std::string& out) {
  if (!usable(dir)) return EBADF;
  const std::string key = dirKey(fdOf(dir));
  if (key.empty()) return lastError();
  TypeListings::Listed listed;
  const int err = listSuspects(fdOf(dir), type, listed);
  if (err != 0) listed.check_all = true;
  TypeListings::append(out, key, listed);
  return err;
}

void PosixBackend::adoptListings(std::string_view listings) { listings_.adopt(listings); }

bool PosixBackend::needsTypeCheck(int dir_fd, const char* name) {
  return listings_.needsCheck(
      dir_fd, name, [dir_fd] { return dirKey(dir_fd); },
      [dir_fd](EntryType type, TypeListings::Listed& listed) { return listSuspects(dir_fd, type, listed); });
}

// -Y: sync(2), as mdtest's POSIX backend (which runs the sync command: the same call, without the fork), or
// syncfs(2) on the root's file system alone.
int PosixBackend::syncFileSystem() {
  if (options_.sync == SyncCall::kSync) {
    ::sync();
    return 0;
  }
  return ::syncfs(root_fd_) == 0 ? 0 : lastError();
}

}  // namespace mdbench
