// The POSIX backend on real directories, tmpfs (/dev/shm) and disk (/tmp), plus errno names and fsinfo.
#include "mdbench/backend/posix_backend.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <vector>

#include "mdbench/backend/fsinfo.hpp"
#include "mdbench/util/errno_name.hpp"

namespace mdbench {
namespace {

namespace fs = std::filesystem;

std::vector<std::byte> bytes(std::string_view s) {
  std::vector<std::byte> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = static_cast<std::byte>(s[i]);
  return out;
}

std::string text(std::span<const std::byte> b) {
  std::string out(b.size(), '\0');
  for (std::size_t i = 0; i < b.size(); ++i) out[i] = static_cast<char>(b[i]);
  return out;
}

std::string readDisk(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeDisk(const fs::path& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

// Each test gets a fresh directory under the parameter's file system, removed afterwards, and runs in both
// path styles: every promise below holds in each.
class PosixBackendTest : public ::testing::TestWithParam<std::tuple<const char*, PathStyle>> {
 protected:
  void SetUp() override {
    std::string templ = std::string(std::get<0>(GetParam())) + "/mdbench-backend-test-XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr) << templ << ": " << describeErrno(errno);
    dir_ = templ;
    int err = -1;
    backend_ = PosixBackend::open(dir_.string(), PosixOptions{.style = std::get<1>(GetParam())}, err);
    ASSERT_NE(backend_, nullptr) << describeErrno(err);
    ASSERT_EQ(err, 0);
    root_ = backend_->root();
  }

  void TearDown() override {
    backend_.reset();
    if (dir_.empty()) return;
    std::error_code ec;
    fs::remove_all(dir_, ec);  // does not follow the symlinks the tests plant
    EXPECT_FALSE(ec) << ec.message();
    EXPECT_FALSE(fs::exists(fs::symlink_status(dir_))) << dir_;
  }

  bool full() const { return std::get<1>(GetParam()) == PathStyle::kFull; }

  fs::path dir_;
  std::unique_ptr<PosixBackend> backend_;
  DirHandle root_;
};

TEST_P(PosixBackendTest, CreateStatReadUnlinkRoundTrip) {
  const auto data = bytes("hello, metadata");
  ASSERT_EQ(backend_->createFile(root_, "f", data, {}), 0);
  EXPECT_EQ(readDisk(dir_ / "f"), "hello, metadata");
  EXPECT_EQ(backend_->statEntry(root_, "f", false), 0);

  std::vector<std::byte> buf(data.size());
  ASSERT_EQ(backend_->readFile(root_, "f", buf), 0);
  EXPECT_EQ(text(buf), "hello, metadata");
  std::vector<std::byte> prefix(5);
  ASSERT_EQ(backend_->readFile(root_, "f", prefix), 0);
  EXPECT_EQ(text(prefix), "hello");

  ASSERT_EQ(backend_->unlinkFile(root_, "f"), 0);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "f")));
  EXPECT_EQ(backend_->unlinkFile(root_, "f"), ENOENT);
  EXPECT_EQ(backend_->statEntry(root_, "f", false), ENOENT);
  EXPECT_EQ(backend_->readFile(root_, "f", buf), ENOENT);
}

TEST_P(PosixBackendTest, EmptyFileAndEmptyBuffer) {
  ASSERT_EQ(backend_->createFile(root_, "empty", {}, {}), 0);
  EXPECT_EQ(fs::file_size(dir_ / "empty"), 0u);
  EXPECT_EQ(backend_->readFile(root_, "empty", {}), 0);
  std::vector<std::byte> one(1);
  EXPECT_EQ(backend_->readFile(root_, "empty", one), ENODATA);
}

TEST_P(PosixBackendTest, LargeFileIsWrittenAndReadCompletely) {
  std::string content(2u << 20, '\0');
  for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>('a' + i % 23);
  ASSERT_EQ(backend_->createFile(root_, "big", bytes(content), {}), 0);
  // Compared as booleans: a diff of two megabytes would drown the report.
  EXPECT_TRUE(readDisk(dir_ / "big") == content);
  std::vector<std::byte> buf(content.size());
  ASSERT_EQ(backend_->readFile(root_, "big", buf), 0);
  EXPECT_TRUE(text(buf) == content);
}

TEST_P(PosixBackendTest, CreateIsExclusiveAndLeavesExistingContent) {
  writeDisk(dir_ / "f", "original");
  EXPECT_EQ(backend_->createFile(root_, "f", bytes("new"), {}), EEXIST);
  EXPECT_EQ(readDisk(dir_ / "f"), "original");

  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  EXPECT_EQ(backend_->createFile(root_, "d", bytes("new"), {}), EEXIST);
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(dir_ / "d")));
  EXPECT_EQ(backend_->makeDir(root_, "d"), EEXIST);
  EXPECT_EQ(backend_->makeDir(root_, "f"), EEXIST);
}

TEST_P(PosixBackendTest, SymlinkToFileIsNeverFollowed) {
  writeDisk(dir_ / "target", "secret");
  fs::create_symlink(dir_ / "target", dir_ / "link");
  std::vector<std::byte> buf(3);
  DirHandle out;

  EXPECT_EQ(backend_->createFile(root_, "link", bytes("overwritten"), {}), EEXIST);
  EXPECT_EQ(backend_->readFile(root_, "link", buf), ELOOP);
  EXPECT_EQ(backend_->readFile(root_, "link", {}), ELOOP);
  EXPECT_EQ(backend_->statEntry(root_, "link", false), EINVAL);
  EXPECT_EQ(backend_->statEntry(root_, "link", true), ENOTDIR);
  EXPECT_EQ(backend_->openDir(root_, "link", out), ENOTDIR);
  EXPECT_FALSE(out.valid());
  EXPECT_EQ(backend_->makeDir(root_, "link"), EEXIST);
  EXPECT_EQ(backend_->removeDir(root_, "link"), ENOTDIR);
  EXPECT_EQ(readDisk(dir_ / "target"), "secret");

  // Unlinking refuses the link: mdbench removes only the regular files it made; link and target stay.
  EXPECT_EQ(backend_->unlinkFile(root_, "link"), EINVAL);
  EXPECT_TRUE(fs::is_symlink(dir_ / "link"));
  EXPECT_EQ(readDisk(dir_ / "target"), "secret");
}

TEST_P(PosixBackendTest, SymlinkToDirectoryIsNeverFollowed) {
  fs::create_directory(dir_ / "target");
  writeDisk(dir_ / "target" / "inside", "kept");
  fs::create_symlink(dir_ / "target", dir_ / "link");
  DirHandle out;

  EXPECT_EQ(backend_->openDir(root_, "link", out), ENOTDIR);
  EXPECT_FALSE(out.valid());
  EXPECT_EQ(backend_->statEntry(root_, "link", true), ENOTDIR);
  EXPECT_EQ(backend_->statEntry(root_, "link", false), EINVAL);
  EXPECT_EQ(backend_->removeDir(root_, "link"), ENOTDIR);
  EXPECT_EQ(backend_->createFile(root_, "link", bytes("x"), {}), EEXIST);
  EXPECT_EQ(backend_->makeDir(root_, "link"), EEXIST);
  std::vector<std::byte> buf(1);
  EXPECT_EQ(backend_->readFile(root_, "link", buf), ELOOP);

  EXPECT_TRUE(fs::is_symlink(dir_ / "link"));
  EXPECT_EQ(readDisk(dir_ / "target" / "inside"), "kept");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "target"), fs::directory_iterator()), 1);
}

TEST_P(PosixBackendTest, DanglingSymlinkIsNotCreatedThrough) {
  fs::create_symlink(dir_ / "absent", dir_ / "link");
  EXPECT_EQ(backend_->createFile(root_, "link", bytes("x"), {}), EEXIST);
  EXPECT_EQ(backend_->statEntry(root_, "link", false), EINVAL);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "absent")));
}

TEST_P(PosixBackendTest, OpenRequiresARealDirectory) {
  fs::create_directory(dir_ / "real");
  fs::create_symlink(dir_ / "real", dir_ / "link");
  writeDisk(dir_ / "file", "x");
  int err = 0;
  EXPECT_EQ(PosixBackend::open((dir_ / "link").string(), err), nullptr);
  EXPECT_EQ(err, ENOTDIR);
  EXPECT_EQ(PosixBackend::open((dir_ / "file").string(), err), nullptr);
  EXPECT_EQ(err, ENOTDIR);
  EXPECT_EQ(PosixBackend::open((dir_ / "absent").string(), err), nullptr);
  EXPECT_EQ(err, ENOENT);
  auto real = PosixBackend::open((dir_ / "real").string(), err);
  ASSERT_NE(real, nullptr);
  EXPECT_EQ(err, 0);
  EXPECT_TRUE(real->root().valid());
}

TEST_P(PosixBackendTest, RemoveDirRequiresAnEmptyDirectory) {
  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  writeDisk(dir_ / "d" / "f", "x");
  EXPECT_EQ(backend_->removeDir(root_, "d"), ENOTEMPTY);
  EXPECT_TRUE(fs::exists(dir_ / "d" / "f"));
  fs::remove(dir_ / "d" / "f");
  EXPECT_EQ(backend_->removeDir(root_, "d"), 0);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "d")));
  EXPECT_EQ(backend_->removeDir(root_, "d"), ENOENT);

  writeDisk(dir_ / "f", "x");
  EXPECT_EQ(backend_->removeDir(root_, "f"), ENOTDIR);
  EXPECT_TRUE(fs::exists(dir_ / "f"));
}

TEST_P(PosixBackendTest, ShortReadIsENODATA) {
  writeDisk(dir_ / "f", "abc");
  std::vector<std::byte> four(4);
  EXPECT_EQ(backend_->readFile(root_, "f", four), ENODATA);
  std::vector<std::byte> three(3);
  EXPECT_EQ(backend_->readFile(root_, "f", three), 0);
  EXPECT_EQ(text(three), "abc");
}

TEST_P(PosixBackendTest, ReadingADirectory) {
  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  std::vector<std::byte> buf(1);
  EXPECT_EQ(backend_->readFile(root_, "d", buf), EISDIR);
  // Also with an empty buffer (only open and close): a directory is not a file (the fake mirrors this).
  EXPECT_EQ(backend_->readFile(root_, "d", {}), EISDIR);
}

TEST_P(PosixBackendTest, StatChecksTheKind) {
  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  ASSERT_EQ(backend_->createFile(root_, "f", bytes("x"), {}), 0);
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0) << describeErrno(errno);

  EXPECT_EQ(backend_->statEntry(root_, "d", true), 0);
  EXPECT_EQ(backend_->statEntry(root_, "d", false), EISDIR);
  EXPECT_EQ(backend_->statEntry(root_, "f", false), 0);
  EXPECT_EQ(backend_->statEntry(root_, "f", true), ENOTDIR);
  EXPECT_EQ(backend_->statEntry(root_, "fifo", false), EINVAL);
  EXPECT_EQ(backend_->statEntry(root_, "fifo", true), ENOTDIR);
  EXPECT_EQ(backend_->statEntry(root_, "absent", false), ENOENT);
  EXPECT_EQ(backend_->statEntry(root_, "absent", true), ENOENT);
}

TEST_P(PosixBackendTest, UnlinkRefusesDirectories) {
  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  EXPECT_EQ(backend_->unlinkFile(root_, "d"), EISDIR);
  EXPECT_TRUE(fs::is_directory(dir_ / "d"));
}

TEST_P(PosixBackendTest, NestedDirectories) {
  ASSERT_EQ(backend_->makeDir(root_, "a"), 0);
  DirHandle a;
  ASSERT_EQ(backend_->openDir(root_, "a", a), 0);
  ASSERT_TRUE(a.valid());
  EXPECT_NE(a.value, root_.value);
  ASSERT_EQ(backend_->makeDir(a, "b"), 0);
  DirHandle b;
  ASSERT_EQ(backend_->openDir(a, "b", b), 0);
  ASSERT_EQ(backend_->createFile(b, "f", bytes("deep"), {}), 0);
  EXPECT_EQ(readDisk(dir_ / "a" / "b" / "f"), "deep");
  EXPECT_EQ(backend_->statEntry(a, "b", true), 0);
  EXPECT_EQ(backend_->statEntry(b, "f", false), 0);
  EXPECT_EQ(backend_->statEntry(root_, "f", false), ENOENT);

  DirHandle out{42};
  EXPECT_EQ(backend_->openDir(a, "absent", out), ENOENT);
  EXPECT_FALSE(out.valid());
  EXPECT_EQ(backend_->openDir(b, "f", out), ENOTDIR);
  EXPECT_FALSE(out.valid());

  EXPECT_EQ(backend_->unlinkFile(b, "f"), 0);
  EXPECT_EQ(backend_->closeDir(b), 0);
  EXPECT_EQ(backend_->removeDir(a, "b"), 0);
  EXPECT_EQ(backend_->closeDir(a), 0);
  EXPECT_EQ(backend_->removeDir(root_, "a"), 0);
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_P(PosixBackendTest, InvalidHandlesAreEBADF) {
  std::vector<std::byte> buf(1);
  // -100 is AT_FDCWD: it must not silently mean the working directory.
  for (const DirHandle bad : {DirHandle{}, DirHandle{AT_FDCWD}}) {
    DirHandle out;
    EXPECT_EQ(backend_->openDir(bad, "x", out), EBADF);
    EXPECT_EQ(backend_->makeDir(bad, "x"), EBADF);
    EXPECT_EQ(backend_->removeDir(bad, "x"), EBADF);
    EXPECT_EQ(backend_->createFile(bad, "x", bytes("x"), {}), EBADF);
    EXPECT_EQ(backend_->statEntry(bad, "x", false), EBADF);
    EXPECT_EQ(backend_->readFile(bad, "x", buf), EBADF);
    EXPECT_EQ(backend_->unlinkFile(bad, "x"), EBADF);
    EXPECT_EQ(backend_->renameEntry(bad, "x", "y", EntryType::kFile), EBADF);
    std::uint64_t total = 0;
    EXPECT_EQ(backend_->countEntries(bad, {}, {}, total), EBADF);
    EXPECT_EQ(backend_->closeDir(bad), EBADF);
  }
  // The root belongs to the backend: closing it is refused and it stays usable.
  EXPECT_EQ(backend_->closeDir(root_), EBADF);
  EXPECT_EQ(backend_->makeDir(root_, "still-works"), 0);
}

TEST_P(PosixBackendTest, ModesFollowTheUmask) {
  const mode_t saved = ::umask(027);
  const int mkdir_rc = backend_->makeDir(root_, "d");
  const int create_rc = backend_->createFile(root_, "f", bytes("x"), {});
  ::umask(saved);
  ASSERT_EQ(mkdir_rc, 0);
  ASSERT_EQ(create_rc, 0);
  struct stat st;
  ASSERT_EQ(::stat((dir_ / "d").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0750u);
  ASSERT_EQ(::stat((dir_ / "f").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
}

TEST_P(PosixBackendTest, DestructorClosesTheRootDescriptor) {
  const int fd = static_cast<int>(root_.value);
  ASSERT_NE(::fcntl(fd, F_GETFD), -1);
  EXPECT_EQ(::fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
  backend_.reset();
  errno = 0;
  EXPECT_EQ(::fcntl(fd, F_GETFD), -1);
  EXPECT_EQ(errno, EBADF);
}

constexpr CreateOptions kOpenCreated{.mode = CreateMode::kOpenCreated, .fsync = false};

TEST_P(PosixBackendTest, OpenCreatedWritesIntoTheFileItsCreatorMade) {
  ASSERT_EQ(backend_->createFile(root_, "f", bytes("made"), {}), 0);
  struct stat before;
  ASSERT_EQ(::stat((dir_ / "f").c_str(), &before), 0);
  ASSERT_EQ(backend_->createFile(root_, "f", bytes("MADE"), kOpenCreated), 0);
  struct stat after;
  ASSERT_EQ(::stat((dir_ / "f").c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);  // the same file, not a replacement
  EXPECT_EQ(readDisk(dir_ / "f"), "MADE");
}

TEST_P(PosixBackendTest, OpenCreatedNeverCreates) {
  EXPECT_EQ(backend_->createFile(root_, "absent", bytes("x"), kOpenCreated), ENOENT);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "absent")));
}

TEST_P(PosixBackendTest, OpenCreatedNeverWritesIntoWhatItsCreatorCannotHaveMade) {
  writeDisk(dir_ / "precious", "secret");
  fs::create_hard_link(dir_ / "precious", dir_ / "hardlink");
  fs::create_symlink(dir_ / "precious", dir_ / "link");
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  writeDisk(dir_ / "other-size", "longer than the data");

  EXPECT_EQ(backend_->createFile(root_, "hardlink", bytes("XXXXXX"), kOpenCreated), EMLINK);
  EXPECT_EQ(backend_->createFile(root_, "link", bytes("XXXXXX"), kOpenCreated), ELOOP);
  EXPECT_EQ(backend_->createFile(root_, "fifo", bytes("x"), kOpenCreated), ENXIO);  // no reader: no wait
  EXPECT_EQ(backend_->createFile(root_, "d", bytes("x"), kOpenCreated), EISDIR);
  EXPECT_EQ(backend_->createFile(root_, "other-size", bytes("x"), kOpenCreated), EBADMSG);
  EXPECT_EQ(readDisk(dir_ / "precious"), "secret");
  EXPECT_EQ(readDisk(dir_ / "other-size"), "longer than the data");
  EXPECT_TRUE(fs::is_empty(dir_ / "d"));
}

TEST_P(PosixBackendTest, RemovesAndReadsRefuseWhatMdbenchDoesNotMake) {
  writeDisk(dir_ / "target", "secret");
  fs::create_symlink(dir_ / "target", dir_ / "link");
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  std::vector<std::byte> buf(3);

  EXPECT_EQ(backend_->unlinkFile(root_, "fifo"), EINVAL);
  EXPECT_EQ(backend_->unlinkFile(root_, "d"), EISDIR);
  EXPECT_EQ(backend_->readFile(root_, "fifo", buf), EINVAL);  // at once, not blocked waiting for a writer
  // With nothing to read, the full style opens and closes, as mdtest does (no byte of the FIFO moves); the
  // dirfd style checks the type on the descriptor.
  EXPECT_EQ(backend_->readFile(root_, "fifo", {}), full() ? 0 : EINVAL);
  EXPECT_EQ(backend_->removeDir(root_, "link"), ENOTDIR);
  EXPECT_EQ(backend_->removeDir(root_, "fifo"), ENOTDIR);
  EXPECT_EQ(fs::status(dir_ / "fifo").type(), fs::file_type::fifo);
  EXPECT_TRUE(fs::is_symlink(dir_ / "link"));
  EXPECT_EQ(readDisk(dir_ / "target"), "secret");
}

// A file-remove phase checks the types by one listing per directory (TypeCheckBatch): regular files go at
// once, a planted link or FIFO stays (EINVAL), a directory too (EISDIR); each directory is listed on its own,
// and a new batch lists again, so a link planted between two batches is caught.
TEST_P(PosixBackendTest, RemovalBatchChecksTypesByOneListing) {
  writeDisk(dir_ / "target", "secret");
  writeDisk(dir_ / "f1", "1");
  writeDisk(dir_ / "f2", "2");
  fs::create_symlink(dir_ / "target", dir_ / "link");
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  ASSERT_EQ(backend_->makeDir(root_, "sub"), 0);
  writeDisk(dir_ / "sub" / "g", "g");
  fs::create_symlink(dir_ / "target", dir_ / "sub" / "glink");
  DirHandle sub;
  ASSERT_EQ(backend_->openDir(root_, "sub", sub), 0);
  {
    const TypeCheckBatch batch(*backend_, EntryType::kFile, true);
    EXPECT_EQ(backend_->unlinkFile(root_, "f1"), 0);
    EXPECT_EQ(backend_->unlinkFile(root_, "link"), EINVAL);
    EXPECT_EQ(backend_->unlinkFile(root_, "fifo"), EINVAL);
    EXPECT_EQ(backend_->unlinkFile(root_, "d"), EISDIR);
    EXPECT_EQ(backend_->unlinkFile(root_, "missing"), ENOENT);
    EXPECT_EQ(backend_->unlinkFile(sub, "glink"), EINVAL);
    EXPECT_EQ(backend_->unlinkFile(sub, "g"), 0);
  }
  ASSERT_EQ(backend_->closeDir(sub), 0);
  // Planted after that batch: the next batch's listing sees it; so does the check outside any batch.
  fs::remove(dir_ / "f2");
  fs::create_symlink(dir_ / "target", dir_ / "f2");
  {
    const TypeCheckBatch batch(*backend_, EntryType::kFile, true);
    EXPECT_EQ(backend_->unlinkFile(root_, "f2"), EINVAL);
  }
  EXPECT_EQ(backend_->unlinkFile(root_, "f2"), EINVAL);
  {
    const TypeCheckBatch off(*backend_, EntryType::kFile, false);  // no batch: every name checked
    EXPECT_EQ(backend_->unlinkFile(root_, "link"), EINVAL);
  }
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "f1")));
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "sub" / "g")));
  EXPECT_TRUE(fs::is_symlink(dir_ / "link"));
  EXPECT_TRUE(fs::is_symlink(dir_ / "f2"));
  EXPECT_TRUE(fs::is_symlink(dir_ / "sub" / "glink"));
  EXPECT_EQ(fs::status(dir_ / "fifo").type(), fs::file_type::fifo);
  EXPECT_TRUE(fs::is_directory(dir_ / "d"));
  EXPECT_EQ(readDisk(dir_ / "target"), "secret");
}

// A rename phase checks the types by one listing per directory too (TypeCheckBatch with the phase's type):
// a directory listed as one is renamed at once; a link, a FIFO or a file under a directory's name stays,
// refused (ENOTDIR), and so does a directory under a file's name (EISDIR); nothing is ever replaced.
TEST_P(PosixBackendTest, RenameBatchChecksTypesByOneListing) {
  writeDisk(dir_ / "target", "secret");
  writeDisk(dir_ / "f", "f");
  ASSERT_EQ(backend_->makeDir(root_, "d1"), 0);
  ASSERT_EQ(backend_->makeDir(root_, "d2"), 0);
  ASSERT_EQ(backend_->makeDir(root_, "taken"), 0);
  fs::create_symlink(dir_ / "d2", dir_ / "dlink");
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  {
    const TypeCheckBatch batch(*backend_, EntryType::kDir, true);
    EXPECT_EQ(backend_->renameEntry(root_, "d1", "d1.renamed", EntryType::kDir), 0);
    EXPECT_EQ(backend_->renameEntry(root_, "dlink", "dlink.renamed", EntryType::kDir), ENOTDIR);
    EXPECT_EQ(backend_->renameEntry(root_, "fifo", "fifo.renamed", EntryType::kDir), ENOTDIR);
    EXPECT_EQ(backend_->renameEntry(root_, "f", "f.renamed", EntryType::kDir), ENOTDIR);
    EXPECT_EQ(backend_->renameEntry(root_, "d2", "taken", EntryType::kDir), EEXIST);
  }
  {
    const TypeCheckBatch batch(*backend_, EntryType::kFile, true);
    EXPECT_EQ(backend_->renameEntry(root_, "d2", "d2.renamed", EntryType::kFile), EISDIR);
    EXPECT_EQ(backend_->renameEntry(root_, "dlink", "dlink.renamed", EntryType::kFile), EINVAL);
    EXPECT_EQ(backend_->renameEntry(root_, "f", "f.renamed", EntryType::kFile), 0);
  }
  EXPECT_TRUE(fs::is_directory(dir_ / "d1.renamed"));
  EXPECT_TRUE(fs::is_directory(dir_ / "d2"));
  EXPECT_TRUE(fs::is_directory(dir_ / "taken"));
  EXPECT_TRUE(fs::is_symlink(dir_ / "dlink"));
  EXPECT_EQ(fs::status(dir_ / "fifo").type(), fs::file_type::fifo);
  EXPECT_EQ(readDisk(dir_ / "f.renamed"), "f");
  EXPECT_EQ(readDisk(dir_ / "target"), "secret");
}

TEST_P(PosixBackendTest, FsyncPathWritesTheData) {
  // Durability cannot be observed here; check that the fsync path succeeds and leaves the data.
  const CreateOptions exclusive_sync{.mode = CreateMode::kExclusive, .fsync = true};
  const CreateOptions shared_sync{.mode = CreateMode::kOpenCreated, .fsync = true};
  ASSERT_EQ(backend_->createFile(root_, "a", bytes("synced"), exclusive_sync), 0);
  EXPECT_EQ(readDisk(dir_ / "a"), "synced");
  EXPECT_EQ(backend_->createFile(root_, "a", bytes("x"), exclusive_sync), EEXIST);
  ASSERT_EQ(backend_->createFile(root_, "b", bytes("shared"), {}), 0);
  ASSERT_EQ(backend_->createFile(root_, "b", bytes("SHARED"), shared_sync), 0);
  EXPECT_EQ(readDisk(dir_ / "b"), "SHARED");
  ASSERT_EQ(backend_->createFile(root_, "empty", {}, exclusive_sync), 0);
  EXPECT_EQ(fs::file_size(dir_ / "empty"), 0u);
}

TEST_P(PosixBackendTest, RenameMovesAFile) {
  writeDisk(dir_ / "from", "content");
  ASSERT_EQ(backend_->renameEntry(root_, "from", "to", EntryType::kFile), 0);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "from")));
  EXPECT_EQ(readDisk(dir_ / "to"), "content");
  EXPECT_EQ(backend_->renameEntry(root_, "from", "to", EntryType::kFile), ENOENT);
}

TEST_P(PosixBackendTest, RenameMovesADirectoryWithItsContents) {
  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  DirHandle d;
  ASSERT_EQ(backend_->openDir(root_, "d", d), 0);
  ASSERT_EQ(backend_->createFile(d, "inside", bytes("kept"), {}), 0);
  ASSERT_EQ(backend_->renameEntry(root_, "d", "e", EntryType::kDir), 0);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "d")));
  EXPECT_EQ(readDisk(dir_ / "e" / "inside"), "kept");
  // An open handle follows the directory, as a descriptor does; in the full style it names the path it was
  // opened under (the runner never renames a directory it holds open).
  EXPECT_EQ(backend_->statEntry(d, "inside", false), full() ? ENOENT : 0);
  EXPECT_EQ(backend_->closeDir(d), 0);
}

TEST_P(PosixBackendTest, RenameNeverReplacesAnExistingTarget) {
  writeDisk(dir_ / "a", "A");
  writeDisk(dir_ / "b", "B");
  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  ASSERT_EQ(backend_->makeDir(root_, "empty"), 0);

  EXPECT_EQ(backend_->renameEntry(root_, "a", "b", EntryType::kFile), EEXIST);
  EXPECT_EQ(backend_->renameEntry(root_, "a", "d", EntryType::kFile), EEXIST);
  EXPECT_EQ(backend_->renameEntry(root_, "d", "a", EntryType::kDir), EEXIST);
  EXPECT_EQ(backend_->renameEntry(root_, "d", "empty", EntryType::kDir),
            EEXIST);  // rename(2) would replace an empty dir
  EXPECT_EQ(backend_->renameEntry(root_, "a", "a", EntryType::kFile),
            EEXIST);  // as Linux answers with RENAME_NOREPLACE
  EXPECT_EQ(readDisk(dir_ / "a"), "A");
  EXPECT_EQ(readDisk(dir_ / "b"), "B");
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(dir_ / "d")));
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(dir_ / "empty")));
}

TEST_P(PosixBackendTest, RenameRefusesWhatIsNotOfTheTypeMdbenchMade) {
  writeDisk(dir_ / "target", "secret");
  fs::create_directory(dir_ / "target-dir");
  fs::create_symlink(dir_ / "target", dir_ / "link");
  fs::create_symlink(dir_ / "target-dir", dir_ / "dir-link");
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);

  EXPECT_EQ(backend_->renameEntry(root_, "link", "moved", EntryType::kFile), EINVAL);
  EXPECT_EQ(backend_->renameEntry(root_, "dir-link", "moved-dir", EntryType::kDir), ENOTDIR);
  EXPECT_EQ(backend_->renameEntry(root_, "fifo", "moved-fifo", EntryType::kFile), EINVAL);
  EXPECT_EQ(backend_->renameEntry(root_, "target-dir", "moved-dir", EntryType::kFile), EISDIR);
  EXPECT_EQ(backend_->renameEntry(root_, "target", "moved", EntryType::kDir), ENOTDIR);
  EXPECT_TRUE(fs::is_symlink(dir_ / "link"));
  EXPECT_TRUE(fs::is_symlink(dir_ / "dir-link"));
  for (const char* moved : {"moved", "moved-dir", "moved-fifo"}) {
    EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / moved)));
  }

  // A symlink as the target is an existing entry: not replaced, not followed.
  fs::create_symlink(dir_ / "absent", dir_ / "dangling");
  writeDisk(dir_ / "src", "S");
  EXPECT_EQ(backend_->renameEntry(root_, "src", "dangling", EntryType::kFile), EEXIST);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "absent")));
  EXPECT_EQ(readDisk(dir_ / "src"), "S");
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

// Descriptors open in this process, to check that nothing leaks.
std::ptrdiff_t openDescriptors() {
  return std::distance(fs::directory_iterator("/proc/self/fd"), fs::directory_iterator());
}

TEST_P(PosixBackendTest, CountEntriesByPrefixOverMixedEntries) {
  writeDisk(dir_ / "file.0", "x");
  writeDisk(dir_ / "file.1", "x");
  writeDisk(dir_ / "other", "x");
  fs::create_directory(dir_ / "dir.0");
  fs::create_directory(dir_ / "dir.1");
  writeDisk(dir_ / "dir.1" / "file.nested", "x");  // not a direct child: not counted
  fs::create_symlink(dir_ / "file.0", dir_ / "file.link");
  fs::create_symlink(dir_ / "dir.0", dir_ / "dir.link");
  fs::create_symlink(dir_ / "absent", dir_ / "dangling");
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0) << describeErrno(errno);

  const auto fds = openDescriptors();
  const Counted c = count(*backend_, root_, {"file.", "dir.", "file", "", "nothing", "dir.link"});
  ASSERT_EQ(c.err, 0);
  EXPECT_EQ(c.total, 9u);
  EXPECT_EQ(c.counts, (std::vector<std::uint64_t>{3, 3, 3, 9, 0, 1}));
  EXPECT_EQ(openDescriptors(), fds);

  const Counted none = count(*backend_, root_, {});
  ASSERT_EQ(none.err, 0);
  EXPECT_EQ(none.total, 9u);

  DirHandle sub;
  ASSERT_EQ(backend_->openDir(root_, "dir.0", sub), 0);
  const Counted empty = count(*backend_, sub, {"file"});
  ASSERT_EQ(empty.err, 0);
  EXPECT_EQ(empty.total, 0u);
  EXPECT_EQ(empty.counts, std::vector<std::uint64_t>{0});
  EXPECT_EQ(backend_->closeDir(sub), 0);
}

TEST_P(PosixBackendTest, CountEntriesOfALargeDirectoryIsExact) {
  // 5000 names of ~20 bytes are ~160 KiB of getdents64 records: several 32 KiB batches.
  ASSERT_EQ(backend_->makeDir(root_, "big"), 0);
  DirHandle big;
  ASSERT_EQ(backend_->openDir(root_, "big", big), 0);
  constexpr int kFiles = 3000;
  constexpr int kDirs = 2000;
  for (int i = 0; i < kFiles; ++i) {
    ASSERT_EQ(backend_->createFile(big, ("file.entry." + std::to_string(i)).c_str(), {}, {}), 0);
  }
  for (int i = 0; i < kDirs; ++i) {
    ASSERT_EQ(backend_->makeDir(big, ("dir.entry." + std::to_string(i)).c_str()), 0);
  }
  const Counted c = count(*backend_, big, {"file.", "dir.", "file.entry.1", "x"});
  ASSERT_EQ(c.err, 0);
  EXPECT_EQ(c.total, static_cast<std::uint64_t>(kFiles + kDirs));
  // "file.entry.1" matches 1, 10-19, 100-199, 1000-1999: 1 + 10 + 100 + 1000.
  EXPECT_EQ(c.counts, (std::vector<std::uint64_t>{kFiles, kDirs, 1111, 0}));
  EXPECT_EQ(backend_->closeDir(big), 0);
}

TEST_P(PosixBackendTest, CountEntriesLeavesTheCallersDescriptorUsable) {
  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  DirHandle d;
  ASSERT_EQ(backend_->openDir(root_, "d", d), 0);
  ASSERT_EQ(backend_->createFile(d, "a", bytes("x"), {}), 0);
  const int fd = static_cast<int>(d.value);
  const off_t offset_before = ::lseek(fd, 0, SEEK_CUR);

  const Counted first = count(*backend_, d, {"a"});
  ASSERT_EQ(first.err, 0);
  EXPECT_EQ(first.total, 1u);
  EXPECT_EQ(::lseek(fd, 0, SEEK_CUR), offset_before);  // the listing used its own descriptor
  // The same handle still works for *at calls and for another listing.
  ASSERT_EQ(backend_->createFile(d, "b", bytes("x"), {}), 0);
  EXPECT_EQ(backend_->statEntry(d, "a", false), 0);
  const Counted second = count(*backend_, d, {"a", "b"});
  ASSERT_EQ(second.err, 0);
  EXPECT_EQ(second.total, 2u);
  EXPECT_EQ(second.counts, (std::vector<std::uint64_t>{1, 1}));
  // Counting the root leaves it usable as well.
  ASSERT_EQ(count(*backend_, root_, {}).err, 0);
  EXPECT_EQ(backend_->statEntry(root_, "d", true), 0);
  EXPECT_EQ(backend_->closeDir(d), 0);
}

TEST_P(PosixBackendTest, CountEntriesChecksItsArguments) {
  writeDisk(dir_ / "f", "x");
  const std::string_view prefixes[] = {"a", "b"};
  std::uint64_t counts[1] = {};
  std::uint64_t total = 5;
  EXPECT_EQ(backend_->countEntries(root_, prefixes, counts, total), EINVAL);
  EXPECT_EQ(total, 0u);
  std::uint64_t two[2] = {};
  EXPECT_EQ(backend_->countEntries(DirHandle{}, prefixes, two, total), EBADF);
  EXPECT_EQ(backend_->countEntries(DirHandle{AT_FDCWD}, prefixes, two, total), EBADF);
}

TEST_P(PosixBackendTest, SyncFileSystemSucceeds) {
  ASSERT_EQ(backend_->createFile(root_, "f", bytes("x"), {}), 0);
  EXPECT_EQ(backend_->syncFileSystem(), 0);
  EXPECT_EQ(readDisk(dir_ / "f"), "x");
}

INSTANTIATE_TEST_SUITE_P(FileSystems, PosixBackendTest,
                         ::testing::Combine(::testing::Values("/dev/shm", "/tmp"),
                                            ::testing::Values(PathStyle::kFull, PathStyle::kDirfd)),
                         [](const ::testing::TestParamInfo<std::tuple<const char*, PathStyle>>& info) {
                           return std::string(std::string_view(std::get<0>(info.param)) == "/dev/shm"
                                                  ? "tmpfs"
                                                  : "disk") +
                                  "_" + std::string(pathStyleName(std::get<1>(info.param)));
                         });

TEST(ErrnoName, NamesAndMessages) {
  EXPECT_EQ(errnoName(ENOENT), "ENOENT");
  EXPECT_EQ(errnoName(ENOTEMPTY), "ENOTEMPTY");
  EXPECT_EQ(errnoName(ENODATA), "ENODATA");
  EXPECT_EQ(errnoName(4095), "E4095");
  EXPECT_EQ(errnoMessage(ENOENT), "No such file or directory");
  EXPECT_EQ(describeErrno(ENOENT), "ENOENT (No such file or directory)");
  EXPECT_EQ(describeErrno(EISDIR), "EISDIR (Is a directory)");
}

TEST(FsInfo, TypeNames) {
  EXPECT_EQ(fsTypeName(0x01021994), "tmpfs");
  EXPECT_EQ(fsTypeName(0xEF53), "ext4");
  EXPECT_EQ(fsTypeName(0x0BD00BD0), "lustre");
  EXPECT_EQ(fsTypeName(0x9123683E), "btrfs");
  EXPECT_EQ(fsTypeName(0x1234), "0x1234");
}

TEST(FsInfo, ProbesDevShmAsTmpfs) {
  const auto info = probeFileSystem("/dev/shm");
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->type, "tmpfs");
  EXPECT_GT(info->total_bytes, 0u);
  EXPECT_GT(info->free_bytes, 0u);
  EXPECT_LE(info->free_bytes, info->total_bytes);
  EXPECT_GT(info->total_inodes, 0u);
  EXPECT_GT(info->free_inodes, 0u);
  EXPECT_LE(info->free_inodes, info->total_inodes);
}

TEST(FsInfo, MissingPathIsNullopt) { EXPECT_FALSE(probeFileSystem("/nonexistent/mdbench/path").has_value()); }

}  // namespace
}  // namespace mdbench
