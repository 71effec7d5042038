// mdbench report: tables and chart specs from configurations. The rates come from the scaling model; the
// shape (peak, saturation) and ratios from metrics.cpp, the first/last-done rates from the results file
// (metrics.cpp wrote them), so a report shows nothing computed elsewhere; only the rate of each interval
// of a time series is worked out here, for drawing.
#include "mdbench/report/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <locale>
#include <set>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "mdbench/model/metrics.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/steady.hpp"

namespace mdbench {
namespace {

// Thousands separators from the standard library's facet rather than a hand-made formatter.
struct Grouping : std::numpunct<char> {
  char do_thousands_sep() const override { return ','; }
  std::string do_grouping() const override { return "\3"; }
};

const std::locale& groupedLocale() {
  static const std::locale locale(std::locale::classic(), new Grouping);
  return locale;
}

// ops/s as whole numbers; MiB/s and ratios with decimals (a data-path rate of 3.5 MiB/s is not 4).
std::string formatRate(double value, const std::string& unit) {
  if (unit == "ops/s" || value >= 10000.0) return fmt::format(groupedLocale(), "{:.0Lf}", value);
  return fmt::format(groupedLocale(), "{:.1Lf}", value);
}

// Three significant digits in the largest unit that keeps the number at least 1: 850 ns, 1.73 us, 12.5 ms.
std::string formatLatency(std::uint64_t ns) {
  const auto value = static_cast<double>(ns);
  if (ns >= 1'000'000'000) return fmt::format("{:.3g} s", value / 1e9);
  if (ns >= 1'000'000) return fmt::format("{:.3g} ms", value / 1e6);
  if (ns >= 1'000) return fmt::format("{:.3g} us", value / 1e3);
  return fmt::format("{} ns", ns);
}

// "1 rank", "4 ranks", "1 client".
std::string countOf(std::uint32_t n, const std::string& plural_unit) {
  return n == 1 && plural_unit.ends_with('s')
             ? fmt::format("1 {}", plural_unit.substr(0, plural_unit.size() - 1))
             : fmt::format("{} {}", n, plural_unit);
}

// The first configuration's series of that name, for its kind and units.
const Series& anySeries(const std::vector<Configuration>& configs, const std::string& name) {
  for (const Configuration& c : configs) {
    if (const Series* s = c.find(name)) return *s;
  }
  throw std::logic_error("reportSeries gave a series no configuration has: " + name);
}

std::vector<std::uint32_t> rankCounts(const std::vector<Configuration>& configs, const std::string& name) {
  std::set<std::uint32_t> ranks;
  for (const Configuration& c : configs) {
    if (const Series* s = c.find(name)) {
      for (const ScalingPoint& p : s->points) ranks.insert(p.ranks);
    }
  }
  return {ranks.begin(), ranks.end()};
}

ScalingShape shapeOf(const Series& s) {
  std::vector<double> means;
  for (const ScalingPoint& p : s.points) means.push_back(p.mean);
  return scalingShape(means);
}

ChartPoint chartPoint(const ScalingPoint& p, ErrorBars bars, double scale) {
  const double low = bars == ErrorBars::kMinMax ? p.min : std::max(0.0, p.mean - p.stddev);
  const double high = bars == ErrorBars::kMinMax ? p.max : p.mean + p.stddev;
  return {static_cast<double>(p.ranks), p.mean * scale, low * scale, high * scale};
}

std::string barsText(ErrorBars bars) {
  return bars == ErrorBars::kMinMax ? "error bars: slowest to fastest iteration"
                                    : "error bars: mean +- one standard deviation over iterations";
}

// ---- Tables ----

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

std::string renderText(const Table& t) {
  std::vector<std::size_t> width(t.header.size(), 0);
  const auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], row[i].size());
  };
  measure(t.header);
  for (const auto& row : t.rows) measure(row);
  std::string out;
  const auto line = [&](const std::vector<std::string>& row) {
    std::string text = "  ";
    for (std::size_t i = 0; i < row.size(); ++i) {
      text += i == 0 ? fmt::format("{:<{}}", row[i], width[i]) : fmt::format("  {:>{}}", row[i], width[i]);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  line(t.header);
  for (const auto& row : t.rows) line(row);
  return out;
}

std::string escapeMarkdown(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|' || c == '*' || c == '_' || c == '`' || c == '[' || c == ']' || c == '<' || c == '>')
      out += '\\';
    out += c;
  }
  return out;
}

std::string renderMarkdown(const Table& t) {
  std::string out = "|";
  for (const std::string& h : t.header) out += " " + escapeMarkdown(h) + " |";
  out += "\n|";
  for (std::size_t i = 0; i < t.header.size(); ++i) out += i == 0 ? "---|" : "---:|";
  out += "\n";
  for (const auto& row : t.rows) {
    out += "|";
    for (const std::string& cell : row) out += " " + escapeMarkdown(cell) + " |";
    out += "\n";
  }
  return out;
}

// The configurations that measured this series, and whether the baseline is among them (ratio columns are
// shown only then).
std::vector<std::size_t> measuredBy(const std::vector<Configuration>& configs, const std::string& name) {
  std::vector<std::size_t> present;
  for (std::size_t c = 0; c < configs.size(); ++c) {
    if (configs[c].find(name)) present.push_back(c);
  }
  return present;
}

bool hasRatios(const std::vector<Configuration>& configs, const std::string& name, const ReportOptions& o) {
  return o.baseline && configs[*o.baseline].find(name) != nullptr;
}

Table seriesTable(const std::vector<Configuration>& configs, const std::string& name,
                  const ReportOptions& o) {
  const Series& kind = anySeries(configs, name);
  const std::vector<std::size_t> present = measuredBy(configs, name);
  const bool ratios = hasRatios(configs, name, o);
  const bool latency = kind.kind == SeriesKind::kMetadata;
  Table t;
  t.header.push_back(kind.x_unit);
  for (const std::size_t c : present) {
    t.header.push_back(fmt::format("{} {}", configs[c].label, kind.unit));
    t.header.push_back("+- sd");
    t.header.push_back("min");
    t.header.push_back("max");
    t.header.push_back("n");
    if (latency) t.header.push_back("p99");
    if (ratios && c != *o.baseline) t.header.push_back(fmt::format("/ {}", configs[*o.baseline].label));
  }
  const Series* base_series = ratios ? configs[*o.baseline].find(name) : nullptr;
  for (const std::uint32_t ranks : rankCounts(configs, name)) {
    std::vector<std::string> row{fmt::format("{}", ranks)};
    const ScalingPoint* base = base_series ? base_series->at(ranks) : nullptr;
    for (const std::size_t c : present) {
      const ScalingPoint* p = configs[c].find(name)->at(ranks);
      if (p) {
        row.push_back(formatRate(p->mean, kind.unit));
        row.push_back(formatRate(p->stddev, kind.unit));
        row.push_back(formatRate(p->min, kind.unit));
        row.push_back(formatRate(p->max, kind.unit));
        row.push_back(fmt::format("{}", p->iterations));
        if (latency) row.push_back(p->has_latency ? formatLatency(p->latency.p99_ns) : "-");
      } else {
        row.insert(row.end(), latency ? 6 : 5, "-");
      }
      if (ratios && c != *o.baseline) {
        double ratio = 0.0;
        row.push_back(p && base && ratioToBaseline(p->mean, base->mean, ratio) ? fmt::format("{:.2f}", ratio)
                                                                               : "-");
      }
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<std::string> shapeLines(const std::vector<Configuration>& configs, const std::string& name) {
  std::vector<std::string> lines;
  for (const Configuration& c : configs) {
    const Series* s = c.find(name);
    if (!s || s->points.empty()) continue;
    const ScalingShape shape = shapeOf(*s);
    const ScalingPoint& peak = s->points[shape.peak];
    std::string line = fmt::format("{}: peak {} {} at {}", c.label, formatRate(peak.mean, s->unit), s->unit,
                                   countOf(peak.ranks, s->x_unit));
    if (s->points.size() < 2) {
      line += "; one count measured, no scaling to show";
    } else if (shape.saturated) {
      line += fmt::format("; saturates at {} ({:.0f}% of the peak; more {} add less than {:.0f}%)",
                          countOf(s->points[shape.saturation].ranks, s->x_unit), kSaturationFraction * 100,
                          s->x_unit, (1 - kSaturationFraction) * 100);
    } else {
      line += fmt::format("; still scaling at {}", countOf(s->points.back().ranks, s->x_unit));
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string seriesTitle(const Series& s) {
  return fmt::format("{}: {} against {}", s.name, s.unit, s.x_unit);
}

// ---- Throughput over time ----

// Three significant digits in the largest unit that keeps the number at least 1: 850 us, 12.3 ms, 1.5 s.
std::string formatSeconds(double s) {
  if (s >= 1.0 || s <= 0.0) return fmt::format("{:.3g} s", s);
  if (s >= 1e-3) return fmt::format("{:.3g} ms", s * 1e3);
  return fmt::format("{:.3g} us", s * 1e6);
}

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

std::string runTitle(const TimelineRun& run) {
  return fmt::format("{}: {} {} ({})", run.label, run.file, run.group, countOf(run.ranks, "ranks"));
}

// A file's runs without series are named once, not run by run (a sweep written before version 5 has many).
std::vector<std::string> filesWithoutSeries(const std::vector<TimelineRun>& timelines) {
  std::vector<std::string> files;
  for (const TimelineRun& run : timelines) {
    const std::string name = fmt::format("{}: {}", run.label, run.file);
    if (!run.has_series && std::find(files.begin(), files.end(), name) == files.end()) files.push_back(name);
  }
  return files;
}

constexpr std::string_view kNoSeries =
    "written before results schema version 5: no throughput over time was stored";

Table doneTable(const TimelineRun& run) {
  Table t;
  t.header = {"phase", "ops/s", "first done", "first-done ops/s", "last done", "last-done ops/s"};
  for (const TimelinePhase& p : run.phases) {
    t.rows.push_back(
        {std::string(phaseName(p.phase)), formatRate(p.ops_per_s, "ops/s"),
         formatSeconds(p.done.first_done_time_s), formatRate(p.done.first_done_ops_per_s, "ops/s"),
         formatSeconds(p.done.last_done_time_s), formatRate(p.done.last_done_ops_per_s, "ops/s")});
  }
  return t;
}

bool hasSteady(const std::vector<TimelineRun>& timelines) {
  return std::any_of(timelines.begin(), timelines.end(),
                     [](const TimelineRun& run) { return !run.steady.empty(); });
}

// A balance (min / max, 1 is perfect) in percent, as md-workbench prints it.
std::string formatBalance(double balance) { return fmt::format("{:.1f}%", balance * 100.0); }

// One row per iteration, phase and op type; the phase's numbers (rounds/s and objects/s in the mix, the
// balances) on its first op's row only, so that they do not read as per-op numbers.
Table steadyTable(const TimelineRun& run) {
  Table t;
  t.header = {"iteration", "phase",    "op",        "ops/s",        "p50",
              "p99",       "rounds/s", "objects/s", "time balance", "rate balance"};
  for (const StoredSteadyIteration& it : run.steady) {
    for (const StoredSteadyPhase& p : it.phases) {
      const SteadyPhaseSummary& s = p.summary;
      bool first = true;
      for (const SteadyOp op : steadyOpsOf(p.phase)) {
        const SteadyOpSummary& o = s.ops[steadyOpIndex(op)];
        const bool mix = first && p.phase == SteadyPhase::kMix;
        t.rows.push_back({std::to_string(it.iteration), steadyPhaseName(p.phase), steadyOpName(op),
                          formatRate(o.ops_per_s, "ops/s"), formatLatency(o.latency.p50_ns),
                          formatLatency(o.latency.p99_ns), mix ? formatRate(s.rounds_per_s, "rounds/s") : "",
                          mix ? formatRate(s.objects_per_s, "objects/s") : "",
                          first ? formatBalance(s.time_balance) : "",
                          first ? formatBalance(s.rate_balance) : ""});
        first = false;
      }
    }
  }
  return t;
}

std::string steadyTitle(const TimelineRun& run) {
  const std::uint64_t rounds = run.steady.empty() ? 0 : run.steady.front().rounds;
  return fmt::format("{}: {} rounds", runTitle(run), rounds);
}

constexpr std::string_view kSteadyIntro =
    "md-workbench's steady-state mix (--steady): per iteration and phase, each op type's rate over the "
    "phase's barrier-to-barrier time and its latency from the merged histogram; rounds/s and objects/s are "
    "the mix's (objects cycled through the working sets per second); the balances are the fastest rank's "
    "time (rate) over the slowest one's.";

std::string timelineIntro(const std::vector<TimelineRun>& timelines) {
  double shortest = 0.0, longest = 0.0;
  for (const TimelineRun& run : timelines) {
    for (const TimelinePhase& p : run.phases) {
      if (!(p.interval_s > 0.0)) continue;
      shortest = shortest == 0.0 ? p.interval_s : std::min(shortest, p.interval_s);
      longest = std::max(longest, p.interval_s);
    }
  }
  constexpr std::string_view kMerged =
      "{} to {}: a phase longer than 1024 intervals has them merged in pairs";
  const std::string intervals =
      shortest == longest
          ? formatSeconds(shortest)
          : fmt::format(fmt::runtime(kMerged), formatSeconds(shortest), formatSeconds(longest));
  return fmt::format(
      "The first iteration of each run, phase by phase: the ops/s in each interval ({}), x the time since "
      "each rank started the phase. The bold line is all ranks, the thin lines one rank each (runs of up to "
      "{} ranks), so that a straggler or a stall shows. First done: the fastest rank's time and the rate of "
      "all ranks until then; last done: the slowest rank's time and ops_ok over it. The ops/s column is the "
      "barrier-to-barrier rate of the tables above.",
      intervals, kTimelineMaxRankLines);
}

// A phase's rates over time: the sum until the slowest rank with work finished, and each rank's until it
// finished (a rank without work draws no line, nor does a row the counts do not hold).
TimelinePhase timelinePhase(const StoredPhase& p) {
  TimelinePhase tp;
  tp.phase = p.phase;
  tp.interval_s = p.series.interval_s;
  tp.ops_per_s = p.aggregate.ops_per_s;
  tp.done = p.done;
  tp.ops = p.aggregate.ok + p.aggregate.failed;
  tp.server_stats = p.server_stats;
  double end = 0.0;
  for (const StoredRankRow& row : p.ranks) {
    if (row.planned > 0) end = std::max(end, row.t_local_end - row.t_start);
  }
  tp.total = ratesOverTime(p.series.total, tp.interval_s, end);
  if (p.ranks.size() > kTimelineMaxRankLines) return tp;
  const std::size_t n = p.series.intervals;
  for (std::size_t r = 0; r < p.ranks.size(); ++r) {
    const StoredRankRow& row = p.ranks[r];
    std::vector<std::uint64_t> counts;
    if (row.planned > 0 && p.series.per_rank.size() >= (r + 1) * n) {
      const auto first = p.series.per_rank.begin() + static_cast<std::ptrdiff_t>(r * n);
      counts.assign(first, first + static_cast<std::ptrdiff_t>(n));
    }
    tp.ranks.push_back(ratesOverTime(counts, tp.interval_s, row.t_local_end - row.t_start));
  }
  return tp;
}

// The runs whose rates cannot be set beside mdtest's: named relative to directory descriptors (--path-style
// dirfd), which spares the path walk that mdtest's full paths make on every call.
std::vector<std::string> pathStyleNotes(const std::vector<TimelineRun>& timelines) {
  std::vector<std::string> notes;
  for (const TimelineRun& run : timelines) {
    if (run.path_style != PathStyle::kDirfd) continue;
    notes.push_back(fmt::format(
        "{}: --path-style {}: each call named its item relative to a directory descriptor, without mdtest's "
        "full-path walk; its rates are not comparable with mdtest's",
        runTitle(run), pathStyleName(run.path_style)));
  }
  return notes;
}

std::string configsLine(const std::vector<Configuration>& configs) {
  std::string out;
  for (const Configuration& c : configs) {
    std::string files;
    for (const std::string& f : c.files) files += (files.empty() ? "" : ", ") + f;
    out += fmt::format("- {}: {}\n", c.label, files);
  }
  return out;
}

}  // namespace

std::string chartStem(const std::string& series) {
  std::string stem;
  for (const char c : series) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    stem += safe ? c : '-';
  }
  return stem.empty() ? "series" : stem;
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
      t.steady = run.steady;
      if (!run.phases.empty()) t.iteration = run.phases.front().iteration;  // by iteration, then order
      for (const StoredPhase& p : run.phases) {
        if (run.has_series && p.has_series && p.iteration == t.iteration)
          t.phases.push_back(timelinePhase(p));
      }
      out.push_back(std::move(t));
    }
  }
  return out;
}

std::vector<ChartSpec> timelineCharts(const TimelineRun& run) {
  std::vector<ChartSpec> charts;
  for (const TimelinePhase& p : run.phases) {
    double longest = p.total.empty() ? 0.0 : p.total.back().x;
    for (const auto& rank : p.ranks) longest = std::max(longest, rank.empty() ? 0.0 : rank.back().x);
    const auto [unit, seconds_per_unit] = timeUnit(longest);
    ChartSpec spec;
    spec.title = std::string(phaseName(p.phase));
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
    charts.push_back(std::move(spec));
  }
  return charts;
}

std::vector<std::string> reportSeries(const std::vector<Configuration>& configs) {
  std::vector<std::string> names;
  for (const Phase phase : kAllPhases) {
    const std::string name(phaseName(phase));
    for (const Configuration& c : configs) {
      if (c.find(name)) {
        names.push_back(name);
        break;
      }
    }
  }
  std::set<std::string> datapath;
  for (const Configuration& c : configs) {
    for (const Series& s : c.series) {
      if (s.kind == SeriesKind::kDataPath) datapath.insert(s.name);
    }
  }
  names.insert(names.end(), datapath.begin(), datapath.end());
  return names;
}

ChartSpec seriesChart(const std::vector<Configuration>& configs, const std::string& name,
                      const ReportOptions& options) {
  const Series& kind = anySeries(configs, name);
  ChartSpec spec;
  spec.title = seriesTitle(kind);
  spec.subtitle = barsText(options.error_bars);
  spec.x_label = kind.x_unit;
  spec.y_label = fmt::format("{} ({})", name, kind.unit);
  for (const Configuration& c : configs) {
    const Series* s = c.find(name);
    if (!s) continue;
    ChartSeries cs;
    cs.label = c.label;
    for (const ScalingPoint& p : s->points) cs.points.push_back(chartPoint(p, options.error_bars, 1.0));
    if (!s->points.empty()) {
      const ScalingShape shape = shapeOf(*s);
      cs.peak = shape.peak;
      if (shape.saturated) cs.saturation = shape.saturation;
    }
    spec.series.push_back(std::move(cs));
  }
  return spec;
}

ChartSpec relativeChart(const std::vector<Configuration>& configs, const std::string& name,
                        const ReportOptions& options) {
  const Series& kind = anySeries(configs, name);
  const std::size_t b = options.baseline.value_or(0);
  const Series* base = b < configs.size() ? configs[b].find(name) : nullptr;
  ChartSpec spec;
  spec.title = fmt::format("{}: relative to {}", name, b < configs.size() ? configs[b].label : "?");
  spec.subtitle = fmt::format("mean {} over the baseline's mean at the same {}; {}", kind.unit, kind.x_unit,
                              barsText(options.error_bars));
  spec.x_label = kind.x_unit;
  spec.y_label = fmt::format("{} / baseline", name);
  spec.reference_y = 1.0;
  spec.reference_label = fmt::format("baseline {}", b < configs.size() ? configs[b].label : "");
  for (std::size_t c = 0; c < configs.size(); ++c) {
    const Series* s = configs[c].find(name);
    if (c == b || !s || !base) continue;
    ChartSeries cs;
    cs.label = configs[c].label;
    for (const ScalingPoint& p : s->points) {
      const ScalingPoint* bp = base->at(p.ranks);
      double ratio = 0.0;
      if (!bp || !ratioToBaseline(p.mean, bp->mean, ratio)) continue;
      cs.points.push_back(chartPoint(p, options.error_bars, 1.0 / bp->mean));
    }
    spec.series.push_back(std::move(cs));
  }
  return spec;
}

std::vector<ReportChart> reportCharts(const std::vector<Configuration>& configs, const ReportOptions& options,
                                      const std::vector<TimelineRun>& timelines) {
  std::vector<ReportChart> charts;
  std::vector<ChartSpec> panels;
  for (const std::string& name : reportSeries(configs)) {
    ChartSpec spec = seriesChart(configs, name, options);
    charts.push_back({name, chartStem(name), false, renderSvg(spec)});
    spec.subtitle.clear();
    spec.width = 520;
    spec.height = 360;
    panels.push_back(std::move(spec));
    // A relative chart needs the baseline's series and another configuration's.
    if (hasRatios(configs, name, options) && measuredBy(configs, name).size() > 1) {
      charts.push_back(
          {name, chartStem(name) + "-relative", true, renderSvg(relativeChart(configs, name, options))});
    }
  }
  if (!panels.empty()) {
    std::string labels;
    for (const Configuration& c : configs) labels += (labels.empty() ? "" : ", ") + c.label;
    charts.push_back(
        {"", "overview", false, renderPanels(panels, 3, fmt::format("mdbench report: {}", labels))});
  }
  for (std::size_t i = 0; i < timelines.size(); ++i) {
    const TimelineRun& run = timelines[i];
    if (!run.has_series || run.phases.empty()) continue;
    const std::string title = fmt::format("{}: ops/s over time, iteration {}", runTitle(run), run.iteration);
    charts.push_back({"", run.stem, false, renderPanels(timelineCharts(run), 3, title), i});
  }
  return charts;
}

std::string reportText(const std::vector<Configuration>& configs, const ReportOptions& options,
                       const std::vector<TimelineRun>& timelines) {
  std::string out;
  for (const std::string& name : reportSeries(configs)) {
    out += seriesTitle(anySeries(configs, name)) + "\n";
    out += renderText(seriesTable(configs, name, options));
    for (const std::string& line : shapeLines(configs, name)) out += "  " + line + "\n";
    out += "\n";
  }
  if (std::any_of(timelines.begin(), timelines.end(),
                  [](const TimelineRun& run) { return run.steady.empty(); })) {
    out += "First-done and last-done rates (first iteration of each run):\n";
    for (const TimelineRun& run : timelines) {
      if (!run.has_series || !run.steady.empty()) continue;
      out += "  " + runTitle(run) + "\n";
      out += renderText(doneTable(run));
    }
    for (const std::string& file : filesWithoutSeries(timelines)) {
      out += fmt::format("  {}: {}\n", file, kNoSeries);
    }
    out += "\n";
  }
  if (hasSteady(timelines)) {
    out += "Steady state:\n";
    for (const TimelineRun& run : timelines) {
      if (run.steady.empty()) continue;
      out += "  " + steadyTitle(run) + "\n";
      out += renderText(steadyTable(run));
    }
    out += "\n";
  }
  out += serverStatsSection(timelines);
  for (const Configuration& c : configs) {
    for (const std::string& note : c.notes) out += fmt::format("note ({}): {}\n", c.label, note);
  }
  for (const std::string& note : pathStyleNotes(timelines)) out += fmt::format("note: {}\n", note);
  if (out.empty()) out = "no results in the files given\n";
  return out;
}

std::string reportMarkdown(const std::vector<Configuration>& configs, const ReportOptions& options,
                           const std::vector<ReportChart>& charts,
                           const std::vector<TimelineRun>& timelines) {
  std::string out = "# mdbench report\n\nConfigurations:\n\n" + escapeMarkdown(configsLine(configs)) + "\n";
  if (options.baseline) {
    out += fmt::format("Ratios are to the baseline **{}**.\n\n",
                       escapeMarkdown(configs[*options.baseline].label));
  }
  out += fmt::format(
      "Rates are the mean over iterations of the aggregate rate (ops/s of all ranks, barrier to barrier; "
      "MiB/s as the data-path tool reported it); n is the number of iterations; p99 is the latency of the "
      "merged histograms. The peak is the largest mean; the saturation point is the first count reaching "
      "{:.0f}% of the peak with larger counts measured.\n\n",
      kSaturationFraction * 100);
  for (const ReportChart& chart : charts) {
    if (chart.series.empty() && !chart.timeline) out += fmt::format("![overview]({}.svg)\n\n", chart.stem);
  }
  for (const std::string& name : reportSeries(configs)) {
    out += "## " + escapeMarkdown(seriesTitle(anySeries(configs, name))) + "\n\n";
    for (const ReportChart& chart : charts) {
      if (chart.series == name)
        out += fmt::format("![{}]({}.svg)\n\n", escapeMarkdown(chart.stem), chart.stem);
    }
    out += renderMarkdown(seriesTable(configs, name, options)) + "\n";
    for (const std::string& line : shapeLines(configs, name)) out += "- " + escapeMarkdown(line) + "\n";
    out += "\n";
  }
  if (std::any_of(timelines.begin(), timelines.end(),
                  [](const TimelineRun& run) { return run.steady.empty(); })) {
    out += "## Throughput over time\n\n" + escapeMarkdown(timelineIntro(timelines)) + "\n\n";
    for (std::size_t i = 0; i < timelines.size(); ++i) {
      const TimelineRun& run = timelines[i];
      if (!run.has_series || !run.steady.empty()) continue;
      out += "### " + escapeMarkdown(runTitle(run)) + "\n\n";
      for (const ReportChart& chart : charts) {
        if (chart.timeline == i)
          out += fmt::format("![{}]({}.svg)\n\n", escapeMarkdown(chart.stem), chart.stem);
      }
      out += renderMarkdown(doneTable(run)) + "\n";
    }
    for (const std::string& file : filesWithoutSeries(timelines)) {
      out += fmt::format("- {}: {}\n", escapeMarkdown(file), kNoSeries);
    }
    out += "\n";
  }
  if (hasSteady(timelines)) {
    out += "## Steady state\n\n" + escapeMarkdown(std::string(kSteadyIntro)) + "\n\n";
    for (const TimelineRun& run : timelines) {
      if (run.steady.empty()) continue;
      out += "### " + escapeMarkdown(steadyTitle(run)) + "\n\n" + renderMarkdown(steadyTable(run)) + "\n";
    }
  }
  bool any_note = false;
  for (const Configuration& c : configs) {
    for (const std::string& note : c.notes) {
      if (!any_note) out += "## Notes\n\n";
      any_note = true;
      out += fmt::format("- {}: {}\n", escapeMarkdown(c.label), escapeMarkdown(note));
    }
  }
  for (const std::string& note : pathStyleNotes(timelines)) {
    if (!any_note) out += "## Notes\n\n";
    any_note = true;
    out += "- " + escapeMarkdown(note) + "\n";
  }
  return out;
}

}  // namespace mdbench
