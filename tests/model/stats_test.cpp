#include "mdbench/model/stats.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace mdbench {
namespace {

using H = LatencyHistogram;
constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

TEST(LatencyHistogramBuckets, BucketCountMatchesLayout) {
  EXPECT_EQ(H::kBuckets, 592u);
  // The last regular range [2^39, 2^40) ends exactly at the last bucket.
  EXPECT_EQ(H::bucketOf((std::uint64_t{1} << H::kMaxBits) - 1), H::kBuckets - 1);
}

TEST(LatencyHistogramBuckets, EveryBucketIsConsistentAndContiguous) {
  std::uint64_t expected_low = 0;
  for (std::size_t b = 0; b < H::kBuckets; ++b) {
    SCOPED_TRACE(b);
    const std::uint64_t lo = H::bucketLow(b);
    const std::uint64_t hi = H::bucketHigh(b);
    EXPECT_EQ(lo, expected_low);  // starts at 0, no gaps, no overlaps
    EXPECT_LE(lo, hi);
    EXPECT_EQ(H::bucketOf(lo), b);
    EXPECT_EQ(H::bucketOf(hi), b);
    if (b + 1 < H::kBuckets) {
      EXPECT_EQ(hi + 1, H::bucketLow(b + 1));
    } else {
      EXPECT_EQ(hi, kU64Max);
    }
    expected_low = hi + 1;
  }
}

TEST(LatencyHistogramBuckets, SmallValuesAreExact) {
  for (std::uint64_t v = 0; v < H::kSub; ++v) {
    EXPECT_EQ(H::bucketOf(v), v);
    EXPECT_EQ(H::bucketLow(v), v);
    EXPECT_EQ(H::bucketHigh(v), v);
  }
}

TEST(LatencyHistogramBuckets, KnownBoundaries) {
  EXPECT_EQ(H::bucketOf(16), 16u);
  EXPECT_EQ(H::bucketOf(31), 31u);
  EXPECT_EQ(H::bucketOf(32), 32u);
  EXPECT_EQ(H::bucketOf(33), 32u);
  EXPECT_EQ(H::bucketLow(32), 32u);
  EXPECT_EQ(H::bucketHigh(32), 33u);
  EXPECT_EQ(H::bucketOf(1000), 111u);                // range [512,1024) is group 6, slice 15
  EXPECT_EQ(H::bucketLow(H::bucketOf(1000)), 992u);  // [512,1024) in slices of 32
  EXPECT_EQ(H::bucketHigh(H::bucketOf(1000)), 1023u);
  EXPECT_EQ(H::bucketLow(H::kBuckets - 1), (std::uint64_t{1} << 39) + (std::uint64_t{15} << 35));
}

TEST(LatencyHistogramBuckets, RelativeWidthAtMostOneSixteenthAbove16) {
  // The last bucket is open-ended and excluded.
  for (std::size_t b = H::kSub; b + 1 < H::kBuckets; ++b) {
    SCOPED_TRACE(b);
    const std::uint64_t lo = H::bucketLow(b);
    const std::uint64_t width = H::bucketHigh(b) - lo + 1;
    EXPECT_LE(width * H::kSub, lo);
  }
}

TEST(LatencyHistogramBuckets, HugeValuesGoToTheLastBucket) {
  const std::size_t last = H::kBuckets - 1;
  EXPECT_EQ(H::bucketOf(std::uint64_t{1} << H::kMaxBits), last);
  EXPECT_EQ(H::bucketOf((std::uint64_t{1} << H::kMaxBits) + 12345), last);
  EXPECT_EQ(H::bucketOf(std::uint64_t{1} << 63), last);
  EXPECT_EQ(H::bucketOf(kU64Max), last);
}

TEST(LatencyHistogramBuckets, OutOfRangeBucketIsAnError) {
  EXPECT_THROW(H::bucketLow(H::kBuckets), std::out_of_range);
  EXPECT_THROW(H::bucketHigh(H::kBuckets), std::out_of_range);
}

TEST(LatencyHistogramBuckets, RandomValuesFallInsideTheirBucket) {
  std::mt19937_64 rng(20260101);
  for (int i = 0; i < 200000; ++i) {
    // Random magnitude first so every power-of-two range is hit, not just the top ones.
    const unsigned bits = static_cast<unsigned>(rng() % 65);
    const std::uint64_t mask = bits == 64 ? kU64Max : (std::uint64_t{1} << bits) - 1;
    const std::uint64_t v = rng() & mask;
    const std::size_t b = H::bucketOf(v);
    ASSERT_LT(b, H::kBuckets) << v;
    ASSERT_LE(H::bucketLow(b), v) << v;
    ASSERT_GE(H::bucketHigh(b), v) << v;
  }
}

H oneToThousand() {
  H h;
  for (std::uint64_t v = 1; v <= 1000; ++v) h.add(v);
  return h;
}

bool bucketHolds(std::uint64_t bucket_high, std::uint64_t v) {
  const std::size_t b = H::bucketOf(bucket_high);
  return H::bucketLow(b) <= v && v <= H::bucketHigh(b);
}

TEST(LatencyHistogram, QuantilesOfOneToThousand) {
  const H h = oneToThousand();
  EXPECT_EQ(h.count(), 1000u);
  EXPECT_TRUE(bucketHolds(h.quantile(0.5), 500));
  EXPECT_TRUE(bucketHolds(h.quantile(0.99), 990));
  EXPECT_TRUE(bucketHolds(h.quantile(1.0), 1000));
  EXPECT_EQ(h.quantile(0.5), 511u);   // 500 is in [496, 511]
  EXPECT_EQ(h.quantile(0.99), 991u);  // 990 is in [960, 991]
  EXPECT_EQ(h.quantile(1.0), 1023u);
  EXPECT_EQ(h.quantile(0.0), 1u);     // rank at least 1: the smallest sample
  EXPECT_EQ(h.quantile(0.0005), 1u);  // rank ceil(0.5) = 1
  EXPECT_EQ(h.quantile(0.0015), 2u);  // rank ceil(1.5) = 2
  EXPECT_EQ(h.minBound(), 1u);
  EXPECT_EQ(h.maxBound(), 1023u);
}

TEST(LatencyHistogram, QuantileClampsOutOfRangeArguments) {
  const H h = oneToThousand();
  EXPECT_EQ(h.quantile(-1.0), h.quantile(0.0));
  EXPECT_EQ(h.quantile(2.0), h.quantile(1.0));
  EXPECT_EQ(h.quantile(std::nan("")), h.quantile(0.0));
}

TEST(LatencyHistogram, QuantileRankIsCeilOfQTimesCount) {
  H h;
  h.add(100);  // added out of order on purpose
  h.add(10);
  h.add(70);
  h.add(40);
  EXPECT_EQ(h.quantile(0.25), 10u);  // rank 1: 10 has its own bucket
  EXPECT_EQ(h.quantile(0.26), 41u);  // rank 2: 40 is in [40, 41]
  EXPECT_EQ(h.quantile(0.5), 41u);
  EXPECT_EQ(h.quantile(0.75), 71u);   // rank 3: 70 is in [68, 71]
  EXPECT_EQ(h.quantile(0.76), 103u);  // rank 4: 100 is in [100, 103]
}

TEST(LatencyHistogram, SingleValue) {
  H h;
  h.add(7);
  EXPECT_EQ(h.count(), 1u);
  EXPECT_EQ(h.quantile(0.0), 7u);
  EXPECT_EQ(h.quantile(0.5), 7u);
  EXPECT_EQ(h.quantile(1.0), 7u);
  EXPECT_EQ(h.minBound(), 7u);
  EXPECT_EQ(h.maxBound(), 7u);
}

TEST(LatencyHistogram, HugeValueBoundsAreOpenEnded) {
  H h;
  h.add(kU64Max);
  EXPECT_EQ(h.maxBound(), kU64Max);
  EXPECT_EQ(h.quantile(1.0), kU64Max);
  EXPECT_EQ(h.minBound(), H::bucketLow(H::kBuckets - 1));
}

TEST(LatencyHistogram, EmptyIsAllZero) {
  const H h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.quantile(0.0), 0u);
  EXPECT_EQ(h.quantile(0.5), 0u);
  EXPECT_EQ(h.quantile(1.0), 0u);
  EXPECT_EQ(h.minBound(), 0u);
  EXPECT_EQ(h.maxBound(), 0u);
}

TEST(LatencyHistogram, MergeEqualsAddingEverythingToOne) {
  std::mt19937_64 rng(42);
  H a, b, all;
  for (int i = 0; i < 5000; ++i) {
    const unsigned shift = static_cast<unsigned>(rng() % 64);
    const std::uint64_t v = rng() >> shift;
    (i % 3 == 0 ? a : b).add(v);
    all.add(v);
  }
  H merged = a;
  merged += b;
  EXPECT_EQ(merged.count(), all.count());
  for (std::size_t i = 0; i < H::kBuckets; ++i) EXPECT_EQ(merged.counts()[i], all.counts()[i]) << i;
  for (const double q : {0.0, 0.25, 0.5, 0.9, 0.99, 1.0}) EXPECT_EQ(merged.quantile(q), all.quantile(q));

  H with_empty = all;
  with_empty += H{};
  EXPECT_EQ(with_empty.count(), all.count());
}

const std::vector<double> kData = {3.5, -1.25, 1e6, 42.0, 0.001, 17.0, 17.0, 9.75, -300.0, 123456.789, 2.0};

struct TwoPass {
  double mean = 0, variance = 0, min = 0, max = 0;
};

TwoPass twoPass(const std::vector<double>& xs) {
  TwoPass t;
  for (const double x : xs) t.mean += x;
  t.mean /= static_cast<double>(xs.size());
  for (const double x : xs) t.variance += (x - t.mean) * (x - t.mean);
  t.variance /= static_cast<double>(xs.size() - 1);
  t.min = *std::min_element(xs.begin(), xs.end());
  t.max = *std::max_element(xs.begin(), xs.end());
  return t;
}

void expectMatches(const RunningStats& s, const TwoPass& t, std::size_t n) {
  EXPECT_EQ(s.count(), n);
  EXPECT_NEAR(s.mean(), t.mean, 1e-12 * std::abs(t.mean));
  EXPECT_NEAR(s.sampleVariance(), t.variance, 1e-12 * t.variance);
  EXPECT_NEAR(s.sampleStddev(), std::sqrt(t.variance), 1e-12 * std::sqrt(t.variance));
  EXPECT_EQ(s.min(), t.min);
  EXPECT_EQ(s.max(), t.max);
}

TEST(RunningStats, MatchesTwoPass) {
  RunningStats s;
  for (const double x : kData) s.add(x);
  expectMatches(s, twoPass(kData), kData.size());
}

TEST(RunningStats, KnownSmallCase) {
  RunningStats s;
  for (const double x : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) s.add(x);
  EXPECT_DOUBLE_EQ(s.mean(), 5.0);
  EXPECT_DOUBLE_EQ(s.sampleVariance(), 32.0 / 7.0);
  EXPECT_DOUBLE_EQ(s.min(), 2.0);
  EXPECT_DOUBLE_EQ(s.max(), 9.0);
}

TEST(RunningStats, MergeOfTwoHalvesEqualsWhole) {
  for (std::size_t split = 0; split <= kData.size(); ++split) {
    SCOPED_TRACE(split);
    RunningStats left, right;
    for (std::size_t i = 0; i < kData.size(); ++i) (i < split ? left : right).add(kData[i]);
    left += right;
    expectMatches(left, twoPass(kData), kData.size());
  }
}

TEST(RunningStats, EmptyAndSingle) {
  RunningStats s;
  EXPECT_EQ(s.count(), 0u);
  EXPECT_EQ(s.mean(), 0.0);
  EXPECT_EQ(s.sampleVariance(), 0.0);
  EXPECT_EQ(s.sampleStddev(), 0.0);
  EXPECT_EQ(s.min(), 0.0);
  EXPECT_EQ(s.max(), 0.0);
  s.add(-4.5);
  EXPECT_EQ(s.count(), 1u);
  EXPECT_EQ(s.mean(), -4.5);
  EXPECT_EQ(s.sampleVariance(), 0.0);
  EXPECT_EQ(s.min(), -4.5);
  EXPECT_EQ(s.max(), -4.5);

  RunningStats empty;
  empty += s;
  EXPECT_EQ(empty.count(), 1u);
  EXPECT_EQ(empty.mean(), -4.5);
  s += RunningStats{};
  EXPECT_EQ(s.count(), 1u);
  EXPECT_EQ(s.max(), -4.5);
}

}  // namespace
}  // namespace mdbench
