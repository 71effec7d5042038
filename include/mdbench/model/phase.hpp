// The benchmark's phases: one enum, and one table row per phase with everything the plan, the runner and the
// console need to know about it (its stable name, what it works on and does, the stonewall and rank-shift
// rules, the op it reports). Code asks the table (phaseInfo) instead of switching on the phase.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace mdbench {

// Declaration order is execution order (mdtest's: directories first, then files, trees around both).
enum class Phase : std::uint8_t {
  kTreeCreate,
  kDirCreate,
  kDirStat,
  kDirReaddir,
  kDirRename,
  kDirRemove,
  kFileCreate,
  kFileStat,
  kFileReaddir,
  kFileRead,
  kFileRename,
  kFileRemove,
  kTreeRemove,
};
inline constexpr std::size_t kPhaseCount = 13;

inline constexpr std::array<Phase, kPhaseCount> kAllPhases = {
    Phase::kTreeCreate, Phase::kDirCreate,  Phase::kDirStat,   Phase::kDirReaddir,  Phase::kDirRename,
    Phase::kDirRemove,  Phase::kFileCreate, Phase::kFileStat,  Phase::kFileReaddir, Phase::kFileRead,
    Phase::kFileRename, Phase::kFileRemove, Phase::kTreeRemove};

// What a phase works on: the tree directories themselves, or the directory or file items in them.
enum class PhaseScope : std::uint8_t { kTree, kDirs, kFiles };
// What it does to them. The option that selects a phase is its action's (-C, -T, --readdir, -E, -U, -r).
enum class PhaseAction : std::uint8_t { kCreate, kStat, kReaddir, kRead, kRename, kRemove };

// What the stonewall (-W) does in a phase. Creates, stats and reads stop when it fires and then wear out to
// the count the furthest rank reached (mdtest's rule, for every phase that changes nothing it cannot finish
// later); renames and removes only note when it fired and go on, since what they skipped would be left
// behind with the wrong name or at all. Tree and readdir phases are not stonewalled.
enum class StonewallRule : std::uint8_t { kNone, kStopAndWearOut, kNoteOnly };
// The order a phase visits its items (or directories) in: always by number, or (kRandom) in -R's random
// order when -R is given.
enum class PhaseOrder : std::uint8_t { kNumbered, kRandom };

// One row of the phase table.
struct PhaseInfo {
  Phase phase;
  // Stable: used on the console, in result files and in acceptance rules.
  std::string_view name;
  PhaseScope scope;
  PhaseAction action;
  StonewallRule stonewall;
  // k in the owner rank (rank + k * S) mod P (Plan::owner): each later phase moves one more shift away
  // (mdtest's -N), so no phase finds its items where the one before left them.
  std::uint8_t shift_multiple;
  PhaseOrder order;
  // The system call a failed op was, for the console's first-error lines.
  std::string_view verb;
  // mdtest's label of the phase in its tables ("File creation"); "" where mdtest has none.
  std::string_view mdtest_label;

  constexpr bool tree() const { return scope == PhaseScope::kTree; }
  constexpr bool readdir() const { return action == PhaseAction::kReaddir; }
  // An op per item (and -n, -x, a stonewall limit its count); tree and readdir phases have one per directory.
  constexpr bool itemOps() const { return !tree() && !readdir(); }
  // Item creates (not tree-create): they decide afresh which names are the run's.
  constexpr bool creates() const { return action == PhaseAction::kCreate && !tree(); }
  constexpr bool renames() const { return action == PhaseAction::kRename; }
  // Whether the phase decides which names are mdbench's (ownership.hpp): its failures are recorded.
  constexpr bool decidesOwnership() const { return creates() || renames(); }
  // With -S, rank 0 alone removes or renames each shared name (there is only one of it).
  constexpr bool onceForShared() const {
    return !tree() && (action == PhaseAction::kRemove || action == PhaseAction::kRename);
  }
};

// The row of `phase`; throws std::logic_error for a value cast from outside the enum (a programmer error).
const PhaseInfo& phaseInfo(Phase phase);

// The stable name: "tree-create", "dir-create", "dir-stat", "dir-readdir", "dir-rename", "dir-remove",
// "file-create", "file-stat", "file-readdir", "file-read", "file-rename", "file-remove", "tree-remove".
std::string_view phaseName(Phase phase);
// The phase with that stable name; nullopt for any other text.
std::optional<Phase> parsePhaseName(std::string_view name);
// The item phase of `scope` (kDirs or kFiles) that does `action`; nullopt when there is none (a directory
// read, or scope kTree for anything but create and remove).
std::optional<Phase> findPhase(PhaseScope scope, PhaseAction action);

}  // namespace mdbench
