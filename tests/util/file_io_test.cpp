// file_io: bounded reads of regular files only, output names checked without following links, new files
// put into place whole (renamed or linked), never through a link and never over what appeared meanwhile.
#include "mdbench/util/file_io.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace mdbench {
namespace {

class FileIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char templ[] = "/dev/shm/mdbench-fileio-XXXXXX";
    ASSERT_NE(mkdtemp(templ), nullptr);
    dir_ = templ;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  static void put(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
  static std::string get(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static ino_t inode(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 ? st.st_ino : 0;
  }
  // Names in the directory other than the ones a test made: temporaries left behind.
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir_), {}));
  }
  std::string dir_;
};

constexpr ReadSpec kRules{"rules file", 64};

TEST_F(FileIoTest, ReadsARegularFileWhole) {
  put(path("r"), "file-create >= 1\n");
  std::string text = "kept ";
  EXPECT_EQ(readRegularFile(path("r"), kRules, text), "");
  EXPECT_EQ(text, "kept file-create >= 1\n");
  put(path("cap"), std::string(64, 'x'));  // exactly the cap fits
  text.clear();
  EXPECT_EQ(readRegularFile(path("cap"), kRules, text), "");
  EXPECT_EQ(text.size(), 64u);
}

TEST_F(FileIoTest, RefusesWhatIsNotARegularFileWithoutBlocking) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  std::filesystem::create_directory(path("dir"));
  std::string text;
  EXPECT_EQ(readRegularFile(path("fifo"), kRules, text),
            "rules file " + path("fifo") + " is a FIFO, not a file");
  EXPECT_EQ(readRegularFile(path("dir"), kRules, text),
            "rules file " + path("dir") + " is a directory, not a file");
  EXPECT_EQ(readRegularFile("/dev/null", kRules, text), "rules file /dev/null is a device, not a file");
  EXPECT_EQ(readRegularFile(path("missing"), kRules, text),
            "cannot read rules file " + path("missing") + ": ENOENT (No such file or directory)");
  EXPECT_EQ(text, "");
}

TEST_F(FileIoTest, LinksAreFollowedOrRefusedAsAsked) {
  put(path("r"), "x\n");
  std::filesystem::create_symlink(path("r"), path("link"));
  std::filesystem::create_symlink(path("fifo"), path("to-fifo"));
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  std::string text;
  EXPECT_EQ(readRegularFile(path("link"), kRules, text), "");
  EXPECT_EQ(text, "x\n");
  EXPECT_EQ(readRegularFile(path("to-fifo"), kRules, text),
            "rules file " + path("to-fifo") + " is a FIFO, not a file");
  EXPECT_EQ(readRegularFile(path("link"), {"rules file", 64, Links::kRefuse}, text),
            "rules file " + path("link") + " is a symbolic link, not a file");
}

// Too large: refused from its size, before a byte is read (a 2 GiB sparse file costs nothing here).
TEST_F(FileIoTest, RefusesAFileOverTheCapWithoutReadingIt) {
  put(path("big"), "");
  ASSERT_EQ(::truncate(path("big").c_str(), off_t{2} << 30), 0);
  std::string text;
  EXPECT_EQ(readRegularFile(path("big"), {"stonewall file", 1u << 20}, text),
            "stonewall file " + path("big") +
                " is 2048 MiB, more than the 1 MiB a stonewall file can be: not a stonewall file");
  put(path("over"), std::string(65, 'x'));
  EXPECT_EQ(readRegularFile(path("over"), kRules, text),
            "rules file " + path("over") +
                " is 65 bytes, more than the 64 bytes a rules file can be: not a rules file");
  EXPECT_EQ(text, "");
}

// /proc files say they are empty: the read itself stops one byte past the cap.
TEST_F(FileIoTest, StopsReadingPastTheCapWhateverTheSizeSays) {
  std::string text;
  EXPECT_EQ(
      readRegularFile("/proc/self/maps", {"rules file", 16}, text),
      "rules file /proc/self/maps is larger than its size says, more than the 16 bytes a rules file can "
      "be: not a rules file");
  EXPECT_EQ(text, "");
}

TEST_F(FileIoTest, ChecksOutputNamesWithoutFollowingLinks) {
  put(path("file"), "precious\n");
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  std::filesystem::create_directory(path("dir"));
  std::filesystem::create_symlink(path("file"), path("link"));
  std::filesystem::create_symlink(path("nowhere"), path("dangling"));
  EXPECT_EQ(checkOutput(path("new"), "export file").state, OutputState::kAbsent);
  EXPECT_EQ(checkOutput(path("file"), "export file").state, OutputState::kRegularFile);
  for (const auto& [name, kind] :
       {std::pair{"fifo", "a FIFO"}, std::pair{"dir", "a directory"}, std::pair{"link", "a symbolic link"},
        std::pair{"dangling", "a symbolic link"}}) {
    const OutputCheck check = checkOutput(path(name), "export file");
    EXPECT_EQ(check.state, OutputState::kRefused) << name;
    EXPECT_EQ(check.problem, "export file " + path(name) + " is " + kind + ", not a file");
  }
  EXPECT_EQ(checkOutput("/dev/null", "export file").problem, "export file /dev/null is a device, not a file");
  const OutputCheck no_dir = checkOutput(path("nodir/out"), "export file");
  EXPECT_EQ(no_dir.state, OutputState::kRefused);
  EXPECT_EQ(no_dir.problem,
            "cannot write export file " + path("nodir/out") + ": ENOENT (No such file or directory)");
  EXPECT_EQ(checkOutput(path("file/out"), "export file").state, OutputState::kRefused);
}

TEST_F(FileIoTest, WritesANewFileWhole) {
  EXPECT_EQ(writeFileAtomically(path("out"), "content\n", Replace::kNothing, "export file"), "");
  EXPECT_EQ(get(path("out")), "content\n");
  EXPECT_EQ(entries(), 1u);
  // Without replace an existing file is kept.
  EXPECT_EQ(writeFileAtomically(path("out"), "other\n", Replace::kNothing, "export file"),
            "export file " + path("out") + " appeared while it was written: not replacing it");
  EXPECT_EQ(get(path("out")), "content\n");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(FileIoTest, ReplacesARegularFileByRenamingANewOne) {
  put(path("out"), "old\n");
  const ino_t before = inode(path("out"));
  EXPECT_EQ(writeFileAtomically(path("out"), "new\n", Replace::kRegularFile, "export file"), "");
  EXPECT_EQ(get(path("out")), "new\n");
  EXPECT_NE(inode(path("out")), before);
  EXPECT_EQ(entries(), 1u);
}

TEST_F(FileIoTest, NeverWritesThroughALinkOrIntoAFifo) {
  put(path("precious"), "precious\n");
  std::filesystem::create_symlink(path("precious"), path("link"));
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  for (const Replace replace : {Replace::kNothing, Replace::kRegularFile}) {
    EXPECT_NE(writeFileAtomically(path("link"), "evil\n", replace, "export file"), "");
    EXPECT_NE(writeFileAtomically(path("fifo"), "evil\n", replace, "export file"), "");
  }
  EXPECT_EQ(get(path("precious")), "precious\n");
  EXPECT_TRUE(std::filesystem::is_symlink(path("link")));
  struct stat st {};
  ASSERT_EQ(::lstat(path("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(entries(), 3u);
  EXPECT_EQ(writeFileAtomically(path("link"), "evil\n", Replace::kRegularFile, "export file"),
            "export file " + path("link") + " is now a symbolic link, not a file: not replacing it");
}

// What appears between the check and the commit: kNothing keeps it, kRegularFile refuses a link.
TEST_F(FileIoTest, WhatAppearsMeanwhileIsKept) {
  {
    NewFile file(path("out"), "report file");
    ASSERT_EQ(file.error(), "");
    file.stream() << "new\n";
    put(path("out"), "theirs\n");
    EXPECT_EQ(file.commit(Replace::kNothing),
              "report file " + path("out") + " appeared while it was written: not replacing it");
  }
  EXPECT_EQ(get(path("out")), "theirs\n");
  EXPECT_EQ(entries(), 1u);
  put(path("precious"), "precious\n");
  {
    NewFile file(path("other"), "report file");
    ASSERT_EQ(file.write("new\n"), "");
    std::filesystem::create_symlink(path("precious"), path("other"));
    EXPECT_NE(file.commit(Replace::kRegularFile), "");
  }
  EXPECT_EQ(get(path("precious")), "precious\n");
  EXPECT_EQ(entries(), 3u);
}

TEST_F(FileIoTest, CopiesAndReplacesOnlyAnUnchangedFile) {
  put(path("r.h5"), "results\n");
  ::chmod(path("r.h5").c_str(), 0640);
  {
    NewFile copy(path("r.h5"), "results file");
    FileIdentity copied;
    ASSERT_EQ(copy.copyFrom(path("r.h5"), copied), "");
    EXPECT_EQ(get(copy.tempPath()), "results\n");
    ASSERT_EQ(copy.write("more\n"), "");
    put(path("r.h5"), "changed by someone else\n");
    EXPECT_EQ(
        copy.commit(Replace::kRegularFile, &copied),
        "results file " + path("r.h5") + " changed while its new version was written: not replacing it");
  }
  EXPECT_EQ(get(path("r.h5")), "changed by someone else\n");
  NewFile copy(path("r.h5"), "results file");
  FileIdentity copied;
  ASSERT_EQ(copy.copyFrom(path("r.h5"), copied), "");
  ASSERT_EQ(copy.write("more\n"), "");
  EXPECT_EQ(copy.commit(Replace::kRegularFile, &copied), "");
  EXPECT_EQ(get(path("r.h5")), "changed by someone else\nmore\n");
  struct stat st {};
  ASSERT_EQ(::stat(path("r.h5").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  EXPECT_EQ(entries(), 1u);
}

TEST_F(FileIoTest, ALongNameStillGetsATemporary) {
  const std::string name(250, 'n');
  EXPECT_EQ(writeFileAtomically(path(name), "x", Replace::kNothing, "export file"), "");
  EXPECT_EQ(get(path(name)), "x");
  EXPECT_EQ(entries(), 1u);
}

// The short messages of the results tools, before an input is read: a link is followed, a dangling one is
// there but not a file.
TEST_F(FileIoTest, LooksAtInputsBeforeTheyAreRead) {
  put(path("in"), "x");
  std::filesystem::create_symlink(path("in"), path("link"));
  std::filesystem::create_symlink(path("gone"), path("dangling"));
  std::filesystem::create_directory(path("dir"));
  EXPECT_EQ(inputFileProblem(path("in")), "");
  EXPECT_EQ(inputFileProblem(path("link")), "");
  EXPECT_EQ(inputFileProblem(path("dir")), path("dir") + ": not a regular file");
  EXPECT_EQ(inputFileProblem(path("dangling")), path("dangling") + ": not a regular file");
  EXPECT_EQ(inputFileProblem(path("missing")), path("missing") + ": no such file");
  EXPECT_TRUE(nameExists(path("dangling")));
  EXPECT_FALSE(nameExists(path("missing")));
}

TEST_F(FileIoTest, AnOutputThatIsAnInputIsNamedHoweverItIsSpelled) {
  put(path("run.h5"), "results");
  put(path("other.h5"), "results");
  ASSERT_EQ(::link(path("run.h5").c_str(), path("hard.h5").c_str()), 0);
  ASSERT_EQ(::symlink(path("run.h5").c_str(), path("soft.h5").c_str()), 0);
  const std::vector<std::string> inputs = {path("other.h5"), path("soft.h5")};
  // The same file by its own name, a hard link, and a spelling with a dot: each is the input behind the link.
  for (const std::string& output : {path("run.h5"), path("hard.h5"), dir_ + "/./run.h5"}) {
    EXPECT_EQ(outputIsAnInput(output, inputs, "export file"),
              "export file " + output + " is also an input (" + path("soft.h5") +
                  "): writing it would replace what is read from it; give another name")
        << output;
  }
  put(path("new.csv"), "");
  EXPECT_EQ(outputIsAnInput(path("new.csv"), inputs, "export file"), "");
  EXPECT_EQ(outputIsAnInput(path("absent.csv"), inputs, "export file"), "");
  EXPECT_EQ(outputIsAnInput(path("run.h5"), {path("missing.h5")}, "export file"), "");
  EXPECT_EQ(get(path("run.h5")), "results");  // only looked at
}

TEST_F(FileIoTest, MakesDirectoriesWithTheirParents) {
  EXPECT_EQ(makeDirectories(path("a/b/c")), "");
  EXPECT_TRUE(std::filesystem::is_directory(path("a/b/c")));
  EXPECT_EQ(makeDirectories(path("a/b/c")), "");  // there already
  put(path("file"), "x");
  EXPECT_EQ(makeDirectories(path("file/sub")), "cannot create " + path("file/sub") + ": Not a directory");
}

// A user's "DIR", "DIR/" and "DIR//" are one directory, and a name in it is joined by one slash.
TEST(FileIoPaths, JoinsANameToADirectoryByOneSlash) {
  EXPECT_EQ(withoutTrailingSlashes("out"), "out");
  EXPECT_EQ(withoutTrailingSlashes("out/"), "out");
  EXPECT_EQ(withoutTrailingSlashes("a/out///"), "a/out");
  EXPECT_EQ(withoutTrailingSlashes("/"), "/");
  EXPECT_EQ(withoutTrailingSlashes("//"), "/");
  EXPECT_EQ(withoutTrailingSlashes(""), "");
  EXPECT_EQ(pathIn("out", "report.md"), "out/report.md");
  EXPECT_EQ(pathIn("out/", "report.md"), "out/report.md");
  EXPECT_EQ(pathIn("/tmp/out//", "report.md"), "/tmp/out/report.md");
  EXPECT_EQ(pathIn("/", "report.md"), "/report.md");
  EXPECT_EQ(pathIn("///", "report.md"), "/report.md");
  EXPECT_EQ(pathIn("", "report.md"), "report.md");
}

// "LINK/" and "LINK/." make the kernel follow LINK: without them the last component is looked at itself.
TEST(FileIoPaths, DropsTheTrailingSlashesAndDotsThatFollowALink) {
  EXPECT_EQ(withoutTrailingDots("dir/link/"), "dir/link");
  EXPECT_EQ(withoutTrailingDots("dir/link/."), "dir/link");
  EXPECT_EQ(withoutTrailingDots("dir/link/./"), "dir/link");
  EXPECT_EQ(withoutTrailingDots("dir/link//.//."), "dir/link");
  EXPECT_EQ(withoutTrailingDots("dir/.hidden"), "dir/.hidden");
  EXPECT_EQ(withoutTrailingDots("/"), "/");
  EXPECT_EQ(withoutTrailingDots("/."), "/.");
  EXPECT_EQ(withoutTrailingDots("."), ".");
}

// The rename a caller that made its own temporary (the HDF5 results writer) shares with NewFile.
TEST_F(FileIoTest, PutsAFileInPlaceOnlyOverAFile) {
  put(path("tmp"), "new\n");
  put(path("out"), "old\n");
  EXPECT_EQ(putInPlace(path("tmp"), path("out"), Replace::kRegularFile).outcome, PlaceOutcome::kDone);
  EXPECT_EQ(get(path("out")), "new\n");
  put(path("tmp"), "newer\n");
  EXPECT_EQ(putInPlace(path("tmp"), path("out"), Replace::kNothing).outcome, PlaceOutcome::kAppeared);
  std::filesystem::create_directory(path("dir"));
  const Placed placed = putInPlace(path("tmp"), path("dir"), Replace::kRegularFile);
  EXPECT_EQ(placed.outcome, PlaceOutcome::kNotAFile);
  EXPECT_TRUE(S_ISDIR(placed.mode));
  EXPECT_EQ(putInPlace(path("tmp"), path("fresh"), Replace::kNothing).outcome, PlaceOutcome::kDone);
  EXPECT_EQ(get(path("fresh")), "newer\n");
  EXPECT_FALSE(nameExists(path("tmp")));
  const Placed missing = putInPlace(path("tmp"), path("out"), Replace::kRegularFile);
  EXPECT_EQ(missing.outcome, PlaceOutcome::kFailed);
  EXPECT_EQ(missing.err, ENOENT);
  EXPECT_EQ(get(path("out")), "new\n");
}

TEST_F(FileIoTest, NamesTheKinds) {
  EXPECT_EQ(fileKindName(S_IFREG), "a regular file");
  EXPECT_EQ(fileKindName(S_IFSOCK), "a socket");
  EXPECT_EQ(fileKindName(S_IFBLK), "a device");
}

}  // namespace
}  // namespace mdbench
