// The backends' Storage (storage.hpp) on real directories: a POSIX target made, marked, identified and
// removed only while it is the same marked directory; links seen, never followed; the one cleanup walk
// through a PosixBackend in the full path style, deeper than its open window; -a DUMMY touches nothing.
#include "mdbench/backend/storage.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "mdbench/model/layout.hpp"

namespace mdbench {
namespace {

namespace fs = std::filesystem;

class StorageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = "/dev/shm/mdbench-storage-test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  std::string at(const std::string& rel) const { return root_ + "/" + rel; }
  std::unique_ptr<Storage> storageOf(Api api, PathStyle style = PathStyle::kFull) const {
    Config config;
    config.api = api;
    config.path_style = style;
    return makeStorage(config);
  }
  std::string root_;
};

TEST_F(StorageTest, PosixTargetIsMadeMarkedAndRemovedOnlyWhileTheSame) {
  const auto storage = storageOf(Api::kPosix);
  StorageKind kind = StorageKind::kDirectory;
  ASSERT_EQ(storage->kindOf(at("t"), kind), 0);
  EXPECT_EQ(kind, StorageKind::kMissing);
  ASSERT_EQ(storage->makeDir(at("t")), 0);
  EXPECT_EQ(storage->makeDir(at("t")), EEXIST);
  EXPECT_EQ(storage->readMark(at("t")), MarkKind::kNone);
  ASSERT_EQ(storage->writeMark(at("t")), 0);
  EXPECT_EQ(storage->writeMark(at("t")), EEXIST);  // never over an entry
  EXPECT_EQ(storage->readMark(at("t")), MarkKind::kOurs);
  StorageId id;
  ASSERT_EQ(storage->identify(at("t"), id), 0);
  EXPECT_NE(id.ino, 0u);
  // Another directory put in its place keeps everything.
  const StorageId other{id.dev, id.ino + 1};
  EXPECT_EQ(storage->removeMarkedDir(at("t"), &other), EPERM);
  EXPECT_TRUE(fs::exists(at("t/.mdbench-run")));
  // A directory that cannot go gets its mark back, byte for byte.
  std::ofstream(at("t/user-file")) << "mine";
  EXPECT_EQ(storage->removeMarkedDir(at("t"), &id), ENOTEMPTY);
  EXPECT_EQ(storage->readMark(at("t")), MarkKind::kOurs);
  fs::remove(at("t/user-file"));
  EXPECT_EQ(storage->removeMarkedDir(at("t"), &id), 0);
  EXPECT_FALSE(fs::exists(at("t")));
}

TEST_F(StorageTest, PosixSeesLinksWithoutFollowingThem) {
  const auto storage = storageOf(Api::kPosix);
  fs::create_directory(at("real"));
  fs::create_directory_symlink(at("real"), at("link"));
  std::ofstream(at("file")) << "x";
  StorageKind kind = StorageKind::kMissing;
  ASSERT_EQ(storage->kindOf(at("link"), kind), 0);
  EXPECT_EQ(kind, StorageKind::kLink);
  ASSERT_EQ(storage->kindOf(at("file"), kind), 0);
  EXPECT_EQ(kind, StorageKind::kOther);
  ASSERT_EQ(storage->kindOf(at("real"), kind), 0);
  EXPECT_EQ(kind, StorageKind::kDirectory);
  const int through_link = storage->writeMark(at("link"));  // O_NOFOLLOW: nothing written through it
  EXPECT_TRUE(through_link == ELOOP || through_link == ENOTDIR) << through_link;
  EXPECT_FALSE(fs::exists(at("real/.mdbench-run")));
  EXPECT_EQ(storage->resolveLinks(at("link/sub")), fs::canonical(at("real")).string() + "/sub");
  std::string resolved;
  ASSERT_EQ(storage->resolve(at("link"), resolved), 0);
  EXPECT_EQ(resolved, fs::canonical(at("real")).string());
  const StorageIdChain chain = storage->identityChain(at("real"));
  EXPECT_TRUE(chain.exists);
  EXPECT_GE(chain.chain.size(), 3u);  // real, the test's directory, /dev/shm, ...
  const std::optional<FsInfo> info = storage->describe(at("real"));
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->type, "tmpfs");
}

// The walk of the cleanup after a signal runs over the Backend's walk calls, by descriptor in the full
// style too: a chain of 40 generated directories (beyond the 16 handles kept open) goes, a link and a
// foreign file stay.
TEST_F(StorageTest, OneWalkThroughTheBackendInBothStyles) {
  for (const PathStyle style : {PathStyle::kFull, PathStyle::kDirfd}) {
    const auto storage = storageOf(Api::kPosix, style);
    fs::create_directory(at("it"));
    std::string rel = "it";
    for (int level = 0; level < 40; ++level) {
      rel += "/mdbench_tree." + std::to_string(level);
      fs::create_directory(at(rel));
      std::ofstream(at(rel + "/file.mdbench.0." + std::to_string(level))) << "d";
    }
    std::ofstream(at("it/mdbench_tree.0/foreign")) << "mine";
    fs::create_symlink(at("it"), at("it/file.mdbench.0.99"));
    int err = -1;
    const std::unique_ptr<Backend> backend = storage->open(at("it"), 0, err);
    ASSERT_EQ(err, 0);
    CleanTally tally;
    EXPECT_EQ(backend->removeGenerated(backend->root(), CleanOptions{}, tally), 0);
    EXPECT_EQ(tally.files, 40u);
    EXPECT_EQ(tally.dirs, 39u);  // all but mdbench_tree.0, which holds the foreign file
    EXPECT_EQ(tally.kept, 2u);
    EXPECT_TRUE(fs::exists(at("it/mdbench_tree.0/foreign")));
    EXPECT_TRUE(fs::is_symlink(at("it/file.mdbench.0.99")));
    EXPECT_FALSE(fs::exists(at("it/mdbench_tree.0/mdbench_tree.1")));
    fs::remove_all(at("it"));
  }
}

TEST_F(StorageTest, DummyStoresNothingAndCleansNothing) {
  const auto storage = storageOf(Api::kDummy);
  fs::create_directory(at("t"));
  StorageKind kind = StorageKind::kDirectory;
  EXPECT_EQ(storage->kindOf(at("t"), kind), ENOTSUP);
  EXPECT_EQ(storage->makeDir(at("u")), ENOTSUP);
  EXPECT_FALSE(fs::exists(at("u")));
  EXPECT_FALSE(storage->describe(at("t")).has_value());
  std::vector<std::string> log;
  const CleanSummary summary = storage->clean(at("t"), false, log);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0], at("t") + ": -a DUMMY stores nothing: nothing to clean");
  EXPECT_EQ(summary.run_dirs, 0u);
  EXPECT_TRUE(summary.error.empty());
  int err = -1;
  const std::unique_ptr<Backend> backend = storage->open(at("missing"), 0, err);
  ASSERT_EQ(err, 0);
  EXPECT_TRUE(backend->storesNothing());
}

}  // namespace
}  // namespace mdbench
