// --server-stats in `mdbench export`: export_server_stats.hpp.
#include "export_server_stats.hpp"

#include <fmt/format.h>

#include <iterator>
#include <string>

#include "csv_field.hpp"

namespace mdbench::results {
namespace {

constexpr std::string_view kHeader = "run,iteration,phase,source,kind,status,counter,before,after,delta\n";

}  // namespace

nlohmann::ordered_json serverStatsJson(const std::vector<ServerStatsDelta>& sources) {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const ServerStatsDelta& s : sources) {
    nlohmann::ordered_json j;
    j["source"] = s.source;
    j["kind"] = serverSourceKindName(s.kind);
    j["description"] = s.description;
    j["status"] = serverStatsStatusName(s.status);
    j["problem"] = s.problem;
    j["t_before"] = s.t_before;
    j["t_after"] = s.t_after;
    nlohmann::ordered_json counters = nlohmann::ordered_json::array();
    for (const ServerCounter& c : s.counters) {
      counters.push_back({{"name", c.name}, {"before", c.before}, {"after", c.after}, {"delta", c.delta}});
    }
    j["counters"] = std::move(counters);
    all.push_back(std::move(j));
  }
  return all;
}

bool hasServerStats(const StoredResults& results) {
  for (const StoredRun& run : results.runs) {
    for (const StoredPhase& p : run.phases) {
      if (!p.server_stats.empty()) return true;
    }
  }
  return false;
}

void serverStatsCsv(const StoredResults& results, std::ostream& out) {
  out << kHeader;
  for (const StoredRun& run : results.runs) {
    for (const StoredPhase& p : run.phases) {
      for (const ServerStatsDelta& s : p.server_stats) {
        std::string prefix;
        appendCsvField(prefix, run.group);
        fmt::format_to(std::back_inserter(prefix), ",{},{},", p.iteration, phaseName(p.phase));
        appendCsvField(prefix, s.source);
        fmt::format_to(std::back_inserter(prefix), ",{},{},", serverSourceKindName(s.kind),
                       serverStatsStatusName(s.status));
        if (s.counters.empty()) out << prefix << ",,,\n";
        for (const ServerCounter& c : s.counters) {
          std::string line = prefix;
          appendCsvField(line, c.name);
          fmt::format_to(std::back_inserter(line), ",{},{},{}\n", c.before, c.after, c.delta);
          out << line;
        }
      }
    }
  }
}

}  // namespace mdbench::results
