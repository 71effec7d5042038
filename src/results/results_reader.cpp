// Reads a whole results file (results-schema/README.md) back into plain data, for validate, export and
// report. Every missing object or wrong type is an error naming the file and the object.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <limits>
#include <system_error>

#include "h5.hpp"
#include "mdbench/config/backends.hpp"
#include "mdbench/model/stats.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/results/results_file.hpp"
#include "results_attributes.hpp"
#include "results_config.hpp"
#include "results_faults.hpp"
#include "results_files.hpp"
#include "results_imports.hpp"
#include "results_layout.hpp"
#include "results_server_stats.hpp"

namespace mdbench {
namespace results {

// Children named <prefix><number>, in numeric order (run-9999 before run-10000). Others are ignored: the
// schema allows objects it does not list.
std::vector<std::string> numberedChildren(hid_t group, std::string_view prefix) {
  std::vector<std::string> names;
  for (std::string& name : h5::childNames(group)) {
    const bool numbered = name.size() > prefix.size() && name.starts_with(prefix) &&
                          std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(),
                                      [](char c) { return c >= '0' && c <= '9'; });
    if (numbered) names.push_back(std::move(name));
  }
  // Same prefix, zero-padded numbers: shorter is smaller, equal lengths compare as text.
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return names;
}

}  // namespace results

namespace {
using results::numberedChildren;

template <class T>
T attr(hid_t object, const std::string& name) {
  return h5::readAttribute<T>(object, name);
}

using results::readFlag;

Phase readPhaseName(hid_t object) {
  const auto name = attr<std::string>(object, "phase");
  const std::optional<Phase> phase = results::parsePhase(name);
  if (!phase)
    throw h5::Error(fmt::format("{}: attribute 'phase' is '{}', not a phase name", h5::pathOf(object), name));
  return *phase;
}

// Version 5 (--steady's phases: 10): ops per interval of every rank (`ranks` rows) and their sums.
void readSeriesCounts(hid_t g, std::size_t ranks, OpsSeries& s) {
  h5::Matrix<std::uint32_t> counts = h5::readMatrix<std::uint32_t>(g, results::kOpsPerInterval);
  if (counts.rows != ranks) {
    throw h5::Error(fmt::format("{}/{}: {} rows, expected one per row of ranks ({})", h5::pathOf(g),
                                results::kOpsPerInterval, counts.rows, ranks));
  }
  if (counts.cols > std::numeric_limits<std::uint32_t>::max()) {
    throw h5::Error(fmt::format("{}/{}: {} intervals, more than a series holds", h5::pathOf(g),
                                results::kOpsPerInterval, counts.cols));
  }
  {
    const h5::Handle dataset = h5::openDataset(g, results::kOpsPerInterval);
    s.interval_s = attr<double>(dataset.get(), results::kIntervalAttribute);
  }
  s.intervals = static_cast<std::uint32_t>(counts.cols);
  s.per_rank = std::move(counts.values);
  s.total = h5::readVector<std::uint64_t>(g, results::kOpsPerIntervalTotal);
}

// Version 5: the series and the first/last-done rates.
void readSeries(hid_t g, StoredPhase& p) {
  readSeriesCounts(g, p.ranks.size(), p.series);
  results::readAttributes(g, results::kDoneRateAttributes, p.done);
  p.has_series = true;
}

// A histogram dataset (latency, or a steady phase's latency_<op>): exactly the buckets of a
// LatencyHistogram.
LatencyHistogram readHistogram(hid_t g, const std::string& name) {
  const std::vector<std::uint64_t> counts = h5::readVector<std::uint64_t>(g, name);
  LatencyHistogram histogram;
  if (counts.size() != LatencyHistogram::kBuckets) {
    throw h5::Error(fmt::format("{}/{}: {} counts, expected {} (the histogram's buckets)", h5::pathOf(g),
                                name, counts.size(), LatencyHistogram::kBuckets));
  }
  std::copy(counts.begin(), counts.end(), histogram.counts().begin());
  return histogram;
}

// The phase's `errors`, when any rank failed (a steady phase's rows also name the op kind).
void readErrors(hid_t g, StoredPhase& p) {
  if (!h5::exists(g, "errors")) return;
  p.errors = h5::readCompound<results::ErrorRow>(
      g, "errors", results::errorFieldsOf(p.phase), [&](const results::ErrorRow& row) {
        StoredError e{row.rank, row.err, results::textOf(row.errno_name), results::textOf(row.path)};
        if (phaseInfo(p.phase).steady()) {
          const std::string op = results::textOf(row.op);
          const std::optional<OpKind> parsed = results::parseOpKind(op);
          if (!parsed) throw h5::Error(fmt::format("{}/errors: op '{}' is not an op type", p.group, op));
          e.kind = *parsed;
        }
        return e;
      });
}

StoredPhase readPhase(hid_t iteration, const std::string& name, std::uint32_t version) {
  const h5::Handle group = h5::openGroup(iteration, name);
  const hid_t g = group.get();
  StoredPhase p;
  p.group = h5::pathOf(g);
  p.phase = readPhaseName(g);
  p.iteration = attr<std::uint32_t>(g, "iteration");
  p.order = attr<std::uint32_t>(g, "order");
  p.items = attr<std::uint64_t>(g, "items");
  results::readAttributes(g, results::kAggregateTotals, p.aggregate);
  results::readAttributes(g, results::kAggregateSpread, p.aggregate);
  p.rate_formula = attr<std::string>(g, "rate_formula");
  results::readAttributes(g, results::kLatencyAttributes, p.latency_summary);
  // The derived columns (rank, node, rate) are not kept: validate checks them against the record.
  p.ranks = h5::readCompound<results::RankRow>(g, "ranks", results::kRankFields,
                                               [](const results::RankRow& row) { return row.record; });
  p.latency = readHistogram(g, "latency");
  if (version >= kSeriesSchemaVersion) readSeries(g, p);
  readErrors(g, p);
  if (version >= results::kServerStatsSchemaVersion) p.server_stats = results::readServerStats(g);
  if (version >= results::kFailoverSchemaVersion) results::readFailover(g, p.stall, p.faults);
  return p;
}

// --steady: the summary attributes of a steady phase (what writeSteadySummary wrote for it).
void readSteadySummary(hid_t g, Phase phase, SteadyPhaseSummary& s) {
  results::forSteadyTables(
      phase,
      [&](const auto& table, std::string_view op, auto& part) {
        results::readAttributes(g, table, part, op);
      },
      s);
}

StoredPhase readSteadyPhase(hid_t steady, const std::string& name, std::uint32_t iteration,
                            std::uint32_t version) {
  const h5::Handle group = h5::openGroup(steady, name);
  const hid_t g = group.get();
  StoredPhase p;
  p.group = h5::pathOf(g);
  const auto phase_name = attr<std::string>(g, "phase");
  const std::optional<Phase> phase = parseSteadyPhaseName(phase_name);
  if (!phase || phase_name != name) {
    throw h5::Error(fmt::format("{}: attribute 'phase' is '{}', expected '{}' (precreate, mix or cleanup)",
                                p.group, phase_name, name));
  }
  p.phase = *phase;
  p.iteration = iteration;
  readSteadySummary(g, p.phase, p.summary);
  // The rank and node columns are not kept: validate checks them.
  p.ranks = h5::readCompound<results::SteadyRankRow>(g, "ranks", results::kSteadyRankFields,
                                                     [](const results::SteadyRankRow& row) {
                                                       RankPhaseRecord record = row.record;
                                                       sumKinds(record);
                                                       return record;
                                                     });
  p.kind_latency.resize(kOpKindCount);
  for (const OpKind op : opKindsOf(p.phase)) {
    p.kind_latency[opKindIndex(op)] = readHistogram(g, results::steadyLatencyName(op));
    p.latency += p.kind_latency[opKindIndex(op)];
  }
  readErrors(g, p);
  if (version >= kSteadyTimelineSchemaVersion) {
    readSeriesCounts(g, p.ranks.size(), p.series);
    p.has_series = true;
    results::readFailover(g, p.stall, p.faults);
  }
  deriveFromRows(p);
  return p;
}

// iterations/iter-NNNN/steady: its phases (those present; validate wants all three) in execution order,
// the mix's items its rounds.
void readSteady(hid_t iteration, std::uint32_t number, std::uint32_t version, std::vector<StoredPhase>& out) {
  const h5::Handle group = h5::openGroup(iteration, results::kSteadyGroup);
  const auto rounds = attr<std::uint64_t>(group.get(), "rounds");
  for (const std::string& name : h5::childNames(group.get())) {
    StoredPhase p = readSteadyPhase(group.get(), name, number, version);
    const auto* at = std::find(kSteadyPhases.begin(), kSteadyPhases.end(), p.phase);
    p.order = static_cast<std::uint32_t>(at - kSteadyPhases.begin());
    if (p.phase == Phase::kSteadyMix) p.items = rounds;
    out.push_back(std::move(p));
  }
}

// The phases of every iteration (a steady group's too): iterations in number order, phases in execution
// order within each.
std::vector<StoredPhase> readIterations(hid_t run, std::uint32_t version) {
  const h5::Handle iterations = h5::openGroup(run, "iterations");
  std::vector<StoredPhase> phases;
  for (const std::string& iteration_name : numberedChildren(iterations.get(), "iter-")) {
    const h5::Handle iteration = h5::openGroup(iterations.get(), iteration_name);
    const auto number = attr<std::uint32_t>(iteration.get(), "iteration");  // required by the schema
    std::vector<StoredPhase> in_iteration;
    for (const std::string& name : h5::childNames(iteration.get())) {
      if (name == results::kSteadyGroup) {
        readSteady(iteration.get(), number, version, in_iteration);
      } else {
        in_iteration.push_back(readPhase(iteration.get(), name, version));
      }
    }
    std::stable_sort(in_iteration.begin(), in_iteration.end(),
                     [](const StoredPhase& a, const StoredPhase& b) { return a.order < b.order; });
    for (StoredPhase& p : in_iteration) phases.push_back(std::move(p));
  }
  return phases;
}

std::vector<StoredSummary> readSummary(hid_t run) {
  const h5::Handle summary = h5::openGroup(run, "summary");
  std::vector<StoredSummary> out;
  for (const std::string& name : h5::childNames(summary.get())) {
    const h5::Handle group = h5::openGroup(summary.get(), name);
    const hid_t g = group.get();
    StoredSummary s;
    s.phase = readPhaseName(g);
    results::readAttributes(g, results::kIterationSummaryAttributes, s.summary);
    out.push_back(s);
  }
  // Phase declaration order is execution order.
  std::stable_sort(out.begin(), out.end(), [](const StoredSummary& a, const StoredSummary& b) {
    return static_cast<int>(a.phase) < static_cast<int>(b.phase);
  });
  return out;
}

RunInfo readRunInfo(hid_t run) {
  RunInfo info;
  info.version = attr<std::string>(run, "mdbench_version");
  info.git_commit = attr<std::string>(run, "git_commit");
  info.command_line = attr<std::string>(run, "command_line");
  info.start_utc = attr<std::string>(run, "start_utc");
  info.end_utc = attr<std::string>(run, "end_utc");
  info.ranks = attr<std::uint32_t>(run, "ranks");
  info.nodes = attr<std::uint32_t>(run, "nodes");
  info.scheduler = attr<std::string>(run, "scheduler");
  info.job_id = attr<std::string>(run, "job_id");
  info.job_name = attr<std::string>(run, "job_name");
  info.mpi_library = attr<std::string>(run, "mpi_library");
  info.hdf5_version = attr<std::string>(run, "hdf5_version");
  info.target = attr<std::string>(run, "target");
  info.fs_type = attr<std::string>(run, "fs_type");
  info.fs_total_bytes = attr<std::uint64_t>(run, "fs_total_bytes");
  info.fs_free_bytes = attr<std::uint64_t>(run, "fs_free_bytes");
  info.fs_total_inodes = attr<std::uint64_t>(run, "fs_total_inodes");
  info.fs_free_inodes = attr<std::uint64_t>(run, "fs_free_inodes");
  info.host_of_rank = h5::readStrings(run, "hosts");
  info.sweep.job_ranks = attr<std::uint32_t>(run, "job_ranks");
  info.sweep.step = attr<std::uint32_t>(run, "sweep_step");
  const auto placement = attr<std::string>(run, "sweep_placement");
  const std::optional<SweepPlacement> parsed = results::parseSweepPlacement(placement);
  if (!parsed) {
    throw h5::Error(fmt::format("{}: attribute 'sweep_placement' is '{}', expected none, block or spread",
                                h5::pathOf(run), placement));
  }
  info.sweep.placement = *parsed;
  return info;
}

// Version 6: the run's path_style, api and barrier_timed, into its config; older files: dirfd, POSIX,
// barriers (what every earlier mdbench did).
void readRunStyle(hid_t run, StoredRun& stored) {
  Config& c = stored.config;
  if (!stored.has_mdtest_options) {
    c.path_style = PathStyle::kDirfd;
    c.api = Api::kPosix;
    c.no_barriers = false;
    return;
  }
  const auto style = attr<std::string>(run, "path_style");
  const auto parsed_style = valueOf(kPathStyleNames, style);
  if (!parsed_style) {
    throw h5::Error(
        fmt::format("{}: attribute 'path_style' is '{}', expected full or dirfd", h5::pathOf(run), style));
  }
  c.path_style = *parsed_style;
  const auto api = attr<std::string>(run, "api");
  std::optional<Api> parsed_api;
  for (const BackendRow& row : kBackendRows) {
    if (row.name == api) parsed_api = row.api;
  }
  if (!parsed_api) {
    throw h5::Error(fmt::format("{}: attribute 'api' is '{}', expected {}", h5::pathOf(run), api,
                                apiNames(", ", " or ")));
  }
  c.api = *parsed_api;
  c.no_barriers = !readFlag(run, "barrier_timed");
  // The backend's own options, where the file has them (config attributes named as the options).
  const h5::Handle config = h5::openGroup(run, "config");
  results::readBackendOptions(config.get(), c);
}

StoredRun readRun(hid_t runs, const std::string& name, std::uint32_t version) {
  const h5::Handle group = h5::openGroup(runs, name);
  const hid_t g = group.get();
  StoredRun run;
  run.group = h5::pathOf(g);
  run.info = readRunInfo(g);
  run.status = attr<std::string>(g, "status");
  run.exit_status = attr<std::int32_t>(g, "exit_status");
  run.ranks_per_node_min = attr<std::uint32_t>(g, "ranks_per_node_min");
  run.ranks_per_node_max = attr<std::uint32_t>(g, "ranks_per_node_max");
  run.node_of_rank = h5::readVector<std::uint32_t>(g, "node_of_rank");
  run.bucket_low = h5::readVector<std::uint64_t>(g, "latency_bucket_low");
  run.bucket_high = h5::readVector<std::uint64_t>(g, "latency_bucket_high");
  {
    const h5::Handle config = h5::openGroup(g, "config");
    results::ConfigRecord record = results::readConfigGroup(config.get(), version);
    run.config = std::move(record.config);
    run.shift_used = record.shift_used;
  }
  run.config.command_line = run.info.command_line;  // stored once, as a run attribute
  run.has_mdtest_options = version >= kMdtestSchemaVersion;
  readRunStyle(g, run);
  run.has_series = version >= kSeriesSchemaVersion;
  run.phases = readIterations(g, version);
  run.has_summary = h5::exists(g, "summary");
  if (run.has_summary) run.summaries = readSummary(g);
  return run;
}

}  // namespace

void deriveFromRows(StoredPhase& phase) {
  phase.aggregate = aggregate(phase.ranks);
  phase.latency_summary = latencySummary(phase.latency);
  phase.done = doneRates(phase.ranks, phase.series);
}

PhaseSize phaseSize(const StoredPhase& phase, std::uint32_t run_ranks) {
  return phaseSize(phase.aggregate, slowestRankTime(phase.ranks), run_ranks);
}

std::string runGroupName(std::uint32_t index) { return fmt::format("run-{:04}", index); }

namespace results {

StoredResults readStored(hid_t file, const std::string& path) {
  const h5::QuietErrors quiet;
  try {
    const std::string problem = results::rootProblem(file, path, "reads");
    if (!problem.empty()) throw ResultsFileError(problem);
    StoredResults out;
    out.schema = attr<std::string>(file, "schema");
    out.schema_version = attr<std::uint32_t>(file, "schema_version");
    const h5::Handle runs = h5::openGroup(file, results::kRunsGroup);
    for (const std::string& name : numberedChildren(runs.get(), "run-"))
      out.runs.push_back(readRun(runs.get(), name, out.schema_version));
    readImports(file, out);
    return out;
  } catch (const h5::Error& e) {
    throw ResultsFileError(fmt::format("{}: {}", path, e.what()));
  }
}

}  // namespace results

// Opened as every results file is (results_files.hpp: the name's own regular file, nothing in it that leads
// to another file).
StoredResults readResultsFile(const std::string& path) {
  const h5::QuietErrors quiet;
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
    throw ResultsFileError(fmt::format("{}: no such file", path));
  const h5::Handle file = results::openFile(path, H5F_ACC_RDONLY, "read");
  return results::readStored(file.get(), path);
}

}  // namespace mdbench
