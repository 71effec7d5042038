// The CSV table of imported results and the details of a metadata import row in the JSON export.
#include "export_imports.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "csv_field.hpp"

namespace mdbench {
namespace {

// One table for both kinds of import: `kind` says which, and each kind leaves the other's columns empty.
constexpr std::string_view kImportCsvHeader =
    "import,tool,kind,operation,phase,ranks,nodes,sweep_step,iterations,ops_per_s_max,ops_per_s_min,"
    "ops_per_s_mean,ops_per_s_stddev,time_s_mean,per_rank_ops_per_s_max,per_rank_ops_per_s_min,"
    "per_rank_ops_per_s_mean,mib_per_s_max,mib_per_s_min,mib_per_s_mean,mib_per_s_stddev,transfer_bytes,"
    "block_bytes,p50_ns,p90_ns,p99_ns,max_ns,source,command_line\n";

std::string csvField(std::string_view field) {
  std::string out;
  results::appendCsvField(out, field);
  return out;
}

// "" for a figure the tool did not print (0 in the file), else the number in its shortest exact form.
template <class T>
std::string known(T value) {
  return value == T{} ? std::string() : fmt::format("{}", value);
}

// The 1-based step of a sweep over rank counts (mdtest -f/-l/-s prints one block per count): the place of
// the row's count among the import's counts in order of first appearance; empty when there is one count.
template <class Row, class CountOf>
std::optional<std::size_t> sweepStep(const std::vector<Row>& rows, std::uint32_t count, CountOf count_of) {
  std::vector<std::uint32_t> counts;
  for (const Row& r : rows) {
    if (std::find(counts.begin(), counts.end(), count_of(r)) == counts.end()) counts.push_back(count_of(r));
  }
  if (counts.size() < 2) return std::nullopt;
  return static_cast<std::size_t>(std::find(counts.begin(), counts.end(), count) - counts.begin()) + 1;
}

std::string stepText(std::optional<std::size_t> step) { return step ? fmt::format("{}", *step) : ""; }

template <class Import>
std::string provenanceTail(const Import& imp) {
  return fmt::format(",{},{}\n", csvField(imp.source), csvField(imp.command_line));
}

std::string dataPathRow(const DataPathImport& imp, const DataPathRow& r) {
  const auto clients = [](const DataPathRow& row) { return row.clients; };
  // ops_per_s_mean is IOR's OPsMean (transfers per second): the only ops/s figure a data-path tool prints.
  return fmt::format("{},{},datapath,{},,{},{},{},{},,,{},,,,,,{},{},{},{},{},{},,,,{}", csvField(imp.group),
                     csvField(imp.tool), csvField(r.operation), r.clients, known(r.nodes),
                     stepText(sweepStep(imp.rows, r.clients, clients)), r.iterations, known(r.ops_per_s_mean),
                     r.mib_per_s_max, r.mib_per_s_min, r.mib_per_s_mean, r.mib_per_s_stddev,
                     known(r.transfer_bytes), known(r.block_bytes), provenanceTail(imp));
}

std::string metadataRow(const MetadataImport& imp, const MetadataImportRow& r) {
  const auto ranks = [](const MetadataImportRow& row) { return row.ranks; };
  std::string line =
      fmt::format("{},{},metadata,{},{},{},{},{},{},{},{},{},{},{},", csvField(imp.group), csvField(imp.tool),
                  csvField(r.operation), csvField(r.phase), r.ranks, known(r.nodes),
                  stepText(sweepStep(imp.rows, r.ranks, ranks)), r.iterations, r.ops_per_s_max,
                  r.ops_per_s_min, r.ops_per_s_mean, r.ops_per_s_stddev, known(r.time_s_mean));
  if (r.has_rank_statistics) {
    fmt::format_to(std::back_inserter(line), "{},{},{}", r.per_rank_ops_per_s_max, r.per_rank_ops_per_s_min,
                   r.per_rank_ops_per_s_mean);
  } else {
    line += ",,";
  }
  line += ",,,,,,";  // the data-path columns
  if (r.has_latency) {
    fmt::format_to(std::back_inserter(line), ",{},{},{},{}", r.latency_p50_ns, r.latency_p90_ns,
                   r.latency_p99_ns, r.latency_max_ns);
  } else {
    line += ",,,,";
  }
  return line + provenanceTail(imp);
}

}  // namespace

void exportImportsCsv(const StoredResults& results, std::ostream& out) {
  if (results.datapath.empty() && results.metadata_imports.empty()) return;
  out << kImportCsvHeader;
  for (const DataPathImport& imp : results.datapath) {
    for (const DataPathRow& r : imp.rows) out << dataPathRow(imp, r);
  }
  for (const MetadataImport& imp : results.metadata_imports) {
    for (const MetadataImportRow& r : imp.rows) out << metadataRow(imp, r);
  }
}

void addImportRowDetails(nlohmann::ordered_json& row, const MetadataImportRow& r) {
  if (r.has_rank_statistics) {
    row["rank_statistics"] = {{"per_rank_ops_per_s_max", r.per_rank_ops_per_s_max},
                              {"per_rank_ops_per_s_min", r.per_rank_ops_per_s_min},
                              {"per_rank_ops_per_s_mean", r.per_rank_ops_per_s_mean}};
  }
  if (r.has_latency) {
    row["latency"] = {{"p50_ns", r.latency_p50_ns},
                      {"p90_ns", r.latency_p90_ns},
                      {"p99_ns", r.latency_p99_ns},
                      {"max_ns", r.latency_max_ns}};
  }
}

}  // namespace mdbench
