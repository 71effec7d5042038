#include "compare_mode.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "mdbench/model/metrics.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"
#include "mdbench/run/comm.hpp"
#include "mdbench/run/mpi_comm.hpp"
#include "mdbench/run/runner.hpp"
#include "mpi_call_counter.hpp"
#include "scratch_dir.hpp"
#include "synthetic_results.hpp"

namespace mdbench::bench {
namespace {

MpiCallCounts operator-(const MpiCallCounts& a, const MpiCallCounts& b) {
  return {a.collectives - b.collectives, a.file_collectives - b.file_collectives,
          a.file_independent - b.file_independent};
}

MpiCallCounts& operator+=(MpiCallCounts& a, const MpiCallCounts& b) {
  a.collectives += b.collectives;
  a.file_collectives += b.file_collectives;
  a.file_independent += b.file_independent;
  return a;
}

struct Series {
  std::vector<double> seconds;
  MpiCallCounts calls;  // this rank's, summed over the timed writes (the enclosing barriers not counted)
};

// Barrier, body, barrier: the time the other ranks of a real run would wait before the next phase.
void timed(Comm& comm, Series& series, const std::function<void()>& body) {
  comm.barrier();
  const double start = MPI_Wtime();
  const MpiCallCounts before = mpiCallCounts();
  body();
  series.calls += mpiCallCounts() - before;
  comm.barrier();
  series.seconds.push_back(MPI_Wtime() - start);
}

// Linear interpolation between the closest ranks (the median of an even count is the mean of the middle two).
double quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
}

struct Timings {
  Series gather;
  Series collective;
};

void printTimings(const Timings& t, std::uint32_t ranks, CollectiveOptions options,
                  std::uintmax_t gather_bytes, std::uintmax_t collective_bytes) {
  const std::vector<double>& gather = t.gather.seconds;
  const std::vector<double>& collective = t.collective.seconds;
  std::vector<double> ratios;
  for (std::size_t i = 0; i < gather.size(); ++i) ratios.push_back(collective[i] / gather[i]);
  fmt::print(
      "P={} ranks, {} phase writes each, interleaved; per phase write, barrier to barrier, in ms;\n"
      "MPI calls per phase write on rank 0: collectives / collective MPI-IO / independent MPI-IO\n",
      ranks, gather.size());
  fmt::print("{:<46} {:>8} {:>8} {:>8} {:>8} {:>11} {:>14}\n", "approach", "min", "median", "p90", "max",
             "file-bytes", "MPI calls");
  const auto row = [&](const char* name, const Series& series, std::uintmax_t bytes) {
    const std::vector<double>& v = series.seconds;
    const double n = static_cast<double>(v.size());
    const MpiCallCounts& c = series.calls;
    fmt::print("{:<46} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>11} {:>14}\n", name, 1e3 * quantile(v, 0.0),
               1e3 * quantile(v, 0.5), 1e3 * quantile(v, 0.9), 1e3 * quantile(v, 1.0), bytes,
               fmt::format("{:.3g} / {:.3g} / {:.3g}", static_cast<double>(c.collectives) / n,
                           static_cast<double>(c.file_collectives) / n,
                           static_cast<double>(c.file_independent) / n));
  };
  row("gather to rank 0 + serial Hdf5Sink", t.gather, gather_bytes);
  const std::string label = fmt::format("collective parallel HDF5{}{}",
                                        options.metadata == MetadataIo::kCollective ? ", coll. md" : "",
                                        options.flush == PhaseFlush::kNever ? ", NO flush" : "");
  row(label.c_str(), t.collective, collective_bytes);
  fmt::print("ratio collective/gather: of the medians {:.2f}, median of the {} paired ratios {:.2f}\n",
             quantile(collective, 0.5) / quantile(gather, 0.5), ratios.size(), quantile(ratios, 0.5));
}

int compare(MpiComm& comm, std::uint32_t writes, CollectiveOptions collective, const std::string& dir) {
  const bool root = comm.rank() == 0;
  std::optional<ScratchDir> scratch;
  std::string where;
  if (root) {
    scratch.emplace(dir);
    where = scratch->path();
  }
  comm.broadcast(where);
  const std::string gather_path = where + "/gather.h5";
  const std::string collective_path = where + "/collective.h5";

  const std::uint32_t phases_per_iteration =
      static_cast<std::uint32_t>(selectPhases(syntheticConfig(1)).size());
  const Config config = syntheticConfig((writes + phases_per_iteration - 1) / phases_per_iteration);
  const Plan plan(config, comm.size());

  // Untimed setup, as at the start of a real run: host names to rank 0, each rank's node index back.
  const NodeMap nodes = gatherNodeMap(comm);
  NodeLayout layout;
  if (root) layout = nodeLayout(nodes.host_of_rank);
  std::uint32_t node = 0;
  MPI_Scatter(layout.node_of_rank.data(), 1, MPI_UINT32_T, &node, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);

  RunResult run;
  std::unique_ptr<Hdf5Sink> sink;
  if (root) {
    run.config = config;
    run.info = syntheticRunInfo(comm.size(), where);
    run.info.host_of_rank = nodes.host_of_rank;
    run.info.nodes = nodes.nodes;
    run.info.mpi_library = MpiSession::libraryVersion();
    bool exists_error = false;
    sink = Hdf5Sink::open(gather_path, OutputMode::kForce, exists_error);
    sink->begin(run.info, plan);
  }
  CollectivePhaseFile parallel_file(collective_path, MPI_COMM_WORLD, collective);

  Timings timings;
  std::vector<std::string> groups;
  // The phases after the last timed one, up to the end of its iteration, are written too (untimed), so that
  // the gather file is a complete run that `mdbench validate` accepts.
  const auto total = static_cast<std::uint32_t>(config.iterations * phases_per_iteration);
  for (std::uint32_t k = 0; k < total; ++k) {
    const PhaseSlot slot{k / phases_per_iteration, plan.phases()[k % phases_per_iteration],
                         k % phases_per_iteration};
    const RankPhaseRecord record =
        syntheticRecord(plan, slot.phase, comm.rank(), syntheticPhaseStart(k), Failures::kNone);
    LatencyHistogram latency;
    addSyntheticLatencies(latency, slot.phase, record.ok);
    groups.push_back(
        fmt::format("/runs/run-0000/iterations/iter-{:04}/{}", slot.iteration, phaseName(slot.phase)));

    const auto gather = [&] {
      // What runBenchmark does after every phase (a copy of the histogram: the reduction sums in place).
      LatencyHistogram summed = latency;
      PhaseResult result = collectPhase(comm, slot.iteration, slot.phase, record.planned, record, summed);
      if (!root) return;
      sink->phase(result, plan);
      run.phases.push_back(std::move(result));
    };
    const auto parallel = [&] { parallel_file.writePhase(slot, record, node, latency); };
    // Alternate which goes first, so that neither always follows the other's cache effects.
    if (k >= writes) {
      gather();
      parallel();
    } else if (k % 2 == 0) {
      timed(comm, timings.gather, gather);
      timed(comm, timings.collective, parallel);
    } else {
      timed(comm, timings.collective, parallel);
      timed(comm, timings.gather, gather);
    }
  }
  if (root) {
    run.info.end_utc = run.info.start_utc;
    sink->end(run, plan);
    sink->finish(0);
    sink.reset();
  }
  parallel_file.close();

  int status = 0;
  if (root) {
    const std::uintmax_t gather_bytes = std::filesystem::file_size(gather_path);
    const std::uintmax_t collective_bytes = std::filesystem::file_size(collective_path);
    printTimings(timings, comm.size(), collective, gather_bytes, collective_bytes);
    const ValidationResult valid = validateResultsFile(gather_path);
    const std::string difference = comparePhaseGroups(gather_path, collective_path, groups);
    fmt::print("gather file: {}; phase groups of the two files: {}\n",
               valid.ok ? "valid" : "INVALID: " + valid.first_problem,
               difference.empty() ? "identical" : "DIFFERENT: " + difference);
    if (!valid.ok || !difference.empty()) status = 1;
    std::filesystem::remove(gather_path);
    std::filesystem::remove(collective_path);
  }
  comm.barrier();
  return status;
}

}  // namespace

int runCompare(int argc, char** argv, std::uint32_t writes, CollectiveOptions collective,
               const std::string& dir) {
  MpiSession mpi(&argc, &argv);
  MpiComm comm;
  try {
    return compare(comm, writes, collective, dir);
  } catch (const std::exception& e) {
    // Other ranks may be waiting in a collective: end the whole job.
    std::fprintf(stderr, "mdbench_results_bench: rank %u: %s\n", comm.rank(), e.what());
    MpiSession::abort(1);
  }
}

}  // namespace mdbench::bench
