#include "mdbench/model/phase.hpp"

#include <stdexcept>

namespace mdbench {

std::string_view phaseName(Phase phase) {
  switch (phase) {
    case Phase::kTreeCreate:
      return "tree-create";
    case Phase::kDirCreate:
      return "dir-create";
    case Phase::kDirStat:
      return "dir-stat";
    case Phase::kDirReaddir:
      return "dir-readdir";
    case Phase::kDirRename:
      return "dir-rename";
    case Phase::kDirRemove:
      return "dir-remove";
    case Phase::kFileCreate:
      return "file-create";
    case Phase::kFileStat:
      return "file-stat";
    case Phase::kFileReaddir:
      return "file-readdir";
    case Phase::kFileRead:
      return "file-read";
    case Phase::kFileRename:
      return "file-rename";
    case Phase::kFileRemove:
      return "file-remove";
    case Phase::kTreeRemove:
      return "tree-remove";
  }
  // Only a value cast from outside the enum gets here: a programmer error, reported in every build type.
  throw std::logic_error("mdbench::phaseName: not a Phase value");
}

std::optional<Phase> parsePhaseName(std::string_view name) {
  for (const Phase phase : kAllPhases) {
    if (phaseName(phase) == name) return phase;
  }
  return std::nullopt;
}

}  // namespace mdbench
