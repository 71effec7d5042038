// `mdbench export`: a results file (already read into StoredResults) as JSON or CSV.
#include "mdbench/results/export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <nlohmann/json.hpp>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "csv_field.hpp"
#include "export_imports.hpp"
#include "export_server_stats.hpp"
#include "h5.hpp"
#include "mdbench/config/backends.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/rate_timing.hpp"
#include "mdbench/model/stats.hpp"
#include "mdbench/model/steady.hpp"
#include "results_attributes.hpp"
#include "results_config.hpp"
#include "results_faults.hpp"
#include "results_layout.hpp"  // the strings and rows the results file holds for enums, joined values, imports

namespace mdbench {
namespace {

// ordered_json keeps the keys in the schema's order (schema first, then runs), which is what a person
// reading the export expects; the document is the same JSON value as with sorted keys.
using Json = nlohmann::ordered_json;

// A group's computed attributes under their file names (results_attributes.hpp), flags as booleans.
template <class Table, class S>
void addAttributes(Json& j, const Table& table, const S& value) {
  for (const auto& row : table) {
    results::withMember(row, value, [&](const auto& v) { j[row.name] = v; });
  }
}

// One field of a compound row as the file stores it (an h5::Field of results_layout.hpp), in its own type.
Json fieldJson(const h5::Field& field, const void* row) {
  const auto* at = static_cast<const unsigned char*>(row) + field.offset;
  const auto read = [&]<class T>(T value) {
    std::memcpy(&value, at, sizeof value);
    return Json(value);
  };
  switch (field.type) {
    case h5::Type::kString: {
      const char* text = nullptr;
      std::memcpy(&text, at, sizeof text);
      return results::textOf(text);
    }
    case h5::Type::kUint8:
      return read(std::uint8_t{});
    case h5::Type::kUint32:
      return read(std::uint32_t{});
    case h5::Type::kUint64:
      return read(std::uint64_t{});
    case h5::Type::kInt32:
      return read(std::int32_t{});
    case h5::Type::kFloat64:
      return read(0.0);
  }
  return nullptr;
}

// A row of a compound table under the file's field names, in the file's order.
template <class Row>
Json rowJson(std::span<const h5::Field> fields, const Row& row) {
  Json j = Json::object();
  for (const h5::Field& field : fields) j[field.name] = fieldJson(field, &row);
  return j;
}

Json runAttributesJson(const StoredRun& run) {
  const RunInfo& info = run.info;
  Json j;
  j["mdbench_version"] = info.version;
  j["git_commit"] = info.git_commit;
  j["command_line"] = info.command_line;
  j["start_utc"] = info.start_utc;
  j["end_utc"] = info.end_utc;
  j["status"] = run.status;
  j["exit_status"] = run.exit_status;
  j["ranks"] = info.ranks;
  j["nodes"] = info.nodes;
  j["ranks_per_node_min"] = run.ranks_per_node_min;
  j["ranks_per_node_max"] = run.ranks_per_node_max;
  j["scheduler"] = info.scheduler;
  j["job_id"] = info.job_id;
  j["job_name"] = info.job_name;
  j["mpi_library"] = info.mpi_library;
  j["hdf5_version"] = info.hdf5_version;
  j["target"] = info.target;
  j["fs_type"] = info.fs_type;
  j["fs_total_bytes"] = info.fs_total_bytes;
  j["fs_free_bytes"] = info.fs_free_bytes;
  j["fs_total_inodes"] = info.fs_total_inodes;
  j["fs_free_inodes"] = info.fs_free_inodes;
  j["job_ranks"] = info.sweep.job_ranks;
  j["sweep_step"] = info.sweep.step;
  j["sweep_placement"] = sweepPlacementName(info.sweep.placement);
  if (run.has_mdtest_options) {  // absent, as in files before version 6
    j["path_style"] = pathStyleName(run.config.path_style);
    j["api"] = apiName(run.config.api);
    j["barrier_timed"] = !run.config.no_barriers;
  }
  return j;
}

// A row of a phase's `errors` as the file holds it (a steady phase's with its op kind).
Json errorJson(const StoredError& e, Phase phase) {
  const bool steady = phaseInfo(phase).steady();
  return rowJson(results::errorFieldsOf(phase),
                 results::ErrorRow{e.rank, e.err, e.errno_name.c_str(), e.path.c_str(),
                                   steady ? opKindName(e.kind) : nullptr});
}

// Only the non-empty buckets: a phase has 592 buckets of which a handful hold anything. Each keeps its
// index (so histograms of several phases can still be summed bucket by bucket) and its bounds. The
// bounds come from the run's latency_bucket_low/_high datasets; should those not cover the histogram
// (a hand-made file), they are the ones the schema defines (unchanged since version 1), which the writer
// stores.
Json latencyBucketsJson(const LatencyHistogram& histogram, const StoredRun& run) {
  const std::span<const std::uint64_t, LatencyHistogram::kBuckets> counts = histogram.counts();
  Json buckets = Json::array();
  for (std::size_t b = 0; b < counts.size(); ++b) {
    if (counts[b] == 0) continue;
    const bool stored = b < run.bucket_low.size() && b < run.bucket_high.size();
    Json j;
    j["bucket"] = b;
    j["low"] = stored ? run.bucket_low[b] : LatencyHistogram::bucketLow(b);
    j["high"] = stored ? run.bucket_high[b] : LatencyHistogram::bucketHigh(b);
    j["count"] = counts[b];
    buckets.push_back(std::move(j));
  }
  return buckets;
}

// The node a rank ran on: the run's node_of_rank (0 past its end, which only a hand-made StoredRun has: a
// file's is checked to have one per rank).
std::uint32_t nodeOf(const StoredRun& run, std::uint32_t rank) {
  return rank < run.node_of_rank.size() ? run.node_of_rank[rank] : 0;
}

Json phaseJson(const StoredPhase& p, const StoredRun& run) {
  Json j;
  j["group"] = p.group;
  j["iteration"] = p.iteration;
  j["phase"] = phaseName(p.phase);
  j["order"] = p.order;
  j["items"] = p.items;
  addAttributes(j, results::kAggregateTotals, p.aggregate);
  j["rate_formula"] = p.rate_formula;
  addAttributes(j, results::kAggregateSpread, p.aggregate);
  addAttributes(j, results::kLatencyAttributes, p.latency_summary);
  // Version 5. The per-rank counts stay in the HDF5 file (ranks x intervals numbers); the JSON carries the
  // summed series under the total's dataset name, with the interval it is counted in.
  if (p.has_series) {
    addAttributes(j, results::kDoneRateAttributes, p.done);
    j[results::kIntervalAttribute] = p.series.interval_s;
    j[results::kOpsPerIntervalTotal] = p.series.total;
  }
  Json ranks = Json::array();
  for (std::uint32_t r = 0; r < p.ranks.size(); ++r) {
    ranks.push_back(rowJson(results::kRankFields, results::rankRowOf(r, nodeOf(run, r), p.ranks[r])));
  }
  j["ranks"] = std::move(ranks);
  j["latency_buckets"] = latencyBucketsJson(p.latency, run);
  Json errors = Json::array();
  for (const StoredError& e : p.errors) errors.push_back(errorJson(e, p.phase));
  j["errors"] = std::move(errors);
  if (!p.server_stats.empty()) j["server_stats"] = results::serverStatsJson(p.server_stats);  // version 7
  results::addFailoverJson(j, p.stall, p.faults);                                             // version 9
  // Computed on export (rate_timing.hpp), not stored: a rate too short to time is marked where it is read.
  j["too_short"] = tooShortToTime(phaseSize(p, run.info.ranks));
  return j;
}

// Whether the phase's iterations, together, were too short to time (as a summary row of the console's).
bool summaryTooShort(const StoredRun& run, Phase phase) {
  PhaseSizeMean sizes;
  for (const StoredPhase& p : run.phases) {
    if (p.phase == phase) sizes.add(phaseSize(p, run.info.ranks));
  }
  return tooShortToTime(sizes.mean());
}

Json summaryJson(const StoredSummary& s, const StoredRun& run) {
  Json j;
  j["phase"] = phaseName(s.phase);
  addAttributes(j, results::kIterationSummaryAttributes, s.summary);
  j["too_short"] = summaryTooShort(run, s.phase);
  return j;
}

// --steady: an iteration's steady group, its phases' summaries by op (the per-rank rows and histograms stay
// in the HDF5 file).
Json steadyPhaseJson(const StoredPhase& p, std::uint32_t run_ranks) {
  Json j;
  j["phase"] = phaseName(p.phase);
  // "ops" (by op type) where the per-op tables come: after the phase's own numbers, before the mix's.
  results::forSteadyTables(
      p.phase,
      [&](const auto& table, std::string_view op, const auto& part) {
        addAttributes(op.empty() ? j : j["ops"][std::string(op)], table, part);
      },
      p.summary);
  j["too_short"] = tooShortToTime(phaseSize(p, run_ranks));
  Json errors = Json::array();
  for (const StoredError& e : p.errors) errors.push_back(errorJson(e, p.phase));
  j["errors"] = std::move(errors);
  // Version 10: the summed series and the failover fields, as a selected phase's.
  if (p.has_series) {
    j[results::kIntervalAttribute] = p.series.interval_s;
    j[results::kOpsPerIntervalTotal] = p.series.total;
    results::addFailoverJson(j, p.stall, p.faults);
  }
  return j;
}

bool isSteady(const StoredPhase& p) { return phaseInfo(p.phase).steady(); }

bool hasSteady(const StoredRun& run) { return std::ranges::any_of(run.phases, isSteady); }

// An iteration's agreed rounds: its mix's items (0 while no mix is stored, as its steady group's rounds).
std::uint64_t steadyRounds(const StoredRun& run, std::uint32_t iteration) {
  for (const StoredPhase& p : run.phases) {
    if (p.iteration == iteration && p.phase == Phase::kSteadyMix) return p.items;
  }
  return 0;
}

// --steady: the run's steady phases by iteration, as the file groups them (one steady group each).
Json steadyJson(const StoredRun& run) {
  Json steady = Json::array();
  for (const StoredPhase& p : run.phases) {
    if (!isSteady(p)) continue;
    if (steady.empty() || steady.back()["iteration"] != p.iteration) {
      steady.push_back({{"iteration", p.iteration},
                        {"rounds", steadyRounds(run, p.iteration)},
                        {"phases", Json::array()}});
    }
    steady.back()["phases"].push_back(steadyPhaseJson(p, run.info.ranks));
  }
  return steady;
}

// The newest schema version whose config attributes the run's group can hold, from the reader's record of
// which versions' parts its file has (5: the series, 6: mdtest's options). Later rows say what an older
// file implies (results_config.hpp), so their values are exported for every run.
std::uint32_t configVersionOf(const StoredRun& run) {
  if (run.has_mdtest_options) return kSchemaVersion;
  return run.has_series ? kSeriesSchemaVersion : kOldestReadableSchemaVersion;
}

Json runJson(const StoredRun& run) {
  Json j;
  j["group"] = run.group;
  j["attributes"] = runAttributesJson(run);
  j["hosts"] = run.info.host_of_rank;
  j["node_of_rank"] = run.node_of_rank;
  j["config"] = results::configGroupJson({run.config, run.shift_used}, configVersionOf(run));
  Json phases = Json::array();
  for (const StoredPhase& p : run.phases) {
    if (!isSteady(p)) phases.push_back(phaseJson(p, run));
  }
  j["phases"] = std::move(phases);
  // Only in runs that have it (--steady), so that other runs' JSON stays as it was.
  if (hasSteady(run)) j["steady"] = steadyJson(run);
  // Absent, like the file's summary group, while the run is running or was killed.
  if (run.has_summary) {
    Json summary = Json::array();
    for (const StoredSummary& s : run.summaries) summary.push_back(summaryJson(s, run));
    j["summary"] = std::move(summary);
  }
  return j;
}

using results::appendCsvField;

// Columns added in later schema versions come last, so scripts that pick columns by position keep working.
constexpr std::string_view kCsvHeader =
    "run,iteration,phase,order,rank,node,host,planned,ok,failed,bytes,t_start,t_local_end,t_global_end,"
    "rate,phase_ops_per_s,phase_time_s,ops_at_stonewall,t_stonewall,phase_items,phase_ops_per_s_at_"
    "stonewall,phase_first_done_time_s,phase_first_done_ops,phase_first_done_ops_per_s,phase_last_done_"
    "time_s,phase_last_done_ops_per_s,ranks,sweep_step,latency_p50_ns,latency_p90_ns,latency_p99_ns,latency_"
    "p999_ns,latency_max_ns,phase_too_short\n";

// --steady: one row per run, iteration, phase and op type of the phase (results-schema/README.md).
constexpr std::string_view kSteadyCsvHeader =
    "run,iteration,phase,op,ok,failed,ops_per_s,p50_ns,p90_ns,p99_ns,max_ns,phase_time_s,phase_ok_per_s,"
    "phase_time_balance,phase_rate_balance,rounds,rounds_per_s,objects_per_s,phase_too_short\n";

// `rounds`: the phase's iteration's (steadyRounds), found once per phase, not per op row.
std::string steadyCsvRow(const StoredRun& run, const StoredPhase& p, OpKind op, std::uint64_t rounds) {
  const SteadyPhaseSummary& s = p.summary;
  const SteadyOpSummary& o = s.ops[opKindIndex(op)];
  std::string line;
  appendCsvField(line, run.group);
  fmt::format_to(std::back_inserter(line), ",{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                 p.iteration, phaseName(p.phase), opKindName(op), o.ok, o.failed, o.ops_per_s,
                 o.latency.p50_ns, o.latency.p90_ns, o.latency.p99_ns, o.latency.max_ns, s.aggregate.time_s,
                 s.aggregate.ops_per_s, s.time_balance, s.aggregate.balance, rounds, s.rounds_per_s,
                 s.objects_per_s, tooShortToTime(phaseSize(p, run.info.ranks)) ? 1 : 0);
  return line;
}

// fmt's "{}" prints integers in decimal and doubles in the shortest form that reads back exactly.
std::string csvRow(const StoredRun& run, const StoredPhase& p, std::uint32_t rank) {
  const RankPhaseRecord& r = p.ranks[rank];
  const std::vector<std::string>& hosts = run.info.host_of_rank;
  const std::string_view host = rank < hosts.size() ? std::string_view(hosts[rank]) : std::string_view();
  std::string line;
  appendCsvField(line, run.group);
  fmt::format_to(std::back_inserter(line), ",{},{},{},{},{},", p.iteration, phaseName(p.phase), p.order, rank,
                 nodeOf(run, rank));
  appendCsvField(line, host);
  fmt::format_to(std::back_inserter(line), ",{},{},{},{},{},{},{},{},{},{},{},{},{},{}", r.planned, r.ok,
                 r.failed, r.bytes, r.t_start, r.t_local_end, r.t_global_end, rankRate(r),
                 p.aggregate.ops_per_s, p.aggregate.time_s, r.ops_at_stonewall, r.t_stonewall, p.items,
                 p.aggregate.ops_per_s_at_stonewall);
  // Empty where the file has no such numbers (before version 5): not a rate of 0.
  if (p.has_series) {
    const DoneRates& d = p.done;
    fmt::format_to(std::back_inserter(line), ",{},{},{},{},{}", d.first_done_time_s, d.first_done_ops,
                   d.first_done_ops_per_s, d.last_done_time_s, d.last_done_ops_per_s);
  } else {
    line += ",,,,,";
  }
  // The run's rank count, its sweep step (0: not a step) and the phase's latency percentiles (all ranks'
  // histograms merged), on every row, so that a spreadsheet needs no second table to plot or filter them.
  const LatencySummary& l = p.latency_summary;
  fmt::format_to(std::back_inserter(line), ",{},{},{},{},{},{},{}", run.info.ranks, run.info.sweep.step,
                 l.p50_ns, l.p90_ns, l.p99_ns, l.p999_ns, l.max_ns);
  // 1: the phase's rates (rate, phase_ops_per_s, the done rates) are too short to time (rate_timing.hpp).
  fmt::format_to(std::back_inserter(line), ",{}\n", tooShortToTime(phaseSize(p, run.info.ranks)) ? 1 : 0);
  return line;
}

// Imported results (schema version 4): the group's attributes and its rows, fields under their file names.
template <class Import>
Json importJson(const Import& imp) {
  using Kind = results::ImportKind<Import>;
  Json j;
  j["group"] = imp.group;
  for (const auto& [name, member] : results::kProvenance<Import>) j[name] = imp.*member;
  Json rows = Json::array();
  for (const auto& r : imp.rows) {
    const typename Kind::FileRow row = Kind::toFile(r);
    Json j_row = rowJson(Kind::fields(), row);
    addImportRowDetails(j_row, r);
    rows.push_back(std::move(j_row));
  }
  j["results"] = std::move(rows);
  return j;
}

}  // namespace

void exportJson(const StoredResults& results, std::ostream& out) {
  Json doc;
  doc["schema"] = results.schema;
  doc["schema_version"] = results.schema_version;
  Json runs = Json::array();
  for (const StoredRun& run : results.runs) runs.push_back(runJson(run));
  doc["runs"] = std::move(runs);
  Json datapath = Json::array();
  for (const DataPathImport& imp : results.datapath) datapath.push_back(importJson(imp));
  doc["datapath"] = std::move(datapath);
  Json metadata = Json::array();
  for (const MetadataImport& imp : results.metadata_imports) metadata.push_back(importJson(imp));
  doc["metadata_imports"] = std::move(metadata);
  // Doubles are printed in their shortest round-trip form (a non-finite one, which no formula of the
  // schema produces, would become null). Strings in a results file are UTF-8 by contract; a stray invalid
  // byte (a host or path name from a system that does not use UTF-8) becomes U+FFFD rather than aborting the
  // whole export.
  out << doc.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

void exportCsv(const StoredResults& results, std::ostream& out) {
  const bool all_steady = !results.runs.empty() && std::ranges::all_of(results.runs, hasSteady);
  const bool imports = !results.datapath.empty() || !results.metadata_imports.empty();
  // Imports have a table of their own, last, after a blank line when run rows came first; a file of
  // imports only has that table alone.
  if (imports && results.runs.empty()) {
    exportImportsCsv(results, out);
    return;
  }
  if (!all_steady) {
    out << kCsvHeader;
    for (const StoredRun& run : results.runs) {
      for (const StoredPhase& p : run.phases) {
        if (isSteady(p)) continue;
        for (std::uint32_t r = 0; r < p.ranks.size(); ++r) out << csvRow(run, p, r);
      }
    }
  }
  // --server-stats (version 7): the counters' own table, after a blank line.
  if (!all_steady && results::hasServerStats(results)) {
    out << '\n';
    results::serverStatsCsv(results, out);
  }
  if (std::ranges::any_of(results.runs, hasSteady)) {
    // The steady state has other columns: its own table, after a blank line when phase rows came first.
    if (!all_steady) out << '\n';
    out << kSteadyCsvHeader;
    for (const StoredRun& run : results.runs) {
      for (const StoredPhase& p : run.phases) {
        if (!isSteady(p)) continue;
        const std::uint64_t rounds = steadyRounds(run, p.iteration);
        for (const OpKind op : opKindsOf(p.phase)) out << steadyCsvRow(run, p, op, rounds);
      }
    }
  }
  if (imports) {
    out << '\n';
    exportImportsCsv(results, out);
  }
}

}  // namespace mdbench
