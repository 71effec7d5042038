// The phase loop of one rank (phase_executor.hpp).
#include "phase_executor.hpp"

#include <utility>

#include "phase_listings.hpp"

namespace mdbench {

PhaseExecutor::PhaseExecutor(const Plan& plan, RunParts parts)
    : plan_(plan),
      parts_(std::move(parts)),
      rank_(parts_.comm.rank()),
      timing_(plan.settings(), parts_),
      data_(plan.settings()),
      loop_(plan, parts_, timing_, names_),
      ops_(plan, parts_, loop_, names_, data_),
      commands_(plan.settings().cmd_before_phase, plan.settings().cmd_after_phase, rank_) {}

RankPhaseRecord PhaseExecutor::measure(Phase phase, DirHandle iteration_dir, ItemLimits& limits,
                                       LatencyHistogram& latency) {
  RankPhaseRecord record;
  const PhaseInfo& info = phaseInfo(phase);
  const std::uint64_t limit = info.itemOps() ? limits.of(itemKindOf(phase)) : 0;
  const bool collective = plan_.collective(phase);
  record.planned = collective ? collectivePlanned(phase, limit) : plannedOps(phase, limit);
  latency = LatencyHistogram{};
  loop_.begin(record, latency);
  const std::uint32_t owner = plan_.owner(phase, rank_);
  DirCursor cursor(parts_.backend, iteration_dir, plan_.layout(), plan_.settings().sharing, owner);
  const StonewallRule rule = plan_.stonewallIn(phase);
  data_.fillFor(owner);

  commands_.runBefore(phase, timing_.iteration());
  if (listsBeforePhase(parts_.backend, phase)) {
    shareTypeListings(plan_, parts_, iteration_dir, owner, itemKindOf(phase));
  }
  const std::int64_t t_start = timing_.open(phase, record.planned, rule);
  loop_.open();
  if (info.creates()) names_.fates().forget(itemKindOf(phase));  // this iteration's creates decide afresh
  names_.begin(plan_.ranks());
  std::uint64_t reached = 0;
  if (collective) {
    if (record.planned > 0) executeForEveryOwner(phase, iteration_dir, limit);
  } else if (record.planned > 0) {
    reached = ops_.execute(phase, cursor, owner, 0, limit);
  }
  items_ = limit;
  if (rule == StonewallRule::kStopAndWearOut) reached = wearOut(phase, cursor, owner, reached, limits);
  if (!collective) names_.noteReach(owner, reached);
  if (phase == Phase::kTreeCreate) tree_stopped_ = loop_.stopped();
  closePhase(phase, t_start);
  return record;
}

// -c: rank 0's ops in a collective phase, every rank's (items up to `limit`, or a tree each).
std::uint64_t PhaseExecutor::collectivePlanned(Phase phase, std::uint64_t limit) const {
  if (rank_ != 0) return 0;
  const std::uint64_t each = phaseInfo(phase).itemOps() ? limit : plan_.layout().dirCount();
  return each * plan_.ranks();
}

// -c on rank 0: the phase's operations for every rank's items (or tree) in turn, as mdtest's
// collective_create_remove, each with the data its owner would have written.
void PhaseExecutor::executeForEveryOwner(Phase phase, DirHandle iteration_dir, std::uint64_t limit) {
  for (std::uint32_t owner = 0; owner < plan_.ranks() && !loop_.stopped(); ++owner) {
    DirCursor cursor(parts_.backend, iteration_dir, plan_.layout(), plan_.settings().sharing, owner);
    data_.fillFor(owner);
    names_.noteReach(owner, ops_.execute(phase, cursor, owner, 0, limit));
  }
}

// After a stonewall that stops the phase: the ranks agree on the furthest count any reached and those
// behind go on to it. Every rank takes part, also those with nothing to do, so no rank waits alone.
// Returns where this rank's pass ended.
std::uint64_t PhaseExecutor::wearOut(Phase phase, DirCursor& cursor, std::uint32_t owner,
                                     std::uint64_t reached, ItemLimits& limits) {
  RankPhaseRecord& record = loop_.record();
  const std::uint64_t furthest = timing_.agreeFurthest(reached);
  if (record.planned > 0 && reached < furthest && !loop_.stopped())
    reached = ops_.execute(phase, cursor, owner, reached, furthest);
  if (phaseInfo(phase).creates()) limits.of(itemKindOf(phase)) = furthest;
  record.planned = plannedOps(phase, furthest);
  items_ = furthest;
  return reached;
}

// The counts' last word, -Y's sync, --run-cmd-after-phase, then the timing's end (t_local_end, the closing
// barrier, t_global_end).
void PhaseExecutor::closePhase(Phase phase, std::int64_t t_start) {
  RankPhaseRecord& record = loop_.record();
  // Stopped by a signal: the ops it did are what it planned (as after a stonewall), so counts stay exact.
  if (loop_.stopped()) record.planned = record.ok + record.failed;
  if (record.t_stonewall == 0.0) record.ops_at_stonewall = record.ok;
  // -Y: inside the timed region, as mdtest does; not an op of the phase, so a failure is reported apart.
  sync_error_ = plan_.syncsAfter(phase) ? parts_.backend.syncFileSystem() : 0;
  // Inside the timing, as mdtest runs its epilogue before the closing barrier (item phases only).
  commands_.runAfter(phase, timing_.iteration());
  timing_.close(t_start, record);
}

// The plan's count, with the item phases limited to the items that exist in this iteration.
std::uint64_t PhaseExecutor::plannedOps(Phase phase, std::uint64_t limit) const {
  const std::uint64_t planned = plan_.plannedOps(phase, rank_);
  if (!phaseInfo(phase).itemOps() || planned == 0) return planned;
  return limit;
}

}  // namespace mdbench
