// Comm::split and the sweep's building blocks under real MPI (1, 2 and 4 ranks): sub-communicators with
// their own ranks and collectives, ranks left out, the sleeping barrier, and the runner on a step's ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>

#include "mdbench/backend/fake_backend.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/sweep.hpp"
#include "mdbench/run/mpi_comm.hpp"
#include "mdbench/run/runner.hpp"

namespace mdbench {
namespace {

// Every rank's value, on comm's rank 0 (empty elsewhere).
std::vector<std::uint32_t> gatherU32(Comm& comm, std::uint32_t value) {
  std::vector<std::byte> bytes;
  comm.gatherBytes(std::as_bytes(std::span(&value, 1)), bytes);
  std::vector<std::uint32_t> out(bytes.size() / sizeof value);
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

// Several maxima in one collective: element by element, the same result on every rank.
TEST(CommAllreduceMaxEach, ElementWiseOnEveryRank) {
  MpiComm world;
  std::array<std::uint64_t, 3> values = {world.rank(), world.size() - world.rank(), 7};
  world.allreduceMaxEach(values);
  EXPECT_EQ(values, (std::array<std::uint64_t, 3>{world.size() - 1, world.size(), 7}));
  SelfComm self;
  std::array<std::uint64_t, 2> mine = {3, 9};
  self.allreduceMaxEach(mine);
  EXPECT_EQ(mine, (std::array<std::uint64_t, 2>{3, 9}));
}

TEST(CommSplit, EvenAndOddRanksInReverseOrder) {
  MpiComm world;
  const std::uint32_t color = world.rank() % 2;
  // Keyed by the reverse rank: the highest rank of each color becomes its rank 0.
  std::unique_ptr<Comm> part = world.split(color, world.size() - world.rank());
  ASSERT_NE(part, nullptr);
  std::vector<std::uint32_t> members;
  for (std::uint32_t r = 0; r < world.size(); ++r) {
    if (r % 2 == color) members.push_back(r);
  }
  std::reverse(members.begin(), members.end());
  ASSERT_EQ(part->size(), members.size());
  const auto position = std::find(members.begin(), members.end(), world.rank()) - members.begin();
  EXPECT_EQ(part->rank(), static_cast<std::uint32_t>(position));
  // Collectives stay within the part.
  const std::uint64_t sum = std::accumulate(members.begin(), members.end(), std::uint64_t{0});
  EXPECT_EQ(part->allreduceSum(world.rank()), sum);
  EXPECT_EQ(part->allreduceMax(world.rank()), *std::max_element(members.begin(), members.end()));
  std::string text = part->rank() == 0 ? "from world rank " + std::to_string(world.rank()) : "";
  part->broadcast(text);
  EXPECT_EQ(text, "from world rank " + std::to_string(members.front()));
  const std::vector<std::uint32_t> gathered = gatherU32(*part, world.rank());
  if (part->rank() == 0) {
    EXPECT_EQ(gathered, members);
  } else {
    EXPECT_TRUE(gathered.empty());
  }
  std::vector<std::uint64_t> values = {1, world.rank()};
  part->reduceSumToRoot(values);
  if (part->rank() == 0) {
    EXPECT_EQ(values, (std::vector<std::uint64_t>{members.size(), sum}));
  }
  part->barrier();
  EXPECT_EQ(part->hostName(), world.hostName());
}

TEST(CommSplit, RanksLeftOutGetNothing) {
  MpiComm world;
  // Like a sweep step of one rank: rank 0 alone; the others wait for it, sleeping.
  const bool member = world.rank() == 0;
  std::unique_ptr<Comm> step =
      world.split(member ? std::optional<std::uint32_t>{7} : kNotInSplit, world.rank());
  EXPECT_EQ(step != nullptr, member);
  if (step) {
    EXPECT_EQ(step->size(), 1u);
    EXPECT_EQ(step->rank(), 0u);
    EXPECT_EQ(step->allreduceSum(5), 5u);
  }
  world.idleBarrier();
  EXPECT_EQ(world.allreduceSum(1), world.size());
}

TEST(CommSplit, NestedSplitsAndManyOfThem) {
  MpiComm world;
  // Every step size of a pow2 sweep, many times over: each communicator is freed when its owner goes.
  for (int round = 0; round < 20; ++round) {
    for (std::uint32_t k = 1; k <= world.size(); k *= 2) {
      std::unique_ptr<Comm> step =
          world.split(world.rank() < k ? std::optional<std::uint32_t>{0} : kNotInSplit, world.rank());
      if (step) {
        ASSERT_EQ(step->size(), k);
        EXPECT_EQ(step->rank(), world.rank());
        // A split of a split.
        std::unique_ptr<Comm> half = step->split(step->rank() % 2, step->rank());
        ASSERT_NE(half, nullptr);
        EXPECT_EQ(half->allreduceSum(1), (k + 1 - step->rank() % 2) / 2);
      }
      world.idleBarrier();
    }
  }
}

TEST(CommSplit, WrapsAnyCommunicator) {
  MPI_Comm dup = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &dup), MPI_SUCCESS);
  {
    MpiComm borrowed(dup, CommOwnership::kBorrowed);
    EXPECT_EQ(borrowed.size(), MpiComm().size());
    borrowed.barrier();
  }
  // Still usable after the borrowing MpiComm is gone; then owned and freed by the next.
  int size = 0;
  EXPECT_EQ(MPI_Comm_size(dup, &size), MPI_SUCCESS);
  {
    MpiComm owned(dup, CommOwnership::kOwned);
    EXPECT_EQ(owned.allreduceSum(1), static_cast<std::uint64_t>(size));
  }
  EXPECT_THROW(MpiComm(MPI_COMM_NULL, CommOwnership::kBorrowed), std::invalid_argument);
}

TEST(CommSplit, SelfComm) {
  SelfComm self;
  std::unique_ptr<Comm> in = self.split(0, 0);
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->size(), 1u);
  EXPECT_EQ(in->rank(), 0u);
  EXPECT_EQ(self.split(kNotInSplit, 0), nullptr);
  self.idleBarrier();
}

// The runner on a sweep step's ranks, as the app runs it: every step of a pow2 sweep in both placements on
// a made-up layout of two nodes, exact counts from exactly the step's ranks.
TEST(SweepStep, RunnerOnAStepsRanks) {
  MpiComm world;
  // Ranks in blocks on two nodes (one node for a single rank).
  std::vector<std::uint32_t> node_of_rank(world.size());
  for (std::uint32_t r = 0; r < world.size(); ++r) node_of_rank[r] = r < (world.size() + 1) / 2 ? 0 : 1;
  SweepSpec pow2;
  pow2.kind = SweepSpec::Kind::kPow2;
  Config config;
  config.items = 23;
  config.kinds = ItemKinds::kFilesOnly;
  config.sharing = TreeSharing::kUnique;
  config.phases = {true, true, false, true};
  for (const SweepPlacement placement : {SweepPlacement::kBlock, SweepPlacement::kSpread}) {
    for (const std::uint32_t k : resolveSweepSteps(pow2, world.size()).steps) {
      const StepRanks step = stepRanks(node_of_rank, k, placement);
      const bool member = std::binary_search(step.ranks.begin(), step.ranks.end(), world.rank());
      std::unique_ptr<Comm> comm =
          world.split(member ? std::optional<std::uint32_t>{0} : kNotInSplit, world.rank());
      ASSERT_EQ(comm != nullptr, member);
      if (comm) {
        ManualClock clock;
        FakeBackend fake(&clock);
        if (comm->rank() != 0) {
          ASSERT_EQ(fake.makeDir(fake.root(), iterationDirName(0).c_str()), 0);
        }
        const Plan plan(config, step.node_of_rank);
        RunInfo info;
        info.ranks = comm->size();
        const RunResult run = runBenchmark(plan, RunParts{*comm, clock, fake}, info, {});
        // The step's rank i is the job's rank step.ranks[i].
        const std::vector<std::uint32_t> world_ranks = gatherU32(*comm, world.rank());
        if (comm->rank() == 0) {
          EXPECT_EQ(world_ranks, step.ranks);
          EXPECT_EQ(world.rank(), 0u) << "the job's rank 0 is every step's rank 0";
          ASSERT_EQ(run.setup_error, "");
          for (const PhaseResult& p : run.phases) {
            ASSERT_EQ(p.ranks.size(), k) << phaseName(p.phase);
            const PhaseAggregate agg = aggregate(p.ranks);
            EXPECT_EQ(agg.ok, (isTreePhase(p.phase) ? 1 : 23u) * k) << phaseName(p.phase);
            EXPECT_EQ(agg.failed, 0u);
          }
        }
      }
      world.idleBarrier();
    }
  }
}

}  // namespace
}  // namespace mdbench
