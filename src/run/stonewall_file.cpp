#include "mdbench/run/stonewall_file.hpp"

#include <fmt/format.h>

#include <charconv>
#include <sstream>

#include "mdbench/util/file_io.hpp"

namespace mdbench {
namespace {

constexpr std::string_view kHeader = "mdbench stonewall 1";
constexpr std::string_view kRole = "stonewall file";
// A stonewall file is a header and two counts; anything near this size is not one, and reading it whole
// would only exhaust rank 0's memory.
constexpr std::uint64_t kMaxBytes = 1u << 20;

// Only a regular file is read, and never more than kMaxBytes (file_io.hpp): a FIFO would block rank 0 (and
// every rank waiting for it), a directory or device holds no counts.
std::string readAll(const std::string& path, Links links, std::string& text) {
  return readRegularFile(path, {kRole, kMaxBytes, links}, text);
}

// Whether the file may be (re)written: absent (its directory existing), or a stonewall file already, never
// anything else. `replace` says what the write may then take the place of.
std::string checkWritable(const std::string& path, Replace& replace) {
  const OutputCheck output = checkOutput(path, kRole);
  if (output.state == OutputState::kRefused) {
    // Renaming over a link would replace the link, not write where it points: refused like any other
    // non-file, before anything is read from it.
    return output.problem.find("cannot write") == 0 ? output.problem
                                                    : output.problem + ": not overwriting it";
  }
  replace = output.state == OutputState::kAbsent ? Replace::kNothing : Replace::kRegularFile;
  if (output.state == OutputState::kAbsent) return {};
  std::string existing;
  if (std::string error = readAll(path, Links::kRefuse, existing); !error.empty()) return error;
  if (existing.rfind(kHeader, 0) != 0) {
    return fmt::format("{} exists and is not an mdbench stonewall file: not overwriting it", path);
  }
  return {};
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
  Replace replace = Replace::kNothing;
  return checkWritable(path, replace);
}

std::string writeStonewallFile(const std::string& path, const StonewallCounts& counts) {
  Replace replace = Replace::kNothing;
  if (std::string error = checkWritable(path, replace); !error.empty()) return error;
  std::string text = fmt::format("{}\n", kHeader);
  if (counts.dirs) text += fmt::format("dirs {}\n", *counts.dirs);
  if (counts.files) text += fmt::format("files {}\n", *counts.files);
  // A new file renamed into place: a reader never sees half a file, and a file that appeared since the
  // check (when there was none) is never replaced.
  return writeFileAtomically(path, text, replace, kRole);
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
  if (std::string error = readAll(path, Links::kFollow, text); !error.empty()) return error;
  return parseStonewallText(text, path, counts);
}

}  // namespace mdbench
