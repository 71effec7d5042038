// The report's section on server counters (--server-stats): report.hpp's serverStatsSection.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "mdbench/model/rate_timing.hpp"
#include "mdbench/model/server_stats.hpp"
#include "mdbench/report/report.hpp"

namespace mdbench {

std::string serverStatsSection(const std::vector<TimelineRun>& timelines) {
  const auto has_server = [](const TimelineRun& run) {
    return std::any_of(run.phases.begin(), run.phases.end(),
                       [](const TimelinePhase& p) { return !p.server_stats.empty(); });
  };
  if (std::none_of(timelines.begin(), timelines.end(), has_server)) return {};
  std::string out = "Metadata server counters (--server-stats; first iteration of each run):\n";
  for (const TimelineRun& run : timelines) {
    if (!has_server(run)) continue;
    out += fmt::format("  {} {} ({} ranks)\n", run.file, run.group, run.ranks);
    for (const TimelinePhase& p : run.phases) {
      if (p.server_stats.empty()) continue;
      // The counters are per operation and hold; the rate beside them is marked as everywhere else.
      const std::string mark = tooShortToTime(p.size) ? "   " + tooShortText(p.size) : std::string();
      out += fmt::format("    {:<12} {:>12.1f} ops/s {:>10} ops{}\n", phaseName(p.phase), p.ops_per_s, p.ops,
                         mark);
      for (const std::string& line : serverStatsLines(p.server_stats, p.phase, p.ops)) {
        out += "      " + line + "\n";
      }
    }
  }
  return out + "\n";
}

}  // namespace mdbench
