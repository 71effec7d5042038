// The backends' own options on real files (issue 30 item 6): --posix.odirect's O_DIRECT opens and aligned
// transfers, --posix.rangelocks's fcntl locks, --dummy.*'s sleeps; and fsinfo's O_DIRECT probe and unknown
// counts.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "mdbench/backend/fsinfo.hpp"
#include "mdbench/backend/make_backend.hpp"
#include "mdbench/backend/posix_backend.hpp"
#include "mdbench/util/errno_name.hpp"

// open, openat and fcntl interposed in this binary (the backend library is linked in statically): while a
// test records, the flags of each open and the lock requests are kept; every call is the real one.
namespace {
std::atomic<bool> g_record{false};
std::mutex g_mutex;
std::vector<int> g_open_flags;
std::vector<short> g_lock_types;  // F_RDLCK, F_WRLCK, F_UNLCK in the order asked

void recordOpen(int flags) {
  if (!g_record) return;
  const std::lock_guard lock(g_mutex);
  g_open_flags.push_back(flags);
}
}  // namespace

namespace {
bool takesMode(int flags) { return (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE; }
int recordedOpenat(int dir_fd, const char* path, int flags, mode_t mode) {
  recordOpen(flags);
  return static_cast<int>(::syscall(SYS_openat, dir_fd, path, flags, mode));
}
}  // namespace

extern "C" int open(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = takesMode(flags) ? va_arg(args, mode_t) : 0;
  va_end(args);
  return recordedOpenat(AT_FDCWD, path, flags, mode);
}

extern "C" int openat(int dir_fd, const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = takesMode(flags) ? va_arg(args, mode_t) : 0;
  va_end(args);
  return recordedOpenat(dir_fd, path, flags, mode);
}

extern "C" int fcntl(int fd, int cmd, ...) {
  va_list args;
  va_start(args, cmd);
  void* arg = va_arg(args, void*);
  va_end(args);
  if (g_record && (cmd == F_SETLK || cmd == F_SETLKW)) {
    const std::lock_guard lock(g_mutex);
    g_lock_types.push_back(static_cast<const struct flock*>(arg)->l_type);
  }
  return static_cast<int>(::syscall(SYS_fcntl, fd, cmd, arg));
}

namespace mdbench {
namespace {

namespace fs = std::filesystem;

std::vector<std::byte> pattern(std::size_t n) {
  std::vector<std::byte> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::byte>(i * 7 + 1);
  return out;
}

// A fresh directory in the build tree (a disk file system: tmpfs took O_DIRECT only from Linux 6.6).
class PosixDataOptionsTest : public ::testing::TestWithParam<PathStyle> {
 protected:
  void SetUp() override {
    std::string templ = (fs::current_path() / "mdbench-posix-options-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr) << describeErrno(errno);
    dir_ = templ;
    std::uint32_t align = 0;
    ASSERT_EQ(probeDirectIo(dir_.string(), align), 0) << "the build tree's file system takes no O_DIRECT";
  }
  void TearDown() override {
    g_record = false;
    g_open_flags.clear();
    g_lock_types.clear();
    std::error_code ec;
    fs::remove_all(dir_, ec);
    EXPECT_FALSE(ec) << ec.message();
  }
  std::unique_ptr<Backend> open(bool odirect, bool rangelocks) {
    Config config;
    config.path_style = GetParam();
    config.posix.odirect = odirect;
    config.posix.rangelocks = rangelocks;
    int err = -1;
    auto backend = makeBackend(config, dir_.string(), 0, err);
    EXPECT_NE(backend, nullptr) << describeErrno(err);
    return backend;
  }
  fs::path dir_;
};

// The file's opens carry O_DIRECT, and the bytes (from an unaligned vector) arrive and come back whole.
TEST_P(PosixDataOptionsTest, OdirectOpensWithODirectAndMovesTheBytes) {
  auto backend = open(true, false);
  const std::vector<std::byte> data = pattern(8192);
  g_record = true;
  ASSERT_EQ(backend->createFile(backend->root(), "f", std::span(data).subspan(0, 4096), {}), 0);
  std::vector<std::byte> back(4096 + 1);
  const std::span<std::byte> unaligned = std::span(back).subspan(1);  // never page-aligned
  ASSERT_EQ(backend->readFile(backend->root(), "f", unaligned), 0);
  g_record = false;
  EXPECT_TRUE(std::equal(unaligned.begin(), unaligned.end(), data.begin()));
  ASSERT_EQ(g_open_flags.size(), 2u);
  EXPECT_NE(g_open_flags[0] & O_DIRECT, 0);
  EXPECT_NE(g_open_flags[0] & O_EXCL, 0);
  EXPECT_NE(g_open_flags[1] & O_DIRECT, 0);
  // A length the file system's alignment does not divide fails as O_DIRECT makes it fail, counted.
  EXPECT_EQ(backend->createFile(backend->root(), "g", std::span(data).subspan(0, 3), {}), EINVAL);
}

TEST_P(PosixDataOptionsTest, WithoutOdirectNoODirect) {
  auto backend = open(false, false);
  const std::vector<std::byte> data = pattern(4096);
  g_record = true;
  ASSERT_EQ(backend->createFile(backend->root(), "f", data, {}), 0);
  g_record = false;
  ASSERT_EQ(g_open_flags.size(), 1u);
  EXPECT_EQ(g_open_flags[0] & O_DIRECT, 0);
  EXPECT_TRUE(g_lock_types.empty());
}

// mdtest's POSIX_Xfer: a write lock around the write, a read lock around the read, each released after;
// nothing to lock without bytes.
TEST_P(PosixDataOptionsTest, RangelocksLockEachTransfer) {
  auto backend = open(false, true);
  const std::vector<std::byte> data = pattern(100);
  g_record = true;
  ASSERT_EQ(backend->createFile(backend->root(), "f", data, {}), 0);
  std::vector<std::byte> back(100);
  ASSERT_EQ(backend->readFile(backend->root(), "f", back), 0);
  ASSERT_EQ(backend->createFile(backend->root(), "empty", {}, {}), 0);
  g_record = false;
  EXPECT_EQ(back, data);
  EXPECT_EQ(g_lock_types, (std::vector<short>{F_WRLCK, F_UNLCK, F_RDLCK, F_UNLCK}));
}

INSTANTIATE_TEST_SUITE_P(Styles, PosixDataOptionsTest, ::testing::Values(PathStyle::kFull, PathStyle::kDirfd),
                         [](const ::testing::TestParamInfo<PathStyle>& info) {
                           return std::string(pathStyleName(info.param));
                         });

// The probe leaves nothing behind (an unnamed file) and gives the alignment the kernel reports.
TEST(DirectIoProbe, LeavesNothingAndFailsOnAMissingDirectory) {
  const fs::path dir = fs::current_path() / "mdbench-probe-test";
  fs::remove_all(dir);
  fs::create_directory(dir);
  std::uint32_t align = 7;
  EXPECT_EQ(probeDirectIo(dir.string(), align), 0);
  EXPECT_NE(align, 7u);
  EXPECT_TRUE(fs::is_empty(dir));
  EXPECT_EQ(probeDirectIo((dir / "missing").string(), align), ENOENT);
  fs::remove_all(dir);
}

// statvfs's all-ones and free-above-total (ceph-fuse's inodes) are unknown, not numbers.
TEST(FsInfo, UnknownCountsAreMarkedUnknown) {
  FsInfo fuse{.type = "fuse",
              .total_bytes = 100,
              .free_bytes = 50,
              .total_inodes = 2,
              .free_inodes = 18446744073709551615ull - 5};
  knownCounts(fuse);
  EXPECT_EQ(fuse.free_inodes, kUnknownCount);
  EXPECT_EQ(fuse.total_inodes, 2u);
  EXPECT_EQ(fuse.free_bytes, 50u);
  FsInfo ones{.type = "x",
              .total_bytes = 10,
              .free_bytes = 20,
              .total_inodes = kUnknownCount,
              .free_inodes = kUnknownCount};
  knownCounts(ones);
  EXPECT_EQ(ones.total_inodes, kUnknownCount);
  EXPECT_EQ(ones.free_inodes, kUnknownCount);
  EXPECT_EQ(ones.free_bytes, kUnknownCount);
  FsInfo known{.type = "ext4", .total_bytes = 10, .free_bytes = 5, .total_inodes = 4, .free_inodes = 3};
  knownCounts(known);
  EXPECT_EQ(known.free_inodes, 3u);
  EXPECT_EQ(known.total_inodes, 4u);
  EXPECT_EQ(known.free_bytes, 5u);
}

// --dummy.*: the sleeps where mdtest's DUMMY sleeps, on rank 0 only with delay-only-rank0.
double secondsOf(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(DummyDelays, SleepPerCreateTransferCloseAndSync) {
  Config config;
  config.api = Api::kDummy;
  config.dummy = {.delay_create_us = 40'000,
                  .delay_close_us = 20'000,
                  .delay_sync_us = 60'000,
                  .delay_xfer_us = 30'000,
                  .delay_only_rank0 = true};
  int err = -1;
  auto rank0 = makeBackend(config, "unused", 0, err);
  ASSERT_NE(rank0, nullptr);
  const std::vector<std::byte> data = pattern(8);
  std::vector<std::byte> buf(8);
  EXPECT_GE(secondsOf([&] { EXPECT_EQ(rank0->createFile(rank0->root(), "f", {}, {}), 0); }), 0.060);
  EXPECT_GE(secondsOf([&] { EXPECT_EQ(rank0->createFile(rank0->root(), "f", data, {}), 0); }), 0.090);
  EXPECT_GE(secondsOf([&] { EXPECT_EQ(rank0->readFile(rank0->root(), "f", buf), 0); }), 0.050);
  EXPECT_GE(secondsOf([&] { EXPECT_EQ(rank0->syncFileSystem(), 0); }), 0.060);
  auto rank1 = makeBackend(config, "unused", 1, err);
  ASSERT_NE(rank1, nullptr);
  const double idle = secondsOf([&] {
    EXPECT_EQ(rank1->createFile(rank1->root(), "f", data, {}), 0);
    EXPECT_EQ(rank1->syncFileSystem(), 0);
  });
  EXPECT_LT(idle, 0.050);  // 150 ms of delays, none slept
}

}  // namespace
}  // namespace mdbench
