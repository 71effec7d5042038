// mdbench report: configurations (one or more results files each) as tables and scaling charts, each
// configuration relative to a baseline, and each run's throughput over time. Pure: one document
// (document.hpp) rendered as text and Markdown, and chart specs out; the subcommand writes the files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/model/metrics.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/report/chart.hpp"
#include "mdbench/report/document.hpp"
#include "mdbench/report/scaling.hpp"
#include "mdbench/results/results_file.hpp"

namespace mdbench {

enum class ErrorBars : std::uint8_t {
  kMinMax,  // the slowest and the fastest iteration
  kStddev,  // mean +- one sample standard deviation (not below 0)
};

struct ReportOptions {
  std::optional<std::size_t> baseline;  // index into the configurations
  ErrorBars error_bars = ErrorBars::kMinMax;
  bool png = false;  // --png: report.md links each chart's PNG after its SVG
};

// Series names over all configurations: metadata phases in execution order, kSteadySeries, then data path by
// name.
std::vector<std::string> reportSeries(const std::vector<Configuration>& configs);

// ---- Throughput over time (results schema version 5) ----

// Runs of more ranks get the summed line only: more thin lines could not be told apart.
inline constexpr std::uint32_t kTimelineMaxRankLines = 16;

// A phase of a run as the report names it: "file-create"; --steady's (a phase over time like the others from
// results schema version 10) "steady mix".
std::string runPhaseName(Phase phase);

// One phase, of any iteration, that had --fault-at given (results schema version 9; --steady's phases 10), as
// stored: a row of the failover table, and in the first iteration the stall and the faults marked in its
// throughput over time.
struct FailoverPhase {
  Phase phase = Phase::kTreeCreate;
  std::uint32_t iteration = 0;
  double t_start = 0.0;  // rank 0's: times into the phase count from it (model's stallIntoPhase)
  PhaseStall stall;
  std::vector<FaultRecord> faults;  // numbered from 1 in the order given, as the console numbers them
  std::uint64_t failed = 0;
  std::uint64_t latency_max_ns = 0;
};

// One phase of a run over time: ops/s per interval as steps (see ratesOverTime), x in seconds since the
// phase started (on each rank's own clock, from its t_start). A steady phase counts every op type; its done
// rates are metrics' doneRates of its ranks' times and counts.
struct TimelinePhase {
  Phase phase = Phase::kTreeCreate;
  double interval_s = 0.0;
  // All ranks: sumOfSteps over every rank's line (also when there are too many ranks to draw their lines);
  // ratesOverTime of the stored totals only when the ranks' rows were not all stored.
  std::vector<ChartPoint> total;
  std::vector<std::vector<ChartPoint>> ranks;  // per rank, up to kTimelineMaxRankLines ranks; else empty
  double ops_per_s = 0.0;                      // the phase's aggregate, barrier to barrier
  DoneRates done;
  std::uint64_t ops = 0;                       // ok + failed, for server requests per op
  std::vector<ServerStatsDelta> server_stats;  // --server-stats (schema version 7; none in a steady phase)
  // Too short to time (model's rate_timing.hpp): not charted over time, its rates marked in the tables.
  PhaseSize size;
  // With --fault-at: its stall is shaded and each injected fault drawn at its start (timelineCharts).
  std::optional<FailoverPhase> failover{};
};

// One run of a configuration, with the phases of its first iteration in execution order (a --steady run's:
// precreate, mix, cleanup).
struct TimelineRun {
  std::string label;  // the configuration's
  std::string file;
  std::string group;  // "/runs/run-0000"
  std::string stem;   // its chart's file name without extension: "timeline-ssd-run-0000"
  std::uint32_t ranks = 0;
  std::uint32_t iteration = 0;  // the first one stored
  // false: a file written before schema version 5, which has no series; a --steady run's before version 10.
  bool has_series = false;
  PathStyle path_style = PathStyle::kFull;  // --path-style: dirfd rates are not comparable with mdtest's
  std::vector<TimelinePhase> phases;
  // --steady: the run's steady phases, every iteration's (StoredRun::phases), also shown in the "Steady
  // state" section.
  std::vector<StoredPhase> steady;
  // --fault-at (schema version 9): every iteration's phases that had faults given, in the file's order.
  std::vector<FailoverPhase> failover;
};

// A run's title in the report's sections and charts: "ssd: a.h5 /runs/run-0000 (4 ranks)".
std::string runTitle(const TimelineRun& run);

// The runs of one configuration's files (already read), in file and run order.
std::vector<TimelineRun> timelineRuns(const std::string& label, const std::vector<std::string>& files,
                                      const std::vector<StoredResults>& results);

// Per run with server counters (--server-stats), per phase of its first iteration: its rate beside the
// server requests per client op and the top counters of each source (model's serverStatsLines), in the
// report's serverStatsSection.
struct ServerStatsPhase {
  Phase phase = Phase::kTreeCreate;
  double ops_per_s = 0.0;
  std::uint64_t ops = 0;
  std::string mark;  // "   too short: ..." when the phase was too short to time, else empty
  std::vector<std::string> lines;
};
struct ServerStatsRun {
  std::string title;  // "a.h5 /runs/run-0000 (2 ranks)"
  std::vector<ServerStatsPhase> phases;
};
std::vector<ServerStatsRun> serverStatsRuns(const std::vector<TimelineRun>& timelines);
// Its heading, the same in every rendering.
inline constexpr std::string_view kServerStatsSection =
    "Metadata server counters (--server-stats; first iteration of each run)";
// A run's lines: per phase its rate and ops, then its counters (indented).
std::vector<std::string> serverStatsRunLines(const ServerStatsRun& run);
// The report's section: per run its title and its lines; no blocks when no run has counters.
DocSection serverStatsSection(const std::vector<TimelineRun>& timelines);

// Per run with faults given (--fault-at), a table with one row per phase of FailoverPhase: its stall and
// where it lay, each fault's start and how its command ended, each fault's recovery, the failed ops and the
// latency max, in model/fault.hpp's words; then each fault's time and command. No blocks when no run had
// faults given.
inline constexpr std::string_view kFailoverSection = "Failover (--fault-at)";
DocSection failoverSection(const std::vector<TimelineRun>& timelines);

// Ops/s of one row of per-interval counts whose last interval ends `end_s` seconds after the start, as
// steps: each interval up to the one holding end_s (later ones are not drawn) gives two points, at its start
// and its end, at count / its length. That last interval is as long as it really was; when it is shorter
// than half an interval (after the first), it is joined to the one before, so that a few ops in a sliver of
// time do not read as a spike.
std::vector<ChartPoint> ratesOverTime(std::span<const std::uint64_t> counts, double interval_s, double end_s);

// The line of all ranks: the sum of step lines (ratesOverTime's pairs of points) at every moment. Steps
// start and end wherever any line's do; in each, the sum of the rates of the lines' steps holding it (a line
// whose steps have ended adds 0). Ends closer than interval_s * 1e-9 count as one.
std::vector<ChartPoint> sumOfSteps(const std::vector<std::vector<ChartPoint>>& lines, double interval_s);

// One panel per phase: the summed rate bold, one thin line per rank; x in s, ms or us, whichever reads best
// for the phase's length. Empty phases show "no data". With --fault-at, the phase's stall is a band labelled
// "stall" and its length, and each injected fault a line at its start labelled "fault N".
std::vector<ChartSpec> timelineCharts(const TimelineRun& run);

// One chart of the report: its file name without extension ("file-create", "ior-write",
// "file-create-relative", "overview", "timeline-ssd-run-0000") and the SVG.
struct ReportChart {
  std::string series;  // "" for the overview and the throughput over time
  std::string stem;
  bool relative = false;
  std::string svg;
  std::optional<std::size_t> timeline{};  // throughput over time: the run shown (index into the timelines)
};

// Per series, ops/s (MiB/s) against ranks (clients) with one curve per configuration; with a baseline,
// also each other configuration's ratio to it; then an overview with every absolute chart as a panel;
// last, per run with a series, its throughput over time (timelineCharts as panels of one figure).
std::vector<ReportChart> reportCharts(const std::vector<Configuration>& configs, const ReportOptions& options,
                                      const std::vector<TimelineRun>& timelines = {});
ChartSpec seriesChart(const std::vector<Configuration>& configs, const std::string& series,
                      const ReportOptions& options);
ChartSpec relativeChart(const std::vector<Configuration>& configs, const std::string& series,
                        const ReportOptions& options);

// The report, built once for every rendering: a preface (the configurations, the baseline, how to read the
// rates, the overview chart: prose, in the Markdown only); then the sections: per series its charts, a table
// with one row per rank count and one column per configuration (mean +- stddev, and with a baseline the
// ratio to it), then each configuration's peak and saturation point (kSteadySeries after the phases); per
// run its throughput over time (the charts; a --steady run's precreate, mix and cleanup) and its phases'
// first-done and last-done rates (or why a run has none); per run with faults given
// (--fault-at) its failover table (failoverSection); per steady run (--steady)
// a table of its steady state: per iteration, phase and op ops/s and p50/p99 latency, the mix's rounds/s
// and objects/s, and each phase's time and rate balance; the server counters (--server-stats); the notes.
// The charts are ReportChart stems + ".svg" beside the document.
ReportDocument reportDocument(const std::vector<Configuration>& configs, const ReportOptions& options,
                              const std::vector<ReportChart>& charts,
                              const std::vector<TimelineRun>& timelines);

// reportDocument rendered as text (no charts) and as Markdown.
std::string reportText(const std::vector<Configuration>& configs, const ReportOptions& options,
                       const std::vector<TimelineRun>& timelines = {});
std::string reportMarkdown(const std::vector<Configuration>& configs, const ReportOptions& options,
                           const std::vector<ReportChart>& charts,
                           const std::vector<TimelineRun>& timelines = {});

// The headings of the document's sections, in order, as each rendering shows them: the text's line
// ("Steady state:") and the Markdown's ("## Steady state"); the notes, which have no heading in the text
// (each line says "note"), aside. For tests that hold every section in every rendering.
struct ReportSection {
  std::string text;
  std::string markdown;
};
std::vector<ReportSection> reportSections(const std::vector<Configuration>& configs,
                                          const std::vector<TimelineRun>& timelines);

// A file-name-safe stem for a series name ("ior:write" -> "ior-write").
std::string chartStem(const std::string& series);

}  // namespace mdbench
