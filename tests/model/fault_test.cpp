// The stall across ranks (union of completions: intersection of gaps), the recovery from the series, and
// their words (the console's failoverLines, the report's table).
#include "mdbench/model/fault.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "mdbench/model/result.hpp"

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

// A phase whose rank 0 started at 10 s since the epoch; the stall from 11.234 s to 11.746 s.
PhaseResult failoverPhase() {
  PhaseResult r;
  RankPhaseRecord rank;
  rank.planned = rank.ok = 100;
  rank.failed = 2;
  rank.t_start = 10.0;
  rank.t_local_end = 13.0;
  r.ranks = {rank};
  r.latency.add(515'000'000);
  r.stall = {true, 0.512, 11.234, 11.746, 0.001};
  FaultRecord injected;
  injected.at_s = 1.2;
  injected.command = "kill -STOP 1";
  injected.injected = true;
  injected.t_start = 1.2034;
  injected.exit_status = 0;
  injected.recovery_s = 1.0;
  FaultRecord late;
  late.at_s = 100;
  late.command = "true";
  r.faults = {injected, late};
  return r;
}

TEST(FailoverWords, StallFaultsAndRecoveryAsTheConsoleAndTheReportSayThem) {
  const PhaseResult r = failoverPhase();
  const StallSpan span = stallIntoPhase(r.stall, 10.0);
  EXPECT_NEAR(span.from, 1.234, 1e-9);
  EXPECT_NEAR(span.to, 1.746, 1e-9);
  EXPECT_EQ(stallText(r.stall, 10.0), "0.512 s (1.234-1.746 s into the phase)");
  EXPECT_EQ(stallText({true, 0.0, 0.0, 0.0, 0.002}, 10.0), "under 0.002 s");
  EXPECT_EQ(stallText(PhaseStall{}, 10.0), "not measured");
  EXPECT_TRUE(hasStall(r.stall));
  EXPECT_FALSE(hasStall({true, 0.0, 0.0, 0.0, 0.002}));
  // Not longer than its resolution: the moments after a rank's last completion, not a stall to show.
  EXPECT_FALSE(hasStall({true, 0.0004, 10.1, 10.1004, 0.001}));
  EXPECT_EQ(stallText({true, 0.0004, 10.1, 10.1004, 0.001}, 10.0), "under 0.001 s");
  EXPECT_FALSE(hasStall({false, 0.512, 11.234, 11.746, 0.001}));
  EXPECT_EQ(faultOutcomeText(r.faults[0]), "started at 1.203 s, exit status 0");
  EXPECT_EQ(faultOutcomeText(r.faults[1]), "the fault was not injected (the phase ended first)");
  FaultRecord failed = r.faults[0];
  failed.problem = "exit status 3";
  EXPECT_EQ(faultOutcomeText(failed), "started at 1.203 s, exit status 3");
  EXPECT_EQ(recoveryText(1.0), "1 s");
  EXPECT_EQ(recoveryText(FaultRecord::kNotRecovered), "not recovered within the phase");
  EXPECT_EQ(recoveryText(std::nan("")), "not measured");
  const std::vector<std::string> lines = failoverLines(r);
  ASSERT_EQ(lines.size(), 3U);
  // The latency max is its histogram bucket's bound: about 0.515 s.
  EXPECT_TRUE(
      lines[0].starts_with("stall 0.512 s (1.234-1.746 s into the phase), 2 failed ops, latency max 0.5"))
      << lines[0];
  EXPECT_EQ(lines[1], "fault 1 at 1.2 s: started at 1.203 s, exit status 0, recovery 1 s: kill -STOP 1");
  EXPECT_EQ(lines[2], "fault 2 at 100 s: the fault was not injected (the phase ended first): true");
  PhaseResult none = r;
  none.faults.clear();
  EXPECT_TRUE(failoverLines(none).empty());
}

}  // namespace
}  // namespace mdbench
