#include "mdbench/model/stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mdbench {

namespace {

void checkBucket(std::size_t bucket) {
  // A bad index is a programmer error; kept on in release builds (STYLE.md, Errors).
  if (bucket >= LatencyHistogram::kBuckets) {
    throw std::out_of_range(
        fmt::format("LatencyHistogram bucket {} out of range (< {})", bucket, LatencyHistogram::kBuckets));
  }
}

}  // namespace

// Inverse of bucketOf. Bucket b >= kSub belongs to the power-of-two range starting at 2^m with
// m = b / kSub + kSubBits - 1 (bucketOf's group index is msb - kSubBits + 1), and is sub-bucket b % kSub of
// the kSub equal slices of width 2^(m - kSubBits) in that range.
std::uint64_t LatencyHistogram::bucketLow(std::size_t bucket) {
  checkBucket(bucket);
  if (bucket < kSub) return bucket;
  const unsigned msb = static_cast<unsigned>(bucket / kSub) + kSubBits - 1;
  const std::uint64_t sub = bucket % kSub;
  return (std::uint64_t{1} << msb) + (sub << (msb - kSubBits));
}

std::uint64_t LatencyHistogram::bucketHigh(std::size_t bucket) {
  checkBucket(bucket);
  // The last bucket also takes everything from 2^kMaxBits up.
  if (bucket == kBuckets - 1) return std::numeric_limits<std::uint64_t>::max();
  if (bucket < kSub) return bucket;
  return bucketLow(bucket + 1) - 1;
}

LatencyHistogram& LatencyHistogram::operator+=(const LatencyHistogram& other) {
  for (std::size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
  return *this;
}

std::uint64_t LatencyHistogram::count() const {
  std::uint64_t n = 0;
  for (const std::uint64_t c : counts_) n += c;
  return n;
}

std::uint64_t LatencyHistogram::quantile(double q) const {
  const std::uint64_t n = count();
  if (n == 0) return 0;
  // NaN compares false both ways and ends up as the smallest rank.
  const double clamped = std::clamp(std::isnan(q) ? 0.0 : q, 0.0, 1.0);
  const double wanted = std::ceil(clamped * static_cast<double>(n));
  // Rounding in q * n must not push the rank past the last sample.
  std::uint64_t rank = wanted >= static_cast<double>(n) ? n : static_cast<std::uint64_t>(wanted);
  rank = std::max<std::uint64_t>(rank, 1);

  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < kBuckets; ++b) {
    seen += counts_[b];
    if (seen >= rank) return bucketHigh(b);
  }
  return bucketHigh(kBuckets - 1);  // unreachable: seen reaches n >= rank
}

std::uint64_t LatencyHistogram::minBound() const {
  for (std::size_t b = 0; b < kBuckets; ++b) {
    if (counts_[b] != 0) return bucketLow(b);
  }
  return 0;
}

std::uint64_t LatencyHistogram::maxBound() const {
  for (std::size_t b = kBuckets; b-- > 0;) {
    if (counts_[b] != 0) return bucketHigh(b);
  }
  return 0;
}

void RunningStats::add(double x) {
  ++n_;
  const double delta = x - mean_;
  mean_ += delta / static_cast<double>(n_);
  m2_ += delta * (x - mean_);
  min_ = std::min(min_, x);
  max_ = std::max(max_, x);
}

RunningStats& RunningStats::operator+=(const RunningStats& other) {
  if (other.n_ == 0) return *this;
  if (n_ == 0) {
    *this = other;
    return *this;
  }
  const double na = static_cast<double>(n_);
  const double nb = static_cast<double>(other.n_);
  const double n = na + nb;
  const double delta = other.mean_ - mean_;
  mean_ += delta * nb / n;
  m2_ += other.m2_ + delta * delta * na * nb / n;
  n_ += other.n_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  return *this;
}

double RunningStats::sampleVariance() const {
  if (n_ < 2) return 0.0;
  return m2_ / static_cast<double>(n_ - 1);
}

double RunningStats::sampleStddev() const { return std::sqrt(sampleVariance()); }

}  // namespace mdbench
