// Where the results-writer benchmark puts its files: a directory it was given, or a fresh one under
// /dev/shm that it removes again.
#pragma once

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace mdbench::bench {

class ScratchDir {
 public:
  // An empty `given` makes a fresh directory; a given one must exist and is left in place.
  explicit ScratchDir(const std::string& given) {
    if (!given.empty()) {
      if (!std::filesystem::is_directory(given))
        throw std::runtime_error("--dir " + given + ": not a directory");
      path_ = given;
      return;
    }
    std::string pattern = "/dev/shm/mdbench-results-bench.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("cannot create a directory under /dev/shm: " +
                               std::string(std::strerror(errno)));
    }
    path_ = pattern;
    owned_ = true;
  }
  ~ScratchDir() {
    // Only a directory this process made (mkdtemp: nobody else put anything in it).
    if (!owned_) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool owned_ = false;
};

}  // namespace mdbench::bench
