// One way to touch the files a user names (reports, JUnit, exports, imports, stonewall and rules files):
// regular files only, never through a link, bounded reads, a new file renamed into place, errno in every
// message. Every message starts with the file's role and path ("stonewall file sw ...").
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace mdbench {

// "a regular file", "a directory", "a FIFO", "a symbolic link", "a socket", "a device".
std::string_view fileKindName(mode_t mode);

// Whether a reader follows a symbolic link to the file (the target is checked as any file is) or refuses it.
enum class Links : std::uint8_t { kFollow, kRefuse };

struct ReadSpec {
  std::string_view role;        // what the file is for: "stonewall file", "rules file"
  std::uint64_t max_bytes = 0;  // a larger file is refused without being read: "... not a <role>"
  Links links = Links::kFollow;
};

// Reads the regular file `path` whole into `text` (appended). "" or the problem. The open cannot block (a
// FIFO is refused by fstat, not waited on), and no more than max_bytes + 1 bytes are ever read, whatever
// the file's size claims (/proc files, a file that grows).
std::string readRegularFile(const std::string& path, const ReadSpec& spec, std::string& text);

// Whether anything, a dangling link too, has this name (lstat: no link followed).
bool nameExists(const std::string& path);

// An input the user named, looked at before it is read (a link is followed, as inputs are only read):
// "PATH: no such file", "PATH: not a regular file" or "". The results tools' short messages; the read
// itself (readRegularFile) checks again.
std::string inputFileProblem(const std::string& path);

// Whether the output name `output` is the same file as one of `inputs` (device and inode: through links
// and hard links, whatever the spelling), which a forced write would replace with what was read from it.
// "" or "<role> OUTPUT is also an input (INPUT): ...". An output that is absent, or an input that cannot be
// looked at, is no match (the reads and writes say what is wrong with them).
std::string outputIsAnInput(const std::string& output, const std::vector<std::string>& inputs,
                            std::string_view role);

// The directory `path` and its missing parents (mkdir -p): "" or "cannot create PATH: <strerror>".
std::string makeDirectories(const std::string& path);

// `path` without its trailing slashes ("/" stays "/"): the name a user's "DIR/" or "DIR//" means. lstat of
// "LINK/" follows the link, so a directory is looked at by this name.
std::string withoutTrailingSlashes(std::string path);
// `path` without the trailing "/" and "/." that make the kernel follow a link in its last component ("/"
// stays "/", "." stays "."): open(O_NOFOLLOW) and lstat then see the last component itself.
std::string withoutTrailingDots(std::string path);
// `name` in the directory `dir`, joined by exactly one slash whatever `dir` ends with ("out/" + "report.md"
// is "out/report.md", "/" + "x" is "/x").
std::string pathIn(const std::string& dir, std::string_view name);

// What an output name is, looked at (lstat, never following a link) before anything is written.
enum class OutputState : std::uint8_t { kAbsent, kRegularFile, kRefused };
struct OutputCheck {
  OutputState state = OutputState::kAbsent;
  // kRefused: "<role> PATH is a FIFO, not a file", or why the name or its directory cannot be used.
  std::string problem;
  mode_t mode = 0;  // the type of what is there, 0 when the name is absent or cannot be looked at
};
// An absent name also needs an existing directory to be written into.
OutputCheck checkOutput(const std::string& path, std::string_view role);

// What the new file may take the place of when it is put into place.
enum class Replace : std::uint8_t {
  kNothing,      // the name must still be absent (a file that appeared meanwhile is kept, and an error)
  kRegularFile,  // absent or a regular file (a link or anything else that appeared meanwhile is refused)
};

// The identity of a file, to notice that it was replaced or changed while its new version was written.
struct FileIdentity {
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  std::int64_t mtime_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};
FileIdentity identityOf(const struct stat& st);

// How putInPlace went. Callers word their own messages (the results writer's differ from NewFile's).
enum class PlaceOutcome : std::uint8_t {
  kDone,
  kNotAFile,  // Replace::kRegularFile: the target is now something else (`mode` says what)
  kChanged,   // Replace::kRegularFile with `unchanged`: the target is another file, or changed
  kAppeared,  // Replace::kNothing: the name exists now
  kFailed,    // the rename or link failed: `err`
};
struct Placed {
  PlaceOutcome outcome = PlaceOutcome::kDone;
  int err = 0;
  mode_t mode = 0;
};
// Puts the complete file `temp` at `target`, beside it (rename, or link then unlink when nothing may be
// replaced), then syncs the directory. On any outcome but kDone, `temp` is left for the caller to remove.
Placed putInPlace(const std::string& temp, const std::string& target, Replace replace,
                  const FileIdentity* unchanged = nullptr);

// Allocates the blocks of the regular file `fd` up to its end plus `bytes` (holes included) without changing
// its size, so that the next write step cannot run out of space or into the file size limit (RLIMIT_FSIZE)
// halfway: 0, or ENOSPC, EDQUOT, EFBIG. Where fallocate is not supported the free space is checked instead;
// 0 where nothing can be told (fd -1, fstat fails).
int reserveSpace(int fd, std::uint64_t bytes);
// Gives back what reserveSpace allocated past the end (truncating to the same size frees it on ext4, XFS,
// tmpfs).
void releaseSpace(int fd);

// A new file beside `target`, named .<target name>.mdbench-tmp.<pid>, created with O_EXCL|O_NOFOLLOW.
// Write it (write(), stream(), or a tool writing to tempPath() or fd()), then commit() puts it in place;
// until then, and whenever commit fails, the target is untouched and the destructor removes the file.
class NewFile {
 public:
  NewFile(const std::string& target, std::string_view role);  // check error() before use
  ~NewFile();
  NewFile(const NewFile&) = delete;
  NewFile& operator=(const NewFile&) = delete;

  const std::string& error() const { return error_; }  // "" when the temporary was made
  const std::string& tempPath() const { return temp_; }
  int fd() const { return fd_; }
  // All of `bytes`, or the problem.
  std::string write(std::string_view bytes);
  // A buffered stream onto the file; its failures are reported by commit().
  std::ostream& stream();
  // The contents and permission bits of the regular file `source` (no link followed); its identity, when
  // the copy is complete, in `copied`.
  std::string copyFrom(const std::string& source, FileIdentity& copied);
  // Allocates room for `bytes` more past the file's end (its size unchanged), so that a tool writing to it
  // (HDF5) does not run out of space or into the file size limit halfway: "" or ENOSPC, EDQUOT, EFBIG.
  // commit() gives back what was not used.
  std::string reserve(std::uint64_t bytes);
  // fsync, close and put the file at the target. With `unchanged`, the target must still be that file.
  std::string commit(Replace replace, const FileIdentity* unchanged = nullptr);

 private:
  class Buffer;
  std::string target_;
  std::string role_;
  std::string temp_;
  std::string error_;
  int fd_ = -1;
  bool committed_ = false;
  bool reserved_ = false;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

// From now on a write past the file size limit (ulimit -f) fails with EFBIG instead of killing the process
// with SIGXFSZ, so that the temporary is removed and the target kept. For the tools, which run alone.
void failWritesPastSizeLimit();

// The whole of `content` as the file `path`, through a NewFile: "" or the problem, the target untouched.
std::string writeFileAtomically(const std::string& path, std::string_view content, Replace replace,
                                std::string_view role);

}  // namespace mdbench
