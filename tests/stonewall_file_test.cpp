// The -x stonewall file: round trip, refusal to clobber a foreign file, clear errors for bad files.
#include "mdbench/stonewall_file.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

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

}  // namespace
}  // namespace mdbench
