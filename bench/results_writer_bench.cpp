// Benchmark of the results writer (issue: "writing scales").
//
//   mdbench_results_bench --synthetic 1000,10000,100000 [--iterations I] [--items N] [--intervals K]
//                         [--dir DIR]
//       One process, no MPI: for each rank count R, a synthetic run of R ranks (the nine default phases,
//       I iterations, N items per rank, K intervals of ops per interval per rank and phase, capped as rank 0
//       caps them) is written with Hdf5Sink exactly as rank 0 of a real run writes it.
//       Each R runs in a child process of its own so that its peak RSS (ru_maxrss) is its own.
//   mpiexec -n P mdbench_results_bench --compare [--writes 50] [--collective-metadata]
//   [--no-collective-flush]
//                                        [--dir DIR]
//       Per phase, the two ways to get P per-rank rows into the file, interleaved and barrier to barrier:
//       gather to rank 0 + serial write (what mdbench does) against collective parallel HDF5.
//
// Files go to DIR (default: a fresh directory under /dev/shm) and are removed afterwards.
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compare_mode.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"
#include "scratch_dir.hpp"
#include "synthetic_results.hpp"

namespace mdbench::bench {
namespace {

constexpr int kExitUsage = 2;

struct Options {
  std::vector<std::uint32_t> synthetic_ranks;
  std::uint32_t iterations = 1;
  std::uint64_t items = 1000;
  std::uint32_t intervals = 1;  // ops-per-interval series length per phase, before rank 0's cap
  bool compare = false;
  std::uint32_t writes = 50;
  CollectiveOptions collective;
  std::string dir;
};

template <class T = std::uint32_t>
std::optional<T> parseCount(std::string_view text) {
  T value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value == 0) return std::nullopt;
  return value;
}

constexpr std::string_view kUsage =
    "usage: mdbench_results_bench --synthetic R[,R...] [--iterations I] [--items N] [--intervals K] [--dir "
    "DIR]\n"
    "       mpiexec -n P mdbench_results_bench --compare [--writes N] [--collective-metadata] "
    "[--no-collective-flush]\n"
    "           [--dir DIR]\n";

// Every problem found, or none.
std::vector<std::string> parseOptions(int argc, char** argv, Options& options) {
  std::vector<std::string> errors;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const auto value = [&]() -> std::optional<std::string_view> {
      if (i + 1 < args.size()) return args[++i];
      errors.push_back(fmt::format("{} needs a value", arg));
      return std::nullopt;
    };
    if (arg == "--synthetic") {
      const auto list = value();
      if (!list) continue;
      for (std::string_view rest = *list; !rest.empty();) {
        const std::size_t comma = std::min(rest.find(','), rest.size());
        const auto count = parseCount(rest.substr(0, comma));
        if (!count)
          errors.push_back(
              fmt::format("--synthetic: '{}' is not a positive rank count", rest.substr(0, comma)));
        if (count) options.synthetic_ranks.push_back(*count);
        rest.remove_prefix(std::min(comma + 1, rest.size()));
      }
    } else if (arg == "--iterations" || arg == "--items") {
      const auto text = value();
      const auto count = text ? parseCount<std::uint64_t>(*text) : std::nullopt;
      if (text && (!count || (arg == "--iterations" && *count > 1000))) {
        errors.push_back(fmt::format("{}: '{}' is not a positive count{}", arg, *text,
                                     arg == "--iterations" ? " up to 1000" : ""));
      } else if (count && arg == "--items") {
        options.items = *count;
      } else if (count) {
        options.iterations = static_cast<std::uint32_t>(*count);
      }
    } else if (arg == "--intervals") {
      const auto text = value();
      const auto count = text ? parseCount(*text) : std::nullopt;
      if (text && (!count || *count > 1024)) {
        errors.push_back(fmt::format("--intervals: '{}' is not a count from 1 to 1024", *text));
      } else if (count) {
        options.intervals = *count;
      }
    } else if (arg == "--compare") {
      options.compare = true;
    } else if (arg == "--writes") {
      const auto text = value();
      const auto count = text ? parseCount(*text) : std::nullopt;
      if (text && !count) errors.push_back(fmt::format("--writes: '{}' is not a positive count", *text));
      if (count) options.writes = *count;
    } else if (arg == "--collective-metadata") {
      options.collective.metadata = MetadataIo::kCollective;
    } else if (arg == "--no-collective-flush") {
      options.collective.flush = PhaseFlush::kNever;
    } else if (arg == "--dir") {
      if (const auto dir = value()) options.dir = std::string(*dir);
    } else {
      errors.push_back(fmt::format("unknown argument '{}'", arg));
    }
  }
  if (options.compare == !options.synthetic_ranks.empty()) {
    errors.push_back("give exactly one of --synthetic and --compare");
  }
  return errors;
}

// ---- --synthetic ----

long peakRssKiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // KiB on Linux
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// In the child process: one synthetic run of `ranks` ranks written with Hdf5Sink; prints one table row.
int syntheticOne(const Options& options, std::uint32_t ranks, const std::string& dir) {
  const long rss_start = peakRssKiB();
  Config config = syntheticConfig(options.iterations);
  config.items = options.items;
  const Plan plan(config, ranks);
  // runner.cpp's collectSeries caps rank 0's series at 2^24 counts per phase (at least 64 intervals).
  const auto intervals = static_cast<std::uint32_t>(std::min<std::uint64_t>(
      options.intervals, std::max<std::uint64_t>(64, (std::uint64_t{1} << 24) / ranks)));
  RunResult run;
  run.config = config;
  run.info = syntheticRunInfo(ranks, dir);
  const long rss_inputs = peakRssKiB();

  const std::string path = fmt::format("{}/synthetic-{}.h5", dir, ranks);
  bool exists_error = false;
  auto clock = std::chrono::steady_clock::now();
  auto sink = Hdf5Sink::open(path, OutputMode::kForce, exists_error);
  sink->begin(run.info, plan);
  const double begin_s = secondsSince(clock);
  double phases_s = 0.0;
  std::vector<double> phase_s;
  std::uint32_t slot = 0;
  for (std::uint32_t iteration = 0; iteration < config.iterations; ++iteration) {
    for (const Phase phase : plan.phases()) {
      // Untimed: what the gather and the reduce hand to rank 0.
      PhaseResult result = syntheticPhase(plan, iteration, phase, slot++, Failures::kFewRanks, intervals);
      clock = std::chrono::steady_clock::now();
      sink->phase(result, plan);
      phase_s.push_back(secondsSince(clock));
      phases_s += phase_s.back();
      result.series.per_rank = std::vector<std::uint32_t>();  // as runBenchmark: released, the sums stay
      run.phases.push_back(std::move(result));  // rank 0 keeps every phase, as runBenchmark does
    }
  }
  clock = std::chrono::steady_clock::now();
  run.info.end_utc = run.info.start_utc;
  sink->end(run, plan);
  sink->finish(run.failedOps() > 0 ? 1 : 0);  // a run with failed operations exits 1
  sink.reset();
  const double end_s = secondsSince(clock);
  const long rss_written = peakRssKiB();

  const auto file_bytes = std::filesystem::file_size(path);
  clock = std::chrono::steady_clock::now();
  const ValidationResult valid = validateResultsFile(path);
  const double validate_s = secondsSince(clock);
  std::filesystem::remove(path);

  std::sort(phase_s.begin(), phase_s.end());
  const double held_mib =
      static_cast<double>(run.phases.size() * ranks * sizeof(RankPhaseRecord)) / (1 << 20);
  fmt::print(
      "{:>7} {:>8.3f} {:>8.3f} {:>9.4f} {:>9.4f} {:>8.3f} {:>11} {:>6.1f} {:>9.1f} {:>9.1f} {:>9.1f} "
      "{:>8.1f}  {}\n",
      ranks, begin_s + phases_s + end_s, begin_s, phase_s[phase_s.size() / 2], phase_s.back(), end_s,
      file_bytes, static_cast<double>(file_bytes) / (static_cast<double>(ranks) * run.phases.size()),
      rss_start / 1024.0, rss_inputs / 1024.0, rss_written / 1024.0, held_mib,
      valid.ok ? fmt::format("valid ({:.2f} s)", validate_s) : "INVALID: " + valid.first_problem);
  std::fflush(stdout);
  return valid.ok ? 0 : 1;
}

int runSynthetic(const Options& options, const std::string& dir) {
  fmt::print(
      "Hdf5Sink, one process, synthetic runs: 9 phases x {} iteration(s), {} items per rank, 32 ranks per "
      "node, {} interval(s) per phase (at most 2^24 / ranks); times in s\n",
      options.iterations, options.items, options.intervals);
  fmt::print("{:>7} {:>8} {:>8} {:>9} {:>9} {:>8} {:>11} {:>6} {:>9} {:>9} {:>9} {:>8}\n", "ranks", "total",
             "begin", "phase-med", "phase-max", "end", "file-bytes", "B/row", "rss0-MiB", "rss-in", "rss-end",
             "rec-MiB");
  std::fflush(stdout);
  int status = 0;
  for (const std::uint32_t ranks : options.synthetic_ranks) {
    const pid_t child = fork();
    if (child < 0) throw std::runtime_error("fork failed");
    if (child == 0) {
      int code = 1;
      try {
        code = syntheticOne(options, ranks, dir);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "ranks=%u: %s\n", ranks, e.what());
      }
      std::fflush(nullptr);
      _exit(code);
    }
    int wait_status = 0;
    waitpid(child, &wait_status, 0);
    if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) != 0) status = 1;
  }
  fmt::print(
      "rss0: peak RSS at the start; rss-in: after building RunInfo (host names) and the Plan; rss-end: "
      "after\n"
      "writing, with every phase's records still held as runBenchmark holds them; rec-MiB: those records\n"
      "(phases x ranks x {} bytes).\n",
      sizeof(RankPhaseRecord));
  return status;
}

}  // namespace
}  // namespace mdbench::bench

int main(int argc, char** argv) {
  using namespace mdbench::bench;
  if (argc == 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h")) {
    std::printf("%s", kUsage.data());
    return 0;
  }
  Options options;
  const std::vector<std::string> errors = parseOptions(argc, argv, options);
  if (!errors.empty()) {
    for (const std::string& e : errors) std::fprintf(stderr, "mdbench_results_bench: %s\n", e.c_str());
    std::fprintf(stderr, "%s", kUsage.data());
    return kExitUsage;
  }
  if (options.compare) return runCompare(argc, argv, options.writes, options.collective, options.dir);
  try {
    const ScratchDir dir(options.dir);
    return runSynthetic(options, dir.path());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mdbench_results_bench: %s\n", e.what());
    return 1;
  }
}
