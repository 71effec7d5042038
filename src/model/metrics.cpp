// The formulas behind every aggregate number mdbench reports. This is the only place they are computed.
//
// Per rank r in one phase (a RankPhaseRecord):
//   rank rate_r   = ok_r / (t_local_end_r - t_start_r)        0 if that time is <= 0
//                   (the rank's own speed, not counting the wait at the closing barrier; mdtest's per-rank
//                   rate)
//
// Per phase, over all ranks (aggregate):
//   ok, failed, bytes = sums over all ranks
//   time_s        = max over ALL ranks of (t_global_end_r - t_start_r), at least 0
//                   (barrier to barrier, slowest rank; ranks with nothing planned still waited in the
//                   barriers)
//   ops_per_s     = ok / time_s                               0 if time_s is 0
//                   (mdtest's and IO500's headline; failed ops are never counted)
//                   With -B (no barriers between phases; the results file's barrier_timed = 0) no rank
//                   waits in a barrier: each records t_global_end = t_local_end and t_start when it began,
//                   so time_s = max over ranks of (t_local_end_r - t_start_r), the slowest rank's own time,
//                   and ops_per_s = ok / that: per-rank times, as mdtest -B's rates (the ranks' windows
//                   need not overlap exactly).
//   active_ranks  = number of ranks with planned > 0
//   rank_rate_min, _max, _mean = min, max, arithmetic mean of rank rate_r over the active ranks only
//                   (in a shared tree only rank 0 builds the tree; idle ranks must not drag the minimum to 0)
//   balance       = rank_rate_min / rank_rate_max             0 if rank_rate_max is 0
//   all per-rank fields are 0 when no rank is active.
//
// Per phase, the stonewall (-W). A rank whose timer fired records when (t_stonewall_r > 0) and the ops it
// had done successfully by then (ops_at_stonewall_r); one whose timer never fired records t_stonewall_r = 0
// and all its successful ops (ok_r). Failed ops never count in a rate:
//   stonewalled      = whether any rank has t_stonewall_r > 0
//   ops_at_stonewall = sum over ALL ranks of ops_at_stonewall_r             0 if not stonewalled
//   stonewall_time_s = max over the ranks with t_stonewall_r > 0 of (t_stonewall_r - t_start_r), at least 0
//                      (the longest any rank ran before its timer fired)    0 if not stonewalled
//   ops_per_s_at_stonewall = ops_at_stonewall / stonewall_time_s            0 if stonewall_time_s is 0
//                      (mdtest's rate at the stonewall, beside the full ops_per_s: after the firing, ranks
//                      wear out to the largest count any rank reached, and that tail is in ops_per_s only)
//
// Per phase, first done and last done (doneRates; elbencho's two columns), over the active ranks (planned >
// 0), each with its own elapsed d_r = t_local_end_r - t_start_r:
//   first_done_time_s    = min d_r;  last_done_time_s = max d_r
//   first_done_ops       = round(sum over ALL ranks of done_r(first_done_time_s)), where done_r(T) = ok_r
//   when
//                          d_r <= T, else the ops in rank r's whole intervals before T plus the ops of the
//                          interval holding T times the fraction of that interval (its real length: a rank's
//                          last interval ends at d_r) that lies before T; without a series, ok_r * T / d_r
//   first_done_ops_per_s = first_done_ops / first_done_time_s   0 if that time is 0
//   last_done_ops_per_s  = ok / last_done_time_s                0 if that time is 0
//   all 0 when no rank is active.
//
// Per phase, over iterations (summarize, of each iteration's ops_per_s):
//   max, min, mean, stddev = sample standard deviation (n - 1 in the denominator, as mdtest)
//   stddev is 0 for a single iteration; everything is 0 for none.
//
// Pooled iterations (pool), scaling shape (peak, saturation) and ratios to a baseline, for reports: see
// metrics.hpp, where each is defined next to its declaration.
//
// Per run (RunResult::failedOps):
//   failed ops    = sum of failed over every phase (--steady's too), iteration and rank (non-zero makes the
//   exit code non-zero)
#include "mdbench/model/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "mdbench/model/run_result.hpp"
#include "mdbench/model/stats.hpp"

namespace mdbench {

namespace {

// Rank r's successful ops completed within the first `t` seconds of its phase (t < its elapsed d).
double doneBy(const RankSpan& r, std::size_t rank, const OpsSeries& series, double t) {
  const double d = r.t_local_end - r.t_start;
  const std::size_t n = series.intervals;
  if (series.interval_s <= 0.0 || n == 0 || series.per_rank.size() < (rank + 1) * n) {
    return d > 0.0 ? static_cast<double>(r.ok) * t / d : 0.0;
  }
  const std::uint32_t* counts = series.per_rank.data() + rank * n;
  const double width = series.interval_s;
  const auto k = std::min(static_cast<std::size_t>(t / width), n - 1);
  double done = 0.0;
  for (std::size_t j = 0; j < k; ++j) done += counts[j];
  const double start = static_cast<double>(k) * width;
  const double length = std::min(width, d - start);
  if (length > 0.0) done += counts[k] * std::clamp((t - start) / length, 0.0, 1.0);
  return done;
}

}  // namespace

void sumKinds(RankPhaseRecord& record) {
  record.ok = 0;
  record.failed = 0;
  for (const OpCounts& c : record.kinds) {
    record.ok += c.ok;
    record.failed += c.failed;
  }
  record.planned = record.ok + record.failed;
}

std::vector<RankSpan> rankSpans(std::span<const RankPhaseRecord> ranks) {
  std::vector<RankSpan> spans;
  spans.reserve(ranks.size());
  for (const RankPhaseRecord& r : ranks) spans.push_back({r.planned, r.ok, r.t_start, r.t_local_end});
  return spans;
}

DoneRates doneRates(std::span<const RankPhaseRecord> ranks, const OpsSeries& series) {
  return doneRates(rankSpans(ranks), series);
}

DoneRates doneRates(std::span<const RankSpan> ranks, const OpsSeries& series) {
  DoneRates rates;
  bool any = false;
  std::uint64_t ok = 0;
  for (const RankSpan& r : ranks) {
    ok += r.ok;
    if (r.planned == 0) continue;
    const double d = std::max(0.0, r.t_local_end - r.t_start);
    rates.first_done_time_s = any ? std::min(rates.first_done_time_s, d) : d;
    rates.last_done_time_s = std::max(rates.last_done_time_s, d);
    any = true;
  }
  if (!any) return DoneRates{};
  const double first = rates.first_done_time_s;
  double done = 0.0;
  for (std::size_t rank = 0; rank < ranks.size(); ++rank) {
    const RankSpan& r = ranks[rank];
    done += r.t_local_end - r.t_start <= first ? static_cast<double>(r.ok) : doneBy(r, rank, series, first);
  }
  rates.first_done_ops = static_cast<std::uint64_t>(std::llround(done));
  if (first > 0.0) rates.first_done_ops_per_s = static_cast<double>(rates.first_done_ops) / first;
  if (rates.last_done_time_s > 0.0)
    rates.last_done_ops_per_s = static_cast<double>(ok) / rates.last_done_time_s;
  return rates;
}

bool collectivePhase(const Config& config, Phase phase) {
  if (!config.collective_creates || config.shared_files || config.targets.size() > 1) return false;
  const PhaseInfo& info = phaseInfo(phase);
  if (info.tree()) return config.sharing == TreeSharing::kUnique;
  return !info.readdir() && (info.action == PhaseAction::kCreate || info.action == PhaseAction::kRemove);
}

std::uint64_t plannedOpsOf(const Plan& plan, Phase phase, std::uint32_t rank) {
  if (!collectivePhase(plan.config(), phase)) return plan.plannedOps(phase, rank);
  if (rank != 0) return 0;
  std::uint64_t sum = 0;
  for (std::uint32_t r = 0; r < plan.ranks(); ++r) sum += plan.plannedOps(phase, r);
  return sum;
}

double rankRate(const RankPhaseRecord& r) {
  const double seconds = r.t_local_end - r.t_start;
  if (!(seconds > 0.0)) return 0.0;
  return static_cast<double>(r.ok) / seconds;
}

PhaseAggregate aggregate(std::span<const RankPhaseRecord> ranks) {
  PhaseAggregate a;
  RunningStats rates;
  std::uint64_t ops_at_stonewall = 0;
  for (const RankPhaseRecord& r : ranks) {
    a.ok += r.ok;
    a.failed += r.failed;
    a.bytes += r.bytes;
    a.time_s = std::max(a.time_s, r.t_global_end - r.t_start);
    if (r.planned > 0) rates.add(rankRate(r));
    ops_at_stonewall += r.ops_at_stonewall;
    if (r.t_stonewall > 0.0) {
      a.stonewalled = true;
      a.stonewall_time_s = std::max(a.stonewall_time_s, r.t_stonewall - r.t_start);
    }
  }
  if (a.time_s > 0.0) a.ops_per_s = static_cast<double>(a.ok) / a.time_s;
  if (a.stonewalled) {
    a.ops_at_stonewall = ops_at_stonewall;
    if (a.stonewall_time_s > 0.0) {
      a.ops_per_s_at_stonewall = static_cast<double>(a.ops_at_stonewall) / a.stonewall_time_s;
    }
  }

  a.active_ranks = static_cast<std::uint32_t>(rates.count());
  a.rank_rate_min = rates.min();
  a.rank_rate_max = rates.max();
  a.rank_rate_mean = rates.mean();
  if (a.rank_rate_max > 0.0) a.balance = a.rank_rate_min / a.rank_rate_max;
  return a;
}

IterationSummary summarize(std::span<const double> ops_per_s) {
  RunningStats s;
  for (const double x : ops_per_s) s.add(x);
  IterationSummary out;
  out.iterations = static_cast<std::uint32_t>(s.count());
  out.max = s.max();
  out.min = s.min();
  out.mean = s.mean();
  out.stddev = s.sampleStddev();
  return out;
}

IterationSummary pool(const IterationSummary& a, const IterationSummary& b) {
  if (a.iterations == 0) return b;
  if (b.iterations == 0) return a;
  const double na = a.iterations, nb = b.iterations, n = na + nb;
  IterationSummary out;
  out.iterations = a.iterations + b.iterations;
  out.max = std::max(a.max, b.max);
  out.min = std::min(a.min, b.min);
  out.mean = (na * a.mean + nb * b.mean) / n;
  const double d = b.mean - a.mean;
  const double m2 = (na - 1) * a.stddev * a.stddev + (nb - 1) * b.stddev * b.stddev + d * d * na * nb / n;
  out.stddev = std::sqrt(std::max(0.0, m2 / (n - 1)));
  return out;
}

ScalingShape scalingShape(std::span<const double> means) {
  ScalingShape shape;
  if (means.empty()) return shape;
  shape.peak = static_cast<std::size_t>(std::max_element(means.begin(), means.end()) - means.begin());
  const double peak = means[shape.peak];
  if (means.size() < 2 || !(peak > 0.0)) return shape;
  for (std::size_t i = 0; i < means.size(); ++i) {
    if (means[i] >= kSaturationFraction * peak) {
      shape.saturated = i + 1 < means.size();
      shape.saturation = i;
      break;
    }
  }
  if (!shape.saturated) shape.saturation = 0;
  return shape;
}

bool ratioToBaseline(double value, double baseline, double& ratio) {
  if (!(baseline > 0.0)) return false;
  ratio = value / baseline;
  return true;
}

std::uint64_t RunResult::failedOps() const {
  std::uint64_t failed = 0;
  for (const PhaseResult& p : phases) {
    for (const RankPhaseRecord& r : p.ranks) failed += r.failed;
  }
  return failed;
}

double perRankRate(double mean_ops_per_s, std::uint32_t active_ranks) {
  return active_ranks == 0 ? 0.0 : mean_ops_per_s / active_ranks;
}

double scalingEfficiency(double per_rank, double first_per_rank) {
  return first_per_rank > 0.0 ? per_rank / first_per_rank : 0.0;
}

LatencySummary latencySummary(const LatencyHistogram& histogram) {
  LatencySummary s;
  if (histogram.count() == 0) return s;
  s.p50_ns = histogram.quantile(0.5);
  s.p90_ns = histogram.quantile(0.9);
  s.p99_ns = histogram.quantile(0.99);
  s.p999_ns = histogram.quantile(0.999);
  s.max_ns = histogram.maxBound();
  return s;
}

NodeLayout nodeLayout(const std::vector<std::string>& host_of_rank) {
  NodeLayout layout;
  std::map<std::string, std::uint32_t> index;
  std::vector<std::uint32_t> ranks_on;
  for (const std::string& host : host_of_rank) {
    const auto [it, added] = index.emplace(host, static_cast<std::uint32_t>(index.size()));
    if (added) ranks_on.push_back(0);
    ++ranks_on[it->second];
    layout.node_of_rank.push_back(it->second);
  }
  layout.nodes = static_cast<std::uint32_t>(ranks_on.size());
  if (!ranks_on.empty()) {
    layout.ranks_per_node_min = *std::min_element(ranks_on.begin(), ranks_on.end());
    layout.ranks_per_node_max = *std::max_element(ranks_on.begin(), ranks_on.end());
  }
  return layout;
}

}  // namespace mdbench
