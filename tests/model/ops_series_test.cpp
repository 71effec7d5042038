// SeriesRecorder: ops counted per interval, merged in pairs when full, coarsened to a common interval.
#include "mdbench/model/ops_series.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace mdbench {
namespace {

constexpr std::int64_t kMs = 1'000'000;

// Feeds ops completing at the given times (ns after t_start = 0), as the runner's loop does: the check
// comes before the op that completed at `now` is counted.
SeriesRecorder record(const std::vector<std::int64_t>& completions, std::int64_t interval, std::int64_t end) {
  SeriesRecorder series;
  series.begin(0, interval);
  std::uint64_t ok = 0;
  for (const std::int64_t now : completions) {
    if (now >= series.nextBoundary()) series.tick(now, ok);
    ++ok;
  }
  series.finish(end, ok);
  return series;
}

TEST(SeriesRecorder, CountsEachOpInTheIntervalItCompletedIn) {
  // 100 ms intervals: 3 ops in the first, none in the second, 2 in the third, 1 in a partial fourth.
  const SeriesRecorder s =
      record({10 * kMs, 50 * kMs, 99 * kMs, 200 * kMs, 250 * kMs, 301 * kMs}, 100 * kMs, 320 * kMs);
  EXPECT_EQ(s.counts(), (std::vector<std::uint32_t>{3, 0, 2, 1}));
  EXPECT_EQ(s.intervalNs(), 100 * kMs);
}

TEST(SeriesRecorder, AnOpOnABoundaryBelongsToTheNextInterval) {
  const SeriesRecorder s = record({100 * kMs, 100 * kMs + 1}, 100 * kMs, 150 * kMs);
  EXPECT_EQ(s.counts(), (std::vector<std::uint32_t>{0, 2}));
}

TEST(SeriesRecorder, EndingOnABoundaryAddsNoEmptyInterval) {
  EXPECT_EQ(record({50 * kMs, 150 * kMs}, 100 * kMs, 200 * kMs).counts(), (std::vector<std::uint32_t>{1, 1}));
  // A rank with nothing to do and no time: no interval at all.
  EXPECT_TRUE(record({}, 100 * kMs, 0).counts().empty());
  // Time passed but no op: its intervals are zeros.
  EXPECT_EQ(record({}, 100 * kMs, 250 * kMs).counts(), (std::vector<std::uint32_t>{0, 0, 0}));
}

TEST(SeriesRecorder, MergesPairsWhenFullAndKeepsEveryOp) {
  // One op per millisecond for 3000 ms at 1 ms intervals: 3000 intervals do not fit in 1024, so the
  // interval doubles twice (4 ms: 750 intervals of 4 ops).
  std::vector<std::int64_t> times;
  for (std::int64_t t = 0; t < 3000; ++t) times.push_back(t * kMs + kMs / 2);
  const SeriesRecorder s = record(times, kMs, 3000 * kMs);
  EXPECT_EQ(s.intervalNs(), 4 * kMs);
  ASSERT_EQ(s.counts().size(), 750u);
  for (const std::uint32_t c : s.counts()) EXPECT_EQ(c, 4u);
  EXPECT_LE(s.counts().size(), SeriesRecorder::kMaxIntervals);
}

TEST(SeriesRecorder, CoarsensToACommonInterval) {
  SeriesRecorder s = record({10 * kMs, 150 * kMs, 250 * kMs, 260 * kMs, 410 * kMs}, 100 * kMs, 420 * kMs);
  ASSERT_EQ(s.counts(), (std::vector<std::uint32_t>{1, 1, 2, 0, 1}));
  s.coarsenTo(400 * kMs);
  EXPECT_EQ(s.intervalNs(), 400 * kMs);
  EXPECT_EQ(s.counts(), (std::vector<std::uint32_t>{4, 1}));
  s.coarsenTo(100 * kMs);  // never finer
  EXPECT_EQ(s.counts(), (std::vector<std::uint32_t>{4, 1}));
}

TEST(SeriesRecorder, SumsToTheOpCountWhateverTheTiming) {
  std::vector<std::int64_t> times;
  std::int64_t t = 0;
  for (int i = 0; i < 20000; ++i) times.push_back(t += (i * 7919) % 997 * 1000);  // irregular gaps
  const SeriesRecorder s = record(times, 3 * kMs, t + 5);
  EXPECT_EQ(std::accumulate(s.counts().begin(), s.counts().end(), std::uint64_t{0}), 20000u);
}

}  // namespace
}  // namespace mdbench
