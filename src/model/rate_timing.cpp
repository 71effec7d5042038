#include "mdbench/model/rate_timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace mdbench {

double slowestRankTime(std::span<const RankPhaseRecord> ranks) {
  double slowest = 0.0;
  for (const RankPhaseRecord& r : ranks) {
    if (r.planned > 0) slowest = std::max(slowest, r.t_local_end - r.t_start);
  }
  return slowest;
}

PhaseSize phaseSize(const PhaseAggregate& aggregate, double slowest_rank_s, std::uint32_t ranks) {
  const std::uint32_t with_work = aggregate.active_ranks > 0 ? aggregate.active_ranks : std::max(ranks, 1u);
  const double ok = static_cast<double>(aggregate.ok);
  return {.ops = ok,
          .ops_per_rank = ok / with_work,
          .time_s = slowest_rank_s > 0.0 ? slowest_rank_s : aggregate.time_s};
}

void PhaseSizeMean::add(const PhaseSize& one) {
  sum_.ops += one.ops;
  sum_.ops_per_rank += one.ops_per_rank;
  sum_.time_s += one.time_s;
  ++count_;
}

PhaseSize PhaseSizeMean::mean() const {
  if (count_ == 0) return {};
  const double n = count_;
  return {.ops = sum_.ops / n, .ops_per_rank = sum_.ops_per_rank / n, .time_s = sum_.time_s / n};
}

PhaseSize phaseSize(const PhaseResult& result) {
  return phaseSize(aggregate(result.ranks), slowestRankTime(result.ranks),
                   static_cast<std::uint32_t>(result.ranks.size()));
}

PhaseSize meanPhaseSize(const RunResult& run, Phase phase) {
  PhaseSizeMean sizes;
  for (const PhaseResult& measured : run.phases) {
    if (measured.phase == phase) sizes.add(phaseSize(measured));
  }
  return sizes.mean();
}

bool tooShortToTime(const PhaseSize& size) {
  return (size.ops_per_rank > 0.0 && size.ops_per_rank < kMinOpsPerRankForRate) ||
         (size.time_s > 0.0 && size.time_s < kMinSecondsForRate);
}

namespace {

// A count that may be a mean over iterations: "26", "26.5", "3.75".
std::string countText(double n) {
  return n == std::floor(n) || n >= 1000.0 ? fmt::format("{:.0f}", n) : fmt::format("{:.4g}", n);
}

}  // namespace

std::string tooShortText(const PhaseSize& size) { return "too short: " + tooShortCounts(size); }

std::string tooShortCounts(const PhaseSize& size) {
  // A time is known only with the ops of that time (an import derives them from it): 0 ops is a count.
  std::string text = fmt::format("{} op{}", countText(size.ops), size.ops == 1.0 ? "" : "s");
  if (size.ops_per_rank > 0.0 && size.ops_per_rank != size.ops) {
    text += fmt::format(" ({} per rank)", countText(size.ops_per_rank));
  }
  if (size.time_s > 0.0) text += fmt::format(" in {}", durationText(size.time_s));
  return text;
}

std::string tooShortThresholdText() {
  return fmt::format("fewer than {:.0f} ops per rank or under {}", kMinOpsPerRankForRate,
                     durationText(kMinSecondsForRate));
}

std::string durationText(double seconds) {
  if (seconds >= 1.0 || seconds <= 0.0) return fmt::format("{:.3g} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.3g} ms", seconds * 1e3);
  return fmt::format("{:.3g} us", seconds * 1e6);
}

}  // namespace mdbench
