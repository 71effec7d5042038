#include "mdbench/model/rate_timing.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "mdbench/model/result.hpp"

namespace mdbench {
namespace {

RankPhaseRecord rank(std::uint64_t planned, std::uint64_t ok, double t_end) {
  RankPhaseRecord r;
  r.planned = planned;
  r.ok = ok;
  r.t_start = 0.0;
  r.t_local_end = t_end;
  r.t_global_end = t_end;
  return r;
}

PhaseResult phase(Phase which, std::vector<RankPhaseRecord> ranks) {
  PhaseResult p;
  p.phase = which;
  p.ranks = std::move(ranks);
  return p;
}

TEST(RateTiming, ThresholdsAreEachEnough) {
  EXPECT_TRUE(tooShortToTime({.ops = 18, .ops_per_rank = 9, .time_s = 5.0}));          // few ops per rank
  EXPECT_TRUE(tooShortToTime({.ops = 2000, .ops_per_rank = 1000, .time_s = 0.0099}));  // short time
  EXPECT_FALSE(tooShortToTime({.ops = 20, .ops_per_rank = 10, .time_s = 0.01}));       // at both: timed
  EXPECT_FALSE(tooShortToTime({.ops = 2000, .ops_per_rank = 1000, .time_s = 2.0}));
}

TEST(RateTiming, UnknownHalvesDoNotApply) {
  // An import without a time table knows neither.
  EXPECT_FALSE(tooShortToTime({}));
  EXPECT_TRUE(tooShortToTime({.ops = 0, .ops_per_rank = 0, .time_s = 0.002}));
  EXPECT_TRUE(tooShortToTime({.ops = 3, .ops_per_rank = 3, .time_s = 0.0}));
}

TEST(RateTiming, SizeCountsRanksWithWork) {
  // A shared tree's tree-create: rank 0 alone makes the one directory; the rule judges 1 op per rank.
  const PhaseResult tree = phase(Phase::kTreeCreate, {rank(1, 1, 0.5), rank(0, 0, 0.5), rank(0, 0, 0.5)});
  const PhaseSize size = phaseSize(tree);
  EXPECT_DOUBLE_EQ(size.ops, 1.0);
  EXPECT_DOUBLE_EQ(size.ops_per_rank, 1.0);
  EXPECT_DOUBLE_EQ(size.time_s, 0.5);
  EXPECT_TRUE(tooShortToTime(size));
  // Two ranks of 40 ops in 2 s: 40 per rank, long enough.
  EXPECT_FALSE(tooShortToTime(phaseSize(phase(Phase::kDirStat, {rank(40, 40, 2.0), rank(40, 40, 2.0)}))));
}

// What is judged is the time the operations took, not the barriers: the issue's -z 2 -b 3 first phase,
// 13 mkdirs in 70 us by rank 0, and a closing barrier that took 57 ms (MPI's first connections).
TEST(RateTiming, TheRanksTimeNotTheBarriers) {
  RankPhaseRecord maker = rank(13, 13, 0.00007);
  maker.t_global_end = 0.057;
  RankPhaseRecord idle = rank(0, 0, 0.0);
  idle.t_global_end = 0.057;
  const PhaseResult tree = phase(Phase::kTreeCreate, {maker, idle});
  EXPECT_DOUBLE_EQ(aggregate(tree.ranks).time_s, 0.057);
  EXPECT_DOUBLE_EQ(slowestRankTime(tree.ranks), 0.00007);
  const PhaseSize size = phaseSize(tree);
  EXPECT_DOUBLE_EQ(size.time_s, 0.00007);
  EXPECT_TRUE(tooShortToTime(size));
  EXPECT_EQ(tooShortText(size), "too short: 13 ops in 70 us");
  // Not known (no rank with work): the barrier-to-barrier time.
  PhaseAggregate agg;
  agg.ok = 0;
  agg.time_s = 0.5;
  EXPECT_DOUBLE_EQ(phaseSize(agg, 0.0, 2).time_s, 0.5);
}

TEST(RateTiming, TextNamesCountsAndTime) {
  EXPECT_EQ(tooShortText({.ops = 26, .ops_per_rank = 13, .time_s = 0.000812}),
            "too short: 26 ops (13 per rank) in 812 us");
  EXPECT_EQ(tooShortText({.ops = 1, .ops_per_rank = 1, .time_s = 0.0123}), "too short: 1 op in 12.3 ms");
  EXPECT_EQ(tooShortCounts({.ops = 40, .ops_per_rank = 40, .time_s = 0.0008}), "40 ops in 800 us");
  EXPECT_EQ(tooShortText({.ops = 6.5, .ops_per_rank = 6.5, .time_s = 0.0}), "too short: 6.5 ops");
  EXPECT_EQ(tooShortThresholdText(), "fewer than 10 ops per rank or under 10 ms");
}

TEST(RateTiming, MeanOverIterations) {
  RunResult run;
  run.phases.push_back(phase(Phase::kDirStat, {rank(40, 40, 0.004), rank(40, 40, 0.004)}));
  run.phases.push_back(phase(Phase::kDirStat, {rank(40, 40, 0.012), rank(40, 40, 0.012)}));
  run.phases.push_back(phase(Phase::kFileStat, {rank(40, 40, 1.0), rank(40, 40, 1.0)}));
  const PhaseSize size = meanPhaseSize(run, Phase::kDirStat);
  EXPECT_DOUBLE_EQ(size.ops, 80.0);
  EXPECT_DOUBLE_EQ(size.ops_per_rank, 40.0);
  EXPECT_DOUBLE_EQ(size.time_s, 0.008);
  EXPECT_TRUE(tooShortToTime(size));  // the mean of 4 ms and 12 ms is under 10 ms
  EXPECT_FALSE(tooShortToTime(meanPhaseSize(run, Phase::kFileStat)));
  EXPECT_FALSE(tooShortToTime(meanPhaseSize(run, Phase::kFileCreate)));  // not run: nothing to judge
}

TEST(RateTiming, DurationText) {
  EXPECT_EQ(durationText(0.00085), "850 us");
  EXPECT_EQ(durationText(0.0123), "12.3 ms");
  EXPECT_EQ(durationText(1.5), "1.5 s");
}

}  // namespace
}  // namespace mdbench
