// Every aggregate formula mdbench reports, in one place (documented in docs/numbers.md and results-schema/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mdbench/model/plan.hpp"
#include "mdbench/model/result.hpp"

namespace mdbench {

struct PhaseAggregate {
  std::uint64_t ok = 0;
  std::uint64_t failed = 0;
  std::uint64_t bytes = 0;
  // Barrier to barrier: the slowest rank's (t_global_end - t_start).
  double time_s = 0.0;
  // ok / time_s: mdtest's headline definition. 0 when time_s is 0.
  double ops_per_s = 0.0;
  // Per-rank rates ok_r / (t_local_end_r - t_start_r), over the ranks with planned ops > 0 (in a shared
  // tree only rank 0 builds the tree). balance = min / max (1 = perfectly even; 0 if max is 0).
  std::uint32_t active_ranks = 0;
  double rank_rate_min = 0.0;
  double rank_rate_max = 0.0;
  double rank_rate_mean = 0.0;
  double balance = 0.0;
  // Stonewall (-W): whether any rank's timer fired; the ops all ranks had done when their timers fired;
  // the slowest rank's time to its firing (max of t_stonewall - t_start over ranks that fired); and
  // ops_at_stonewall / stonewall_time_s. All 0 when no timer fired.
  bool stonewalled = false;
  std::uint64_t ops_at_stonewall = 0;
  double stonewall_time_s = 0.0;
  double ops_per_s_at_stonewall = 0.0;
};

double rankRate(const RankPhaseRecord& r);
// With -B (no barriers) a rank's t_global_end is its t_local_end, so time_s is the slowest rank's own time
// and ops_per_s = ok / max(t_local_end - t_start): per-rank times, as mdtest's -B (metrics.cpp).
PhaseAggregate aggregate(std::span<const RankPhaseRecord> ranks);

// -c (mdtest's collective creates): rank 0 does every rank's operations of the item create and remove
// phases, and with -u of the tree phases (each rank's tree); the others have none in them. Stat, read,
// readdir and rename stay each rank's. Not with -S or several -d targets (mdtest refuses both).
bool collectivePhase(const Config& config, Phase phase);
// The ops `rank` is planned in `phase`: plan.plannedOps, except in -c's collective phases, where rank 0
// has the sum over every rank's and the others none.
std::uint64_t plannedOpsOf(const Plan& plan, Phase phase, std::uint32_t rank);

// First-done and last-done rates (as elbencho reports them), over the ranks with planned ops > 0:
//   first_done_time_s    = the fastest rank's t_local_end - t_start
//   first_done_ops       = the successful ops all ranks had completed by then: a rank that had finished
//                          counts all its ops; any other its whole intervals before that time plus the
//                          interval holding it in proportion (the series' resolution), rounded
//   first_done_ops_per_s = first_done_ops / first_done_time_s
//   last_done_time_s     = the slowest rank's t_local_end - t_start
//   last_done_ops_per_s  = ok / last_done_time_s (the barrier-to-barrier rate without the closing barrier)
// A rate is 0 when its time is 0. Without active ranks everything is 0.
struct DoneRates {
  double first_done_time_s = 0.0;
  std::uint64_t first_done_ops = 0;
  double first_done_ops_per_s = 0.0;
  double last_done_time_s = 0.0;
  double last_done_ops_per_s = 0.0;
};
DoneRates doneRates(std::span<const RankSpan> ranks, const OpsSeries& series);
DoneRates doneRates(std::span<const RankPhaseRecord> ranks, const OpsSeries& series);

// Over iterations of one phase: max, min, mean and sample standard deviation (n-1) of aggregate ops/s.
struct IterationSummary {
  std::uint32_t iterations = 0;
  double max = 0.0;
  double min = 0.0;
  double mean = 0.0;
  double stddev = 0.0;
};
IterationSummary summarize(std::span<const double> ops_per_s);

// Two sets of iterations measured apart (two runs at one rank count, or imported summaries) as one:
// count-weighted mean, min of min, max of max, and the pooled sample standard deviation
// (Chan et al.: M2 = (na-1) sa^2 + (nb-1) sb^2 + d^2 na nb / n, stddev = sqrt(M2 / (n-1))).
IterationSummary pool(const IterationSummary& a, const IterationSummary& b);

// The shape of a scaling curve (means by ascending rank count) for reports:
//   peak       = index of the largest mean (the first, on ties)
//   saturation = the smallest index whose mean reaches kSaturationFraction of the peak, provided larger
//                rank counts were measured after it (more ranks then added less than 10%); none when that
//                index is the last point (still scaling), with fewer than two points, or a zero peak.
inline constexpr double kSaturationFraction = 0.9;
struct ScalingShape {
  std::size_t peak = 0;
  bool saturated = false;
  std::size_t saturation = 0;
};
ScalingShape scalingShape(std::span<const double> means);

// A configuration's value relative to the baseline's at the same series and rank count: value / baseline.
// False (no ratio) when the baseline is not positive.
bool ratioToBaseline(double value, double baseline, double& ratio);

// Scaling sweep (--sweep), per phase and step: the per-rank rate is the step's mean ops/s over iterations
// divided by the ranks that had work in the phase (active_ranks: all of the step's, except rank 0 alone in
// a shared tree's tree phases and -S's remove); 0 without active ranks. The efficiency is a step's per-rank
// rate over the first step's (1 = perfect scaling); 0 when the first step's is 0.
double perRankRate(double mean_ops_per_s, std::uint32_t active_ranks);
double scalingEfficiency(double per_rank, double first_per_rank);

// Latency percentiles of a phase from its merged histogram (LatencyHistogram::quantile: the upper bound
// of the bucket holding the ceil(q * count)-th smallest latency). All 0 for an empty histogram.
struct LatencySummary {
  std::uint64_t p50_ns = 0;
  std::uint64_t p90_ns = 0;
  std::uint64_t p99_ns = 0;
  std::uint64_t p999_ns = 0;
  std::uint64_t max_ns = 0;
};
LatencySummary latencySummary(const LatencyHistogram& histogram);

// The nodes of a run: node index of each rank (distinct host names numbered by first appearance) and
// the fewest and most ranks on one node.
struct NodeLayout {
  std::vector<std::uint32_t> node_of_rank;
  std::uint32_t nodes = 0;
  std::uint32_t ranks_per_node_min = 0;
  std::uint32_t ranks_per_node_max = 0;
};
NodeLayout nodeLayout(const std::vector<std::string>& host_of_rank);

}  // namespace mdbench
