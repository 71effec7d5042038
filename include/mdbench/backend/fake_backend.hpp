// An in-memory backend for tests: a directory tree in a map, with injectable latency and errors per op.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mdbench/backend/backend.hpp"

namespace mdbench {

class ManualClock;

enum class FakeOp : std::uint8_t {
  kOpenDir,
  kMakeDir,
  kRemoveDir,
  kCreateFile,
  kStat,
  kReadFile,
  kUnlink,
  kRename,
  kReaddir,
  kSync,
};
inline constexpr std::size_t kFakeOpCount = 10;

// What a test plants under a name, as a user would: a symbolic link, or a hard link to a file elsewhere
// (a regular file with two links and `size` bytes).
enum class FakePlant : std::uint8_t { kSymlink, kHardLink };

struct FakeFault {
  FakeOp op;
  // Fail every `every`-th call of this op (1 = every call), counting from the first call, with `err`.
  std::uint64_t every = 1;
  int err = 5;  // EIO
};

// Semantics follow POSIX: EEXIST, ENOENT, ENOTEMPTY, ENOTDIR, EISDIR as a real file system would return.
// Latency: each op of a kind takes `latency[op]`: advanced on a ManualClock if one is given (exact, for
// rate tests), otherwise spent busy-waiting on the steady clock.
class FakeBackend final : public Backend {
 public:
  explicit FakeBackend(ManualClock* clock = nullptr);

  void setLatency(FakeOp op, std::chrono::nanoseconds latency);
  void addFault(FakeFault fault);
  // Puts `what` at `path` (below the root, "a/b/name"); replaces what was there.
  void plant(const std::string& path, FakePlant what, std::uint64_t size = 0);

  // Inspection for tests: entries below the root, as "a/b/c" paths, directories with a trailing '/'.
  std::vector<std::string> listAll() const;
  std::uint64_t calls(FakeOp op) const;
  // Makes `call` check types by listings too (checksTypesByListing), as LIBNFS's rmdir and v3 read do.
  void checkTypesByListing(CheckedCall call) { listed_calls_.push_back(call); }
  // How many directories listTypes listed (each a no-op here: no entry has another type).
  std::uint64_t listTypesCalls() const { return list_types_calls_; }
  // The prepareCreates calls whose directory held the run's mark (layout.hpp kMarkName), or did not.
  std::uint64_t prepareCreatesCalls(bool marked) const {
    return marked ? prepared_marked_ : prepared_unmarked_;
  }

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
  void prepareCreates(DirHandle marked_dir) override;
  int listTypes(DirHandle dir, EntryType type, std::string& out) override;
  bool checksTypesByListing(CheckedCall call) const override;
  int moveEntry(DirHandle from_dir, const char* from, DirHandle to_dir, const char* to,
                EntryType type) override;
  int countEntries(DirHandle dir, std::span<const std::string_view> prefixes, std::span<std::uint64_t> counts,
                   std::uint64_t& total) override;
  int syncFileSystem() override;
  int removeGenerated(DirHandle dir, const CleanOptions& options,
                      CleanTally& tally) override;  // fake_backend_cleanup.cpp

 private:
  struct Node {
    bool is_dir = false;
    std::uint64_t size = 0;
    bool symlink = false;  // neither file nor directory: never followed, opened or removed as either
    std::uint32_t links = 1;
  };
  // Returns the injected error for this call of op (0 if none) after spending its latency.
  int enter(FakeOp op);
  std::string childPath(DirHandle parent, const char* name) const;

  ManualClock* clock_;
  std::map<std::string, Node> nodes_;  // key: path below root ("" is the root itself)
  std::vector<std::string> handles_;   // handle value -> path; root is 0
  std::vector<std::int64_t> free_handles_;
  std::chrono::nanoseconds latency_[kFakeOpCount] = {};
  std::uint64_t calls_[kFakeOpCount] = {};
  std::vector<FakeFault> faults_;
  std::vector<CheckedCall> listed_calls_;
  std::uint64_t list_types_calls_ = 0;
  std::uint64_t prepared_marked_ = 0;
  std::uint64_t prepared_unmarked_ = 0;
};

}  // namespace mdbench
