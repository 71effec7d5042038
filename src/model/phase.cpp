#include "mdbench/model/phase.hpp"

#include <stdexcept>

namespace mdbench {
namespace {

using P = Phase;
using S = PhaseScope;
using A = PhaseAction;
using W = StonewallRule;
using O = PhaseOrder;
using K = OpKind;

constexpr std::array<OpKind, 2> kPrecreateKinds = {K::kMkdir, K::kCreate};
constexpr std::array<OpKind, 4> kMixKinds = {K::kStat, K::kRead, K::kDelete, K::kCreate};
constexpr std::array<OpKind, 2> kCleanupKinds = {K::kDelete, K::kRmdir};
constexpr std::span<const OpKind> kOne{};
constexpr auto kSel = PhaseWorkload::kSelected;
constexpr auto kSt = PhaseWorkload::kSteady;

// One row per phase, in enum (execution) order. k: the rank shift multiple (mdtest's dir rename uses its
// stat's names: 1); order: -R's or by number; mdtest: mdtest's label (mdtest_test_name in ior's
// src/mdtest.c; its "Directory read" times an empty loop, and it has no file readdir). --steady's rows
// (steady.hpp): the mix stops at a stonewall and wears out to the furthest rank's round count.
// clang-format off
constexpr std::array<PhaseInfo, kPhaseCount> kPhaseTable = {{
// phase                name            scope      action       stonewall           k  order         verb       mdtest                workload kinds
  {P::kTreeCreate,      "tree-create",  S::kTree,  A::kCreate,  W::kNone,           0, O::kNumbered, "mkdir",    "Tree creation",      kSel, kOne},
  {P::kDirCreate,       "dir-create",   S::kDirs,  A::kCreate,  W::kStopAndWearOut, 0, O::kNumbered, "mkdir",    "Directory creation", kSel, kOne},
  {P::kDirStat,         "dir-stat",     S::kDirs,  A::kStat,    W::kStopAndWearOut, 1, O::kRandom,   "stat",     "Directory stat",     kSel, kOne},
  {P::kDirReaddir,      "dir-readdir",  S::kDirs,  A::kReaddir, W::kNone,           1, O::kRandom,   "readdir",  "Directory read",     kSel, kOne},
  {P::kDirRename,       "dir-rename",   S::kDirs,  A::kRename,  W::kNoteOnly,       1, O::kNumbered, "rename",   "Directory rename",   kSel, kOne},
  {P::kDirRemove,       "dir-remove",   S::kDirs,  A::kRemove,  W::kNoteOnly,       3, O::kNumbered, "rmdir",    "Directory removal",  kSel, kOne},
  {P::kFileCreate,      "file-create",  S::kFiles, A::kCreate,  W::kStopAndWearOut, 0, O::kNumbered, "create",   "File creation",      kSel, kOne},
  {P::kFileStat,        "file-stat",    S::kFiles, A::kStat,    W::kStopAndWearOut, 1, O::kRandom,   "stat",     "File stat",          kSel, kOne},
  {P::kFileReaddir,     "file-readdir", S::kFiles, A::kReaddir, W::kNone,           1, O::kRandom,   "readdir",  "",                   kSel, kOne},
  {P::kFileRead,        "file-read",    S::kFiles, A::kRead,    W::kStopAndWearOut, 2, O::kRandom,   "read",     "File read",          kSel, kOne},
  {P::kFileRename,      "file-rename",  S::kFiles, A::kRename,  W::kNoteOnly,       4, O::kNumbered, "rename",   "File rename",        kSel, kOne},
  {P::kFileRemove,      "file-remove",  S::kFiles, A::kRemove,  W::kNoteOnly,       3, O::kNumbered, "unlink",   "File removal",       kSel, kOne},
  {P::kTreeRemove,      "tree-remove",  S::kTree,  A::kRemove,  W::kNone,           0, O::kNumbered, "rmdir",    "Tree removal",       kSel, kOne},
  {P::kSteadyPrecreate, "precreate",    S::kFiles, A::kCreate,  W::kNone,           0, O::kNumbered, "",         "",                   kSt,  kPrecreateKinds},
  {P::kSteadyMix,       "mix",          S::kFiles, A::kStat,    W::kStopAndWearOut, 0, O::kNumbered, "",         "",                   kSt,  kMixKinds},
  {P::kSteadyCleanup,   "cleanup",      S::kFiles, A::kRemove,  W::kNone,           0, O::kNumbered, "",         "",                   kSt,  kCleanupKinds},
}};
// clang-format on

constexpr bool rowsInEnumOrder() {
  for (std::size_t i = 0; i < kPhaseCount; ++i) {
    if (static_cast<std::size_t>(kPhaseTable[i].phase) != i) return false;
    const bool steady = i >= kSelectablePhases.size();
    if (kPhaseTable[i].steady() != steady || kPhaseTable[i].kinds.empty() == steady) return false;
    if (steady ? kSteadyPhases[i - kSelectablePhases.size()] != kPhaseTable[i].phase
               : kSelectablePhases[i] != kPhaseTable[i].phase) {
      return false;
    }
  }
  return true;
}
static_assert(rowsInEnumOrder(), "kPhaseTable: one row per phase, in the enum's order");

}  // namespace

const PhaseInfo& phaseInfo(Phase phase) {
  const auto index = static_cast<std::size_t>(phase);
  // Only a value cast from outside the enum gets here: a programmer error, reported in every build type.
  if (index >= kPhaseTable.size()) throw std::logic_error("mdbench::phaseInfo: not a Phase value");
  return kPhaseTable[index];
}

std::string_view phaseName(Phase phase) { return phaseInfo(phase).name; }

namespace {
std::optional<Phase> findByName(std::string_view name, PhaseWorkload workload) {
  for (const PhaseInfo& row : kPhaseTable) {
    if (row.workload == workload && row.name == name) return row.phase;
  }
  return std::nullopt;
}
}  // namespace

std::optional<Phase> parsePhaseName(std::string_view name) {
  return findByName(name, PhaseWorkload::kSelected);
}

std::optional<Phase> parseSteadyPhaseName(std::string_view name) {
  return findByName(name, PhaseWorkload::kSteady);
}

std::span<const OpKind> opKindsOf(Phase phase) { return phaseInfo(phase).kinds; }

std::optional<Phase> findPhase(PhaseScope scope, PhaseAction action) {
  for (const PhaseInfo& row : kPhaseTable) {
    if (!row.steady() && row.scope == scope && row.action == action) return row.phase;
  }
  return std::nullopt;
}

}  // namespace mdbench
