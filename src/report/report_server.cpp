// The report's section on server counters (--server-stats): report.hpp's serverStatsRuns and
// serverStatsSection, the same section in every rendering.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "mdbench/model/rate_timing.hpp"
#include "mdbench/model/server_stats.hpp"
#include "mdbench/report/report.hpp"
#include "report_format.hpp"

namespace mdbench {

std::vector<ServerStatsRun> serverStatsRuns(const std::vector<TimelineRun>& timelines) {
  std::vector<ServerStatsRun> runs;
  for (const TimelineRun& run : timelines) {
    ServerStatsRun out{
        fmt::format("{} {} ({})", run.file, run.group, report_format::countOf(run.ranks, "ranks")), {}};
    for (const TimelinePhase& p : run.phases) {
      if (p.server_stats.empty() || phaseInfo(p.phase).steady()) continue;  // --steady samples none
      // The counters are per operation and hold; the rate beside them is marked as everywhere else.
      const std::string mark = tooShortToTime(p.size) ? "   " + tooShortText(p.size) : std::string();
      out.phases.push_back(
          {p.phase, p.ops_per_s, p.ops, mark, serverStatsLines(p.server_stats, p.phase, p.ops)});
    }
    if (!out.phases.empty()) runs.push_back(std::move(out));
  }
  return runs;
}

std::vector<std::string> serverStatsRunLines(const ServerStatsRun& run) {
  std::vector<std::string> lines;
  for (const ServerStatsPhase& p : run.phases) {
    lines.push_back(
        fmt::format("{:<12} {:>12.1f} ops/s {:>10} ops{}", phaseName(p.phase), p.ops_per_s, p.ops, p.mark));
    for (const std::string& line : p.lines) lines.push_back("  " + line);
  }
  return lines;
}

DocSection serverStatsSection(const std::vector<TimelineRun>& timelines) {
  DocSection s{std::string(kServerStatsSection), fmt::format("{}:", kServerStatsSection), {}};
  for (const ServerStatsRun& run : serverStatsRuns(timelines)) {
    s.blocks.push_back(docSubheading(run.title));
    s.blocks.push_back(docLines(serverStatsRunLines(run)));
  }
  return s;
}

}  // namespace mdbench
