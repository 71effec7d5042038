// The steady-state workload under real MPI (1, 2 and 4 ranks): the working set counted on a real tmpfs after
// every round, exact histograms and rates from injected latencies, failures counted and kept out of rates,
// the stonewall's agreement; and its pure functions (names, ring, FIFO, summary).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

#include "mdbench/backend/fake_backend.hpp"
#include "mdbench/backend/posix_backend.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/run/mpi_comm.hpp"
#include "mdbench/run/signals.hpp"
#include "mdbench/run/steady_engine.hpp"
#include "mpi_tmpfs.hpp"

namespace mdbench {
namespace {

using std::chrono::microseconds;

constexpr std::size_t kStat = opKindIndex(OpKind::kStat);
constexpr std::size_t kRead = opKindIndex(OpKind::kRead);
constexpr std::size_t kDelete = opKindIndex(OpKind::kDelete);
constexpr std::size_t kCreate = opKindIndex(OpKind::kCreate);
constexpr std::size_t kMkdir = opKindIndex(OpKind::kMkdir);
constexpr std::size_t kRmdir = opKindIndex(OpKind::kRmdir);

const PhaseResult& phaseOf(const SteadyResult& result, Phase phase) {
  for (const PhaseResult& p : result.phases) {
    if (p.phase == phase) return p;
  }
  throw std::logic_error("phase not in result");
}

// Every failed op of every phase and rank.
std::uint64_t failedOps(const SteadyResult& result) {
  std::uint64_t n = 0;
  for (const PhaseResult& p : result.phases) {
    for (const RankPhaseRecord& r : p.ranks) n += r.failed;
  }
  return n;
}

std::vector<std::uint64_t> bucketsOf(const LatencyHistogram& h) {
  return {h.counts().begin(), h.counts().end()};
}

// Each rank's fake is its own file system, so the fake tests use offset = size: every rank then reads and
// writes only its own datasets, and each fake holds everything its rank touches, while records and
// histograms still go through the real gathers and reductions. Cross-rank access is tested on tmpfs.
SteadyConfig ownDatasetsConfig(const Comm& comm) {
  SteadyConfig config;
  config.offset = comm.size();
  return config;
}

SteadyResult runOnFake(const SteadyConfig& config, Comm& comm, Clock& clock, FakeBackend& fake,
                       SteadyRoundHook hook = {}) {
  return runSteady(config, SteadyParts{comm, clock, fake, fake.root(), std::move(hook)});
}

// ---- pure functions ----

TEST(SteadyNames, DatasetsAndObjects) {
  EXPECT_EQ(steadyDatasetName(3, 7), "steady.mdbench.3.7");
  EXPECT_EQ(steadyObjectName(1, 2, 30), "obj.mdbench.1.2.30");
  EXPECT_EQ(steadyObjectName(4294967295u, 4294967295u, ~std::uint64_t{0}),
            "obj.mdbench.4294967295.4294967295.18446744073709551615");
  // mdbench clean and the cleanup after a signal recognise them (layout.hpp).
  EXPECT_EQ(classifyName(steadyDatasetName(3, 7)), GeneratedName::kGeneratedDir);
  EXPECT_EQ(classifyName(steadyObjectName(3, 7, 12)), GeneratedName::kGeneratedFile);
}

TEST(SteadyRing, ReadsFromRankMinusDistanceAndWritesToRankPlusDistance) {
  for (std::uint32_t size = 1; size <= 7; ++size) {
    for (std::uint32_t offset : {0u, 1u, 2u, 3u, 5u, 8u, 4294967295u}) {
      for (std::uint32_t d : {0u, 1u, 2u, 6u, 4294967295u}) {
        const std::uint64_t k = std::uint64_t{offset} * (d + 1ull) % size;  // < 2^32 * 2^32: no overflow
        std::set<std::uint32_t> written;
        for (std::uint32_t r = 0; r < size; ++r) {
          EXPECT_EQ(steadyReadOwner(r, size, offset, d), (r + size - k) % size);
          EXPECT_EQ(steadyWriteOwner(r, size, offset, d), (r + k) % size);
          written.insert(steadyWriteOwner(r, size, offset, d));
        }
        EXPECT_EQ(written.size(), size) << "every dataset d has exactly one writer";
      }
    }
  }
  // md-workbench's example: 4 ranks, offset 1: rank 0 reads dataset 0 of rank 3, dataset 1 of rank 2.
  EXPECT_EQ(steadyReadOwner(0, 4, 1, 0), 3u);
  EXPECT_EQ(steadyWriteOwner(0, 4, 1, 0), 1u);
  EXPECT_EQ(steadyReadOwner(0, 4, 1, 1), 2u);
}

// The FIFO formulas against a simulated dataset: delete the victim, add the new object, round by round.
TEST(SteadyFifo, SurvivorsAfterRRoundsAreRToRPlusP) {
  for (std::uint64_t p = 1; p <= 5; ++p) {
    std::set<std::uint64_t> objects;
    for (std::uint64_t i = 0; i < p; ++i) objects.insert(i);
    for (std::uint64_t f = 0; f < 13; ++f) {
      ASSERT_EQ(objects.erase(steadyVictim(f)), 1u) << "the victim is always present";
      ASSERT_TRUE(objects.insert(steadyNewObject(p, f)).second) << "the new object is always new";
      std::set<std::uint64_t> expected;
      for (std::uint64_t i = steadyFirstSurvivor(f + 1); i < steadyFirstSurvivor(f + 1) + p; ++i) {
        expected.insert(i);
      }
      EXPECT_EQ(objects, expected);
    }
  }
}

TEST(SteadyConfigProblems, EveryProblemAtOnce) {
  EXPECT_TRUE(steadyConfigProblems(SteadyConfig{}).empty());
  SteadyConfig bad;
  bad.datasets = 0;
  bad.working_set = 0;
  bad.stonewall_s = -1;
  EXPECT_EQ(steadyConfigProblems(bad).size(), 3u);
  SteadyConfig huge;
  huge.working_set = std::uint64_t{1} << 62;
  huge.rounds = std::uint64_t{1} << 62;
  ASSERT_EQ(steadyConfigProblems(huge).size(), 1u);
  EXPECT_NE(steadyConfigProblems(huge)[0].find("working_set + rounds"), std::string::npos);
}

TEST(SteadyOps, PhasesHaveTheirOps) {
  const auto kinds = [](Phase p) { return std::vector<OpKind>(opKindsOf(p).begin(), opKindsOf(p).end()); };
  EXPECT_EQ(kinds(Phase::kSteadyPrecreate), (std::vector{OpKind::kMkdir, OpKind::kCreate}));
  EXPECT_EQ(kinds(Phase::kSteadyMix),
            (std::vector{OpKind::kStat, OpKind::kRead, OpKind::kDelete, OpKind::kCreate}));
  EXPECT_EQ(kinds(Phase::kSteadyCleanup), (std::vector{OpKind::kDelete, OpKind::kRmdir}));
  EXPECT_EQ(phaseName(Phase::kSteadyMix), "mix");
  EXPECT_STREQ(opKindName(OpKind::kDelete), "delete");
}

TEST(SteadySummary, FormulasOnHandBuiltRecords) {
  PhaseResult p;
  p.phase = Phase::kSteadyMix;
  p.ranks.resize(2);
  // Rank 0: 10 stats and 10 creates in 2 s of its own, 4 s barrier to barrier; its timer fired after 3
  // rounds at 1.5 s. Rank 1: 8 stats (2 failed) and 8 creates in 4 s, 4.5 s barrier to barrier.
  p.ranks[0].kinds[kStat] = {10, 0};
  p.ranks[0].kinds[kCreate] = {10, 0};
  p.ranks[0].bytes = 100;
  p.ranks[0].rounds = 5;
  p.ranks[0].ops_at_stonewall = 3;
  p.ranks[0].t_start = 1.0;
  p.ranks[0].t_stonewall = 2.5;
  p.ranks[0].t_local_end = 3.0;
  p.ranks[0].t_global_end = 5.0;
  p.ranks[1].kinds[kStat] = {8, 2};
  p.ranks[1].kinds[kCreate] = {8, 0};
  p.ranks[1].rounds = 5;
  p.ranks[1].ops_at_stonewall = 5;
  p.ranks[1].t_start = 0.5;
  p.ranks[1].t_local_end = 4.5;
  p.ranks[1].t_global_end = 5.0;
  for (RankPhaseRecord& r : p.ranks) sumKinds(r);
  p.kind_latency.resize(kOpKindCount);
  p.kind_latency[kStat].add(1000);
  p.kind_latency[kStat].add(3000);
  const SteadyPhaseSummary s = summarizeSteadyPhase(p);
  EXPECT_EQ(s.aggregate.active_ranks, 2u);
  EXPECT_DOUBLE_EQ(s.aggregate.time_s, 4.5);
  EXPECT_EQ(s.ops[kStat].ok, 18u);
  EXPECT_EQ(s.ops[kStat].failed, 2u);
  EXPECT_DOUBLE_EQ(s.ops[kStat].ops_per_s, 18 / 4.5);
  EXPECT_DOUBLE_EQ(s.ops[kCreate].ops_per_s, 18 / 4.5);
  EXPECT_EQ(s.ops[kStat].latency.max_ns, p.kind_latency[kStat].maxBound());
  EXPECT_EQ(s.ops[kStat].latency.p50_ns, p.kind_latency[kStat].quantile(0.5));
  EXPECT_EQ(s.aggregate.ok, 36u);
  EXPECT_EQ(s.aggregate.failed, 2u);
  EXPECT_DOUBLE_EQ(s.aggregate.ops_per_s, 36 / 4.5);
  EXPECT_DOUBLE_EQ(s.bytes_per_s, 100 / 4.5);
  EXPECT_EQ(s.rounds, 5u);
  EXPECT_DOUBLE_EQ(s.rounds_per_s, 5 / 4.5);
  EXPECT_DOUBLE_EQ(s.objects_per_s, 0.0);  // no reads
  EXPECT_DOUBLE_EQ(s.rank_time_min_s, 2.0);
  EXPECT_DOUBLE_EQ(s.rank_time_max_s, 4.0);
  EXPECT_DOUBLE_EQ(s.rank_time_mean_s, 3.0);
  EXPECT_DOUBLE_EQ(s.time_balance, 0.5);
  EXPECT_DOUBLE_EQ(s.aggregate.rank_rate_min, 16 / 4.0);
  EXPECT_DOUBLE_EQ(s.aggregate.rank_rate_max, 20 / 2.0);
  EXPECT_DOUBLE_EQ(s.aggregate.balance, 0.4);
  EXPECT_TRUE(s.aggregate.stonewalled);
  EXPECT_DOUBLE_EQ(s.aggregate.stonewall_time_s, 1.5);
  EXPECT_EQ(s.aggregate.ops_at_stonewall, 8u);
  EXPECT_DOUBLE_EQ(s.rounds_per_s_at_stonewall, 8 / 2.0 / 1.5);

  EXPECT_DOUBLE_EQ(summarizeSteadyPhase(PhaseResult{}).time_balance, 0.0);
}

TEST(SteadySummary, DescribeError) {
  RankPhaseRecord r;
  EXPECT_EQ(describeSteadyError(r), "");
  r.first_error = FirstError{ENOENT, 3, 1, 17};
  r.first_error_kind = OpKind::kDelete;
  EXPECT_EQ(describeSteadyError(r).rfind("delete steady.mdbench.3.1/obj.mdbench.3.1.17: ENOENT", 0), 0u)
      << describeSteadyError(r);
  r.first_error = FirstError{ENOTEMPTY, 2, 0, ~std::uint64_t{0}};
  r.first_error_kind = OpKind::kRmdir;
  EXPECT_EQ(describeSteadyError(r).rfind("rmdir steady.mdbench.2.0: ENOTEMPTY", 0), 0u);
}

// ---- the engine under MPI ----

// Test 1: the real thing on one shared tmpfs directory, with cross-rank reads and writes (offset 1). After
// every round (the hook: all ranks have finished it) each rank lists its datasets on disk: exactly the
// survivors R .. R+P-1, P per dataset, size * D * P in all; after cleanup the directory is empty.
TEST(SteadyMpi, WorkingSetStaysExactOnDiskAndNothingIsLeft) {
  MpiComm comm;
  SteadyClock clock;
  testing::TmpfsDir tmp;
  ASSERT_NO_FATAL_FAILURE(testing::makeTmpfsDir(comm, "steady", tmp));
  const std::string& dir = tmp.path;
  std::unique_ptr<PosixBackend>& backend = tmp.backend;
  SteadyConfig config;
  config.datasets = 3;
  config.working_set = 4;
  config.rounds = 9;  // more than P: every precreated object is gone by the end
  config.offset = 1;
  config.object_bytes = 100;
  std::uint64_t hook_calls = 0;
  auto count_on_disk = [&](std::uint64_t done) {
    comm.barrier();  // every rank has finished round `done`
    ++hook_calls;
    std::uint64_t total = 0;
    for (std::uint32_t d = 0; d < config.datasets; ++d) {
      std::set<std::string> names;
      for (const auto& entry :
           std::filesystem::directory_iterator(dir + "/" + steadyDatasetName(comm.rank(), d))) {
        EXPECT_TRUE(entry.is_regular_file());
        EXPECT_EQ(entry.file_size(), config.object_bytes);
        names.insert(entry.path().filename().string());
      }
      std::set<std::string> expected;
      for (std::uint64_t i = steadyFirstSurvivor(done); i < steadyFirstSurvivor(done) + config.working_set;
           ++i) {
        expected.insert(steadyObjectName(comm.rank(), d, i));
      }
      EXPECT_EQ(names.size(), config.working_set) << "round " << done << " dataset " << d;
      EXPECT_EQ(names, expected) << "round " << done << " dataset " << d;
      total += names.size();
      // Who wrote each object (fillPattern's header names the writer): the precreated ones their owner,
      // every later one the rank before the owner on d's ring, another rank unless k_d is 0 mod size.
      const std::uint32_t writer = steadyReadOwner(comm.rank(), comm.size(), config.offset, d);
      for (std::uint64_t i = steadyFirstSurvivor(done); i < steadyFirstSurvivor(done) + config.working_set;
           ++i) {
        std::vector<std::byte> data(config.object_bytes);
        std::ifstream(
            dir + "/" + steadyDatasetName(comm.rank(), d) + "/" + steadyObjectName(comm.rank(), d, i),
            std::ios::binary)
            .read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size()));
        EXPECT_TRUE(checkPattern(data, i < config.working_set ? comm.rank() : writer, 0))
            << "object " << i << " of dataset " << d;
      }
    }
    EXPECT_EQ(comm.allreduceSum(total), comm.size() * config.datasets * config.working_set);
    comm.barrier();  // nobody starts the next round before every rank has counted
  };
  const SteadyResult result =
      runSteady(config, SteadyParts{comm, clock, *backend, backend->root(), count_on_disk});
  EXPECT_EQ(hook_calls, config.rounds);
  EXPECT_EQ(result.rounds, config.rounds);
  backend.reset();
  comm.barrier();
  if (comm.rank() != 0) return;
  ASSERT_EQ(result.phases.size(), 3u);
  EXPECT_EQ(failedOps(result), 0u);
  const std::uint64_t n = comm.size();
  const std::uint64_t mix_ops = n * config.rounds * config.datasets;
  const SteadyPhaseSummary pre = summarizeSteadyPhase(phaseOf(result, Phase::kSteadyPrecreate));
  EXPECT_EQ(pre.ops[kMkdir].ok, n * config.datasets);
  EXPECT_EQ(pre.ops[kCreate].ok, n * config.datasets * config.working_set);
  const SteadyPhaseSummary mix = summarizeSteadyPhase(phaseOf(result, Phase::kSteadyMix));
  for (const std::size_t op : {kStat, kRead, kDelete, kCreate}) EXPECT_EQ(mix.ops[op].ok, mix_ops);
  EXPECT_EQ(mix.aggregate.bytes, 2 * mix_ops * config.object_bytes);
  EXPECT_EQ(mix.rounds, config.rounds);
  for (const std::size_t op : {kStat, kRead, kDelete, kCreate}) {
    EXPECT_EQ(phaseOf(result, Phase::kSteadyMix).kind_latency[op].count(), mix_ops);
  }
  const SteadyPhaseSummary clean = summarizeSteadyPhase(phaseOf(result, Phase::kSteadyCleanup));
  EXPECT_EQ(clean.ops[kDelete].ok, n * config.datasets * config.working_set);
  EXPECT_EQ(clean.ops[kRmdir].ok, n * config.datasets);
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove(dir);
}

// Test 2: injected latencies on a ManualClock, different per op and per rank (rank r takes (r + 1) times
// the base): the merged histograms equal ones built by hand from those exact values, and the rates are
// exact.
TEST(SteadyMpi, InjectedLatenciesGiveExactHistogramsAndRates) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  const std::int64_t scale = comm.rank() + 1;
  fake.setLatency(FakeOp::kMakeDir, microseconds(7));
  fake.setLatency(FakeOp::kStat, microseconds(1 * scale));
  fake.setLatency(FakeOp::kReadFile, microseconds(2 * scale));
  fake.setLatency(FakeOp::kUnlink, microseconds(3 * scale));
  fake.setLatency(FakeOp::kCreateFile, microseconds(5 * scale));
  fake.setLatency(FakeOp::kRemoveDir, microseconds(11));
  SteadyConfig config = ownDatasetsConfig(comm);
  config.datasets = 3;
  config.working_set = 4;
  config.rounds = 6;
  config.object_bytes = 32;
  const SteadyResult result = runOnFake(config, comm, clock, fake);
  EXPECT_TRUE(fake.listAll().empty()) << fake.listAll().front();
  if (comm.rank() != 0) return;
  ASSERT_EQ(result.phases.size(), 3u);
  EXPECT_EQ(failedOps(result), 0u);
  const std::uint64_t n = comm.size();
  const std::uint64_t d = config.datasets, p = config.working_set, r = config.rounds;

  // The histograms every rank's exact latencies make.
  auto expected = [&](std::uint64_t per_rank, std::uint64_t base_us, bool scaled) {
    LatencyHistogram h;
    for (std::uint64_t rank = 0; rank < n; ++rank) {
      for (std::uint64_t i = 0; i < per_rank; ++i) h.add(base_us * 1000 * (scaled ? rank + 1 : 1));
    }
    return h;
  };
  const PhaseResult& mix = phaseOf(result, Phase::kSteadyMix);
  const std::pair<std::size_t, std::uint64_t> mix_ops[] = {
      {kStat, 1}, {kRead, 2}, {kDelete, 3}, {kCreate, 5}};
  for (const auto& [op, base] : mix_ops) {
    const LatencyHistogram want = expected(r * d, base, true);
    EXPECT_EQ(bucketsOf(mix.kind_latency[op]), bucketsOf(want)) << opKindName(static_cast<OpKind>(op));
    const LatencySummary got = latencySummary(mix.kind_latency[op]);
    const LatencySummary exact = latencySummary(want);
    EXPECT_EQ(got.p50_ns, exact.p50_ns);
    EXPECT_EQ(got.p90_ns, exact.p90_ns);
    EXPECT_EQ(got.p99_ns, exact.p99_ns);
    EXPECT_EQ(got.max_ns, exact.max_ns);
    // The slowest rank's value lies in the top bucket: the max is its bucket's upper bound.
    EXPECT_GE(got.max_ns, base * 1000 * n);
    EXPECT_LE(LatencyHistogram::bucketLow(LatencyHistogram::bucketOf(got.max_ns)), base * 1000 * n);
  }
  EXPECT_EQ(mix.kind_latency[kMkdir].count(), 0u);
  EXPECT_EQ(mix.kind_latency[kRmdir].count(), 0u);
  // The phase's latency holds every kind's ops, as a selected phase's holds its one kind's.
  LatencyHistogram all;
  for (const LatencyHistogram& h : mix.kind_latency) all += h;
  EXPECT_EQ(bucketsOf(mix.latency), bucketsOf(all));
  EXPECT_EQ(mix.latency.count(), 4 * r * d * n);
  EXPECT_EQ(mix.items, r);
  EXPECT_EQ(phaseOf(result, Phase::kSteadyPrecreate).items, 0u);

  // Rank r's mix takes R * D * (1 + 2 + 3 + 5) * (r + 1) us; the last rank is the slowest.
  const double mix_time = static_cast<double>(r * d * 11 * n) * 1e-6;
  const SteadyPhaseSummary s = summarizeSteadyPhase(mix);
  EXPECT_NEAR(s.aggregate.time_s, mix_time, 1e-12);
  for (const std::size_t op : {kStat, kRead, kDelete, kCreate}) {
    EXPECT_EQ(s.ops[op].ok, n * r * d);
    EXPECT_NEAR(s.ops[op].ops_per_s, static_cast<double>(n * r * d) / mix_time, 1e-6);
  }
  EXPECT_NEAR(s.rounds_per_s, static_cast<double>(r) / mix_time, 1e-9);
  EXPECT_NEAR(s.objects_per_s, static_cast<double>(n * r * d) / mix_time, 1e-6);
  EXPECT_EQ(s.aggregate.bytes, 2 * n * r * d * 32);
  EXPECT_NEAR(s.time_balance, 1.0 / static_cast<double>(n), 1e-12);
  EXPECT_NEAR(s.aggregate.balance, 1.0 / static_cast<double>(n), 1e-12);
  EXPECT_NEAR(s.rank_time_min_s, static_cast<double>(r * d * 11) * 1e-6, 1e-12);
  EXPECT_FALSE(s.aggregate.stonewalled);

  const PhaseResult& pre = phaseOf(result, Phase::kSteadyPrecreate);
  EXPECT_EQ(bucketsOf(pre.kind_latency[kMkdir]), bucketsOf(expected(d, 7, false)));
  EXPECT_EQ(bucketsOf(pre.kind_latency[kCreate]), bucketsOf(expected(p * d, 5, true)));
  const double pre_time = static_cast<double>(d * 7 + p * d * 5 * n) * 1e-6;
  const SteadyPhaseSummary ps = summarizeSteadyPhase(pre);
  EXPECT_NEAR(ps.aggregate.time_s, pre_time, 1e-12);
  EXPECT_NEAR(ps.ops[kCreate].ops_per_s, static_cast<double>(n * p * d) / pre_time, 1e-6);
  EXPECT_NEAR(ps.ops[kMkdir].ops_per_s, static_cast<double>(n * d) / pre_time, 1e-9);

  const PhaseResult& clean = phaseOf(result, Phase::kSteadyCleanup);
  EXPECT_EQ(bucketsOf(clean.kind_latency[kDelete]), bucketsOf(expected(p * d, 3, true)));
  EXPECT_EQ(bucketsOf(clean.kind_latency[kRmdir]), bucketsOf(expected(d, 11, false)));
  const double clean_time = static_cast<double>(p * d * 3 * n + d * 11) * 1e-6;
  EXPECT_NEAR(summarizeSteadyPhase(clean).aggregate.time_s, clean_time, 1e-12);
}

// Test 3: counts are exact, and a fault injected on one rank (the last) is counted as failed, kept out of
// the rates and the histograms, and shows in the balance. A failed read does not stop the delete and
// create, so the working set stays intact and cleanup finds everything.
// What each phase measured over time (result.hpp's PhaseTimeline), as the runner's phases have it: every
// rank's series adds up to its ok of every op type, the totals to the sums over ranks; a create that takes 3
// ms on every rank (every other op none, on the manual clock) is the precreate's and the mix's stall.
TEST(SteadyMpi, SeriesAndStallAsTheRunnersPhasesHaveThem) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  fake.setLatency(FakeOp::kCreateFile, microseconds(3000));
  SteadyConfig config = ownDatasetsConfig(comm);
  config.datasets = 2;
  config.working_set = 3;
  config.rounds = 4;
  SteadyParts parts{comm, clock, fake, fake.root()};
  parts.series_interval_ns = 1'000'000;
  const SteadyResult result = runSteady(config, parts);
  if (comm.rank() != 0) return;
  ASSERT_EQ(result.phases.size(), 3u);
  for (const PhaseResult& p : result.phases) {
    SCOPED_TRACE(phaseName(p.phase));
    const OpsSeries& s = p.series;
    EXPECT_DOUBLE_EQ(s.interval_s, 1e-3);
    ASSERT_EQ(s.per_rank.size(), p.ranks.size() * s.intervals);
    ASSERT_EQ(s.total.size(), s.intervals);
    std::uint64_t all = 0;
    for (std::size_t r = 0; r < p.ranks.size(); ++r) {
      std::uint64_t sum = 0;
      for (std::size_t k = 0; k < s.intervals; ++k) sum += s.per_rank[r * s.intervals + k];
      EXPECT_EQ(sum, p.ranks[r].ok) << "rank " << r;
      all += sum;
    }
    std::uint64_t totals = 0;
    for (const std::uint64_t t : s.total) totals += t;
    EXPECT_EQ(totals, all);
    EXPECT_TRUE(p.stall.measured);
    EXPECT_TRUE(p.faults.empty());
  }
  EXPECT_NEAR(phaseOf(result, Phase::kSteadyPrecreate).stall.stall_s, 3e-3, 1e-6);
  EXPECT_NEAR(phaseOf(result, Phase::kSteadyMix).stall.stall_s, 3e-3, 1e-6);
  // Precreate: 2 datasets x 3 objects of 3 ms each, counted in the 1 ms intervals they completed in.
  EXPECT_GE(phaseOf(result, Phase::kSteadyPrecreate).series.intervals, 18u);
}

TEST(SteadyMpi, FailedReadsAreCountedAndExcludedFromRates) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  for (const FakeOp op : {FakeOp::kStat, FakeOp::kReadFile, FakeOp::kUnlink, FakeOp::kCreateFile}) {
    fake.setLatency(op, microseconds(1));
  }
  const std::uint32_t faulty = comm.size() - 1;
  if (comm.rank() == faulty) fake.addFault({FakeOp::kReadFile, 4, EIO});  // calls 4, 8, ..., 28 of 30
  SteadyConfig config = ownDatasetsConfig(comm);
  config.datasets = 3;
  config.working_set = 2;
  config.rounds = 10;
  const SteadyResult result = runOnFake(config, comm, clock, fake);
  EXPECT_TRUE(fake.listAll().empty());
  if (comm.rank() != 0) return;
  const std::uint64_t n = comm.size();
  EXPECT_EQ(failedOps(result), 7u);
  const PhaseResult& mix = phaseOf(result, Phase::kSteadyMix);
  for (std::uint32_t rank = 0; rank < n; ++rank) {
    const RankPhaseRecord& rec = mix.ranks[rank];
    const bool bad = rank == faulty;
    EXPECT_EQ(rec.kinds[kStat].ok, 30u);
    EXPECT_EQ(rec.kinds[kRead].ok, bad ? 23u : 30u);
    EXPECT_EQ(rec.kinds[kRead].failed, bad ? 7u : 0u);
    EXPECT_EQ(rec.kinds[kDelete].ok, 30u);
    EXPECT_EQ(rec.kinds[kCreate].ok, 30u);
    EXPECT_EQ(rec.rounds, 10u);
    if (bad) {
      // The 4th read: round 1, dataset 0, object 1 (the victim of round 1), in the rank's own dataset.
      EXPECT_EQ(rec.first_error.err, EIO);
      EXPECT_EQ(rec.first_error_kind, OpKind::kRead);
      EXPECT_EQ(rec.first_error.owner, rank);
      EXPECT_EQ(rec.first_error.dir, 0u);
      EXPECT_EQ(rec.first_error.item, 1u);
    } else {
      EXPECT_FALSE(rec.first_error.any());
    }
  }
  const SteadyPhaseSummary s = summarizeSteadyPhase(mix);
  EXPECT_EQ(s.ops[kStat].ok, n * 30);
  EXPECT_EQ(s.ops[kRead].ok, n * 30 - 7);
  EXPECT_EQ(s.ops[kRead].failed, 7u);
  EXPECT_EQ(mix.kind_latency[kRead].count(), n * 30 - 7);
  // Failed reads take their microsecond too: every rank's mix is 30 * 4 us.
  const double time = 120e-6;
  EXPECT_NEAR(s.aggregate.time_s, time, 1e-12);
  EXPECT_NEAR(s.ops[kRead].ops_per_s, static_cast<double>(n * 30 - 7) / time, 1e-6);
  EXPECT_NEAR(s.ops[kStat].ops_per_s, static_cast<double>(n * 30) / time, 1e-6);
  EXPECT_NEAR(s.time_balance, 1.0, 1e-12);
  // The faulty rank did 113 ops in the time the others did 120 (one rank alone: balance 1).
  EXPECT_NEAR(s.aggregate.balance, n > 1 ? 113.0 / 120.0 : 1.0, 1e-12);
  for (const PhaseResult& p : result.phases) {
    if (p.phase != Phase::kSteadyMix) {
      EXPECT_EQ(summarizeSteadyPhase(p).aggregate.failed, 0u);
    }
  }
}

// A failed stat skips that object's read, delete and create (md-workbench's rule): the object stays and
// its replacement is never made, so cleanup cannot find the replacement (ENOENT) and cannot remove the
// dataset that still holds the old object (ENOTEMPTY). Everything is counted, nothing is hidden.
TEST(SteadyMpi, FailedStatSkipsTheObjectAndCleanupReportsWhatIsLeft) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  const std::uint32_t faulty = comm.size() - 1;
  if (comm.rank() == faulty) fake.addFault({FakeOp::kStat, 5, EIO});  // the 5th of 8: round 2, dataset 0
  SteadyConfig config = ownDatasetsConfig(comm);
  config.datasets = 2;
  config.working_set = 4;
  config.rounds = 4;  // the missing object 6 would be read in round 6: never
  const SteadyResult result = runOnFake(config, comm, clock, fake);
  if (comm.rank() == faulty) {
    const std::string ds = steadyDatasetName(faulty, 0);
    EXPECT_EQ(fake.listAll(),
              (std::vector<std::string>{ds + "/", ds + "/" + steadyObjectName(faulty, 0, 2)}));
  } else {
    EXPECT_TRUE(fake.listAll().empty());
  }
  if (comm.rank() != 0) return;
  EXPECT_EQ(failedOps(result), 3u);
  const RankPhaseRecord& mix = phaseOf(result, Phase::kSteadyMix).ranks[faulty];
  EXPECT_EQ(mix.kinds[kStat].ok, 7u);
  EXPECT_EQ(mix.kinds[kStat].failed, 1u);
  for (const std::size_t op : {kRead, kDelete, kCreate}) {
    EXPECT_EQ(mix.kinds[op].ok, 7u);
    EXPECT_EQ(mix.kinds[op].failed, 0u);
  }
  EXPECT_EQ(mix.first_error.item, 2u);
  const RankPhaseRecord& clean = phaseOf(result, Phase::kSteadyCleanup).ranks[faulty];
  EXPECT_EQ(clean.kinds[kDelete].ok, 7u);
  EXPECT_EQ(clean.kinds[kDelete].failed, 1u);
  EXPECT_EQ(clean.kinds[kRmdir].ok, 1u);
  EXPECT_EQ(clean.kinds[kRmdir].failed, 1u);
  EXPECT_EQ(describeSteadyError(clean).rfind(fmt::format("delete {}/{}: ENOENT", steadyDatasetName(faulty, 0),
                                                         steadyObjectName(faulty, 0, 6)),
                                             0),
            0u)
      << describeSteadyError(clean);
}

// Test 4: the stonewall. Every rank's timer fires: the fast ranks' (10 us per op, 80 us per round) after
// round 119 (9.52 ms >= 9.5 ms), the slow last rank's (100 us per op) after round 12. All agree on 119: the
// slow rank wears out to it, and cleanup then finds exactly objects 119 .. 121 in every dataset (every
// delete and rmdir succeeds, nothing is left), so the working set was exactly P.
TEST(SteadyMpi, StonewallAgreesOnTheLargestRoundCountAndKeepsTheWorkingSet) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  const bool slow = comm.size() > 1 && comm.rank() == comm.size() - 1;
  for (const FakeOp op : {FakeOp::kStat, FakeOp::kReadFile, FakeOp::kUnlink, FakeOp::kCreateFile}) {
    fake.setLatency(op, microseconds(slow ? 100 : 10));
  }
  SteadyConfig config = ownDatasetsConfig(comm);
  config.datasets = 2;
  config.working_set = 3;
  config.rounds = 1000;
  config.stonewall_s = 0.0095;
  const SteadyResult result = runOnFake(config, comm, clock, fake);
  EXPECT_EQ(result.rounds, 119u);
  EXPECT_TRUE(fake.listAll().empty());
  if (comm.rank() != 0) return;
  EXPECT_EQ(failedOps(result), 0u);
  const PhaseResult& mix = phaseOf(result, Phase::kSteadyMix);
  const std::uint32_t n = comm.size();
  for (std::uint32_t rank = 0; rank < n; ++rank) {
    const bool is_slow = n > 1 && rank == n - 1;
    EXPECT_EQ(mix.ranks[rank].rounds, 119u);
    EXPECT_EQ(mix.ranks[rank].kinds[kStat].ok, 119u * 2);
    EXPECT_EQ(mix.ranks[rank].kinds[kCreate].ok, 119u * 2);
    EXPECT_EQ(mix.ranks[rank].ops_at_stonewall, is_slow ? 12u : 119u);
    EXPECT_NEAR(mix.ranks[rank].t_stonewall - mix.ranks[rank].t_start, is_slow ? 9.6e-3 : 9.52e-3, 1e-12);
  }
  const SteadyPhaseSummary s = summarizeSteadyPhase(mix);
  EXPECT_TRUE(s.aggregate.stonewalled);
  EXPECT_EQ(s.rounds, 119u);
  EXPECT_NEAR(s.aggregate.stonewall_time_s, n > 1 ? 9.6e-3 : 9.52e-3, 1e-12);
  EXPECT_EQ(s.aggregate.ops_at_stonewall, n > 1 ? 119u * (n - 1) + 12 : 119u);
  const SteadyPhaseSummary clean = summarizeSteadyPhase(phaseOf(result, Phase::kSteadyCleanup));
  EXPECT_EQ(clean.ops[kDelete].ok, n * 2u * 3u);
  EXPECT_EQ(clean.ops[kRmdir].ok, n * 2u);
  EXPECT_EQ(clean.aggregate.failed, 0u);
}

// With a round hook the ranks agree after every round whether any timer fired, so all stop after the
// round in which the first fired (the slow rank's 12th; one rank alone: its 119th), with no wear-out.
TEST(SteadyMpi, StonewallWithAHookStopsEveryRankAfterTheSameRound) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  const bool slow = comm.size() > 1 && comm.rank() == comm.size() - 1;
  for (const FakeOp op : {FakeOp::kStat, FakeOp::kReadFile, FakeOp::kUnlink, FakeOp::kCreateFile}) {
    fake.setLatency(op, microseconds(slow ? 100 : 10));
  }
  SteadyConfig config = ownDatasetsConfig(comm);
  config.datasets = 2;
  config.working_set = 3;
  config.rounds = 1000;
  config.stonewall_s = 0.0095;
  std::vector<std::uint64_t> seen;
  const SteadyResult result = runOnFake(config, comm, clock, fake, [&](std::uint64_t done) {
    seen.push_back(done);
    clock.advance(1'000'000);  // a hook taking 1 ms is left out of the timings and the timer
  });
  const std::uint64_t expected = comm.size() > 1 ? 12 : 119;
  EXPECT_EQ(result.rounds, expected);
  ASSERT_EQ(seen.size(), expected);
  EXPECT_EQ(seen.back(), expected);
  EXPECT_TRUE(fake.listAll().empty());
  if (comm.rank() != 0) return;
  EXPECT_EQ(failedOps(result), 0u);
  const PhaseResult& mix = phaseOf(result, Phase::kSteadyMix);
  for (const RankPhaseRecord& r : mix.ranks) {
    EXPECT_EQ(r.rounds, expected);
    // The rank's own ops only: 8 ops per round at 10 or 100 us, the hook's milliseconds left out.
    const double per_round = (&r == &mix.ranks.back() && comm.size() > 1) ? 800e-6 : 80e-6;
    EXPECT_NEAR(r.t_local_end - r.t_start, static_cast<double>(expected) * per_round, 1e-9);
  }
}

// A ManualClock that behaves as if SIGTERM had arrived at the first read at or after `at_ns` (on the ranks
// given it): the signal then lands between two ops, as a real one does.
class SignalAtClock final : public Clock {
 public:
  SignalAtClock(ManualClock& clock, std::int64_t at_ns) : clock_(clock), at_ns_(at_ns) {}
  std::int64_t nowNs() override {
    const std::int64_t now = clock_.nowNs();
    if (now >= at_ns_ && !sent_) {
      sent_ = true;
      requestStopForTesting(SIGTERM);
    }
    return now;
  }

 private:
  ManualClock& clock_;
  std::int64_t at_ns_;
  bool sent_ = false;
};

// Two datasets of three objects per rank, each rank in its own datasets.
SteadyConfig smallOwnConfig(const Comm& comm, std::uint64_t rounds) {
  SteadyConfig config = ownDatasetsConfig(comm);
  config.datasets = 2;
  config.working_set = 3;
  config.rounds = rounds;
  return config;
}

// SIGTERM on every rank in round 5 of 1000: every rank stops after that round, and cleanup removes the
// working set the five rounds moved on, so nothing is left and every count adds up.
TEST(SteadyMpi, SignalInTheMixStopsAfterTheRoundAndCleansUp) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  const SteadyConfig config = smallOwnConfig(comm, 1000);
  const SteadyResult result = runOnFake(config, comm, clock, fake, [&](std::uint64_t done) {
    if (done == 5) requestStopForTesting(SIGTERM);
  });
  const int signal = stopSignal();
  requestStopForTesting(0);
  EXPECT_EQ(signal, SIGTERM);
  EXPECT_EQ(result.rounds, 5u);
  EXPECT_FALSE(result.stopped_in_precreate);
  EXPECT_TRUE(fake.listAll().empty());
  if (comm.rank() != 0) return;
  EXPECT_EQ(failedOps(result), 0u);
  const std::uint64_t n = comm.size();
  const SteadyPhaseSummary mix = summarizeSteadyPhase(phaseOf(result, Phase::kSteadyMix));
  for (const std::size_t op : {kStat, kRead, kDelete, kCreate}) EXPECT_EQ(mix.ops[op].ok, n * 5 * 2);
  const SteadyPhaseSummary clean = summarizeSteadyPhase(phaseOf(result, Phase::kSteadyCleanup));
  EXPECT_EQ(clean.ops[kDelete].ok, n * 2 * 3);
  EXPECT_EQ(clean.ops[kRmdir].ok, n * 2);
}

// SIGTERM on the last rank only, in round 5: the others never saw it and run all rounds, and the signalled
// rank wears out to their count (as after a stonewall), so the working set stays exact.
TEST(SteadyMpi, SignalOnOneRankInTheMixWearsOutToTheOthersRounds) {
  MpiComm comm;
  ManualClock clock;
  FakeBackend fake(&clock);
  const SteadyConfig config = smallOwnConfig(comm, 40);
  const bool signalled = comm.rank() == comm.size() - 1;
  const SteadyResult result = runOnFake(config, comm, clock, fake, [&](std::uint64_t done) {
    if (done == 5 && signalled) requestStopForTesting(SIGTERM);
  });
  requestStopForTesting(0);
  EXPECT_EQ(result.rounds, comm.size() > 1 ? 40u : 5u);
  EXPECT_TRUE(fake.listAll().empty());
  if (comm.rank() != 0) return;
  EXPECT_EQ(failedOps(result), 0u);
  for (const RankPhaseRecord& r : phaseOf(result, Phase::kSteadyMix).ranks) {
    EXPECT_EQ(r.rounds, result.rounds);
    EXPECT_EQ(r.kinds[kCreate].ok, result.rounds * 2);
  }
}

// SIGTERM during precreate on the last rank, after its 6th create (10 us each; two datasets): it stops
// between objects with 3 in each dataset, every rank then skips the mix (its reads would find objects the
// stopped rank never made), and cleanup removes exactly what each rank made.
TEST(SteadyMpi, SignalInPrecreateSkipsTheMixAndCleanupRemovesWhatWasMade) {
  MpiComm comm;
  ManualClock manual;
  FakeBackend fake(&manual);
  fake.setLatency(FakeOp::kCreateFile, microseconds(10));
  const bool signalled = comm.rank() == comm.size() - 1;
  SignalAtClock clock(manual, signalled ? 55'000 : std::numeric_limits<std::int64_t>::max());
  SteadyConfig config = ownDatasetsConfig(comm);
  config.datasets = 2;
  config.working_set = 10;
  config.rounds = 1000;
  const SteadyResult result = runSteady(config, SteadyParts{comm, clock, fake, fake.root(), {}});
  const int signal = stopSignal();
  requestStopForTesting(0);
  EXPECT_EQ(signal, signalled ? SIGTERM : 0);
  EXPECT_TRUE(result.stopped_in_precreate);
  EXPECT_EQ(result.rounds, 0u);
  EXPECT_TRUE(fake.listAll().empty());
  if (comm.rank() != 0) return;
  EXPECT_EQ(failedOps(result), 0u);
  const std::uint32_t n = comm.size();
  const PhaseResult& pre = phaseOf(result, Phase::kSteadyPrecreate);
  const PhaseResult& mix = phaseOf(result, Phase::kSteadyMix);
  const PhaseResult& clean = phaseOf(result, Phase::kSteadyCleanup);
  for (std::uint32_t rank = 0; rank < n; ++rank) {
    const std::uint64_t made = rank == n - 1 ? 3 * 2 : 10 * 2;
    EXPECT_EQ(pre.ranks[rank].kinds[kCreate].ok, made) << "rank " << rank;
    EXPECT_EQ(mix.ranks[rank].ok, 0u) << "rank " << rank;
    EXPECT_EQ(clean.ranks[rank].kinds[kDelete].ok, made) << "rank " << rank;
    EXPECT_EQ(clean.ranks[rank].kinds[kRmdir].ok, 2u) << "rank " << rank;
  }
}
}  // namespace
}  // namespace mdbench

namespace mdbench {
namespace {

// On the real clock, a rank whose ops take ten times as long must show in the mix's balance: each rank's time
// ends at its own last op, not after the round-count agreement every rank waits in (where all times would
// be equal). Rank 1 busy-waits 200 us per mix op, the others 20 us.
TEST(SteadyMpi, ASlowRankShowsInTheMixBalanceOnTheRealClock) {
  MpiComm comm;
  SteadyClock clock;
  FakeBackend fake;  // no manual clock: latencies are spent busy-waiting
  const auto per_op = std::chrono::microseconds(comm.rank() == 1 ? 200 : 20);
  for (const FakeOp op : {FakeOp::kStat, FakeOp::kReadFile, FakeOp::kUnlink, FakeOp::kCreateFile}) {
    fake.setLatency(op, per_op);
  }
  SteadyConfig config;
  config.offset = comm.size();  // every rank in its own datasets: each fake is its own file system
  config.datasets = 2;
  config.working_set = 20;
  config.rounds = 20;
  const SteadyResult result = runSteady(config, SteadyParts{comm, clock, fake, fake.root()});
  if (comm.rank() != 0) return;
  const SteadyPhaseSummary mix = summarizeSteadyPhase(result.phases.at(1));
  if (comm.size() == 1) {
    EXPECT_DOUBLE_EQ(mix.time_balance, 1.0);  // one rank: nothing to compare
    return;
  }
  // 160 ops of 200 us against 160 of 20 us: about 0.1; far below 1 in any case.
  EXPECT_LT(mix.time_balance, 0.5);
  EXPECT_LT(mix.aggregate.balance, 0.5);
  EXPECT_GE(mix.rank_time_max_s, 160 * 200e-6);
}

}  // namespace
}  // namespace mdbench
