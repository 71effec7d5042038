// The POSIX backend: every operation relative to directory descriptors, O_EXCL creates, no symlink followed.
#pragma once

#include <memory>
#include <string>

#include "mdbench/backend/backend.hpp"

namespace mdbench {

class PosixBackend final : public Backend {
 public:
  // Opens `root_path` (which must be an existing directory, not a symlink). Returns nullptr and sets
  // `err` (an errno value) on failure.
  static std::unique_ptr<PosixBackend> open(const std::string& root_path, int& err);
  ~PosixBackend() override;
  PosixBackend(const PosixBackend&) = delete;
  PosixBackend& operator=(const PosixBackend&) = delete;

  DirHandle root() const override;
  int openDir(DirHandle parent, const char* name, DirHandle& out) override;
  int closeDir(DirHandle dir) override;
  int makeDir(DirHandle parent, const char* name) override;
  int removeDir(DirHandle parent, const char* name) override;
  int createFile(DirHandle parent, const char* name, std::span<const std::byte> data,
                 CreateOptions options) override;
  int statEntry(DirHandle parent, const char* name, bool is_dir) override;
  int readFile(DirHandle parent, const char* name, std::span<std::byte> buf) override;
  int unlinkFile(DirHandle parent, const char* name) override;
  int renameEntry(DirHandle dir, const char* from, const char* to, EntryType type) override;
  int countEntries(DirHandle dir, std::span<const std::string_view> prefixes, std::span<std::uint64_t> counts,
                   std::uint64_t& total) override;
  int syncFileSystem() override;
  int removeGenerated(DirHandle dir, const CleanOptions& options, CleanTally& tally) override;  // cleanup.cpp
  int writeMark(DirHandle dir) override;                                                        // cleanup.cpp
  MarkKind readMark(DirHandle dir) override;                                                    // cleanup.cpp

 private:
  explicit PosixBackend(int root_fd) : root_fd_(root_fd) {}
  int root_fd_;
};

}  // namespace mdbench
