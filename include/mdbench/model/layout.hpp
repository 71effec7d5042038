// Tree layout and names: which directories a tree has, how items spread over them, what everything is called.
// Pure functions of the configuration: no I/O, so every layout can be tested exhaustively.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "mdbench/config/config.hpp"
#include "mdbench/util/tree_math.hpp"

namespace mdbench {

// A complete tree of the given depth and branching factor, directories numbered breadth-first from 0 (the
// root). Directory d's children are d*b+1 .. d*b+b; its parent is (d-1)/b.
//
// Items spread over the "item directories": every directory, or only the b^depth leaves with leaf_only.
// Without items_per_dir, item directory k (in breadth-first order) holds items/D items, and the first
// items % D of them hold one more: every rank places exactly `items` items. With items_per_dir = I, the
// item directories are filled I at a time in breadth-first order, the last one partially
// (items <= I * D is required: validate() rejects more). Items are numbered 0..items-1 and directory k
// holds a contiguous range of them.
//
// Directory loops (mdtest's -n with -I over a shared tree: n/I loops, each a full tree with I items in every
// item directory): the layout is then a forest of `loops` such trees side by side, numbered loop after loop:
// loop l's directory d is l * T + d (T = the directories of one tree), so loop l's root is l * T and has no
// parent. The item directories of all loops are filled I at a time, loop 0's first: loop l holds items
// l*I*D .. (l+1)*I*D - 1 (D = item directories of one tree), so a full count of n/I loops is n * D items and
// a smaller one (a stonewall's) fills the loops in order. One loop is exactly the single tree above; every
// function below works on the whole forest (dirCount() counts every loop's directories).
class TreeLayout {
 public:
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  // Preconditions (checked by validate()): branching >= 1, treeDirCount() fits (tree_math.hpp), items_per_dir
  // * D >= items.
  TreeLayout(std::uint32_t depth, std::uint32_t branching, bool leaf_only, std::uint64_t items,
             std::uint64_t items_per_dir);
  // A forest of `loops` trees: loops >= 1, items_per_dir > 0 when loops > 1, items <= loops * I * D, and
  // loops * T fits in 64 bits.
  TreeLayout(std::uint32_t depth, std::uint32_t branching, bool leaf_only, std::uint64_t items,
             std::uint64_t items_per_dir, std::uint64_t loops);
  // The configuration's layout, with directoryLoops(config) loops.
  explicit TreeLayout(const Config& config);

  std::uint32_t depth() const { return depth_; }
  std::uint32_t branching() const { return branching_; }
  std::uint64_t items() const { return items_; }
  std::uint64_t loops() const { return loops_; }
  std::uint64_t dirsPerLoop() const { return tree_dirs_; }  // T: one tree's directories
  std::uint64_t dirCount() const { return loops_ * tree_dirs_; }
  std::uint64_t leafCount() const { return loops_ * tree_leaves_; }
  std::uint64_t loopOf(std::uint64_t dir) const;      // the loop (tree) directory dir belongs to
  std::uint64_t parent(std::uint64_t dir) const;      // kNone for a root (every loop's first directory)
  std::uint32_t level(std::uint64_t dir) const;       // roots are level 0
  std::uint64_t firstChild(std::uint64_t dir) const;  // kNone for a leaf

  // Item placement.
  std::uint64_t itemDirCount() const;                     // D: dirCount() or leafCount(), over every loop
  std::uint64_t firstItemDir() const;                     // 0, or the first leaf with leaf_only
  std::uint64_t itemsInDir(std::uint64_t dir) const;      // 0 for directories holding no items
  std::uint64_t firstItemInDir(std::uint64_t dir) const;  // the first item number held by dir
  std::uint64_t dirOfItem(std::uint64_t item) const;      // inverse of the two above

  // Depth-first traversal without storage, one loop's tree after the other. Pre-order visits parents before
  // children (creation order); post-order visits children before parents (removal order). Both return kNone
  // after the last.
  std::uint64_t firstPreorder() const { return 0; }
  std::uint64_t nextPreorder(std::uint64_t dir) const;
  std::uint64_t firstPostorder() const;
  std::uint64_t nextPostorder(std::uint64_t dir) const;

 private:
  // Item directory slots of one tree, and the forest-wide slot of an item directory.
  std::uint64_t slotsPerLoop() const { return leaf_only_ ? tree_leaves_ : tree_dirs_; }
  std::uint64_t firstItemDirInTree() const { return leaf_only_ ? tree_dirs_ - tree_leaves_ : 0; }

  std::uint32_t depth_;
  std::uint32_t branching_;
  bool leaf_only_;
  std::uint64_t items_;
  std::uint64_t items_per_dir_;
  std::uint64_t loops_;
  std::uint64_t tree_dirs_;
  std::uint64_t tree_leaves_;
};

// The loops the configuration's layout has: with items_per_dir (I > 0), the fewest full trees of I items in
// each item directory that hold config.items (ceil(items / (I * D)), at least 1); 1 without. Option
// resolution sets config.items to n * D for mdtest's -n with -I over a shared tree (tree_math.hpp
// loopedItemCount), which gives exactly mdtest's n/I loops.
std::uint64_t directoryLoops(const Config& config);

enum class ItemKind : std::uint8_t { kFile, kDir };

// The owner of -S's shared names: "file.mdbench.shared.<i>" instead of "file.mdbench.<owner>.<i>".
inline constexpr std::uint32_t kSharedOwner = 0xffffffffu;
// Names of items renamed by -U: "<name>.renamed".
inline constexpr std::string_view kRenamedSuffix = ".renamed";
enum class NameForm : std::uint8_t { kOriginal, kRenamed };

// Names, relative to the iteration directory:
//   iteration directory     mdbench.iter.<iteration>          (made and removed by rank 0, untimed)
//   tree directory d        mdbench_tree.<d>                  (shared tree)
//                           mdbench_tree.<owner>.<d>          (unique tree of rank <owner>)
//   nested                  mdbench_tree.0/mdbench_tree.1/mdbench_tree.4 ...
//   items                   file.mdbench.<owner>.<i>  /  dir.mdbench.<owner>.<i>
// <owner> is the rank whose items (and, with unique trees, whose tree) these are. With directory loops, d
// and i number the whole forest: loop l's root mdbench_tree.<l*T> sits beside loop 0's mdbench_tree.0 in the
// iteration directory, and item numbers never repeat between loops (so no new kind of name: clean and the
// ownership record know them all).
std::string iterationDirName(std::uint32_t iteration);
std::string treeDirName(TreeSharing sharing, std::uint32_t owner, std::uint64_t dir);
std::string treeDirPath(const TreeLayout& layout, TreeSharing sharing, std::uint32_t owner,
                        std::uint64_t dir);  // "a/b/c", root first
std::string itemName(ItemKind kind, std::uint32_t owner, std::uint64_t item,
                     NameForm form = NameForm::kOriginal);

// The mark a run leaves in every directory it made to work in (iteration directories, and target
// directories it created): a regular file whose presence says "made by mdbench". A directory without it is
// never used by a later job or removed by `mdbench clean`, whatever its name.
inline constexpr std::string_view kMarkName = ".mdbench-run";
// Beside the mark in an iteration directory: the record of the generated names the run did not make or
// could not rename (ownership.hpp), and the temporary name it is written under before it is renamed there.
inline constexpr std::string_view kTakenName = ".mdbench-taken";
inline constexpr std::string_view kTakenTempName = ".mdbench-taken.new";

// What a name in an iteration directory's subtree is, judged by the name alone (mdbench clean and the
// cleanup after a signal remove only names that are kGeneratedDir / kGeneratedFile, of that type):
//   kGeneratedDir   mdbench_tree.<n>, mdbench_tree.<n>.<n>, dir.mdbench.<n|shared>.<n>[.renamed]
//                   steady.mdbench.<n>.<n> (--steady's datasets)
//   kGeneratedFile  file.mdbench.<n|shared>.<n>[.renamed], obj.mdbench.<n>.<n>.<n> (--steady's objects)
//   kForeign        anything else
enum class GeneratedName : std::uint8_t { kGeneratedDir, kGeneratedFile, kForeign };
GeneratedName classifyName(std::string_view name);
// mdbench.iter.<n>: an iteration directory's name (its mark decides whether mdbench made it).
bool isIterationDirName(std::string_view name);

// Builds item names in the hot loop without allocating: a fixed prefix, a decimal number, a fixed suffix.
class ItemNamer {
 public:
  ItemNamer(ItemKind kind, std::uint32_t owner, NameForm form = NameForm::kOriginal);
  // The NUL-terminated name of item; valid until the next call.
  const char* name(std::uint64_t item);

 private:
  std::array<char, 96> buf_{};
  std::size_t prefix_len_ = 0;
  NameForm form_ = NameForm::kOriginal;
};

}  // namespace mdbench
