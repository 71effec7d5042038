#include "mdbench/model/metrics.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "mdbench/model/result.hpp"
#include "mdbench/model/run_result.hpp"
#include "mdbench/model/steady.hpp"

namespace mdbench {
namespace {

RankPhaseRecord record(std::uint64_t planned, std::uint64_t ok, std::uint64_t failed, double t_start,
                       double t_local_end, double t_global_end) {
  RankPhaseRecord r;
  r.planned = planned;
  r.ok = ok;
  r.failed = failed;
  r.t_start = t_start;
  r.t_local_end = t_local_end;
  r.t_global_end = t_global_end;
  return r;
}

TEST(RankRate, OkOverOwnTime) {
  EXPECT_DOUBLE_EQ(rankRate(record(100, 100, 0, 1.0, 1.5, 9.0)), 200.0);
  EXPECT_DOUBLE_EQ(rankRate(record(100, 90, 10, 1.0, 2.0, 9.0)), 90.0);  // failed ops not counted
}

TEST(RankRate, ZeroOrNegativeTimeIsZero) {
  EXPECT_EQ(rankRate(record(100, 100, 0, 2.0, 2.0, 2.0)), 0.0);
  EXPECT_EQ(rankRate(record(100, 100, 0, 2.0, 1.0, 2.0)), 0.0);
}

// Two ranks, 1 s intervals: rank 0 finishes 40 ops in 2.0 s; rank 1 does 10 ops per second for 5.5 s.
// At 2.0 s rank 1 had done its first two intervals (20 ops): first done = 60 ops in 2 s.
TEST(DoneRates, FirstDoneCountsEveryRanksOpsWhenTheFastestFinished) {
  const std::vector<RankPhaseRecord> ranks = {record(40, 40, 0, 0.0, 2.0, 5.6),
                                              record(55, 55, 0, 0.0, 5.5, 5.6)};
  OpsSeries series;
  series.interval_s = 1.0;
  series.intervals = 6;
  series.per_rank = {20, 20, 0, 0, 0, 0, 10, 10, 10, 10, 10, 5};
  const DoneRates d = doneRates(ranks, series);
  EXPECT_DOUBLE_EQ(d.first_done_time_s, 2.0);
  EXPECT_EQ(d.first_done_ops, 60u);
  EXPECT_DOUBLE_EQ(d.first_done_ops_per_s, 30.0);
  EXPECT_DOUBLE_EQ(d.last_done_time_s, 5.5);
  EXPECT_DOUBLE_EQ(d.last_done_ops_per_s, 95.0 / 5.5);
}

TEST(DoneRates, InterpolatesInsideTheIntervalAndItsRealLength) {
  // Rank 0 done at 1.25 s. Rank 1: interval 1 holds 8 ops, a quarter of it lies before 1.25 s: 10 + 2.
  // Rank 2's last interval [1, 1.5) is half long: half of it (0.25 of 0.5) lies before 1.25 s: 4 + 3.
  const std::vector<RankPhaseRecord> ranks = {
      record(5, 5, 0, 0.0, 1.25, 2.1), record(18, 18, 0, 0.0, 2.0, 2.1), record(10, 10, 0, 0.0, 1.5, 2.1)};
  OpsSeries series;
  series.interval_s = 1.0;
  series.intervals = 2;
  series.per_rank = {4, 1, 10, 8, 4, 6};
  const DoneRates d = doneRates(ranks, series);
  EXPECT_EQ(d.first_done_ops, 5u + 12u + 7u);
  EXPECT_DOUBLE_EQ(d.first_done_ops_per_s, 24.0 / 1.25);
}

TEST(DoneRates, WithoutASeriesAssumesAnEvenPaceAndIgnoresIdleRanks) {
  // Rank 2 had nothing planned (a shared tree phase): it neither finishes first nor counts.
  const std::vector<RankPhaseRecord> ranks = {
      record(10, 10, 0, 0.0, 1.0, 4.0), record(40, 40, 0, 0.0, 4.0, 4.0), record(0, 0, 0, 0.0, 0.0, 4.0)};
  const DoneRates d = doneRates(ranks, OpsSeries{});
  EXPECT_DOUBLE_EQ(d.first_done_time_s, 1.0);
  EXPECT_EQ(d.first_done_ops, 20u);
  EXPECT_DOUBLE_EQ(d.last_done_ops_per_s, 12.5);
  EXPECT_EQ(doneRates(std::vector<RankPhaseRecord>{record(0, 0, 0, 0, 0, 1)}, OpsSeries{}).first_done_ops,
            0u);
  EXPECT_EQ(
      doneRates(std::vector<RankPhaseRecord>{record(0, 0, 0, 0, 0, 1)}, OpsSeries{}).last_done_ops_per_s,
      0.0);
}

TEST(Aggregate, ThreeRanksExact) {
  std::vector<RankPhaseRecord> ranks = {
      record(100, 100, 0, 0.5, 1.5, 3.0),   // rate 100, barrier time 2.5 (slowest)
      record(100, 100, 0, 1.0, 1.5, 3.0),   // rate 200, barrier time 2.0
      record(100, 100, 0, 1.5, 2.75, 3.5),  // rate 80,  barrier time 2.0
  };
  ranks[0].bytes = 1000;
  ranks[1].bytes = 2000;
  ranks[2].bytes = 3000;
  const PhaseAggregate a = aggregate(ranks);
  EXPECT_EQ(a.ok, 300u);
  EXPECT_EQ(a.failed, 0u);
  EXPECT_EQ(a.bytes, 6000u);
  EXPECT_DOUBLE_EQ(a.time_s, 2.5);
  EXPECT_DOUBLE_EQ(a.ops_per_s, 120.0);
  EXPECT_EQ(a.active_ranks, 3u);
  EXPECT_DOUBLE_EQ(a.rank_rate_min, 80.0);
  EXPECT_DOUBLE_EQ(a.rank_rate_max, 200.0);
  EXPECT_DOUBLE_EQ(a.rank_rate_mean, 380.0 / 3.0);
  EXPECT_DOUBLE_EQ(a.balance, 0.4);
}

TEST(Aggregate, FailedOpsAreCountedButNotInRates) {
  const std::vector<RankPhaseRecord> ranks = {
      record(100, 90, 10, 0.0, 1.0, 2.0),  // rate 90
      record(100, 100, 0, 0.0, 2.0, 2.0),  // rate 50
  };
  const PhaseAggregate a = aggregate(ranks);
  EXPECT_EQ(a.ok, 190u);
  EXPECT_EQ(a.failed, 10u);
  EXPECT_DOUBLE_EQ(a.time_s, 2.0);
  EXPECT_DOUBLE_EQ(a.ops_per_s, 95.0);
  EXPECT_DOUBLE_EQ(a.rank_rate_min, 50.0);
  EXPECT_DOUBLE_EQ(a.rank_rate_max, 90.0);
  EXPECT_DOUBLE_EQ(a.rank_rate_mean, 70.0);
  EXPECT_DOUBLE_EQ(a.balance, 50.0 / 90.0);
}

TEST(Aggregate, InactiveRanksCountInTimeButNotInRankStats) {
  // Shared tree: only rank 0 builds it; the others wait in the barriers, and one waits longest.
  const std::vector<RankPhaseRecord> ranks = {
      record(10, 10, 0, 1.0, 2.0, 3.0),  // rate 10, barrier time 2
      record(0, 0, 0, 0.0, 0.0, 4.0),    // idle, barrier time 4
      record(0, 0, 0, 1.0, 1.0, 3.0),    // idle
  };
  const PhaseAggregate a = aggregate(ranks);
  EXPECT_EQ(a.ok, 10u);
  EXPECT_DOUBLE_EQ(a.time_s, 4.0);
  EXPECT_DOUBLE_EQ(a.ops_per_s, 2.5);
  EXPECT_EQ(a.active_ranks, 1u);
  EXPECT_DOUBLE_EQ(a.rank_rate_min, 10.0);
  EXPECT_DOUBLE_EQ(a.rank_rate_max, 10.0);
  EXPECT_DOUBLE_EQ(a.rank_rate_mean, 10.0);
  EXPECT_DOUBLE_EQ(a.balance, 1.0);
}

TEST(Aggregate, ActiveRankWithNothingDoneKeepsMinAtZero) {
  // A rank that was planned work but completed none is active: its rate 0 is real and shows imbalance.
  const std::vector<RankPhaseRecord> ranks = {
      record(10, 10, 0, 0.0, 1.0, 1.0),
      record(10, 0, 10, 0.0, 1.0, 1.0),
  };
  const PhaseAggregate a = aggregate(ranks);
  EXPECT_EQ(a.active_ranks, 2u);
  EXPECT_EQ(a.rank_rate_min, 0.0);
  EXPECT_DOUBLE_EQ(a.rank_rate_max, 10.0);
  EXPECT_DOUBLE_EQ(a.rank_rate_mean, 5.0);
  EXPECT_EQ(a.balance, 0.0);
  EXPECT_DOUBLE_EQ(a.ops_per_s, 10.0);
}

TEST(Aggregate, ZeroTimeGivesZeroRates) {
  const std::vector<RankPhaseRecord> ranks = {
      record(5, 5, 0, 2.0, 2.0, 2.0),
      record(5, 5, 0, 2.0, 2.0, 2.0),
  };
  const PhaseAggregate a = aggregate(ranks);
  EXPECT_EQ(a.ok, 10u);
  EXPECT_EQ(a.time_s, 0.0);
  EXPECT_EQ(a.ops_per_s, 0.0);
  EXPECT_EQ(a.active_ranks, 2u);
  EXPECT_EQ(a.rank_rate_min, 0.0);
  EXPECT_EQ(a.rank_rate_max, 0.0);
  EXPECT_EQ(a.rank_rate_mean, 0.0);
  EXPECT_EQ(a.balance, 0.0);
}

TEST(Aggregate, NoActiveRanksGivesZeroRankStats) {
  const std::vector<RankPhaseRecord> ranks = {
      record(0, 0, 0, 1.0, 1.0, 1.5),
      record(0, 0, 0, 1.0, 1.0, 2.0),
  };
  const PhaseAggregate a = aggregate(ranks);
  EXPECT_EQ(a.ok, 0u);
  EXPECT_DOUBLE_EQ(a.time_s, 1.0);
  EXPECT_EQ(a.ops_per_s, 0.0);
  EXPECT_EQ(a.active_ranks, 0u);
  EXPECT_EQ(a.rank_rate_min, 0.0);
  EXPECT_EQ(a.rank_rate_max, 0.0);
  EXPECT_EQ(a.rank_rate_mean, 0.0);
  EXPECT_EQ(a.balance, 0.0);
}

TEST(Aggregate, EmptyIsAllZero) {
  const PhaseAggregate a = aggregate(std::span<const RankPhaseRecord>{});
  EXPECT_EQ(a.ok, 0u);
  EXPECT_EQ(a.failed, 0u);
  EXPECT_EQ(a.bytes, 0u);
  EXPECT_EQ(a.time_s, 0.0);
  EXPECT_EQ(a.ops_per_s, 0.0);
  EXPECT_EQ(a.active_ranks, 0u);
  EXPECT_EQ(a.balance, 0.0);
  EXPECT_FALSE(a.stonewalled);
  EXPECT_EQ(a.ops_at_stonewall, 0u);
  EXPECT_EQ(a.stonewall_time_s, 0.0);
  EXPECT_EQ(a.ops_per_s_at_stonewall, 0.0);
}

// A rank of a stonewalled phase: its timer fired `fired_after` seconds after t_start, `at_firing` ops done.
RankPhaseRecord fired(std::uint64_t ops, double t_start, double fired_after, std::uint64_t at_firing) {
  RankPhaseRecord r = record(ops, ops, 0, t_start, t_start + 10.0, t_start + 11.0);
  r.t_stonewall = t_start + fired_after;
  r.ops_at_stonewall = at_firing;
  return r;
}

// A rank whose timer never fired: t_stonewall 0, every op done "at the stonewall".
RankPhaseRecord unfired(std::uint64_t ops, double t_start) {
  RankPhaseRecord r = record(ops, ops, 0, t_start, t_start + 1.0, t_start + 11.0);
  r.ops_at_stonewall = ops;
  return r;
}

TEST(Aggregate, NoTimerFiredMeansNotStonewalledAndAllZero) {
  const std::vector<RankPhaseRecord> ranks = {unfired(100, 1.0), unfired(80, 2.0)};
  const PhaseAggregate a = aggregate(ranks);
  EXPECT_FALSE(a.stonewalled);
  EXPECT_EQ(a.ops_at_stonewall, 0u);  // not the 180 the ranks hold: the field is about a firing
  EXPECT_EQ(a.stonewall_time_s, 0.0);
  EXPECT_EQ(a.ops_per_s_at_stonewall, 0.0);
  EXPECT_EQ(a.ok, 180u);  // the rest is unaffected
}

TEST(Aggregate, StonewallSumsEveryRanksOpsOverTheLongestTimeToAFiring) {
  const std::vector<RankPhaseRecord> ranks = {
      fired(60, 1.0, 2.0, 40),  // fired 2 s after its start
      fired(60, 3.0, 2.5, 30),  // 2.5 s after its own start (5.5 on the clock): the longest
      unfired(50, 0.5),         // done before its timer: all 50 count
  };
  const PhaseAggregate a = aggregate(ranks);
  EXPECT_TRUE(a.stonewalled);
  EXPECT_EQ(a.ops_at_stonewall, 120u);
  EXPECT_DOUBLE_EQ(a.stonewall_time_s, 2.5);
  EXPECT_DOUBLE_EQ(a.ops_per_s_at_stonewall, 48.0);
  EXPECT_EQ(a.ok, 170u);
  EXPECT_DOUBLE_EQ(a.time_s, 11.0);
}

TEST(Aggregate, OneFiredRankMakesThePhaseStonewalled) {
  const std::vector<RankPhaseRecord> ranks = {unfired(10, 1.0), fired(10, 1.0, 0.25, 4), unfired(10, 1.0)};
  const PhaseAggregate a = aggregate(ranks);
  EXPECT_TRUE(a.stonewalled);
  EXPECT_EQ(a.ops_at_stonewall, 24u);
  EXPECT_DOUBLE_EQ(a.stonewall_time_s, 0.25);
  EXPECT_DOUBLE_EQ(a.ops_per_s_at_stonewall, 96.0);
}

TEST(Aggregate, FailedOpsAtTheStonewallAreCounted) {
  // ops_at_stonewall is ops done, ok or failed: the record has no separate ok count at the firing.
  RankPhaseRecord r = fired(10, 0.0, 1.0, 5);
  r.ok = 8;
  r.failed = 2;
  const PhaseAggregate a = aggregate(std::span<const RankPhaseRecord>(&r, 1));
  EXPECT_EQ(a.ops_at_stonewall, 5u);
  EXPECT_DOUBLE_EQ(a.ops_per_s_at_stonewall, 5.0);
}

TEST(Aggregate, FiringAtTheStartGivesZeroStonewallRate) {
  const std::vector<RankPhaseRecord> ranks = {fired(10, 2.0, 0.0, 0), unfired(10, 2.0)};
  const PhaseAggregate a = aggregate(ranks);
  EXPECT_TRUE(a.stonewalled);
  EXPECT_EQ(a.ops_at_stonewall, 10u);
  EXPECT_EQ(a.stonewall_time_s, 0.0);
  EXPECT_EQ(a.ops_per_s_at_stonewall, 0.0);
}

TEST(Summarize, ThreeValues) {
  const std::vector<double> rates = {100.0, 300.0, 200.0};
  const IterationSummary s = summarize(rates);
  EXPECT_EQ(s.iterations, 3u);
  EXPECT_DOUBLE_EQ(s.mean, 200.0);
  EXPECT_DOUBLE_EQ(s.stddev, 100.0);  // sample (n-1); population would be 81.65
  EXPECT_DOUBLE_EQ(s.min, 100.0);
  EXPECT_DOUBLE_EQ(s.max, 300.0);
}

TEST(Summarize, OneValueHasZeroStddev) {
  const std::vector<double> rates = {1234.5};
  const IterationSummary s = summarize(rates);
  EXPECT_EQ(s.iterations, 1u);
  EXPECT_DOUBLE_EQ(s.mean, 1234.5);
  EXPECT_EQ(s.stddev, 0.0);
  EXPECT_DOUBLE_EQ(s.min, 1234.5);
  EXPECT_DOUBLE_EQ(s.max, 1234.5);
}

TEST(Summarize, NoValuesIsAllZero) {
  const IterationSummary s = summarize(std::span<const double>{});
  EXPECT_EQ(s.iterations, 0u);
  EXPECT_EQ(s.mean, 0.0);
  EXPECT_EQ(s.stddev, 0.0);
  EXPECT_EQ(s.min, 0.0);
  EXPECT_EQ(s.max, 0.0);
}

TEST(RunResult, FailedOpsSumsAllPhasesAndRanks) {
  RunResult run;
  EXPECT_EQ(run.failedOps(), 0u);

  PhaseResult create;
  create.phase = Phase::kFileCreate;
  create.ranks = {record(10, 7, 3, 0, 1, 1), record(10, 10, 0, 0, 1, 1)};
  PhaseResult stat;
  stat.phase = Phase::kFileStat;
  stat.ranks = {record(10, 9, 1, 0, 1, 1), record(10, 5, 5, 0, 1, 1)};
  PhaseResult clean;
  clean.phase = Phase::kFileRemove;
  clean.ranks = {record(10, 10, 0, 0, 1, 1)};
  run.phases = {create, stat, clean};
  EXPECT_EQ(run.failedOps(), 9u);

  // --steady's phases count as the selected phases do: every op type of every phase and rank.
  PhaseResult mix;
  mix.phase = Phase::kSteadyMix;
  mix.ranks.resize(2);
  mix.ranks[0].kinds[opKindIndex(OpKind::kStat)].failed = 2;
  mix.ranks[1].kinds[opKindIndex(OpKind::kCreate)].failed = 1;
  for (RankPhaseRecord& r : mix.ranks) sumKinds(r);
  PhaseResult cleanup;
  cleanup.phase = Phase::kSteadyCleanup;
  cleanup.ranks.resize(1);
  cleanup.ranks[0].kinds[opKindIndex(OpKind::kRmdir)].failed = 4;
  sumKinds(cleanup.ranks[0]);
  run.phases = {create, stat, clean, mix, cleanup};
  EXPECT_EQ(run.failedOps(), 16u);
}

}  // namespace
}  // namespace mdbench
