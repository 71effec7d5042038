// The report model: results files -> series of points against ranks (or clients). Pooling rule: every
// iteration measured at one rank count counts once, whichever run or file it came from; imported summaries
// (which hold no per-iteration values) are pooled with metrics' pool().
#include "mdbench/report/scaling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "mdbench/model/stats.hpp"

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
  RunningStats stonewall;
};

using Key = std::pair<std::string, std::uint32_t>;  // series name, ranks

struct SeriesInfo {
  SeriesKind kind;
  std::size_t order;  // metadata: phase order; data path: after every phase
};

void addRun(const StoredRun& run, std::map<Key, Accumulator>& acc, std::map<std::string, SeriesInfo>& kinds) {
  for (const StoredPhase& phase : run.phases) {
    const std::string name(phaseName(phase.phase));
    kinds.emplace(name, SeriesInfo{SeriesKind::kMetadata, static_cast<std::size_t>(phase.phase)});
    Accumulator& a = acc[{name, run.info.ranks}];
    a.nodes = std::max(a.nodes, run.info.nodes);
    a.measured = true;
    a.rates.push_back(phase.aggregate.ops_per_s);
    a.ok += phase.aggregate.ok;
    a.failed += phase.aggregate.failed;
    if (phase.aggregate.stonewalled) a.stonewall.add(phase.aggregate.ops_per_s_at_stonewall);
    const std::size_t n = std::min(phase.latency.size(), LatencyHistogram::kBuckets);
    for (std::size_t i = 0; i < n; ++i) a.latency.counts()[i] += phase.latency[i];
  }
}

void addImported(const std::string& name, SeriesInfo info, std::uint32_t ranks, std::uint32_t nodes,
                 const IterationSummary& summary, std::map<Key, Accumulator>& acc,
                 std::map<std::string, SeriesInfo>& kinds) {
  kinds.emplace(name, info);
  Accumulator& a = acc[{name, ranks}];
  a.nodes = std::max(a.nodes, nodes);
  a.imported = pool(a.imported, summary);
  a.has_import = true;
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
    p.stonewall_mean = a.stonewall.mean();
  }
  return p;
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
  Configuration config;
  config.label = label;
  config.files = files;
  std::map<Key, Accumulator> acc;
  std::map<std::string, SeriesInfo> kinds;
  for (std::size_t f = 0; f < results.size(); ++f) {
    const std::string file = f < files.size() ? files[f] : fmt::format("file {}", f + 1);
    for (const StoredRun& run : results[f].runs) {
      addRun(run, acc, kinds);
      if (std::string note = runNote(file, run); !note.empty()) config.notes.push_back(std::move(note));
    }
    for (const MetadataImport& imp : results[f].metadata_imports) {
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
                    acc, kinds);
      }
      for (const std::string& op : skipped) {
        config.notes.push_back(
            fmt::format("{}: {} operation '{}' has no mdbench phase; not shown", file, imp.tool, op));
      }
    }
    for (const DataPathImport& imp : results[f].datapath) {
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
                    acc, kinds);
      }
      if (ops_only) {
        config.notes.push_back(fmt::format("{}: {} {} reported ops/s, not bandwidth: not shown in MiB/s",
                                           file, imp.tool, imp.source));
      }
    }
  }
  std::vector<std::pair<std::string, SeriesInfo>> order(kinds.begin(), kinds.end());
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.second.order < b.second.order; });
  for (const auto& [name, info] : order) {
    Series s;
    s.kind = info.kind;
    s.name = name;
    s.unit = info.kind == SeriesKind::kMetadata ? "ops/s" : "MiB/s";
    s.x_unit = info.kind == SeriesKind::kMetadata ? "ranks" : "clients";
    bool mixed = false;
    for (auto it = acc.lower_bound({name, 0}); it != acc.end() && it->first.first == name; ++it) {
      s.points.push_back(finish(it->first.second, it->second));
      mixed = mixed || (it->second.measured && it->second.has_import);
    }
    if (mixed) {
      config.notes.push_back(
          fmt::format("{}: mdbench runs and imported results at the same rank count are pooled", name));
    }
    config.series.push_back(std::move(s));
  }
  return config;
}

Configuration loadConfiguration(const std::string& label, const std::vector<std::string>& files) {
  std::vector<StoredResults> results;
  results.reserve(files.size());
  for (const std::string& file : files) results.push_back(readResultsFile(file));
  return buildConfiguration(label, files, results);
}

}  // namespace mdbench
