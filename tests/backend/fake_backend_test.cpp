// The in-memory backend: POSIX-like errors, handles, injected faults and latencies.
#include "mdbench/backend/fake_backend.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/util/clock.hpp"

namespace mdbench {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using Paths = std::vector<std::string>;

constexpr DirHandle kRoot{0};

TEST(FakeBackend, RootIsHandleZeroAndTreeStartsEmpty) {
  FakeBackend fake;
  EXPECT_EQ(fake.root().value, 0);
  EXPECT_EQ(fake.listAll(), Paths{});
}

TEST(FakeBackend, CreateStatReadUnlinkRoundTrip) {
  FakeBackend fake;
  const std::vector<std::byte> data(10, std::byte{7});
  ASSERT_EQ(fake.createFile(kRoot, "f", data, {}), 0);
  EXPECT_EQ(fake.listAll(), Paths{"f"});
  EXPECT_EQ(fake.statEntry(kRoot, "f", false), 0);
  std::vector<std::byte> buf(10);
  EXPECT_EQ(fake.readFile(kRoot, "f", buf), 0);
  std::vector<std::byte> prefix(4);
  EXPECT_EQ(fake.readFile(kRoot, "f", prefix), 0);
  EXPECT_EQ(fake.readFile(kRoot, "f", {}), 0);
  ASSERT_EQ(fake.unlinkFile(kRoot, "f"), 0);
  EXPECT_EQ(fake.listAll(), Paths{});
  EXPECT_EQ(fake.unlinkFile(kRoot, "f"), ENOENT);
  EXPECT_EQ(fake.statEntry(kRoot, "f", false), ENOENT);
  EXPECT_EQ(fake.readFile(kRoot, "f", buf), ENOENT);
}

TEST(FakeBackend, ShortReadIsENODATA) {
  FakeBackend fake;
  ASSERT_EQ(fake.createFile(kRoot, "f", std::vector<std::byte>(3), {}), 0);
  std::vector<std::byte> four(4);
  EXPECT_EQ(fake.readFile(kRoot, "f", four), ENODATA);
  std::vector<std::byte> three(3);
  EXPECT_EQ(fake.readFile(kRoot, "f", three), 0);
  ASSERT_EQ(fake.createFile(kRoot, "empty", {}, {}), 0);
  EXPECT_EQ(fake.readFile(kRoot, "empty", {}), 0);
  std::vector<std::byte> one(1);
  EXPECT_EQ(fake.readFile(kRoot, "empty", one), ENODATA);
}

TEST(FakeBackend, ExistingNamesAreEEXIST) {
  FakeBackend fake;
  ASSERT_EQ(fake.createFile(kRoot, "f", std::vector<std::byte>(5), {}), 0);
  ASSERT_EQ(fake.makeDir(kRoot, "d"), 0);
  EXPECT_EQ(fake.createFile(kRoot, "f", std::vector<std::byte>(1), {}), EEXIST);
  EXPECT_EQ(fake.createFile(kRoot, "d", {}, {}), EEXIST);
  EXPECT_EQ(fake.makeDir(kRoot, "d"), EEXIST);
  EXPECT_EQ(fake.makeDir(kRoot, "f"), EEXIST);
  // The failed create left the original size.
  std::vector<std::byte> five(5);
  EXPECT_EQ(fake.readFile(kRoot, "f", five), 0);
  EXPECT_EQ(fake.listAll(), (Paths{"d/", "f"}));
}

TEST(FakeBackend, KindMismatches) {
  FakeBackend fake;
  ASSERT_EQ(fake.makeDir(kRoot, "d"), 0);
  ASSERT_EQ(fake.createFile(kRoot, "f", std::vector<std::byte>(1), {}), 0);
  DirHandle out{42};

  EXPECT_EQ(fake.statEntry(kRoot, "d", true), 0);
  EXPECT_EQ(fake.statEntry(kRoot, "d", false), EISDIR);
  EXPECT_EQ(fake.statEntry(kRoot, "f", true), ENOTDIR);
  EXPECT_EQ(fake.openDir(kRoot, "f", out), ENOTDIR);
  EXPECT_FALSE(out.valid());
  EXPECT_EQ(fake.removeDir(kRoot, "f"), ENOTDIR);
  EXPECT_EQ(fake.unlinkFile(kRoot, "d"), EISDIR);
  std::vector<std::byte> buf(1);
  EXPECT_EQ(fake.readFile(kRoot, "d", buf), EISDIR);
  EXPECT_EQ(fake.readFile(kRoot, "d", {}), EISDIR);  // as the POSIX backend: a directory is not read
  EXPECT_EQ(fake.listAll(), (Paths{"d/", "f"}));
}

TEST(FakeBackend, MissingEntriesAreENOENT) {
  FakeBackend fake;
  DirHandle out{42};
  EXPECT_EQ(fake.openDir(kRoot, "absent", out), ENOENT);
  EXPECT_FALSE(out.valid());
  EXPECT_EQ(fake.removeDir(kRoot, "absent"), ENOENT);
  EXPECT_EQ(fake.statEntry(kRoot, "absent", true), ENOENT);
  EXPECT_EQ(fake.makeDir(kRoot, ""), ENOENT);
  EXPECT_EQ(fake.makeDir(kRoot, "a/b"), EINVAL);
  EXPECT_EQ(fake.makeDir(kRoot, ".."), EINVAL);
}

TEST(FakeBackend, RemoveDirRequiresAnEmptyDirectory) {
  FakeBackend fake;
  ASSERT_EQ(fake.makeDir(kRoot, "d"), 0);
  ASSERT_EQ(fake.makeDir(kRoot, "d-sibling"), 0);  // sorts between "d" and "d/": not a child
  DirHandle d;
  ASSERT_EQ(fake.openDir(kRoot, "d", d), 0);
  ASSERT_EQ(fake.createFile(d, "f", {}, {}), 0);
  EXPECT_EQ(fake.removeDir(kRoot, "d"), ENOTEMPTY);
  EXPECT_EQ(fake.unlinkFile(d, "f"), 0);
  EXPECT_EQ(fake.removeDir(kRoot, "d"), 0);
  EXPECT_EQ(fake.removeDir(kRoot, "d"), ENOENT);
  EXPECT_EQ(fake.removeDir(kRoot, "d-sibling"), 0);
  // Like a descriptor of a removed directory: still open, but nothing can be created in it.
  EXPECT_EQ(fake.createFile(d, "g", {}, {}), ENOENT);
  EXPECT_EQ(fake.closeDir(d), 0);
  EXPECT_EQ(fake.listAll(), Paths{});
}

TEST(FakeBackend, NestedDirectoriesAndListAll) {
  FakeBackend fake;
  ASSERT_EQ(fake.makeDir(kRoot, "a"), 0);
  DirHandle a;
  ASSERT_EQ(fake.openDir(kRoot, "a", a), 0);
  ASSERT_EQ(fake.makeDir(a, "b"), 0);
  DirHandle b;
  ASSERT_EQ(fake.openDir(a, "b", b), 0);
  ASSERT_EQ(fake.createFile(b, "f", {}, {}), 0);
  ASSERT_EQ(fake.createFile(kRoot, "a-b", {}, {}), 0);
  ASSERT_EQ(fake.createFile(a, "z", {}, {}), 0);
  EXPECT_EQ(fake.statEntry(b, "f", false), 0);
  EXPECT_EQ(fake.statEntry(kRoot, "f", false), ENOENT);
  // Sorted as strings, directories with their '/': "a-b" < "a/" because '-' < '/'.
  EXPECT_EQ(fake.listAll(), (Paths{"a-b", "a/", "a/b/", "a/b/f", "a/z"}));
  EXPECT_EQ(fake.closeDir(b), 0);
  EXPECT_EQ(fake.closeDir(a), 0);
}

TEST(FakeBackend, HandlesAreReused) {
  FakeBackend fake;
  for (const char* name : {"a", "b", "c"}) ASSERT_EQ(fake.makeDir(kRoot, name), 0);
  DirHandle a, b, c;
  ASSERT_EQ(fake.openDir(kRoot, "a", a), 0);
  ASSERT_EQ(fake.openDir(kRoot, "b", b), 0);
  EXPECT_EQ(a.value, 1);
  EXPECT_EQ(b.value, 2);
  ASSERT_EQ(fake.closeDir(a), 0);
  ASSERT_EQ(fake.openDir(kRoot, "c", c), 0);
  EXPECT_EQ(c.value, 1);
  // The reused slot now means "c".
  ASSERT_EQ(fake.createFile(c, "in-c", {}, {}), 0);
  EXPECT_EQ(fake.listAll(), (Paths{"a/", "b/", "c/", "c/in-c"}));
  DirHandle d;
  ASSERT_EQ(fake.openDir(kRoot, "a", d), 0);
  EXPECT_EQ(d.value, 3);
}

TEST(FakeBackend, InvalidHandlesAreEBADF) {
  FakeBackend fake;
  ASSERT_EQ(fake.makeDir(kRoot, "d"), 0);
  DirHandle closed;
  ASSERT_EQ(fake.openDir(kRoot, "d", closed), 0);
  ASSERT_EQ(fake.closeDir(closed), 0);
  EXPECT_EQ(fake.closeDir(closed), EBADF);
  std::vector<std::byte> buf(1);
  for (const DirHandle bad : {DirHandle{}, DirHandle{-100}, DirHandle{7}, closed}) {
    DirHandle out;
    EXPECT_EQ(fake.openDir(bad, "d", out), EBADF);
    EXPECT_EQ(fake.makeDir(bad, "x"), EBADF);
    EXPECT_EQ(fake.removeDir(bad, "x"), EBADF);
    EXPECT_EQ(fake.createFile(bad, "x", {}, {}), EBADF);
    EXPECT_EQ(fake.statEntry(bad, "x", false), EBADF);
    EXPECT_EQ(fake.readFile(bad, "x", buf), EBADF);
    EXPECT_EQ(fake.unlinkFile(bad, "x"), EBADF);
    EXPECT_EQ(fake.renameEntry(bad, "x", "y", EntryType::kFile), EBADF);
    std::uint64_t total = 0;
    EXPECT_EQ(fake.countEntries(bad, {}, {}, total), EBADF);
    EXPECT_EQ(fake.closeDir(bad), EBADF);
  }
  EXPECT_EQ(fake.closeDir(kRoot), EBADF);  // the root belongs to the backend
  EXPECT_EQ(fake.listAll(), Paths{"d/"});
}

constexpr CreateOptions kOpenCreated{.mode = CreateMode::kOpenCreated, .fsync = false};

TEST(FakeBackend, OpenCreatedOpensOnlyWhatItsCreatorMade) {
  FakeBackend fake;
  EXPECT_EQ(fake.createFile(kRoot, "f", std::vector<std::byte>(5), kOpenCreated), ENOENT);  // never creates
  EXPECT_EQ(fake.listAll(), Paths{});
  ASSERT_EQ(fake.createFile(kRoot, "f", std::vector<std::byte>(5), {}), 0);
  EXPECT_EQ(fake.createFile(kRoot, "f", std::vector<std::byte>(5), kOpenCreated), 0);
  EXPECT_EQ(fake.createFile(kRoot, "f", std::vector<std::byte>(2), kOpenCreated), EBADMSG);  // another size
  EXPECT_EQ(fake.createFile(kRoot, "f", {}, {}), EEXIST);  // exclusive still refuses it
  ASSERT_EQ(fake.makeDir(kRoot, "d"), 0);
  EXPECT_EQ(fake.createFile(kRoot, "d", {}, kOpenCreated), EISDIR);
  fake.plant("hard", FakePlant::kHardLink, 5);
  fake.plant("link", FakePlant::kSymlink);
  EXPECT_EQ(fake.createFile(kRoot, "hard", std::vector<std::byte>(5), kOpenCreated), EMLINK);
  EXPECT_EQ(fake.createFile(kRoot, "link", std::vector<std::byte>(5), kOpenCreated), ELOOP);
  EXPECT_EQ(fake.createFile(kRoot, "link", {}, {}), EEXIST);
  // fsync changes nothing observable in memory.
  const CreateOptions synced{.mode = CreateMode::kExclusive, .fsync = true};
  EXPECT_EQ(fake.createFile(kRoot, "g", std::vector<std::byte>(1), synced), 0);
}

TEST(FakeBackend, APlantedSymlinkIsNeverTakenForAFileOrDirectory) {
  FakeBackend fake;
  fake.plant("link", FakePlant::kSymlink);
  std::vector<std::byte> buf(1);
  DirHandle out;
  EXPECT_EQ(fake.statEntry(kRoot, "link", false), EINVAL);
  EXPECT_EQ(fake.statEntry(kRoot, "link", true), ENOTDIR);
  EXPECT_EQ(fake.readFile(kRoot, "link", buf), ELOOP);
  EXPECT_EQ(fake.unlinkFile(kRoot, "link"), EINVAL);
  EXPECT_EQ(fake.removeDir(kRoot, "link"), ENOTDIR);
  EXPECT_EQ(fake.openDir(kRoot, "link", out), ELOOP);
  EXPECT_EQ(fake.renameEntry(kRoot, "link", "moved", EntryType::kFile), EINVAL);
  EXPECT_EQ(fake.renameEntry(kRoot, "link", "moved", EntryType::kDir), ENOTDIR);
  ASSERT_EQ(fake.makeDir(kRoot, "d"), 0);
  EXPECT_EQ(fake.renameEntry(kRoot, "d", "e", EntryType::kFile), EISDIR);
  EXPECT_EQ(fake.listAll(), (Paths{"d/", "link"}));
}

TEST(FakeBackend, RenameMovesAFile) {
  FakeBackend fake;
  ASSERT_EQ(fake.createFile(kRoot, "from", std::vector<std::byte>(3), {}), 0);
  ASSERT_EQ(fake.renameEntry(kRoot, "from", "to", EntryType::kFile), 0);
  EXPECT_EQ(fake.listAll(), Paths{"to"});
  std::vector<std::byte> three(3);
  EXPECT_EQ(fake.readFile(kRoot, "to", three), 0);  // the size moved with it
  EXPECT_EQ(fake.renameEntry(kRoot, "from", "to", EntryType::kFile), ENOENT);
  EXPECT_EQ(fake.renameEntry(kRoot, "from", "other", EntryType::kFile), ENOENT);
  EXPECT_EQ(fake.calls(FakeOp::kRename), 3u);
}

TEST(FakeBackend, RenameMovesADirectorySubtreeAndItsHandles) {
  FakeBackend fake;
  ASSERT_EQ(fake.makeDir(kRoot, "d"), 0);
  ASSERT_EQ(fake.makeDir(kRoot, "d-sibling"), 0);  // sorts between "d" and "d/": must not move
  DirHandle d, sub;
  ASSERT_EQ(fake.openDir(kRoot, "d", d), 0);
  ASSERT_EQ(fake.makeDir(d, "sub"), 0);
  ASSERT_EQ(fake.openDir(d, "sub", sub), 0);
  ASSERT_EQ(fake.createFile(sub, "f", {}, {}), 0);
  ASSERT_EQ(fake.createFile(d, "g", {}, {}), 0);

  ASSERT_EQ(fake.renameEntry(kRoot, "d", "e", EntryType::kDir), 0);
  EXPECT_EQ(fake.listAll(), (Paths{"d-sibling/", "e/", "e/g", "e/sub/", "e/sub/f"}));
  // Open handles follow the directory, as descriptors do.
  EXPECT_EQ(fake.statEntry(d, "g", false), 0);
  EXPECT_EQ(fake.createFile(sub, "h", {}, {}), 0);
  EXPECT_EQ(fake.listAll(), (Paths{"d-sibling/", "e/", "e/g", "e/sub/", "e/sub/f", "e/sub/h"}));
  // Renames inside a subdirectory work relative to its handle.
  ASSERT_EQ(fake.renameEntry(d, "sub", "sub2", EntryType::kDir), 0);
  EXPECT_EQ(fake.listAll(), (Paths{"d-sibling/", "e/", "e/g", "e/sub2/", "e/sub2/f", "e/sub2/h"}));
  EXPECT_EQ(fake.statEntry(sub, "f", false), 0);
  EXPECT_EQ(fake.closeDir(sub), 0);
  EXPECT_EQ(fake.closeDir(d), 0);
}

TEST(FakeBackend, RenameNeverReplacesAnExistingTarget) {
  FakeBackend fake;
  ASSERT_EQ(fake.createFile(kRoot, "a", std::vector<std::byte>(1), {}), 0);
  ASSERT_EQ(fake.createFile(kRoot, "b", std::vector<std::byte>(2), {}), 0);
  ASSERT_EQ(fake.makeDir(kRoot, "d"), 0);
  ASSERT_EQ(fake.makeDir(kRoot, "empty"), 0);
  DirHandle d;
  ASSERT_EQ(fake.openDir(kRoot, "d", d), 0);
  ASSERT_EQ(fake.createFile(d, "inside", {}, {}), 0);

  EXPECT_EQ(fake.renameEntry(kRoot, "a", "b", EntryType::kFile), EEXIST);
  EXPECT_EQ(fake.renameEntry(kRoot, "a", "d", EntryType::kFile), EEXIST);
  EXPECT_EQ(fake.renameEntry(kRoot, "d", "a", EntryType::kDir), EEXIST);
  EXPECT_EQ(fake.renameEntry(kRoot, "d", "empty", EntryType::kDir), EEXIST);
  EXPECT_EQ(fake.renameEntry(kRoot, "a", "a", EntryType::kFile), EEXIST);
  EXPECT_EQ(fake.listAll(), (Paths{"a", "b", "d/", "d/inside", "empty/"}));
  std::vector<std::byte> two(2);
  EXPECT_EQ(fake.readFile(kRoot, "b", two), 0);  // b kept its own size
  EXPECT_EQ(fake.renameEntry(kRoot, "a/x", "c", EntryType::kFile), EINVAL);
  EXPECT_EQ(fake.renameEntry(kRoot, "a", "..", EntryType::kFile), EINVAL);
  EXPECT_EQ(fake.closeDir(d), 0);
}

// Runs countEntries with the given prefixes; counts are pre-filled with junk to check they are reset.
struct Counted {
  int err = -1;
  std::vector<std::uint64_t> counts;
  std::uint64_t total = 99;
};
Counted count(Backend& backend, DirHandle dir, std::vector<std::string_view> prefixes) {
  Counted out;
  out.counts.assign(prefixes.size(), 77);
  out.err = backend.countEntries(dir, prefixes, out.counts, out.total);
  return out;
}

TEST(FakeBackend, CountEntriesByPrefixOverDirectChildren) {
  FakeBackend fake;
  ASSERT_EQ(fake.createFile(kRoot, "file.0", {}, {}), 0);
  ASSERT_EQ(fake.createFile(kRoot, "file.1", {}, {}), 0);
  ASSERT_EQ(fake.createFile(kRoot, "other", {}, {}), 0);
  ASSERT_EQ(fake.makeDir(kRoot, "dir.0"), 0);
  ASSERT_EQ(fake.makeDir(kRoot, "dir.0-x"), 0);  // sorts between "dir.0" and "dir.0/"
  DirHandle d;
  ASSERT_EQ(fake.openDir(kRoot, "dir.0", d), 0);
  ASSERT_EQ(fake.createFile(d, "file.nested", {}, {}), 0);
  ASSERT_EQ(fake.makeDir(d, "dir.nested"), 0);

  const Counted c = count(fake, kRoot, {"file.", "dir.", "", "nothing", "dir.0"});
  ASSERT_EQ(c.err, 0);
  EXPECT_EQ(c.total, 5u);
  EXPECT_EQ(c.counts, (std::vector<std::uint64_t>{2, 2, 5, 0, 2}));

  const Counted sub = count(fake, d, {"file.", "dir.", "dir.0"});
  ASSERT_EQ(sub.err, 0);
  EXPECT_EQ(sub.total, 2u);
  EXPECT_EQ(sub.counts, (std::vector<std::uint64_t>{1, 1, 0}));

  DirHandle empty;
  ASSERT_EQ(fake.openDir(kRoot, "dir.0-x", empty), 0);
  const Counted none = count(fake, empty, {"file."});
  ASSERT_EQ(none.err, 0);
  EXPECT_EQ(none.total, 0u);
  EXPECT_EQ(none.counts, std::vector<std::uint64_t>{0});
  EXPECT_EQ(fake.calls(FakeOp::kReaddir), 3u);
  // The handle is still usable afterwards.
  EXPECT_EQ(fake.statEntry(d, "file.nested", false), 0);
}

TEST(FakeBackend, CountEntriesOfALargeDirectoryIsExact) {
  FakeBackend fake;
  for (int i = 0; i < 3000; ++i) {
    ASSERT_EQ(fake.createFile(kRoot, ("file.entry." + std::to_string(i)).c_str(), {}, {}), 0);
  }
  for (int i = 0; i < 2000; ++i)
    ASSERT_EQ(fake.makeDir(kRoot, ("dir.entry." + std::to_string(i)).c_str()), 0);
  const Counted c = count(fake, kRoot, {"file.", "dir.", "file.entry.1"});
  ASSERT_EQ(c.err, 0);
  EXPECT_EQ(c.total, 5000u);
  EXPECT_EQ(c.counts, (std::vector<std::uint64_t>{3000, 2000, 1111}));
}

TEST(FakeBackend, CountEntriesChecksItsArguments) {
  FakeBackend fake;
  const std::string_view prefixes[] = {"a", "b"};
  std::uint64_t counts[1] = {};
  std::uint64_t total = 5;
  EXPECT_EQ(fake.countEntries(kRoot, prefixes, counts, total), EINVAL);
  EXPECT_EQ(total, 0u);
  ASSERT_EQ(fake.makeDir(kRoot, "d"), 0);
  DirHandle d;
  ASSERT_EQ(fake.openDir(kRoot, "d", d), 0);
  ASSERT_EQ(fake.removeDir(kRoot, "d"), 0);
  std::uint64_t two[2] = {};
  EXPECT_EQ(fake.countEntries(d, prefixes, two, total), ENOENT);  // like a removed directory's descriptor
}

TEST(FakeBackend, SyncFileSystemIsCounted) {
  FakeBackend fake;
  EXPECT_EQ(fake.calls(FakeOp::kSync), 0u);
  EXPECT_EQ(fake.syncFileSystem(), 0);
  EXPECT_EQ(fake.syncFileSystem(), 0);
  EXPECT_EQ(fake.calls(FakeOp::kSync), 2u);
  fake.addFault(FakeFault{.op = FakeOp::kSync, .every = 3, .err = EIO});
  EXPECT_EQ(fake.syncFileSystem(), EIO);
  EXPECT_EQ(fake.calls(FakeOp::kSync), 3u);
}

TEST(FakeBackend, FaultFailsEveryKthCallWithoutChangingState) {
  FakeBackend fake;
  fake.addFault(FakeFault{.op = FakeOp::kCreateFile, .every = 3, .err = ENOSPC});
  const char* names[] = {"f1", "f2", "f3", "f4", "f5", "f6", "f7"};
  std::vector<int> results;
  for (const char* name : names) results.push_back(fake.createFile(kRoot, name, {}, {}));
  EXPECT_EQ(results, (std::vector<int>{0, 0, ENOSPC, 0, 0, ENOSPC, 0}));
  EXPECT_EQ(fake.listAll(), (Paths{"f1", "f2", "f4", "f5", "f7"}));
  EXPECT_EQ(fake.calls(FakeOp::kCreateFile), 7u);
  // Other ops are counted separately and unaffected.
  EXPECT_EQ(fake.statEntry(kRoot, "f3", false), ENOENT);
  EXPECT_EQ(fake.calls(FakeOp::kStat), 1u);
  EXPECT_EQ(fake.calls(FakeOp::kUnlink), 0u);
}

TEST(FakeBackend, FaultOnEveryCallAndSeveralFaults) {
  FakeBackend fake;
  ASSERT_EQ(fake.createFile(kRoot, "f", {}, {}), 0);
  fake.addFault(FakeFault{.op = FakeOp::kUnlink, .every = 1, .err = EIO});
  fake.addFault(FakeFault{.op = FakeOp::kStat, .every = 2, .err = EACCES});
  fake.addFault(FakeFault{.op = FakeOp::kStat, .every = 3, .err = ESTALE});
  EXPECT_EQ(fake.unlinkFile(kRoot, "f"), EIO);
  EXPECT_EQ(fake.unlinkFile(kRoot, "f"), EIO);
  EXPECT_EQ(fake.listAll(), Paths{"f"});
  // Call 6 matches both stat faults: the first one added wins.
  std::vector<int> results;
  for (int i = 0; i < 6; ++i) results.push_back(fake.statEntry(kRoot, "f", false));
  EXPECT_EQ(results, (std::vector<int>{0, EACCES, ESTALE, EACCES, 0, EACCES}));
  DirHandle out;
  EXPECT_EQ(fake.openDir(kRoot, "absent", out), ENOENT);
}

TEST(FakeBackend, FaultsCoverEveryOp) {
  FakeBackend fake;
  ASSERT_EQ(fake.makeDir(kRoot, "d"), 0);
  ASSERT_EQ(fake.createFile(kRoot, "f", std::vector<std::byte>(1), {}), 0);
  for (std::size_t i = 0; i < kFakeOpCount; ++i) {
    fake.addFault(FakeFault{.op = static_cast<FakeOp>(i), .every = 1, .err = EROFS});
  }
  DirHandle out;
  std::vector<std::byte> buf(1);
  EXPECT_EQ(fake.openDir(kRoot, "d", out), EROFS);
  EXPECT_FALSE(out.valid());
  EXPECT_EQ(fake.makeDir(kRoot, "e"), EROFS);
  EXPECT_EQ(fake.removeDir(kRoot, "d"), EROFS);
  EXPECT_EQ(fake.createFile(kRoot, "g", {}, {}), EROFS);
  EXPECT_EQ(fake.statEntry(kRoot, "f", false), EROFS);
  EXPECT_EQ(fake.readFile(kRoot, "f", buf), EROFS);
  EXPECT_EQ(fake.unlinkFile(kRoot, "f"), EROFS);
  EXPECT_EQ(fake.renameEntry(kRoot, "f", "h", EntryType::kFile), EROFS);
  std::uint64_t total = 0;
  EXPECT_EQ(fake.countEntries(kRoot, {}, {}, total), EROFS);
  EXPECT_EQ(fake.syncFileSystem(), EROFS);
  EXPECT_EQ(fake.listAll(), (Paths{"d/", "f"}));
  for (std::size_t i = 0; i < kFakeOpCount; ++i) {
    const auto op = static_cast<FakeOp>(i);
    const std::uint64_t setup_calls = op == FakeOp::kMakeDir || op == FakeOp::kCreateFile ? 1 : 0;
    EXPECT_EQ(fake.calls(op), setup_calls + 1) << "op " << i;
  }
}

TEST(FakeBackend, ManualClockAdvancesByExactLatencies) {
  ManualClock clock;
  FakeBackend fake(&clock);
  fake.setLatency(FakeOp::kOpenDir, nanoseconds(1));
  fake.setLatency(FakeOp::kMakeDir, nanoseconds(10));
  fake.setLatency(FakeOp::kRemoveDir, nanoseconds(100));
  fake.setLatency(FakeOp::kCreateFile, nanoseconds(1'000));
  fake.setLatency(FakeOp::kStat, nanoseconds(10'000));
  fake.setLatency(FakeOp::kReadFile, nanoseconds(100'000));
  fake.setLatency(FakeOp::kUnlink, milliseconds(1));
  fake.setLatency(FakeOp::kRename, milliseconds(10));
  fake.setLatency(FakeOp::kReaddir, milliseconds(100));
  fake.setLatency(FakeOp::kSync, milliseconds(1'000));

  ASSERT_EQ(fake.makeDir(kRoot, "d"), 0);
  EXPECT_EQ(clock.nowNs(), 10);
  DirHandle d;
  ASSERT_EQ(fake.openDir(kRoot, "d", d), 0);
  EXPECT_EQ(clock.nowNs(), 11);
  ASSERT_EQ(fake.createFile(d, "f", {}, {}), 0);
  EXPECT_EQ(clock.nowNs(), 1'011);
  ASSERT_EQ(fake.statEntry(d, "f", false), 0);
  EXPECT_EQ(clock.nowNs(), 11'011);
  ASSERT_EQ(fake.readFile(d, "f", {}), 0);
  EXPECT_EQ(clock.nowNs(), 111'011);
  ASSERT_EQ(fake.unlinkFile(d, "f"), 0);
  EXPECT_EQ(clock.nowNs(), 1'111'011);
  ASSERT_EQ(fake.closeDir(d), 0);  // closeDir has no latency
  EXPECT_EQ(clock.nowNs(), 1'111'011);
  ASSERT_EQ(fake.removeDir(kRoot, "d"), 0);
  EXPECT_EQ(clock.nowNs(), 1'111'111);
  ASSERT_EQ(fake.makeDir(kRoot, "e"), 0);
  ASSERT_EQ(fake.renameEntry(kRoot, "e", "e2", EntryType::kDir), 0);
  EXPECT_EQ(clock.nowNs(), 11'111'121);
  std::uint64_t total = 0;
  ASSERT_EQ(fake.countEntries(kRoot, {}, {}, total), 0);
  EXPECT_EQ(clock.nowNs(), 111'111'121);
  ASSERT_EQ(fake.syncFileSystem(), 0);
  EXPECT_EQ(clock.nowNs(), 1'111'111'121);
}

TEST(FakeBackend, FailedCallsTakeTheirLatencyToo) {
  ManualClock clock;
  FakeBackend fake(&clock);
  fake.setLatency(FakeOp::kStat, microseconds(3));
  fake.addFault(FakeFault{.op = FakeOp::kStat, .every = 2, .err = EIO});
  EXPECT_EQ(fake.statEntry(kRoot, "absent", false), ENOENT);  // a semantic error
  EXPECT_EQ(fake.statEntry(kRoot, "absent", false), EIO);     // an injected fault
  EXPECT_EQ(fake.statEntry(DirHandle{}, "x", false), EBADF);  // a bad handle
  EXPECT_EQ(clock.nowNs(), 9'000);
  EXPECT_EQ(fake.calls(FakeOp::kStat), 3u);
}

TEST(FakeBackend, BusyWaitTakesAtLeastTheLatency) {
  FakeBackend fake;
  const auto latency = milliseconds(5);
  fake.setLatency(FakeOp::kMakeDir, latency);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(fake.makeDir(kRoot, "d"), 0);
  ASSERT_EQ(fake.makeDir(kRoot, "d"), EEXIST);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, 2 * latency);
}

}  // namespace
}  // namespace mdbench
