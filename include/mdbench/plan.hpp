// The plan: which phases run, which rank does which operations on whose items. Pure: no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mdbench/config.hpp"
#include "mdbench/layout.hpp"
#include "mdbench/phase.hpp"

namespace mdbench {

// Phases a configuration runs, in execution order:
//   create selected: tree-create, and dir-create / file-create for the selected item kinds;
//   stat: dir-stat / file-stat; read: file-read (files only); remove: dir-remove / file-remove, tree-remove.
std::vector<Phase> selectPhases(const Config& config);

bool isTreePhase(Phase phase);
// The item kind an item phase works on (kDir for dir-*, kFile for file-*). Precondition: !isTreePhase.
ItemKind itemKindOf(Phase phase);

struct FirstError;

class Plan {
 public:
  Plan(const Config& config, std::uint32_t ranks);

  const Config& config() const { return config_; }
  const TreeLayout& layout() const { return layout_; }
  const std::vector<Phase>& phases() const { return phases_; }
  std::uint32_t ranks() const { return ranks_; }

  // Whose items (and, with unique trees, whose tree) `rank` works on in `phase`.
  std::uint32_t owner(Phase phase, std::uint32_t rank) const;
  // Who builds and removes tree directories: every rank its own tree (unique), rank 0 alone (shared).
  bool buildsTree(std::uint32_t rank) const;
  // Operations `rank` is planned to do in `phase`.
  std::uint64_t plannedOps(Phase phase, std::uint32_t rank) const;

 private:
  Config config_;
  TreeLayout layout_;
  std::vector<Phase> phases_;
  std::uint32_t ranks_;
};

// The path, relative to the target directory, of the object a rank's first error was about: the item,
// or the tree directory when the error was on the directory itself (FirstError::item is ~0).
std::string errorPath(const Plan& plan, std::uint32_t iteration, Phase phase, const FirstError& error);

}  // namespace mdbench
