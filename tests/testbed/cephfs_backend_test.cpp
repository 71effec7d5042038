// The CephFS backend (libcephfs) against the test bed's CephFS: every operation and promise, checked through
// the backend and through a ceph-fuse mount of the same file system (another client). Run by
// tb_cephfs_backend.sh, which fails when the test bed is not up and exports its environment (CEPH_CONF,
// MDBENCH_TESTBED_CEPHFS, MDBENCH_TESTBED_CEPHFS_USER) and TB_FS, a directory of the test's own on CephFS.
// Without them every test here FAILS: it never skips.
#include "mdbench/backend/cephfs_backend.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/backend/cleanup.hpp"
#include "mdbench/model/layout.hpp"

namespace mdbench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

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

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class CephfsBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    conf_ = env("CEPH_CONF");
    mount_ = env("MDBENCH_TESTBED_CEPHFS");
    user_ = env("MDBENCH_TESTBED_CEPHFS_USER");
    const std::string top = env("TB_FS");
    ASSERT_FALSE(conf_.empty() || mount_.empty() || user_.empty() || top.empty())
        << "the test bed's environment is missing (run through tb_cephfs_backend.sh, test bed up)";
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(top) / info->name();
    ASSERT_TRUE(fs::create_directory(dir_)) << dir_;  // through this node's ceph-fuse mount
    options_.user = user_;
    options_.conf = conf_;
    options_.prefix = mount_;  // -d is a ceph-fuse path; the prefix strip gives the CephFS path (mdtest)
    options_.mount_timeout_s = 5;
    CephfsOpenError error;
    backend_ = CephfsBackend::open(dir_.string(), options_, error);
    ASSERT_NE(backend_, nullptr) << error.message;
  }
  void TearDown() override {
    backend_.reset();
    if (!dir_.empty()) fs::remove_all(dir_);  // the test's own directory
  }
  DirHandle root() const { return backend_->root(); }

  std::string conf_, mount_, user_;
  fs::path dir_;
  CephfsOptions options_;
  std::unique_ptr<CephfsBackend> backend_;
};

TEST_F(CephfsBackendTest, MountPathStripsThePrefixAsMdtest) {
  EXPECT_EQ(CephfsBackend::mountPath("/mnt/ceph/a/b/", "/mnt/ceph"), "/a/b");
  EXPECT_EQ(CephfsBackend::mountPath("/other/a", "/mnt/ceph"), "/other/a");
  EXPECT_EQ(CephfsBackend::mountPath("/mnt/ceph", "/mnt/ceph"), "/");
  EXPECT_EQ(backend_->dirPath(root()), "/" + fs::relative(dir_, mount_).string());
}

TEST_F(CephfsBackendTest, CreateIsExclusiveStatChecksTypesReadReturnsTheBytes) {
  bool made = false;
  ASSERT_EQ(backend_->createFile(root(), "file.mdbench.0.1", bytes("hello"), {.made = &made}), 0);
  EXPECT_TRUE(made);
  // Another client (ceph-fuse) sees the file and its bytes.
  EXPECT_EQ(slurp(dir_ / "file.mdbench.0.1"), "hello");
  EXPECT_EQ(backend_->createFile(root(), "file.mdbench.0.1", bytes("other"), {}), EEXIST);
  EXPECT_EQ(slurp(dir_ / "file.mdbench.0.1"), "hello");
  // A symlink planted under the name is neither followed nor reused.
  fs::create_symlink("target-of-link", dir_ / "file.mdbench.0.2");
  made = false;
  EXPECT_EQ(backend_->createFile(root(), "file.mdbench.0.2", bytes("x"), {.made = &made}), EEXIST);
  EXPECT_FALSE(made);
  EXPECT_FALSE(fs::exists(dir_ / "target-of-link"));
  ASSERT_EQ(backend_->makeDir(root(), "dir.mdbench.0.1"), 0);
  EXPECT_TRUE(fs::is_directory(dir_ / "dir.mdbench.0.1"));
  EXPECT_EQ(backend_->makeDir(root(), "dir.mdbench.0.1"), EEXIST);
  EXPECT_EQ(backend_->statEntry(root(), "file.mdbench.0.1", false), 0);
  EXPECT_EQ(backend_->statEntry(root(), "file.mdbench.0.1", true), ENOTDIR);
  EXPECT_EQ(backend_->statEntry(root(), "dir.mdbench.0.1", true), 0);
  EXPECT_EQ(backend_->statEntry(root(), "dir.mdbench.0.1", false), EISDIR);
  EXPECT_EQ(backend_->statEntry(root(), "file.mdbench.0.2", false), EINVAL);  // the symlink
  EXPECT_EQ(backend_->statEntry(root(), "missing", false), ENOENT);
  std::vector<std::byte> buf(5);
  EXPECT_EQ(backend_->readFile(root(), "file.mdbench.0.1", buf), 0);
  EXPECT_EQ(text(buf), "hello");
  std::vector<std::byte> longer(6);
  EXPECT_EQ(backend_->readFile(root(), "file.mdbench.0.1", longer), ENODATA);
  EXPECT_EQ(backend_->readFile(root(), "file.mdbench.0.2", buf), ELOOP);
  EXPECT_EQ(backend_->readFile(root(), "dir.mdbench.0.1", buf), EINVAL);
  EXPECT_EQ(backend_->readFile(root(), "file.mdbench.0.1", {}), 0);
  // -y and -Y.
  EXPECT_EQ(backend_->createFile(root(), "file.mdbench.0.3", bytes("sync"), {.fsync = true}), 0);
  EXPECT_EQ(backend_->syncFileSystem(), 0);
  EXPECT_EQ(slurp(dir_ / "file.mdbench.0.3"), "sync");
}

TEST_F(CephfsBackendTest, OpenCreatedChecksWhatTheCreatorMade) {
  ASSERT_EQ(backend_->createFile(root(), "file.mdbench.shared.1", bytes("abc"), {}), 0);
  bool made = false;
  const CreateOptions second{.mode = CreateMode::kOpenCreated, .made = &made};
  EXPECT_EQ(backend_->createFile(root(), "file.mdbench.shared.1", bytes("xyz"), second), 0);
  EXPECT_TRUE(made);
  EXPECT_EQ(slurp(dir_ / "file.mdbench.shared.1"), "xyz");
  EXPECT_EQ(backend_->createFile(root(), "file.mdbench.shared.1", bytes("four"), second), EBADMSG);
  EXPECT_EQ(slurp(dir_ / "file.mdbench.shared.1"), "xyz");
  fs::create_hard_link(dir_ / "file.mdbench.shared.1", dir_ / "planted-link");
  EXPECT_EQ(backend_->createFile(root(), "file.mdbench.shared.1", bytes("xyz"), second), EMLINK);
  EXPECT_EQ(backend_->createFile(root(), "file.mdbench.shared.2", bytes("xyz"), second), ENOENT);
}

TEST_F(CephfsBackendTest, RemovesCheckTheType) {
  ASSERT_EQ(backend_->createFile(root(), "file.mdbench.0.1", bytes("f"), {}), 0);
  ASSERT_EQ(backend_->makeDir(root(), "dir.mdbench.0.1"), 0);
  fs::create_symlink("file.mdbench.0.1", dir_ / "file.mdbench.0.2");
  ASSERT_EQ(::mkfifo((dir_ / "file.mdbench.0.3").c_str(), 0600), 0);
  for (const bool batch : {false, true}) {
    SCOPED_TRACE(batch ? "in a file-remove batch" : "alone");
    TypeCheckBatch scope(*backend_, EntryType::kFile, batch);
    EXPECT_EQ(backend_->unlinkFile(root(), "dir.mdbench.0.1"), EISDIR);
    EXPECT_EQ(backend_->unlinkFile(root(), "file.mdbench.0.2"), EINVAL);  // the symlink stays
    EXPECT_EQ(backend_->unlinkFile(root(), "file.mdbench.0.3"), EINVAL);  // the FIFO stays
    EXPECT_EQ(backend_->removeDir(root(), "file.mdbench.0.1"), ENOTDIR);
    EXPECT_EQ(backend_->removeDir(root(), "file.mdbench.0.2"), ENOTDIR);
  }
  EXPECT_TRUE(fs::is_directory(dir_ / "dir.mdbench.0.1"));
  EXPECT_TRUE(fs::is_symlink(dir_ / "file.mdbench.0.2"));
  EXPECT_TRUE(fs::is_fifo(dir_ / "file.mdbench.0.3"));
  EXPECT_EQ(slurp(dir_ / "file.mdbench.0.1"), "f");
  {
    TypeCheckBatch scope(*backend_, EntryType::kFile, true);
    EXPECT_EQ(backend_->unlinkFile(root(), "file.mdbench.0.1"), 0);
    EXPECT_EQ(backend_->unlinkFile(root(), "file.mdbench.0.1"), ENOENT);
  }
  EXPECT_EQ(backend_->removeDir(root(), "dir.mdbench.0.1"), 0);
  EXPECT_FALSE(fs::exists(dir_ / "file.mdbench.0.1"));
  EXPECT_FALSE(fs::exists(dir_ / "dir.mdbench.0.1"));
}

TEST_F(CephfsBackendTest, RenameNeverReplacesAndMovesOnlyTheTypeMade) {
  ASSERT_EQ(backend_->createFile(root(), "file.mdbench.0.1", bytes("one"), {}), 0);
  ASSERT_EQ(backend_->createFile(root(), "file.mdbench.0.2", bytes("two"), {}), 0);
  ASSERT_EQ(backend_->makeDir(root(), "dir.mdbench.0.1"), 0);
  fs::create_symlink("nowhere", dir_ / "taken-by-link");
  EXPECT_EQ(backend_->renameEntry(root(), "file.mdbench.0.1", "file.mdbench.0.2", EntryType::kFile), EEXIST);
  EXPECT_EQ(backend_->renameEntry(root(), "file.mdbench.0.1", "taken-by-link", EntryType::kFile), EEXIST);
  EXPECT_EQ(backend_->renameEntry(root(), "file.mdbench.0.1", "dir.mdbench.0.1", EntryType::kFile), EEXIST);
  EXPECT_EQ(slurp(dir_ / "file.mdbench.0.2"), "two");
  EXPECT_TRUE(fs::is_symlink(dir_ / "taken-by-link"));
  EXPECT_EQ(backend_->renameEntry(root(), "dir.mdbench.0.1", "x", EntryType::kFile), EISDIR);
  EXPECT_EQ(backend_->renameEntry(root(), "file.mdbench.0.1", "x", EntryType::kDir), ENOTDIR);
  EXPECT_EQ(backend_->renameEntry(root(), "taken-by-link", "x", EntryType::kFile), EINVAL);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "x")));
  EXPECT_EQ(backend_->renameEntry(root(), "file.mdbench.0.1", "file.mdbench.0.1.renamed", EntryType::kFile),
            0);
  EXPECT_EQ(slurp(dir_ / "file.mdbench.0.1.renamed"), "one");
  DirHandle sub;
  ASSERT_EQ(backend_->openDir(root(), "dir.mdbench.0.1", sub), 0);
  EXPECT_EQ(backend_->moveEntry(root(), "file.mdbench.0.2", sub, "file.mdbench.0.2", EntryType::kFile), 0);
  EXPECT_EQ(slurp(dir_ / "dir.mdbench.0.1" / "file.mdbench.0.2"), "two");
  EXPECT_EQ(backend_->closeDir(sub), 0);
}

TEST_F(CephfsBackendTest, DirectoriesOpenCloseAndCount) {
  EXPECT_EQ(backend_->closeDir(root()), EBADF);
  ASSERT_EQ(backend_->createFile(root(), "file.mdbench.0.1", {}, {}), 0);
  DirHandle h;
  EXPECT_EQ(backend_->openDir(root(), "file.mdbench.0.1", h), ENOTDIR);
  EXPECT_EQ(backend_->openDir(root(), "missing", h), ENOENT);
  fs::create_directory_symlink(".", dir_ / "loop");
  EXPECT_EQ(backend_->openDir(root(), "loop", h), ENOTDIR);
  ASSERT_EQ(backend_->makeDir(root(), "mdbench_tree.0"), 0);
  ASSERT_EQ(backend_->openDir(root(), "mdbench_tree.0", h), 0);
  for (const char* name : {"file.mdbench.0.1", "file.mdbench.0.2", "file.mdbench.1.1"}) {
    ASSERT_EQ(backend_->createFile(h, name, bytes("z"), {}), 0);
  }
  ASSERT_EQ(backend_->makeDir(h, "dir.mdbench.0.1"), 0);
  const std::vector<std::string_view> prefixes{"file.mdbench.0.", "file.mdbench.", "dir."};
  std::vector<std::uint64_t> counts(prefixes.size());
  std::uint64_t total = 0;
  ASSERT_EQ(backend_->countEntries(h, prefixes, counts, total), 0);
  EXPECT_EQ(total, 4u);
  EXPECT_EQ(counts, (std::vector<std::uint64_t>{2, 3, 1}));
  EXPECT_EQ(backend_->closeDir(h), 0);
  EXPECT_EQ(backend_->closeDir(h), EBADF);
  EXPECT_EQ(backend_->countEntries(h, prefixes, counts, total), EBADF);
}

TEST_F(CephfsBackendTest, MarkCarriesTheInodeEveryClientSees) {
  ASSERT_EQ(backend_->readMark(root()), MarkKind::kNone);
  ASSERT_EQ(backend_->writeMark(root()), 0);
  EXPECT_EQ(backend_->readMark(root()), MarkKind::kOurs);
  EXPECT_EQ(backend_->writeMark(root()), EEXIST);
  struct stat st {};
  ASSERT_EQ(::stat(dir_.c_str(), &st), 0);
  EXPECT_EQ(slurp(dir_ / kMarkName), markText(st.st_ino));  // ceph-fuse's inode number is the same
  // A mark copied into another directory is not that directory's.
  ASSERT_EQ(backend_->makeDir(root(), "mdbench_tree.0"), 0);
  fs::copy_file(dir_ / kMarkName, dir_ / "mdbench_tree.0" / kMarkName);
  DirHandle h;
  ASSERT_EQ(backend_->openDir(root(), "mdbench_tree.0", h), 0);
  EXPECT_EQ(backend_->readMark(h), MarkKind::kForeign);
  fs::remove(dir_ / "mdbench_tree.0" / kMarkName);
  fs::create_directory(dir_ / "mdbench_tree.0" / kMarkName);
  EXPECT_EQ(backend_->readMark(h), MarkKind::kForeign);
  EXPECT_EQ(backend_->closeDir(h), 0);
}

TEST_F(CephfsBackendTest, RemoveGeneratedLeavesWhatMdbenchDidNotMake) {
  ASSERT_EQ(backend_->writeMark(root()), 0);
  fs::create_directories(dir_ / "mdbench_tree.0" / "mdbench_tree.1");
  std::ofstream(dir_ / "mdbench_tree.0" / "file.mdbench.0.1") << "a";
  std::ofstream(dir_ / "mdbench_tree.0" / "mdbench_tree.1" / "file.mdbench.0.2") << "b";
  fs::create_directory(dir_ / "mdbench_tree.2");
  std::ofstream(dir_ / "mdbench_tree.2" / "users-file") << "keep";
  fs::create_symlink("/", dir_ / "mdbench_tree.2" / "file.mdbench.0.3");
  CleanTally tally;
  ASSERT_EQ(backend_->removeGenerated(root(), {}, tally), 0);
  EXPECT_EQ(tally.files, 2u);
  EXPECT_EQ(tally.dirs, 2u);
  EXPECT_EQ(tally.kept, 2u);
  EXPECT_FALSE(fs::exists(dir_ / "mdbench_tree.0"));
  EXPECT_EQ(slurp(dir_ / "mdbench_tree.2" / "users-file"), "keep");
  EXPECT_TRUE(fs::is_symlink(dir_ / "mdbench_tree.2" / "file.mdbench.0.3"));
  EXPECT_TRUE(fs::exists(dir_ / kMarkName));  // the caller's to remove last
}

// Bad input: an error naming what is wrong, within the mount timeout, nothing made.
class CephfsBadInputTest : public CephfsBackendTest {
 protected:
  void expectRefused(const std::string& root_path, const CephfsOptions& options, std::string_view named) {
    CephfsOpenError error;
    const auto t0 = Clock::now();
    const auto backend = CephfsBackend::open(root_path, options, error);
    const auto took = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - t0);
    EXPECT_EQ(backend, nullptr);
    EXPECT_NE(error.err, 0);
    EXPECT_NE(error.message.find(named), std::string::npos) << error.message;
    EXPECT_LE(took.count(), options.mount_timeout_s + 10) << error.message;
    std::cout << "refused in " << took.count() << " s: " << error.message << "\n";
  }
};

TEST_F(CephfsBadInputTest, UnreadableConf) {
  CephfsOptions o = options_;
  o.conf = (dir_ / "no-such.conf").string();
  expectRefused(dir_.string(), o, o.conf);
}

TEST_F(CephfsBadInputTest, UnknownUser) {
  CephfsOptions o = options_;
  o.user = "nosuchuser";
  expectRefused(dir_.string(), o, "client.nosuchuser");
}

TEST_F(CephfsBadInputTest, UnreachableMonitorWithinTheTimeout) {
  const fs::path conf = dir_ / "unreachable.conf";
  // Nothing listens on the loopback's port 1: every connection is refused, on this machine only.
  std::ofstream(conf) << slurp(conf_) << "\n[client.mdbench]\nmon host = [v2:127.0.0.1:1,v1:127.0.0.1:1]\n";
  CephfsOptions o = options_;
  o.conf = conf.string();
  o.mount_timeout_s = 3;
  expectRefused(dir_.string(), o, "127.0.0.1:1");
}

TEST_F(CephfsBadInputTest, MissingRemotePrefixAndMissingDirectory) {
  CephfsOptions o = options_;
  o.remote_prefix = "/no-such-prefix";
  expectRefused(dir_.string(), o, "/no-such-prefix");
  expectRefused((dir_ / "no-such-dir").string(), options_, "no-such-dir");
  std::ofstream(dir_ / "a-file") << "x";
  expectRefused((dir_ / "a-file").string(), options_, "a-file");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace mdbench
