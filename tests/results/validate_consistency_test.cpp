// The validator's consistency pass: every derived number, planned count, status, item count and
// stonewall field changed on a copy with the HDF5 C API is reported with the object it is in, while a
// rounding difference in the last bits is not.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>
#include <string>

#include "mdbench/results/results_file.hpp"
#include "validate_fixture.hpp"

namespace mdbench::validate_test {
namespace {

// ---- Consistency ----

TEST_F(Validate, PerRankOkChanged) {
  changeField<std::uint64_t>(valid(), kFileCreate0 + "/ranks", 1, "ok", 1);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 1: ok + failed"));
}

TEST_F(Validate, PlannedDiffersFromThePlan) {
  valid();
  changeField<std::uint64_t>(file_, kFileCreate0 + "/ranks", 2, "planned", 1);
  changeField<std::uint64_t>(file_, kFileCreate0 + "/ranks", 2, "ok", 1);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 2: planned: expected"));
}

TEST_F(Validate, RowOutOfRankOrder) {
  changeField<std::uint64_t>(valid(), kFileCreate0 + "/ranks", 0, "rank", 1);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 0: rank: expected 0"));
}

TEST_F(Validate, RowNodeDiffersFromNodeOfRank) {
  changeField<std::uint64_t>(valid(), kFileCreate0 + "/ranks", 2, "node", 1);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 2: node: expected 1"));
}

TEST_F(Validate, RowRateChanged) {
  changeField<double>(valid(), kFileCreate0 + "/ranks", 1, "rate", 0.5);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 1: rate"));
}

TEST_F(Validate, OpsOkDiffersFromTheSum) {
  setNumber<std::uint64_t>(valid(), kFileCreate0, "ops_ok", 10);
  EXPECT_TRUE(failsAt(kFileCreate0, "ops_ok: expected 9 (sum of ranks.ok), found 10"));
}

TEST_F(Validate, BytesDifferFromTheSum) {
  setNumber<std::uint64_t>(valid(), kFileCreate0, "bytes", 1);
  EXPECT_TRUE(failsAt(kFileCreate0, "bytes: expected 576"));
}

TEST_F(Validate, TimeDiffersFromTheSlowestRank) {
  changeField<double>(valid(), kFileCreate0 + "/ranks", 0, "t_global_end", 1.0);
  EXPECT_TRUE(failsAt(kFileCreate0, "time_s"));
}

TEST_F(Validate, OpsPerSecondChanged) {
  valid();
  setNumber(file_, kFileCreate0, "ops_per_s", getNumber<double>(file_, kFileCreate0, "ops_per_s") * 1.01);
  EXPECT_TRUE(failsAt(kFileCreate0, "ops_per_s: expected"));
}

TEST_F(Validate, TinyRoundingDifferenceIsTolerated) {
  valid();
  setNumber(file_, kFileCreate0, "ops_per_s",
            getNumber<double>(file_, kFileCreate0, "ops_per_s") * (1 + 1e-12));
  const ValidationResult result = validateResultsFile(file_);
  EXPECT_TRUE(result.ok) << result.first_problem;
}

TEST_F(Validate, ActiveRanksChanged) {
  setNumber<std::uint64_t>(valid(), kIter0 + "/tree-create", "active_ranks", 3);
  EXPECT_TRUE(failsAt(kIter0 + "/tree-create", "active_ranks: expected 1"));
}

TEST_F(Validate, BalanceChanged) {
  setNumber(valid(), kFileCreate0, "balance", 1.0);
  EXPECT_TRUE(failsAt(kFileCreate0, "balance"));
}

TEST_F(Validate, RateFormulaChanged) {
  setString(valid(), kFileCreate0, "rate_formula", "ops_ok / mean(t_local_end - t_start)");
  EXPECT_TRUE(failsAt(kFileCreate0, "rate_formula"));
}

TEST_F(Validate, HistogramCountChanged) {
  bumpElement(valid(), kFileCreate0 + "/latency", 300);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/latency", "sum of counts: expected 9 (ops_ok), found 10"));
}

TEST_F(Validate, PercentileChanged) {
  setNumber<std::uint64_t>(valid(), kFileCreate0, "latency_p99_ns", 1);
  EXPECT_TRUE(failsAt(kFileCreate0, "latency_p99_ns"));
}

TEST_F(Validate, BucketBoundChanged) {
  bumpElement(valid(), kRun + "/latency_bucket_high", 100);
  EXPECT_TRUE(failsAt(kRun + "/latency_bucket_high", "element 100"));
}

TEST_F(Validate, NodeOfRankChanged) {
  bumpElement(valid(), kRun + "/node_of_rank", 1);
  EXPECT_TRUE(failsAt(kRun + "/node_of_rank", "element 1: expected 0 (host \"node-a\""));
}

TEST_F(Validate, NodesChanged) {
  setNumber<std::uint64_t>(valid(), kRun, "nodes", 3);
  EXPECT_TRUE(failsAt(kRun, "nodes: expected 2 (distinct hosts), found 3"));
}

TEST_F(Validate, RanksPerNodeChanged) {
  setNumber<std::uint64_t>(valid(), kRun, "ranks_per_node_max", 3);
  EXPECT_TRUE(failsAt(kRun, "ranks_per_node_max: expected 2"));
}

TEST_F(Validate, SummaryMeanChanged) {
  setNumber(valid(), kRun + "/summary/file-create", "ops_per_s_mean", 1.0);
  EXPECT_TRUE(failsAt(kRun + "/summary/file-create", "ops_per_s_mean"));
}

TEST_F(Validate, SummaryIterationsChanged) {
  setNumber<std::uint64_t>(valid(), kRun + "/summary/file-stat", "iterations", 3);
  EXPECT_TRUE(failsAt(kRun + "/summary/file-stat", "iterations: expected 2"));
}

TEST_F(Validate, SummaryOfAPhaseMissing) {
  deleteLink(valid(), kRun + "/summary/file-read");
  EXPECT_TRUE(failsAt(kRun + "/summary/file-read", "missing"));
}

TEST_F(Validate, ErrorRowMissingForAFailedRank) {
  deleteLink(valid(), kFileStat1 + "/errors");
  EXPECT_TRUE(failsAt(kFileStat1 + "/errors", "no row for rank 1"));
}

TEST_F(Validate, ErrorRowForARankThatDidNotFail) {
  changeField<std::uint64_t>(valid(), kFileStat1 + "/errors", 0, "rank", 1);  // rank 2
  EXPECT_TRUE(failsAt(kFileStat1 + "/errors", "row 0: rank 2 has no failed operation"));
}

TEST_F(Validate, ErrorRowWithoutErrnoName) {
  setStringField(valid(), kFileStat1 + "/errors", "errno_name", "");
  EXPECT_TRUE(failsAt(kFileStat1 + "/errors", "row 0: errno_name is empty"));
}

TEST_F(Validate, FlagOutOfRangeIsReportedByTheReader) {
  setNumber<std::uint64_t>(valid(), kRun + "/config", "leaf_only", 2);
  EXPECT_TRUE(failsAt(kRun + "/config", "leaf_only"));
}

TEST_F(Validate, FailedStatusWithExitStatusZero) {
  setNumber<std::int32_t>(valid(), kRun, "exit_status", 0);
  EXPECT_TRUE(failsAt(kRun, "exit_status: expected a positive exit status (status failed), found 0"));
}

TEST_F(Validate, CompleteStatusWithExitStatusOne) {
  setNumber<std::int32_t>(valid(Outcome::kComplete), kRun, "exit_status", 1);
  EXPECT_TRUE(failsAt(kRun, "exit_status: expected 0 (status complete), found 1"));
}

TEST_F(Validate, CompleteStatusWithAFailedOperation) {
  valid();
  setString(file_, kRun, "status", "complete");
  setNumber<std::int32_t>(file_, kRun, "exit_status", 0);
  EXPECT_TRUE(failsAt(kRun, "failed operations: expected 0"));
}

// A run that wrote its end time wrote its summary first: the summary is then required.
TEST_F(Validate, RunningStatusWithAnEndTime) {
  setString(valid(Outcome::kRunning), kRun, "end_utc", "2026-11-30T13:23:09Z");
  EXPECT_TRUE(failsAt(kRun + "/summary", "missing"));
}

TEST_F(Validate, StartTimeNotIso) {
  setString(valid(), kRun, "start_utc", "Mon Nov 30 13:23:06 2026");
  EXPECT_TRUE(failsAt(kRun, "start_utc: expected an ISO 8601 UTC time"));
}

TEST_F(Validate, CompleteRunMissingAPhase) {
  deleteLink(valid(Outcome::kComplete), kIter1 + "/file-remove");
  EXPECT_TRUE(failsAt(kIter1 + "/file-remove", "missing: the run is complete"));
}

TEST_F(Validate, PhaseGroupUnderTheWrongName) {
  valid();
  const Id file = openFile(file_);
  ASSERT_GE(H5Lmove(file, (kIter0 + "/file-stat").c_str(), file, (kIter0 + "/dir-stat").c_str(), H5P_DEFAULT,
                    H5P_DEFAULT),
            0);
  EXPECT_TRUE(
      failsAt(kIter0 + "/dir-stat", "(phase file-stat, iteration 0) belong in " + kIter0 + "/file-stat"));
}

TEST_F(Validate, PhaseOrderChanged) {
  setNumber<std::uint64_t>(valid(), kFileCreate0, "order", 4);
  EXPECT_TRUE(failsAt(kFileCreate0, "order: expected 1"));
}

TEST_F(Validate, IterationBeyondTheConfiguredCount) {
  setNumber<std::uint64_t>(valid(), kRun + "/config", "iterations", 1);
  EXPECT_TRUE(failsAt(kIter1 + "/tree-create", "iteration: expected less than config iterations = 1"));
}

// ---- Stonewall, items, new phases and options (schema version 2) ----

TEST_F(Validate, TheFixtureHasAStonewalledPhaseAndTheNewPhases) {
  valid();
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kFileCreate1, "stonewalled"), 1u);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kFileCreate1, "ops_at_stonewall"), 4u);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kFileCreate1, "items"), 2u);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kFileCreate0, "stonewalled"), 0u);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kIter0 + "/file-readdir", "ops_ok"), 3u);  // 3 dirs, 3 ranks
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kIter1 + "/file-rename", "ops_ok"), 6u);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kConfig, "shift_used"), 1u);
}

TEST_F(Validate, StonewalledFlagChanged) {
  setNumber<std::uint64_t>(valid(), kFileCreate1, "stonewalled", 0);
  EXPECT_TRUE(
      failsAt(kFileCreate1, "stonewalled: expected true (some rank has t_stonewall > 0), found false"));
}

TEST_F(Validate, OpsAtStonewallDifferFromTheSum) {
  setNumber<std::uint64_t>(valid(), kFileCreate1, "ops_at_stonewall", 6);
  EXPECT_TRUE(failsAt(kFileCreate1, "ops_at_stonewall: expected 4"));
}

TEST_F(Validate, OpsAtStonewallOfAPhaseThatWasNotStonewalled) {
  setNumber<std::uint64_t>(valid(), kFileCreate0, "ops_at_stonewall", 9);
  EXPECT_TRUE(failsAt(kFileCreate0, "ops_at_stonewall: expected 0"));
}

TEST_F(Validate, StonewallTimeChanged) {
  valid();
  setNumber(file_, kFileCreate1, "stonewall_time_s",
            getNumber<double>(file_, kFileCreate1, "stonewall_time_s") * 2);
  EXPECT_TRUE(failsAt(kFileCreate1, "stonewall_time_s: expected"));
}

TEST_F(Validate, RateAtStonewallChanged) {
  setNumber(valid(), kFileCreate1, "ops_per_s_at_stonewall", 1.0);
  EXPECT_TRUE(failsAt(kFileCreate1, "ops_per_s_at_stonewall: expected"));
}

TEST_F(Validate, RowOpsAtStonewallBeyondItsOps) {
  changeField<std::uint64_t>(valid(), kFileCreate1 + "/ranks", 1, "ops_at_stonewall", 5);
  EXPECT_TRUE(failsAt(kFileCreate1 + "/ranks", "row 1: ops_at_stonewall: expected at most ok = 2"));
}

TEST_F(Validate, RowOpsAtStonewallOfARankThatNeverFired) {
  changeField<std::uint64_t>(valid(), kFileCreate0 + "/ranks", 0, "ops_at_stonewall", ~std::uint64_t{0});
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 0: ops_at_stonewall: expected ok = 3"));
}

TEST_F(Validate, RowFiringOutsideThePhase) {
  changeField<double>(valid(), kFileCreate1 + "/ranks", 2, "t_stonewall", 100.0);
  EXPECT_TRUE(failsAt(kFileCreate1 + "/ranks",
                      "row 2: expected t_stonewall = 0 or t_start <= t_stonewall <= t_local_end"));
}

TEST_F(Validate, TreePhaseWithAFiring) {
  valid();
  changeField<double>(file_, kIter0 + "/tree-create/ranks", 0, "t_stonewall",
                      fieldValue<double>(file_, kIter0 + "/tree-create/ranks", 0, "t_local_end"));
  EXPECT_TRUE(failsAt(kIter0 + "/tree-create/ranks",
                      "row 0: t_stonewall: expected 0 (tree-create has no stonewall)"));
}

TEST_F(Validate, FiringWithoutAStonewallConfigured) {
  valid(Outcome::kRunning);  // iteration 0 only: every phase worked on -n items
  setNumber(file_, kConfig, "stonewall_s", 0.0);
  changeField<double>(file_, kFileCreate0 + "/ranks", 0, "t_stonewall",
                      fieldValue<double>(file_, kFileCreate0 + "/ranks", 0, "t_local_end"));
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "row 0: t_stonewall: expected 0 (config stonewall_s = 0"));
}

TEST_F(Validate, ItemsOtherThanConfiguredWithoutAStonewall) {
  valid(Outcome::kRunning);
  setNumber(file_, kConfig, "stonewall_s", 0.0);
  setNumber<std::uint64_t>(file_, kFileCreate0, "items", 2);
  EXPECT_TRUE(failsAt(kFileCreate0, "items: expected 3 (config items: no -W"));
}

TEST_F(Validate, MoreItemsThanConfigured) {
  setNumber<std::uint64_t>(valid(), kFileCreate1, "items", 4);
  EXPECT_TRUE(failsAt(kFileCreate1, "items: expected at most config items = 3"));
}

TEST_F(Validate, StatOfMoreItemsThanTheCreateMade) {
  setNumber<std::uint64_t>(valid(), kFileStat1, "items", 3);
  EXPECT_TRUE(failsAt(kFileStat1, "items: expected at most 2 (" + kFileCreate1 + " made that many"));
}

TEST_F(Validate, RemoveOfFewerItemsThanTheCreateMade) {
  setNumber<std::uint64_t>(valid(), kIter1 + "/file-remove", "items", 1);
  EXPECT_TRUE(failsAt(
      kIter1 + "/file-remove",
      "items: expected 2 (" + kFileCreate1 + " made that many; rename and remove work on all of them)"));
}

TEST_F(Validate, PlannedFollowsThePhaseItems) {
  setNumber<std::uint64_t>(valid(), kFileStat1, "items", 1);  // fewer than created: allowed, but planned 2
  EXPECT_TRUE(failsAt(kFileStat1 + "/ranks", "row 0: planned: expected 1"));
}

TEST_F(Validate, ReaddirPlannedDiffersFromThePlan) {
  valid();
  changeField<std::uint64_t>(file_, kIter0 + "/file-readdir/ranks", 2, "planned", 1);
  changeField<std::uint64_t>(file_, kIter0 + "/file-readdir/ranks", 2, "ok", 1);
  EXPECT_TRUE(failsAt(kIter0 + "/file-readdir/ranks", "row 2: planned: expected 1"));
}

TEST_F(Validate, ShiftUsedChanged) {
  setNumber<std::uint64_t>(valid(), kConfig, "shift_used", 2);
  EXPECT_TRUE(failsAt(kConfig, "shift_used: expected 1 (the plan's shift"));
}

// 4 ranks in blocks of 2 per node: -N 1 would stat items of the same node, so the plan shifts by 2.
TEST_F(Validate, NodeAwareShiftPasses) {
  writeRun(file_, Outcome::kComplete, OutputMode::kCreate, RunShape{{"n-a", "n-a", "n-b", "n-b"}});
  const ValidationResult result = validateResultsFile(file_);
  EXPECT_TRUE(result.ok) << result.first_problem;
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kConfig, "shift"), 1u);
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kConfig, "shift_used"), 2u);
  setNumber<std::uint64_t>(file_, kConfig, "shift_used", 1);
  EXPECT_TRUE(failsAt(kConfig, "shift_used: expected 2"));
}

TEST_F(Validate, NewFlagOutOfRangeIsReportedByTheReader) {
  setNumber<std::uint64_t>(valid(), kConfig, "verify_read", 2);
  EXPECT_TRUE(failsAt(kConfig, "attribute 'verify_read' is 2, expected 0 or 1"));
}

TEST_F(Validate, NegativeStonewall) {
  setNumber(valid(), kConfig, "stonewall_s", -1.0);
  EXPECT_TRUE(failsAt(kConfig, "invalid configuration: -W/--stonewall: -1"));
}

TEST_F(Validate, SeveralTargetsInASharedTree) {
  setString(valid(), kConfig, "targets", "/scratch/a@/scratch/b");  // read back as two targets
  EXPECT_TRUE(failsAt(kConfig, "a shared tree cannot span several directories"));
}

// ---- Throughput over time (schema version 5) ----

// 1 ms intervals. Rank 0's ops end 0.4, 0.83 and 1.28 ms in, rank 1's 0.8, 1.63 and 2.48, rank 2's 1.2,
// 2.43 and 3.68: rows {2, 1, 0, 0}, {1, 1, 1, 0}, {0, 1, 1, 1}.
TEST_F(Validate, TheFixtureHasSeveralIntervals) {
  valid();
  EXPECT_EQ(shapeOf(file_, kCounts0), (std::vector<hsize_t>{3, 4}));
  EXPECT_EQ(getNumber<double>(file_, kCounts0, "interval_s"), 0.001);
  EXPECT_EQ(fieldValue<double>(file_, kFileCreate0 + "/ranks", 0, "t_local_end") -
                fieldValue<double>(file_, kFileCreate0 + "/ranks", 0, "t_start"),
            getNumber<double>(file_, kFileCreate0, "first_done_time_s"));
  // By rank 0's end (1.28 ms): its 3, rank 1's first interval and 0.28 of its second (1 + 0.28), rank 2's
  // 0.28 of its second (it had none in its first): 4.56 ops, rounded.
  EXPECT_EQ(getNumber<std::uint64_t>(file_, kFileCreate0, "first_done_ops"), 5u);
}

TEST_F(Validate, SeriesRowDiffersFromOk) {
  addToElement(valid(), kCounts0, 4, 1);  // row 1, interval 0
  EXPECT_TRUE(failsAt(kCounts0, "row 1: sum of counts: expected 3 (ranks.ok of rank 1), found 4"));
}

TEST_F(Validate, OpsCountedAfterTheRankFinished) {
  valid();
  addToElement(file_, kCounts0, 0, -1);  // rank 0 finished 1.28 ms in: nothing of it in interval 3
  addToElement(file_, kCounts0, 3, 1);
  EXPECT_TRUE(failsAt(kCounts0,
                      "row 0: 1 ops in interval 3, which starts 0.003 s into the phase, after the "
                      "rank finished"));
}

TEST_F(Validate, SeriesTotalDiffersFromTheColumnSum) {
  addToElement(valid(), kTotals0, 2, 1);
  EXPECT_TRUE(
      failsAt(kTotals0, "element 2: expected 2 (sum over ranks of that ops_per_interval column), found 3"));
}

TEST_F(Validate, SeriesTotalOfAnotherLength) {
  replaceByDataset(valid(), kTotals0, H5T_STD_U64LE, 5);
  EXPECT_TRUE(failsAt(kTotals0, "length: expected 4 (intervals: columns of ops_per_interval), found 5"));
}

TEST_F(Validate, SeriesIntervalNotPositive) {
  setNumber(valid(), kCounts0, "interval_s", 0.0);
  EXPECT_TRUE(failsAt(kCounts0, "interval_s: expected a positive number of seconds, found 0"));
}

TEST_F(Validate, FirstDoneOpsBeyondTheOps) {
  setNumber<std::uint64_t>(valid(), kFileCreate0, "first_done_ops", 10);
  EXPECT_TRUE(failsAt(kFileCreate0, "first_done_ops: expected at most ops_ok = 9, found 10"));
}

TEST_F(Validate, NegativeDoneTime) {
  setNumber(valid(), kFileCreate0, "first_done_time_s", -1.0);
  EXPECT_TRUE(failsAt(kFileCreate0, "first_done_time_s: expected a finite number >= 0, found -1"));
}

TEST_F(Validate, LastDoneBeforeFirstDone) {
  valid();
  setNumber(file_, kFileCreate0, "last_done_time_s",
            getNumber<double>(file_, kFileCreate0, "first_done_time_s") / 2);
  EXPECT_TRUE(failsAt(kFileCreate0, "last_done_time_s: expected at least first_done_time_s"));
}

TEST_F(Validate, FirstDoneOpsChanged) {
  setNumber<std::uint64_t>(valid(), kFileCreate0, "first_done_ops", 4);
  EXPECT_TRUE(
      failsAt(kFileCreate0, "first_done_ops: expected 5 (ops every rank had done by first_done_time_s"));
}

TEST_F(Validate, FirstDoneTimeChanged) {
  valid();
  setNumber(file_, kFileCreate0, "first_done_time_s",
            getNumber<double>(file_, kFileCreate0, "first_done_time_s") * 1.01);
  EXPECT_TRUE(failsAt(kFileCreate0, "first_done_time_s: expected"));
}

TEST_F(Validate, FirstDoneRateChanged) {
  valid();
  setNumber(file_, kFileCreate0, "first_done_ops_per_s",
            getNumber<double>(file_, kFileCreate0, "first_done_ops_per_s") * 1.01);
  EXPECT_TRUE(failsAt(kFileCreate0, "first_done_ops_per_s: expected"));
}

TEST_F(Validate, LastDoneRateChanged) {
  setNumber(valid(), kFileCreate0, "last_done_ops_per_s", 1.0);
  EXPECT_TRUE(failsAt(kFileCreate0, "last_done_ops_per_s: expected"));
}

TEST_F(Validate, LastDoneTimeChanged) {
  valid();
  setNumber(file_, kFileCreate0, "last_done_time_s",
            getNumber<double>(file_, kFileCreate0, "last_done_time_s") * 2);
  EXPECT_TRUE(failsAt(kFileCreate0, "last_done_time_s: expected"));
}

// ---- The steady state (--steady) ----

TEST_F(Validate, SteadyRunPassesWithoutNotes) {
  for (const Outcome outcome : {Outcome::kComplete, Outcome::kFailed}) {
    writeSteadyRun(file_, outcome);
    const ValidationResult result = validateResultsFile(file_);
    EXPECT_TRUE(result.ok) << result.first_problem;
    for (const std::string& note : result.notes) ADD_FAILURE() << "unexpected note: " << note;
    fs::remove(file_);
  }
}

TEST_F(Validate, SteadyHistogramSumDiffersFromOk) {
  bumpElement(validSteady(), kMix0 + "/latency_stat", 100);
  EXPECT_TRUE(failsAt(kMix0 + "/latency_stat", "sum of counts: expected 18"));
}

// Schema version 10: a steady phase's series and stall are checked as a selected phase's.
TEST_F(Validate, SteadySeriesRowDiffersFromOk) {
  addToElement(validSteady(), kMix0 + "/ops_per_interval", 0, 1);  // row 0, interval 0
  EXPECT_TRUE(failsAt(kMix0 + "/ops_per_interval",
                      "row 0: sum of counts: expected 24 (the *_ok columns of ranks of rank 0), found 25"));
}

TEST_F(Validate, SteadyStallOutsideTheMix) {
  setNumber<double>(validSteady(), kMix0, "stall_t_end", 100.0);
  EXPECT_TRUE(failsAt(kMix0, "is not within the phase"));
}

TEST_F(Validate, SteadyFaultBeforeItsTime) {
  validSteady();
  changeField<double>(file_, kMix0 + "/faults", 0, "at_s", 1.0);
  EXPECT_TRUE(failsAt(kMix0, "fault 0: started at"));
}

TEST_F(Validate, SteadyRankRoundsDisagree) {
  changeField<std::uint64_t>(validSteady(), kMix0 + "/ranks", 1, "rounds", 1);
  EXPECT_TRUE(failsAt(kMix0 + "/ranks", "row 1: rounds: expected 3"));
}

TEST_F(Validate, SteadyMixCountsWithoutFailures) {
  validSteady();
  // One more stat on rank 0, histogram included: consistent, but not rounds x datasets x ranks.
  changeField<std::uint64_t>(file_, kMix0 + "/ranks", 0, "stat_ok", 1);
  bumpElement(file_, kMix0 + "/latency_stat", 100);
  EXPECT_TRUE(failsAt(kMix0 + "/ranks", "sum of stat_ok: expected 18 (rounds x datasets x ranks"));
}

TEST_F(Validate, SteadyOpOfAnotherPhase) {
  changeField<std::uint64_t>(validSteady(), kCleanup0 + "/ranks", 2, "stat_failed", 1);
  EXPECT_TRUE(failsAt(kCleanup0 + "/ranks", "row 2: stat_ok and stat_failed: expected 0"));
}

TEST_F(Validate, SteadySummaryAttributeChanged) {
  setNumber<double>(validSteady(), kMix0, "rounds_per_s", 1.0);
  EXPECT_TRUE(failsAt(kMix0, "rounds_per_s: expected"));
}

TEST_F(Validate, SteadyOpRateChanged) {
  setNumber<double>(validSteady(), kPrecreate0, "create_ops_per_s", 1.0);
  EXPECT_TRUE(failsAt(kPrecreate0, "create_ops_per_s: expected"));
}

TEST_F(Validate, SteadyPercentileChanged) {
  setNumber<std::uint64_t>(validSteady(), kCleanup0, "rmdir_p99_ns", 7);
  EXPECT_TRUE(failsAt(kCleanup0, "rmdir_p99_ns: expected"));
}

TEST_F(Validate, SteadyTimesOutOfOrder) {
  changeField<double>(validSteady(), kCleanup0 + "/ranks", 2, "t_local_end", 1.0);
  EXPECT_TRUE(failsAt(kCleanup0 + "/ranks", "row 2: expected t_start <= t_local_end <= t_global_end"));
}

TEST_F(Validate, SteadyRoundsDifferFromTheConfig) {
  setNumber<std::uint64_t>(validSteady(), kSteady0, "rounds", 2);
  EXPECT_TRUE(failsAt(kSteady0, "rounds: expected 3 (config steady_rounds, no stonewall)"));
}

TEST_F(Validate, SteadyFirstErrorOfAnOpThatDidNotFail) {
  setStringField(validSteady(), kMix1 + "/errors", "op", "read");
  EXPECT_TRUE(
      failsAt(kMix1 + "/errors", "row 0: rank 1's first error is a read, but ranks.read_failed is 0"));
}

TEST_F(Validate, SteadyFailedRunCannotBeComplete) {
  validSteady();
  setString(file_, kRun, "status", "complete");
  setNumber<std::int32_t>(file_, kRun, "exit_status", 0);
  EXPECT_TRUE(failsAt(kRun, "status complete: failed operations: expected 0"));
}

TEST_F(Validate, SteadyIterationMissingInACompleteRun) {
  deleteLink(validSteady(Outcome::kComplete), kSteady1);
  EXPECT_TRUE(failsAt(kSteady1, "missing: the run is complete and its config has --steady"));
}

TEST_F(Validate, SteadyPhaseMissing) {
  deleteLink(validSteady(), kSteady1 + "/cleanup");
  EXPECT_TRUE(failsAt(kSteady1 + "/cleanup", "missing"));
}

TEST_F(Validate, SteadyAttributeMissing) {
  deleteAttribute(validSteady(), kMix0, "stat_p99_ns");
  EXPECT_TRUE(failsAt(kMix0, "attribute stat_p99_ns missing"));
}

TEST_F(Validate, SteadyConfigAttributeMissing) {
  deleteAttribute(validSteady(), kConfig, "steady_rounds");
  EXPECT_TRUE(failsAt(kConfig, "attribute steady_rounds missing"));
}

TEST_F(Validate, SteadyGroupInARunWithoutSteady) {
  setNumber<std::uint64_t>(validSteady(), kConfig, "steady_rounds", 0);
  EXPECT_TRUE(failsAt(kSteady0, "a steady group in a run without --steady"));
}

}  // namespace
}  // namespace mdbench::validate_test
