// The runner's collectives after each phase (runner.hpp): the records and histograms, and the series.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "mdbench/run/runner.hpp"

namespace mdbench {
namespace {

// Counts of the throughput-over-time series rank 0 gathers per phase, at most (4 bytes each).
constexpr std::uint64_t kMaxSeriesCells = std::uint64_t{1} << 24;

}  // namespace

PhaseResult collectPhase(Comm& comm, std::uint32_t iteration, Phase phase, std::uint64_t items,
                         const RankPhaseRecord& record, LatencyHistogram& latency) {
  PhaseResult result;
  result.iteration = iteration;
  result.phase = phase;
  result.items = items;
  std::vector<std::byte> all;
  comm.gatherBytes(std::as_bytes(std::span(&record, 1)), all);
  comm.reduceSumToRoot(latency.counts());
  if (comm.rank() == 0) {
    result.ranks.resize(comm.size());
    std::memcpy(result.ranks.data(), all.data(), all.size());
    result.latency = latency;
  }
  return result;
}

OpsSeries collectSeries(Comm& comm, SeriesRecorder& series) {
  OpsSeries result;
  // One agreement on two values: the common interval (the longest any rank's merging reached) and the
  // longest time any rank's counts cover. Merging pairs keeps a rank's covered time rounded up to the new
  // interval, so every rank's counts, merged to the common interval, fit in ceil(covered / interval).
  std::array<std::uint64_t, 2> agreed = {
      static_cast<std::uint64_t>(series.intervalNs()),
      series.counts().size() * static_cast<std::uint64_t>(series.intervalNs())};
  comm.allreduceMaxEach(agreed);
  auto interval_ns = static_cast<std::int64_t>(agreed[0]);
  std::uint64_t intervals = agreed[0] > 0 ? (agreed[1] + agreed[0] - 1) / agreed[0] : 0;
  // Rank 0 holds ranks x intervals counts: at most kMaxSeriesCells (64 MiB) however many ranks ran, by
  // coarsening further (every rank computes the same interval from the agreed values).
  const std::uint64_t cap = std::max<std::uint64_t>(64, kMaxSeriesCells / comm.size());
  while (intervals > cap) {
    interval_ns *= 2;
    intervals = (intervals + 1) / 2;
  }
  series.coarsenTo(interval_ns);
  if (series.counts().size() > intervals) {
    throw std::logic_error(fmt::format("collectSeries: {} intervals on rank {}, more than the agreed {}",
                                       series.counts().size(), comm.rank(), intervals));
  }
  std::vector<std::uint32_t> mine(intervals, 0);
  std::copy(series.counts().begin(), series.counts().end(), mine.begin());
  std::vector<std::byte> all;
  comm.gatherBytes(std::as_bytes(std::span(mine)), all);
  if (comm.rank() != 0) return result;
  result.interval_s = static_cast<double>(interval_ns) * 1e-9;
  result.intervals = static_cast<std::uint32_t>(intervals);
  result.per_rank.resize(intervals * comm.size());
  if (!all.empty()) std::memcpy(result.per_rank.data(), all.data(), all.size());  // none when no interval
  result.total.assign(intervals, 0);
  for (std::size_t i = 0; i < result.per_rank.size(); ++i) result.total[i % intervals] += result.per_rank[i];
  return result;
}

PhaseStall collectStall(Comm& comm, const GapRecorder& gaps, const std::vector<RankPhaseRecord>& ranks) {
  // Padding rows are empty gaps (from == to), which the sweep ignores.
  std::array<std::uint64_t, 2> agreed = {gaps.gaps().size(), static_cast<std::uint64_t>(gaps.thresholdNs())};
  comm.allreduceMaxEach(agreed);
  std::vector<Gap> mine(agreed[0]);
  std::copy(gaps.gaps().begin(), gaps.gaps().end(), mine.begin());
  std::vector<std::byte> all;
  comm.gatherBytes(std::as_bytes(std::span(mine)), all);
  if (comm.rank() != 0 || ranks.empty()) return PhaseStall{};
  std::vector<std::vector<Gap>> per_rank(comm.size());
  const std::size_t each = agreed[0];
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    per_rank[r].resize(each);
    if (each > 0) std::memcpy(per_rank[r].data(), all.data() + r * each * sizeof(Gap), each * sizeof(Gap));
  }
  double t_start = std::numeric_limits<double>::infinity();
  double t_end = -std::numeric_limits<double>::infinity();
  for (const RankPhaseRecord& r : ranks) {
    t_start = std::min(t_start, r.t_start);
    t_end = std::max(t_end, r.t_local_end);
  }
  return commonStall(per_rank, t_start, t_end, static_cast<double>(agreed[1]) * 1e-9);
}

}  // namespace mdbench
