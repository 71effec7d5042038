#include "mdbench/model/phase.hpp"

#include <stdexcept>

namespace mdbench {
namespace {

using P = Phase;
using S = PhaseScope;
using A = PhaseAction;
using W = StonewallRule;
using O = PhaseOrder;

// One row per phase, in enum (execution) order. k: the rank shift multiple (mdtest's dir rename uses its
// stat's names: 1); order: -R's or by number; mdtest: mdtest's label (mdtest_test_name in ior's
// src/mdtest.c; its "Directory read" times an empty loop, and it has no file readdir).
// clang-format off
constexpr std::array<PhaseInfo, kPhaseCount> kPhaseTable = {{
// phase            name            scope      action       stonewall           k  order         verb       mdtest
  {P::kTreeCreate,  "tree-create",  S::kTree,  A::kCreate,  W::kNone,           0, O::kNumbered, "mkdir",    "Tree creation"},
  {P::kDirCreate,   "dir-create",   S::kDirs,  A::kCreate,  W::kStopAndWearOut, 0, O::kNumbered, "mkdir",    "Directory creation"},
  {P::kDirStat,     "dir-stat",     S::kDirs,  A::kStat,    W::kStopAndWearOut, 1, O::kRandom,   "stat",     "Directory stat"},
  {P::kDirReaddir,  "dir-readdir",  S::kDirs,  A::kReaddir, W::kNone,           1, O::kRandom,   "readdir",  "Directory read"},
  {P::kDirRename,   "dir-rename",   S::kDirs,  A::kRename,  W::kNoteOnly,       1, O::kNumbered, "rename",   "Directory rename"},
  {P::kDirRemove,   "dir-remove",   S::kDirs,  A::kRemove,  W::kNoteOnly,       3, O::kNumbered, "rmdir",    "Directory removal"},
  {P::kFileCreate,  "file-create",  S::kFiles, A::kCreate,  W::kStopAndWearOut, 0, O::kNumbered, "create",   "File creation"},
  {P::kFileStat,    "file-stat",    S::kFiles, A::kStat,    W::kStopAndWearOut, 1, O::kRandom,   "stat",     "File stat"},
  {P::kFileReaddir, "file-readdir", S::kFiles, A::kReaddir, W::kNone,           1, O::kRandom,   "readdir",  ""},
  {P::kFileRead,    "file-read",    S::kFiles, A::kRead,    W::kStopAndWearOut, 2, O::kRandom,   "read",     "File read"},
  {P::kFileRename,  "file-rename",  S::kFiles, A::kRename,  W::kNoteOnly,       4, O::kNumbered, "rename",   "File rename"},
  {P::kFileRemove,  "file-remove",  S::kFiles, A::kRemove,  W::kNoteOnly,       3, O::kNumbered, "unlink",   "File removal"},
  {P::kTreeRemove,  "tree-remove",  S::kTree,  A::kRemove,  W::kNone,           0, O::kNumbered, "rmdir",    "Tree removal"},
}};
// clang-format on

constexpr bool rowsInEnumOrder() {
  for (std::size_t i = 0; i < kPhaseCount; ++i) {
    if (kPhaseTable[i].phase != kAllPhases[i] || static_cast<std::size_t>(kAllPhases[i]) != i) return false;
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

std::optional<Phase> parsePhaseName(std::string_view name) {
  for (const PhaseInfo& row : kPhaseTable) {
    if (row.name == name) return row.phase;
  }
  return std::nullopt;
}

std::optional<Phase> findPhase(PhaseScope scope, PhaseAction action) {
  for (const PhaseInfo& row : kPhaseTable) {
    if (row.scope == scope && row.action == action) return row.phase;
  }
  return std::nullopt;
}

}  // namespace mdbench
