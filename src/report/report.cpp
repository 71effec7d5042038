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
#include "report_format.hpp"

namespace mdbench {
namespace {

using report_format::countOf;
using report_format::formatLatency;
using report_format::formatSeconds;

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

// A peak or a saturation point needs a curve: with one or two counts the larger is all there is to say.
constexpr std::size_t kMinPointsForShape = 3;

// The points a chart draws (those with ops enough for a rate: tooFewForRate), and their shape.
struct Shape {
  std::vector<const ScalingPoint*> charted;
  std::optional<std::size_t> peak;        // index into charted
  std::optional<std::size_t> saturation;  // index into charted, with kMinPointsForShape points or more
};

Shape shapeOf(const Series& s) {
  Shape out;
  std::vector<double> means;
  for (const ScalingPoint& p : s.points) {
    if (tooFewForRate(p)) continue;
    out.charted.push_back(&p);
    means.push_back(p.mean);
  }
  if (means.empty()) return out;
  const ScalingShape shape = scalingShape(means);
  out.peak = shape.peak;
  if (shape.saturated && means.size() >= kMinPointsForShape) out.saturation = shape.saturation;
  return out;
}

std::string thresholdText() { return tooShortThresholdText(); }

// Data-path charts in the binary unit that keeps the numbers below 1024 ("2.26 GiB/s", never "2.26k"):
// its name and the factor from MiB/s. Metadata charts stay in ops/s.
std::pair<std::string, double> chartUnit(const std::vector<Configuration>& configs, const std::string& name) {
  const Series& kind = anySeries(configs, name);
  if (kind.unit != "MiB/s") return {kind.unit, 1.0};
  double top = 0.0;
  for (const Configuration& c : configs) {
    if (const Series* s = c.find(name)) {
      for (const ScalingPoint& p : s->points) top = std::max({top, p.mean, p.max});
    }
  }
  if (top >= 1024.0 * 1024.0) return {"TiB/s", 1.0 / (1024.0 * 1024.0)};
  if (top >= 1024.0) return {"GiB/s", 1.0 / 1024.0};
  return {"MiB/s", 1.0};
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

using Table = DocTable;

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
    const Shape shape = shapeOf(*s);
    if (!shape.peak) {
      lines.push_back(fmt::format("{}: {} at every count: too few for a rate; tabled, not charted", c.label,
                                  thresholdText()));
      continue;
    }
    const ScalingPoint& peak = *shape.charted[*shape.peak];
    std::string line = fmt::format("{}: peak {} {} at {}", c.label, formatRate(peak.mean, s->unit), s->unit,
                                   countOf(peak.ranks, s->x_unit));
    const std::size_t n = shape.charted.size();
    if (n < kMinPointsForShape) {
      line += n == 1 ? "; one count measured, no scaling to show"
                     : "; two counts measured, too few to tell where it saturates";
    } else if (shape.saturation) {
      line += fmt::format("; saturates at {} ({:.0f}% of the peak; more {} add less than {:.0f}%)",
                          countOf(shape.charted[*shape.saturation]->ranks, s->x_unit),
                          kSaturationFraction * 100, s->x_unit, (1 - kSaturationFraction) * 100);
    } else {
      line += fmt::format("; still scaling at {}", countOf(shape.charted.back()->ranks, s->x_unit));
    }
    std::string thin;
    for (const ScalingPoint& p : s->points) {
      if (tooFewForRate(p)) thin += fmt::format("{}{}", thin.empty() ? "" : ", ", p.ranks);
    }
    if (!thin.empty()) {
      line += fmt::format("; not charted at {} {}: {}, too few for a rate", thin, s->x_unit, thresholdText());
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string seriesTitle(const Series& s) {
  return fmt::format("{}: {} against {}", s.name, s.unit, s.x_unit);
}

// ---- Throughput over time ----

// A run's phases over time, with their first/last-done rates: a run with series, and a --steady run with its
// phases' (a steady state given without them, as tests build it, has only its table).
bool shownOverTime(const TimelineRun& run) {
  return run.has_series && (run.steady.empty() || !run.phases.empty());
}

bool hasDone(const std::vector<TimelineRun>& timelines) {
  // Runs shown over time, and those without series, which the section names.
  return std::any_of(timelines.begin(), timelines.end(),
                     [](const TimelineRun& run) { return shownOverTime(run) || !run.has_series; });
}

constexpr std::string_view kNoSeries =
    "written before results schema version 5: no throughput over time was stored";
constexpr std::string_view kNoSteadySeries =
    "--steady runs written before results schema version 10: no throughput over time, stall or faults were "
    "stored";

// A file's runs without series are named once, not run by run (a sweep written before version 5 has many):
// "label: file: why".
std::vector<std::string> filesWithoutSeries(const std::vector<TimelineRun>& timelines) {
  std::vector<std::string> files;
  for (const TimelineRun& run : timelines) {
    if (run.has_series) continue;
    const std::string line =
        fmt::format("{}: {}: {}", run.label, run.file, run.steady.empty() ? kNoSeries : kNoSteadySeries);
    if (std::find(files.begin(), files.end(), line) == files.end()) files.push_back(line);
  }
  return files;
}

Table doneTable(const TimelineRun& run) {
  Table t;
  t.header = {"phase", "ops/s", "first done", "first-done ops/s", "last done", "last-done ops/s"};
  for (const TimelinePhase& p : run.phases) {
    t.rows.push_back(
        {runPhaseName(p.phase),
         formatRate(p.ops_per_s, "ops/s") +
             (tooShortToTime(p.size) ? fmt::format(" ({}, not charted)", tooShortText(p.size)) : ""),
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
  for (const StoredPhase& p : run.steady) {
    const SteadyPhaseSummary& s = p.summary;
    bool first = true;
    for (const OpKind op : opKindsOf(p.phase)) {
      const SteadyOpSummary& o = s.ops[opKindIndex(op)];
      const bool mix = first && p.phase == Phase::kSteadyMix;
      t.rows.push_back({std::to_string(p.iteration), std::string(phaseName(p.phase)), opKindName(op),
                        formatRate(o.ops_per_s, "ops/s"), formatLatency(o.latency.p50_ns),
                        formatLatency(o.latency.p99_ns), mix ? formatRate(s.rounds_per_s, "rounds/s") : "",
                        mix ? formatRate(s.objects_per_s, "objects/s") : "",
                        first ? formatBalance(s.time_balance) : "",
                        first ? formatBalance(s.aggregate.balance) : ""});
      first = false;
    }
  }
  return t;
}

// The first iteration's rounds: its mix's items (0 when it was stopped before its mix was stored).
std::string steadyTitle(const TimelineRun& run) {
  std::uint64_t rounds = 0;
  for (const StoredPhase& p : run.steady) {
    if (p.iteration != run.steady.front().iteration) break;
    if (p.phase == Phase::kSteadyMix) rounds = p.items;
  }
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

// "label: file, file" per configuration.
std::vector<std::string> configItems(const std::vector<Configuration>& configs) {
  std::vector<std::string> items;
  for (const Configuration& c : configs) {
    std::string files;
    for (const std::string& f : c.files) files += (files.empty() ? "" : ", ") + f;
    items.push_back(fmt::format("{}: {}", c.label, files));
  }
  return items;
}

// ---- The document's parts, each built once for every rendering ----

// The configurations, the baseline, how to read the rates, and the overview chart.
std::vector<DocBlock> preface(const std::vector<Configuration>& configs, const ReportOptions& options,
                              const std::vector<ReportChart>& charts) {
  std::vector<DocBlock> out{docParagraph({DocSpan{"Configurations:"}}), docList(configItems(configs), true)};
  if (options.baseline) {
    out.push_back(docParagraph({DocSpan{"Ratios are to the baseline "},
                                DocSpan{configs[*options.baseline].label, true}, DocSpan{"."}}));
  }
  out.push_back(docParagraph({DocSpan{fmt::format(
      "Rates are the mean over iterations of the aggregate rate (ops/s of all ranks, barrier to barrier; "
      "MiB/s as the data-path tool reported it); n is the number of iterations; p99 is the latency of the "
      "merged histograms. The peak is the largest mean; the saturation point is the first count reaching "
      "{:.0f}% of the peak with larger counts measured (neither is marked on a curve of fewer than {} "
      "points). A count with {} is tabled but not charted: its rate is mostly the cost of one call and the "
      "barriers around it. The mdbench runs and each tool's imports with one command line are separate "
      "configurations, never averaged together.",
      kSaturationFraction * 100, kMinPointsForShape, thresholdText())}}));
  for (const ReportChart& chart : charts) {
    if (chart.series.empty() && !chart.timeline) out.push_back(docChart("overview", chart.stem, options.png));
  }
  return out;
}

// Per series its charts, its table, and each configuration's peak and saturation point.
DocSection seriesSection(const std::vector<Configuration>& configs, const std::string& name,
                         const ReportOptions& options, const std::vector<ReportChart>& charts) {
  const std::string title = seriesTitle(anySeries(configs, name));
  DocSection s{title, title, {}};
  for (const ReportChart& chart : charts) {
    if (chart.series == name) s.blocks.push_back(docChart(chart.stem, chart.stem, options.png));
  }
  s.blocks.push_back(docTable(seriesTable(configs, name, options)));
  s.blocks.push_back(docList(shapeLines(configs, name)));
  return s;
}

// Per run with series, its throughput over time (the charts) and its first/last-done rates. The text has
// only the rates, so its heading says so.
DocSection doneSection(const std::vector<TimelineRun>& timelines, const ReportOptions& options,
                       const std::vector<ReportChart>& charts) {
  DocSection s{"Throughput over time",
               "First-done and last-done rates (first iteration of each run):",
               {docParagraph({DocSpan{timelineIntro(timelines)}})}};
  for (std::size_t i = 0; i < timelines.size(); ++i) {
    const TimelineRun& run = timelines[i];
    if (!shownOverTime(run)) continue;
    s.blocks.push_back(docSubheading(runTitle(run)));
    for (const ReportChart& chart : charts) {
      if (chart.timeline == i) s.blocks.push_back(docChart(chart.stem, chart.stem, options.png));
    }
    s.blocks.push_back(docTable(doneTable(run)));
  }
  s.blocks.push_back(docList(filesWithoutSeries(timelines)));
  return s;
}

DocSection steadySection(const std::vector<TimelineRun>& timelines) {
  DocSection s{"Steady state", "Steady state:", {docParagraph({DocSpan{std::string(kSteadyIntro)}})}};
  for (const TimelineRun& run : timelines) {
    if (run.steady.empty()) continue;
    s.blocks.push_back(docSubheading(steadyTitle(run)));
    s.blocks.push_back(docTable(steadyTable(run)));
  }
  return s;
}

// The configurations' notes, then the runs' (no heading in the text: each line says "note").
std::vector<DocNote> reportNotes(const std::vector<Configuration>& configs,
                                 const std::vector<TimelineRun>& timelines) {
  std::vector<DocNote> notes;
  for (const Configuration& c : configs) {
    for (const std::string& note : c.notes) notes.push_back({c.label, note});
  }
  for (const std::string& note : pathStyleNotes(timelines)) notes.push_back({"", note});
  return notes;
}

}  // namespace

std::string runTitle(const TimelineRun& run) {
  return fmt::format("{}: {} {} ({})", run.label, run.file, run.group, countOf(run.ranks, "ranks"));
}

std::string chartStem(const std::string& series) {
  std::string stem;
  for (const char c : series) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    stem += safe ? c : '-';
  }
  return stem.empty() ? "series" : stem;
}

std::vector<std::string> reportSeries(const std::vector<Configuration>& configs) {
  std::vector<std::string> names;
  for (const Phase phase : kSelectablePhases) {
    const std::string name(phaseName(phase));
    for (const Configuration& c : configs) {
      if (c.find(name)) {
        names.push_back(name);
        break;
      }
    }
  }
  for (const Configuration& c : configs) {
    if (c.find(kSteadySeries)) {
      names.emplace_back(kSteadySeries);
      break;
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
  const auto [unit, scale] = chartUnit(configs, name);
  ChartSpec spec;
  spec.title = fmt::format("{}: {} against {}", name, unit, kind.x_unit);
  spec.subtitle = barsText(options.error_bars);
  spec.x_label = kind.x_unit;
  spec.y_label = fmt::format("{} ({})", name, unit);
  spec.value_unit = unit;
  spec.y_numbers = kind.kind == SeriesKind::kDataPath ? YNumbers::kPlain : YNumbers::kSi;
  for (std::size_t c = 0; c < configs.size(); ++c) {
    const Series* s = configs[c].find(name);
    if (!s) continue;
    ChartSeries cs;
    cs.label = configs[c].label;
    cs.style = c;  // one colour and marker per configuration in every chart of the report
    const Shape shape = shapeOf(*s);
    if (shape.charted.empty()) continue;  // tabled only
    for (const ScalingPoint* p : shape.charted)
      cs.points.push_back(chartPoint(*p, options.error_bars, scale));
    if (shape.charted.size() >= kMinPointsForShape) cs.peak = shape.peak;
    cs.saturation = shape.saturation;
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
    cs.style = c;
    for (const ScalingPoint& p : s->points) {
      const ScalingPoint* bp = base->at(p.ranks);
      double ratio = 0.0;
      if (!bp || tooFewForRate(p) || tooFewForRate(*bp) || !ratioToBaseline(p.mean, bp->mean, ratio))
        continue;
      cs.points.push_back(chartPoint(p, options.error_bars, 1.0 / bp->mean));
    }
    if (!cs.points.empty()) spec.series.push_back(std::move(cs));
  }
  return spec;
}

std::vector<ReportChart> reportCharts(const std::vector<Configuration>& configs, const ReportOptions& options,
                                      const std::vector<TimelineRun>& timelines) {
  std::vector<ReportChart> charts;
  std::vector<ChartSpec> panels;
  for (const std::string& name : reportSeries(configs)) {
    ChartSpec spec = seriesChart(configs, name, options);
    if (spec.series.empty()) continue;  // too few ops for a rate everywhere: tabled only
    charts.push_back({name, chartStem(name), false, renderSvg(spec)});
    spec.subtitle.clear();
    spec.width = 520;
    spec.height = 360;
    panels.push_back(std::move(spec));
    // A relative chart needs the baseline's series and another configuration's.
    if (hasRatios(configs, name, options) && measuredBy(configs, name).size() > 1) {
      const ChartSpec relative = relativeChart(configs, name, options);
      if (!relative.series.empty())
        charts.push_back({name, chartStem(name) + "-relative", true, renderSvg(relative)});
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
    const std::vector<ChartSpec> panels_of_run = timelineCharts(run);
    if (!run.has_series || panels_of_run.empty()) continue;  // no phase, or every one too short to time
    const std::string title = fmt::format("{}: ops/s over time, iteration {}", runTitle(run), run.iteration);
    charts.push_back({"", run.stem, false, renderPanels(panels_of_run, 3, title), i});
  }
  return charts;
}

ReportDocument reportDocument(const std::vector<Configuration>& configs, const ReportOptions& options,
                              const std::vector<ReportChart>& charts,
                              const std::vector<TimelineRun>& timelines) {
  ReportDocument doc{"mdbench report", preface(configs, options, charts), {}};
  for (const std::string& name : reportSeries(configs))
    doc.sections.push_back(seriesSection(configs, name, options, charts));
  if (hasDone(timelines)) doc.sections.push_back(doneSection(timelines, options, charts));
  DocSection failover = failoverSection(timelines);
  if (!failover.blocks.empty()) doc.sections.push_back(std::move(failover));
  if (hasSteady(timelines)) doc.sections.push_back(steadySection(timelines));
  DocSection server = serverStatsSection(timelines);
  if (!server.blocks.empty()) doc.sections.push_back(std::move(server));
  std::vector<DocNote> notes = reportNotes(configs, timelines);
  if (!notes.empty()) doc.sections.push_back({"Notes", "", {docNotes(std::move(notes))}});
  return doc;
}

std::string reportText(const std::vector<Configuration>& configs, const ReportOptions& options,
                       const std::vector<TimelineRun>& timelines) {
  return renderText(reportDocument(configs, options, {}, timelines));
}

std::string reportMarkdown(const std::vector<Configuration>& configs, const ReportOptions& options,
                           const std::vector<ReportChart>& charts,
                           const std::vector<TimelineRun>& timelines) {
  return renderMarkdown(reportDocument(configs, options, charts, timelines));
}

std::vector<ReportSection> reportSections(const std::vector<Configuration>& configs,
                                          const std::vector<TimelineRun>& timelines) {
  std::vector<ReportSection> sections;
  for (const DocSection& s : reportDocument(configs, {}, {}, timelines).sections) {
    if (!textHeading(s).empty()) sections.push_back({textHeading(s), markdownHeading(s)});
  }
  return sections;
}

}  // namespace mdbench
