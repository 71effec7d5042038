// mdbench clean and the cleanup after a signal on real directories: every generated name of the right type
// goes, everything else stays byte for byte (foreign files, look-alike names of the wrong type, links and
// what they point to, unmarked directories), and a dry run changes nothing.
#include "mdbench/backend/cleanup.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "mdbench/backend/storage.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/ownership.hpp"

namespace mdbench {
namespace {

// `mdbench clean DIR` as the POSIX backend's storage does it (Storage::clean, storage_clean.cpp).
CleanSummary cleanPosix(const std::string& dir, bool dry_run, std::vector<std::string>& log) {
  return makeStorage(Config{})->clean(dir, dry_run, log);
}

namespace fs = std::filesystem;

class CleanupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = "/dev/shm/mdbench-cleanup-test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  std::string at(const std::string& rel) const { return root_ + "/" + rel; }
  void file(const std::string& rel, const std::string& text = "data") {
    fs::create_directories(fs::path(at(rel)).parent_path());
    std::ofstream(at(rel)) << text;
  }
  void dir(const std::string& rel) { fs::create_directories(at(rel)); }
  // A mark as mdbench writes it (its content names the directory's inode).
  void mark(const std::string& rel) {
    dir(rel);
    const int fd = ::open(at(rel).c_str(), O_RDONLY | O_DIRECTORY);
    ASSERT_GE(fd, 0);
    EXPECT_EQ(writeMark(fd), 0);
    ::close(fd);
  }
  // The inode a record written in `rel` names (the directory's, as the mark's proof).
  std::uint64_t inodeOf(const std::string& rel) const {
    struct stat st {};
    EXPECT_EQ(::stat(at(rel).c_str(), &st), 0);
    return static_cast<std::uint64_t>(st.st_ino);
  }
  MarkKind markOf(const std::string& rel) const {
    const int fd = ::open(at(rel).c_str(), O_RDONLY | O_DIRECTORY);
    const MarkKind kind = fd < 0 ? MarkKind::kNone : readMark(fd);
    if (fd >= 0) ::close(fd);
    return kind;
  }
  // Every path below the root, directories with a trailing '/', links as "-> target".
  std::set<std::string> tree() const {
    std::set<std::string> out;
    for (auto it = fs::recursive_directory_iterator(root_); it != fs::recursive_directory_iterator(); ++it) {
      const std::string rel = it->path().lexically_relative(root_).string();
      if (it->is_symlink()) {
        out.insert(rel + " -> " + fs::read_symlink(it->path()).string());
      } else {
        out.insert(it->is_directory() ? rel + "/" : rel);
      }
    }
    return out;
  }
  // What a run of mdtest's `-n 6 -I 3 -z 1 -b 2` on 2 ranks leaves (kept, or stopped by a signal): its two
  // directory loops side by side (mdbench_tree.0 and mdbench_tree.3, each with two children), 3 files and 3
  // directories of each rank in every directory, half of the files renamed. Returns the entries made.
  // Its ownership record says so (even files at their original name: their renames found the new name
  // taken); `edit` changes the record before it is written.
  std::uint64_t loopLeftovers(
      const std::string& iter, const std::function<void(ItemFates&)>& edit = [](ItemFates&) {}) {
    mark(iter);
    Config config;
    config.depth = 1;
    config.branching = 2;
    config.items_per_dir = 3;
    config.items = *loopedItemCount(6, 3, 3);
    const TreeLayout layout(config);
    EXPECT_EQ(layout.loops(), 2u);
    std::uint64_t made = 0;
    for (std::uint64_t d = 0; d < layout.dirCount(); ++d) {
      dir(iter + "/" + treeDirPath(layout, TreeSharing::kShared, 0, d));
      ++made;
    }
    for (std::uint32_t rank = 0; rank < 2; ++rank) {
      for (std::uint64_t item = 0; item < layout.items(); ++item) {
        const std::string where =
            iter + "/" + treeDirPath(layout, TreeSharing::kShared, 0, layout.dirOfItem(item));
        const NameForm form = item % 2 == 0 ? NameForm::kOriginal : NameForm::kRenamed;
        file(where + "/" + itemName(ItemKind::kFile, rank, item, form));
        dir(where + "/" + itemName(ItemKind::kDir, rank, item));
        made += 2;
      }
    }
    ItemFates fates;
    fates.setLayout(recordLayoutOf(config, 2, 0));
    const std::vector<std::uint64_t> all(2, layout.items());
    fates.setMade(ItemKind::kFile, all);
    fates.setMade(ItemKind::kDir, all);
    fates.setRenamed(ItemKind::kFile, all);
    for (std::uint32_t rank = 0; rank < 2; ++rank) {
      for (std::uint64_t item = 0; item < layout.items(); item += 2) {
        fates.add(ItemKind::kFile, rank, item, ItemFate::kOriginalName, EEXIST);
      }
    }
    edit(fates);
    file(iter + "/.mdbench-taken", fates.encode(inodeOf(iter)));
    return made;
  }

  // An iteration directory as a run leaves it, with its ownership record: the unique tree of rank 0 of
  // `-u -z 1 -b 2 -n 3` on one rank, its files renamed but the first (whose rename failed with EACCES),
  // two of its directories.
  void runLeftovers(const std::string& iter) {
    mark(iter);
    file(iter + "/mdbench_tree.0.0/file.mdbench.0.0");
    file(iter + "/mdbench_tree.0.0/mdbench_tree.0.1/file.mdbench.0.1.renamed");
    file(iter + "/mdbench_tree.0.0/mdbench_tree.0.2/file.mdbench.0.2.renamed");
    dir(iter + "/mdbench_tree.0.0/mdbench_tree.0.1/dir.mdbench.0.1");
    dir(iter + "/mdbench_tree.0.0/mdbench_tree.0.2/dir.mdbench.0.2");
    Config config;
    config.sharing = TreeSharing::kUnique;
    config.depth = 1;
    config.branching = 2;
    config.items = 3;
    ItemFates fates;
    fates.setLayout(recordLayoutOf(config, 1, 0));
    fates.setMade(ItemKind::kFile, {3});
    fates.setMade(ItemKind::kDir, {3});
    fates.setRenamed(ItemKind::kFile, {3});
    fates.add(ItemKind::kFile, 0, 0, ItemFate::kOriginalName, EACCES);
    file(iter + "/.mdbench-taken", fates.encode(inodeOf(iter)));
  }

  // The record of a one-rank `-z LEVELS-1 -b 1 -I 1` run (a chain of LEVELS directories, item i in
  // directory i) that made `files` files, written beside the mark of `iter`.
  void chainRecord(const std::string& iter, int levels, std::uint64_t files) {
    Config config;
    config.depth = static_cast<std::uint32_t>(levels - 1);
    config.branching = 1;
    config.items_per_dir = 1;
    config.items = static_cast<std::uint64_t>(levels);
    ItemFates fates;
    fates.setLayout(recordLayoutOf(config, 1, 0));
    fates.setMade(ItemKind::kFile, {files});
    fates.setMade(ItemKind::kDir, {0});
    file(iter + "/.mdbench-taken", fates.encode(inodeOf(iter)));
  }

  std::string root_;
};

TEST_F(CleanupTest, RemovesAMarkedRunDirectoryAndNothingElse) {
  runLeftovers("target/mdbench.iter.0");
  file("target/notes.txt", "user notes");
  file("beside.txt");
  std::vector<std::string> log;
  const CleanSummary s = cleanPosix(at("target"), false, log);
  EXPECT_TRUE(s.error.empty()) << s.error;
  EXPECT_EQ(s.run_dirs, 1u);
  EXPECT_EQ(s.removed_run_dirs, 1u);
  EXPECT_EQ(s.tally.files, 3u);
  EXPECT_EQ(s.tally.dirs, 5u);
  EXPECT_EQ(s.tally.kept, 0u);
  EXPECT_EQ(tree(), (std::set<std::string>{"target/", "target/notes.txt", "beside.txt"}));
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0], "removed " + at("target") + "/mdbench.iter.0 (3 files, 5 directories)");
}

// A record copied by hand from another run's directory with the same layout passes its checksum, but it
// names that directory's inode: here it says nothing, and clean leaves every entry.
TEST_F(CleanupTest, ARecordCopiedFromAnotherDirectoryIsNotTheRunsRecord) {
  runLeftovers("a/mdbench.iter.0");
  runLeftovers("b/mdbench.iter.0");
  fs::copy_file(at("a/mdbench.iter.0/.mdbench-taken"), at("b/mdbench.iter.0/.mdbench-taken"),
                fs::copy_options::overwrite_existing);
  const std::set<std::string> before = tree();
  std::vector<std::string> log;
  const CleanSummary s = cleanPosix(at("b"), false, log);
  EXPECT_EQ(s.tally.files + s.tally.dirs, 0u);
  EXPECT_EQ(s.removed_run_dirs, 0u);
  EXPECT_EQ(tree(), before);
  ASSERT_EQ(s.tally.notes.size(), 1u);
  EXPECT_NE(s.tally.notes[0].find("written in another directory"), std::string::npos) << s.tally.notes[0];
  // The record written in its own directory still counts.
  EXPECT_EQ(cleanPosix(at("a"), false, log).removed_run_dirs, 1u);
}

TEST_F(CleanupTest, RemovesEveryDirectoryLoopAndLeavesLookAlikes) {
  const std::uint64_t made = loopLeftovers("t/mdbench.iter.0");
  EXPECT_EQ(made, 6u + 2 * 18 * 2);
  // What mdtest names its loops and trees, and names close to mdbench's, inside the run's own directory.
  file("t/mdbench.iter.0/test-dir.0-1/mdtest_tree.0/file.mdtest.0.0", "mdtest's");
  dir("t/mdbench.iter.0/mdbench_tree.3/mdtest_tree.0");
  file("t/mdbench.iter.0/mdbench_tree.3/mdbench_tree.4/file.mdtest.1.13", "mdtest's");
  file("t/mdbench.iter.0/mdbench_tree.3/mdbench_tree.4/file.mdbench.1.13.bak", "a user's copy");
  dir("t/mdbench.iter.0/mdbench_tree.3.x");
  dir("t/mdbench.iter.0/mdbench_loop.1");
  std::vector<std::string> log;
  const CleanSummary s = cleanPosix(at("t"), false, log);
  EXPECT_EQ(s.tally.files, 2u * 18);
  EXPECT_EQ(s.tally.dirs, 2u * 18 + 6 - 2);  // loop 1's root and child 4 hold look-alikes: they stay
  EXPECT_EQ(s.tally.kept, 6u);
  EXPECT_EQ(s.removed_run_dirs, 0u);
  EXPECT_EQ(
      tree(),
      (std::set<std::string>{
          "t/", "t/mdbench.iter.0/", "t/mdbench.iter.0/.mdbench-run", "t/mdbench.iter.0/.mdbench-taken",
          "t/mdbench.iter.0/test-dir.0-1/", "t/mdbench.iter.0/test-dir.0-1/mdtest_tree.0/",
          "t/mdbench.iter.0/test-dir.0-1/mdtest_tree.0/file.mdtest.0.0", "t/mdbench.iter.0/mdbench_tree.3/",
          "t/mdbench.iter.0/mdbench_tree.3/mdtest_tree.0/", "t/mdbench.iter.0/mdbench_tree.3/mdbench_tree.4/",
          "t/mdbench.iter.0/mdbench_tree.3/mdbench_tree.4/file.mdtest.1.13",
          "t/mdbench.iter.0/mdbench_tree.3/mdbench_tree.4/file.mdbench.1.13.bak",
          "t/mdbench.iter.0/mdbench_tree.3.x/", "t/mdbench.iter.0/mdbench_loop.1/"}));
}

TEST_F(CleanupTest, LoopsWithoutLookAlikesGoCompletelyAndTheRecordCoversEveryLoop) {
  const std::uint64_t made = loopLeftovers("a/mdbench.iter.0");
  std::vector<std::string> log;
  CleanSummary s = cleanPosix(at("a"), false, log);
  EXPECT_EQ(s.tally.files + s.tally.dirs, made);
  EXPECT_EQ(s.removed_run_dirs, 1u);
  EXPECT_EQ(tree(), (std::set<std::string>{"a/"}));

  // The run found rank 1's item 16 (loop 1, directory 5) taken: its record says so, clean leaves the name.
  loopLeftovers("b/mdbench.iter.2",
                [](ItemFates& fates) { fates.add(ItemKind::kFile, 1, 16, ItemFate::kNotOurs, EEXIST); });
  s = cleanPosix(at("b"), false, log);
  EXPECT_EQ(s.tally.kept, 1u);
  EXPECT_EQ(s.tally.files + s.tally.dirs, made - 3);  // the file, its directory and loop 1's root stay
  EXPECT_TRUE(tree().count("b/mdbench.iter.2/mdbench_tree.3/mdbench_tree.5/file.mdbench.1.16"));
}

TEST_F(CleanupTest, ForeignEntriesInsideStayAndKeepTheirDirectories) {
  runLeftovers("t/mdbench.iter.1");
  file("t/mdbench.iter.1/mdbench_tree.0.0/mdbench_tree.0.1/precious.dat", "keep me");
  dir("t/mdbench.iter.1/mdbench_tree.0.0/file.mdbench.0.9");       // a file's name on a directory
  file("t/mdbench.iter.1/mdbench_tree.0.0/dir.mdbench.0.8", "x");  // a directory's name on a file
  file("t/outside/file.mdbench.0.7", "linked to");
  fs::create_symlink(at("t/outside"), at("t/mdbench.iter.1/mdbench_tree.0.0/mdbench_tree.0.3"));
  fs::create_symlink(at("t/outside/file.mdbench.0.7"),
                     at("t/mdbench.iter.1/mdbench_tree.0.0/file.mdbench.0.6"));
  std::vector<std::string> log;
  const CleanSummary s = cleanPosix(at("t"), false, log);
  EXPECT_EQ(s.run_dirs, 1u);
  EXPECT_EQ(s.removed_run_dirs, 0u);
  EXPECT_EQ(s.tally.kept, 5u);  // precious, two wrong types, two links (their parents stay, uncounted)
  const std::set<std::string> left = tree();
  for (const char* kept :
       {"t/mdbench.iter.1/.mdbench-run", "t/mdbench.iter.1/mdbench_tree.0.0/mdbench_tree.0.1/precious.dat",
        "t/mdbench.iter.1/mdbench_tree.0.0/file.mdbench.0.9/",
        "t/mdbench.iter.1/mdbench_tree.0.0/dir.mdbench.0.8", "t/outside/file.mdbench.0.7"}) {
    EXPECT_TRUE(left.count(kept)) << kept;
  }
  EXPECT_TRUE(left.count("t/mdbench.iter.1/mdbench_tree.0.0/mdbench_tree.0.3 -> " + at("t/outside")))
      << ::testing::PrintToString(left);
  // The generated entries that could go are gone.
  EXPECT_FALSE(left.count("t/mdbench.iter.1/mdbench_tree.0.0/file.mdbench.0.0"));
  EXPECT_FALSE(left.count("t/mdbench.iter.1/mdbench_tree.0.0/mdbench_tree.0.2/"));
  std::ifstream precious(at("t/mdbench.iter.1/mdbench_tree.0.0/mdbench_tree.0.1/precious.dat"));
  std::string text;
  std::getline(precious, text);
  EXPECT_EQ(text, "keep me");
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0], "kept " + at("t") + "/mdbench.iter.1: removed 3 files, 3 directories, 5 entries left");
}

TEST_F(CleanupTest, UnmarkedLookAlikesAreNeverTouched) {
  // Named exactly like mdbench's, but no mark: a user's directory, or one from before marks existed.
  file("t/mdbench.iter.0/mdbench_tree.0.0/file.mdbench.0.0");
  file("t/mdbench.20261130-120000.42/mdbench.iter.0/file.mdbench.0.0");
  const std::set<std::string> before = tree();
  std::vector<std::string> log;
  const CleanSummary s = cleanPosix(at("t"), false, log);
  EXPECT_EQ(s.run_dirs, 0u);
  EXPECT_EQ(tree(), before);
  EXPECT_EQ(log.size(), 2u);
  // Given directly, too.
  cleanPosix(at("t/mdbench.iter.0"), false, log);
  EXPECT_EQ(tree(), before);
}

TEST_F(CleanupTest, DryRunCountsAndChangesNothing) {
  runLeftovers("t/mdbench.iter.0");
  const std::set<std::string> before = tree();
  std::vector<std::string> log;
  const CleanSummary s = cleanPosix(at("t"), true, log);
  EXPECT_EQ(s.tally.files, 3u);
  EXPECT_EQ(s.tally.dirs, 5u);
  EXPECT_EQ(s.removed_run_dirs, 0u);
  EXPECT_EQ(tree(), before);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0], "would remove " + at("t") + "/mdbench.iter.0 (3 files, 5 directories)");
}

// A target mdbench made whose iteration directory holds a user's file: the iteration directory stays, so the
// target does too, and the dry run says so as the real clean then does (it said "would remove" the target).
TEST_F(CleanupTest, DryRunAndCleanAgreeOnATargetWhoseRunDirectoryStays) {
  mark("t");
  runLeftovers("t/mdbench.iter.0");
  file("t/mdbench.iter.0/mdbench_tree.0.0/mine.txt", "user");
  const std::set<std::string> before = tree();
  std::vector<std::string> dry;
  const CleanSummary d = cleanPosix(at("t"), true, dry);
  EXPECT_EQ(tree(), before);
  ASSERT_EQ(dry.size(), 2u) << ::testing::PrintToString(dry);
  EXPECT_EQ(dry[0],
            "would keep " + at("t") + "/mdbench.iter.0: would remove 3 files, 4 directories, 1 entries left");
  EXPECT_EQ(dry[1], "would keep " + at("t") + ": would remove 0 files, 0 directories, 1 entries left");
  std::vector<std::string> real;
  const CleanSummary r = cleanPosix(at("t"), false, real);
  ASSERT_EQ(real.size(), 2u) << ::testing::PrintToString(real);
  EXPECT_EQ(real[0], "kept " + at("t") + "/mdbench.iter.0: removed 3 files, 4 directories, 1 entries left");
  EXPECT_EQ(real[1], "kept " + at("t") + ": removed 0 files, 0 directories, 1 entries left");
  EXPECT_EQ(d.tally.kept, r.tally.kept);
  EXPECT_EQ(r.removed_run_dirs, 0u);
  EXPECT_TRUE(tree().count("t/mdbench.iter.0/mdbench_tree.0.0/mine.txt"));
  EXPECT_TRUE(tree().count("t/.mdbench-run"));
}

TEST_F(CleanupTest, MarkedTargetWithIterationsAndTheRunDirectoryGivenDirectly) {
  mark("cwd/mdbench.20261130-120000.42");
  runLeftovers("cwd/mdbench.20261130-120000.42/mdbench.iter.0");
  runLeftovers("cwd/mdbench.20261130-120000.42/mdbench.iter.1");
  runLeftovers("other/mdbench.iter.3");
  std::vector<std::string> log;
  CleanSummary s = cleanPosix(at("cwd"), false, log);
  EXPECT_EQ(s.run_dirs, 3u);
  EXPECT_EQ(s.removed_run_dirs, 3u);
  s = cleanPosix(at("other/mdbench.iter.3/"), false, log);
  EXPECT_EQ(s.removed_run_dirs, 1u);
  EXPECT_EQ(tree(), (std::set<std::string>{"cwd/", "other/"}));
}

TEST_F(CleanupTest, BadDirectoriesAreErrors) {
  std::vector<std::string> log;
  EXPECT_EQ(cleanPosix(at("missing"), false, log).error,
            at("missing") + ": ENOENT (No such file or directory)");
  file("f");
  EXPECT_EQ(cleanPosix(at("f"), false, log).error, at("f") + " is not a directory");
  dir("d");
  fs::create_symlink(at("d"), at("link"));
  EXPECT_EQ(cleanPosix(at("link"), false, log).error,
            at("link") + " is a symbolic link; mdbench never follows links: give the directory");
}

TEST_F(CleanupTest, PartsSplitTheTopLevelBetweenRanks) {
  runLeftovers("it");
  for (int i = 0; i < 20; ++i) file("it/mdbench_tree." + std::to_string(i) + ".0/file.mdbench.1.1");
  int err = 0;
  const std::unique_ptr<Backend> backend = makeStorage(Config{})->open(at("it"), 0, err);
  ASSERT_TRUE(backend) << err;
  CleanTally total;
  for (std::uint32_t part = 0; part < 3; ++part) {
    CleanTally tally;
    EXPECT_EQ(backend->removeGenerated(backend->root(), CleanOptions{false, part, 3}, tally), 0);
    total += tally;
  }
  EXPECT_EQ(total.files, 23u);
  EXPECT_EQ(total.kept, 0u);
  // The mark and the record are the caller's.
  EXPECT_EQ(tree(), (std::set<std::string>{"it/", "it/.mdbench-run", "it/.mdbench-taken"}));
  EXPECT_LT(cleanPartOf("mdbench_tree.0.0", 7), 7u);
  EXPECT_EQ(cleanPartOf("x", 1), 0u);
}

TEST_F(CleanupTest, MarkIsWrittenOnceAndRecognised) {
  dir("d");
  const int fd = ::open(at("d").c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  EXPECT_FALSE(hasMark(fd));
  EXPECT_EQ(readMark(fd), MarkKind::kNone);
  EXPECT_EQ(writeMark(fd), 0);
  EXPECT_TRUE(hasMark(fd));
  EXPECT_EQ(writeMark(fd), EEXIST);
  ::close(fd);
  struct stat st {};
  ASSERT_EQ(::stat(at("d").c_str(), &st), 0);
  std::ifstream in(at("d/.mdbench-run"));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, markText(st.st_ino));
  dir("e/.mdbench-run");  // a directory of that name is not a mark
  EXPECT_EQ(markOf("e"), MarkKind::kForeign);
}

TEST_F(CleanupTest, OnlyAMarkWrittenForTheDirectoryCounts) {
  mark("real");
  file("empty/.mdbench-run", "");
  file("user/.mdbench-run", "my notes\n");
  file("old/.mdbench-run", "mdbench target directory\n");
  file("header/.mdbench-run", std::string(kMarkHeader));
  dir("copy");
  fs::copy_file(at("real/.mdbench-run"), at("copy/.mdbench-run"));
  dir("link");
  fs::create_symlink(at("real/.mdbench-run"), at("link/.mdbench-run"));
  dir("fifo");
  ASSERT_EQ(::mkfifo(at("fifo/.mdbench-run").c_str(), 0644), 0);  // must not block the read
  EXPECT_EQ(markOf("real"), MarkKind::kOurs);
  EXPECT_EQ(markOf("empty"), MarkKind::kForeign);
  EXPECT_EQ(markOf("user"), MarkKind::kForeign);
  EXPECT_EQ(markOf("old"), MarkKind::kOld);
  EXPECT_EQ(markOf("header"), MarkKind::kForeign);
  EXPECT_EQ(markOf("copy"), MarkKind::kForeign);
  EXPECT_EQ(markOf("link"), MarkKind::kForeign);
  EXPECT_EQ(markOf("fifo"), MarkKind::kForeign);
}

TEST(MarkTextTest, FixedLengthHeaderAndInode) {
  EXPECT_EQ(markText(42), "mdbench run mark 1\ninode 00000000000000000042\n");
  EXPECT_EQ(markText(0).size(), markText(UINT64_MAX).size());
  EXPECT_EQ(classifyMark(markText(7), 7), MarkKind::kOurs);
  EXPECT_EQ(classifyMark(markText(7) + "more", 7), MarkKind::kOurs);
  EXPECT_EQ(classifyMark(markText(7), 8), MarkKind::kForeign);
  EXPECT_EQ(classifyMark(markText(7).substr(0, 30), 7), MarkKind::kForeign);
  EXPECT_EQ(classifyMark("", 7), MarkKind::kForeign);
  EXPECT_EQ(classifyMark("mdbench 0.1.0 run started x on 2 ranks\n", 7), MarkKind::kOld);
  EXPECT_NE(markRefusal("/t/mdbench.iter.0", MarkKind::kOld).find("rm -r /t/mdbench.iter.0"),
            std::string::npos);
  EXPECT_EQ(markRefusal("/t", MarkKind::kOurs), "");
}

TEST_F(CleanupTest, CleanRefusesAnIterationDirectoryWhoseMarkIsNotMdbenchs) {
  file("t/mdbench.iter.0/.mdbench-run", "");
  file("t/mdbench.iter.0/file.mdbench.0.0");
  const std::set<std::string> before = tree();
  std::vector<std::string> log;
  const CleanSummary summary = cleanPosix(at("t/mdbench.iter.0"), false, log);
  EXPECT_NE(summary.error.find("is not a mark mdbench wrote"), std::string::npos) << summary.error;
  EXPECT_EQ(cleanPosix(at("t"), false, log).removed_run_dirs, 0u);
  EXPECT_EQ(tree(), before);
}

// A tree far deeper than the open-file limit (one directory and one file in it per level, as -b 1 -I 1,
// with the run's record), built with mkdirat level by level: `mdbench clean` walks it without recursion,
// holding a few descriptors and a name per level (the recursive walk it replaced needed 3.2 GB and crashed),
// and a look-alike link at the bottom is reported, not followed.
TEST_F(CleanupTest, RemovesATreeDeeperThanTheOpenFileLimitWithBoundedMemory) {
  // 20 times the descriptor limit below; e2e_safety_walk cleans a real -z 8000 run (the test under the
  // sanitizers takes 10 times as long, and a 20000-level record check costs depth squared).
  constexpr int kLevels = 5000;
  mark("mdbench.iter.0");
  chainRecord("mdbench.iter.0", kLevels, kLevels);
  file("outside/keep.txt", "keep");
  int fd = ::open(at("mdbench.iter.0").c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  for (int level = 0; level < kLevels; ++level) {
    const std::string dir_name = "mdbench_tree." + std::to_string(level);
    const std::string file_name = "file.mdbench.0." + std::to_string(level);
    ASSERT_EQ(::mkdirat(fd, dir_name.c_str(), 0755), 0) << level;
    const int next = ::openat(fd, dir_name.c_str(), O_RDONLY | O_DIRECTORY);
    ::close(fd);
    fd = next;
    ASSERT_GE(fd, 0) << level;
    const int item = ::openat(fd, file_name.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    ASSERT_GE(item, 0);
    ::close(item);
  }
  const std::string link_target = at("outside");
  ASSERT_EQ(::symlinkat(link_target.c_str(), fd, "mdbench_tree.99999"), 0);
  ::close(fd);
  // A low RLIMIT_NOFILE for the walk: it must not need a descriptor per level.
  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
  struct rlimit low = saved;
  low.rlim_cur = 256;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  std::vector<std::string> log;
  const CleanSummary summary = cleanPosix(root_, /*dry_run=*/false, log);
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &saved), 0);
  EXPECT_EQ(summary.error, "");
  EXPECT_EQ(summary.tally.files, static_cast<std::uint64_t>(kLevels));
  // Every level but the ones holding the link (which stays, and so do the directories above it).
  EXPECT_EQ(summary.tally.kept, 1u);
  ASSERT_EQ(summary.tally.notes.size(), 1u);
  EXPECT_NE(summary.tally.notes[0].find("mdbench_tree.4999/mdbench_tree.99999: a symbolic link"),
            std::string::npos)
      << summary.tally.notes[0].substr(summary.tally.notes[0].size() - 200);
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(at("outside"))));
  EXPECT_TRUE(fs::exists(at("outside/keep.txt")));
  // The kept chain, the link gone: a second clean removes it all (and TearDown's remove_all could not walk
  // paths that deep).
  fd = ::open(at("mdbench.iter.0").c_str(), O_RDONLY | O_DIRECTORY);
  for (int level = 0; fd >= 0 && level < kLevels; ++level) {
    const int next = ::openat(fd, ("mdbench_tree." + std::to_string(level)).c_str(), O_RDONLY | O_DIRECTORY);
    ::close(fd);
    fd = next;
  }
  ASSERT_GE(fd, 0);
  EXPECT_EQ(::unlinkat(fd, "mdbench_tree.99999", 0), 0);
  ::close(fd);
  log.clear();
  const CleanSummary again = cleanPosix(root_, /*dry_run=*/false, log);
  EXPECT_EQ(again.tally.dirs, static_cast<std::uint64_t>(kLevels));
  EXPECT_EQ(again.tally.kept, 0u);
  EXPECT_EQ(tree(), (std::set<std::string>{"outside/", "outside/keep.txt"}));
}

// The same walk, the link gone: everything goes, the iteration directory too.
TEST_F(CleanupTest, RemovesADeepTreeWhole) {
  constexpr int kLevels = 5000;
  mark("mdbench.iter.0");
  chainRecord("mdbench.iter.0", kLevels, 0);
  int fd = ::open(at("mdbench.iter.0").c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  for (int level = 0; level < kLevels; ++level) {
    const std::string dir_name = "mdbench_tree." + std::to_string(level);
    ASSERT_EQ(::mkdirat(fd, dir_name.c_str(), 0755), 0);
    const int next = ::openat(fd, dir_name.c_str(), O_RDONLY | O_DIRECTORY);
    ::close(fd);
    fd = next;
    ASSERT_GE(fd, 0);
  }
  ::close(fd);
  std::vector<std::string> log;
  const CleanSummary summary = cleanPosix(root_, /*dry_run=*/false, log);
  EXPECT_EQ(summary.error, "");
  EXPECT_EQ(summary.tally.dirs, static_cast<std::uint64_t>(kLevels));
  EXPECT_EQ(summary.tally.kept, 0u);
  EXPECT_EQ(summary.removed_run_dirs, 1u);
  EXPECT_TRUE(tree().empty());
}

}  // namespace
}  // namespace mdbench
