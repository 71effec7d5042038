// The report model: one configuration's results (mdbench runs, imported mdtest, IOR and IOzone summaries)
// as series of points against the number of ranks or clients. Built from results files; no output.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/model/metrics.hpp"
#include "mdbench/model/rate_timing.hpp"
#include "mdbench/results/results_file.hpp"

namespace mdbench {

enum class SeriesKind : std::uint8_t {
  kMetadata,  // ops/s against ranks: mdbench runs and imported mdtest summaries
  kDataPath,  // MiB/s against clients: imported IOR and IOzone summaries
};

// One rank (or client) count of a series. Rates are over all iterations at this count, pooled across
// runs and files: mean, min, max and sample standard deviation of the per-iteration aggregate rate.
struct ScalingPoint {
  std::uint32_t ranks = 0;  // ranks (metadata) or clients (data path)
  std::uint32_t nodes = 0;  // 0: not known
  std::uint32_t iterations = 0;
  double mean = 0.0;
  double min = 0.0;
  double max = 0.0;
  double stddev = 0.0;
  // mdbench runs only (has_latency false for imports): latency percentiles of the merged histograms of
  // every iteration, op counts summed over iterations, and the mean rate at the stonewall (0: none fired).
  bool has_latency = false;
  LatencySummary latency;
  std::uint64_t ok = 0;
  std::uint64_t failed = 0;
  double stonewall_mean = 0.0;
  // Failover (schema version 9; --steady's from version 10): the longest stall of any iteration (NaN: no
  // stall data), and the slowest recovery of any injected fault (NaN: no fault measured; +infinity: one never
  // recovered in its phase).
  double stall_s = std::numeric_limits<double>::quiet_NaN();
  double recovery_s = std::numeric_limits<double>::quiet_NaN();
  // Means over the iterations that know them (model's PhaseSize, for tooFewForRate): the time the phase's
  // operations took (the slowest rank's to its last op; imports: mdtest's time table), its successful ops
  // per rank with work (imports: rate x time / ranks) and over all ranks. 0: not known (an import without a
  // time table, IOR and IOzone).
  double time_s = 0.0;
  double ops_per_rank = 0.0;
  double ops = 0.0;
  // --server-stats (schema version 7), mdbench runs only: per counter, its delta summed over the sources
  // and over the iterations whose every source was read; those iterations and their operations (ok +
  // failed). server_problem: a source that failed or went backwards in some iteration (then no rule on
  // the servers holds at this point).
  std::uint32_t server_iterations = 0;
  std::map<std::string, double> server_deltas;
  std::uint64_t server_ops = 0;
  std::string server_problem;
};

// A point too short to time (model's rate_timing.hpp) is tabled with that reason, not drawn on a chart,
// and a check rule on its rate is NO-DATA.
PhaseSize phaseSize(const ScalingPoint& point);
bool tooFewForRate(const ScalingPoint& point);

// The metadata series of --steady runs: per iteration its mix phase, every op type together (stat, read,
// delete, create), its rate barrier to barrier, its latencies from the op types' merged histograms, and its
// stall and faults (results schema version 10). Placed after every phase.
inline constexpr std::string_view kSteadySeries = "steady";

struct Series {
  SeriesKind kind = SeriesKind::kMetadata;
  // Metadata: the phase name ("file-create") or kSteadySeries; data path: "TOOL:OPERATION" ("ior:write",
  // "iozone:initial-write"). The same name in two configurations is the same measurement.
  std::string name;
  std::string unit;                                   // "ops/s" or "MiB/s"
  std::string x_unit;                                 // "ranks" or "clients"
  std::vector<ScalingPoint> points;                   // ascending ranks, one per count
  const ScalingPoint* at(std::uint32_t ranks) const;  // nullptr: no point at that count
};

struct Configuration {
  std::string label;
  std::vector<std::string> files;
  std::vector<Series> series;      // metadata in phase order, then kSteadySeries, then data path by name
  std::vector<std::string> notes;  // what a reader should know: failed runs, killed runs, pooled tools
  const Series* find(std::string_view name) const;  // nullptr: no such series
};

// Builds a configuration from results already read (pure; for tests) or from files (throws
// ResultsFileError naming the file). Everything in the files is pooled: mdbench runs and the imports of
// every tool and command line (a note says so when mdbench runs and imports meet at one rank count).
Configuration buildConfiguration(const std::string& label, const std::vector<std::string>& files,
                                 const std::vector<StoredResults>& results);
Configuration loadConfiguration(const std::string& label, const std::vector<std::string>& files);

// How the results under one label become configurations.
enum class Grouping : std::uint8_t {
  kBySource,  // mdbench runs; each tool's imports with one command line: one configuration each
  kPooled,    // all in one configuration (buildConfiguration), as the user asked
};

// The configurations of one label's files. kBySource: the mdbench runs first (under the label), then one
// configuration per tool and command line as imported, in the order they first appear ("LABEL (mdtest)",
// or "LABEL (mdtest 2)" when the tool ran with several command lines); a single source keeps the label.
// When there are several, each configuration's notes name its source and say that they are kept apart.
std::vector<Configuration> buildConfigurations(const std::string& label,
                                               const std::vector<std::string>& files,
                                               const std::vector<StoredResults>& results,
                                               Grouping grouping = Grouping::kBySource);
std::vector<Configuration> loadConfigurations(const std::string& label, const std::vector<std::string>& files,
                                              Grouping grouping = Grouping::kBySource);

}  // namespace mdbench
