// The POSIX backend on real directories, tmpfs (/dev/shm) and disk (/tmp), plus errno names and fsinfo.
#include "mdbench/posix_backend.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "mdbench/errno_name.hpp"
#include "mdbench/fsinfo.hpp"

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

// Each test gets a fresh directory under the parameter's file system, removed afterwards.
class PosixBackendTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    std::string templ = std::string(GetParam()) + "/mdbench-backend-test-XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr) << templ << ": " << describeErrno(errno);
    dir_ = templ;
    int err = -1;
    backend_ = PosixBackend::open(dir_.string(), err);
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

  fs::path dir_;
  std::unique_ptr<PosixBackend> backend_;
  DirHandle root_;
};

TEST_P(PosixBackendTest, CreateStatReadUnlinkRoundTrip) {
  const auto data = bytes("hello, metadata");
  ASSERT_EQ(backend_->createFile(root_, "f", data), 0);
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
  ASSERT_EQ(backend_->createFile(root_, "empty", {}), 0);
  EXPECT_EQ(fs::file_size(dir_ / "empty"), 0u);
  EXPECT_EQ(backend_->readFile(root_, "empty", {}), 0);
  std::vector<std::byte> one(1);
  EXPECT_EQ(backend_->readFile(root_, "empty", one), ENODATA);
}

TEST_P(PosixBackendTest, LargeFileIsWrittenAndReadCompletely) {
  std::string content(2u << 20, '\0');
  for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>('a' + i % 23);
  ASSERT_EQ(backend_->createFile(root_, "big", bytes(content)), 0);
  // Compared as booleans: a diff of two megabytes would drown the report.
  EXPECT_TRUE(readDisk(dir_ / "big") == content);
  std::vector<std::byte> buf(content.size());
  ASSERT_EQ(backend_->readFile(root_, "big", buf), 0);
  EXPECT_TRUE(text(buf) == content);
}

TEST_P(PosixBackendTest, CreateIsExclusiveAndLeavesExistingContent) {
  writeDisk(dir_ / "f", "original");
  EXPECT_EQ(backend_->createFile(root_, "f", bytes("new")), EEXIST);
  EXPECT_EQ(readDisk(dir_ / "f"), "original");

  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  EXPECT_EQ(backend_->createFile(root_, "d", bytes("new")), EEXIST);
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(dir_ / "d")));
  EXPECT_EQ(backend_->makeDir(root_, "d"), EEXIST);
  EXPECT_EQ(backend_->makeDir(root_, "f"), EEXIST);
}

TEST_P(PosixBackendTest, SymlinkToFileIsNeverFollowed) {
  writeDisk(dir_ / "target", "secret");
  fs::create_symlink(dir_ / "target", dir_ / "link");
  std::vector<std::byte> buf(3);
  DirHandle out;

  EXPECT_EQ(backend_->createFile(root_, "link", bytes("overwritten")), EEXIST);
  EXPECT_EQ(backend_->readFile(root_, "link", buf), ELOOP);
  EXPECT_EQ(backend_->readFile(root_, "link", {}), ELOOP);
  EXPECT_EQ(backend_->statEntry(root_, "link", false), EINVAL);
  EXPECT_EQ(backend_->statEntry(root_, "link", true), ENOTDIR);
  EXPECT_EQ(backend_->openDir(root_, "link", out), ENOTDIR);
  EXPECT_FALSE(out.valid());
  EXPECT_EQ(backend_->makeDir(root_, "link"), EEXIST);
  EXPECT_EQ(backend_->removeDir(root_, "link"), ENOTDIR);
  EXPECT_EQ(readDisk(dir_ / "target"), "secret");

  // Unlinking removes the link itself, never what it points to.
  EXPECT_EQ(backend_->unlinkFile(root_, "link"), 0);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "link")));
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
  EXPECT_EQ(backend_->createFile(root_, "link", bytes("x")), EEXIST);
  EXPECT_EQ(backend_->makeDir(root_, "link"), EEXIST);
  std::vector<std::byte> buf(1);
  EXPECT_EQ(backend_->readFile(root_, "link", buf), ELOOP);

  EXPECT_TRUE(fs::is_symlink(dir_ / "link"));
  EXPECT_EQ(readDisk(dir_ / "target" / "inside"), "kept");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "target"), fs::directory_iterator()), 1);
}

TEST_P(PosixBackendTest, DanglingSymlinkIsNotCreatedThrough) {
  fs::create_symlink(dir_ / "absent", dir_ / "link");
  EXPECT_EQ(backend_->createFile(root_, "link", bytes("x")), EEXIST);
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
  // An empty buffer only opens and closes, which a directory allows (the fake mirrors this).
  EXPECT_EQ(backend_->readFile(root_, "d", {}), 0);
}

TEST_P(PosixBackendTest, StatChecksTheKind) {
  ASSERT_EQ(backend_->makeDir(root_, "d"), 0);
  ASSERT_EQ(backend_->createFile(root_, "f", bytes("x")), 0);
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
  ASSERT_EQ(backend_->createFile(b, "f", bytes("deep")), 0);
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
    EXPECT_EQ(backend_->createFile(bad, "x", bytes("x")), EBADF);
    EXPECT_EQ(backend_->statEntry(bad, "x", false), EBADF);
    EXPECT_EQ(backend_->readFile(bad, "x", buf), EBADF);
    EXPECT_EQ(backend_->unlinkFile(bad, "x"), EBADF);
    EXPECT_EQ(backend_->closeDir(bad), EBADF);
  }
  // The root belongs to the backend: closing it is refused and it stays usable.
  EXPECT_EQ(backend_->closeDir(root_), EBADF);
  EXPECT_EQ(backend_->makeDir(root_, "still-works"), 0);
}

TEST_P(PosixBackendTest, ModesFollowTheUmask) {
  const mode_t saved = ::umask(027);
  const int mkdir_rc = backend_->makeDir(root_, "d");
  const int create_rc = backend_->createFile(root_, "f", bytes("x"));
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

INSTANTIATE_TEST_SUITE_P(FileSystems, PosixBackendTest, ::testing::Values("/dev/shm", "/tmp"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string_view(info.param) == "/dev/shm" ? "tmpfs" : "disk";
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
