// Removing what mdbench made and nothing else: the cleanup after a signal and `mdbench clean`. Only names
// mdbench generates (layout.hpp classifyName), of the type it makes them, inside directories that carry its
// mark, are ever removed; links are never followed; anything else is left and reported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mdbench {

inline constexpr std::size_t kMaxCleanNotes = 20;

struct CleanTally {
  std::uint64_t files = 0;  // removed (dry run: would be)
  std::uint64_t dirs = 0;
  std::uint64_t kept = 0;          // entries left: foreign names, unexpected types, failed removals
  std::vector<std::string> notes;  // the first kMaxCleanNotes of them: "PATH: why"
  void keep(const std::string& path, std::string_view why);
  CleanTally& operator+=(const CleanTally& other);
};

class ItemFates;

struct CleanOptions {
  bool dry_run = false;
  // Share of the top-level entries this caller removes (for ranks cleaning one directory together): an
  // entry is this caller's when a fixed hash of its name modulo `parts` is `part`.
  std::uint32_t part = 0;
  std::uint32_t parts = 1;
  // The run's ownership record (ownership.hpp): only what it says the run made, at the path and under the
  // name it gives, is removed (ItemFates::notOursBecause); nullptr: every generated name of its type.
  const ItemFates* leave = nullptr;
};

// Which of `parts` callers removes the top-level entry `name`.
std::uint32_t cleanPartOf(std::string_view name, std::uint32_t parts);

// The mark (layout.hpp kMarkName) of a directory mdbench made. Its content proves who wrote it: a fixed
// first line and the directory's own inode number (st_ino, the same on every client of ceph or NFS where
// st_dev is not), so an empty file, one a user wrote, or a mark copied from another directory does not
// count. The text has a fixed length and depends only on the inode: a mark put back after a failed rmdir
// is byte for byte the one that was removed.
inline constexpr std::string_view kMarkHeader = "mdbench run mark 1\n";
std::string markText(std::uint64_t dir_inode);

enum class MarkKind : std::uint8_t {
  kNone,     // no entry of that name
  kOurs,     // written by mdbench for this very directory
  kOld,      // an older mdbench's mark ("mdbench ..." without the proof): never trusted
  kForeign,  // anything else: empty, written by hand, copied, not a regular file, unreadable
};
// Pure: what a mark's first bytes say about the directory with inode `dir_inode`.
MarkKind classifyMark(std::string_view content, std::uint64_t dir_inode);
// One sentence for the user on a directory whose mark is not kOurs: why mdbench will not use or remove it,
// and (kOld) how to remove it by hand.
std::string markRefusal(const std::string& path, MarkKind kind);

// Writes the mark of the open directory dir_fd (O_EXCL: fails with EEXIST when there is an entry of that
// name, so a mark is never overwritten), or reads it back (a bounded read, O_NOFOLLOW, regular files only).
int writeMark(int dir_fd);
MarkKind readMark(int dir_fd);
inline bool hasMark(int dir_fd) { return readMark(dir_fd) == MarkKind::kOurs; }

// What `mdbench clean DIR` did (Storage::clean, storage_clean.cpp): DIR is a run's target, an iteration
// directory, or a directory holding targets that mdbench created (mdbench.<time>.<pid>). Every marked
// iteration directory found there is emptied of what its record says the run made and then removed with its
// mark, and so are marked target directories left empty. Never descends into unmarked directories; one log
// line per directory handled.
struct CleanSummary {
  CleanTally tally;
  std::uint64_t run_dirs = 0;  // marked directories found
  std::uint64_t removed_run_dirs = 0;
  std::string error;   // DIR itself unusable
  bool usage = false;  // and the user's mistake (missing, not a directory, a link): exit 2
};

}  // namespace mdbench
