// The files a user names: bounded reads of regular files, output names checked before anything is
// written, and new files renamed (or linked) into place, so that a failure never leaves half a file and
// nothing is ever written through a link or into a FIFO, a device or a directory.
#include "mdbench/util/file_io.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <streambuf>

#include "mdbench/util/errno_name.hpp"

namespace mdbench {
namespace {

constexpr std::size_t kChunk = 64 * 1024;
// The temporary's name keeps at most this much of the target's name, so that it fits NAME_MAX (255)
// whatever the target's name: it only has to be recognisable.
constexpr std::size_t kTempStemBytes = 200;

std::string sizeText(std::uint64_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} bytes", bytes);
}

// "a rules file", "an input": the role with its article.
std::string withArticle(std::string_view role) {
  const bool vowel =
      !role.empty() && std::string_view("aeiouAEIOU").find(role.front()) != std::string_view::npos;
  return fmt::format("{} {}", vowel ? "an" : "a", role);
}

std::string tooLarge(const std::string& path, const ReadSpec& spec, std::string_view size) {
  return fmt::format("{} {} is {}, more than the {} {} can be: not {}", spec.role, path, size,
                     sizeText(spec.max_bytes), withArticle(spec.role), withArticle(spec.role));
}

// Reads at most limit bytes more into text; "" or the errno text.
std::string readUpTo(int fd, std::uint64_t limit, std::string& text) {
  std::array<char, kChunk> buffer{};
  std::uint64_t done = 0;
  while (done < limit) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), limit - done));
    const ssize_t n = ::read(fd, buffer.data(), want);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      // A regular file opened with O_NONBLOCK never gives EAGAIN; anything else is a real error.
      return describeErrno(lastErrno());
    }
    text.append(buffer.data(), static_cast<std::size_t>(n));
    done += static_cast<std::uint64_t>(n);
  }
  return {};
}

std::string writeAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return describeErrno(n < 0 ? lastErrno() : EIO);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

std::string parentOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The rename (or link) is only durable once the directory is on disk too; best effort, as some file
// systems refuse fsync on a directory.
void syncParent(const std::string& path) {
  const int fd = ::open(parentOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  static_cast<void>(::fsync(fd));
  ::close(fd);
}

bool linkUnsupported(int err) {
  return err == EPERM || err == ENOTSUP || err == EOPNOTSUPP || err == ENOSYS || err == EMLINK ||
         err == EXDEV;
}

}  // namespace

std::string_view fileKindName(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

FileIdentity identityOf(const struct stat& st) {
  return {st.st_dev, st.st_ino, st.st_size,
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

std::string readRegularFile(const std::string& path, const ReadSpec& spec, std::string& text) {
  const int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (spec.links == Links::kRefuse ? O_NOFOLLOW : 0);
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) {
    const int err = lastErrno();
    struct stat st {};
    if (err == ELOOP && spec.links == Links::kRefuse && ::lstat(path.c_str(), &st) == 0 &&
        S_ISLNK(st.st_mode))
      return fmt::format("{} {} is a symbolic link, not a file", spec.role, path);
    return fmt::format("cannot read {} {}: {}", spec.role, path, describeErrno(err));
  }
  struct stat st {};
  std::string error;
  if (::fstat(fd, &st) != 0) {
    error = fmt::format("cannot read {} {}: {}", spec.role, path, describeErrno(lastErrno()));
  } else if (!S_ISREG(st.st_mode)) {
    error = fmt::format("{} {} is {}, not a file", spec.role, path, fileKindName(st.st_mode));
  } else if (static_cast<std::uint64_t>(st.st_size) > spec.max_bytes) {
    error = tooLarge(path, spec, sizeText(static_cast<std::uint64_t>(st.st_size)));
  } else {
    const std::size_t before = text.size();
    // One byte past the cap tells a file that grew (or whose size lies) from one that fits.
    if (const std::string problem = readUpTo(fd, spec.max_bytes + 1, text); !problem.empty()) {
      error = fmt::format("cannot read {} {}: {}", spec.role, path, problem);
    } else if (text.size() - before > spec.max_bytes) {
      error = tooLarge(path, spec, "larger than its size says");
    }
    if (!error.empty()) text.resize(before);
  }
  ::close(fd);
  return error;
}

OutputCheck checkOutput(const std::string& path, std::string_view role) {
  struct stat st {};
  if (path.empty() || path.back() == '/') {
    return {OutputState::kRefused, fmt::format("{} '{}': not a file name", role, path)};
  }
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISREG(st.st_mode)) return {OutputState::kRegularFile, {}, st.st_mode};
    return {OutputState::kRefused,
            fmt::format("{} {} is {}, not a file", role, path, fileKindName(st.st_mode)), st.st_mode};
  }
  const int err = lastErrno();
  if (err != ENOENT)
    return {OutputState::kRefused, fmt::format("cannot write {} {}: {}", role, path, describeErrno(err))};
  const std::string dir = parentOf(path);
  if (::stat(dir.c_str(), &st) != 0) {
    return {OutputState::kRefused,
            fmt::format("cannot write {} {}: {}", role, path, describeErrno(lastErrno()))};
  }
  if (!S_ISDIR(st.st_mode)) {
    return {OutputState::kRefused, fmt::format("cannot write {} {}: {}", role, path, describeErrno(ENOTDIR))};
  }
  return {OutputState::kAbsent, {}};
}

bool nameExists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

std::string inputFileProblem(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return {};
  return nameExists(path) ? fmt::format("{}: not a regular file", path)
                          : fmt::format("{}: no such file", path);
}

std::string outputIsAnInput(const std::string& output, const std::vector<std::string>& inputs,
                            std::string_view role) {
  struct stat out {};
  if (::stat(output.c_str(), &out) != 0) return {};
  for (const std::string& input : inputs) {
    struct stat in {};
    if (::stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
      return fmt::format(
          "{} {} is also an input ({}): writing it would replace what is read from it; give "
          "another name",
          role, output, input);
    }
  }
  return {};
}

std::string makeDirectories(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  return ec ? fmt::format("cannot create {}: {}", path, ec.message()) : std::string();
}

std::string withoutTrailingSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

std::string withoutTrailingDots(std::string path) {
  for (;;) {
    if (path.size() > 1 && path.back() == '/') {
      path.pop_back();
    } else if (path.size() > 2 && path.ends_with("/.")) {
      path.resize(path.size() - 2);
    } else {
      return path;
    }
  }
}

std::string pathIn(const std::string& dir, std::string_view name) {
  const std::string base = withoutTrailingSlashes(dir);
  if (base.empty()) return std::string(name);
  return base.back() == '/' ? base + std::string(name) : fmt::format("{}/{}", base, name);
}

namespace {

// Without replacing anything: link(2) fails when the name exists, whatever it is (a dangling link too).
// Where links are not supported, renameat2(RENAME_NOREPLACE); where neither is, a last check as close to
// the rename as it can be. 0, EEXIST or the errno.
int placeWithoutReplacing(const std::string& temp, const std::string& target) {
  if (::link(temp.c_str(), target.c_str()) == 0) {
    ::unlink(temp.c_str());
    return 0;
  }
  int err = lastErrno();
  if (!linkUnsupported(err)) return err;
  err =
      ::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0 ? 0 : lastErrno();
  if (err != EINVAL && err != ENOSYS) return err;
  struct stat st {};
  if (::lstat(target.c_str(), &st) == 0) return EEXIST;
  return ::rename(temp.c_str(), target.c_str()) == 0 ? 0 : lastErrno();
}

}  // namespace

Placed putInPlace(const std::string& temp, const std::string& target, Replace replace,
                  const FileIdentity* unchanged) {
  if (replace == Replace::kRegularFile) {
    struct stat st {};
    const bool present = ::lstat(target.c_str(), &st) == 0;
    if (present && !S_ISREG(st.st_mode)) return {PlaceOutcome::kNotAFile, 0, st.st_mode};
    if (unchanged != nullptr && (!present || identityOf(st) != *unchanged)) return {PlaceOutcome::kChanged};
    if (::rename(temp.c_str(), target.c_str()) != 0) return {PlaceOutcome::kFailed, lastErrno()};
  } else if (const int err = placeWithoutReplacing(temp, target); err != 0) {
    return {err == EEXIST ? PlaceOutcome::kAppeared : PlaceOutcome::kFailed, err};
  }
  syncParent(target);
  return {};
}

// The stream's buffer: whole chunks to the descriptor, the first error kept for commit().
class NewFile::Buffer : public std::streambuf {
 public:
  explicit Buffer(int fd) : fd_(fd) { setp(data_.data(), data_.data() + data_.size()); }
  const std::string& error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override {
    if (error_.empty())
      error_ = writeAll(fd_, std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())));
    setp(data_.data(), data_.data() + data_.size());
    return error_.empty() ? 0 : -1;
  }

 private:
  int fd_;
  std::string error_;
  std::array<char, kChunk> data_{};
};

NewFile::NewFile(const std::string& target, std::string_view role) : target_(target), role_(role) {
  const std::size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? std::string() : target.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
  const std::string stem =
      fmt::format("{}.{}.mdbench-tmp.{}", dir, name.substr(0, kTempStemBytes), ::getpid());
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp_ = attempt == 0 ? stem : fmt::format("{}.{}", stem, attempt);
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd_ >= 0 || errno != EEXIST) break;
  }
  if (fd_ < 0) {
    error_ = fmt::format("cannot write {} {}: cannot create {}: {}", role_, target_, temp_,
                         describeErrno(lastErrno()));
    temp_.clear();
  }
}

NewFile::~NewFile() {
  stream_.reset();
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

std::string NewFile::write(std::string_view bytes) {
  if (fd_ < 0)
    return error_.empty() ? fmt::format("writing {} {}: the file is closed", role_, target_) : error_;
  if (std::string problem = writeAll(fd_, bytes); !problem.empty())
    return fmt::format("writing {} {} failed: {}", role_, target_, problem);
  return {};
}

std::ostream& NewFile::stream() {
  if (!stream_) {
    buffer_ = std::make_unique<Buffer>(fd_);
    stream_ = std::make_unique<std::ostream>(buffer_.get());
  }
  return *stream_;
}

std::string NewFile::copyFrom(const std::string& source, FileIdentity& copied) {
  const int in = ::open(source.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (in < 0) return fmt::format("cannot read {} {}: {}", role_, source, describeErrno(lastErrno()));
  struct stat st {};
  std::string error;
  if (::fstat(in, &st) != 0) {
    error = fmt::format("cannot read {} {}: {}", role_, source, describeErrno(lastErrno()));
  } else if (!S_ISREG(st.st_mode)) {
    error = fmt::format("{} {} is {}, not a file", role_, source, fileKindName(st.st_mode));
  } else if (::fchmod(fd_, st.st_mode & 07777) != 0) {
    error = fmt::format("cannot write {} {}: {}", role_, temp_, describeErrno(lastErrno()));
  }
  std::string chunk;
  while (error.empty()) {
    chunk.clear();
    if (std::string problem = readUpTo(in, kChunk, chunk); !problem.empty()) {
      error = fmt::format("cannot read {} {}: {}", role_, source, problem);
    } else if (chunk.empty()) {
      break;
    } else {
      error = write(chunk);
    }
  }
  if (error.empty() && ::fstat(in, &st) == 0) copied = identityOf(st);
  ::close(in);
  return error;
}

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
  if (err == ENOSPC || err == EDQUOT) return err;
  // Not supported here: the free space is the best guess there is.
  struct statvfs fs {};
  return ::fstatvfs(fd, &fs) == 0 && static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize < bytes ? ENOSPC
                                                                                                   : 0;
}

void releaseSpace(int fd) {
  struct stat st {};
  if (fd >= 0 && ::fstat(fd, &st) == 0) static_cast<void>(::ftruncate(fd, st.st_size));
}

std::string NewFile::reserve(std::uint64_t bytes) {
  struct stat st {};
  if (fd_ < 0 || ::fstat(fd_, &st) != 0)
    return fmt::format("cannot write {} {}: {}", role_, target_,
                       describeErrno(fd_ < 0 ? EBADF : lastErrno()));
  const int err = reserveSpace(fd_, bytes);
  reserved_ = reserved_ || err == 0;
  return err == 0 ? std::string()
                  : fmt::format("cannot write {} {}: no room for {} more: {}", role_, target_,
                                sizeText(bytes), describeErrno(err));
}

std::string NewFile::commit(Replace replace, const FileIdentity* unchanged) {
  if (fd_ < 0)
    return error_.empty() ? fmt::format("writing {} {}: already committed", role_, target_) : error_;
  const auto failed = [&](std::string_view what, int err) {
    return fmt::format("{} {} {}: {}", what, role_, target_, describeErrno(err));
  };
  if (stream_) {
    stream_->flush();
    if (!buffer_->error().empty())
      return fmt::format("writing {} {} failed: {}", role_, target_, buffer_->error());
  }
  if (reserved_) releaseSpace(fd_);
  if (::fsync(fd_) != 0 && errno != EINVAL) return failed("writing", lastErrno());
  const int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0) return failed("writing", lastErrno());
  const Placed placed = putInPlace(temp_, target_, replace, unchanged);
  switch (placed.outcome) {
    case PlaceOutcome::kDone:
      committed_ = true;
      return {};
    case PlaceOutcome::kNotAFile:
      return fmt::format("{} {} is now {}, not a file: not replacing it", role_, target_,
                         fileKindName(placed.mode));
    case PlaceOutcome::kChanged:
      return fmt::format("{} {} changed while its new version was written: not replacing it", role_, target_);
    case PlaceOutcome::kAppeared:
      return fmt::format("{} {} appeared while it was written: not replacing it", role_, target_);
    case PlaceOutcome::kFailed:
      break;
  }
  return failed("cannot put in place", placed.err);
}

void failWritesPastSizeLimit() { std::signal(SIGXFSZ, SIG_IGN); }

std::string writeFileAtomically(const std::string& path, std::string_view content, Replace replace,
                                std::string_view role) {
  NewFile file(path, role);
  if (!file.error().empty()) return file.error();
  if (std::string problem = file.write(content); !problem.empty()) return problem;
  return file.commit(replace);
}

}  // namespace mdbench
