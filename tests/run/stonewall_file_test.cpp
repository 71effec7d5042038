// The -x stonewall file: round trip, refusal to clobber a foreign file, clear errors for bad files.
#include "mdbench/run/stonewall_file.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

namespace mdbench {
namespace {

class StonewallFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char templ[] = "/dev/shm/mdbench-swfile-XXXXXX";
    ASSERT_NE(mkdtemp(templ), nullptr);
    dir_ = templ;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const char* name) const { return dir_ + "/" + name; }
  static void put(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
  static std::string get(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::string dir_;
};

TEST_F(StonewallFileTest, RoundTrip) {
  ASSERT_EQ(writeStonewallFile(path("sw"), {std::nullopt, 4711}), "");
  EXPECT_EQ(get(path("sw")), "mdbench stonewall 1\nfiles 4711\n");
  StonewallCounts counts;
  ASSERT_EQ(readStonewallFile(path("sw"), counts), "");
  EXPECT_FALSE(counts.dirs.has_value());
  EXPECT_EQ(counts.files, 4711u);
  ASSERT_EQ(writeStonewallFile(path("sw"), {12, 34}), "");  // ours: rewritten
  counts = {};
  ASSERT_EQ(readStonewallFile(path("sw"), counts), "");
  EXPECT_EQ(counts.dirs, 12u);
  EXPECT_EQ(counts.files, 34u);
  EXPECT_FALSE(std::filesystem::exists(path("sw.tmp")));
}

TEST_F(StonewallFileTest, NeverOverwritesAForeignFile) {
  put(path("notes"), "my notes\n");
  const std::string error = writeStonewallFile(path("notes"), {1, 2});
  EXPECT_NE(error.find("is not an mdbench stonewall file: not overwriting it"), std::string::npos) << error;
  EXPECT_EQ(get(path("notes")), "my notes\n");
}

TEST_F(StonewallFileTest, ReadErrorsNameTheProblem) {
  StonewallCounts counts;
  EXPECT_NE(readStonewallFile(path("missing"), counts).find("cannot read stonewall file"), std::string::npos);
  EXPECT_NE(readStonewallFile(path("missing"), counts).find("ENOENT"), std::string::npos);
  put(path("foreign"), "42\n");
  EXPECT_NE(readStonewallFile(path("foreign"), counts).find("is not an mdbench stonewall file"),
            std::string::npos);
  put(path("bad"), "mdbench stonewall 1\nfiles 12x\n");
  EXPECT_EQ(readStonewallFile(path("bad"), counts),
            path("bad") + " line 2: expected 'dirs <count>' or 'files <count>', found 'files 12x'");
  put(path("empty"), "mdbench stonewall 1\n");
  EXPECT_EQ(readStonewallFile(path("empty"), counts), path("empty") + " holds no count");
}

// Not a regular file: refused at once. A FIFO must not block the reader (every other rank waits for it)
// nor the writer, and a dangling link is a missing file, not one to replace.
TEST_F(StonewallFileTest, RefusesWhatIsNotAFileWithoutBlocking) {
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  std::filesystem::create_directory(path("dir"));
  std::filesystem::create_symlink(path("nowhere"), path("dangling"));
  StonewallCounts counts;
  EXPECT_EQ(readStonewallFile(path("fifo"), counts),
            "stonewall file " + path("fifo") + " is a FIFO, not a file");
  EXPECT_EQ(readStonewallFile(path("dir"), counts),
            "stonewall file " + path("dir") + " is a directory, not a file");
  EXPECT_NE(readStonewallFile(path("dangling"), counts).find("ENOENT"), std::string::npos);
  EXPECT_EQ(writeStonewallFile(path("fifo"), {1, 2}),
            "stonewall file " + path("fifo") + " is a FIFO, not a file: not overwriting it");
  EXPECT_EQ(writeStonewallFile(path("dir"), {1, 2}),
            "stonewall file " + path("dir") + " is a directory, not a file: not overwriting it");
  EXPECT_EQ(writeStonewallFile(path("dangling"), {1, 2}),
            "stonewall file " + path("dangling") + " is a symbolic link, not a file: not overwriting it");
  EXPECT_TRUE(std::filesystem::is_symlink(path("dangling")));
  EXPECT_TRUE(std::filesystem::is_fifo(path("fifo")));
}

// Before a run: what its later read or write would say, without touching anything.
TEST_F(StonewallFileTest, CheckFindsWhatAReadOrWriteWouldRefuse) {
  put(path("sw"), "mdbench stonewall 1\nfiles 5\n");
  put(path("notes"), "my notes\n");
  std::filesystem::create_directory(path("dir"));
  EXPECT_EQ(checkStonewallFile(path("sw"), StonewallUse::kRead, 5), "");
  EXPECT_EQ(
      checkStonewallFile(path("sw"), StonewallUse::kRead, 4),
      path("sw") + ": a count of 5 is more than -n 4: run with the -n of the job that created the items");
  EXPECT_NE(checkStonewallFile(path("missing"), StonewallUse::kRead, 5).find("ENOENT"), std::string::npos);
  EXPECT_EQ(checkStonewallFile(path("sw"), StonewallUse::kWrite, 0), "");
  EXPECT_EQ(checkStonewallFile(path("missing"), StonewallUse::kWrite, 0), "");
  EXPECT_EQ(checkStonewallFile(path("nodir/sw"), StonewallUse::kWrite, 0),
            "cannot write stonewall file " + path("nodir/sw") + ": ENOENT (No such file or directory)");
  EXPECT_EQ(checkStonewallFile(path("notes"), StonewallUse::kWrite, 0),
            path("notes") + " exists and is not an mdbench stonewall file: not overwriting it");
  EXPECT_EQ(checkStonewallFile(path("dir"), StonewallUse::kWrite, 0),
            "stonewall file " + path("dir") + " is a directory, not a file: not overwriting it");
  EXPECT_FALSE(std::filesystem::exists(path("missing")));
  EXPECT_EQ(get(path("notes")), "my notes\n");
}

}  // namespace
}  // namespace mdbench
