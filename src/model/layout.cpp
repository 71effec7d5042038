#include "mdbench/model/layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <vector>

namespace mdbench {
namespace {

// validate() rejects bad user input before a layout is built, so a failure here is a programmer error.
// It stays on in release builds: a wrong layout would silently benchmark the wrong tree.
void check(bool ok, const char* what) {
  if (!ok) [[unlikely]] {
    throw std::logic_error(fmt::format("mdbench layout: precondition failed: {}", what));
  }
}

std::uint64_t checkedDirCount(std::uint32_t depth, std::uint32_t branching) {
  const auto count = treeDirCount(depth, branching);
  check(count.has_value(), "branching >= 1 and treeDirCount(depth, branching) fits");
  return *count;
}

// Item directories used when filling items_per_dir (> 0) at a time: ceil(items / items_per_dir).
std::uint64_t dirsFilled(std::uint64_t items, std::uint64_t items_per_dir) {
  return items / items_per_dir + (items % items_per_dir != 0 ? 1 : 0);
}

// Items held by the first `slot` item directories (slot <= slots): one formula gives both a directory's
// first item and, by difference, its count, so the ranges are contiguous by construction.
std::uint64_t itemsBeforeSlot(std::uint64_t items, std::uint64_t items_per_dir, std::uint64_t slots,
                              std::uint64_t slot) {
  if (items_per_dir == 0) {
    // Even spread, the remainder on the first slots. slot * (items / slots) <= items: no overflow.
    return slot * (items / slots) + std::min(slot, items % slots);
  }
  // Filled items_per_dir at a time. Below dirsFilled(), slot * items_per_dir < items: no overflow.
  return slot >= dirsFilled(items, items_per_dir) ? items : slot * items_per_dir;
}

std::string_view kindPrefix(ItemKind kind) { return kind == ItemKind::kFile ? "file" : "dir"; }

}  // namespace

TreeLayout::TreeLayout(std::uint32_t depth, std::uint32_t branching, bool leaf_only, std::uint64_t items,
                       std::uint64_t items_per_dir)
    : TreeLayout(depth, branching, leaf_only, items, items_per_dir, 1) {}

TreeLayout::TreeLayout(std::uint32_t depth, std::uint32_t branching, bool leaf_only, std::uint64_t items,
                       std::uint64_t items_per_dir, std::uint64_t loops)
    : depth_(depth),
      branching_(branching),
      leaf_only_(leaf_only),
      items_(items),
      items_per_dir_(items_per_dir),
      loops_(loops),
      tree_dirs_(checkedDirCount(depth, branching)),
      tree_leaves_(*treeLeafCount(depth, branching)) {  // leaves <= dirs, so it fits when dirs do
  check(loops_ >= 1, "loops >= 1");
  check(loops_ == 1 || items_per_dir_ != 0, "directory loops need items_per_dir");
  check(loopedDirCount(loops_, tree_dirs_).has_value(), "loops * directories per loop fits");
  if (items_per_dir_ != 0) {
    // items <= I * D over every loop, phrased as a division so a huge I cannot overflow.
    check(dirsFilled(items_, items_per_dir_) <= itemDirCount(), "items <= items_per_dir * item directories");
  }
}

TreeLayout::TreeLayout(const Config& config)
    : TreeLayout(config.depth, config.branching, config.leaf_only, config.items, config.items_per_dir,
                 directoryLoops(config)) {}

std::uint64_t directoryLoops(const Config& config) {
  const auto item_dirs = treeItemDirCount(config.depth, config.branching, config.leaf_only);
  return item_dirs ? directoryLoopCount(config.items, config.items_per_dir, *item_dirs) : 1;
}

std::uint64_t TreeLayout::loopOf(std::uint64_t dir) const {
  check(dir < dirCount(), "dir < dirCount()");
  return dir / tree_dirs_;
}

std::uint64_t TreeLayout::parent(std::uint64_t dir) const {
  const std::uint64_t base = loopOf(dir) * tree_dirs_;  // checks dir
  const std::uint64_t d = dir - base;
  return d == 0 ? kNone : base + (d - 1) / branching_;
}

std::uint32_t TreeLayout::level(std::uint64_t dir) const {
  std::uint64_t d = dir - loopOf(dir) * tree_dirs_;  // checks dir
  std::uint32_t level = 0;
  for (; d != 0; d = (d - 1) / branching_) ++level;
  return level;
}

std::uint64_t TreeLayout::firstChild(std::uint64_t dir) const {
  const std::uint64_t base = loopOf(dir) * tree_dirs_;  // checks dir
  const std::uint64_t d = dir - base;
  // Breadth-first numbering puts a tree's leaves last, so "is a leaf" is one comparison. An interior
  // directory's children are below tree_dirs_ <= 2^32, so d * b + 1 cannot overflow, nor can base plus it
  // (it stays below dirCount()).
  return d >= tree_dirs_ - tree_leaves_ ? kNone : base + d * branching_ + 1;
}

std::uint64_t TreeLayout::itemDirCount() const { return loops_ * slotsPerLoop(); }

std::uint64_t TreeLayout::firstItemDir() const { return firstItemDirInTree(); }

std::uint64_t TreeLayout::itemsInDir(std::uint64_t dir) const {
  const std::uint64_t loop = loopOf(dir);  // checks dir
  const std::uint64_t d = dir - loop * tree_dirs_;
  if (d < firstItemDirInTree()) return 0;  // interior directory with leaf_only
  const std::uint64_t slot = loop * slotsPerLoop() + (d - firstItemDirInTree());
  return itemsBeforeSlot(items_, items_per_dir_, itemDirCount(), slot + 1) -
         itemsBeforeSlot(items_, items_per_dir_, itemDirCount(), slot);
}

std::uint64_t TreeLayout::firstItemInDir(std::uint64_t dir) const {
  const std::uint64_t loop = loopOf(dir);  // checks dir
  const std::uint64_t d = dir - loop * tree_dirs_;
  // For a directory holding no items this is where its empty range sits (after the previous loop's items),
  // so that firstItemInDir(d) + itemsInDir(d) == firstItemInDir(d + 1) holds for every d.
  const std::uint64_t in_tree = d < firstItemDirInTree() ? 0 : d - firstItemDirInTree();
  return itemsBeforeSlot(items_, items_per_dir_, itemDirCount(), loop * slotsPerLoop() + in_tree);
}

std::uint64_t TreeLayout::dirOfItem(std::uint64_t item) const {
  check(item < items_, "item < items()");
  if (items_per_dir_ != 0) {
    const std::uint64_t slot = item / items_per_dir_;  // < itemDirCount(), by the constructor's check
    return (slot / slotsPerLoop()) * tree_dirs_ + firstItemDirInTree() + slot % slotsPerLoop();
  }
  // Without items_per_dir there is one loop.
  const std::uint64_t small = items_ / itemDirCount();  // items in the later directories
  const std::uint64_t big_dirs = items_ % itemDirCount();
  const std::uint64_t in_big_dirs = big_dirs * (small + 1);
  // Past the big directories small > 0, since items > in_big_dirs implies items >= D.
  const std::uint64_t slot =
      item < in_big_dirs ? item / (small + 1) : big_dirs + (item - in_big_dirs) / small;
  return firstItemDir() + slot;
}

// Pre-order: descend to the first child; at a leaf, move to the next sibling of the nearest ancestor
// (or self) that has one. Siblings are consecutive numbers, the last one is (d - 1) % b == b - 1. After a
// tree's last directory comes the next loop's root.
std::uint64_t TreeLayout::nextPreorder(std::uint64_t dir) const {
  const std::uint64_t child = firstChild(dir);  // checks dir
  if (child != kNone) return child;
  const std::uint64_t base = loopOf(dir) * tree_dirs_;
  for (std::uint64_t d = dir - base; d != 0; d = (d - 1) / branching_) {
    if ((d - 1) % branching_ != branching_ - 1) return base + d + 1;
  }
  return base + tree_dirs_ < dirCount() ? base + tree_dirs_ : kNone;
}

// The leftmost leaf is the first leaf in breadth-first order.
std::uint64_t TreeLayout::firstPostorder() const { return tree_dirs_ - tree_leaves_; }

// Post-order: after the last child comes its parent; otherwise the leftmost leaf under the next sibling.
// After a tree's root comes the next loop's leftmost leaf.
std::uint64_t TreeLayout::nextPostorder(std::uint64_t dir) const {
  const std::uint64_t base = loopOf(dir) * tree_dirs_;  // checks dir
  const std::uint64_t d = dir - base;
  if (d == 0) return base + tree_dirs_ < dirCount() ? base + tree_dirs_ + firstPostorder() : kNone;
  if ((d - 1) % branching_ == branching_ - 1) return base + (d - 1) / branching_;
  std::uint64_t next = d + 1;
  while (next < tree_dirs_ - tree_leaves_) next = next * branching_ + 1;
  return base + next;
}

std::string iterationDirName(std::uint32_t iteration) { return fmt::format("mdbench.iter.{}", iteration); }

std::string treeDirName(TreeSharing sharing, std::uint32_t owner, std::uint64_t dir) {
  return sharing == TreeSharing::kShared ? fmt::format("mdbench_tree.{}", dir)
                                         : fmt::format("mdbench_tree.{}.{}", owner, dir);
}

std::string treeDirPath(const TreeLayout& layout, TreeSharing sharing, std::uint32_t owner,
                        std::uint64_t dir) {
  std::vector<std::uint64_t> chain;  // dir and its ancestors, leaf first
  for (std::uint64_t d = dir; d != TreeLayout::kNone; d = layout.parent(d)) chain.push_back(d);
  std::string path;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!path.empty()) path += '/';
    path += treeDirName(sharing, owner, *it);
  }
  return path;
}

std::string itemName(ItemKind kind, std::uint32_t owner, std::uint64_t item, NameForm form) {
  const std::string_view suffix = form == NameForm::kRenamed ? kRenamedSuffix : std::string_view{};
  if (owner == kSharedOwner) return fmt::format("{}.mdbench.shared.{}{}", kindPrefix(kind), item, suffix);
  return fmt::format("{}.mdbench.{}.{}{}", kindPrefix(kind), owner, item, suffix);
}

ItemNamer::ItemNamer(ItemKind kind, std::uint32_t owner, NameForm form) : form_(form) {
  // The longest prefix ("file.mdbench.4294967295.", 24 chars), 20 digits, the suffix and a NUL fit in
  // buf_ with room to spare; name() relies on that.
  static_assert(24 + 20 + kRenamedSuffix.size() + 1 <= sizeof(buf_));
  const auto end =
      owner == kSharedOwner
          ? fmt::format_to_n(buf_.data(), buf_.size(), "{}.mdbench.shared.", kindPrefix(kind))
          : fmt::format_to_n(buf_.data(), buf_.size(), "{}.mdbench.{}.", kindPrefix(kind), owner);
  prefix_len_ = end.size;
}

const char* ItemNamer::name(std::uint64_t item) {
  // to_chars cannot fail here: 20 digits and the suffix always fit after the prefix (see the constructor).
  char* const end = buf_.data() + buf_.size();
  char* pos = std::to_chars(buf_.data() + prefix_len_, end, item).ptr;
  if (form_ == NameForm::kRenamed) pos = std::copy(kRenamedSuffix.begin(), kRenamedSuffix.end(), pos);
  *pos = '\0';
  return buf_.data();
}

namespace {

// Consumes a run of decimal digits (at least one, at most 20) from the front of text.
bool eatNumber(std::string_view& text) {
  std::size_t n = 0;
  while (n < text.size() && n <= 20 && text[n] >= '0' && text[n] <= '9') ++n;
  if (n == 0 || n > 20) return false;
  text.remove_prefix(n);
  return true;
}

bool eat(std::string_view& text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return false;
  text.remove_prefix(prefix.size());
  return true;
}

// <n|shared>.<n>[.renamed], and nothing after it.
bool isItemTail(std::string_view text) {
  if (!eat(text, "shared.") && !(eatNumber(text) && eat(text, "."))) return false;
  if (!eatNumber(text)) return false;
  return text.empty() || text == kRenamedSuffix;
}

}  // namespace

GeneratedName classifyName(std::string_view name) {
  std::string_view rest = name;
  if (eat(rest, "mdbench_tree.")) {
    if (!eatNumber(rest)) return GeneratedName::kForeign;
    if (rest.empty()) return GeneratedName::kGeneratedDir;
    return eat(rest, ".") && eatNumber(rest) && rest.empty() ? GeneratedName::kGeneratedDir
                                                             : GeneratedName::kForeign;
  }
  rest = name;
  if (eat(rest, "dir.mdbench."))
    return isItemTail(rest) ? GeneratedName::kGeneratedDir : GeneratedName::kForeign;
  rest = name;
  if (eat(rest, "file.mdbench.")) {
    return isItemTail(rest) ? GeneratedName::kGeneratedFile : GeneratedName::kForeign;
  }
  // --steady's datasets and objects (steady.hpp).
  rest = name;
  if (eat(rest, "steady.mdbench.")) {
    return eatNumber(rest) && eat(rest, ".") && eatNumber(rest) && rest.empty() ? GeneratedName::kGeneratedDir
                                                                                : GeneratedName::kForeign;
  }
  rest = name;
  if (eat(rest, "obj.mdbench.")) {
    return eatNumber(rest) && eat(rest, ".") && eatNumber(rest) && eat(rest, ".") && eatNumber(rest) &&
                   rest.empty()
               ? GeneratedName::kGeneratedFile
               : GeneratedName::kForeign;
  }
  return GeneratedName::kForeign;
}

bool isIterationDirName(std::string_view name) {
  return eat(name, "mdbench.iter.") && eatNumber(name) && name.empty();
}

}  // namespace mdbench
