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
  // Names the run's ownership record says it did not make (ownership.hpp): left alone, never removed.
  const ItemFates* leave = nullptr;
};

// Which of `parts` callers removes the top-level entry `name`.
std::uint32_t cleanPartOf(std::string_view name, std::uint32_t parts);

// Removes the generated entries below the open directory dir_fd (depth first): regular files with file
// names, directories with directory names once they are empty. `display` names dir_fd in notes. Returns
// 0, or the errno of listing dir_fd itself.
int removeGeneratedBelow(int dir_fd, const std::string& display, const CleanOptions& options,
                         CleanTally& tally);

// The mark (layout.hpp kMarkName) of the directory dir_fd: writes it (O_EXCL: fails with EEXIST when there
// is one), or says whether a regular file of that name is there.
int writeMark(int dir_fd, std::string_view description);
bool hasMark(int dir_fd);

// `mdbench clean DIR`: DIR is a run's target, an iteration directory, or a directory holding targets that
// mdbench created (mdbench.<time>.<pid>). Every marked iteration directory found there is emptied of what
// mdbench generated and then removed with its mark, and so are marked target directories left empty.
// Never descends into unmarked directories. `log` receives one line per directory handled.
struct CleanSummary {
  CleanTally tally;
  std::uint64_t run_dirs = 0;  // marked directories found
  std::uint64_t removed_run_dirs = 0;
  std::string error;  // DIR itself unusable
};
CleanSummary cleanDirectory(const std::string& dir, bool dry_run, std::vector<std::string>& log);

}  // namespace mdbench
