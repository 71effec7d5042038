// Throughput over time: every rank counts its successful ops per fixed interval of a phase, so that stalls,
// stragglers and a slowing metadata server show up as a shape, not only as a lower average.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace mdbench {

// One rank's counts for one phase. Interval k covers [t_start + k * interval, t_start + (k + 1) * interval)
// on the rank's clock; the last one ends at the rank's t_local_end and may be shorter. An op counts in the
// interval in which it completed. At most kMaxIntervals are kept: when a phase runs longer, neighbouring
// intervals are merged in pairs and the interval doubles, so memory stays bounded (4 KiB per rank and
// phase) and the series of a long phase still spans all of it.
class SeriesRecorder {
 public:
  static constexpr std::size_t kMaxIntervals = 1024;
  static constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

  // A phase starts at t_start_ns with intervals of interval_ns (> 0).
  void begin(std::int64_t t_start_ns, std::int64_t interval_ns);
  // When the current interval ends: tick() is due once the clock reaches it.
  std::int64_t nextBoundary() const { return next_boundary_; }
  // now_ns >= nextBoundary(): closes every interval that ended by now_ns. `ok` is the count of successful
  // ops completed before now_ns (the op that completed at now_ns belongs to the interval now_ns is in).
  void tick(std::int64_t now_ns, std::uint64_t ok);
  // At t_local_end: closes the last interval (the phase's final count `ok`). Afterwards the counts sum to ok.
  void finish(std::int64_t end_ns, std::uint64_t ok);

  std::int64_t intervalNs() const { return interval_ns_; }
  const std::vector<std::uint32_t>& counts() const { return counts_; }
  // Merges intervals in pairs until the interval is interval_ns (this rank's times a power of two), so that
  // every rank of a phase reports at the same resolution.
  void coarsenTo(std::int64_t interval_ns);

 private:
  void close(std::uint64_t ok);  // the current interval ends: appended, or (when full) pairs merged
  void mergePairs();
  void push(std::uint64_t ok);
  std::int64_t t_start_ns_ = 0;
  std::int64_t interval_ns_ = 1;
  std::int64_t next_boundary_ = kNever;
  std::uint64_t ok_at_boundary_ = 0;
  std::vector<std::uint32_t> counts_;
};

// A phase's series on rank 0, after every rank coarsened to the same interval: per_rank holds ranks x
// intervals counts, row-major (rank r's interval k at r * intervals + k; a rank that finished earlier has
// zeros after its last interval); total the sum over ranks of each interval.
struct OpsSeries {
  double interval_s = 0.0;
  std::uint32_t intervals = 0;
  std::vector<std::uint32_t> per_rank;
  std::vector<std::uint64_t> total;
};

}  // namespace mdbench
