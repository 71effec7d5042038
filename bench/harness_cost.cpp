// What mdbench's harness costs per operation, without the noise of the file system: the real runner
// (runBenchmark, the hot loop with its clock read, latency histogram, stonewall and signal checks, the
// SteadyClock) on a backend whose every operation returns at once, against the reference program's loop
// (bench/ref_loop.cpp: naming the item and counting failures) around the same empty operation. mdbench
// runs with each clock it can use: the TSC (where the kernel trusts it) and CLOCK_MONOTONIC. Both are
// CPU-bound and run in one process, interleaved A B A B, so the difference per op is the harness's own cost
// on top of the system call; bench/README.md turns it into the ratio it predicts for each phase.
//
//   mpiexec -n 1 mdbench_harness_cost [ITEMS] [PAIRS]        (defaults: 1000000 11)
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mdbench/backend/backend.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/run/mpi_comm.hpp"
#include "mdbench/run/runner.hpp"
#include "mdbench/util/clock.hpp"
#include "sample_stats.hpp"

namespace {

using mdbench::DirHandle;
using mdbench::bench::median;

// Every operation succeeds at once. The names are looked at (one byte read) so that they are really made.
class NullBackend final : public mdbench::Backend {
 public:
  DirHandle root() const override { return DirHandle{0}; }
  int openDir(DirHandle, const char* name, DirHandle& out) override {
    out = DirHandle{1};
    return touch(name);
  }
  int closeDir(DirHandle) override { return 0; }
  int makeDir(DirHandle, const char* name) override { return touch(name); }
  int removeDir(DirHandle, const char* name) override { return touch(name); }
  int createFile(DirHandle, const char* name, std::span<const std::byte>, mdbench::CreateOptions) override {
    return touch(name);
  }
  int statEntry(DirHandle, const char* name, bool) override { return touch(name); }
  int readFile(DirHandle, const char* name, std::span<std::byte>) override { return touch(name); }
  int unlinkFile(DirHandle, const char* name) override { return touch(name); }
  int moveEntry(DirHandle, const char* from, DirHandle, const char*, mdbench::EntryType) override {
    return touch(from);
  }
  int countEntries(DirHandle, std::span<const std::string_view>, std::span<std::uint64_t>,
                   std::uint64_t& total) override {
    total = 0;
    return 0;
  }
  int syncFileSystem() override { return 0; }
  int removeGenerated(DirHandle, const mdbench::CleanOptions&, mdbench::CleanTally&) override { return 0; }

 private:
  int touch(const char* name) {
    seen_ = seen_ + static_cast<unsigned char>(name[0]);
    return 0;
  }
  volatile unsigned seen_ = 0;
};

volatile unsigned reference_seen = 0;

// The reference program's loop around an empty operation: name the item, "call", count failures.
double referenceNsPerOp(const char* kind, unsigned long items) {
  char buf[64];
  const auto prefix = static_cast<std::size_t>(std::snprintf(buf, sizeof buf, "%s.mdbench.0.", kind));
  unsigned long failed = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (unsigned long i = 0; i < items; ++i) {
    *std::to_chars(buf + prefix, buf + sizeof buf - 1, i).ptr = '\0';
    reference_seen = reference_seen + static_cast<unsigned char>(buf[0]);
    if (reference_seen == 0xffffffffu) ++failed;  // never: the reference's failure branch
  }
  const auto t1 = std::chrono::steady_clock::now();
  if (failed != 0) std::abort();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(items);
}

}  // namespace

int main(int argc, char** argv) {
  mdbench::MpiSession mpi(&argc, &argv);
  mdbench::MpiComm comm;
  const unsigned long items = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000000;
  const int pairs = argc > 2 ? std::atoi(argv[2]) : 11;
  if (comm.size() != 1 || items == 0 || pairs <= 0) {
    std::fprintf(stderr, "usage: mpiexec -n 1 mdbench_harness_cost [ITEMS] [PAIRS]\n");
    return 2;
  }
  mdbench::Config config;
  config.items = items;
  config.sharing = mdbench::TreeSharing::kUnique;
  config.phases = {true, true, true, true};  // create, stat, read, remove: mdbench's default
  const mdbench::Plan plan(config, 1);
  const std::unique_ptr<mdbench::TscClock> tsc = mdbench::TscClock::create();
  mdbench::SteadyClock steady;
  std::map<std::string, std::vector<double>> with_tsc, with_steady, reference;
  // One run of the whole workload on `clock`; ns per op of each item phase into `out`.
  const auto run = [&](mdbench::Clock& clock, std::map<std::string, std::vector<double>>& out) {
    NullBackend backend;
    mdbench::RunInfo info;
    info.ranks = 1;
    const std::vector<mdbench::Sink*> sinks;
    const mdbench::RunResult result =
        mdbench::runBenchmark(plan, mdbench::RunParts{comm, clock, backend}, info, sinks);
    if (!result.setup_error.empty()) {
      std::fprintf(stderr, "mdbench_harness_cost: %s\n", result.setup_error.c_str());
      std::exit(1);
    }
    for (const mdbench::PhaseResult& phase : result.phases) {
      const mdbench::RankPhaseRecord& r = phase.ranks.at(0);
      if (r.ok != items) continue;  // the tree phases
      out[std::string(mdbench::phaseName(phase.phase))].push_back((r.t_global_end - r.t_start) * 1e9 /
                                                                  static_cast<double>(r.ok));
    }
  };
  for (int pair = 0; pair < pairs; ++pair) {
    if (tsc) run(*tsc, with_tsc);
    run(steady, with_steady);
    for (const auto& [name, values] : with_steady) {
      reference[name].push_back(referenceNsPerOp(name.rfind("dir", 0) == 0 ? "dir" : "file", items));
    }
  }
  std::printf(
      "items=%lu pairs=%d: ns per op around an empty operation (medians); extra = mdbench - reference\n",
      items, pairs);
  std::printf("%-12s %10s %10s %10s %12s %12s\n", "phase", "reference", "tsc", "steady", "extra (tsc)",
              "extra (steady)");
  for (const auto& [name, values] : with_steady) {
    const double r = median(reference[name]);
    const double t = tsc ? median(with_tsc[name]) : 0.0;
    const double s = median(values);
    std::printf("%-12s %10.1f %10.1f %10.1f %12.1f %12.1f\n", name.c_str(), r, t, s, tsc ? t - r : 0.0,
                s - r);
  }
  if (!tsc) std::printf("(no usable TSC on this machine: mdbench uses CLOCK_MONOTONIC)\n");
  for (mdbench::Clock* clock :
       {static_cast<mdbench::Clock*>(tsc.get()), static_cast<mdbench::Clock*>(&steady)}) {
    if (clock == nullptr) continue;
    const auto t0 = std::chrono::steady_clock::now();
    std::int64_t sum = 0;
    for (unsigned long i = 0; i < items; ++i) sum += clock->nowNs();
    const auto t1 = std::chrono::steady_clock::now();
    std::printf("one %s read through the Clock interface: %.1f ns (checksum %lld)\n",
                clock == &steady ? "CLOCK_MONOTONIC" : "TSC",
                std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(items),
                static_cast<long long>(sum & 1));
  }
  return 0;
}
