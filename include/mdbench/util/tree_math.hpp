// Arithmetic of complete trees, shared by option resolution (config) and the layout.
#pragma once

#include <cstdint>
#include <optional>

namespace mdbench {

// Upper bound on directories in one tree; larger trees are rejected as options.
inline constexpr std::uint64_t kMaxTreeDirs = std::uint64_t{1} << 32;

// b^depth leaves, or nullopt past kMaxTreeDirs.
constexpr std::optional<std::uint64_t> treeLeafCount(std::uint32_t depth, std::uint32_t branching) {
  if (branching == 0) return std::nullopt;
  if (branching == 1) return std::uint64_t{1};
  std::uint64_t leaves = 1;
  for (std::uint32_t level = 0; level < depth; ++level) {
    if (branching > 1 && leaves > kMaxTreeDirs / branching) return std::nullopt;
    leaves *= branching;
  }
  return leaves;
}

// (b^(depth+1) - 1) / (b - 1) directories (depth + 1 for b = 1), or nullopt past kMaxTreeDirs.
constexpr std::optional<std::uint64_t> treeDirCount(std::uint32_t depth, std::uint32_t branching) {
  if (branching == 0) return std::nullopt;
  if (branching == 1) return std::uint64_t{depth} + 1;  // a chain; no need to walk its levels
  std::uint64_t level_size = 1;
  std::uint64_t total = 1;
  for (std::uint32_t level = 0; level < depth; ++level) {
    if (branching > 1 && level_size > kMaxTreeDirs / branching) return std::nullopt;
    level_size *= branching;
    total += level_size;
    if (total > kMaxTreeDirs) return std::nullopt;
  }
  return total;
}

// Item directories of one tree: every directory, or the b^depth leaves with leaf_only; nullopt as above.
constexpr std::optional<std::uint64_t> treeItemDirCount(std::uint32_t depth, std::uint32_t branching,
                                                        bool leaf_only) {
  return leaf_only ? treeLeafCount(depth, branching) : treeDirCount(depth, branching);
}

// mdtest's -n with -I over a shared tree: n/I directory loops, each a full tree with I items in each of its
// item_dirs item directories, so n/I * I * item_dirs = n * item_dirs items per rank. nullopt when
// per_dir or item_dirs is 0, n is not a multiple of per_dir (mdtest refuses it), or the count does not fit.
constexpr std::optional<std::uint64_t> loopedItemCount(std::uint64_t n, std::uint64_t per_dir,
                                                       std::uint64_t item_dirs) {
  if (per_dir == 0 || item_dirs == 0 || n % per_dir != 0) return std::nullopt;
  if (n > ~std::uint64_t{0} / item_dirs) return std::nullopt;
  return n * item_dirs;
}

// The directory loops that hold `items` items with per_dir in each of item_dirs item directories per loop:
// ceil(items / (per_dir * item_dirs)), at least 1; 1 without per_dir (no loops: items spread evenly).
constexpr std::uint64_t directoryLoopCount(std::uint64_t items, std::uint64_t per_dir,
                                           std::uint64_t item_dirs) {
  if (per_dir == 0 || item_dirs == 0) return 1;
  // per_dir * item_dirs may not fit: then one loop holds any 64-bit count.
  if (per_dir > ~std::uint64_t{0} / item_dirs) return 1;
  const std::uint64_t per_loop = per_dir * item_dirs;
  const std::uint64_t loops = items / per_loop + (items % per_loop != 0 ? 1 : 0);
  return loops == 0 ? 1 : loops;
}

// Directories of `loops` trees of tree_dirs each (tree_dirs from treeDirCount), or nullopt past 64 bits.
constexpr std::optional<std::uint64_t> loopedDirCount(std::uint64_t loops, std::uint64_t tree_dirs) {
  if (tree_dirs != 0 && loops > ~std::uint64_t{0} / tree_dirs) return std::nullopt;
  return loops * tree_dirs;
}

}  // namespace mdbench
