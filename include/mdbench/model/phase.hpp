// The benchmark's phases: one enum, their stable names, and the order a run executes them in.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace mdbench {

// Declaration order is execution order (mdtest's: directories first, then files, trees around both).
enum class Phase : std::uint8_t {
  kTreeCreate,
  kDirCreate,
  kDirStat,
  kDirReaddir,
  kDirRename,
  kDirRemove,
  kFileCreate,
  kFileStat,
  kFileReaddir,
  kFileRead,
  kFileRename,
  kFileRemove,
  kTreeRemove,
};
inline constexpr std::size_t kPhaseCount = 13;

inline constexpr std::array<Phase, kPhaseCount> kAllPhases = {
    Phase::kTreeCreate, Phase::kDirCreate,  Phase::kDirStat,   Phase::kDirReaddir,  Phase::kDirRename,
    Phase::kDirRemove,  Phase::kFileCreate, Phase::kFileStat,  Phase::kFileReaddir, Phase::kFileRead,
    Phase::kFileRename, Phase::kFileRemove, Phase::kTreeRemove};

// Stable names used on the console, in result files and in acceptance rules:
// "tree-create", "dir-create", "dir-stat", "dir-readdir", "dir-rename", "dir-remove", "file-create",
// "file-stat", "file-readdir", "file-read", "file-rename", "file-remove", "tree-remove".
std::string_view phaseName(Phase phase);
// The phase with that stable name; nullopt for any other text.
std::optional<Phase> parsePhaseName(std::string_view name);

}  // namespace mdbench
