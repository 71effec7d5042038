// -a DUMMY: a backend that does no file-system I/O and succeeds, as mdtest's DUMMY backend: what a run
// measures with it is the harness (the loop, the clock, the names, the barriers).
#pragma once

#include <cerrno>
#include <cstdint>
#include <string>

#include "mdbench/backend/backend.hpp"
#include "mdbench/config/config.hpp"

namespace mdbench {

// Every operation returns 0 and touches nothing: no store, so it costs the same on every rank whatever the
// items' owners (a shared tree's items stat'ed by ranks that did not make them succeed too). What the run
// reads back of its own bookkeeping is made up to mean "nothing to report": there is no ownership record
// (storesNothing: a later job counts every item its layout names made), a mark reads as the run's own. A read
// leaves the buffer as it was (so -X finds no pattern), and countEntries, which cannot know what a listing
// would hold without a store, fails with ENOTSUP.
//
// --dummy.*: mdtest's DUMMY delays, slept (nanosleep) where mdtest's DUMMY sleeps them: a file create
// (delay-create), its write when -w > 0 (delay-xfer) and its close (delay-close); a file read's transfer
// when -e > 0 and its close; a sync (-Y: delay-sync). With delay-only-rank0 only rank 0 sleeps.
class NullBackend final : public Backend {
 public:
  NullBackend();
  // `delays` applied on this rank (`rank`: this rank's number in the run).
  NullBackend(const DummyBackendOptions& delays, std::uint32_t rank);

  DirHandle root() const override { return DirHandle{0}; }
  int openDir(DirHandle parent, const char* name, DirHandle& out) override;
  int closeDir(DirHandle dir) override;
  int makeDir(DirHandle parent, const char*) override { return status(parent); }
  int removeDir(DirHandle parent, const char*) override { return status(parent); }
  int createFile(DirHandle parent, const char* name, std::span<const std::byte> data,
                 CreateOptions options) override;
  int statEntry(DirHandle parent, const char*, bool) override { return status(parent); }
  int readFile(DirHandle parent, const char* name, std::span<std::byte> buf) override;
  int unlinkFile(DirHandle parent, const char*) override { return status(parent); }
  int moveEntry(DirHandle from_dir, const char*, DirHandle to_dir, const char*, EntryType) override {
    return status(from_dir) != 0 ? status(from_dir) : status(to_dir);
  }
  int countEntries(DirHandle dir, std::span<const std::string_view> prefixes, std::span<std::uint64_t> counts,
                   std::uint64_t& total) override;
  int syncFileSystem() override;
  int removeGenerated(DirHandle dir, const CleanOptions& options, CleanTally& tally) override;
  int writeMark(DirHandle) override { return 0; }
  MarkKind readMark(DirHandle) override { return MarkKind::kOurs; }
  bool storesNothing() const override { return true; }

 private:
  // EBADF for a handle no open directory has, as the POSIX backend says it; 0 otherwise.
  static int status(DirHandle dir) { return dir.valid() ? 0 : EBADF; }
  void delay(std::uint64_t us) const;

  DummyBackendOptions delays_;
};

}  // namespace mdbench
