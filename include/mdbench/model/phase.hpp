// The benchmark's phases: one enum, and one table row per phase with everything the plan, the runner and the
// console need to know about it (its stable name, what it works on and does, the stonewall and rank-shift
// rules, the op it reports, the op kinds it counts apart). Code asks the table (phaseInfo) instead of
// switching on the phase. The selected phases (-C, -T, -E, ...) and --steady's three are rows of one table.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "mdbench/util/enum_names.hpp"

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
  // --steady's (steady.hpp): never selected by -C/-T/-E/-r, never in mdtest's tables.
  kSteadyPrecreate,
  kSteadyMix,
  kSteadyCleanup,
};
inline constexpr std::size_t kPhaseCount = 16;

// The phases the options select, in execution order.
inline constexpr std::array<Phase, 13> kSelectablePhases = {
    Phase::kTreeCreate, Phase::kDirCreate,  Phase::kDirStat,   Phase::kDirReaddir,  Phase::kDirRename,
    Phase::kDirRemove,  Phase::kFileCreate, Phase::kFileStat,  Phase::kFileReaddir, Phase::kFileRead,
    Phase::kFileRename, Phase::kFileRemove, Phase::kTreeRemove};
// --steady's phases, in execution order.
inline constexpr std::size_t kSteadyPhaseCount = 3;
inline constexpr std::array<Phase, kSteadyPhaseCount> kSteadyPhases = {
    Phase::kSteadyPrecreate, Phase::kSteadyMix, Phase::kSteadyCleanup};

// The kinds of op a phase counts apart: a selected phase does one (its action) and counts it in
// RankPhaseRecord's ok and failed alone; --steady's phases several, counted per kind in
// RankPhaseRecord::kinds, each with its own latency histogram (PhaseResult::kind_latency). The names are the
// results file's.
enum class OpKind : std::uint8_t { kMkdir, kStat, kRead, kDelete, kCreate, kRmdir };
inline constexpr std::size_t kOpKindCount = 6;
inline constexpr EnumNames<OpKind, kOpKindCount> kOpKindNames{{
    {OpKind::kMkdir, "mkdir"},
    {OpKind::kStat, "stat"},
    {OpKind::kRead, "read"},
    {OpKind::kDelete, "delete"},
    {OpKind::kCreate, "create"},
    {OpKind::kRmdir, "rmdir"},
}};
inline const char* opKindName(OpKind kind) { return nameOf(kOpKindNames, kind).data(); }
constexpr std::size_t opKindIndex(OpKind kind) { return static_cast<std::size_t>(kind); }

// Which workload a phase belongs to.
enum class PhaseWorkload : std::uint8_t { kSelected, kSteady };

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
  PhaseWorkload workload;
  // The op kinds it counts apart, in the order it does them (empty for a selected phase).
  std::span<const OpKind> kinds;

  constexpr bool steady() const { return workload == PhaseWorkload::kSteady; }
  constexpr bool tree() const { return scope == PhaseScope::kTree; }
  // mdtest's phase_prepare and phase_end (its prologue, -Y's sync and its epilogue) bracket its item phases
  // (readdir included), not its tree phases: --run-cmd-before/after-phase and -Y apply to these only, so
  // that a tree phase's time holds neither a command nor a sync and its rate compares with mdtest's.
  constexpr bool bracketed() const { return !tree() && !steady(); }
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
// "file-create", "file-stat", "file-readdir", "file-read", "file-rename", "file-remove", "tree-remove";
// --steady's "precreate", "mix", "cleanup" (its results groups', export's and --fault-phase's names).
std::string_view phaseName(Phase phase);
// The selectable phase with that stable name; nullopt for any other text (a steady phase's name too).
std::optional<Phase> parsePhaseName(std::string_view name);
// The steady phase with that name ("precreate", "mix", "cleanup"); nullopt for any other text.
std::optional<Phase> parseSteadyPhaseName(std::string_view name);
// The op kinds `phase` counts apart (PhaseInfo::kinds).
std::span<const OpKind> opKindsOf(Phase phase);
// The selectable item phase of `scope` (kDirs or kFiles) that does `action`; nullopt when there is none (a
// directory read, or scope kTree for anything but create and remove).
std::optional<Phase> findPhase(PhaseScope scope, PhaseAction action);

}  // namespace mdbench
