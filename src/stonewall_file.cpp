#include "mdbench/stonewall_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <fstream>
#include <sstream>

#include "mdbench/errno_name.hpp"

namespace mdbench {
namespace {

constexpr std::string_view kHeader = "mdbench stonewall 1";

std::string readAll(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fmt::format("cannot read stonewall file {}: {}", path, describeErrno(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return {};
}

}  // namespace

std::string writeStonewallFile(const std::string& path, const StonewallCounts& counts) {
  std::string existing;
  if (access(path.c_str(), F_OK) == 0) {
    if (std::string error = readAll(path, existing); !error.empty()) return error;
    if (existing.rfind(kHeader, 0) != 0) {
      return fmt::format("{} exists and is not an mdbench stonewall file: not overwriting it", path);
    }
  }
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

std::string readStonewallFile(const std::string& path, StonewallCounts& counts) {
  std::string text;
  if (std::string error = readAll(path, text); !error.empty()) return error;
  std::istringstream lines(text);
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

}  // namespace mdbench
