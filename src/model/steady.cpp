#include "mdbench/model/steady.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>

#include "mdbench/util/errno_name.hpp"

namespace mdbench {
namespace {

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

}  // namespace

std::vector<std::string> steadyConfigProblems(const SteadyConfig& config) {
  std::vector<std::string> problems;
  if (config.datasets == 0) problems.push_back("datasets: 0; at least 1 dataset per rank is needed");
  if (config.working_set == 0) problems.push_back("working_set: 0; at least 1 object per dataset is needed");
  if (!std::isfinite(config.stonewall_s) || config.stonewall_s < 0) {
    problems.push_back(
        fmt::format("stonewall_s: {}; must be 0 (off) or a positive number of seconds", config.stonewall_s));
  }
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
  if (config.working_set >= kLimit || config.rounds >= kLimit - config.working_set) {
    problems.push_back(fmt::format("working_set + rounds: {} + {}; object numbers must stay below 2^63",
                                   config.working_set, config.rounds));
  }
  return problems;
}

std::string steadyDatasetName(std::uint32_t owner, std::uint32_t dataset) {
  return fmt::format("steady.mdbench.{}.{}", owner, dataset);
}

std::string steadyObjectName(std::uint32_t owner, std::uint32_t dataset, std::uint64_t object) {
  return fmt::format("obj.mdbench.{}.{}.{}", owner, dataset, object);
}

namespace {
// k_d = offset * (d + 1) mod size, without overflow (both factors reduced first; their product < 2^64).
std::uint64_t ringDistance(std::uint32_t size, std::uint32_t offset, std::uint32_t dataset) {
  return (std::uint64_t{offset} % size) * ((std::uint64_t{dataset} + 1) % size) % size;
}
}  // namespace

std::uint32_t steadyReadOwner(std::uint32_t rank, std::uint32_t size, std::uint32_t offset,
                              std::uint32_t dataset) {
  return static_cast<std::uint32_t>((rank + size - ringDistance(size, offset, dataset)) % size);
}

std::uint32_t steadyWriteOwner(std::uint32_t rank, std::uint32_t size, std::uint32_t offset,
                               std::uint32_t dataset) {
  return static_cast<std::uint32_t>((rank + ringDistance(size, offset, dataset)) % size);
}

// The counts, times, rank rates and stonewall are metrics' aggregate of the records, as a selected phase's
// (a steady rank's planned ops are every op it did, so every rank with an op is active); the op kinds, the
// rounds and the ranks' times to their last op are the steady state's own.
SteadyPhaseSummary summarizeSteadyPhase(const PhaseResult& phase) {
  SteadyPhaseSummary s;
  if (phase.ranks.empty()) return s;
  s.aggregate = aggregate(phase.ranks);
  const double time_s = s.aggregate.time_s;
  s.bytes_per_s = ratio(static_cast<double>(s.aggregate.bytes), time_s);
  s.rounds_per_s_at_stonewall =
      ratio(s.aggregate.ops_per_s_at_stonewall, static_cast<double>(phase.ranks.size()));
  s.rank_time_min_s = std::numeric_limits<double>::infinity();
  double time_sum = 0.0;
  for (const RankPhaseRecord& r : phase.ranks) {
    for (std::size_t op = 0; op < kOpKindCount; ++op) {
      s.ops[op].ok += r.kinds[op].ok;
      s.ops[op].failed += r.kinds[op].failed;
    }
    s.rounds = std::max(s.rounds, r.rounds);
    const double rank_time = r.t_local_end - r.t_start;
    time_sum += rank_time;
    s.rank_time_min_s = std::min(s.rank_time_min_s, rank_time);
    s.rank_time_max_s = std::max(s.rank_time_max_s, rank_time);
  }
  for (std::size_t op = 0; op < kOpKindCount; ++op) {
    s.ops[op].ops_per_s = ratio(static_cast<double>(s.ops[op].ok), time_s);
    if (op < phase.kind_latency.size()) s.ops[op].latency = latencySummary(phase.kind_latency[op]);
  }
  s.rounds_per_s = ratio(static_cast<double>(s.rounds), time_s);
  s.objects_per_s = ratio(static_cast<double>(s.ops[opKindIndex(OpKind::kRead)].ok), time_s);
  s.rank_time_mean_s = time_sum / static_cast<double>(phase.ranks.size());
  s.time_balance = ratio(s.rank_time_min_s, s.rank_time_max_s);
  return s;
}

std::string describeSteadyError(const RankPhaseRecord& record) {
  const FirstError& e = record.first_error;
  if (!e.any()) return {};
  const auto owner = e.owner;
  const auto dataset = static_cast<std::uint32_t>(e.dir);
  const std::string where =
      e.item == kSteadyNoObject
          ? steadyDatasetName(owner, dataset)
          : fmt::format("{}/{}", steadyDatasetName(owner, dataset), steadyObjectName(owner, dataset, e.item));
  return fmt::format("{} {}: {}", opKindName(record.first_error_kind), where, describeErrno(e.err));
}

}  // namespace mdbench
