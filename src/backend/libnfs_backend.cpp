// The NFS backend over libnfs (libnfs_backend.hpp). Per operation, mdtest 4.1's calls (aiori-LIBNFS.c
// LIBNFS_Create / _Open / _Xfer / _Close / _Remove / _MakeDirectory / _RemoveDirectory / _Stat, as mdtest.c
// calls them) on the item's path inside the export, and what mdbench's promises add:
//   create    nfs_open2(path, O_WRONLY|O_CREAT|O_EXCL, 0664) [nfs_write] [nfs_fsync] nfs_close. v3 and
//             v4 both refuse an existing name, a symlink included (EEXIST). Over v3 that is one GUARDED
//             CREATE; over v4 libnfs sends EXCLUSIVE4 and then a SETATTR of the mode. Where libnfs makes a
//             plain O_CREAT an EXCLUSIVE4 create too (<= 5.0.3; prepareCreates asks, on the run's mark),
//             the v4 create is mdtest's call, O_CREAT alone: exclusive, no SETATTR (docs/libnfs.md).
//   -S open   nfs_open(path, O_WRONLY|O_NOFOLLOW), nfs_fstat64: a regular file, one link, the size
//             written, or EINVAL / EMLINK / EBADMSG and nothing written (backend.hpp kOpenCreated).
//   stat      nfs_lstat64(path) (mdtest: nfs_stat64, which follows a symlink), then the type must be the
//             item's.
//   read      nfs_open(path, O_RDONLY|O_NOFOLLOW) [nfs_pread] nfs_close; over v3 the type check below
//             first (v4's OPEN refuses a directory, a symlink or a special file itself).
//   mkdir     nfs_mkdir2(path, 0775); EEXIST on any existing entry.
//   rmdir     the type check, then nfs_rmdir(path): over NFSv4, libnfs's rmdir of a file (and unlink of a
//             directory) removes the entry without an error, so the type must be known first.
//   unlink    the type check, then nfs_unlink(path).
//   rename    the type check of the old name, then nfs_lstat64(new) must say ENOENT (else EEXIST), then
//             nfs_rename(old, new): NFS's RENAME replaces an existing target, so an entry made under the new
//             name by another client between the lookup and the rename is replaced (the window is one
//             round trip; no client of a run makes a name another one renames to). mdtest's LIBNFS has no
//             rename.
//   count     nfs_opendir (libnfs reads the whole directory), nfs_readdir until NULL, nfs_closedir.
//   -Y        libnfs has no sync call (mdtest refuses -Y too); -y nfs_fsync before the close.
// The type check: in a phase that brackets its calls (beginTypeChecks: read over v3, dir-remove,
// file-remove, renames), each directory is listed once (nfs_opendir, READDIRPLUS's types), before the
// phase's opening barrier (listTypes; checksTypesByListing names these calls), and only a name listed with
// another type is checked by nfs_lstat64; elsewhere every name is. Errors are
// libnfs's negative returns, negated into errno values; a call the server did not answer in time is
// ETIMEDOUT, and after LibnfsOptions::kMaxTimeouts of them in a row every later call fails at once (a server
// that is gone costs three timeouts, not one per item); so after as many EIOs in a row (a server restarted
// under the client: its NFSv4 session is gone). A lost client is made anew at most once a second, so that
// a server that comes back (a failover) is used again; the calls that failed stay failed. A client idle long
// enough for its NFSv4 lease to lapse is made anew before its next call (refresh).
#include "mdbench/backend/libnfs_backend.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <nfsc/libnfs.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <new>
#include <thread>
#include <utility>

#include "libnfs_client.hpp"
#include "mdbench/backend/cleanup.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/util/errno_name.hpp"
#include "remote_paths.hpp"

namespace mdbench {
namespace {

constexpr int kDirMode = 0775;   // mdtest's DIRMODE
constexpr int kFileMode = 0664;  // mdtest's LIBNFS_Create mode
constexpr int kCreateFlags = O_WRONLY | O_CREAT | O_EXCL;
constexpr int kPlainCreateFlags = O_WRONLY | O_CREAT;  // mdtest's; exclusive only where prepareCreates says
constexpr int kOpenCreatedFlags = O_WRONLY | O_NOFOLLOW;
constexpr int kReadFlags = O_RDONLY | O_NOFOLLOW;

int negated(int ret) { return ret < 0 ? -ret : 0; }

int typeError(unsigned mode, EntryType want) {
  if (want == EntryType::kDir) return S_ISDIR(mode) ? 0 : ENOTDIR;
  if (S_ISREG(mode)) return 0;
  return S_ISDIR(mode) ? EISDIR : EINVAL;
}

// A listed entry's type bits: READDIRPLUS's mode when it carries them, else its NFS file type (RFC 1813
// ftype3, the same numbers as NFSv4's nfs_ftype4); 0 when the server sent neither.
unsigned direntMode(const nfsdirent& entry) {
  if ((entry.mode & S_IFMT) != 0) return entry.mode;
  switch (entry.type) {
    case 0:
      return 0;
    case 1:
      return S_IFREG;
    case 2:
      return S_IFDIR;
    case 5:
      return S_IFLNK;
    default:
      return S_IFIFO;  // a device, socket or FIFO: none of mdbench's types
  }
}

// A directory listing, closed when it goes.
class NfsDir {
 public:
  NfsDir(nfs_context* nfs, const std::string& path) : nfs_(nfs) {
    err_ = negated(nfs_opendir(nfs, path.c_str(), &dir_));
  }
  ~NfsDir() {
    if (dir_ != nullptr) nfs_closedir(nfs_, dir_);
  }
  NfsDir(const NfsDir&) = delete;
  NfsDir& operator=(const NfsDir&) = delete;
  int error() const { return err_; }
  // The next entry (not "." or ".."), or nullptr at the end.
  const nfsdirent* next() {
    while (dir_ != nullptr) {
      const nfsdirent* entry = nfs_readdir(nfs_, dir_);
      if (entry == nullptr) return nullptr;
      if (std::strcmp(entry->name, ".") != 0 && std::strcmp(entry->name, "..") != 0) return entry;
    }
    return nullptr;
  }

 private:
  nfs_context* nfs_;
  nfsdir* dir_ = nullptr;
  int err_ = 0;
};

std::string versionOf(const std::string& url) {
  const std::size_t at = url.find("version=");
  if (at == std::string::npos || (at > 0 && url[at - 1] != '?' && url[at - 1] != '&')) return "3";
  return url.substr(at + 8,
                    url.find('&', at) == std::string::npos ? std::string::npos : url.find('&', at) - at - 8);
}

// Unique among the clients of the job: host, process, and the context's number in the process.
std::string clientName() {
  static std::atomic<unsigned> made{0};
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) != 0) host[0] = '\0';
  return fmt::format("mdbench {} {} {} {}", host.data(), static_cast<long>(getpid()), made++,
                     std::chrono::steady_clock::now().time_since_epoch().count());
}

}  // namespace

std::string libnfsDescription(const std::string& url) {
  return fmt::format("NFSv{} (libnfs)", versionOf(url));
}

nfs_context* mountLibnfs(const LibnfsOptions& options, LibnfsOpenError& error) {
  if (options.url.empty()) {
    error = {EINVAL, "-a LIBNFS needs --libnfs.url=nfs://SERVER/EXPORT/ (with ?version=4 for NFSv4)"};
    return nullptr;
  }
  nfs_context* nfs = nfs_init_context();
  if (nfs == nullptr) {
    error = {ENOMEM, "-a LIBNFS: cannot make a libnfs client (out of memory)"};
    return nullptr;
  }
  nfs_set_timeout(nfs, static_cast<int>(options.timeout_s * 1000));
  // No directory cache: a listing (the type checks') must not answer a later look-up in its place (what was
  // swapped in since is to be seen), and a cached directory is searched on the client at every call in it.
  nfs_set_dircache(nfs, 0);
  // Every client its own NFSv4 client id: libnfs's default is the same for every context of a process, so
  // rank 0's second client (its storage's beside its backend's) would take over the first's id and the
  // server expire the first's state (NFS4ERR_EXPIRED at its next OPEN).
  nfs4_set_client_name(nfs, clientName().c_str());
  nfs_url* url = nfs_parse_url_full(nfs, options.url.c_str());
  if (url == nullptr) {
    error = {EINVAL, fmt::format("--libnfs.url {}: not an NFS URL libnfs reads ({}); the form is "
                                 "nfs://SERVER/EXPORT/?version=4",
                                 options.url, nfs_get_error(nfs))};
    nfs_destroy_context(nfs);
    return nullptr;
  }
  // nfs_parse_url_full splits off the last component as a file: only "/" (the URL ends with '/') leaves
  // the whole path as the export, as mdtest needs too.
  const std::string file = url->file != nullptr ? url->file : "";
  const std::string server = url->server != nullptr ? url->server : "";
  const std::string export_path = url->path != nullptr ? url->path : "";
  nfs_destroy_url(url);
  if (file != "/" || server.empty()) {
    error = {EINVAL,
             fmt::format("--libnfs.url {}: {}; the form is nfs://SERVER/EXPORT/?version=4", options.url,
                         server.empty() ? "no server" : "the export path must end with '/'")};
    nfs_destroy_context(nfs);
    return nullptr;
  }
  if (const int err =
          negated(nfs_mount(nfs, server.c_str(), export_path.empty() ? "/" : export_path.c_str()));
      err != 0) {
    error = {err, fmt::format("-a LIBNFS: cannot mount {} from {} ({}): {} (is the server up, and does it "
                              "export that path to this client?)",
                              export_path.empty() ? "/" : export_path, server, describeErrno(err),
                              nfs_get_error(nfs))};
    nfs_destroy_context(nfs);
    return nullptr;
  }
  return nfs;
}

void unmountLibnfs(nfs_context* nfs) {
  if (nfs != nullptr) nfs_destroy_context(nfs);  // closes the connection; v4 has no unmount call
}

int lstatLibnfs(nfs_context* nfs, const std::string& path, LibnfsEntry& entry) {
  nfs_stat_64 st{};
  if (const int err = negated(nfs_lstat64(nfs, path.c_str(), &st)); err != 0) return err;
  entry.mode = static_cast<unsigned>(st.nfs_mode);
  entry.id = StorageId{st.nfs_dev, st.nfs_ino};
  return 0;
}

int listLibnfs(nfs_context* nfs, const std::string& path, std::vector<std::string>& names) {
  NfsDir dir(nfs, path);
  while (const nfsdirent* entry = dir.next()) names.emplace_back(entry->name);
  return dir.error();
}

std::unique_ptr<LibnfsBackend> LibnfsBackend::open(const std::string& root_path, const LibnfsOptions& options,
                                                   LibnfsOpenError& error) {
  nfs_context* nfs = mountLibnfs(options, error);
  if (nfs == nullptr) return nullptr;
  const std::string path = remotePath(root_path, "");
  LibnfsEntry entry;
  int err = lstatLibnfs(nfs, path, entry);
  if (err == 0 && !S_ISDIR(entry.mode)) err = ENOTDIR;
  if (err != 0) {
    unmountLibnfs(nfs);
    error = {err, fmt::format("-a LIBNFS: {} (in the export of {}) is not a directory there: {}", path,
                              options.url, describeErrno(err))};
    return nullptr;
  }
  std::unique_ptr<LibnfsBackend> backend(new (std::nothrow) LibnfsBackend(nfs, path, options));
  if (!backend) {
    unmountLibnfs(nfs);
    error = {ENOMEM, "-a LIBNFS: out of memory"};
  }
  return backend;
}

LibnfsBackend::LibnfsBackend(nfs_context* nfs, std::string root_path, const LibnfsOptions& options)
    : nfs_(nfs),
      options_(options),
      last_call_(std::chrono::steady_clock::now()),
      create_flags_(kCreateFlags),
      open_refuses_types_(versionOf(options.url) == "4") {
  dir_paths_.push_back(std::move(root_path));
}

LibnfsBackend::~LibnfsBackend() { unmountLibnfs(nfs_); }

int LibnfsBackend::status(int ret) {
  const int err = negated(ret);
  const bool timed_out = err == EINTR || err == ETIMEDOUT;  // libnfs's sync calls say EINTR at the bound
  timeouts_ = timed_out ? timeouts_ + 1 : 0;
  io_errors_ = err == EIO ? io_errors_ + 1 : 0;
  if (timeouts_ >= LibnfsOptions::kMaxTimeouts || io_errors_ >= LibnfsOptions::kMaxTimeouts) {
    dead_ = true;
    lost_at_ = revive_at_ = std::chrono::steady_clock::now();  // the next call tries a new client
  }
  return timed_out ? ETIMEDOUT : err;
}

std::string LibnfsBackend::dirPath(DirHandle dir) const {
  if (dir.value < 0 || static_cast<std::size_t>(dir.value) >= dir_paths_.size()) return {};
  return dir_paths_[static_cast<std::size_t>(dir.value)];
}

void LibnfsBackend::refresh() {
  using Clock = std::chrono::steady_clock;
  const bool lapsed = leaseLapsed(last_call_);
  if (!dead_ && !lapsed) return;
  const auto revive =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(LibnfsOptions::kRevive_s));
  const auto wait = std::chrono::seconds(options_.timeout_s);
  // Lost: the call waits for the server (a failover, a restart) up to the RPC bound from the loss, trying a
  // new client once per kRevive_s, as a hard mount would; after that, one try per kRevive_s and the calls
  // between fail at once (a server that is gone).
  while (dead_ ? Clock::now() >= revive_at_ : lapsed) {
    unmountLibnfs(nfs_);
    LibnfsOpenError error;
    nfs_ = mountLibnfs(options_, error);
    timeouts_ = io_errors_ = 0;
    revive_at_ = Clock::now() + revive;
    const bool was_dead = dead_;
    dead_ = nfs_ == nullptr;
    if (!dead_ || !was_dead || Clock::now() - lost_at_ >= wait) return;
    std::this_thread::sleep_until(revive_at_);
  }
}

const char* LibnfsBackend::pathIn(DirHandle dir, const char* name, std::string& out) {
  refresh();
  const std::string base = dirPath(dir);
  if (base.empty() || dead_) return nullptr;
  out.assign(base);
  if (out.back() != '/') out.push_back('/');
  out.append(name);
  return out.c_str();
}

int LibnfsBackend::openPath(std::string path, DirHandle& out) {
  std::size_t slot = 1;
  while (slot < dir_paths_.size() && !dir_paths_[slot].empty()) ++slot;
  if (slot == dir_paths_.size()) dir_paths_.emplace_back();
  dir_paths_[slot] = std::move(path);
  out = DirHandle{static_cast<std::int64_t>(slot)};
  return 0;
}

int LibnfsBackend::openDir(DirHandle parent, const char* name, DirHandle& out) {
  const char* path = pathIn(parent, name, path_);
  if (path == nullptr) return unusable();
  if (const int err = checkType(path, EntryType::kDir); err != 0) return err;
  return openPath(path_, out);
}

int LibnfsBackend::closeDir(DirHandle dir) {
  if (dir.value <= 0 || static_cast<std::size_t>(dir.value) >= dir_paths_.size() ||
      dir_paths_[static_cast<std::size_t>(dir.value)].empty()) {
    return EBADF;
  }
  dir_paths_[static_cast<std::size_t>(dir.value)].clear();
  listings_.forget(dir.value);
  return 0;
}

int LibnfsBackend::checkType(const char* path, EntryType want) {
  nfs_stat_64 st{};
  if (const int err = status(nfs_lstat64(nfs_, path, &st)); err != 0) return err;
  return typeError(static_cast<unsigned>(st.nfs_mode), want);
}

int LibnfsBackend::makeDir(DirHandle parent, const char* name) {
  const char* path = pathIn(parent, name, path_);
  if (path == nullptr) return unusable();
  return status(nfs_mkdir2(nfs_, path, kDirMode));
}

int LibnfsBackend::removeDir(DirHandle parent, const char* name) {
  const char* path = pathIn(parent, name, path_);
  if (path == nullptr) return unusable();
  if (needsTypeCheck(parent, name)) {
    if (const int err = checkType(path, EntryType::kDir); err != 0) return err;
  }
  return status(nfs_rmdir(nfs_, path));
}

int LibnfsBackend::createFile(DirHandle parent, const char* name, std::span<const std::byte> data,
                              CreateOptions options) {
  const char* path = pathIn(parent, name, path_);
  if (path == nullptr) return unusable();
  const bool created = options.mode == CreateMode::kExclusive;
  const bool verify = options_.verify_write && !data.empty();
  const auto flags = [verify](int base) { return verify ? readBackFlags(base) : base; };
  nfsfh* fh = nullptr;
  const int open_err = status(created ? nfs_open2(nfs_, path, flags(create_flags_), kFileMode, &fh)
                                      : nfs_open(nfs_, path, flags(kOpenCreatedFlags), &fh));
  if (open_err != 0) return open_err;
  int err = 0;
  if (!created) {
    nfs_stat_64 st{};
    err = status(nfs_fstat64(nfs_, fh, &st));
    if (err == 0) err = typeError(static_cast<unsigned>(st.nfs_mode), EntryType::kFile);
    if (err == 0 && st.nfs_nlink != 1) err = EMLINK;
    if (err == 0 && st.nfs_size != data.size()) err = EBADMSG;
  }
  if (err == 0 && options.made != nullptr) *options.made = true;
  if (err == 0 && !data.empty()) {
    const int ret = nfs_write(nfs_, fh, data.size(), data.data());
    err = ret < 0 ? status(ret) : (static_cast<std::size_t>(ret) < data.size() ? EIO : 0);
    if (err == 0 && options.fsync) err = status(nfs_fsync(nfs_, fh));  // -y
    if (err == 0 && verify) {
      err = verifyReadBack(data, verify_buf_, [&](std::size_t offset, std::byte* into, std::size_t count) {
        const int ret = nfs_pread(nfs_, fh, offset, count, into);
        return ret < 0 ? -status(ret) : ret;
      });
    }
  }
  const int close_err = status(nfs_close(nfs_, fh));
  return err != 0 ? err : close_err;
}

void LibnfsBackend::prepareCreates(DirHandle marked_dir) {
  // Over v3 an O_EXCL create is one GUARDED CREATE with the mode: nothing to learn.
  if (create_probed_ || !open_refuses_types_) return;
  std::string mark;
  if (pathIn(marked_dir, std::string(kMarkName).c_str(), mark) == nullptr) return;
  nfsfh* fh = nullptr;
  const int ret = nfs_open2(nfs_, mark.c_str(), kPlainCreateFlags, kFileMode, &fh);
  if (ret == 0) (void)nfs_close(nfs_, fh);  // not exclusive: the mark was opened (no O_TRUNC: unchanged)
  if (ret == -EEXIST) create_flags_ = kPlainCreateFlags;
  create_probed_ = ret == 0 || ret == -EEXIST;  // another error (a server away): asked again next phase
}

int LibnfsBackend::statEntry(DirHandle parent, const char* name, bool is_dir) {
  const char* path = pathIn(parent, name, path_);
  if (path == nullptr) return unusable();
  return checkType(path, is_dir ? EntryType::kDir : EntryType::kFile);
}

int LibnfsBackend::readFile(DirHandle parent, const char* name, std::span<std::byte> buf) {
  const char* path = pathIn(parent, name, path_);
  if (path == nullptr) return unusable();
  // NFSv4's OPEN itself refuses anything but a regular file (RFC 7530 16.16.5: NFS4ERR_ISDIR, else
  // NFS4ERR_SYMLINK), so over v4 a read is mdtest's open and close alone; v3 has no OPEN to refuse.
  if (!open_refuses_types_ && needsTypeCheck(parent, name)) {
    if (const int err = checkType(path, EntryType::kFile); err != 0) return err;
  }
  nfsfh* fh = nullptr;
  if (const int err = status(nfs_open(nfs_, path, kReadFlags, &fh)); err != 0) return err;
  int err = 0;
  std::size_t offset = 0;
  while (err == 0 && offset < buf.size()) {
    const int ret = nfs_pread(nfs_, fh, offset, buf.size() - offset, buf.data() + offset);
    if (ret < 0) err = status(ret);
    if (ret == 0) err = ENODATA;  // the file is shorter than expected
    if (ret > 0) offset += static_cast<std::size_t>(ret);
  }
  const int close_err = status(nfs_close(nfs_, fh));
  return err != 0 ? err : close_err;
}

void LibnfsBackend::beginTypeChecks(EntryType type) { listings_.begin(type); }

void LibnfsBackend::endTypeChecks() { listings_.end(); }

int LibnfsBackend::listSuspects(const std::string& dir_path, EntryType type, TypeListings::Listed& listed) {
  NfsDir list(nfs_, dir_path);
  const unsigned want = type == EntryType::kDir ? S_IFDIR : S_IFREG;
  while (const nfsdirent* entry = list.next()) {
    if ((direntMode(*entry) & S_IFMT) != want) listed.suspects.emplace(entry->name);
  }
  return status(-list.error());
}

// Keyed by the directory's path in the export, the same for every rank's client.
int LibnfsBackend::listTypes(DirHandle dir, EntryType type, std::string& out) {
  refresh();
  const std::string path = dirPath(dir);
  if (path.empty()) return EBADF;
  TypeListings::Listed listed;
  const int err = dead_ ? ETIMEDOUT : listSuspects(path, type, listed);
  if (err != 0) listed.check_all = true;
  TypeListings::append(out, path, listed);
  return err;
}

void LibnfsBackend::adoptListings(std::string_view listings) { listings_.adopt(listings); }

bool LibnfsBackend::needsTypeCheck(DirHandle dir, const char* name) {
  return listings_.needsCheck(
      dir.value, name, [&] { return dirPath(dir); },
      [&](EntryType type, TypeListings::Listed& listed) { return listSuspects(dirPath(dir), type, listed); });
}

int LibnfsBackend::unlinkFile(DirHandle parent, const char* name) {
  const char* path = pathIn(parent, name, path_);
  if (path == nullptr) return unusable();
  if (needsTypeCheck(parent, name)) {
    if (const int err = checkType(path, EntryType::kFile); err != 0) return err;
  }
  return status(nfs_unlink(nfs_, path));
}

int LibnfsBackend::moveEntry(DirHandle from_dir, const char* from, DirHandle to_dir, const char* to,
                             EntryType type) {
  const char* from_path = pathIn(from_dir, from, path_);
  if (from_path == nullptr) return unusable();
  const char* to_path = pathIn(to_dir, to, path_to_);
  if (to_path == nullptr) return unusable();
  if (needsTypeCheck(from_dir, from)) {
    if (const int err = checkType(from_path, type); err != 0) return err;
  }
  nfs_stat_64 st{};
  const int err = status(nfs_lstat64(nfs_, to_path, &st));
  if (err == 0) return EEXIST;  // never replaced (see the race above)
  if (err != ENOENT) return err;
  return status(nfs_rename(nfs_, from_path, to_path));
}

int LibnfsBackend::countEntries(DirHandle dir, std::span<const std::string_view> prefixes,
                                std::span<std::uint64_t> counts, std::uint64_t& total) {
  refresh();
  const std::string path = dirPath(dir);
  if (path.empty() || counts.size() != prefixes.size()) return EBADF;
  if (dead_) return ETIMEDOUT;
  NfsDir list(nfs_, path);
  if (list.error() != 0) return status(-list.error());
  total = 0;
  for (std::uint64_t& count : counts) count = 0;
  while (const nfsdirent* entry = list.next()) {
    ++total;
    const std::string_view name = entry->name;
    for (std::size_t k = 0; k < prefixes.size(); ++k) {
      if (name.starts_with(prefixes[k])) ++counts[k];
    }
  }
  return 0;
}

// The cleanup walk's calls (tree_walk.cpp), on the paths the handles stand for.
int LibnfsBackend::listNames(DirHandle dir, std::vector<std::string>& names) {
  refresh();
  const std::string path = dirPath(dir);
  if (path.empty()) return EBADF;
  return dead_ ? ETIMEDOUT : status(-listLibnfs(nfs_, path, names));
}

int LibnfsBackend::lookUp(DirHandle dir, const char* name, EntryInfo& info) {
  const char* path = pathIn(dir, name, path_);
  if (path == nullptr) return unusable();
  LibnfsEntry entry;
  if (const int err = status(-lstatLibnfs(nfs_, path, entry)); err != 0) return err;
  info.kind = S_ISREG(entry.mode)   ? EntryKind::kFile
              : S_ISDIR(entry.mode) ? EntryKind::kDir
              : S_ISLNK(entry.mode) ? EntryKind::kLink
                                    : EntryKind::kOther;
  info.id = entry.id;
  return 0;
}

int LibnfsBackend::identify(DirHandle dir, StorageId& id) {
  refresh();
  const std::string path = dirPath(dir);
  if (path.empty()) return EBADF;
  if (dead_) return ETIMEDOUT;
  LibnfsEntry entry;
  const int err = status(-lstatLibnfs(nfs_, path, entry));
  if (err == 0) id = entry.id;
  return err;
}

int LibnfsBackend::walkInto(DirHandle dir, const char* name, DirHandle& out) {
  if (std::strcmp(name, "..") != 0) return openDir(dir, name, out);
  const std::string path = dirPath(dir);
  return path.empty() ? EBADF : openPath(remoteParent(path), out);
}

int LibnfsBackend::removeName(DirHandle dir, const char* name, EntryType type) {
  const char* path = pathIn(dir, name, path_);
  if (path == nullptr) return unusable();
  // The walk looked the name up just before (lookUp): the type is known, as the NFSv4 quirk needs.
  return status(type == EntryType::kDir ? nfs_rmdir(nfs_, path) : nfs_unlink(nfs_, path));
}

int writeLibnfsMark(nfs_context* nfs, const std::string& dir_path) {
  LibnfsEntry dir;
  if (const int err = lstatLibnfs(nfs, dir_path, dir); err != 0) return err;
  const std::string text = markText(dir.id.ino);
  const std::string path = dir_path + "/" + std::string(kMarkName);
  nfsfh* fh = nullptr;
  if (const int err = negated(nfs_open2(nfs, path.c_str(), kCreateFlags, 0644, &fh)); err != 0) return err;
  const int wrote = nfs_write(nfs, fh, text.size(), text.data());
  int err = wrote < 0 ? -wrote : (static_cast<std::size_t>(wrote) < text.size() ? EIO : 0);
  if (const int close_err = negated(nfs_close(nfs, fh)); err == 0) err = close_err;
  // O_EXCL made the file: a half-written one is ours to take back, so no torn mark is left.
  if (err != 0) nfs_unlink(nfs, path.c_str());
  return err;
}

MarkKind readLibnfsMark(nfs_context* nfs, const std::string& dir_path) {
  const std::string path = dir_path + "/" + std::string(kMarkName);
  LibnfsEntry mark;
  LibnfsEntry dir;
  if (const int err = lstatLibnfs(nfs, path, mark); err != 0) {
    return err == ENOENT ? MarkKind::kNone : MarkKind::kForeign;
  }
  if (!S_ISREG(mark.mode) || lstatLibnfs(nfs, dir_path, dir) != 0) return MarkKind::kForeign;
  nfsfh* fh = nullptr;
  if (nfs_open(nfs, path.c_str(), kReadFlags, &fh) != 0) return MarkKind::kForeign;
  std::array<char, 128> buf{};
  const int got = nfs_pread(nfs, fh, 0, buf.size(), buf.data());
  nfs_close(nfs, fh);
  if (got < 0) return MarkKind::kForeign;
  return classifyMark(std::string_view(buf.data(), static_cast<std::size_t>(got)), dir.id.ino);
}

int LibnfsBackend::writeMark(DirHandle dir) {
  refresh();
  const std::string dir_path = dirPath(dir);
  if (dir_path.empty()) return EBADF;
  return dead_ ? ETIMEDOUT : status(-writeLibnfsMark(nfs_, dir_path));
}

MarkKind LibnfsBackend::readMark(DirHandle dir) {
  refresh();
  const std::string dir_path = dirPath(dir);
  return dir_path.empty() || dead_ ? MarkKind::kForeign : readLibnfsMark(nfs_, dir_path);
}

}  // namespace mdbench
