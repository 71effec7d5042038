// The phase table (phase.hpp) and the steady-state tables (steady.hpp): every row there, in order, with the
// exact properties the plan and the runner act on, and the plan behaving as the rows say.
#include "mdbench/model/phase.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "mdbench/model/plan.hpp"
#include "mdbench/model/steady.hpp"

namespace mdbench {
namespace {

using P = Phase;
using S = PhaseScope;
using A = PhaseAction;
using W = StonewallRule;
using O = PhaseOrder;

struct Row {
  Phase phase;
  const char* name;
  PhaseScope scope;
  PhaseAction action;
  StonewallRule stonewall;
  unsigned shift_multiple;
  PhaseOrder order;
  const char* verb;
};

// What every row must say, written out once more by hand.
const std::vector<Row> kExpected = {
    {P::kTreeCreate, "tree-create", S::kTree, A::kCreate, W::kNone, 0, O::kNumbered, "mkdir"},
    {P::kDirCreate, "dir-create", S::kDirs, A::kCreate, W::kStopAndWearOut, 0, O::kNumbered, "mkdir"},
    {P::kDirStat, "dir-stat", S::kDirs, A::kStat, W::kStopAndWearOut, 1, O::kRandom, "stat"},
    {P::kDirReaddir, "dir-readdir", S::kDirs, A::kReaddir, W::kNone, 1, O::kRandom, "readdir"},
    {P::kDirRename, "dir-rename", S::kDirs, A::kRename, W::kNoteOnly, 1, O::kNumbered, "rename"},
    {P::kDirRemove, "dir-remove", S::kDirs, A::kRemove, W::kNoteOnly, 3, O::kNumbered, "rmdir"},
    {P::kFileCreate, "file-create", S::kFiles, A::kCreate, W::kStopAndWearOut, 0, O::kNumbered, "create"},
    {P::kFileStat, "file-stat", S::kFiles, A::kStat, W::kStopAndWearOut, 1, O::kRandom, "stat"},
    {P::kFileReaddir, "file-readdir", S::kFiles, A::kReaddir, W::kNone, 1, O::kRandom, "readdir"},
    {P::kFileRead, "file-read", S::kFiles, A::kRead, W::kStopAndWearOut, 2, O::kRandom, "read"},
    {P::kFileRename, "file-rename", S::kFiles, A::kRename, W::kNoteOnly, 4, O::kNumbered, "rename"},
    {P::kFileRemove, "file-remove", S::kFiles, A::kRemove, W::kNoteOnly, 3, O::kNumbered, "unlink"},
    {P::kTreeRemove, "tree-remove", S::kTree, A::kRemove, W::kNone, 0, O::kNumbered, "rmdir"},
};

std::set<Phase> phasesWhere(bool (PhaseInfo::*flag)() const) {
  std::set<Phase> phases;
  for (const Phase p : kSelectablePhases) {
    if ((phaseInfo(p).*flag)()) phases.insert(p);
  }
  return phases;
}

// A shared tree of 13 directories, 50 items per rank, every phase selected.
Config everythingConfig() {
  Config config;
  config.depth = 2;
  config.branching = 3;
  config.items = 50;
  config.phases = PhaseSelection{true, true, true, true, true, true, true};
  return config;
}

TEST(PhaseTable, EveryPhaseHasItsRowInOrder) {
  ASSERT_EQ(kExpected.size(), kSelectablePhases.size());
  ASSERT_EQ(kSelectablePhases.size() + kSteadyPhaseCount, kPhaseCount);
  for (std::size_t i = 0; i < kSelectablePhases.size(); ++i) {
    const Row& want = kExpected[i];
    ASSERT_EQ(kSelectablePhases[i], want.phase);
    const PhaseInfo& got = phaseInfo(want.phase);
    SCOPED_TRACE(want.name);
    EXPECT_EQ(got.phase, want.phase);
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.scope, want.scope);
    EXPECT_EQ(got.action, want.action);
    EXPECT_EQ(got.stonewall, want.stonewall);
    EXPECT_EQ(got.shift_multiple, want.shift_multiple);
    EXPECT_EQ(got.order, want.order);
    EXPECT_EQ(got.verb, want.verb);
  }
  EXPECT_THROW(phaseInfo(static_cast<Phase>(kPhaseCount)), std::logic_error);
  EXPECT_THROW(phaseInfo(static_cast<Phase>(200)), std::logic_error);
}

TEST(PhaseTable, NamesRoundTripAndAreUnique) {
  std::set<std::string_view> names;
  for (const Phase p : kSelectablePhases) {
    EXPECT_EQ(phaseName(p), phaseInfo(p).name);
    EXPECT_EQ(parsePhaseName(phaseName(p)), p) << phaseName(p);
    names.insert(phaseName(p));
  }
  for (const Phase p : kSteadyPhases) names.insert(phaseName(p));
  EXPECT_EQ(names.size(), kPhaseCount);
  for (const char* other : {"", "tree", "Tree-create", "tree-create ", "file-creates", "dir-read", "mix"}) {
    EXPECT_EQ(parsePhaseName(other), std::nullopt) << other;
  }
}

TEST(PhaseTable, Flags) {
  EXPECT_EQ(phasesWhere(&PhaseInfo::tree), (std::set<Phase>{P::kTreeCreate, P::kTreeRemove}));
  EXPECT_EQ(phasesWhere(&PhaseInfo::readdir), (std::set<Phase>{P::kDirReaddir, P::kFileReaddir}));
  EXPECT_EQ(phasesWhere(&PhaseInfo::creates), (std::set<Phase>{P::kDirCreate, P::kFileCreate}));
  EXPECT_EQ(phasesWhere(&PhaseInfo::renames), (std::set<Phase>{P::kDirRename, P::kFileRename}));
  EXPECT_EQ(phasesWhere(&PhaseInfo::decidesOwnership),
            (std::set<Phase>{P::kDirCreate, P::kFileCreate, P::kDirRename, P::kFileRename}));
  EXPECT_EQ(phasesWhere(&PhaseInfo::onceForShared),
            (std::set<Phase>{P::kDirRename, P::kDirRemove, P::kFileRename, P::kFileRemove}));
  EXPECT_EQ(phasesWhere(&PhaseInfo::itemOps),
            (std::set<Phase>{P::kDirCreate, P::kDirStat, P::kDirRename, P::kDirRemove, P::kFileCreate,
                             P::kFileStat, P::kFileRead, P::kFileRename, P::kFileRemove}));
}

TEST(PhaseTable, FindPhase) {
  EXPECT_EQ(findPhase(S::kDirs, A::kRename), P::kDirRename);
  EXPECT_EQ(findPhase(S::kFiles, A::kRename), P::kFileRename);
  EXPECT_EQ(findPhase(S::kFiles, A::kRead), P::kFileRead);
  EXPECT_EQ(findPhase(S::kTree, A::kCreate), P::kTreeCreate);
  EXPECT_EQ(findPhase(S::kTree, A::kRemove), P::kTreeRemove);
  EXPECT_EQ(findPhase(S::kDirs, A::kRead), std::nullopt);
  EXPECT_EQ(findPhase(S::kTree, A::kStat), std::nullopt);
}

TEST(PhaseTable, ReadersOfTheTableAgreeWithIt) {
  for (const Phase p : kSelectablePhases) {
    const PhaseInfo& info = phaseInfo(p);
    EXPECT_EQ(isTreePhase(p), info.tree()) << info.name;
    EXPECT_EQ(stonewallRule(p), info.stonewall) << info.name;
    if (info.tree()) {
      EXPECT_THROW(itemKindOf(p), std::logic_error) << info.name;
    } else {
      EXPECT_EQ(itemKindOf(p), info.scope == S::kDirs ? ItemKind::kDir : ItemKind::kFile) << info.name;
    }
  }
}

// Each option selects exactly the phases whose action it names (both kinds, -S off); the renames by kind:
// -U the directories' (mdtest's), --file-rename the files' (mdbench's).
TEST(PhaseTable, SelectionFollowsTheAction) {
  const std::vector<std::pair<PhaseAction, bool PhaseSelection::*>> options = {
      {A::kCreate, &PhaseSelection::create},     {A::kStat, &PhaseSelection::stat},
      {A::kReaddir, &PhaseSelection::readdir},   {A::kRead, &PhaseSelection::read},
      {A::kRename, &PhaseSelection::rename},     {A::kRemove, &PhaseSelection::remove},
      {A::kRename, &PhaseSelection::file_rename}};
  for (const auto& [action, option] : options) {
    Config config;
    config.phases.*option = true;
    std::vector<Phase> want;
    for (const Phase p : kSelectablePhases) {
      if (phaseInfo(p).action != action) continue;
      if (action == A::kRename && (p == P::kFileRename) != (option == &PhaseSelection::file_rename)) continue;
      want.push_back(p);
    }
    EXPECT_EQ(selectPhases(config), want) << static_cast<int>(action);
  }
}

TEST(PhaseTable, PlanFollowsTheRows) {
  Config config = everythingConfig();
  config.shift = 2;
  config.random_order = true;
  const Plan plan(config, 7);
  EXPECT_EQ(plan.phases(), std::vector<Phase>(kSelectablePhases.begin(), kSelectablePhases.end()));
  for (const Phase p : kSelectablePhases) {
    const PhaseInfo& info = phaseInfo(p);
    SCOPED_TRACE(info.name);
    EXPECT_TRUE(plan.runs(p));
    EXPECT_EQ(plan.randomOrder(p), info.order == O::kRandom);
    for (std::uint32_t r = 0; r < 7; ++r) EXPECT_EQ(plan.owner(p, r), (r + info.shift_multiple * 2u) % 7);
    // Only the readdir phases list directories.
    if (info.readdir()) {
      EXPECT_TRUE(plan.listsDir(p, 0, 0));
      EXPECT_EQ(plan.expectedEntries(p, 0), 50u / 13u * 7u + (50u % 13u > 0 ? 7u : 0u));
    } else {
      EXPECT_THROW(plan.listsDir(p, 0, 0), std::logic_error);
      EXPECT_THROW(plan.expectedEntries(p, 0), std::logic_error);
    }
    // Rank 0 alone builds the shared tree; rank 1 lists directories 1 and 8.
    EXPECT_EQ(plan.plannedOps(p, 0), info.tree() ? 13u : info.readdir() ? 2u : 50u);
    EXPECT_EQ(plan.plannedOps(p, 1), info.tree() ? 0u : info.readdir() ? 2u : 50u);
  }
  config.random_order = false;
  const Plan in_order(config, 7);
  for (const Phase p : kSelectablePhases) EXPECT_FALSE(in_order.randomOrder(p)) << phaseName(p);
}

// -S: rank 0 alone removes and renames each shared name; every rank creates, stats, reads and lists.
TEST(PhaseTable, SharedFilesOnceForShared) {
  Config config = everythingConfig();
  config.kinds = ItemKinds::kFilesOnly;
  config.shared_files = true;
  const Plan plan(config, 4);
  for (const Phase p : plan.phases()) {
    const PhaseInfo& info = phaseInfo(p);
    if (info.tree() || info.readdir()) continue;
    EXPECT_EQ(plan.plannedOps(p, 0), 50u) << info.name;
    EXPECT_EQ(plan.plannedOps(p, 3), info.onceForShared() ? 0u : 50u) << info.name;
  }
}

// The names each file phase uses: renamed after the file rename ran, or all with --renamed. Directories
// keep their names: the directory rename rotates them (mdtest's).
TEST(PhaseTable, NameFormAfterTheRename) {
  Config config = everythingConfig();
  const Plan plan(config, 2);
  for (const Phase p : kSelectablePhases) {
    const PhaseInfo& info = phaseInfo(p);
    if (info.tree()) continue;
    const bool after = info.action == A::kRemove && info.scope == S::kFiles;  // only remove follows a rename
    EXPECT_EQ(plan.nameForm(p), after ? NameForm::kRenamed : NameForm::kOriginal) << info.name;
  }
  config.phases.file_rename = false;
  const Plan unrenamed(config, 2);
  for (const Phase p : {P::kDirRemove, P::kFileRemove}) EXPECT_EQ(unrenamed.nameForm(p), NameForm::kOriginal);
  config.renamed = true;
  const Plan renamed(config, 2);
  for (const Phase p : {P::kFileCreate, P::kFileStat, P::kFileRemove}) {
    EXPECT_EQ(renamed.nameForm(p), NameForm::kRenamed);
  }
  for (const Phase p : {P::kDirStat, P::kDirRemove}) EXPECT_EQ(renamed.nameForm(p), NameForm::kOriginal);
}

// --steady's phases are rows of the phase table: their names (the results groups'), never a selectable
// phase's (-x, rules and --fault-phase without --steady refuse them), and their op kinds.
TEST(SteadyTables, NamesAndOps) {
  using Op = OpKind;
  const std::vector<std::string_view> names = {"precreate", "mix", "cleanup"};
  for (std::size_t i = 0; i < kSteadyPhaseCount; ++i) {
    const Phase p = kSteadyPhases[i];
    EXPECT_EQ(phaseName(p), names[i]);
    EXPECT_TRUE(phaseInfo(p).steady());
    EXPECT_EQ(phaseInfo(p).mdtest_label, "");
    EXPECT_EQ(parseSteadyPhaseName(names[i]), p);
    EXPECT_EQ(parsePhaseName(names[i]), std::nullopt);
  }
  for (const Phase p : kSelectablePhases) {
    EXPECT_FALSE(phaseInfo(p).steady());
    EXPECT_TRUE(opKindsOf(p).empty());
    EXPECT_EQ(parseSteadyPhaseName(phaseName(p)), std::nullopt);
  }
  EXPECT_EQ(findPhase(PhaseScope::kFiles, PhaseAction::kCreate), Phase::kFileCreate);
  EXPECT_THROW((void)phaseInfo(static_cast<Phase>(kPhaseCount)), std::logic_error);
  const std::vector<const char*> ops = {"mkdir", "stat", "read", "delete", "create", "rmdir"};
  ASSERT_EQ(ops.size(), kOpKindCount);
  for (std::size_t i = 0; i < kOpKindCount; ++i) EXPECT_STREQ(opKindName(static_cast<Op>(i)), ops[i]);
  EXPECT_STREQ(opKindName(static_cast<Op>(kOpKindCount)), "?");
  const auto kinds = [](Phase p) { return std::vector<Op>(opKindsOf(p).begin(), opKindsOf(p).end()); };
  EXPECT_EQ(kinds(Phase::kSteadyPrecreate), (std::vector<Op>{Op::kMkdir, Op::kCreate}));
  EXPECT_EQ(kinds(Phase::kSteadyMix), (std::vector<Op>{Op::kStat, Op::kRead, Op::kDelete, Op::kCreate}));
  EXPECT_EQ(kinds(Phase::kSteadyCleanup), (std::vector<Op>{Op::kDelete, Op::kRmdir}));
}

}  // namespace
}  // namespace mdbench
