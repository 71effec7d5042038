// Tree layout: exhaustive structural checks over many shapes, plus exact worked examples and names.
#include "mdbench/model/layout.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace mdbench {
namespace {

constexpr std::uint64_t kNone = TreeLayout::kNone;

std::uint64_t ipow(std::uint64_t base, std::uint32_t exp) {
  std::uint64_t r = 1;
  for (std::uint32_t i = 0; i < exp; ++i) r *= base;
  return r;
}

// Independent closed forms from MDTEST-SEMANTICS.md.
std::uint64_t closedFormDirs(std::uint32_t depth, std::uint32_t b) {
  return b == 1 ? depth + 1 : (ipow(b, depth + 1) - 1) / (b - 1);
}

// Reference traversals by plain recursion over children d*b+1 .. d*b+b.
void refPreorder(std::uint64_t d, std::uint32_t level, std::uint32_t depth, std::uint32_t b,
                 std::vector<std::uint64_t>& out) {
  out.push_back(d);
  if (level == depth) return;
  for (std::uint64_t c = d * b + 1; c <= d * b + b; ++c) refPreorder(c, level + 1, depth, b, out);
}
void refPostorder(std::uint64_t d, std::uint32_t level, std::uint32_t depth, std::uint32_t b,
                  std::vector<std::uint64_t>& out) {
  if (level < depth) {
    for (std::uint64_t c = d * b + 1; c <= d * b + b; ++c) refPostorder(c, level + 1, depth, b, out);
  }
  out.push_back(d);
}

std::string shape(const TreeLayout& l, bool leaf_only, std::uint64_t ipd) {
  return "depth " + std::to_string(l.depth()) + " b " + std::to_string(l.branching()) + " leaf_only " +
         std::to_string(leaf_only) + " items " + std::to_string(l.items()) + " ipd " + std::to_string(ipd);
}

void checkStructure(const TreeLayout& l) {
  const std::uint32_t b = l.branching();
  ASSERT_EQ(l.dirCount(), closedFormDirs(l.depth(), b));
  ASSERT_EQ(l.leafCount(), ipow(b, l.depth()));
  EXPECT_EQ(l.parent(0), kNone);
  EXPECT_EQ(l.level(0), 0u);
  for (std::uint64_t d = 0; d < l.dirCount(); ++d) {
    const std::uint64_t c = l.firstChild(d);
    ASSERT_EQ(c == kNone, l.level(d) == l.depth()) << "dir " << d;
    if (c != kNone) {
      for (std::uint64_t j = 0; j < b; ++j) {
        ASSERT_EQ(l.parent(c + j), d);
        ASSERT_EQ(l.level(c + j), l.level(d) + 1);
      }
    }
    if (d != 0) {
      const std::uint64_t p = l.parent(d);
      ASSERT_LT(p, d);
      ASSERT_GE(d, l.firstChild(p));
      ASSERT_LT(d, l.firstChild(p) + b);
    }
  }
}

// Walks a traversal, failing instead of looping forever if it never ends.
std::vector<std::uint64_t> walk(const TreeLayout& l, std::uint64_t first,
                                std::uint64_t (TreeLayout::*next)(std::uint64_t) const) {
  std::vector<std::uint64_t> order;
  for (std::uint64_t d = first; d != kNone && order.size() <= l.dirCount(); d = (l.*next)(d)) {
    order.push_back(d);
  }
  return order;
}

void checkTraversals(const TreeLayout& l) {
  std::vector<std::uint64_t> pre;
  std::vector<std::uint64_t> post;
  refPreorder(0, 0, l.depth(), l.branching(), pre);
  refPostorder(0, 0, l.depth(), l.branching(), post);
  const auto got_pre = walk(l, l.firstPreorder(), &TreeLayout::nextPreorder);
  const auto got_post = walk(l, l.firstPostorder(), &TreeLayout::nextPostorder);
  ASSERT_EQ(got_pre, pre);
  ASSERT_EQ(got_post, post);

  // The properties the runner relies on, checked directly as well.
  std::vector<int> seen(l.dirCount(), 0);
  for (std::uint64_t d : got_pre) {
    ASSERT_EQ(seen[d]++, 0) << "pre-order visits " << d << " twice";
    if (d != 0) {
      ASSERT_EQ(seen[l.parent(d)], 1) << "pre-order visits " << d << " before its parent";
    }
  }
  std::vector<int> removed(l.dirCount(), 0);
  for (std::uint64_t d : got_post) {
    ASSERT_EQ(removed[d]++, 0) << "post-order visits " << d << " twice";
    if (l.firstChild(d) != kNone) {
      for (std::uint64_t j = 0; j < l.branching(); ++j) ASSERT_EQ(removed[l.firstChild(d) + j], 1);
    }
  }
  EXPECT_EQ(got_pre.size(), l.dirCount());
  EXPECT_EQ(got_post.size(), l.dirCount());
}

void checkItems(const TreeLayout& l, bool leaf_only, std::uint64_t ipd) {
  EXPECT_EQ(l.itemDirCount(), leaf_only ? l.leafCount() : l.dirCount());
  EXPECT_EQ(l.firstItemDir(), leaf_only ? l.dirCount() - l.leafCount() : 0);
  std::uint64_t next_item = 0;
  std::vector<std::uint64_t> counts;  // per item directory, breadth-first
  for (std::uint64_t d = 0; d < l.dirCount(); ++d) {
    const std::uint64_t n = l.itemsInDir(d);
    ASSERT_EQ(l.firstItemInDir(d), next_item) << "dir " << d << " does not continue the previous range";
    const bool item_dir = d >= l.firstItemDir();
    ASSERT_EQ(item_dir, !leaf_only || l.level(d) == l.depth());
    if (!item_dir) {
      ASSERT_EQ(n, 0u) << "interior dir " << d << " holds items with leaf_only";
      continue;
    }
    counts.push_back(n);
    for (std::uint64_t item = next_item; item < next_item + n; ++item) {
      ASSERT_EQ(l.dirOfItem(item), d) << "item " << item;
    }
    next_item += n;
  }
  ASSERT_EQ(next_item, l.items());
  ASSERT_EQ(counts.size(), l.itemDirCount());
  for (std::size_t k = 1; k < counts.size(); ++k) {
    ASSERT_LE(counts[k], counts[k - 1]) << "larger directories come first";
    if (ipd == 0) {
      ASSERT_LE(counts.front() - counts[k], 1u) << "even spread differs by at most one";
    } else if (counts[k] != 0) {
      ASSERT_EQ(counts[k - 1], ipd) << "only the last used directory may be partial";
    }
  }
  if (ipd != 0 && !counts.empty()) {
    ASSERT_LE(counts.front(), ipd);
  }
}

TEST(TreeLayout, ExhaustiveSmallShapes) {
  std::vector<std::uint64_t> item_counts;
  for (std::uint64_t n = 0; n <= 50; ++n) item_counts.push_back(n);
  for (std::uint64_t n : {97u, 781u, 1000u, 4096u, 12345u}) item_counts.push_back(n);
  int layouts = 0;
  for (std::uint32_t depth = 0; depth <= 4; ++depth) {
    for (std::uint32_t b = 1; b <= 5; ++b) {
      for (bool leaf_only : {false, true}) {
        const TreeLayout base(depth, b, leaf_only, 0, 0);
        checkStructure(base);
        checkTraversals(base);
        if (testing::Test::HasFatalFailure()) return;
        for (std::uint64_t items : item_counts) {
          const std::uint64_t dirs = base.itemDirCount();
          const std::uint64_t tight = (items + dirs - 1) / dirs;  // smallest I that fits
          for (std::uint64_t ipd : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3},
                                    std::uint64_t{7}, tight, tight + 1, std::uint64_t{1} << 40}) {
            if (ipd != 0 && ipd < tight) continue;  // too small for items: validate() rejects it
            const TreeLayout l(depth, b, leaf_only, items, ipd);
            SCOPED_TRACE(shape(l, leaf_only, ipd));
            checkItems(l, leaf_only, ipd);
            if (testing::Test::HasFatalFailure()) return;
            ++layouts;
          }
        }
      }
    }
  }
  EXPECT_GT(layouts, 10000);  // guards against the loop silently checking nothing
}

TEST(TreeLayout, WorkedExampleDepth1Branching3Items10) {
  const TreeLayout even(1, 3, false, 10, 0);
  EXPECT_EQ(even.dirCount(), 4u);
  EXPECT_EQ(even.leafCount(), 3u);
  EXPECT_EQ((std::vector<std::uint64_t>{even.itemsInDir(0), even.itemsInDir(1), even.itemsInDir(2),
                                        even.itemsInDir(3)}),
            (std::vector<std::uint64_t>{3, 3, 2, 2}));
  EXPECT_EQ(even.firstItemInDir(2), 6u);
  EXPECT_EQ(even.dirOfItem(5), 1u);
  EXPECT_EQ(even.dirOfItem(6), 2u);
  EXPECT_EQ(even.dirOfItem(9), 3u);

  const TreeLayout leaves(1, 3, true, 10, 0);
  EXPECT_EQ((std::vector<std::uint64_t>{leaves.itemsInDir(0), leaves.itemsInDir(1), leaves.itemsInDir(2),
                                        leaves.itemsInDir(3)}),
            (std::vector<std::uint64_t>{0, 4, 3, 3}));
  EXPECT_EQ(leaves.firstItemDir(), 1u);
  EXPECT_EQ(leaves.dirOfItem(0), 1u);
  EXPECT_EQ(leaves.dirOfItem(4), 2u);

  const TreeLayout per3(1, 3, false, 10, 3);
  EXPECT_EQ((std::vector<std::uint64_t>{per3.itemsInDir(0), per3.itemsInDir(1), per3.itemsInDir(2),
                                        per3.itemsInDir(3)}),
            (std::vector<std::uint64_t>{3, 3, 3, 1}));
  EXPECT_EQ(per3.firstItemInDir(3), 9u);
  EXPECT_EQ(per3.dirOfItem(9), 3u);
}

TEST(TreeLayout, ItemsPerDirLeavesLaterDirsEmpty) {
  const TreeLayout l(2, 2, false, 5, 4);  // 7 dirs, only the first two used
  EXPECT_EQ(l.itemsInDir(0), 4u);
  EXPECT_EQ(l.itemsInDir(1), 1u);
  EXPECT_EQ(l.itemsInDir(2), 0u);
  EXPECT_EQ(l.firstItemInDir(6), 5u);
}

TEST(TreeLayout, TraversalOrderDepth2Branching2) {
  const TreeLayout l(2, 2, false, 0, 0);
  EXPECT_EQ(walk(l, l.firstPreorder(), &TreeLayout::nextPreorder),
            (std::vector<std::uint64_t>{0, 1, 3, 4, 2, 5, 6}));
  EXPECT_EQ(walk(l, l.firstPostorder(), &TreeLayout::nextPostorder),
            (std::vector<std::uint64_t>{3, 4, 1, 5, 6, 2, 0}));
}

TEST(TreeLayout, ChainAndSingleDirectory) {
  const TreeLayout chain(100, 1, true, 7, 0);  // a path of 101 directories, items in the last
  EXPECT_EQ(chain.dirCount(), 101u);
  EXPECT_EQ(chain.level(100), 100u);
  EXPECT_EQ(chain.itemsInDir(100), 7u);
  EXPECT_EQ(chain.itemsInDir(99), 0u);
  checkTraversals(chain);

  const TreeLayout root(0, 7, true, 3, 0);  // depth 0: the root is the only (leaf) directory
  EXPECT_EQ(root.dirCount(), 1u);
  EXPECT_EQ(root.firstChild(0), kNone);
  EXPECT_EQ(root.nextPreorder(0), kNone);
  EXPECT_EQ(root.firstPostorder(), 0u);
  EXPECT_EQ(root.nextPostorder(0), kNone);
  EXPECT_EQ(root.itemsInDir(0), 3u);
}

TEST(TreeLayout, LargeTreeArithmeticWithoutOverflow) {
  // 2^32 - 1 directories: the largest binary tree allowed; nothing is iterated over the whole tree.
  const std::uint64_t items = std::numeric_limits<std::uint64_t>::max() - 10;
  const TreeLayout l(31, 2, true, items, 0);
  EXPECT_EQ(l.dirCount(), (std::uint64_t{1} << 32) - 1);
  EXPECT_EQ(l.leafCount(), std::uint64_t{1} << 31);
  const std::uint64_t first_leaf = (std::uint64_t{1} << 31) - 1;
  EXPECT_EQ(l.firstItemDir(), first_leaf);
  EXPECT_EQ(l.firstPostorder(), first_leaf);
  EXPECT_EQ(l.dirOfItem(0), first_leaf);
  EXPECT_EQ(l.dirOfItem(items - 1), l.dirCount() - 1);
  const std::uint64_t last = l.dirCount() - 1;
  EXPECT_EQ(l.firstItemInDir(last) + l.itemsInDir(last), items);
  EXPECT_EQ(l.level(last), 31u);
  EXPECT_EQ(l.nextPreorder(last), kNone);
  EXPECT_EQ(l.nextPostorder(last), l.parent(last));

  const TreeLayout huge_ipd(3, 3, false, 5, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(huge_ipd.itemsInDir(0), 5u);
  EXPECT_EQ(huge_ipd.itemsInDir(1), 0u);
  EXPECT_EQ(huge_ipd.firstItemInDir(39), 5u);
  EXPECT_EQ(huge_ipd.dirOfItem(4), 0u);
}

TEST(TreeLayout, ConstructsFromConfig) {
  Config config;
  config.depth = 2;
  config.branching = 3;
  config.leaf_only = true;
  config.items = 20;
  config.items_per_dir = 4;
  const TreeLayout l(config);
  EXPECT_EQ(l.dirCount(), 13u);
  EXPECT_EQ(l.items(), 20u);
  EXPECT_EQ(l.firstItemDir(), 4u);
  EXPECT_EQ(l.itemsInDir(4), 4u);
  EXPECT_EQ(l.itemsInDir(8), 4u);
  EXPECT_EQ(l.itemsInDir(9), 0u);
}

TEST(TreeLayout, PreconditionsAreCheckedInEveryBuild) {
  EXPECT_THROW(TreeLayout(2, 0, false, 1, 0), std::logic_error);   // branching 0
  EXPECT_THROW(TreeLayout(40, 2, false, 1, 0), std::logic_error);  // too many directories
  EXPECT_THROW(TreeLayout(1, 3, false, 13, 3), std::logic_error);  // 13 > 3 * 4
  EXPECT_THROW(TreeLayout(1, 3, true, 10, 3), std::logic_error);   // 10 > 3 * 3 leaves
  EXPECT_NO_THROW(TreeLayout(1, 3, true, 9, 3));
  const TreeLayout l(1, 3, false, 10, 0);
  EXPECT_THROW(l.dirOfItem(10), std::logic_error);
  EXPECT_THROW(l.itemsInDir(4), std::logic_error);
  EXPECT_THROW(l.parent(4), std::logic_error);
  EXPECT_THROW(l.nextPreorder(4), std::logic_error);
  EXPECT_THROW(l.nextPostorder(4), std::logic_error);
  const TreeLayout empty(1, 3, false, 0, 0);
  EXPECT_THROW(empty.dirOfItem(0), std::logic_error);
}

TEST(Names, IterationAndTreeDirectories) {
  EXPECT_EQ(iterationDirName(0), "mdbench.iter.0");
  EXPECT_EQ(iterationDirName(12), "mdbench.iter.12");
  EXPECT_EQ(treeDirName(TreeSharing::kShared, 3, 0), "mdbench_tree.0");
  EXPECT_EQ(treeDirName(TreeSharing::kShared, 3, 17), "mdbench_tree.17");
  EXPECT_EQ(treeDirName(TreeSharing::kUnique, 3, 17), "mdbench_tree.3.17");
  EXPECT_EQ(treeDirName(TreeSharing::kUnique, 0, 0), "mdbench_tree.0.0");
}

TEST(Names, TreeDirectoryPaths) {
  const TreeLayout l(2, 2, false, 0, 0);
  EXPECT_EQ(treeDirPath(l, TreeSharing::kShared, 0, 0), "mdbench_tree.0");
  EXPECT_EQ(treeDirPath(l, TreeSharing::kShared, 0, 2), "mdbench_tree.0/mdbench_tree.2");
  EXPECT_EQ(treeDirPath(l, TreeSharing::kShared, 0, 4), "mdbench_tree.0/mdbench_tree.1/mdbench_tree.4");
  EXPECT_EQ(treeDirPath(l, TreeSharing::kShared, 5, 4), "mdbench_tree.0/mdbench_tree.1/mdbench_tree.4");
  EXPECT_EQ(treeDirPath(l, TreeSharing::kUnique, 3, 4), "mdbench_tree.3.0/mdbench_tree.3.1/mdbench_tree.3.4");
  EXPECT_EQ(treeDirPath(l, TreeSharing::kUnique, 1, 6), "mdbench_tree.1.0/mdbench_tree.1.2/mdbench_tree.1.6");
  const TreeLayout b3(2, 3, false, 0, 0);
  EXPECT_EQ(treeDirPath(b3, TreeSharing::kShared, 0, 12), "mdbench_tree.0/mdbench_tree.3/mdbench_tree.12");
}

TEST(Names, Items) {
  EXPECT_EQ(itemName(ItemKind::kFile, 0, 0), "file.mdbench.0.0");
  EXPECT_EQ(itemName(ItemKind::kDir, 7, 42), "dir.mdbench.7.42");
  EXPECT_EQ(itemName(ItemKind::kFile, 4294967294u, 18446744073709551615u),
            "file.mdbench.4294967294.18446744073709551615");
}

TEST(Names, RenamedItems) {
  EXPECT_EQ(kRenamedSuffix, ".renamed");
  EXPECT_EQ(itemName(ItemKind::kFile, 0, 0, NameForm::kOriginal), "file.mdbench.0.0");
  EXPECT_EQ(itemName(ItemKind::kFile, 0, 0, NameForm::kRenamed), "file.mdbench.0.0.renamed");
  EXPECT_EQ(itemName(ItemKind::kDir, 12, 345, NameForm::kRenamed), "dir.mdbench.12.345.renamed");
  EXPECT_EQ(itemName(ItemKind::kFile, 4294967294u, 18446744073709551615u, NameForm::kRenamed),
            "file.mdbench.4294967294.18446744073709551615.renamed");
}

TEST(Names, SharedItems) {
  EXPECT_EQ(kSharedOwner, 4294967295u);
  EXPECT_EQ(itemName(ItemKind::kFile, kSharedOwner, 0), "file.mdbench.shared.0");
  EXPECT_EQ(itemName(ItemKind::kDir, kSharedOwner, 17), "dir.mdbench.shared.17");
  EXPECT_EQ(itemName(ItemKind::kFile, kSharedOwner, 3901, NameForm::kRenamed),
            "file.mdbench.shared.3901.renamed");
  EXPECT_EQ(itemName(ItemKind::kFile, kSharedOwner, 18446744073709551615u, NameForm::kRenamed),
            "file.mdbench.shared.18446744073709551615.renamed");
}

TEST(Names, ItemNamerMatchesItemName) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> values = {0, 1, 9, 10, 99, 100, 12345, 4294967295u, 4294967296u, max - 1, max};
  for (std::uint64_t p = 10; p <= max / 10; p *= 10) {
    values.push_back(p - 1);
    values.push_back(p);
  }
  int checked = 0;
  for (ItemKind kind : {ItemKind::kFile, ItemKind::kDir}) {
    for (std::uint32_t owner : {0u, 1u, 123u, 4294967294u, kSharedOwner}) {
      for (NameForm form : {NameForm::kOriginal, NameForm::kRenamed}) {
        ItemNamer namer(kind, owner, form);
        for (std::uint64_t v : values) {
          ASSERT_EQ(std::string(namer.name(v)), itemName(kind, owner, v, form));
          ++checked;
        }
        // Shorter after longer: the old digits and suffix must not leak past the new NUL.
        ASSERT_EQ(std::string(namer.name(max)), itemName(kind, owner, max, form));
        ASSERT_EQ(std::string(namer.name(3)), itemName(kind, owner, 3, form));
      }
    }
  }
  EXPECT_EQ(checked, 2 * 5 * 2 * static_cast<int>(values.size()));
}

TEST(Names, ItemNamerDefaultsToTheOriginalName) {
  ItemNamer namer(ItemKind::kFile, 5);
  EXPECT_STREQ(namer.name(6), "file.mdbench.5.6");
  ItemNamer renamed(ItemKind::kDir, kSharedOwner, NameForm::kRenamed);
  EXPECT_STREQ(renamed.name(0), "dir.mdbench.shared.0.renamed");
  EXPECT_STREQ(renamed.name(10), "dir.mdbench.shared.10.renamed");
}

// ---- What mdbench clean may remove: exactly the names mdbench generates ----

TEST(GeneratedNames, EveryNameMdbenchMakesIsRecognised) {
  TreeLayout layout(3, 2, false, 10, 0);
  for (const TreeSharing sharing : {TreeSharing::kShared, TreeSharing::kUnique}) {
    for (std::uint64_t d = 0; d < layout.dirCount(); ++d) {
      EXPECT_EQ(classifyName(treeDirName(sharing, 7, d)), GeneratedName::kGeneratedDir) << d;
    }
  }
  for (const std::uint32_t owner : {0u, 12u, 4294967295u - 1, kSharedOwner}) {
    for (const NameForm form : {NameForm::kOriginal, NameForm::kRenamed}) {
      for (const std::uint64_t item : {std::uint64_t{0}, std::uint64_t{99}, ~std::uint64_t{0}}) {
        EXPECT_EQ(classifyName(itemName(ItemKind::kDir, owner, item, form)), GeneratedName::kGeneratedDir);
        EXPECT_EQ(classifyName(itemName(ItemKind::kFile, owner, item, form)), GeneratedName::kGeneratedFile);
      }
    }
  }
  for (const std::uint32_t i : {0u, 1u, 4294967295u}) EXPECT_TRUE(isIterationDirName(iterationDirName(i)));
  // --steady's datasets and objects (steady_mpi_test.cpp checks the engine's own names against these).
  EXPECT_EQ(classifyName("steady.mdbench.0.0"), GeneratedName::kGeneratedDir);
  EXPECT_EQ(classifyName("steady.mdbench.4294967295.255"), GeneratedName::kGeneratedDir);
  EXPECT_EQ(classifyName("obj.mdbench.3.9.18446744073709551615"), GeneratedName::kGeneratedFile);
  for (const char* near :
       {"steady.mdbench.1", "steady.mdbench.1.2.3", "steady.mdbench.1.", "obj.mdbench.1.2",
        "obj.mdbench.1.2.3.4", "obj.mdbench.1.2.x", "Obj.mdbench.1.2.3", "steady.mdbench.a.1"}) {
    EXPECT_EQ(classifyName(near), GeneratedName::kForeign) << near;
  }
}

TEST(GeneratedNames, NearMissesAreForeign) {
  for (const char* name : {"",
                           ".",
                           "..",
                           ".mdbench-run",
                           "mdbench_tree.",
                           "mdbench_tree.x",
                           "mdbench_tree.1.",
                           "mdbench_tree.1.2.3",
                           "mdbench_tree.1 ",
                           "mdbench_tree.-1",
                           "file.mdbench.",
                           "file.mdbench.1",
                           "file.mdbench.1.",
                           "file.mdbench.1.2.",
                           "file.mdbench.1.2.renamed2",
                           "file.mdbench.1.2.renamedx",
                           "file.mdbench.shared",
                           "file.mdbench.shared.",
                           "file.mdbench.shared.x",
                           "file.mdbench.a.1",
                           "file.mdbench.1.2/x",
                           "dir.mdbench.1.2.3",
                           "Dir.mdbench.1.2",
                           "file.mdbench.1.123456789012345678901",
                           "notes.txt",
                           "file.mdbench.1.2.bak",
                           "mdbench.iter.0"}) {
    EXPECT_EQ(classifyName(name), GeneratedName::kForeign) << name;
  }
  for (const char* name : {"mdbench.iter.", "mdbench.iter.x", "mdbench.iter.1.2", "mdbench.iter.-1",
                           "Mdbench.iter.1", "mdbench.iter.1 "}) {
    EXPECT_FALSE(isIterationDirName(name)) << name;
  }
}

}  // namespace
}  // namespace mdbench
