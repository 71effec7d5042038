// Mergeable statistics with no I/O: a log-linear latency histogram and Welford running moments.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

namespace mdbench {

// Latencies in nanoseconds in fixed log-linear buckets (HDR-style): values below 2^kSubBits get one
// bucket each; above, every power-of-two range [2^m, 2^(m+1)) is split into 2^kSubBits equal buckets,
// so a bucket's width is at most 1/2^kSubBits (6.25%) of its lower bound. The bucket index is computed
// with bit operations only. Two histograms merge with +=, and across ranks by summing counts() element
// by element (one MPI_Reduce). Values of 2^kMaxBits ns (about 18 minutes) and more land in the last bucket.
class LatencyHistogram {
 public:
  static constexpr unsigned kSubBits = 4;
  static constexpr unsigned kMaxBits = 40;
  static constexpr std::size_t kSub = std::size_t{1} << kSubBits;
  static constexpr std::size_t kBuckets = kSub + (kMaxBits - kSubBits) * kSub;  // 592

  static std::size_t bucketOf(std::uint64_t ns) {
    if (ns < kSub) return static_cast<std::size_t>(ns);
    const unsigned msb = 63u - static_cast<unsigned>(__builtin_clzll(ns));
    if (msb >= kMaxBits) return kBuckets - 1;
    const unsigned shift = msb - kSubBits;
    return static_cast<std::size_t>((msb - kSubBits + 1) * kSub + ((ns >> shift) & (kSub - 1)));
  }
  static std::uint64_t bucketLow(std::size_t bucket);   // smallest value in the bucket
  static std::uint64_t bucketHigh(std::size_t bucket);  // largest value in the bucket

  void add(std::uint64_t ns) { ++counts_[bucketOf(ns)]; }
  LatencyHistogram& operator+=(const LatencyHistogram& other);

  std::uint64_t count() const;
  // Value at quantile q in [0, 1]: the upper bound of the bucket holding the ceil(q * count)-th smallest
  // sample (so the true value is at most this, and at least bucketLow of the same bucket). 0 if empty.
  std::uint64_t quantile(double q) const;
  // Smallest / largest recorded value's bucket bounds; 0 if empty.
  std::uint64_t minBound() const;
  std::uint64_t maxBound() const;

  std::span<std::uint64_t, kBuckets> counts() { return counts_; }
  std::span<const std::uint64_t, kBuckets> counts() const { return counts_; }

 private:
  std::array<std::uint64_t, kBuckets> counts_{};
};

// Welford's running mean and variance; merges with Chan et al.'s parallel formula.
class RunningStats {
 public:
  void add(double x);
  RunningStats& operator+=(const RunningStats& other);
  std::uint64_t count() const { return n_; }
  double mean() const { return n_ ? mean_ : 0.0; }
  double sampleVariance() const;  // n-1 in the denominator; 0 for fewer than two samples
  double sampleStddev() const;
  double min() const { return n_ ? min_ : 0.0; }
  double max() const { return n_ ? max_ : 0.0; }

 private:
  std::uint64_t n_ = 0;
  double mean_ = 0.0;
  double m2_ = 0.0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
};

}  // namespace mdbench
