// Phase names, phase selection and the per-rank plan, with exact expectations.
#include "mdbench/plan.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace mdbench {
namespace {

using P = Phase;

PhaseSelection select(bool create, bool stat, bool read, bool remove) {
  PhaseSelection s;
  s.create = create;
  s.stat = stat;
  s.read = read;
  s.remove = remove;
  return s;
}

const PhaseSelection kCreate = select(true, false, false, false);
const PhaseSelection kStat = select(false, true, false, false);
const PhaseSelection kRead = select(false, false, true, false);
const PhaseSelection kRemove = select(false, false, false, true);
const PhaseSelection kAll = select(true, true, true, true);

std::vector<Phase> phasesFor(ItemKinds kinds, PhaseSelection sel) {
  Config config;
  config.kinds = kinds;
  config.phases = sel;
  return selectPhases(config);
}

TEST(PhaseName, StableNames) {
  const std::vector<std::string> expected = {"tree-create", "dir-create",  "dir-stat",
                                             "dir-remove",  "file-create", "file-stat",
                                             "file-read",   "file-remove", "tree-remove"};
  ASSERT_EQ(kAllPhases.size(), expected.size());
  for (std::size_t i = 0; i < kAllPhases.size(); ++i) EXPECT_EQ(phaseName(kAllPhases[i]), expected[i]);
  EXPECT_THROW(phaseName(static_cast<Phase>(200)), std::logic_error);
}

TEST(SelectPhases, BothKinds) {
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kCreate),
            (std::vector<P>{P::kTreeCreate, P::kDirCreate, P::kFileCreate}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kStat), (std::vector<P>{P::kDirStat, P::kFileStat}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kRead), (std::vector<P>{P::kFileRead}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kRemove),
            (std::vector<P>{P::kDirRemove, P::kFileRemove, P::kTreeRemove}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kAll),
            (std::vector<P>{P::kTreeCreate, P::kDirCreate, P::kDirStat, P::kDirRemove, P::kFileCreate,
                            P::kFileStat, P::kFileRead, P::kFileRemove, P::kTreeRemove}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, select(true, false, false, true)),
            (std::vector<P>{P::kTreeCreate, P::kDirCreate, P::kDirRemove, P::kFileCreate, P::kFileRemove,
                            P::kTreeRemove}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, select(false, true, true, false)),
            (std::vector<P>{P::kDirStat, P::kFileStat, P::kFileRead}));
}

TEST(SelectPhases, FilesOnly) {
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, kCreate), (std::vector<P>{P::kTreeCreate, P::kFileCreate}));
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, kStat), (std::vector<P>{P::kFileStat}));
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, kRead), (std::vector<P>{P::kFileRead}));
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, kRemove), (std::vector<P>{P::kFileRemove, P::kTreeRemove}));
  // IO500 mdtest-hard runs write, stat, read, delete on files.
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, kAll),
            (std::vector<P>{P::kTreeCreate, P::kFileCreate, P::kFileStat, P::kFileRead, P::kFileRemove,
                            P::kTreeRemove}));
  // IO500 mdtest-easy: create, stat, remove.
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, select(true, true, false, true)),
            (std::vector<P>{P::kTreeCreate, P::kFileCreate, P::kFileStat, P::kFileRemove, P::kTreeRemove}));
}

TEST(SelectPhases, DirsOnly) {
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kCreate), (std::vector<P>{P::kTreeCreate, P::kDirCreate}));
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kStat), (std::vector<P>{P::kDirStat}));
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kRead), (std::vector<P>{}));  // directories have nothing to read
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kRemove), (std::vector<P>{P::kDirRemove, P::kTreeRemove}));
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kAll),
            (std::vector<P>{P::kTreeCreate, P::kDirCreate, P::kDirStat, P::kDirRemove, P::kTreeRemove}));
}

// Every combination: the result is the union of the single selections, in enum order, without repeats.
TEST(SelectPhases, CombinationsAreUnionsInExecutionOrder) {
  for (ItemKinds kinds : {ItemKinds::kBoth, ItemKinds::kFilesOnly, ItemKinds::kDirsOnly}) {
    for (int mask = 0; mask < 16; ++mask) {
      const PhaseSelection sel = select(mask & 1, mask & 2, mask & 4, mask & 8);
      std::set<Phase> expected;
      const PhaseSelection singles[] = {kCreate, kStat, kRead, kRemove};
      for (int bit = 0; bit < 4; ++bit) {
        if (mask & (1 << bit)) {
          for (Phase p : phasesFor(kinds, singles[bit])) expected.insert(p);
        }
      }
      const std::vector<Phase> got = phasesFor(kinds, sel);
      EXPECT_EQ(got, std::vector<Phase>(expected.begin(), expected.end()))
          << "kinds " << int(kinds) << " mask " << mask;  // std::set orders by enum value
    }
  }
}

TEST(PhaseKinds, TreeAndItemPhases) {
  EXPECT_TRUE(isTreePhase(P::kTreeCreate));
  EXPECT_TRUE(isTreePhase(P::kTreeRemove));
  for (Phase p : {P::kDirCreate, P::kDirStat, P::kDirRemove}) {
    EXPECT_FALSE(isTreePhase(p));
    EXPECT_EQ(itemKindOf(p), ItemKind::kDir);
  }
  for (Phase p : {P::kFileCreate, P::kFileStat, P::kFileRead, P::kFileRemove}) {
    EXPECT_FALSE(isTreePhase(p));
    EXPECT_EQ(itemKindOf(p), ItemKind::kFile);
  }
  EXPECT_THROW(itemKindOf(P::kTreeCreate), std::logic_error);
  EXPECT_THROW(itemKindOf(P::kTreeRemove), std::logic_error);
}

Config treeConfig(TreeSharing sharing) {
  Config config;
  config.sharing = sharing;
  config.depth = 2;
  config.branching = 3;  // 13 directories
  config.items = 50;
  config.phases = kAll;
  return config;
}

TEST(Plan, SharedTreeIsBuiltByRankZeroAlone) {
  for (std::uint32_t ranks : {1u, 2u, 4u, 7u}) {
    const Plan plan(treeConfig(TreeSharing::kShared), ranks);
    EXPECT_EQ(plan.ranks(), ranks);
    EXPECT_EQ(plan.layout().dirCount(), 13u);
    EXPECT_EQ(plan.phases().size(), kPhaseCount);
    std::uint64_t tree_ops = 0;
    for (std::uint32_t r = 0; r < ranks; ++r) {
      EXPECT_EQ(plan.buildsTree(r), r == 0);
      EXPECT_EQ(plan.plannedOps(P::kTreeCreate, r), r == 0 ? 13u : 0u);
      EXPECT_EQ(plan.plannedOps(P::kTreeRemove, r), r == 0 ? 13u : 0u);
      tree_ops += plan.plannedOps(P::kTreeCreate, r);
      for (Phase p : {P::kDirCreate, P::kDirStat, P::kDirRemove, P::kFileCreate, P::kFileStat, P::kFileRead,
                      P::kFileRemove}) {
        EXPECT_EQ(plan.plannedOps(p, r), 50u);
      }
    }
    EXPECT_EQ(tree_ops, 13u);
  }
}

TEST(Plan, UniqueTreesAreBuiltByEveryRank) {
  for (std::uint32_t ranks : {1u, 2u, 4u, 7u}) {
    const Plan plan(treeConfig(TreeSharing::kUnique), ranks);
    std::uint64_t tree_ops = 0;
    for (std::uint32_t r = 0; r < ranks; ++r) {
      EXPECT_TRUE(plan.buildsTree(r));
      EXPECT_EQ(plan.plannedOps(P::kTreeCreate, r), 13u);
      EXPECT_EQ(plan.plannedOps(P::kTreeRemove, r), 13u);
      EXPECT_EQ(plan.plannedOps(P::kFileCreate, r), 50u);
      tree_ops += plan.plannedOps(P::kTreeCreate, r);
    }
    // mdtest counts one tree with -u although every rank makes one; we count them all.
    EXPECT_EQ(tree_ops, 13u * ranks);
  }
}

TEST(Plan, OwnerIsTheRankItself) {
  const Plan plan(treeConfig(TreeSharing::kUnique), 4);
  for (Phase p : kAllPhases) {
    for (std::uint32_t r = 0; r < 4; ++r) EXPECT_EQ(plan.owner(p, r), r);
  }
}

TEST(Plan, KeepsConfigAndSelectedPhases) {
  Config config = treeConfig(TreeSharing::kShared);
  config.kinds = ItemKinds::kFilesOnly;
  config.phases = select(true, false, false, true);
  config.leaf_only = true;
  const Plan plan(config, 3);
  EXPECT_EQ(plan.phases(), (std::vector<P>{P::kTreeCreate, P::kFileCreate, P::kFileRemove, P::kTreeRemove}));
  EXPECT_EQ(plan.config().items, 50u);
  EXPECT_EQ(plan.layout().firstItemDir(), 4u);  // leaf_only reached the layout
  EXPECT_EQ(plan.layout().itemsInDir(4), 6u);   // 50 over 9 leaves: 6 x 5, then 5 x 4
  EXPECT_EQ(plan.layout().itemsInDir(12), 5u);
}

TEST(Plan, PreconditionsAreChecked) {
  EXPECT_THROW(Plan(treeConfig(TreeSharing::kShared), 0), std::logic_error);
  const Plan plan(treeConfig(TreeSharing::kShared), 2);
  EXPECT_THROW(plan.owner(P::kFileStat, 2), std::logic_error);
  EXPECT_THROW(plan.buildsTree(2), std::logic_error);
  EXPECT_THROW(plan.plannedOps(P::kTreeCreate, 2), std::logic_error);
}

}  // namespace
}  // namespace mdbench
