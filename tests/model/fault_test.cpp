// The stall across ranks (union of completions: intersection of gaps) and the recovery from the series.
#include "mdbench/model/fault.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace mdbench {
namespace {

constexpr double kOpen = std::numeric_limits<double>::infinity();

TEST(CommonStall, IsTheLongestIntervalInAGapOfEveryRank) {
  // Rank 0 idles [1, 3], rank 1 idles [2, 4]: no rank completes anything in [2, 3] only.
  const std::vector<std::vector<Gap>> gaps = {{{1.0, 3.0}, {5.0, kOpen}}, {{2.0, 4.0}, {5.5, kOpen}}};
  const PhaseStall s = commonStall(gaps, 0.0, 6.0, 0.001);
  EXPECT_TRUE(s.measured);
  EXPECT_DOUBLE_EQ(s.stall_s, 1.0);
  EXPECT_DOUBLE_EQ(s.t_start, 2.0);
  EXPECT_DOUBLE_EQ(s.t_end, 3.0);
  // The open gaps after the last completions overlap from 5.5 to the phase's end at 6: 0.5 s.
  EXPECT_DOUBLE_EQ(commonStall({{{5.0, kOpen}}, {{5.5, kOpen}}}, 0.0, 6.0, 0.001).stall_s, 0.5);
}

TEST(CommonStall, OneRankWorkingMeansNoStall) {
  const PhaseStall s = commonStall({{{1.0, 3.0}}, {}}, 0.0, 6.0, 0.001);
  EXPECT_DOUBLE_EQ(s.stall_s, 0.0);
}

TEST(GapRecorder, KeepsGapsOverTheThresholdAndStaysBounded) {
  GapRecorder r;
  r.begin(0, 0);
  r.done(500'000);     // 0.5 ms: not kept
  r.done(10'500'000);  // a 10 ms gap: kept
  r.finish();
  ASSERT_EQ(r.gaps().size(), 2U);
  EXPECT_NEAR(r.gaps()[0].to - r.gaps()[0].from, 0.010, 1e-9);
  EXPECT_TRUE(std::isinf(r.gaps()[1].to));
  r.begin(0, 0);
  std::int64_t t = 0;
  for (int i = 0; i < 20'000; ++i) r.done(t += 2'000'000 + i);  // ever-longer gaps over 1 ms
  EXPECT_LE(r.gaps().size(), GapRecorder::kMaxGaps);
  EXPECT_GT(r.thresholdNs(), GapRecorder::kFirstThresholdNs);
}

TEST(Recovery, FirstSecondAtHalfTheMedianRate) {
  OpsSeries s;
  s.interval_s = 0.5;
  // 100 ops per 0.5 s for 3 s, nothing for 2 s from the fault at 3 s, then 100 again.
  for (double t = 0; t < 8.0; t += 0.5) s.total.push_back(t >= 3.0 && t < 5.0 ? 0 : 100);
  s.intervals = static_cast<std::uint32_t>(s.total.size());
  EXPECT_DOUBLE_EQ(recoverySeconds(s, 3.0, 8.0), 2.0);
  EXPECT_TRUE(std::isnan(recoverySeconds(s, 0.5, 8.0)));  // no whole second before the fault
  // A command that takes 0.5 s to act: the window [2.5, 3.5) still holds 100 ops (>= half of 200), then
  // [3.5, 4.5) none, [4.5, 5.5) 100 again: recovery 2 s after the fault, not 0.
  EXPECT_DOUBLE_EQ(recoverySeconds(s, 2.5, 8.0), 2.0);
  // No dip at all: recovered at once.
  std::vector<std::uint64_t> steady(16, 100);
  OpsSeries flat = s;
  flat.total = steady;
  EXPECT_DOUBLE_EQ(recoverySeconds(flat, 3.0, 8.0), 0.0);
  std::fill(s.total.begin() + 6, s.total.end(), 0);
  EXPECT_DOUBLE_EQ(recoverySeconds(s, 3.0, 8.0), FaultRecord::kNotRecovered);
}

}  // namespace
}  // namespace mdbench
