// The timing of one rank's phase (phase_timing.hpp).
#include "phase_timing.hpp"

#include <algorithm>
#include <functional>

#include "mdbench/model/phase.hpp"

namespace mdbench {

std::int64_t PhaseTiming::open(Phase phase, std::uint64_t planned, StonewallRule rule) {
  if (!settings_.no_barriers) parts_.comm.barrier();
  const std::int64_t t_start = parts_.clock.nowNs();
  series_.begin(t_start, settings_.series_interval_ns);
  gaps_.begin(t_start, epoch_ns_);
  if (faults_ != nullptr) faults_->begin(phaseName(phase), iteration_);
  if (per_op_ != nullptr) per_op_->begin(t_start, planned);
  if (parts_.progress != nullptr) {
    parts_.progress->beginPhase(phaseName(phase), iteration_, settings_.iterations, planned, t_start);
  }
  next_tick_ = nextTick();
  deadline_ns_ = rule == StonewallRule::kNone ? kNever : t_start + settings_.stonewall_ns;
  stop_at_deadline_ = rule == StonewallRule::kStopAndWearOut;
  return t_start;
}

void PhaseTiming::close(std::int64_t t_start, RankPhaseRecord& record) {
  const std::int64_t t_local_end = parts_.clock.nowNs();
  series_.finish(t_local_end, record.ok);
  gaps_.finish();
  next_tick_ = kNever;
  if (!settings_.no_barriers) closingBarrier(t_local_end, record.ok + record.failed);
  const std::int64_t t_global_end = settings_.no_barriers ? t_local_end : parts_.clock.nowNs();
  if (parts_.progress != nullptr) parts_.progress->endPhase();

  record.t_start = seconds(t_start);
  record.t_local_end = seconds(t_local_end);
  record.t_global_end = seconds(t_global_end);
}

// With --progress, rank 0 keeps printing while it waits for the others (`done`: its ops).
void PhaseTiming::closingBarrier(std::int64_t t_local_end, std::uint64_t done) {
  if (!parts_.progress_barrier) {
    parts_.comm.barrier();
    return;
  }
  ProgressReporter* progress = parts_.progress;
  if (progress != nullptr) progress->waiting(t_local_end, done);  // when rank 0 finished
  parts_.comm.barrierPolling(progress == nullptr ? std::function<void()>() : [this, progress, done] {
    const std::int64_t now = parts_.clock.nowNs();
    if (now >= progress->nextUpdateNs()) progress->waiting(now, done);
  });
}

std::int64_t PhaseTiming::nextTick() const {
  const std::int64_t progress = parts_.progress != nullptr ? parts_.progress->nextUpdateNs() : kNever;
  return std::min(series_.nextBoundary(), progress);
}

void PhaseTiming::tick(std::int64_t now, const RankPhaseRecord& record) {
  if (now >= series_.nextBoundary()) series_.tick(now, record.ok);
  if (parts_.progress != nullptr && now >= parts_.progress->nextUpdateNs()) {
    parts_.progress->update(now, record.ok + record.failed);
  }
  next_tick_ = nextTick();
}

bool PhaseTiming::noteStonewall(std::int64_t now, RankPhaseRecord& record) {
  record.ops_at_stonewall = record.ok;
  record.t_stonewall = seconds(now);
  deadline_ns_ = kNever;
  return stop_at_deadline_;
}

std::uint64_t PhaseTiming::agreeFurthest(std::uint64_t reached) {
  const std::uint64_t furthest = parts_.comm.allreduceMax(reached);
  deadline_ns_ = kNever;
  return furthest;
}

}  // namespace mdbench
