// The runner under real MPI (1, 2 and 4 ranks) with the fake backend: exact counts, failures excluded
// from rates, injected latency giving the expected rate, setup failures agreed by all ranks.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <functional>
#include <numeric>

#include "mdbench/backend/fake_backend.hpp"
#include "mdbench/backend/posix_backend.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/run/mpi_comm.hpp"
#include "mdbench/run/runner.hpp"
#include "mdbench/run/signals.hpp"
#include "mpi_tmpfs.hpp"

namespace mdbench {
namespace {

class RecordingSink final : public Sink {
 public:
  void begin(const RunInfo&, const Plan&) override { ++begins; }
  void phase(const PhaseResult& result, const Plan&) override { phases.push_back(result.phase); }
  void end(const RunResult&, const Plan&) override { ++ends; }
  int begins = 0;
  int ends = 0;
  std::vector<Phase> phases;
};

Config smallConfig() {
  Config c;
  c.items = 37;  // does not divide the 4 directories evenly
  c.depth = 1;
  c.branching = 3;
  c.sharing = TreeSharing::kUnique;
  c.phases = {true, true, true, true};
  c.write_bytes = 16;
  c.read_bytes = 16;
  return c;
}

// Each rank's fake is its own file system, so the iteration directory rank 0 makes exists only in
// rank 0's: the others get theirs made beforehand.
void prepareFake(FakeBackend& fake, Comm& comm, const Config& config) {
  if (comm.rank() == 0) return;
  for (std::uint32_t i = 0; i < config.iterations; ++i) {
    ASSERT_EQ(fake.makeDir(fake.root(), iterationDirName(i).c_str()), 0);
  }
}

const PhaseResult& find(const RunResult& run, Phase phase, std::uint32_t iteration = 0) {
  for (const PhaseResult& p : run.phases) {
    if (p.phase == phase && p.iteration == iteration) return p;
  }
  throw std::logic_error("phase not in result");
}

RunResult runFake(const Config& config, FakeBackend& fake, Clock& clock, Comm& comm, Sink* sink = nullptr,
                  std::function<void(Phase)> after_phase = {}) {
  prepareFake(fake, comm, config);
  const Plan plan(config, comm.size());
  RunInfo info;
  info.ranks = comm.size();
  std::vector<Sink*> sinks;
  if (sink) sinks.push_back(sink);
  RunParts parts{comm, clock, fake};
  parts.after_phase = std::move(after_phase);
  return runBenchmark(plan, parts, info, sinks);
}

TEST(RunnerMpi, ExactCountsInEveryPhase) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  RecordingSink sink;
  Config config = smallConfig();
  config.iterations = 2;
  const RunResult run = runFake(config, fake, clock, comm, &sink);
  ASSERT_EQ(run.setup_error, "");
  if (comm.rank() != 0) {
    EXPECT_TRUE(run.phases.empty());
    return;
  }
  const std::vector<Phase> expected = selectPhases(config);
  ASSERT_EQ(run.phases.size(), expected.size() * 2);
  EXPECT_EQ(sink.begins, 1);
  EXPECT_EQ(sink.ends, 1);
  EXPECT_EQ(sink.phases.size(), run.phases.size());
  for (const PhaseResult& p : run.phases) {
    ASSERT_EQ(p.ranks.size(), comm.size());
    const std::uint64_t per_rank = isTreePhase(p.phase) ? 4 : 37;
    for (const RankPhaseRecord& r : p.ranks) {
      EXPECT_EQ(r.planned, per_rank) << phaseName(p.phase);
      EXPECT_EQ(r.ok, per_rank) << phaseName(p.phase);
      EXPECT_EQ(r.failed, 0u) << phaseName(p.phase);
      EXPECT_LE(r.t_start, r.t_local_end);
      EXPECT_LE(r.t_local_end, r.t_global_end);
    }
    EXPECT_EQ(p.latency.count(), per_rank * comm.size()) << phaseName(p.phase);
    const std::uint64_t bytes = (p.phase == Phase::kFileCreate || p.phase == Phase::kFileRead) ? 16 * 37 : 0;
    EXPECT_EQ(p.ranks[0].bytes, bytes) << phaseName(p.phase);
  }
  EXPECT_TRUE(run.cleanup_problems.empty());
  EXPECT_TRUE(fake.listAll().empty()) << "rank 0's fake still holds " << fake.listAll().front();
}

// The backend's look before each create phase (Backend::prepareCreates, LIBNFS's probe of its library's
// create) gets the iteration's directory, which holds the run's mark by then.
TEST(RunnerMpi, EveryCreatePhaseIsPreparedInTheMarkedDirectory) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  Config config = smallConfig();
  config.iterations = 2;
  const RunResult run = runFake(config, fake, clock, comm);
  ASSERT_EQ(run.setup_error, "");
  if (comm.rank() != 0) return;  // the other ranks' fakes hold no mark (prepareFake)
  std::uint64_t creates = 0;
  for (const Phase phase : selectPhases(config)) creates += phaseInfo(phase).creates() ? 1 : 0;
  EXPECT_EQ(creates, 2u);  // directories and files
  EXPECT_EQ(fake.prepareCreatesCalls(true), creates * config.iterations);
  EXPECT_EQ(fake.prepareCreatesCalls(false), 0u);
}

// --steady's creates get the same look, once per iteration, in the iteration's (marked) directory. Each
// rank keeps to its own datasets (-N the ranks): each rank's fake is a file system of its own.
TEST(RunnerMpi, SteadyCreatesArePreparedInTheMarkedDirectory) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  Config config;
  config.items = 8;
  config.datasets = 2;
  config.steady_rounds = 3;
  config.shift = comm.size();
  config.iterations = 2;
  const RunResult run = runFake(config, fake, clock, comm);
  ASSERT_EQ(run.setup_error, "");
  if (comm.rank() != 0) return;
  // The run's result keeps every iteration's three phases in its phases, as it keeps the selected phases.
  ASSERT_EQ(run.phases.size(), config.iterations * kSteadyPhaseCount);
  for (std::size_t i = 0; i < run.phases.size(); ++i) {
    const PhaseResult& p = run.phases[i];
    EXPECT_EQ(p.iteration, i / kSteadyPhaseCount);
    EXPECT_EQ(p.phase, kSteadyPhases[i % kSteadyPhaseCount]);
    EXPECT_EQ(p.items, p.phase == Phase::kSteadyMix ? config.steady_rounds : 0u);
    EXPECT_EQ(p.ranks.size(), static_cast<std::size_t>(comm.size()));
  }
  EXPECT_EQ(run.failedOps(), 0u);
  EXPECT_EQ(fake.prepareCreatesCalls(true), config.iterations);
  EXPECT_EQ(fake.prepareCreatesCalls(false), 0u);
}

// A backend whose reads check types by listings (LIBNFS over NFSv3) gets its directories listed before the
// read phase's opening barrier, outside the timing, as every backend's before a file-remove.
TEST(RunnerMpi, ReadsThatCheckTypesAreListedBeforeThePhase) {
  for (const bool reads : {false, true}) {
    MpiComm comm;
    ManualClock clock;
    FakeBackend fake(&clock);
    if (reads) fake.checkTypesByListing(CheckedCall::kRead);
    Config config = smallConfig();  // unique trees: each rank lists its own 4 directories
    config.iterations = 2;
    const RunResult run = runFake(config, fake, clock, comm);
    ASSERT_EQ(run.setup_error, "");
    // file-remove's listing, and file-read's when the reads check types
    EXPECT_EQ(fake.listTypesCalls(), (reads ? 2u : 1u) * 4u * config.iterations) << "reads " << reads;
  }
}

TEST(RunnerMpi, InjectedFailuresAreCountedAndExcludedFromRates) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  fake.setLatency(FakeOp::kCreateFile, std::chrono::microseconds(10));
  // Every 5th create fails on odd ranks only: 7 of 37.
  const bool faulty = comm.rank() % 2 == 1;
  if (faulty) fake.addFault({FakeOp::kCreateFile, 5, EIO});
  Config config = smallConfig();
  config.kinds = ItemKinds::kFilesOnly;
  const RunResult run = runFake(config, fake, clock, comm);
  if (comm.rank() != 0) return;
  const PhaseResult& create = find(run, Phase::kFileCreate);
  const PhaseResult& stat = find(run, Phase::kFileStat);
  std::uint64_t expected_ok = 0;
  for (std::uint32_t r = 0; r < comm.size(); ++r) {
    const bool odd = r % 2 == 1;
    EXPECT_EQ(create.ranks[r].ok, odd ? 30u : 37u);
    EXPECT_EQ(create.ranks[r].failed, odd ? 7u : 0u);
    EXPECT_EQ(create.ranks[r].first_error.err, odd ? EIO : 0);
    // The files never made are not this run's (a name planted there later is someone else's): skipped,
    // and reported with the create's errno, not as taken.
    EXPECT_EQ(stat.ranks[r].failed, odd ? 7u : 0u);
    EXPECT_EQ(stat.ranks[r].first_error.err, odd ? (kErrNotCreated | EIO) : 0);
    expected_ok += odd ? 30 : 37;
  }
  const PhaseAggregate agg = aggregate(create.ranks);
  EXPECT_EQ(agg.ok, expected_ok);
  // Only successful creates spend fake time; the rate counts only them.
  const double slowest = 37 * 10e-6;  // even ranks: 37 creates of 10 us
  EXPECT_NEAR(agg.time_s, slowest, 1e-12);
  EXPECT_NEAR(agg.ops_per_s, static_cast<double>(expected_ok) / slowest, 1e-6);
  // create, stat, read and remove each fail the same 7 items on every odd rank.
  EXPECT_EQ(run.failedOps(), comm.size() / 2 * 7 * 4u);
}

TEST(RunnerMpi, ManualClockRateIsExact) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  // Rank r spends (r + 1) * 10 us per stat: the slowest rank sets the time.
  fake.setLatency(FakeOp::kStat, std::chrono::microseconds(10 * (comm.rank() + 1)));
  Config config = smallConfig();
  config.kinds = ItemKinds::kDirsOnly;
  config.write_bytes = config.read_bytes = 0;
  const RunResult run = runFake(config, fake, clock, comm);
  if (comm.rank() != 0) return;
  const PhaseAggregate agg = aggregate(find(run, Phase::kDirStat).ranks);
  const double slowest = 37 * 10e-6 * comm.size();
  EXPECT_NEAR(agg.time_s, slowest, 1e-12);
  EXPECT_NEAR(agg.ops_per_s, 37.0 * comm.size() / slowest, 1e-6);
  EXPECT_NEAR(agg.rank_rate_max, 37 / (37 * 10e-6), 1e-6);
  EXPECT_NEAR(agg.rank_rate_min, 37 / slowest, 1e-6);
  EXPECT_NEAR(agg.balance, 1.0 / comm.size(), 1e-12);
}

TEST(RunnerMpi, BusyWaitLatencyGivesExpectedRate) {
  MpiComm comm;
  SteadyClock clock;
  FakeBackend fake;  // real time: each create busy-waits 100 us
  fake.setLatency(FakeOp::kCreateFile, std::chrono::microseconds(100));
  Config config = smallConfig();
  config.kinds = ItemKinds::kFilesOnly;
  config.items = 100;
  const RunResult run = runFake(config, fake, clock, comm);
  if (comm.rank() != 0) return;
  const PhaseAggregate agg = aggregate(find(run, Phase::kFileCreate).ranks);
  const double ideal = comm.size() * 100 / (100 * 100e-6);  // 10,000 ops/s per rank
  // Never faster than the injected latency allows (an exact bound). How much slower depends on the
  // machine's load (four ranks busy-waiting on two cores measured 7-50% of the ideal), so no lower bound
  // on the rate: a rate computed from the wrong count or time is caught by its definition instead, every
  // op of every rank over the phase's time.
  EXPECT_LE(agg.ops_per_s, ideal * (1 + 1e-9));
  EXPECT_GE(agg.time_s, 100 * 100e-6);
  EXPECT_EQ(agg.ok, 100u * comm.size());
  EXPECT_NEAR(agg.ops_per_s, 100.0 * comm.size() / agg.time_s, 1e-9 * agg.ops_per_s);
}

TEST(RunnerMpi, SetupFailureOnOneRankIsAgreedByAll) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  // The last rank cannot open the iteration directory; nobody may hang and everyone must know.
  if (comm.rank() == comm.size() - 1) fake.addFault({FakeOp::kOpenDir, 1, EACCES});
  const RunResult run = runFake(smallConfig(), fake, clock, comm);
  EXPECT_NE(run.setup_error.find("cannot open"), std::string::npos) << run.setup_error;
  EXPECT_NE(run.setup_error.find("EACCES"), std::string::npos) << run.setup_error;
  EXPECT_NE(run.setup_error.find("rank " + std::to_string(comm.size() - 1)), std::string::npos);
  EXPECT_TRUE(run.phases.empty());
}

// A shared tree needs one file system for all ranks: a real directory on tmpfs.
TEST(RunnerMpi, SharedTreeOnTmpfsLeavesNothingBehind) {
  MpiComm comm;
  SteadyClock clock;
  testing::TmpfsDir tmp;
  ASSERT_NO_FATAL_FAILURE(testing::makeTmpfsDir(comm, "runner", tmp));
  const std::string& dir = tmp.path;
  std::unique_ptr<PosixBackend>& backend = tmp.backend;
  Config config = smallConfig();
  config.sharing = TreeSharing::kShared;
  config.depth = 2;
  config.branching = 2;
  config.leaf_only = true;
  const Plan plan(config, comm.size());
  RunInfo info;
  info.target = dir;
  const RunResult run = runBenchmark(plan, RunParts{comm, clock, *backend}, info, {});
  backend.reset();
  comm.barrier();
  if (comm.rank() != 0) return;
  ASSERT_EQ(run.setup_error, "");
  EXPECT_EQ(run.failedOps(), 0u);
  const PhaseResult& tree = find(run, Phase::kTreeCreate);
  EXPECT_EQ(tree.ranks[0].ok, 7u);  // only rank 0 builds a shared tree
  for (std::uint32_t r = 1; r < comm.size(); ++r) EXPECT_EQ(tree.ranks[r].ok, 0u);
  EXPECT_EQ(aggregate(find(run, Phase::kFileCreate).ranks).ok, 37u * comm.size());
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove(dir);
}

// A stop signal on one rank (the last) ends every rank's run after the phase it arrived in; the stopped
// phase's counts stay exact, and what the run made is removed (at one rank, where the fake file system is
// the only one, nothing is left at all).
TEST(RunnerMpi, StopSignalEndsTheRunAfterThePhaseAndCleansUp) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  RecordingSink sink;
  Config config = smallConfig();
  config.iterations = 2;
  const bool last = comm.rank() == comm.size() - 1;
  const RunResult run = runFake(config, fake, clock, comm, &sink, [&](Phase phase) {
    if (last && phase == Phase::kTreeCreate) requestStopForTesting(SIGTERM);
  });
  requestStopForTesting(0);
  EXPECT_EQ(run.stop_signal, SIGTERM);
  if (comm.rank() == 0) {
    EXPECT_EQ(sink.phases, std::vector<Phase>{Phase::kTreeCreate});
    EXPECT_EQ(sink.ends, 1);
    ASSERT_EQ(run.phases.size(), 1u);
    for (const RankPhaseRecord& r : run.phases[0].ranks) EXPECT_EQ(r.ok + r.failed, r.planned);
  }
  // Each rank's fake is a file system of its own, so with several ranks each also holds the shares of the
  // others: only at one rank is the cleanup complete within one fake.
  if (comm.size() == 1) {
    EXPECT_EQ(fake.listAll(), std::vector<std::string>{});
    EXPECT_TRUE(run.cleanup_problems.empty());
  }
}

TEST(RunnerMpi, StopSignalKeepsTheTreesOfAKeepRun) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  Config config = smallConfig();
  config.keep = true;
  config.phases.remove = false;
  const RunResult run = runFake(config, fake, clock, comm, nullptr, [&](Phase phase) {
    if (phase == Phase::kTreeCreate) requestStopForTesting(SIGINT);
  });
  requestStopForTesting(0);
  EXPECT_EQ(run.stop_signal, SIGINT);
  EXPECT_TRUE(run.phases_began);
  if (comm.rank() == 0) {
    // The run directory stays, marked, with its ownership record and the tree, for the later jobs.
    const std::vector<std::string> left = fake.listAll();
    EXPECT_NE(std::find(left.begin(), left.end(), "mdbench.iter.0/.mdbench-run"), left.end());
    EXPECT_NE(std::find(left.begin(), left.end(), "mdbench.iter.0/.mdbench-taken"), left.end());
    EXPECT_GT(left.size(), 3u);
  }
}

// A stop before the first phase (here: before the run, on one rank) is agreed at the first setup step: no
// phase runs, no sink sees one, and the iteration directory's claim is undone, --keep or not.
TEST(RunnerMpi, StopBeforeTheFirstPhaseRecordsAndLeavesNothing) {
  for (const bool keep : {false, true}) {
    MpiComm comm;
    ManualClock clock;
    FakeBackend fake(&clock);
    RecordingSink sink;
    Config config = smallConfig();
    config.keep = keep;
    if (comm.rank() == comm.size() - 1) requestStopForTesting(SIGTERM);
    const RunResult run = runFake(config, fake, clock, comm, &sink);
    requestStopForTesting(0);
    EXPECT_EQ(run.stop_signal, SIGTERM);
    EXPECT_FALSE(run.phases_began);
    EXPECT_TRUE(run.phases.empty());
    EXPECT_TRUE(run.cleanup_problems.empty());
    if (comm.rank() == 0) {
      EXPECT_TRUE(sink.phases.empty());
    }
    // Other ranks' fakes hold only what prepareFake made there (the lead's directory, seen from them).
    const std::vector<std::string> made =
        comm.rank() == 0 ? std::vector<std::string>{} : std::vector<std::string>{"mdbench.iter.0/"};
    EXPECT_EQ(fake.listAll(), made) << "keep " << keep;
  }
}

// An item whose create found its name taken (EEXIST) was not made by this run: the remove phase leaves it
// alone (never calling unlink on it) and counts it as failed with EEXIST, on every rank.
TEST(RunnerMpi, ItemsFoundTakenAreNeverRemoved) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  fake.addFault({FakeOp::kCreateFile, 5, EEXIST});  // 7 of 37 creates find their name taken
  Config config = smallConfig();
  config.kinds = ItemKinds::kFilesOnly;
  const RunResult run = runFake(config, fake, clock, comm);
  // Rank 0's fake also holds the mark and the ownership record, whose writes are creates too (the mark,
  // the record at the start, after tree-create and before file-create: its items are creates 5 to 41, 8 of
  // them taken; on the other ranks creates 1 to 37, 7 taken). Rank 0 unlinks the record and its temporary
  // at each of its six writes (at the start, after tree-create, before and after file-create, after
  // file-remove and tree-remove) and at its removal, and the mark.
  EXPECT_EQ(fake.calls(FakeOp::kUnlink), comm.rank() == 0 ? 29u + 14u + 1u : 30u);
  if (comm.rank() != 0) return;
  const PhaseResult& remove = find(run, Phase::kFileRemove);
  for (std::uint32_t r = 0; r < comm.size(); ++r) {
    const std::uint64_t taken = r == 0 ? 8u : 7u;
    EXPECT_EQ(remove.ranks[r].ok, 37u - taken);
    EXPECT_EQ(remove.ranks[r].failed, taken);
    EXPECT_EQ(remove.ranks[r].first_error.err, EEXIST);
  }
}

}  // namespace
}  // namespace mdbench

namespace mdbench {
namespace {

// Keeps a copy of every phase as the sinks see it (with the per-rank series, freed after the sinks ran).
class CopyingSink final : public Sink {
 public:
  void begin(const RunInfo&, const Plan&) override {}
  void phase(const PhaseResult& result, const Plan&) override { seen.push_back(result); }
  void end(const RunResult&, const Plan&) override {}
  const PhaseResult& of(Phase phase) const {
    for (const PhaseResult& p : seen) {
      if (p.phase == phase) return p;
    }
    throw std::logic_error("phase not seen");
  }
  std::vector<PhaseResult> seen;
};

// Each file create takes exactly 10 ms on the manual clock, 100 ms intervals: op i (from 1) completes at
// i * 10 ms, and one completing on a boundary counts in the interval it opens. 35 ops: 9, 10, 10, 6.
TEST(RunnerSeries, ExactCountsPerIntervalOnTheManualClock) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  fake.setLatency(FakeOp::kCreateFile, std::chrono::milliseconds(10));
  Config config = smallConfig();
  config.kinds = ItemKinds::kFilesOnly;
  config.depth = 0;
  config.items = 35;
  config.series_interval_s = 0.1;
  CopyingSink sink;
  const RunResult run = runFake(config, fake, clock, comm, &sink);
  if (comm.rank() != 0) return;
  const PhaseResult& create = sink.of(Phase::kFileCreate);
  EXPECT_DOUBLE_EQ(create.series.interval_s, 0.1);
  ASSERT_EQ(create.series.intervals, 4u);
  for (std::uint32_t r = 0; r < comm.size(); ++r) {
    const std::vector<std::uint32_t> row(create.series.per_rank.begin() + r * 4,
                                         create.series.per_rank.begin() + (r + 1) * 4);
    EXPECT_EQ(row, (std::vector<std::uint32_t>{9, 10, 10, 6})) << "rank " << r;
  }
  const std::uint64_t n = comm.size();
  EXPECT_EQ(create.series.total, (std::vector<std::uint64_t>{9 * n, 10 * n, 10 * n, 6 * n}));
  // The run's own copy keeps the sums only, and gives the per-rank counts' memory back (rank 0 would
  // otherwise hold ranks x intervals counts of every phase to the end of the run).
  EXPECT_TRUE(find(run, Phase::kFileCreate).series.per_rank.empty());
  for (const PhaseResult& phase : run.phases) EXPECT_EQ(phase.series.per_rank.capacity(), 0u);
  EXPECT_EQ(find(run, Phase::kFileCreate).series.total, create.series.total);
}

// Ranks whose series merged to different intervals: the last rank takes 10 ms per create (150 ops, the last
// done at 1.5 s, which opens interval 1500 of 1 ms: 1501 intervals, merged to 751 of 2 ms), the others 1 ms
// (the last at 150 ms: 151 intervals of 1 ms). Rank 0 gets one interval, 2 ms, and 751 intervals: the fast
// ranks' counts in the first 76.
TEST(RunnerSeries, RanksWithDifferentlyMergedSeriesAgreeOnOneInterval) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  const bool slow = comm.size() > 1 && comm.rank() == comm.size() - 1;
  fake.setLatency(FakeOp::kCreateFile, std::chrono::milliseconds(slow ? 10 : 1));
  Config config = smallConfig();
  config.kinds = ItemKinds::kFilesOnly;
  config.depth = 0;
  config.items = 150;
  config.series_interval_s = 0.001;
  CopyingSink sink;
  (void)runFake(config, fake, clock, comm, &sink);
  if (comm.rank() != 0) return;
  const OpsSeries& s = sink.of(Phase::kFileCreate).series;
  const std::uint32_t want = comm.size() > 1 ? 751 : 151;
  EXPECT_DOUBLE_EQ(s.interval_s, comm.size() > 1 ? 0.002 : 0.001);
  ASSERT_EQ(s.intervals, want);
  ASSERT_EQ(s.per_rank.size(), std::size_t{want} * comm.size());
  for (std::uint32_t r = 0; r < comm.size(); ++r) {
    const auto row = s.per_rank.begin() + static_cast<std::ptrdiff_t>(r) * want;
    EXPECT_EQ(std::accumulate(row, row + want, std::uint64_t{0}), 150u) << "rank " << r;
    const bool is_slow = comm.size() > 1 && r == comm.size() - 1;
    const std::uint32_t reached = is_slow ? 751 : (comm.size() > 1 ? 76 : 151);
    EXPECT_EQ(std::accumulate(row + reached, row + want, std::uint64_t{0}), 0u) << "rank " << r;
  }
}

// On a real directory and the real clock: whatever the timing, every rank's intervals sum to its ok count
// and the totals to the phase's, in every phase.
TEST(RunnerSeries, SumsToEveryPhasesOpCountOnTmpfs) {
  MpiComm comm;
  testing::TmpfsDir tmp;
  ASSERT_NO_FATAL_FAILURE(testing::makeTmpfsDir(comm, "series", tmp));
  const std::string& dir = tmp.path;
  std::unique_ptr<PosixBackend>& backend = tmp.backend;
  Config config = smallConfig();
  config.items = 3000;
  config.series_interval_s = 0.001;  // several intervals even on a fast tmpfs
  config.phases.readdir = true;
  config.phases.rename = true;
  config.phases.file_rename = true;
  CopyingSink sink;
  const Plan plan(config, comm.size());
  SteadyClock clock;
  RunInfo info;
  info.ranks = comm.size();
  std::vector<Sink*> sinks{&sink};
  const RunResult run = runBenchmark(plan, RunParts{comm, clock, *backend, dir}, info, sinks);
  backend.reset();
  comm.barrier();
  if (comm.rank() != 0) return;
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove(dir);
  ASSERT_EQ(run.setup_error, "");
  ASSERT_EQ(sink.seen.size(), selectPhases(config).size());
  bool several = false;
  for (const PhaseResult& p : sink.seen) {
    SCOPED_TRACE(std::string(phaseName(p.phase)));
    const OpsSeries& s = p.series;
    ASSERT_EQ(s.per_rank.size(), std::size_t{s.intervals} * comm.size());
    ASSERT_EQ(s.total.size(), s.intervals);
    std::uint64_t all = 0;
    for (std::uint32_t r = 0; r < comm.size(); ++r) {
      std::uint64_t sum = 0;
      for (std::uint32_t k = 0; k < s.intervals; ++k) sum += s.per_rank[r * s.intervals + k];
      EXPECT_EQ(sum, p.ranks[r].ok) << "rank " << r;
      all += sum;
    }
    std::uint64_t total = 0;
    for (const std::uint64_t t : s.total) total += t;
    EXPECT_EQ(total, all);
    EXPECT_GE(s.interval_s, 0.001);
    several = several || s.intervals > 1;
  }
  EXPECT_TRUE(several) << "no phase lasted more than one interval";
}

// Rank 1 takes three times as long per stat: when the others (10 ms x 100) finish at 1 s, rank 1 (30 ms per
// op, done at 30, 60, ... 990 ms) has done 33; first done = (100 per fast rank + 33) ops / 1 s, last done =
// all ops / 3 s. At one rank there is no slow rank and the two agree. The manual clocks make times exact.
TEST(RunnerSeries, FirstDoneRateWithARankMadeSlow) {
  MpiComm comm;
  const bool slow_rank = comm.size() >= 2;
  ManualClock clock;
  FakeBackend fake(&clock);
  fake.setLatency(FakeOp::kStat, std::chrono::milliseconds(comm.rank() == 1 ? 30 : 10));
  Config config = smallConfig();
  config.kinds = ItemKinds::kFilesOnly;
  config.depth = 0;
  config.items = 100;
  config.series_interval_s = 0.1;
  CopyingSink sink;
  const RunResult run = runFake(config, fake, clock, comm, &sink);
  if (comm.rank() != 0) return;
  ASSERT_EQ(run.setup_error, "");
  const PhaseResult& stat = sink.of(Phase::kFileStat);
  const DoneRates d = doneRates(stat.ranks, stat.series);
  const std::uint64_t fast = comm.size() - (slow_rank ? 1 : 0);
  const std::uint64_t first_ops = 100 * fast + (slow_rank ? 33 : 0);
  EXPECT_NEAR(d.first_done_time_s, 1.0, 1e-9);
  EXPECT_EQ(d.first_done_ops, first_ops);
  EXPECT_NEAR(d.first_done_ops_per_s, static_cast<double>(first_ops), 1e-6);
  EXPECT_NEAR(d.last_done_time_s, slow_rank ? 3.0 : 1.0, 1e-9);
  EXPECT_NEAR(d.last_done_ops_per_s, 100.0 * comm.size() / (slow_rank ? 3.0 : 1.0), 1e-6);
  if (slow_rank) {
    EXPECT_GT(d.first_done_ops_per_s, d.last_done_ops_per_s);
  }
}

}  // namespace
}  // namespace mdbench
