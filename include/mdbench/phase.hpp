// The benchmark's phases: one enum, their stable names, and the order a run executes them in.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mdbench {

// Declaration order is execution order (mdtest's: directories first, then files, trees around both).
enum class Phase : std::uint8_t {
  kTreeCreate,
  kDirCreate,
  kDirStat,
  kDirRemove,
  kFileCreate,
  kFileStat,
  kFileRead,
  kFileRemove,
  kTreeRemove,
};
inline constexpr std::size_t kPhaseCount = 9;

inline constexpr std::array<Phase, kPhaseCount> kAllPhases = {
    Phase::kTreeCreate, Phase::kDirCreate, Phase::kDirStat,    Phase::kDirRemove, Phase::kFileCreate,
    Phase::kFileStat,   Phase::kFileRead,  Phase::kFileRemove, Phase::kTreeRemove};

// Stable names used on the console, in result files and in acceptance rules:
// "tree-create", "dir-create", "dir-stat", "dir-remove", "file-create", "file-stat",
// "file-read", "file-remove", "tree-remove".
std::string_view phaseName(Phase phase);

}  // namespace mdbench
