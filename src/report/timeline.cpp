// Throughput over time in mdbench report: each rank's per-interval counts as steps of ops/s, and the line of
// all ranks as the sum of those steps at every moment, so that a rank that finished early adds nothing and
// each rank's last, shorter interval counts at its own rate.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "mdbench/model/fault.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/rate_timing.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/report/report.hpp"
#include "report_format.hpp"

namespace mdbench {
namespace {

using report_format::formatSeconds;

// The unit a time axis reads best in, for times up to `longest` seconds: its name and seconds per unit.
std::pair<std::string_view, double> timeUnit(double longest) {
  if (longest >= 1.0) return {"s", 1.0};
  if (longest >= 1e-3) return {"ms", 1e-3};
  return {"us", 1e-6};
}

std::vector<ChartPoint> scaled(std::vector<ChartPoint> points, double seconds_per_unit) {
  for (ChartPoint& p : points) p.x /= seconds_per_unit;
  return points;
}

// Every step's start and end over all lines, ascending; ends closer than `tolerance` are one.
std::vector<double> stepEdges(const std::vector<std::vector<ChartPoint>>& lines, double tolerance) {
  std::vector<double> edges;
  for (const auto& line : lines) {
    for (const ChartPoint& p : line) edges.push_back(p.x);
  }
  std::sort(edges.begin(), edges.end());
  std::vector<double> kept;
  for (const double e : edges) {
    if (kept.empty() || e - kept.back() > tolerance) kept.push_back(e);
  }
  return kept;
}

// A rank's step function at time t: the rate of the step [start, end) holding t, 0 outside every step.
// `cursor` only moves forward, as t does.
double rateAt(const std::vector<ChartPoint>& steps, std::size_t& cursor, double t) {
  while (cursor + 1 < steps.size() && steps[cursor + 1].x <= t) cursor += 2;
  return cursor + 1 < steps.size() && steps[cursor].x <= t ? steps[cursor].y : 0.0;
}

// A phase's rates over time, every rank's and the sum (a rank without work has an empty line).
struct PhaseLines {
  std::vector<std::vector<ChartPoint>> ranks;
  bool complete = false;  // every rank's counts were stored
};

PhaseLines rankLines(const OpsSeries& series, std::span<const RankSpan> ranks) {
  PhaseLines lines;
  const std::size_t n = series.intervals;
  lines.complete = series.per_rank.size() >= ranks.size() * n;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const RankSpan& row = ranks[r];
    std::vector<std::uint64_t> counts;
    if (row.planned > 0 && lines.complete) {
      const auto first = series.per_rank.begin() + static_cast<std::ptrdiff_t>(r * n);
      counts.assign(first, first + static_cast<std::ptrdiff_t>(n));
    }
    lines.ranks.push_back(ratesOverTime(counts, series.interval_s, row.t_local_end - row.t_start));
  }
  return lines;
}

// When the rows of the ranks were not stored: the stored totals, up to the slowest rank's end.
std::vector<ChartPoint> totalOfCounts(const OpsSeries& series, std::span<const RankSpan> ranks) {
  double end = 0.0;
  for (const RankSpan& row : ranks) {
    if (row.planned > 0) end = std::max(end, row.t_local_end - row.t_start);
  }
  return ratesOverTime(series.total, series.interval_s, end);
}

// The lines of a phase over time: the sum of its ranks', and theirs when there are few enough to draw.
void drawLines(const OpsSeries& series, std::span<const RankSpan> ranks, TimelinePhase& tp) {
  tp.interval_s = series.interval_s;
  PhaseLines lines = rankLines(series, ranks);
  tp.total = lines.complete ? sumOfSteps(lines.ranks, tp.interval_s) : totalOfCounts(series, ranks);
  if (ranks.size() <= kTimelineMaxRankLines && lines.complete) tp.ranks = std::move(lines.ranks);
}

TimelinePhase timelinePhase(const StoredPhase& p, std::uint32_t run_ranks) {
  TimelinePhase tp;
  tp.phase = p.phase;
  tp.ops_per_s = p.aggregate.ops_per_s;
  tp.done = p.done;
  tp.ops = p.aggregate.ok + p.aggregate.failed;
  tp.server_stats = p.server_stats;
  tp.size = phaseSize(p, run_ranks);
  drawLines(p.series, rankSpans(p.ranks), tp);
  return tp;
}

// A phase's failover record when --fault-at was given for it (a steady phase's with its failed ops of every
// kind and the longest latency of all, as the console's failoverLines).
std::optional<FailoverPhase> failoverPhase(const StoredPhase& p) {
  if (p.faults.empty()) return std::nullopt;
  FailoverPhase f;
  f.phase = p.phase;
  f.iteration = p.iteration;
  f.t_start = p.ranks.empty() ? 0.0 : p.ranks.front().t_start;
  f.stall = p.stall;
  f.faults = p.faults;
  f.failed = p.aggregate.failed;
  f.latency_max_ns = p.latency_summary.max_ns;
  return f;
}

// A phase of the run over time (of its first iteration) and its failover record.
void addPhase(const StoredRun& run, const StoredPhase& p, TimelineRun& t) {
  std::optional<FailoverPhase> failover = failoverPhase(p);
  if (failover) t.failover.push_back(*failover);
  if (!t.has_series || !p.has_series || p.iteration != t.iteration) return;
  t.phases.push_back(timelinePhase(p, run.info.ranks));
  t.phases.back().failover = std::move(failover);
}

// The phases of a run over time and its failover records: the selected phases, or --steady's (whose series
// are stored from results schema version 10 on: kSteadyTimelineSchemaVersion, so a steady run's first
// iteration decides whether it has series).
void addPhases(const StoredRun& run, TimelineRun& t) {
  if (run.phases.empty()) return;
  t.iteration = run.phases.front().iteration;  // by iteration, then order
  for (const StoredPhase& p : run.phases) {
    if (phaseInfo(p.phase).steady()) t.steady.push_back(p);
  }
  if (!t.steady.empty()) {
    t.has_series = t.has_series && std::ranges::any_of(run.phases, [&](const StoredPhase& p) {
                     return p.iteration == t.iteration && p.has_series;
                   });
  }
  for (const StoredPhase& p : run.phases) addPhase(run, p, t);
}

// The stall as a band and each injected fault as a line at its start, in the chart's unit of time.
void markFailover(ChartSpec& spec, const FailoverPhase& f, double seconds_per_unit) {
  if (hasStall(f.stall)) {
    const StallSpan span = stallIntoPhase(f.stall, f.t_start);
    spec.bands.push_back({span.from / seconds_per_unit, span.to / seconds_per_unit,
                          fmt::format("stall {}", formatSeconds(f.stall.stall_s))});
  }
  for (std::size_t i = 0; i < f.faults.size(); ++i) {
    if (f.faults[i].injected)
      spec.marks.push_back({f.faults[i].t_start / seconds_per_unit, fmt::format("fault {}", i + 1)});
  }
}

}  // namespace

std::string runPhaseName(Phase phase) {
  return phaseInfo(phase).steady() ? fmt::format("steady {}", phaseName(phase))
                                   : std::string(phaseName(phase));
}

std::vector<ChartPoint> sumOfSteps(const std::vector<std::vector<ChartPoint>>& lines, double interval_s) {
  const double tolerance = std::isfinite(interval_s) && interval_s > 0.0 ? interval_s * 1e-9 : 0.0;
  const std::vector<double> edges = stepEdges(lines, tolerance);
  std::vector<std::size_t> cursors(lines.size(), 0);
  std::vector<ChartPoint> sum;
  for (std::size_t k = 0; k + 1 < edges.size(); ++k) {
    const double mid = (edges[k] + edges[k + 1]) / 2;
    double rate = 0.0;
    for (std::size_t i = 0; i < lines.size(); ++i) rate += rateAt(lines[i], cursors[i], mid);
    // The same rate goes on (to rounding: a last interval's length is a difference of times): one step.
    if (!sum.empty() && std::fabs(sum.back().y - rate) <= 1e-12 * std::max(1.0, std::fabs(rate))) {
      sum.back().x = edges[k + 1];
      continue;
    }
    sum.push_back({edges[k], rate, rate, rate});
    sum.push_back({edges[k + 1], rate, rate, rate});
  }
  return sum;
}

std::vector<ChartPoint> ratesOverTime(std::span<const std::uint64_t> counts, double interval_s,
                                      double end_s) {
  std::vector<ChartPoint> points;
  if (counts.empty() || !std::isfinite(interval_s) || interval_s <= 0.0 || !std::isfinite(end_s))
    return points;
  const double whole = std::ceil(end_s / interval_s);
  const std::size_t used =
      whole < 1.0 ? 1 : std::min(counts.size(), static_cast<std::size_t>(std::min(whole, 1e18)));
  // A step: the interval's rate from its start to its end. Boundaries are k * interval_s, computed the same
  // way on both sides, so that the steps stay in order when sorted by x.
  const auto at = [&](std::size_t k) { return static_cast<double>(k) * interval_s; };
  const auto add = [&](double from, double to, double length, double count) {
    const double rate = count / length;
    points.push_back({from, rate, rate, rate});
    points.push_back({to, rate, rate, rate});
  };
  for (std::size_t k = 0; k + 1 < used; ++k) {
    add(at(k), at(k + 1), interval_s, static_cast<double>(counts[k]));
  }
  const std::size_t last = used - 1;
  if (!(end_s > at(last)) || end_s >= at(last + 1)) {  // no end known inside the interval: a whole one
    add(at(last), at(last + 1), interval_s, static_cast<double>(counts[last]));
  } else if (last > 0 && end_s - at(last) < interval_s / 2) {
    points.resize(points.size() - 2);
    add(at(last - 1), end_s, end_s - at(last - 1), static_cast<double>(counts[last - 1] + counts[last]));
  } else {
    add(at(last), end_s, end_s - at(last), static_cast<double>(counts[last]));
  }
  return points;
}

std::vector<TimelineRun> timelineRuns(const std::string& label, const std::vector<std::string>& files,
                                      const std::vector<StoredResults>& results) {
  std::vector<TimelineRun> out;
  for (std::size_t f = 0; f < results.size(); ++f) {
    const std::string file = f < files.size() ? files[f] : fmt::format("file {}", f + 1);
    for (const StoredRun& run : results[f].runs) {
      TimelineRun t;
      t.label = label;
      t.file = file;
      t.group = run.group;
      const std::string run_name = run.group.substr(run.group.rfind('/') + 1);
      t.stem = chartStem(results.size() > 1 ? fmt::format("timeline-{}-{}-{}", label, f + 1, run_name)
                                            : fmt::format("timeline-{}-{}", label, run_name));
      t.ranks = run.info.ranks;
      t.has_series = run.has_series;
      t.path_style = run.config.path_style;
      addPhases(run, t);
      out.push_back(std::move(t));
    }
  }
  return out;
}

std::vector<ChartSpec> timelineCharts(const TimelineRun& run) {
  std::vector<ChartSpec> charts;
  for (const TimelinePhase& p : run.phases) {
    // One mkdir's steps would be drawn as a rate the tables refuse to give (doneTable marks the phase).
    if (tooShortToTime(p.size)) continue;
    double longest = p.total.empty() ? 0.0 : p.total.back().x;
    for (const auto& rank : p.ranks) longest = std::max(longest, rank.empty() ? 0.0 : rank.back().x);
    const auto [unit, seconds_per_unit] = timeUnit(longest);
    ChartSpec spec;
    spec.title = runPhaseName(p.phase);
    spec.subtitle = fmt::format("first done {}, last done {}", formatSeconds(p.done.first_done_time_s),
                                formatSeconds(p.done.last_done_time_s));
    spec.x_label = fmt::format("{} since the phase started", unit);
    spec.y_label = "ops/s";
    spec.x_scale = XScale::kLinear;
    spec.width = 520;
    spec.height = 360;
    ChartSeries total{"all ranks", scaled(p.total, seconds_per_unit)};
    total.look = SeriesLook::kBoldLine;
    spec.series.push_back(std::move(total));
    for (std::size_t r = 0; r < p.ranks.size(); ++r) {
      if (p.ranks[r].empty()) continue;
      ChartSeries rank{fmt::format("rank {}", r), scaled(p.ranks[r], seconds_per_unit)};
      rank.look = SeriesLook::kThinLine;
      spec.series.push_back(std::move(rank));
    }
    if (p.failover) markFailover(spec, *p.failover, seconds_per_unit);
    charts.push_back(std::move(spec));
  }
  return charts;
}

}  // namespace mdbench
