// The report's failover section (--fault-at, issue 34): report.hpp's failoverSection, per run a table of its
// phases' stalls, faults, recoveries, failed ops and longest latencies in model/fault.hpp's words (those of
// the console), the same section in every rendering.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "mdbench/model/fault.hpp"
#include "mdbench/report/report.hpp"
#include "report_format.hpp"

namespace mdbench {
namespace {

constexpr std::string_view kIntro =
    "Per run, every phase of every iteration that had a fault given (--fault-at, --fault-cmd): its stall, "
    "the longest interval in which no rank completed an operation, and where it lay in the phase; each "
    "fault's start and how its command ended; its recovery, from its start to the first whole second whose "
    "rate is at least half the median rate of the whole seconds before it; the phase's failed operations "
    "and its longest latency. Times into a phase count from rank 0's start of it. The throughput over time "
    "shades the stall of each phase of the first iteration and draws each injected fault as a dashed line "
    "at its start.";

// Each fault's words, "fault N: " before each when the phase had more than one.
template <typename Words>
std::string perFault(const std::vector<FaultRecord>& faults, Words words) {
  if (faults.size() == 1) return words(faults.front());
  std::string out;
  for (std::size_t i = 0; i < faults.size(); ++i)
    out += fmt::format("{}fault {}: {}", i == 0 ? "" : "; ", i + 1, words(faults[i]));
  return out;
}

DocTable failoverTable(const std::vector<FailoverPhase>& phases) {
  // An iteration column only when the rows span several: the common single iteration reads without it.
  const bool iterations = std::any_of(phases.begin(), phases.end(), [&](const FailoverPhase& p) {
    return p.iteration != phases.front().iteration;
  });
  DocTable t;
  t.header = {"phase", "stall", "faults", "recovery", "failed ops", "latency max"};
  if (iterations) t.header.insert(t.header.begin() + 1, "iteration");
  for (const FailoverPhase& p : phases) {
    std::vector<std::string> row = {
        runPhaseName(p.phase),
        stallText(p.stall, p.t_start),
        perFault(p.faults, faultOutcomeText),
        perFault(p.faults, [](const FaultRecord& f) { return recoveryText(f.recovery_s); }),
        std::to_string(p.failed),
        report_format::formatLatency(p.latency_max_ns)};
    if (iterations) row.insert(row.begin() + 1, std::to_string(p.iteration));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// The faults as given: one --fault-at/--fault-cmd pair each, the same in every phase of the run.
std::vector<std::string> faultCommands(const FailoverPhase& phase) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < phase.faults.size(); ++i) {
    const FaultRecord& f = phase.faults[i];
    lines.push_back(fmt::format("fault {} at {:g} s into each phase: {}", i + 1, f.at_s, f.command));
  }
  return lines;
}

}  // namespace

DocSection failoverSection(const std::vector<TimelineRun>& timelines) {
  DocSection s{std::string(kFailoverSection), fmt::format("{}:", kFailoverSection), {}};
  for (const TimelineRun& run : timelines) {
    if (run.failover.empty()) continue;
    if (s.blocks.empty()) s.blocks.push_back(docParagraph({DocSpan{std::string(kIntro)}}));
    s.blocks.push_back(docSubheading(runTitle(run)));
    s.blocks.push_back(docTable(failoverTable(run.failover)));
    s.blocks.push_back(docList(faultCommands(run.failover.front())));
  }
  return s;
}

}  // namespace mdbench
