#include "mdbench/stonewall_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <sstream>

#include "mdbench/errno_name.hpp"

namespace mdbench {
namespace {

constexpr std::string_view kHeader = "mdbench stonewall 1";

// What a path is, for messages about a stonewall file that is not a regular file.
const char* kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

// Only a regular file is read: opening a FIFO would block rank 0 (and every rank waiting for it) until
// some writer appeared, and a directory or device holds no counts. O_NONBLOCK makes the open of a FIFO
// return at once, so that fstat can refuse it.
std::string readAll(const std::string& path, std::string& text) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return fmt::format("cannot read stonewall file {}: {}", path, describeErrno(errno));
  struct stat st {};
  std::string error;
  if (fstat(fd, &st) != 0) {
    error = fmt::format("cannot read stonewall file {}: {}", path, describeErrno(errno));
  } else if (!S_ISREG(st.st_mode)) {
    error = fmt::format("stonewall file {} is {}, not a file", path, kindOf(st.st_mode));
  }
  char buffer[4096];
  for (ssize_t n = 0; error.empty() && (n = read(fd, buffer, sizeof buffer)) != 0;) {
    if (n > 0) {
      text.append(buffer, static_cast<std::size_t>(n));
    } else if (errno != EINTR) {
      error = fmt::format("cannot read stonewall file {}: {}", path, describeErrno(errno));
    }
  }
  close(fd);
  return error;
}

}  // namespace

std::string checkStonewallFile(const std::string& path, StonewallUse use, std::uint64_t items) {
  if (use == StonewallUse::kRead) {
    StonewallCounts counts;
    if (std::string error = readStonewallFile(path, counts); !error.empty()) return error;
    for (const std::optional<std::uint64_t>& count : {counts.dirs, counts.files}) {
      if (count && *count > items) {
        return fmt::format(
            "{}: a count of {} is more than -n {}: run with the -n of the job that created the items", path,
            *count, items);
      }
    }
    return {};
  }
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) {
    // Renaming over a link would replace the link, not write where it points: refused like any other
    // non-file, before anything is read from it.
    if (!S_ISREG(st.st_mode)) {
      return fmt::format("stonewall file {} is {}, not a file: not overwriting it", path, kindOf(st.st_mode));
    }
    std::string existing;
    if (std::string error = readAll(path, existing); !error.empty()) return error;
    if (existing.rfind(kHeader, 0) != 0) {
      return fmt::format("{} exists and is not an mdbench stonewall file: not overwriting it", path);
    }
    return {};
  }
  if (errno != ENOENT) return fmt::format("cannot write stonewall file {}: {}", path, describeErrno(errno));
  // Absent: its directory must exist (the file is written through a sibling FILE.tmp).
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (stat(dir.c_str(), &st) != 0) {
    return fmt::format("cannot write stonewall file {}: {}", path, describeErrno(errno));
  }
  if (!S_ISDIR(st.st_mode)) return fmt::format("cannot write stonewall file {}: ENOTDIR", path);
  return {};
}

std::string writeStonewallFile(const std::string& path, const StonewallCounts& counts) {
  if (std::string error = checkStonewallFile(path, StonewallUse::kWrite, 0); !error.empty()) return error;
  std::string text = fmt::format("{}\n", kHeader);
  if (counts.dirs) text += fmt::format("dirs {}\n", *counts.dirs);
  if (counts.files) text += fmt::format("files {}\n", *counts.files);
  // Write a sibling and rename it over, so a reader never sees half a file.
  const std::string temporary = path + ".tmp";
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) return fmt::format("cannot write stonewall file {}: {}", temporary, describeErrno(errno));
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const int write_errno = errno;
  if (close(fd) != 0 || !written || rename(temporary.c_str(), path.c_str()) != 0) {
    const int err = written ? errno : write_errno;
    unlink(temporary.c_str());
    return fmt::format("cannot write stonewall file {}: {}", path, describeErrno(err));
  }
  return {};
}

std::string parseStonewallText(std::string_view text, const std::string& path, StonewallCounts& counts) {
  std::istringstream lines{std::string(text)};
  std::string line;
  if (!std::getline(lines, line) || line != kHeader) {
    return fmt::format("{} is not an mdbench stonewall file (first line is not '{}')", path, kHeader);
  }
  int number = 1;
  while (std::getline(lines, line)) {
    ++number;
    const std::size_t space = line.find(' ');
    const std::string key = line.substr(0, space);
    std::uint64_t value = 0;
    const char* begin = space == std::string::npos ? line.data() + line.size() : line.data() + space + 1;
    const char* end = line.data() + line.size();
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if ((key != "dirs" && key != "files") || ec != std::errc() || ptr != end || begin == end) {
      return fmt::format("{} line {}: expected 'dirs <count>' or 'files <count>', found '{}'", path, number,
                         line);
    }
    (key == "dirs" ? counts.dirs : counts.files) = value;
  }
  if (!counts.dirs && !counts.files) return fmt::format("{} holds no count", path);
  return {};
}

std::string readStonewallFile(const std::string& path, StonewallCounts& counts) {
  std::string text;
  if (std::string error = readAll(path, text); !error.empty()) return error;
  return parseStonewallText(text, path, counts);
}

}  // namespace mdbench
