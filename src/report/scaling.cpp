// The report model: results files -> series of points against ranks (or clients). Pooling rule: every
// iteration measured at one rank count counts once, whichever run or file it came from; imported summaries
// (which hold no per-iteration values) are pooled with metrics' pool().
#include "mdbench/report/scaling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "mdbench/model/rate_timing.hpp"
#include "mdbench/model/stats.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/results/validate.hpp"

namespace mdbench {
namespace {

struct Accumulator {
  std::uint32_t nodes = 0;
  std::vector<double> rates;  // mdbench iterations' aggregate ops/s
  IterationSummary imported;  // imported summaries, pooled
  bool measured = false;      // any mdbench iteration
  bool has_import = false;
  LatencyHistogram latency;
  std::uint64_t ok = 0;
  std::uint64_t failed = 0;
  double stall_s = std::numeric_limits<double>::quiet_NaN();     // ScalingPoint's
  double recovery_s = std::numeric_limits<double>::quiet_NaN();  // ScalingPoint's
  RunningStats stonewall;
  // Per iteration, where known: the phase's time and its ops per rank with work (tooFewForRate).
  double time_sum = 0.0;
  double ops_per_rank_sum = 0.0;
  double ops_sum = 0.0;
  double timed = 0.0;  // iterations in the sums
  // --server-stats: as ScalingPoint's server_* members.
  std::uint32_t server_iterations = 0;
  std::map<std::string, double> server_deltas;
  std::uint64_t server_ops = 0;
  std::string server_problem;
};

using Key = std::pair<std::string, std::uint32_t>;  // series name, ranks

struct SeriesInfo {
  SeriesKind kind;
  std::size_t order;  // metadata: phase order; data path: after every phase
};

// A phase's server counters, summed over its sources, when every source was read in full.
void addServerStats(const StoredPhase& phase, Accumulator& a) {
  for (const ServerStatsDelta& s : phase.server_stats) {
    if (s.status == ServerStatsStatus::kOk) continue;
    if (a.server_problem.empty()) {
      a.server_problem = fmt::format("the server counters of {} {} in iteration {}: {}", s.source,
                                     serverStatsStatusName(s.status), phase.iteration, s.problem);
    }
    return;
  }
  for (const ServerStatsDelta& s : phase.server_stats) {
    for (const ServerCounter& c : s.counters) a.server_deltas[c.name] += c.delta;
  }
  a.server_iterations += 1;
  a.server_ops += phase.aggregate.ok + phase.aggregate.failed;
}

// What every measured phase adds, a runner's phase or a steady mix: its rate, counts, latency, size, stall
// (schema version 9; steady phases 10) and its injected faults' recoveries.
void addMeasured(const StoredPhase& phase, std::uint32_t run_ranks, Accumulator& a) {
  const PhaseSize size = phaseSize(phase, run_ranks);
  const PhaseTimeline& timeline = phase;
  a.measured = true;
  a.rates.push_back(phase.aggregate.ops_per_s);
  a.ok += phase.aggregate.ok;
  a.failed += phase.aggregate.failed;
  a.latency += phase.latency;
  a.time_sum += size.time_s;
  a.ops_per_rank_sum += size.ops_per_rank;
  a.ops_sum += size.ops;
  a.timed += 1;
  if (timeline.stall.measured) {
    a.stall_s = std::isnan(a.stall_s) ? timeline.stall.stall_s : std::max(a.stall_s, timeline.stall.stall_s);
  }
  for (const FaultRecord& f : timeline.faults) {
    if (!f.injected || std::isnan(f.recovery_s)) continue;
    const double r = f.recovery_s < 0 ? std::numeric_limits<double>::infinity() : f.recovery_s;
    a.recovery_s = std::isnan(a.recovery_s) ? r : std::max(a.recovery_s, r);
  }
}

// Each phase of each iteration is a point of its phase's series. --steady's mix is a point of kSteadySeries
// (an iteration stopped before its mix was stored has none; its precreate and cleanup are none): its
// stonewall counts rounds, not ops, so it has no stonewall rate.
void addRun(const StoredRun& run, std::map<Key, Accumulator>& acc, std::map<std::string, SeriesInfo>& kinds) {
  for (const StoredPhase& phase : run.phases) {
    const bool steady = phaseInfo(phase.phase).steady();
    if (steady && phase.phase != Phase::kSteadyMix) continue;
    const std::string name = steady ? std::string(kSteadySeries) : std::string(phaseName(phase.phase));
    kinds.emplace(name, SeriesInfo{SeriesKind::kMetadata,
                                   steady ? kPhaseCount : static_cast<std::size_t>(phase.phase)});
    Accumulator& a = acc[{name, run.info.ranks}];
    a.nodes = std::max(a.nodes, run.info.nodes);
    addMeasured(phase, run.info.ranks, a);
    if (!steady && phase.aggregate.stonewalled) a.stonewall.add(phase.aggregate.ops_per_s_at_stonewall);
    if (!phase.server_stats.empty()) addServerStats(phase, a);
  }
}

// time_s: the import's mean phase time, 0 when the tool printed none.
void addImported(const std::string& name, SeriesInfo info, std::uint32_t ranks, std::uint32_t nodes,
                 const IterationSummary& summary, double time_s, std::map<Key, Accumulator>& acc,
                 std::map<std::string, SeriesInfo>& kinds) {
  kinds.emplace(name, info);
  Accumulator& a = acc[{name, ranks}];
  a.nodes = std::max(a.nodes, nodes);
  a.imported = pool(a.imported, summary);
  a.has_import = true;
  if (time_s > 0.0) {
    const double n = summary.iterations;
    a.time_sum += time_s * n;
    a.ops_per_rank_sum += summary.mean * time_s / std::max(ranks, 1u) * n;
    a.ops_sum += summary.mean * time_s * n;
    a.timed += n;
  }
}

IterationSummary summaryOf(std::uint32_t iterations, double max, double min, double mean, double stddev) {
  IterationSummary s;
  s.iterations = std::max<std::uint32_t>(iterations, 1);
  s.max = max;
  s.min = min;
  s.mean = mean;
  s.stddev = stddev;
  return s;
}

std::string runNote(const std::string& file, const StoredRun& run) {
  if (run.status == "complete") return {};
  if (run.status == "interrupted" && run.exit_status == -1) {
    return fmt::format(
        "{} {} ({} ranks) was stopped, then killed before it finished: only its recorded "
        "phases are shown, the last one stopped short",
        file, run.group, run.info.ranks);
  }
  if (run.status == "running") {
    return fmt::format("{} {} ({} ranks) did not finish (killed?): only its finished phases are shown", file,
                       run.group, run.info.ranks);
  }
  return fmt::format("{} {} ({} ranks) ended with status {} (exit {}): failed ops are not in any rate", file,
                     run.group, run.info.ranks, run.status, run.exit_status);
}

ScalingPoint finish(std::uint32_t ranks, const Accumulator& a) {
  ScalingPoint p;
  p.ranks = ranks;
  p.nodes = a.nodes;
  IterationSummary s = summarize(a.rates);
  if (a.has_import) s = pool(s, a.imported);
  p.iterations = s.iterations;
  p.mean = s.mean;
  p.min = s.min;
  p.max = s.max;
  p.stddev = s.stddev;
  if (a.measured) {
    p.has_latency = a.latency.count() > 0;
    p.latency = latencySummary(a.latency);
    p.ok = a.ok;
    p.failed = a.failed;
    p.stall_s = a.stall_s;
    p.recovery_s = a.recovery_s;
    p.stonewall_mean = a.stonewall.mean();
    p.server_iterations = a.server_iterations;
    p.server_deltas = a.server_deltas;
    p.server_ops = a.server_ops;
    p.server_problem = a.server_problem;
  }
  if (a.timed > 0) {
    p.time_s = a.time_sum / a.timed;
    p.ops_per_rank = a.ops_per_rank_sum / a.timed;
    p.ops = a.ops_sum / a.timed;
  }
  return p;
}

// Where a configuration's results come from: everything (buildConfiguration), mdbench's runs, or the
// imports of one tool run with one command line.
struct Source {
  bool all = true;
  bool runs = false;
  std::string tool;
  std::string command_line;  // whitespace collapsed
};

std::string collapseSpaces(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool takes(const Source& s, const std::string& tool, const std::string& command_line) {
  return s.all || (!s.runs && s.tool == tool && s.command_line == collapseSpaces(command_line));
}

// The sources in the order they first appear, mdbench's runs first.
std::vector<Source> sourcesOf(const std::vector<StoredResults>& results) {
  std::vector<Source> sources;
  const auto add = [&](Source s) {
    for (const Source& t : sources) {
      if (t.runs == s.runs && t.tool == s.tool && t.command_line == s.command_line) return;
    }
    sources.push_back(std::move(s));
  };
  for (const StoredResults& r : results) {
    if (!r.runs.empty()) add({false, true, "mdbench", ""});
  }
  for (const StoredResults& r : results) {
    for (const MetadataImport& imp : r.metadata_imports)
      add({false, false, imp.tool, collapseSpaces(imp.command_line)});
    for (const DataPathImport& imp : r.datapath)
      add({false, false, imp.tool, collapseSpaces(imp.command_line)});
  }
  return sources;
}

// The first source keeps the label; the others are "LABEL (TOOL)", numbered when a tool has several.
std::string sourceLabel(const std::string& label, const std::vector<Source>& sources, std::size_t i) {
  if (i == 0) return label;
  std::size_t same = 0, nth = 0;
  for (std::size_t j = 0; j < sources.size(); ++j) {
    if (sources[j].tool != sources[i].tool) continue;
    ++same;
    if (j <= i) nth = same;
  }
  return same > 1 ? fmt::format("{} ({} {})", label, sources[i].tool, nth)
                  : fmt::format("{} ({})", label, sources[i].tool);
}

std::string describe(const Source& s) {
  if (s.runs) return "the mdbench runs";
  if (s.command_line.empty()) return fmt::format("{} output that printed no command line", s.tool);
  return fmt::format("{} run as '{}'", s.tool, s.command_line);
}

std::vector<StoredResults> readAll(const std::vector<std::string>& files) {
  std::vector<StoredResults> results;
  results.reserve(files.size());
  // Only files `mdbench validate` accepts: a gate or a report never rests on numbers the validator rejects.
  for (const std::string& file : files) results.push_back(readValidResultsFile(file));
  return results;
}

// A configuration being built: the points by series and count, the series' kinds.
struct Building {
  Configuration config;
  std::map<Key, Accumulator> acc;
  std::map<std::string, SeriesInfo> kinds;
};

void addMetadataImport(const std::string& file, const MetadataImport& imp, Building& b) {
  std::set<std::string> skipped;
  for (const MetadataImportRow& row : imp.rows) {
    if (row.phase.empty()) {
      skipped.insert(row.operation);
      continue;
    }
    const std::optional<Phase> phase = parsePhaseName(row.phase);
    const std::size_t order = phase ? static_cast<std::size_t>(*phase) : kPhaseCount;
    addImported(row.phase, SeriesInfo{SeriesKind::kMetadata, order}, row.ranks, row.nodes,
                summaryOf(row.iterations, row.ops_per_s_max, row.ops_per_s_min, row.ops_per_s_mean,
                          row.ops_per_s_stddev),
                row.time_s_mean, b.acc, b.kinds);
  }
  for (const std::string& op : skipped) {
    b.config.notes.push_back(
        fmt::format("{}: {} operation '{}' has no mdbench phase; not shown", file, imp.tool, op));
  }
}

void addDataPathImport(const std::string& file, const DataPathImport& imp, Building& b) {
  bool ops_only = false;
  for (const DataPathRow& row : imp.rows) {
    // IOzone -O reports ops/s and no bandwidth: kept in the file, but not a MiB/s point.
    if (row.mib_per_s_mean == 0.0 && row.mib_per_s_max == 0.0 && row.ops_per_s_mean > 0.0) {
      ops_only = true;
      continue;
    }
    addImported(fmt::format("{}:{}", imp.tool, row.operation),
                SeriesInfo{SeriesKind::kDataPath, kPhaseCount + 1}, row.clients, row.nodes,
                summaryOf(row.iterations, row.mib_per_s_max, row.mib_per_s_min, row.mib_per_s_mean,
                          row.mib_per_s_stddev),
                0.0, b.acc, b.kinds);
  }
  if (ops_only) {
    b.config.notes.push_back(fmt::format("{}: {} {} reported ops/s, not bandwidth: not shown in MiB/s", file,
                                         imp.tool, imp.source));
  }
}

// The series from the accumulated points: metadata in phase order (kSteadySeries after the phases), then data
// path by name.
void addSeries(Building& b) {
  std::vector<std::pair<std::string, SeriesInfo>> order(b.kinds.begin(), b.kinds.end());
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& x, const auto& y) { return x.second.order < y.second.order; });
  for (const auto& [name, info] : order) {
    Series s;
    s.kind = info.kind;
    s.name = name;
    s.unit = info.kind == SeriesKind::kMetadata ? "ops/s" : "MiB/s";
    s.x_unit = info.kind == SeriesKind::kMetadata ? "ranks" : "clients";
    bool mixed = false;
    for (auto it = b.acc.lower_bound({name, 0}); it != b.acc.end() && it->first.first == name; ++it) {
      s.points.push_back(finish(it->first.second, it->second));
      mixed = mixed || (it->second.measured && it->second.has_import);
    }
    if (mixed) {
      b.config.notes.push_back(
          fmt::format("{}: mdbench runs and imported results at the same rank count are pooled", name));
    }
    b.config.series.push_back(std::move(s));
  }
}

// The configuration of what `source` takes from the files; its files are those it took something from.
Configuration buildSelected(const std::string& label, const std::vector<std::string>& files,
                            const std::vector<StoredResults>& results, const Source& source) {
  Building b;
  b.config.label = label;
  for (std::size_t f = 0; f < results.size(); ++f) {
    const std::string file = f < files.size() ? files[f] : fmt::format("file {}", f + 1);
    bool used = source.all;
    for (const StoredRun& run : results[f].runs) {
      if (!source.all && !source.runs) break;
      used = true;
      addRun(run, b.acc, b.kinds);
      if (std::string note = runNote(file, run); !note.empty()) b.config.notes.push_back(std::move(note));
    }
    for (const MetadataImport& imp : results[f].metadata_imports) {
      if (!takes(source, imp.tool, imp.command_line)) continue;
      used = true;
      addMetadataImport(file, imp, b);
    }
    for (const DataPathImport& imp : results[f].datapath) {
      if (!takes(source, imp.tool, imp.command_line)) continue;
      used = true;
      addDataPathImport(file, imp, b);
    }
    if (used && f < files.size()) b.config.files.push_back(files[f]);
  }
  addSeries(b);
  return std::move(b.config);
}

}  // namespace

const ScalingPoint* Series::at(std::uint32_t ranks) const {
  for (const ScalingPoint& p : points) {
    if (p.ranks == ranks) return &p;
  }
  return nullptr;
}

const Series* Configuration::find(std::string_view name) const {
  for (const Series& s : series) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

Configuration buildConfiguration(const std::string& label, const std::vector<std::string>& files,
                                 const std::vector<StoredResults>& results) {
  return buildSelected(label, files, results, Source{});
}

Configuration loadConfiguration(const std::string& label, const std::vector<std::string>& files) {
  return buildConfiguration(label, files, readAll(files));
}

PhaseSize phaseSize(const ScalingPoint& point) {
  return {.ops = point.ops, .ops_per_rank = point.ops_per_rank, .time_s = point.time_s};
}

bool tooFewForRate(const ScalingPoint& point) { return tooShortToTime(phaseSize(point)); }

std::vector<Configuration> buildConfigurations(const std::string& label,
                                               const std::vector<std::string>& files,
                                               const std::vector<StoredResults>& results, Grouping grouping) {
  const std::vector<Source> sources = sourcesOf(results);
  if (grouping == Grouping::kPooled || sources.size() <= 1)
    return {buildConfiguration(label, files, results)};
  std::vector<Configuration> configs;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    configs.push_back(buildSelected(sourceLabel(label, sources, i), files, results, sources[i]));
    Configuration& c = configs.back();
    c.notes.insert(
        c.notes.begin(),
        fmt::format("{} of {} configurations from the files labelled '{}': {}; results of different "
                    "tools or command lines are kept apart, not averaged",
                    i + 1, sources.size(), label, describe(sources[i])));
  }
  return configs;
}

std::vector<Configuration> loadConfigurations(const std::string& label, const std::vector<std::string>& files,
                                              Grouping grouping) {
  return buildConfigurations(label, files, readAll(files), grouping);
}

}  // namespace mdbench
