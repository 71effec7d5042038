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

}  // namespace mdbench
