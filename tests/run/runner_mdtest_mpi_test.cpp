// mdtest's run options under real MPI (1, 2 and 4 ranks): -B (no barriers), -c (rank 0 makes every create
// and remove), the phase commands, the per-op files and -Y on the creates only.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "mdbench/backend/fake_backend.hpp"
#include "mdbench/backend/posix_backend.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"
#include "mdbench/run/mpi_comm.hpp"
#include "mdbench/run/runner.hpp"
#include "mpi_tmpfs.hpp"
#include "phase_hooks.hpp"

namespace mdbench {
namespace {

// Counts the barriers a run asks for, passing everything on to MPI.
class CountingComm final : public Comm {
 public:
  explicit CountingComm(Comm& inner) : inner_(inner) {}
  std::uint32_t rank() const override { return inner_.rank(); }
  std::uint32_t size() const override { return inner_.size(); }
  void barrier() override {
    ++barriers;
    inner_.barrier();
  }
  void gatherBytes(std::span<const std::byte> send, std::vector<std::byte>& recv) override {
    inner_.gatherBytes(send, recv);
  }
  void reduceSumToRoot(std::span<std::uint64_t> values) override { inner_.reduceSumToRoot(values); }
  std::uint64_t allreduceMax(std::uint64_t value) override { return inner_.allreduceMax(value); }
  std::uint64_t allreduceSum(std::uint64_t value) override { return inner_.allreduceSum(value); }
  void allreduceMaxEach(std::span<std::uint64_t> values) override { inner_.allreduceMaxEach(values); }
  void broadcast(std::string& text) override { inner_.broadcast(text); }
  std::string hostName() const override { return inner_.hostName(); }
  std::unique_ptr<Comm> split(std::optional<std::uint32_t> color, std::uint32_t key) override {
    return inner_.split(color, key);
  }
  void idleBarrier() override { inner_.idleBarrier(); }
  void barrierPolling(const std::function<void()>& poll) override {
    ++barriers;
    inner_.barrierPolling(poll);
  }
  int barriers = 0;

 private:
  Comm& inner_;
};

Config filesConfig(std::uint64_t items) {
  Config c;
  c.items = items;
  c.kinds = ItemKinds::kFilesOnly;
  c.sharing = TreeSharing::kUnique;
  c.phases = {true, true, true, true};
  return c;
}

void prepareFake(FakeBackend& fake, Comm& comm, const Config& config) {
  if (comm.rank() == 0) return;
  for (std::uint32_t i = 0; i < config.iterations; ++i) {
    ASSERT_EQ(fake.makeDir(fake.root(), iterationDirName(i).c_str()), 0);
  }
}

RunResult runFake(const Config& config, FakeBackend& fake, Clock& clock, Comm& comm) {
  prepareFake(fake, comm, config);
  const Plan plan(config, comm.size());
  RunInfo info;
  info.ranks = comm.size();
  return runBenchmark(plan, RunParts{comm, clock, fake}, info, {});
}

const PhaseResult& find(const RunResult& run, Phase phase, std::uint32_t iteration = 0) {
  for (const PhaseResult& p : run.phases) {
    if (p.phase == phase && p.iteration == iteration) return p;
  }
  throw std::logic_error("phase not in result");
}

// A fresh directory under /tmp made by rank 0, its path on every rank.
std::string sharedTempDir(Comm& comm, const std::string& name) {
  std::string path;
  if (comm.rank() == 0) {
    std::string templ = "/tmp/mdbench-" + name + "-XXXXXX";
    if (mkdtemp(templ.data()) != nullptr) path = templ;
  }
  comm.broadcast(path);
  return path;
}

std::vector<std::string> linesOf(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// -B: the run asks for two barriers fewer per phase (the opening and the closing one), every rank's
// t_global_end is its t_local_end, and a rank that is done early does not wait for a slow one.
TEST(RunnerMdtest, NoBarriersLeavesEachRankItsOwnTime) {
  MpiComm mpi;
  const bool slow = mpi.rank() == mpi.size() - 1;
  std::vector<int> barriers;
  std::vector<RunResult> runs;
  for (const bool no_barriers : {false, true}) {
    CountingComm comm(mpi);
    SteadyClock clock;
    FakeBackend fake;
    fake.setLatency(FakeOp::kStat, std::chrono::microseconds(slow ? 2000 : 1));
    Config config = filesConfig(20);
    config.no_barriers = no_barriers;
    runs.push_back(runFake(config, fake, clock, comm));
    barriers.push_back(comm.barriers);
  }
  const std::size_t phases = selectPhases(filesConfig(20)).size();
  EXPECT_EQ(barriers[0] - barriers[1], static_cast<int>(2 * phases));
  if (mpi.rank() != 0) return;
  for (const PhaseResult& p : runs[1].phases) {
    for (const RankPhaseRecord& r : p.ranks) EXPECT_EQ(r.t_global_end, r.t_local_end) << phaseName(p.phase);
    // The rate is the slowest rank's own time.
    const PhaseAggregate agg = aggregate(p.ranks);
    double slowest = 0.0;
    for (const RankPhaseRecord& r : p.ranks) slowest = std::max(slowest, r.t_local_end - r.t_start);
    EXPECT_DOUBLE_EQ(agg.time_s, slowest) << phaseName(p.phase);
  }
  if (mpi.size() > 1) {
    const RankPhaseRecord& fast_barriers = find(runs[0], Phase::kFileStat).ranks[0];
    const RankPhaseRecord& fast_free = find(runs[1], Phase::kFileStat).ranks[0];
    // 20 stats of 2 ms on the slow rank: the fast one waits ~40 ms at the closing barrier, not with -B.
    EXPECT_GE(fast_barriers.t_global_end - fast_barriers.t_start, 0.035);
    EXPECT_LT(fast_free.t_global_end - fast_free.t_start, 0.02);
  }
}

// -c on tmpfs with unique trees: rank 0 makes every rank's tree and items and removes them all; the others
// only stat and read their own. Counts are exact and nothing is left.
TEST(RunnerMdtest, CollectiveCreatesAreAllRankZeros) {
  MpiComm comm;
  SteadyClock clock;
  testing::TmpfsDir tmp;
  ASSERT_NO_FATAL_FAILURE(testing::makeTmpfsDir(comm, "collective", tmp));
  Config config = filesConfig(13);
  config.kinds = ItemKinds::kBoth;
  config.depth = 1;
  config.branching = 2;
  config.write_bytes = config.read_bytes = 24;
  config.verify_read = true;  // rank 0 wrote each owner's data
  config.collective_creates = true;
  const Plan plan(config, comm.size());
  RunInfo info;
  info.ranks = comm.size();
  const RunResult run = runBenchmark(plan, RunParts{comm, clock, *tmp.backend, tmp.path}, info, {});
  tmp.backend.reset();
  comm.barrier();
  if (comm.rank() != 0) return;
  ASSERT_EQ(run.setup_error, "");
  EXPECT_EQ(run.failedOps(), 0u);
  const std::uint64_t ranks = comm.size();
  for (const PhaseResult& p : run.phases) {
    SCOPED_TRACE(std::string(phaseName(p.phase)));
    const bool collective = collectivePhase(config, p.phase);
    const std::uint64_t each = isTreePhase(p.phase) ? 3 : 13;
    for (std::uint32_t r = 0; r < ranks; ++r) {
      const std::uint64_t want = !collective ? each : r == 0 ? each * ranks : 0;
      EXPECT_EQ(p.ranks[r].planned, want) << "rank " << r;
      EXPECT_EQ(p.ranks[r].ok, want) << "rank " << r;
      EXPECT_EQ(plannedOpsOf(plan, p.phase, r), want) << "rank " << r;
    }
  }
  EXPECT_TRUE(collectivePhase(config, Phase::kFileCreate));
  EXPECT_TRUE(collectivePhase(config, Phase::kDirRemove));
  EXPECT_TRUE(collectivePhase(config, Phase::kTreeCreate));
  EXPECT_FALSE(collectivePhase(config, Phase::kFileStat));
  EXPECT_FALSE(collectivePhase(config, Phase::kFileRead));
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path));
  std::filesystem::remove(tmp.path);
}

// -c: a name found taken at create (planted by the before-phase command of rank 0, in the last rank's part
// of the shared tree) is not the run's: rank 0's create fails on it, the owner's stat skips it (EEXIST)
// and rank 0's remove never touches it.
TEST(RunnerMdtest, CollectiveCreatesKeepOwnership) {
  MpiComm comm;
  SteadyClock clock;
  testing::TmpfsDir tmp;
  ASSERT_NO_FATAL_FAILURE(testing::makeTmpfsDir(comm, "collective-taken", tmp));
  Config config = filesConfig(9);
  config.sharing = TreeSharing::kShared;
  config.collective_creates = true;
  const std::uint32_t victim = comm.size() - 1;
  const Plan plan(config, comm.size());
  const std::string planted = tmp.path + "/" + iterationDirName(0) + "/" +
                              treeDirPath(plan.layout(), config.sharing, victim, 0) + "/" +
                              itemName(ItemKind::kFile, victim, 4);
  config.cmd_before_phase = "[ \"$MDBENCH_RANK$MDBENCH_PHASE\" != 0file-create ] || touch " + planted;
  const Plan with_command(config, comm.size());
  RunInfo info;
  info.ranks = comm.size();
  const RunResult run = runBenchmark(with_command, RunParts{comm, clock, *tmp.backend, tmp.path}, info, {});
  tmp.backend.reset();
  comm.barrier();
  if (comm.rank() != 0) return;
  ASSERT_EQ(run.setup_error, "");
  const PhaseResult& create = find(run, Phase::kFileCreate);
  EXPECT_EQ(create.ranks[0].ok, 9u * comm.size() - 1);
  EXPECT_EQ(create.ranks[0].failed, 1u);
  EXPECT_EQ(create.ranks[0].first_error.err, EEXIST);
  EXPECT_EQ(create.ranks[0].first_error.owner, victim);
  const PhaseResult& stat = find(run, Phase::kFileStat);
  for (std::uint32_t r = 0; r < comm.size(); ++r) {
    EXPECT_EQ(stat.ranks[r].failed, r == victim ? 1u : 0u) << "rank " << r;
    EXPECT_EQ(stat.ranks[r].ok, r == victim ? 8u : 9u) << "rank " << r;
  }
  const PhaseResult& remove = find(run, Phase::kFileRemove);
  EXPECT_EQ(remove.ranks[0].ok, 9u * comm.size() - 1);
  EXPECT_EQ(remove.ranks[0].failed, 1u);
  EXPECT_EQ(remove.ranks[0].first_error.err, EEXIST);
  EXPECT_TRUE(std::filesystem::is_regular_file(planted)) << planted;
  std::filesystem::remove_all(tmp.path);
}

// The commands see their phase, iteration and rank; the before-command is outside the timing, the
// after-command inside; a failure is reported once per phase by rank 0 and the run goes on. As mdtest's
// prologue and epilogue, they run around the item phases only: the tree phases have none.
TEST(RunnerMdtest, PhaseCommands) {
  MpiComm comm;
  const std::string dir = sharedTempDir(comm, "cmds");
  ASSERT_FALSE(dir.empty());
  Config config = filesConfig(5);
  config.iterations = 2;
  // The before-command sleeps 0.3 s in file-create.
  config.cmd_before_phase = "echo \"before $MDBENCH_PHASE $MDBENCH_ITERATION $MDBENCH_RANK\" >> " + dir +
                            "/log.$MDBENCH_RANK; [ $MDBENCH_PHASE != file-create ] || sleep 0.3";
  // The after-command sleeps 0.3 s in file-stat; it fails on the last rank.
  config.cmd_after_phase =
      "echo \"after $MDBENCH_PHASE $MDBENCH_ITERATION\" >> " + dir +
      "/log.$MDBENCH_RANK; [ $MDBENCH_PHASE != file-stat ] || sleep 0.3; [ $MDBENCH_RANK != " +
      std::to_string(comm.size() - 1) + " ]";
  SteadyClock clock;
  FakeBackend fake;
  const RunResult run = runFake(config, fake, clock, comm);
  std::vector<Phase> phases;
  for (const Phase phase : selectPhases(config)) {
    if (!phaseInfo(phase).tree()) phases.push_back(phase);
  }
  ASSERT_EQ(phases.size() + 2, selectPhases(config).size());  // tree-create and tree-remove have none
  const std::vector<std::string> log = linesOf(dir + "/log." + std::to_string(comm.rank()));
  ASSERT_EQ(log.size(), phases.size() * 2 * 2);
  std::size_t at = 0;
  for (std::uint32_t iteration = 0; iteration < 2; ++iteration) {
    for (const Phase phase : phases) {
      const std::string name(phaseName(phase));
      EXPECT_EQ(log[at++],
                "before " + name + " " + std::to_string(iteration) + " " + std::to_string(comm.rank()));
      EXPECT_EQ(log[at++], "after " + name + " " + std::to_string(iteration));
    }
  }
  comm.barrier();
  if (comm.rank() == 0) {
    std::filesystem::remove_all(dir);
    ASSERT_EQ(run.setup_error, "");
    EXPECT_EQ(run.failedOps(), 0u);
    ASSERT_EQ(run.phases.size(), (phases.size() + 2) * 2);  // the failures did not stop the run
    ASSERT_EQ(run.problems.size(), phases.size() * 2);      // once per phase, by rank 0 alone
    EXPECT_TRUE(run.cleanup_problems.empty());              // a failed command left nothing behind
    const std::string& first = run.problems.front();
    EXPECT_NE(first.find("--run-cmd-after-phase"), std::string::npos) << first;
    EXPECT_NE(first.find("exit status 1"), std::string::npos) << first;
    EXPECT_NE(first.find("rank " + std::to_string(comm.size() - 1)), std::string::npos) << first;
    for (const PhaseResult& p : run.phases) {
      const double rank0 = p.ranks[0].t_local_end - p.ranks[0].t_start;
      if (p.phase == Phase::kFileStat) {
        EXPECT_GE(rank0, 0.3);  // inside the timing
        EXPECT_GE(aggregate(p.ranks).time_s, 0.3);
      } else {
        EXPECT_LT(rank0, 0.25) << phaseName(p.phase);  // the before-command's fork is outside
      }
    }
  } else {
    EXPECT_TRUE(run.problems.empty());
    EXPECT_TRUE(run.cleanup_problems.empty());
  }
}

// Each rank's per-op file: the header and one row per op of every phase, in phase order; an existing
// file is never overwritten (nothing runs).
TEST(RunnerMdtest, PerOpFiles) {
  MpiComm comm;
  const std::string dir = sharedTempDir(comm, "perop");
  ASSERT_FALSE(dir.empty());
  Config config = filesConfig(23);
  config.depth = 1;
  config.branching = 2;
  config.per_op_csv_prefix = dir + "/ops";
  {
    SteadyClock clock;
    FakeBackend fake;
    const RunResult run = runFake(config, fake, clock, comm);
    ASSERT_EQ(run.setup_error, "");
    const std::vector<std::string> lines =
        linesOf(PerOpLog::pathFor(config.per_op_csv_prefix, comm.rank(), 0));
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines[0], "phase,iteration,rank,op,start_s,duration_s");
    std::size_t rows = 0;
    const std::vector<Phase> phases = selectPhases(config);
    for (const Phase phase : phases) {
      const std::uint64_t ops = isTreePhase(phase) ? 3 : 23;
      for (std::uint64_t i = 0; i < ops; ++i) {
        ASSERT_LT(1 + rows, lines.size());
        const std::string& line = lines[1 + rows++];
        EXPECT_EQ(line.rfind(fmt::format("{},0,{},", phaseName(phase), comm.rank()), 0), 0u) << line;
      }
    }
    EXPECT_EQ(lines.size(), 1 + rows);
    std::istringstream last(lines.back());
    std::string field;
    std::vector<std::string> fields;
    while (std::getline(last, field, ',')) fields.push_back(field);
    ASSERT_EQ(fields.size(), 6u);
    EXPECT_GE(std::stod(fields[4]), 0.0);
    EXPECT_GE(std::stod(fields[5]), 0.0);
  }
  {
    // The files are there now: a second run refuses to start.
    SteadyClock clock;
    FakeBackend fake;
    const RunResult again = runFake(config, fake, clock, comm);
    EXPECT_NE(again.setup_error.find("exists"), std::string::npos) << again.setup_error;
    EXPECT_TRUE(again.phases.empty());
  }
  comm.barrier();
  if (comm.rank() == 0) std::filesystem::remove_all(dir);
}

// The bound: beyond it ops are counted as dropped, not recorded.
TEST(RunnerMdtest, PerOpLogIsBounded) {
  MpiComm comm;
  const std::string dir = sharedTempDir(comm, "perop-bound");
  const std::string path = PerOpLog::pathFor(dir + "/b", comm.rank(), 2);
  EXPECT_EQ(path, fmt::format("{}/b-step2-{:05}.csv", dir, comm.rank()));
  {
    PerOpLog log(10);
    ASSERT_EQ(log.open(path), "");
    log.begin(1000, 25);
    for (std::uint64_t i = 0; i < 25; ++i) log.add(i, 1000 + 10 * i, 1000 + 10 * i + 5);
    EXPECT_EQ(log.end("file-stat", 0, comm.rank()), 15u);
    EXPECT_EQ(log.finish(), "");
  }
  const std::vector<std::string> lines = linesOf(path);
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_EQ(lines[1], fmt::format("file-stat,0,{},0,0.000000000,0.000000005", comm.rank()));
  EXPECT_EQ(lines[10], fmt::format("file-stat,0,{},9,0.000000090,0.000000005", comm.rank()));
  comm.barrier();
  if (comm.rank() == 0) std::filesystem::remove_all(dir);
}

// -Y: one sync per item phase (none after the tree phases, as mdtest); with sync_creates_only one per item
// create phase (tree-create is not an item create), none else.
TEST(RunnerMdtest, SyncCreatesOnly) {
  MpiComm comm;
  for (const bool creates_only : {false, true}) {
    ManualClock clock;
    FakeBackend fake(&clock);
    Config config = filesConfig(7);
    config.kinds = ItemKinds::kBoth;
    config.sync_phases = true;
    config.sync_creates_only = creates_only;
    const RunResult run = runFake(config, fake, clock, comm);
    const std::size_t phases = selectPhases(config).size();
    EXPECT_EQ(fake.calls(FakeOp::kSync), creates_only ? 2u : phases - 2) << creates_only;  // not the tree's
  }
}

// The results file records the path style, the API and whether the phases were barrier-timed (run
// attributes) and -c with the other options (config); both runs read back and validate (-B's rows with
// t_global_end = t_local_end, -c's planned counts on rank 0).
TEST(RunnerMdtest, ResultsFileRecordsTheOptions) {
  MpiComm comm;
  testing::TmpfsDir tmp;
  ASSERT_NO_FATAL_FAILURE(testing::makeTmpfsDir(comm, "results", tmp));
  const std::string results_dir = sharedTempDir(comm, "results-h5");
  for (const bool collective : {false, true}) {
    Config config = filesConfig(11);
    config.kinds = ItemKinds::kBoth;
    config.api = Api::kDummy;
    config.path_style = collective ? PathStyle::kFull : PathStyle::kDirfd;
    config.no_barriers = !collective;
    config.collective_creates = collective;
    config.sync_phases = true;
    config.sync_creates_only = true;
    config.cmd_after_phase = "true";
    config.per_op_csv_prefix = collective ? results_dir + "/ops" : "";
    const Plan plan(config, comm.size());
    RunInfo info;
    info.ranks = comm.size();
    info.target = tmp.path;
    info.start_utc = utcTimestampNow();
    const std::string path = results_dir + (collective ? "/c.h5" : "/b.h5");
    std::unique_ptr<Hdf5Sink> sink;
    std::vector<Sink*> sinks;
    if (comm.rank() == 0) {
      bool exists = false;
      sink = Hdf5Sink::open(path, OutputMode::kCreate, exists);
      sinks.push_back(sink.get());
    }
    SteadyClock clock;
    const RunResult run = runBenchmark(plan, RunParts{comm, clock, *tmp.backend, tmp.path}, info, sinks);
    if (comm.rank() != 0) continue;
    ASSERT_EQ(run.setup_error, "");
    sink->finish(0);
    const StoredResults stored = readResultsFile(path);
    EXPECT_EQ(stored.schema_version, kSchemaVersion);
    ASSERT_EQ(stored.runs.size(), 1u);
    const StoredRun& r = stored.runs[0];
    EXPECT_TRUE(r.has_mdtest_options);
    EXPECT_EQ(r.config.api, Api::kDummy);
    EXPECT_EQ(r.config.path_style, config.path_style);
    EXPECT_EQ(r.config.no_barriers, !collective);
    EXPECT_EQ(r.config.collective_creates, collective);
    EXPECT_TRUE(r.config.sync_creates_only);
    EXPECT_EQ(r.config.cmd_before_phase, "");
    EXPECT_EQ(r.config.cmd_after_phase, "true");
    EXPECT_EQ(r.config.per_op_csv_prefix, config.per_op_csv_prefix);
    const ValidationResult valid = validateResultsFile(path);
    EXPECT_TRUE(valid.ok) << valid.first_problem;
  }
  tmp.backend.reset();
  comm.barrier();
  if (comm.rank() == 0) {
    EXPECT_TRUE(std::filesystem::is_empty(tmp.path));
    std::filesystem::remove_all(tmp.path);
    std::filesystem::remove_all(results_dir);
  }
}

}  // namespace
}  // namespace mdbench
