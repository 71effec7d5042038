// mdbench against the bare syscall loop, interleaved phase by phase, so that the two measure each phase
// moments apart. On a shared machine whose speed drifts by tens of percent over seconds (the development
// VM), run-by-run interleaving (bench/compare.sh) cannot resolve a few percent; this can.
//
//   mpiexec -n P mdbench_interleave DIR [ITEMS] [PAIRS]        (defaults: 200000 11)
//
// Side A is mdbench's own runner (runBenchmark: the code the mdbench binary runs, with its POSIX backend,
// its clock, latency histograms on) on the workload of `mdbench -u -n ITEMS` in DIR/mdbench.
// Side B is the reference (bench/reference.hpp: the system calls only, as in mdbench_ref) in DIR/ref.<rank>,
// run between mdbench's phases through RunParts::after_phase: in even pairs right after mdbench's phase (A
// B), in odd pairs right before it (B A), so neither side always goes first. Rates are mdbench's: P * ITEMS /
// the slowest rank's barrier-to-barrier time. Rank 0 prints, per phase, the medians and the median and
// interquartile range of the pair ratios A / B. Exit 1 if an operation failed on either side.
#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/backend/posix_backend.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/run/mpi_comm.hpp"
#include "mdbench/run/runner.hpp"
#include "mdbench/util/clock.hpp"
#include "reference.hpp"
#include "sample_stats.hpp"

namespace {

using mdbench::Phase;

using mdbench::bench::median;
using mdbench::bench::quantile;

// mdbench's phases that the reference has, in the same order as mdbench::bench::kRefPhases.
constexpr std::array<Phase, 7> kCompared = {Phase::kDirCreate,  Phase::kDirStat,  Phase::kDirRemove,
                                            Phase::kFileCreate, Phase::kFileStat, Phase::kFileRead,
                                            Phase::kFileRemove};

}  // namespace

int main(int argc, char** argv) {
  mdbench::MpiSession mpi(&argc, &argv);
  mdbench::MpiComm comm;
  const int rank = static_cast<int>(comm.rank());
  const int ranks = static_cast<int>(comm.size());
  if (argc < 2 || argc > 4) {
    if (rank == 0) std::fprintf(stderr, "usage: mpiexec -n P mdbench_interleave DIR [ITEMS] [PAIRS]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const unsigned long items = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 200000;
  const int pairs = argc > 3 ? std::atoi(argv[3]) : 11;

  // Side B's directory, one per rank; side A's target, shared (the runner makes a tree per rank in it).
  const std::string ref_dir = dir + "/ref." + std::to_string(rank);
  const std::string md_dir = dir + "/mdbench";
  if (mkdir(ref_dir.c_str(), 0777) != 0 || (rank == 0 && mkdir(md_dir.c_str(), 0777) != 0)) {
    std::perror(dir.c_str());
    mdbench::MpiSession::abort(1);
  }
  comm.barrier();
  const int ref_fd = open(ref_dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  int err = 0;
  const std::unique_ptr<mdbench::PosixBackend> backend = mdbench::PosixBackend::open(md_dir, err);
  if (ref_fd < 0 || !backend) {
    std::perror("open");
    mdbench::MpiSession::abort(1);
  }

  mdbench::Config config;  // mdbench -u -n ITEMS
  config.items = items;
  config.sharing = mdbench::TreeSharing::kUnique;
  config.phases = {true, true, true, true};
  const mdbench::Plan plan(config, static_cast<std::uint32_t>(ranks));
  const std::unique_ptr<mdbench::Clock> clock = mdbench::makeRunClock();
  mdbench::SteadyClock steady;  // the reference's timer

  std::map<Phase, std::vector<double>> rate_a, rate_b, ratio;
  unsigned long failures = 0;
  for (int pair = 0; pair < pairs; ++pair) {
    const bool b_first = pair % 2 == 1;
    std::size_t a_done = 0, b_done = 0;
    std::map<Phase, double> b_rate;
    const auto run_reference = [&](std::size_t index) {
      comm.barrier();
      const std::int64_t t0 = steady.nowNs();
      const unsigned long failed =
          mdbench::bench::referenceLoop(mdbench::bench::kRefPhases[index], ref_fd, rank, items);
      comm.barrier();
      const auto elapsed = static_cast<std::uint64_t>(steady.nowNs() - t0);
      const std::uint64_t slowest = comm.allreduceMax(elapsed);
      failures += comm.allreduceMax(failed);
      b_rate[kCompared[index]] =
          static_cast<double>(ranks) * static_cast<double>(items) / (static_cast<double>(slowest) * 1e-9);
    };
    mdbench::RunParts parts{comm, *clock, *backend, md_dir};
    parts.after_phase = [&](Phase done) {
      if (std::find(kCompared.begin(), kCompared.end(), done) != kCompared.end()) ++a_done;
      // A B: the reference's phase right after mdbench's; B A: the next one right before mdbench's.
      const std::size_t wanted = std::min(kCompared.size(), a_done + (b_first ? 1 : 0));
      while (b_done < wanted) run_reference(b_done++);
    };
    mdbench::RunInfo info;
    info.ranks = static_cast<std::uint32_t>(ranks);
    const std::vector<mdbench::Sink*> sinks;
    const mdbench::RunResult run = mdbench::runBenchmark(plan, parts, info, sinks);
    if (!run.setup_error.empty()) {
      if (rank == 0) std::fprintf(stderr, "mdbench_interleave: %s\n", run.setup_error.c_str());
      mdbench::MpiSession::abort(1);
    }
    if (rank != 0) continue;
    for (const mdbench::PhaseResult& phase : run.phases) {
      if (b_rate.count(phase.phase) == 0) continue;
      const mdbench::PhaseAggregate agg = mdbench::aggregate(phase.ranks);
      failures += agg.failed;
      rate_a[phase.phase].push_back(agg.ops_per_s);
      rate_b[phase.phase].push_back(b_rate[phase.phase]);
      ratio[phase.phase].push_back(agg.ops_per_s / b_rate[phase.phase]);
    }
  }
  close(ref_fd);
  rmdir(ref_dir.c_str());
  comm.barrier();
  if (rank == 0) {
    rmdir((md_dir).c_str());
    std::printf("ranks=%d items/rank=%lu pairs=%d, phase by phase (A B, B A alternating), clock %s\n", ranks,
                items, pairs,
                dynamic_cast<mdbench::TscClock*>(clock.get()) != nullptr ? "TSC" : "CLOCK_MONOTONIC");
    std::printf("%-12s %12s %12s %7s   %s\n", "phase", "mdbench", "reference", "ratio",
                "IQR of the pair ratios");
    for (const Phase phase : kCompared) {
      std::printf("%-12s %12.0f %12.0f %7.3f   %10.3f - %.3f\n",
                  std::string(mdbench::phaseName(phase)).c_str(), median(rate_a[phase]),
                  median(rate_b[phase]), median(ratio[phase]), quantile(ratio[phase], 0.25),
                  quantile(ratio[phase], 0.75));
    }
    if (failures != 0) std::printf("FAILED: %lu operations failed\n", failures);
  }
  return failures != 0 ? 1 : 0;
}
