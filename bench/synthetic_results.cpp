#include "synthetic_results.hpp"

#include <fmt/format.h>
#include <hdf5.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <vector>

#include "mdbench/backend/fsinfo.hpp"
#include "mdbench/cli/version.hpp"
#include "mdbench/util/clock.hpp"

namespace mdbench::bench {
namespace {

constexpr std::uint32_t kRanksPerNode = 32;
constexpr double kStartSkewS = 40e-6;    // how far apart ranks leave the opening barrier
constexpr double kEndSkewS = 60e-6;      // ... and the closing one
constexpr double kSlowestFactor = 0.25;  // a straggler runs at least this fraction of the phase's rate
constexpr std::uint64_t kStragglerOneIn = 1000;

// splitmix64: a well-mixed 64-bit value from any 64-bit input.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A uniform number in [0, 1) for (rank, phase, stream).
double uniform(std::uint32_t rank, Phase phase, std::uint32_t stream) {
  const std::uint64_t key =
      (std::uint64_t{rank} << 16) ^ (std::uint64_t{static_cast<std::uint8_t>(phase)} << 8) ^ stream;
  return static_cast<double>(mix(key) >> 11) * 0x1.0p-53;
}

// A typical per-rank rate (ops/s) of each phase on a busy parallel file system.
double baseRate(Phase phase) {
  switch (phase) {
    case Phase::kTreeCreate:
      return 800.0;
    case Phase::kDirCreate:
      return 2500.0;
    case Phase::kDirStat:
      return 9000.0;
    case Phase::kDirRemove:
      return 2800.0;
    case Phase::kFileCreate:
      return 2200.0;
    case Phase::kFileStat:
      return 10000.0;
    case Phase::kFileRead:
      return 6000.0;
    case Phase::kFileRemove:
      return 3000.0;
    case Phase::kTreeRemove:
      return 900.0;
    case Phase::kDirReaddir:
    case Phase::kFileReaddir:
      return 400.0;
    case Phase::kDirRename:
    case Phase::kFileRename:
      return 2000.0;
  }
  return 1000.0;
}

bool isFailingRank(std::uint32_t rank, std::uint32_t ranks) {
  return rank == 1 || rank == ranks / 2 || rank + 1 == ranks;
}

}  // namespace

Config syntheticConfig(std::uint32_t iterations) {
  Config config;
  config.phases = PhaseSelection{.create = true, .stat = true, .read = true, .remove = true};
  config.iterations = iterations;
  config.write_bytes = 4096;
  config.read_bytes = 4096;
  config.output = "synthetic.h5";
  config.command_line = "mdbench -w 4096 -e 4096 (synthetic)";
  return config;
}

RunInfo syntheticRunInfo(std::uint32_t ranks, const std::string& target) {
  RunInfo info;
  info.version = std::string(version());
  info.git_commit = std::string(gitCommit());
  info.command_line = "mdbench -w 4096 -e 4096 (synthetic)";
  info.target = target;
  info.start_utc = utcTimestampNow();
  info.ranks = ranks;
  info.nodes = (ranks + kRanksPerNode - 1) / kRanksPerNode;
  info.host_of_rank.reserve(ranks);
  for (std::uint32_t rank = 0; rank < ranks; ++rank) {
    info.host_of_rank.push_back(fmt::format("node{:04}", rank / kRanksPerNode));
  }
  if (const auto fs = probeFileSystem(target)) {
    info.fs_type = fs->type;
    info.fs_total_bytes = fs->total_bytes;
    info.fs_free_bytes = fs->free_bytes;
    info.fs_total_inodes = fs->total_inodes;
    info.fs_free_inodes = fs->free_inodes;
  }
  info.mpi_library = "synthetic";
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  info.hdf5_version = fmt::format("{}.{}.{}", major, minor, release);
  info.scheduler = "none";
  return info;
}

double syntheticPhaseStart(std::uint32_t slot) { return 0.5 + 12.0 * slot; }

RankPhaseRecord syntheticRecord(const Plan& plan, Phase phase, std::uint32_t rank, double t0,
                                Failures failures) {
  RankPhaseRecord r;
  r.planned = plan.plannedOps(phase, rank);
  if (failures == Failures::kFewRanks && phase == Phase::kFileStat && isFailingRank(rank, plan.ranks()) &&
      r.planned > 0) {
    r.failed = std::min<std::uint64_t>(r.planned, 2 + rank % 3);
    const std::uint64_t items = plan.config().items;
    r.first_error =
        FirstError{.err = ENOENT, .owner = rank, .dir = 0, .item = (std::uint64_t{rank} * 7919) % items};
  }
  r.ok = r.planned - r.failed;
  r.ops_at_stonewall = r.ok;  // no stonewall: every successful op
  if (phase == Phase::kFileCreate) r.bytes = r.ok * plan.config().write_bytes;
  if (phase == Phase::kFileRead) r.bytes = r.ok * plan.config().read_bytes;

  const bool straggler = mix(rank) % kStragglerOneIn == 7;
  const double factor =
      straggler ? kSlowestFactor + 0.15 * uniform(rank, phase, 0) : 0.7 + 0.3 * uniform(rank, phase, 0);
  const double rate = baseRate(phase) * factor;
  r.t_start = t0 + kStartSkewS * uniform(rank, phase, 1);
  r.t_local_end = r.t_start + static_cast<double>(r.planned) / rate;
  // Past the slowest possible rank (rank 0 always has the most ops planned), as the closing barrier is.
  const double slowest = static_cast<double>(plan.plannedOps(phase, 0)) / (baseRate(phase) * kSlowestFactor);
  r.t_global_end = t0 + kStartSkewS + slowest + kEndSkewS * uniform(rank, phase, 2);
  return r;
}

void addSyntheticLatencies(LatencyHistogram& histogram, Phase phase, std::uint64_t ops) {
  if (ops == 0) return;
  // A peak at the typical op time with a short fast side and a long slow tail, in buckets (each ~6%).
  constexpr int kBelow = 8, kAbove = 40;
  const auto center_ns = static_cast<std::uint64_t>(1e9 / (baseRate(phase) * 0.85));
  const auto center = static_cast<int>(LatencyHistogram::bucketOf(center_ns));
  std::array<double, kBelow + kAbove + 1> weight{};
  double total = 0.0;
  for (int d = -kBelow; d <= kAbove; ++d) {
    weight[d + kBelow] = d < 0 ? std::exp(d / 2.0) : std::exp(-d / 7.0);
    total += weight[d + kBelow];
  }
  auto counts = histogram.counts();
  std::uint64_t placed = 0;
  for (int d = -kBelow; d <= kAbove; ++d) {
    const auto share = static_cast<std::uint64_t>(static_cast<double>(ops) * weight[d + kBelow] / total);
    counts[static_cast<std::size_t>(center + d)] += share;
    placed += share;
  }
  counts[static_cast<std::size_t>(center)] += ops - placed;
}

PhaseResult syntheticPhase(const Plan& plan, std::uint32_t iteration, Phase phase, std::uint32_t slot,
                           Failures failures, std::uint32_t intervals) {
  PhaseResult result;
  result.iteration = iteration;
  result.phase = phase;
  result.items = plan.config().items;
  result.ranks.reserve(plan.ranks());
  std::uint64_t ok = 0;
  const double t0 = syntheticPhaseStart(slot);
  for (std::uint32_t rank = 0; rank < plan.ranks(); ++rank) {
    result.ranks.push_back(syntheticRecord(plan, phase, rank, t0, failures));
    ok += result.ranks.back().ok;
  }
  addSyntheticLatencies(result.latency, phase, ok);
  // Throughput over time: `intervals` intervals covering the longest rank's time; each rank's count spread
  // evenly over the intervals its own time reaches into (the remainder in its last), as collectSeries hands
  // them to rank 0.
  double longest = 0.0;
  for (const RankPhaseRecord& r : result.ranks) longest = std::max(longest, r.t_local_end - r.t_start);
  const std::uint32_t n = std::max<std::uint32_t>(intervals, 1);
  result.series.interval_s = (longest > 0.0 ? longest : 1.0) / n;
  result.series.intervals = n;
  result.series.total.assign(n, 0);
  result.series.per_rank.assign(static_cast<std::size_t>(n) * result.ranks.size(), 0);
  for (std::size_t rank = 0; rank < result.ranks.size(); ++rank) {
    const RankPhaseRecord& r = result.ranks[rank];
    const auto reached = static_cast<std::uint32_t>(std::clamp(
        std::ceil((r.t_local_end - r.t_start) / result.series.interval_s), 1.0, static_cast<double>(n)));
    const std::uint64_t each = r.ok / reached;
    for (std::uint32_t i = 0; i < reached; ++i) {
      const auto count = static_cast<std::uint32_t>(i + 1 < reached ? each : r.ok - each * (reached - 1));
      result.series.per_rank[rank * n + i] = count;
      result.series.total[i] += count;
    }
  }
  return result;
}

}  // namespace mdbench::bench
