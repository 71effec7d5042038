// Directory loops (mdtest's -n with -I over a shared tree): the layout as a forest of full trees, the plan
// over it, and the names it makes, checked exhaustively against an independent model of mdtest 4.1's loops.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "mdbench/model/layout.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/result.hpp"
#include "mdbench/util/tree_math.hpp"

namespace mdbench {
namespace {

constexpr std::uint64_t kNone = TreeLayout::kNone;
using P = Phase;

// ---- an independent model: one tree by plain recursion, then mdtest's loops side by side ----

struct RefTree {
  std::uint64_t dirs = 0;
  std::vector<std::uint64_t> parent;  // kNone for the root
  std::vector<std::uint32_t> level;
  std::vector<std::uint64_t> pre, post;
};

// Pre-order on the way down, post-order on the way back up; each directory's parent and level as found.
void grow(RefTree& t, std::uint64_t d, std::uint64_t parent, std::uint32_t level, std::uint32_t depth,
          std::uint32_t b) {
  if (t.parent.size() <= d) {
    t.parent.resize(d + 1, kNone);
    t.level.resize(d + 1, 0);
  }
  t.parent[d] = parent;
  t.level[d] = level;
  t.pre.push_back(d);
  if (level < depth) {
    for (std::uint64_t c = d * b + 1; c <= d * b + b; ++c) grow(t, c, d, level + 1, depth, b);
  }
  t.post.push_back(d);
}

RefTree refTree(std::uint32_t depth, std::uint32_t b) {
  RefTree t;
  grow(t, 0, kNone, 0, depth, b);
  t.dirs = t.pre.size();
  return t;
}

// mdtest 4.1 (create_remove_items): every loop is the same tree, and every item directory of it (every
// directory, or the leaves with -L) gets I items. Per rank, in loop order then breadth-first: the count of
// each directory of each loop.
std::vector<std::uint64_t> mdtestCounts(const RefTree& t, std::uint32_t depth, bool leaf_only,
                                        std::uint64_t I, std::uint64_t loops) {
  std::vector<std::uint64_t> counts;
  for (std::uint64_t l = 0; l < loops; ++l) {
    for (std::uint64_t d = 0; d < t.dirs; ++d) counts.push_back(!leaf_only || t.level[d] == depth ? I : 0);
  }
  return counts;
}

// ---- tree_math ----

TEST(LoopMath, LoopedItemCountIsNTimesTheItemDirectories) {
  EXPECT_EQ(loopedItemCount(6, 3, 3), 18u);   // -n 6 -I 3 -z 1 -b 2: 2 loops of 3 x 3
  EXPECT_EQ(loopedItemCount(12, 2, 3), 36u);  // -n 12 -I 2 -z 1 -b 2: 6 loops of 3 x 2
  EXPECT_EQ(loopedItemCount(6, 3, 2), 12u);   // with -L: 2 leaves
  EXPECT_EQ(loopedItemCount(3, 3, 13), 39u);  // n == I: one loop, a full tree
  EXPECT_EQ(loopedItemCount(0, 3, 3), 0u);
  EXPECT_EQ(loopedItemCount(7, 3, 3), std::nullopt);  // not a multiple of -I: mdtest refuses it
  EXPECT_EQ(loopedItemCount(6, 0, 3), std::nullopt);
  EXPECT_EQ(loopedItemCount(6, 3, 0), std::nullopt);
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(loopedItemCount(max / 3, 1, 3), max / 3 * 3);
  EXPECT_EQ(loopedItemCount(max / 3 + 1, 1, 3), std::nullopt);
}

TEST(LoopMath, LoopCountIsTheFewestFullTrees) {
  EXPECT_EQ(directoryLoopCount(18, 3, 3), 2u);
  EXPECT_EQ(directoryLoopCount(36, 2, 3), 6u);
  EXPECT_EQ(directoryLoopCount(9, 3, 3), 1u);
  EXPECT_EQ(directoryLoopCount(10, 3, 3), 2u);  // a stonewall's count fills the loops in order
  EXPECT_EQ(directoryLoopCount(1, 3, 3), 1u);
  EXPECT_EQ(directoryLoopCount(0, 3, 3), 1u);
  EXPECT_EQ(directoryLoopCount(50, 0, 3), 1u);  // no -I: no loops
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(directoryLoopCount(max, max, 2), 1u);
  EXPECT_EQ(directoryLoopCount(max, 1, 1), max);
  EXPECT_EQ(loopedDirCount(2, 3), 6u);
  EXPECT_EQ(loopedDirCount(max / 3 + 1, 3), std::nullopt);
  EXPECT_EQ(treeItemDirCount(1, 2, false), 3u);
  EXPECT_EQ(treeItemDirCount(1, 2, true), 2u);
  EXPECT_EQ(treeItemDirCount(1, 0, true), std::nullopt);
}

// ---- the forest ----

void checkForestStructure(const TreeLayout& l, const RefTree& t, std::uint64_t loops) {
  ASSERT_EQ(l.loops(), loops);
  ASSERT_EQ(l.dirsPerLoop(), t.dirs);
  ASSERT_EQ(l.dirCount(), loops * t.dirs);
  std::vector<std::uint64_t> pre, post;
  for (std::uint64_t lp = 0; lp < loops; ++lp) {
    const std::uint64_t base = lp * t.dirs;
    for (std::uint64_t d = 0; d < t.dirs; ++d) {
      const std::uint64_t g = base + d;
      ASSERT_EQ(l.loopOf(g), lp);
      ASSERT_EQ(l.parent(g), t.parent[d] == kNone ? kNone : base + t.parent[d]) << g;
      ASSERT_EQ(l.level(g), t.level[d]);
      const std::uint64_t child = l.firstChild(g);
      ASSERT_EQ(child == kNone, t.level[d] == l.depth());
      if (child != kNone) {
        ASSERT_EQ(child, base + d * l.branching() + 1);
        ASSERT_EQ(l.parent(child), g);
      }
    }
    for (std::uint64_t d : t.pre) pre.push_back(base + d);
    for (std::uint64_t d : t.post) post.push_back(base + d);
  }
  std::vector<std::uint64_t> got_pre, got_post;
  for (std::uint64_t d = l.firstPreorder(); d != kNone && got_pre.size() <= l.dirCount();
       d = l.nextPreorder(d))
    got_pre.push_back(d);
  for (std::uint64_t d = l.firstPostorder(); d != kNone && got_post.size() <= l.dirCount();
       d = l.nextPostorder(d))
    got_post.push_back(d);
  ASSERT_EQ(got_pre, pre);    // loop 0's tree, then loop 1's, ...: parents before children
  ASSERT_EQ(got_post, post);  // children before parents, loop after loop
}

// The items: contiguous ranges in directory order, dirOfItem their inverse, filled I at a time loop after
// loop.
void checkForestItems(const TreeLayout& l, const std::vector<std::uint64_t>& full_counts, std::uint64_t I) {
  std::uint64_t next = 0;
  std::uint64_t capacity_before = 0;  // items the directories before d hold when every loop is full
  for (std::uint64_t g = 0; g < l.dirCount(); ++g) {
    ASSERT_EQ(l.firstItemInDir(g), next) << "dir " << g;
    const std::uint64_t n = l.itemsInDir(g);
    const std::uint64_t want =
        l.items() <= capacity_before ? 0 : std::min(full_counts[g], l.items() - capacity_before);
    ASSERT_EQ(n, want) << "dir " << g << " of " << l.items() << " items, I " << I;
    for (std::uint64_t item = next; item < next + n; ++item) ASSERT_EQ(l.dirOfItem(item), g);
    next += n;
    capacity_before += full_counts[g];
  }
  ASSERT_EQ(next, l.items());
}

TEST(Loops, ExhaustiveForestsMatchMdtestsLoops) {
  int layouts = 0;
  for (std::uint32_t depth = 0; depth <= 3; ++depth) {
    for (std::uint32_t b = 1; b <= 4; ++b) {
      const RefTree t = refTree(depth, b);
      for (bool leaf_only : {false, true}) {
        const std::uint64_t item_dirs = *treeItemDirCount(depth, b, leaf_only);
        for (std::uint64_t I : {1u, 2u, 3u, 5u}) {
          for (std::uint64_t loops = 1; loops <= 4; ++loops) {
            const std::uint64_t full = loops * I * item_dirs;
            const std::vector<std::uint64_t> counts = mdtestCounts(t, depth, leaf_only, I, loops);
            // The full count: what mdtest makes for -n loops*I -I I.
            Config config;
            config.depth = depth;
            config.branching = b;
            config.leaf_only = leaf_only;
            config.items_per_dir = I;
            config.items = *loopedItemCount(loops * I, I, item_dirs);
            ASSERT_EQ(config.items, full);
            ASSERT_EQ(directoryLoops(config), loops);
            const TreeLayout l(config);
            SCOPED_TRACE("depth " + std::to_string(depth) + " b " + std::to_string(b) + " L " +
                         std::to_string(leaf_only) + " I " + std::to_string(I) + " loops " +
                         std::to_string(loops));
            checkForestStructure(l, t, loops);
            if (testing::Test::HasFatalFailure()) return;
            EXPECT_EQ(l.itemDirCount(), loops * item_dirs);
            for (std::uint64_t g = 0; g < l.dirCount(); ++g) ASSERT_EQ(l.itemsInDir(g), counts[g]) << g;
            // Loop lp holds items lp*I*D .. (lp+1)*I*D - 1.
            for (std::uint64_t item = 0; item < full; ++item) {
              ASSERT_EQ(l.loopOf(l.dirOfItem(item)), item / (I * item_dirs)) << item;
            }
            // Every smaller count (a stonewall's) over the same loops fills them in order.
            for (std::uint64_t items = 0; items <= full; ++items) {
              const TreeLayout part(depth, b, leaf_only, items, I, loops);
              checkForestItems(part, counts, I);
              if (testing::Test::HasFatalFailure()) return;
              ++layouts;
            }
            // One loop is exactly the single tree of the five-argument constructor.
            if (loops == 1) {
              const TreeLayout single(depth, b, leaf_only, full, I);
              for (std::uint64_t g = 0; g < l.dirCount(); ++g) {
                ASSERT_EQ(single.itemsInDir(g), l.itemsInDir(g));
                ASSERT_EQ(single.firstItemInDir(g), l.firstItemInDir(g));
                ASSERT_EQ(single.nextPreorder(g), l.nextPreorder(g));
                ASSERT_EQ(single.nextPostorder(g), l.nextPostorder(g));
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(layouts, 10000);  // guards against the loops silently checking nothing
}

Config loopConfig(std::uint64_t n, std::uint64_t I, std::uint32_t depth, std::uint32_t b, bool leaf_only) {
  Config config;
  config.depth = depth;
  config.branching = b;
  config.leaf_only = leaf_only;
  config.items_per_dir = I;
  config.items = *loopedItemCount(n, I, *treeItemDirCount(depth, b, leaf_only));
  config.kinds = ItemKinds::kFilesOnly;
  return config;
}

TEST(Loops, WorkedExampleN6I3Z1B2) {
  // mdtest -n 6 -I 3 -z 1 -b 2 -F: test-dir.0-0 and test-dir.0-1, each mdtest_tree.0 with two children,
  // 3 files in each of the 3 directories: 18 files per rank.
  const TreeLayout l(loopConfig(6, 3, 1, 2, false));
  EXPECT_EQ(l.items(), 18u);
  EXPECT_EQ(l.loops(), 2u);
  EXPECT_EQ(l.dirCount(), 6u);
  EXPECT_EQ(l.parent(3), kNone);  // loop 1's root sits in the iteration directory
  EXPECT_EQ(l.parent(4), 3u);
  EXPECT_EQ(l.parent(5), 3u);
  std::vector<std::uint64_t> counts, firsts;
  for (std::uint64_t d = 0; d < 6; ++d) {
    counts.push_back(l.itemsInDir(d));
    firsts.push_back(l.firstItemInDir(d));
  }
  EXPECT_EQ(counts, (std::vector<std::uint64_t>{3, 3, 3, 3, 3, 3}));
  EXPECT_EQ(firsts, (std::vector<std::uint64_t>{0, 3, 6, 9, 12, 15}));
  EXPECT_EQ(treeDirPath(l, TreeSharing::kShared, 0, 0), "mdbench_tree.0");
  EXPECT_EQ(treeDirPath(l, TreeSharing::kShared, 0, 2), "mdbench_tree.0/mdbench_tree.2");
  EXPECT_EQ(treeDirPath(l, TreeSharing::kShared, 0, 3), "mdbench_tree.3");
  EXPECT_EQ(treeDirPath(l, TreeSharing::kShared, 0, 4), "mdbench_tree.3/mdbench_tree.4");
  EXPECT_EQ(treeDirPath(l, TreeSharing::kShared, 0, 5), "mdbench_tree.3/mdbench_tree.5");
  EXPECT_EQ(treeDirPath(l, TreeSharing::kUnique, 2, 5), "mdbench_tree.2.3/mdbench_tree.2.5");

  // With -L: items only in the two leaves of each loop: 12 per rank.
  const TreeLayout leaves(loopConfig(6, 3, 1, 2, true));
  EXPECT_EQ(leaves.items(), 12u);
  EXPECT_EQ(leaves.loops(), 2u);
  counts.clear();
  for (std::uint64_t d = 0; d < 6; ++d) counts.push_back(leaves.itemsInDir(d));
  EXPECT_EQ(counts, (std::vector<std::uint64_t>{0, 3, 3, 0, 3, 3}));
  EXPECT_EQ(leaves.firstItemInDir(3), 6u);  // loop 1's root: an empty range after loop 0's items
  EXPECT_EQ(leaves.dirOfItem(6), 4u);
  EXPECT_EQ(leaves.dirOfItem(11), 5u);
  EXPECT_EQ(leaves.firstPostorder(), 1u);
  EXPECT_EQ(leaves.nextPostorder(0), 4u);  // after loop 0's root: loop 1's leftmost leaf
  EXPECT_EQ(leaves.nextPreorder(2), 3u);   // after loop 0's last leaf: loop 1's root
  EXPECT_EQ(leaves.nextPreorder(5), kNone);
  EXPECT_EQ(leaves.nextPostorder(3), kNone);
}

TEST(Loops, WorkedExampleN12I2Z1B2) {
  // mdtest -n 12 -I 2 -z 1 -b 2: 6 loops of 3 directories with 2 items each: 36 files and 36 dirs per rank.
  Config config = loopConfig(12, 2, 1, 2, false);
  config.kinds = ItemKinds::kBoth;
  const TreeLayout l(config);
  EXPECT_EQ(l.items(), 36u);
  EXPECT_EQ(l.loops(), 6u);
  EXPECT_EQ(l.dirCount(), 18u);
  for (std::uint64_t d = 0; d < 18; ++d) EXPECT_EQ(l.itemsInDir(d), 2u) << d;
  std::set<std::uint64_t> roots;
  for (std::uint64_t d = 0; d < 18; ++d) {
    if (l.parent(d) == kNone) roots.insert(d);
  }
  EXPECT_EQ(roots, (std::set<std::uint64_t>{0, 3, 6, 9, 12, 15}));
  const Plan plan(config, 2);
  EXPECT_EQ(plan.plannedOps(P::kDirCreate, 1), 36u);
  EXPECT_EQ(plan.plannedOps(P::kFileCreate, 0), 36u);
  EXPECT_EQ(plan.plannedOps(P::kTreeCreate, 0), 18u);  // rank 0 builds every loop's tree
  EXPECT_EQ(plan.plannedOps(P::kTreeCreate, 1), 0u);
}

TEST(Loops, OneLoopIsTodaysTree) {
  // n == I: one loop, I items in every directory (mdtest's -n 3 -I 3 -z 1 -b 2 makes 9 per rank).
  const Config config = loopConfig(3, 3, 1, 2, false);
  EXPECT_EQ(config.items, 9u);
  const TreeLayout l(config);
  const TreeLayout today(1, 2, false, 9, 3);
  EXPECT_EQ(l.loops(), 1u);
  EXPECT_EQ(today.loops(), 1u);
  EXPECT_EQ(l.dirCount(), today.dirCount());
  for (std::uint64_t d = 0; d < 3; ++d) EXPECT_EQ(l.itemsInDir(d), today.itemsInDir(d));
  // Without -I, or with -n below I x D (today's fill), there is one loop whatever the count.
  Config even;
  even.items = 1000;
  EXPECT_EQ(directoryLoops(even), 1u);
  Config fill;
  fill.depth = 2;
  fill.branching = 3;
  fill.items = 20;
  fill.items_per_dir = 4;
  EXPECT_EQ(directoryLoops(fill), 1u);
}

TEST(Loops, PreconditionsAreCheckedInEveryBuild) {
  EXPECT_THROW(TreeLayout(1, 2, false, 0, 3, 0), std::logic_error);   // no loop
  EXPECT_THROW(TreeLayout(1, 2, false, 9, 0, 2), std::logic_error);   // loops without -I
  EXPECT_THROW(TreeLayout(1, 2, false, 19, 3, 2), std::logic_error);  // 19 > 2 loops x 3 x 3
  EXPECT_NO_THROW(TreeLayout(1, 2, false, 18, 3, 2));
  EXPECT_THROW(TreeLayout(1, 2, false, 1, 1, std::numeric_limits<std::uint64_t>::max()),
               std::logic_error);  // loops x 3 directories past 64 bits
  const TreeLayout l(1, 2, false, 18, 3, 2);
  EXPECT_THROW(l.parent(6), std::logic_error);
  EXPECT_THROW(l.loopOf(6), std::logic_error);
  EXPECT_THROW(l.itemsInDir(6), std::logic_error);
  EXPECT_THROW(l.firstItemInDir(6), std::logic_error);
  EXPECT_THROW(l.nextPreorder(6), std::logic_error);
  EXPECT_THROW(l.nextPostorder(6), std::logic_error);
  EXPECT_THROW(l.dirOfItem(18), std::logic_error);
}

TEST(Loops, LargeForestArithmeticWithoutOverflow) {
  // 2^31 loops of a 3-directory tree, one item per directory: nothing iterates over the forest.
  const std::uint64_t loops = std::uint64_t{1} << 31;
  const TreeLayout l(1, 2, false, loops * 3, 1, loops);
  const std::uint64_t last = l.dirCount() - 1;
  EXPECT_EQ(l.dirCount(), loops * 3);
  EXPECT_EQ(l.loopOf(last), loops - 1);
  EXPECT_EQ(l.parent(last), last - 2);
  EXPECT_EQ(l.firstItemInDir(last), last);
  EXPECT_EQ(l.dirOfItem(l.items() - 1), last);
  EXPECT_EQ(l.nextPreorder(last), kNone);
  EXPECT_EQ(l.nextPostorder(last - 2), kNone);
  EXPECT_EQ(l.nextPreorder(2), 3u);
}

// ---- the plan over the loops ----

TEST(Loops, PlanCountsEveryItemOfEveryLoop) {
  Config config = loopConfig(6, 3, 1, 2, false);
  config.phases.create = config.phases.stat = config.phases.read = config.phases.remove = true;
  config.phases.readdir = config.phases.rename = config.phases.file_rename = true;
  config.shift = 1;
  config.random_order = true;
  const Plan plan(config, 2);
  EXPECT_EQ(plan.layout().loops(), 2u);
  for (std::uint32_t rank = 0; rank < 2; ++rank) {
    for (const Phase phase : {P::kFileCreate, P::kFileStat, P::kFileRead, P::kFileRename, P::kFileRemove}) {
      EXPECT_EQ(plan.plannedOps(phase, rank), 18u) << phaseName(phase);  // the items made, not -n
    }
    EXPECT_EQ(plan.plannedOps(P::kTreeCreate, rank), rank == 0 ? 6u : 0u);
    EXPECT_EQ(plan.plannedOps(P::kTreeRemove, rank), rank == 0 ? 6u : 0u);
    EXPECT_EQ(plan.plannedOps(P::kFileReaddir, rank), 3u);  // 6 directories over 2 ranks
  }
  // The readdir split covers every directory of every loop exactly once; each holds I items per rank.
  for (std::uint64_t d = 0; d < 6; ++d) {
    EXPECT_NE(plan.listsDir(P::kFileReaddir, 0, d), plan.listsDir(P::kFileReaddir, 1, d)) << d;
    EXPECT_EQ(plan.expectedEntries(P::kFileReaddir, d), 6u) << d;
  }
  // -N and -R work on the rank's items, whatever loop they are in.
  EXPECT_EQ(plan.owner(P::kFileStat, 0), 1u);
  EXPECT_EQ(plan.owner(P::kFileRead, 1), 1u);
  EXPECT_TRUE(plan.randomOrder(P::kFileStat));
  const Permutation order(18, config.random_seed);
  std::set<std::uint64_t> loops_seen;
  for (std::uint64_t i = 0; i < 18; ++i)
    loops_seen.insert(plan.layout().loopOf(plan.layout().dirOfItem(order(i))));
  EXPECT_EQ(loops_seen, (std::set<std::uint64_t>{0, 1}));
  EXPECT_EQ(plan.nameForm(P::kFileRemove), NameForm::kRenamed);

  // An error on rank 1's item 13 (loop 1, directory 4) names its full path.
  const FirstError error{2, 1, 4, 13};
  EXPECT_EQ(errorPath(plan, 0, P::kFileStat, error),
            "mdbench.iter.0/mdbench_tree.3/mdbench_tree.4/file.mdbench.1.13");
  const FirstError on_dir{2, 0, 3, FirstError{}.item};
  EXPECT_EQ(errorPath(plan, 2, P::kTreeCreate, on_dir), "mdbench.iter.2/mdbench_tree.3");
}

TEST(Loops, SharedFilesAndUniqueTreesKeepTheirRules) {
  Config config = loopConfig(6, 3, 1, 2, false);
  config.shared_files = true;
  config.phases.readdir = config.phases.remove = true;
  const Plan shared(config, 3);
  EXPECT_EQ(shared.expectedEntries(P::kFileReaddir, 4), 3u);  // the shared names once
  EXPECT_EQ(shared.plannedOps(P::kFileRemove, 0), 18u);
  EXPECT_EQ(shared.plannedOps(P::kFileRemove, 2), 0u);
  // The layout does loops over unique trees too (the options refuse -n with -I under -u, as mdtest does).
  config.shared_files = false;
  config.sharing = TreeSharing::kUnique;
  const Plan unique(config, 2);
  EXPECT_EQ(unique.plannedOps(P::kTreeCreate, 1), 6u);
  EXPECT_EQ(unique.plannedOps(P::kFileReaddir, 1), 6u);
  EXPECT_EQ(unique.expectedEntries(P::kFileReaddir, 5), 3u);
}

TEST(Loops, AStonewallsCountKeepsEveryLoopAndFillsThemInOrder) {
  const Plan plan(loopConfig(6, 3, 1, 2, false), 2);
  const Plan reached = plan.withItems(10);  // loop 0 full, one item in loop 1's root
  EXPECT_EQ(reached.layout().loops(), 2u);
  EXPECT_EQ(reached.plannedOps(P::kTreeRemove, 0), 6u);  // every loop's tree is still removed
  EXPECT_EQ(reached.plannedOps(P::kFileStat, 1), 10u);
  std::vector<std::uint64_t> counts;
  for (std::uint64_t d = 0; d < 6; ++d) counts.push_back(reached.layout().itemsInDir(d));
  EXPECT_EQ(counts, (std::vector<std::uint64_t>{3, 3, 3, 1, 0, 0}));
  EXPECT_EQ(plan.withItems(0).layout().loops(), 2u);
  EXPECT_EQ(plan.withItems(18).layout().itemsInDir(5), 3u);
  EXPECT_THROW(plan.withItems(19), std::logic_error);  // more than the loops hold
  EXPECT_EQ(plan.layout().items(), 18u);               // the original is unchanged
}

// ---- names: nothing new for clean and the ownership record to learn ----

TEST(Loops, EveryNameOfEveryLoopIsGeneratedAndOwnable) {
  for (const TreeSharing sharing : {TreeSharing::kShared, TreeSharing::kUnique}) {
    for (const bool leaf_only : {false, true}) {
      const TreeLayout l(2, 3, leaf_only, 4 * 2 * (leaf_only ? 9 : 13), 2, 4);
      std::set<std::string> paths;
      for (std::uint64_t d = 0; d < l.dirCount(); ++d) {
        const std::string path = treeDirPath(l, sharing, 5, d);
        EXPECT_TRUE(paths.insert(path).second) << path << " twice";
        std::string::size_type start = 0;
        for (std::string::size_type slash; (slash = path.find('/', start)) != std::string::npos;
             start = slash + 1) {
          EXPECT_EQ(classifyName(path.substr(start, slash - start)), GeneratedName::kGeneratedDir) << path;
        }
        EXPECT_EQ(classifyName(path.substr(start)), GeneratedName::kGeneratedDir) << path;
        EXPECT_EQ(path.find('/') == std::string::npos, l.parent(d) == kNone) << path;
      }
      // Item names never repeat between loops: the record of one loop's item is not another's.
      std::set<std::string> names;
      ItemFates fates;
      for (std::uint64_t item = 0; item < l.items(); ++item) {
        const std::string name = itemName(ItemKind::kFile, 5, item);
        EXPECT_TRUE(names.insert(name).second) << name;
        EXPECT_EQ(classifyName(name), GeneratedName::kGeneratedFile);
        EXPECT_EQ(classifyName(itemName(ItemKind::kDir, 5, item, NameForm::kRenamed)),
                  GeneratedName::kGeneratedDir);
      }
      const std::uint64_t in_last_loop = l.items() - 1;
      fates.add(ItemKind::kFile, 5, in_last_loop, ItemFate::kNotOurs);
      EXPECT_TRUE(fates.leavesName(itemName(ItemKind::kFile, 5, in_last_loop)));
      EXPECT_TRUE(fates.leavesName(itemName(ItemKind::kFile, 5, in_last_loop, NameForm::kRenamed)));
      EXPECT_FALSE(fates.leavesName(itemName(ItemKind::kFile, 5, in_last_loop - l.items() / 4)));
      // The record of the whole forest: every loop's items, one rank made them all.
      Config one;
      one.depth = l.depth();
      one.branching = l.branching();
      one.items_per_dir = 2;
      one.leaf_only = leaf_only;
      one.items = l.items();
      RecordLayout record = recordLayoutOf(one, 6, 0);
      record.loops = l.loops();
      fates.setLayout(record);
      fates.setMade(ItemKind::kFile, {0, 0, 0, 0, 0, l.items()});
      fates.add(ItemKind::kFile, 5, in_last_loop, ItemFate::kNotOurs);
      ItemFates back;
      ASSERT_EQ(ItemFates::parseRecord(fates.encode(0), back), "");
      EXPECT_EQ(back, fates);
    }
  }
  // mdtest's loop directories and trees are never mdbench's.
  for (const char* name : {"test-dir.0-0", "test-dir.0-1", "mdtest_tree.0", "mdtest_tree.3.0",
                           "file.mdtest.1.13", "dir.mdtest.0.2"}) {
    EXPECT_EQ(classifyName(name), GeneratedName::kForeign) << name;
  }
}

}  // namespace
}  // namespace mdbench
