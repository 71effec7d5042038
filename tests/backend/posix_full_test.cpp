// The POSIX backend's options on real directories: the full path style's paths and modes, -k (mknod),
// --verify-write, -Y's call; and the null backend of -a DUMMY.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/backend/make_backend.hpp"
#include "mdbench/backend/null_backend.hpp"
#include "mdbench/backend/posix_backend.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/util/errno_name.hpp"

// The system calls a test needs to see or to spoil, interposed in this binary (the backend library is
// linked into it statically, so its calls land here); each does the real call unless a test asks otherwise.
namespace {
std::atomic<int> g_sync_calls{0};
std::atomic<int> g_syncfs_calls{0};
std::atomic<bool> g_spoil_reads{false};  // every read returns its bytes with the first one changed
}  // namespace

extern "C" void sync() noexcept {
  ++g_sync_calls;
  ::syscall(SYS_sync);
}

extern "C" int syncfs(int fd) noexcept {
  ++g_syncfs_calls;
  return static_cast<int>(::syscall(SYS_syncfs, fd));
}

extern "C" ssize_t read(int fd, void* buf, size_t count) {
  const auto n = static_cast<ssize_t>(::syscall(SYS_read, fd, buf, count));
  if (n > 0 && g_spoil_reads) static_cast<unsigned char*>(buf)[0] ^= 0xff;
  return n;
}

namespace mdbench {
namespace {

namespace fs = std::filesystem;

std::vector<std::byte> bytes(std::string_view s) {
  std::vector<std::byte> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = static_cast<std::byte>(s[i]);
  return out;
}

std::string readDisk(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

mode_t modeOf(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode;
}

// A fresh directory on tmpfs, removed afterwards; backends opened on it with the options a test gives.
class PosixOptionsTest : public ::testing::TestWithParam<PathStyle> {
 protected:
  void SetUp() override {
    std::string templ = "/dev/shm/mdbench-options-test-XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr) << describeErrno(errno);
    dir_ = templ;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    EXPECT_FALSE(ec) << ec.message();
  }
  std::unique_ptr<PosixBackend> open(PosixOptions options, const std::string& path = {}) {
    options.style = GetParam();
    int err = -1;
    auto backend = PosixBackend::open(path.empty() ? dir_.string() : path, options, err);
    EXPECT_NE(backend, nullptr) << describeErrno(err);
    return backend;
  }
  bool full() const { return GetParam() == PathStyle::kFull; }

  fs::path dir_;
};

TEST_P(PosixOptionsTest, ItemsLandUnderTheirDirectoriesPaths) {
  auto backend = open({}, dir_.string() + "//");  // trailing slashes are not doubled into the paths
  const DirHandle root = backend->root();
  ASSERT_EQ(backend->makeDir(root, "a"), 0);
  DirHandle a;
  ASSERT_EQ(backend->openDir(root, "a", a), 0);
  ASSERT_EQ(backend->makeDir(a, "b"), 0);
  DirHandle b;
  ASSERT_EQ(backend->openDir(a, "b", b), 0);
  ASSERT_EQ(backend->createFile(b, "f", bytes("deep"), {}), 0);
  EXPECT_EQ(readDisk(dir_ / "a/b/f"), "deep");
  EXPECT_EQ(backend->statEntry(b, "f", false), 0);
  std::vector<std::byte> buf(4);
  EXPECT_EQ(backend->readFile(b, "f", buf), 0);
  EXPECT_EQ(backend->renameEntry(b, "f", "g", EntryType::kFile), 0);
  EXPECT_EQ(readDisk(dir_ / "a/b/g"), "deep");
  EXPECT_EQ(backend->unlinkFile(b, "g"), 0);
  ASSERT_EQ(backend->closeDir(b), 0);
  EXPECT_EQ(backend->removeDir(a, "b"), 0);
  ASSERT_EQ(backend->closeDir(a), 0);
  // A closed handle names no directory any more, in either style.
  EXPECT_EQ(backend->createFile(a, "f", {}, {}), EBADF);
  EXPECT_EQ(backend->removeDir(root, "a"), 0);
  EXPECT_TRUE(fs::is_empty(dir_));
}

// A run directory swapped for a link while open: the full style's item calls follow the path (the limit
// docs/safety.md states), but within OwnFilesScope (the run's mark and record) every call goes by the
// directory's descriptor, in both styles: the file lands in, is read from, renamed and removed in the
// directory that was opened, and nothing appears in the link's target. The scopes nest.
TEST_P(PosixOptionsTest, OwnFilesGoByDescriptorWhenTheDirectoryIsSwapped) {
  auto backend = open({});
  const DirHandle root = backend->root();
  ASSERT_EQ(backend->makeDir(root, "run"), 0);
  DirHandle run;
  ASSERT_EQ(backend->openDir(root, "run", run), 0);
  fs::create_directory(dir_ / "victim");
  fs::rename(dir_ / "run", dir_ / "moved");
  fs::create_directory_symlink(dir_ / "victim", dir_ / "run");
  {
    const OwnFilesScope own(*backend);
    {
      const OwnFilesScope nested(*backend);
      EXPECT_EQ(backend->createFile(run, ".own.new", bytes("own"), {}), 0);
    }
    EXPECT_EQ(backend->renameEntry(run, ".own.new", ".own", EntryType::kFile), 0);
    std::vector<std::byte> buf(3);
    EXPECT_EQ(backend->readFile(run, ".own", buf), 0);
    EXPECT_EQ(readDisk(dir_ / "moved/.own"), "own");
    EXPECT_TRUE(fs::is_empty(dir_ / "victim"));
    EXPECT_EQ(backend->unlinkFile(run, ".own"), 0);
    EXPECT_EQ(backend->removeDir(root, "run"), ENOTDIR);  // the link is not the directory the run made
  }
  // Outside the scope an item's full path goes through the link; by descriptor it cannot.
  EXPECT_EQ(backend->createFile(run, "item", bytes("i"), {}), 0);
  EXPECT_EQ(fs::exists(dir_ / "victim/item"), full());
  EXPECT_EQ(fs::exists(dir_ / "moved/item"), !full());
  ASSERT_EQ(backend->closeDir(run), 0);
}

// mdtest's modes in the full style (DIRMODE 0775, POSIX_Create's 0664), mdbench's in the dirfd style.
TEST_P(PosixOptionsTest, ModesAreTheStylesOwn) {
  auto backend = open({});
  const mode_t saved = ::umask(0);
  const int mkdir_rc = backend->makeDir(backend->root(), "d");
  const int create_rc = backend->createFile(backend->root(), "f", bytes("x"), {});
  ::umask(saved);
  ASSERT_EQ(mkdir_rc, 0);
  ASSERT_EQ(create_rc, 0);
  EXPECT_EQ(modeOf(dir_ / "d") & 07777, full() ? 0775u : 0777u);
  EXPECT_EQ(modeOf(dir_ / "f") & 07777, full() ? 0664u : 0666u);
}

TEST_P(PosixOptionsTest, MakeNodeCreatesAnEmptyRegularFileExclusively) {
  auto backend = open({.make_node = true});
  const DirHandle root = backend->root();
  bool made = false;
  ASSERT_EQ(backend->createFile(root, "n", {}, CreateOptions{.made = &made}), 0);
  EXPECT_TRUE(made);
  const mode_t mode = modeOf(dir_ / "n");
  EXPECT_TRUE(S_ISREG(mode));
  if (full()) {
    EXPECT_EQ(mode & 07777, 0400u);  // mdtest's S_IRUSR
  }
  EXPECT_EQ(fs::file_size(dir_ / "n"), 0u);
  made = false;
  EXPECT_EQ(backend->createFile(root, "n", {}, CreateOptions{.made = &made}), EEXIST);
  EXPECT_FALSE(made);
  // A symlink planted under the name is neither followed nor replaced.
  fs::create_symlink(dir_ / "target", dir_ / "link");
  EXPECT_EQ(backend->createFile(root, "link", {}, {}), EEXIST);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "target")));
  EXPECT_TRUE(fs::is_symlink(dir_ / "link"));
  // A create with data (the run's own records) still opens and writes.
  ASSERT_EQ(backend->createFile(root, "w", bytes("data"), {}), 0);
  EXPECT_EQ(readDisk(dir_ / "w"), "data");
}

TEST_P(PosixOptionsTest, VerifyWriteReadsBackAndPasses) {
  auto backend = open({.verify_write = true});
  ASSERT_EQ(backend->createFile(backend->root(), "f", bytes("checked"), {}), 0);
  EXPECT_EQ(readDisk(dir_ / "f"), "checked");
  ASSERT_EQ(backend->createFile(backend->root(), "e", {}, {}), 0);  // nothing written, nothing to check
}

TEST_P(PosixOptionsTest, VerifyWriteMismatchIsEBADMSG) {
  auto backend = open({.verify_write = true});
  bool made = false;
  g_spoil_reads = true;
  const int err = backend->createFile(backend->root(), "f", bytes("checked"), CreateOptions{.made = &made});
  g_spoil_reads = false;
  EXPECT_EQ(err, EBADMSG);
  EXPECT_TRUE(made);  // the file is the run's to remove
  // Without --verify-write nothing is read back, so the same spoiling goes unseen.
  auto plain = open({});
  g_spoil_reads = true;
  const int plain_err = plain->createFile(plain->root(), "g", bytes("checked"), {});
  g_spoil_reads = false;
  EXPECT_EQ(plain_err, 0);
}

TEST_P(PosixOptionsTest, SyncCallIsTheOneAsked) {
  auto with_sync = open({.sync = SyncCall::kSync});
  auto with_syncfs = open({.sync = SyncCall::kSyncfs});
  g_sync_calls = 0;
  g_syncfs_calls = 0;
  EXPECT_EQ(with_sync->syncFileSystem(), 0);
  EXPECT_EQ(g_sync_calls, 1);
  EXPECT_EQ(g_syncfs_calls, 0);
  EXPECT_EQ(with_syncfs->syncFileSystem(), 0);
  EXPECT_EQ(g_sync_calls, 1);
  EXPECT_EQ(g_syncfs_calls, 1);
}

INSTANTIATE_TEST_SUITE_P(Styles, PosixOptionsTest, ::testing::Values(PathStyle::kFull, PathStyle::kDirfd),
                         [](const ::testing::TestParamInfo<PathStyle>& info) {
                           return std::string(pathStyleName(info.param));
                         });

TEST(MakeBackend, FollowsTheConfiguration) {
  Config config;
  int err = -1;
  config.api = Api::kDummy;
  auto dummy = makeBackend(config, "/nonexistent/mdbench/target", 0, err);
  ASSERT_NE(dummy, nullptr);
  EXPECT_EQ(err, 0);
  EXPECT_NE(dynamic_cast<NullBackend*>(dummy.get()), nullptr);
  config.api = Api::kPosix;
  EXPECT_EQ(makeBackend(config, "/nonexistent/mdbench/target", 0, err), nullptr);
  EXPECT_EQ(err, ENOENT);
  auto posix = makeBackend(config, "/dev/shm", 0, err);
  ASSERT_NE(posix, nullptr);
  EXPECT_NE(dynamic_cast<PosixBackend*>(posix.get()), nullptr);
}

// DUMMY: everything succeeds and nothing reaches the disk (it is never even given a real path).
TEST(NullBackend, SucceedsWithoutStoringAnything) {
  NullBackend backend;
  const DirHandle root = backend.root();
  EXPECT_TRUE(root.valid());
  DirHandle dir;
  EXPECT_EQ(backend.makeDir(root, "d"), 0);
  EXPECT_EQ(backend.openDir(root, "d", dir), 0);
  EXPECT_TRUE(dir.valid());
  bool made = false;
  EXPECT_EQ(backend.createFile(dir, "f", bytes("x"), CreateOptions{.made = &made}), 0);
  EXPECT_TRUE(made);
  // Items no rank made (another rank's in a shared tree) are there all the same: no store to miss them.
  EXPECT_EQ(backend.statEntry(dir, "never-made", false), 0);
  EXPECT_EQ(backend.statEntry(dir, "never-made", true), 0);
  std::vector<std::byte> buf(3, std::byte{7});
  EXPECT_EQ(backend.readFile(dir, "never-made", buf), 0);
  EXPECT_EQ(buf[0], std::byte{7});  // nothing read into it
  EXPECT_EQ(backend.renameEntry(dir, "f", "g", EntryType::kFile), 0);
  EXPECT_EQ(backend.unlinkFile(dir, "g"), 0);
  EXPECT_EQ(backend.removeDir(dir, "e"), 0);
  EXPECT_EQ(backend.syncFileSystem(), 0);
  EXPECT_EQ(backend.writeMark(dir), 0);
  EXPECT_EQ(backend.readMark(dir), MarkKind::kOurs);
  EXPECT_EQ(backend.closeDir(dir), 0);
  EXPECT_EQ(backend.closeDir(root), EBADF);
  EXPECT_EQ(backend.makeDir(DirHandle{}, "x"), EBADF);
}

TEST(NullBackend, KeepsNoOwnershipRecord) {
  NullBackend backend;
  EXPECT_TRUE(backend.storesNothing());
  const std::string name(kTakenName);
  std::string header(kTakenHeaderBytes, '\0');
  EXPECT_EQ(backend.readFile(backend.root(), name.c_str(), std::as_writable_bytes(std::span(header))),
            ENOENT);
}

TEST(NullBackend, ListingIsNotSupported) {
  NullBackend backend;
  const std::string_view prefixes[] = {"file."};
  std::uint64_t counts[1] = {9};
  std::uint64_t total = 9;
  EXPECT_EQ(backend.countEntries(backend.root(), prefixes, counts, total), ENOTSUP);
  EXPECT_EQ(counts[0], 0u);
  EXPECT_EQ(total, 0u);
}

}  // namespace
}  // namespace mdbench
