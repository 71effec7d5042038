#include "mdbench/plan.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "mdbench/result.hpp"

namespace mdbench {
namespace {

// Programmer errors only (validate() rejects bad input first); on in every build type.
void check(bool ok, const char* what) {
  if (!ok) [[unlikely]] {
    throw std::logic_error(fmt::format("mdbench plan: precondition failed: {}", what));
  }
}

bool isSelected(Phase phase, const Config& config) {
  const bool dirs = config.kinds != ItemKinds::kFilesOnly;
  const bool files = config.kinds != ItemKinds::kDirsOnly;
  const PhaseSelection& sel = config.phases;
  switch (phase) {
    case Phase::kTreeCreate:
      return sel.create;
    case Phase::kDirCreate:
      return sel.create && dirs;
    case Phase::kDirStat:
      return sel.stat && dirs;
    case Phase::kDirRemove:
      return sel.remove && dirs;
    case Phase::kFileCreate:
      return sel.create && files;
    case Phase::kFileStat:
      return sel.stat && files;
    case Phase::kFileRead:
      return sel.read && files;  // directories have nothing to read
    case Phase::kFileRemove:
      return sel.remove && files;
    case Phase::kTreeRemove:
      return sel.remove;
  }
  return false;
}

}  // namespace

std::vector<Phase> selectPhases(const Config& config) {
  std::vector<Phase> phases;
  for (Phase phase : kAllPhases) {  // kAllPhases is in execution order
    if (isSelected(phase, config)) phases.push_back(phase);
  }
  return phases;
}

bool isTreePhase(Phase phase) { return phase == Phase::kTreeCreate || phase == Phase::kTreeRemove; }

ItemKind itemKindOf(Phase phase) {
  switch (phase) {
    case Phase::kDirCreate:
    case Phase::kDirStat:
    case Phase::kDirRemove:
      return ItemKind::kDir;
    case Phase::kFileCreate:
    case Phase::kFileStat:
    case Phase::kFileRead:
    case Phase::kFileRemove:
      return ItemKind::kFile;
    case Phase::kTreeCreate:
    case Phase::kTreeRemove:
      break;
  }
  check(false, "itemKindOf needs an item phase");
  return ItemKind::kFile;  // not reached
}

Plan::Plan(const Config& config, std::uint32_t ranks)
    : config_(config), layout_(config), phases_(selectPhases(config)), ranks_(ranks) {
  check(ranks_ >= 1, "ranks >= 1");
}

std::uint32_t Plan::owner(Phase /*phase*/, std::uint32_t rank) const {
  check(rank < ranks_, "rank < ranks()");
  // Every rank works on its own items for now; the rank shift (-N) will map rank to (rank + S) % P here.
  return rank;
}

bool Plan::buildsTree(std::uint32_t rank) const {
  check(rank < ranks_, "rank < ranks()");
  return config_.sharing == TreeSharing::kUnique || rank == 0;
}

std::uint64_t Plan::plannedOps(Phase phase, std::uint32_t rank) const {
  check(rank < ranks_, "rank < ranks()");
  if (isTreePhase(phase)) return buildsTree(rank) ? layout_.dirCount() : 0;
  return config_.items;
}

std::string errorPath(const Plan& plan, std::uint32_t iteration, Phase phase, const FirstError& error) {
  std::string path = iterationDirName(iteration) + "/" +
                     treeDirPath(plan.layout(), plan.config().sharing, error.owner, error.dir);
  if (error.item != FirstError{}.item) path += "/" + itemName(itemKindOf(phase), error.owner, error.item);
  return path;
}

}  // namespace mdbench
