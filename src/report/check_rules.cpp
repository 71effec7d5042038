// Acceptance rules: the grammar, the units, and evaluation against a configuration.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>

#include "check_server.hpp"
#include "mdbench/model/imported.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/report/check.hpp"

namespace mdbench {
namespace {

enum class ValueKind : std::uint8_t { kRate, kLatency, kCount, kServer };

struct MetricInfo {
  Metric metric;
  std::string_view name;
  ValueKind kind;
  bool mdbench_only;  // measured by mdbench metadata runs only: not by imports, never on the data path
  // What it reads of a point: a rate (kRate), a latency percentile (kLatency); a count is the failed ops.
  double ScalingPoint::*rate = nullptr;
  std::uint64_t LatencySummary::*latency = nullptr;
};

constexpr std::array<MetricInfo, 14> kMetrics = {{
    {Metric::kRate, "rate", ValueKind::kRate, false, &ScalingPoint::mean},
    {Metric::kRateMin, "rate-min", ValueKind::kRate, false, &ScalingPoint::min},
    {Metric::kRateMax, "rate-max", ValueKind::kRate, false, &ScalingPoint::max},
    {Metric::kStonewallRate, "stonewall-rate", ValueKind::kRate, true, &ScalingPoint::stonewall_mean},
    {Metric::kP50, "p50", ValueKind::kLatency, true, nullptr, &LatencySummary::p50_ns},
    {Metric::kP90, "p90", ValueKind::kLatency, true, nullptr, &LatencySummary::p90_ns},
    {Metric::kP99, "p99", ValueKind::kLatency, true, nullptr, &LatencySummary::p99_ns},
    {Metric::kP999, "p999", ValueKind::kLatency, true, nullptr, &LatencySummary::p999_ns},
    {Metric::kLatencyMax, "latency-max", ValueKind::kLatency, true, nullptr, &LatencySummary::max_ns},
    {Metric::kFailed, "failed", ValueKind::kCount, true},
    {Metric::kStall, "stall", ValueKind::kLatency, true},
    {Metric::kRecovery, "recovery", ValueKind::kLatency, true},
    {Metric::kServerCounter, "server(COUNTER)", ValueKind::kServer, true},
    {Metric::kServerPerOp, "server(COUNTER)/op", ValueKind::kServer, true},
}};

const MetricInfo& info(Metric metric) {
  return *std::find_if(kMetrics.begin(), kMetrics.end(),
                       [&](const MetricInfo& m) { return m.metric == metric; });
}

struct Unit {
  std::string_view name;
  double scale;                   // base units per unit
  std::string_view display = {};  // how messages print it, when not as written ("MB/sec": "MB/s")
  std::string_view shown() const { return display.empty() ? name : display; }
};
constexpr std::array<Unit, 2> kMetadataRateUnits = {{{"ops/s", 1.0}, {"ops/sec", 1.0, "ops/s"}}};
// The data path's base unit is MiB/s. Binary and decimal prefixes are both in use: IOR prints "MiB/sec
// (MB/sec)", older IOR and most vendors' sheets MB/s or GB/s, which are 10^6 and 10^9 bytes a second.
constexpr double kBytesPerMiB = 1024.0 * 1024.0;
constexpr std::array<Unit, 14> kDataRateUnits = {{
    {"KiB/s", 1.0 / 1024.0},
    {"MiB/s", 1.0},
    {"GiB/s", 1024.0},
    {"TiB/s", 1024.0 * 1024.0},
    {"MB/s", 1e6 / kBytesPerMiB},
    {"GB/s", 1e9 / kBytesPerMiB},
    {"TB/s", 1e12 / kBytesPerMiB},
    {"KiB/sec", 1.0 / 1024.0, "KiB/s"},
    {"MiB/sec", 1.0, "MiB/s"},
    {"GiB/sec", 1024.0, "GiB/s"},
    {"TiB/sec", 1024.0 * 1024.0, "TiB/s"},
    {"MB/sec", 1e6 / kBytesPerMiB, "MB/s"},
    {"GB/sec", 1e9 / kBytesPerMiB, "GB/s"},
    {"TB/sec", 1e12 / kBytesPerMiB, "TB/s"},
}};
// IOzone prints kB/sec for 1024 bytes a second, SI means 1000: a limit in either would be 2.4% off.
constexpr std::array<std::string_view, 4> kAmbiguousRateUnits = {"kB/s", "KB/s", "kB/sec", "KB/sec"};
constexpr std::array<Unit, 5> kLatencyUnits = {
    {{"ns", 1.0}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}}};
constexpr std::array<Unit, 3> kMultipliers = {{{"k", 1e3}, {"M", 1e6}, {"G", 1e9}}};

constexpr std::array<std::pair<std::string_view, Comparison>, 5> kComparisons = {{
    {">=", Comparison::kGreaterEqual},
    {"<=", Comparison::kLessEqual},
    {">", Comparison::kGreater},
    {"<", Comparison::kLess},
    {"==", Comparison::kEqual},
}};

constexpr std::string_view kSpace = " \t\r\n";
constexpr std::string_view kOperatorChars = "<>=!";

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

bool isDataPath(std::string_view series) { return series.find(':') != std::string_view::npos; }

bool isPhaseName(std::string_view name) {
  return std::any_of(kSelectablePhases.begin(), kSelectablePhases.end(),
                     [&](Phase p) { return phaseName(p) == name; });
}

bool isNamePart(std::string_view part) {
  return !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

std::string checkSeries(std::string_view series) {
  if (series.empty()) return "no series before the comparison";
  if (isDataPath(series)) {
    const auto colon = series.find(':');
    const std::string_view tool = series.substr(0, colon);
    if (!isNamePart(tool) || !isNamePart(series.substr(colon + 1)))
      return fmt::format("'{}' is not a data-path series TOOL:OPERATION (\"ior:write\")", series);
    const std::vector<std::string_view> tools = dataPathTools();
    if (std::find(tools.begin(), tools.end(), tool) != tools.end()) return {};
    return fmt::format(
        "unknown tool '{}' in '{}': a data-path series is {}:OPERATION (the tools whose results "
        "mdbench import reads)",
        tool, series, fmt::join(tools, ":OPERATION, "));
  }
  if (isPhaseName(series) || series == kSteadySeries) return {};
  std::string phases;
  for (Phase p : kSelectablePhases) phases += fmt::format("{}{}", phases.empty() ? "" : ", ", phaseName(p));
  return fmt::format("unknown series '{}': a phase ({}), {} (--steady's mix) or TOOL:OPERATION", series,
                     phases, kSteadySeries);
}

template <std::size_t N>
std::optional<Unit> findUnit(const std::array<Unit, N>& units, std::string_view name) {
  for (const Unit& u : units) {
    if (u.name == name) return u;
  }
  return std::nullopt;
}

// The units' own names: spellings that display as another ("MB/sec") are left out.
template <std::size_t N>
std::string unitList(const std::array<Unit, N>& units) {
  std::string list;
  for (const Unit& u : units) {
    if (u.display.empty()) list += fmt::format("{}{}", list.empty() ? "" : ", ", u.name);
  }
  return list;
}

std::string rateUnitList(bool data_path) {
  return data_path ? unitList(kDataRateUnits) + " (or /sec)" : unitList(kMetadataRateUnits) + " (or ops/sec)";
}

std::optional<Unit> findRateUnit(std::string_view name) {
  if (std::optional<Unit> u = findUnit(kDataRateUnits, name)) return u;
  return findUnit(kMetadataRateUnits, name);
}

// The leading decimal number of text (digits, optional fraction and exponent; no sign, no inf or nan,
// which from_chars alone would accept). Sets rest to what follows it.
std::optional<double> leadingNumber(std::string_view text, std::string_view& rest) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - start;
  };
  std::size_t mantissa = digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    const std::size_t mark = i++;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) i = mark;  // not an exponent after all: the unit check reports it
  }
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + i, value);
  if (ec != std::errc() || end != text.data() + i || !std::isfinite(value)) return std::nullopt;
  rest = text.substr(i);
  return value;
}

// A rate's [MULTIPLIER][UNIT] after its number, for the rule's series: a unit of the series' kind (ops/s for
// a phase, bytes a second for TOOL:OPERATION), or none. Sets limit and display unit; returns the problem.
std::string parseRate(double number, std::string_view unit, Rule& rule) {
  const bool data_path = isDataPath(rule.series);
  std::string_view unit_text = unit;
  double multiplier = 1.0;
  // A whole unit first: the M of MB/s is not a multiplier.
  if (!unit_text.empty() && !findRateUnit(unit_text)) {
    if (const std::optional<Unit> m = findUnit(kMultipliers, unit_text.substr(0, 1))) {
      multiplier = m->scale;
      unit_text = trim(unit_text.substr(1));
    }
  }
  if (std::find(kAmbiguousRateUnits.begin(), kAmbiguousRateUnits.end(), unit) != kAmbiguousRateUnits.end()) {
    return fmt::format("'{}' is ambiguous (IOzone's kB is 1024 bytes, SI's 1000): write KiB/s, or MB/s",
                       unit);
  }
  rule.display_unit = data_path ? "MiB/s" : "ops/s";
  if (!unit_text.empty()) {
    const std::optional<Unit> own =
        data_path ? findUnit(kDataRateUnits, unit_text) : findUnit(kMetadataRateUnits, unit_text);
    if (!own) {
      if (findRateUnit(unit_text)) {
        return fmt::format("{} does not fit {}: a {} series is measured in {}", unit_text, rule.series,
                           data_path ? "data-path" : "metadata", rateUnitList(data_path));
      }
      return fmt::format("unknown rate unit '{}' (a number with optional k, M or G, then {})", unit,
                         rateUnitList(data_path));
    }
    rule.display_unit = own->shown();
    rule.display_scale = own->scale;
  }
  rule.limit = number * multiplier * rule.display_scale;
  return {};
}

// Parses VALUE[UNIT] for the metric and series into rule (limit, display unit). Returns the problem.
std::string parseValue(std::string_view text, const MetricInfo& metric, Rule& rule) {
  if (metric.kind == ValueKind::kServer) return check_detail::parseServerValue(text, rule);
  if (text.empty()) return "no value after the comparison";
  std::string_view rest;
  const std::optional<double> number = leadingNumber(text, rest);
  if (!number) return fmt::format("'{}' is not a number", text);
  const std::string_view unit = trim(rest);
  const std::string_view number_text = text.substr(0, text.size() - rest.size());

  if (metric.kind == ValueKind::kCount) {
    std::uint64_t count = 0;
    const auto [end, ec] =
        std::from_chars(number_text.data(), number_text.data() + number_text.size(), count);
    if (ec != std::errc() || end != number_text.data() + number_text.size() || !unit.empty()) {
      return fmt::format("'{}' is not a whole number of operations", text);
    }
    rule.limit = static_cast<double>(count);
    rule.display_unit = "ops";
    return {};
  }

  if (metric.kind == ValueKind::kLatency) {
    // The stall and the recovery are durations of a phase, not latencies of its ops: named so.
    const std::string_view what =
        metric.metric == Metric::kStall || metric.metric == Metric::kRecovery ? "duration" : "latency";
    if (unit.empty()) return fmt::format("a {} needs a unit ({})", what, unitList(kLatencyUnits));
    const std::optional<Unit> u = findUnit(kLatencyUnits, unit);
    if (!u) return fmt::format("unknown {} unit '{}' ({})", what, unit, unitList(kLatencyUnits));
    rule.limit = *number * u->scale;
    rule.display_unit = u->name;
    rule.display_scale = u->scale;
    return {};
  }

  return parseRate(*number, unit, rule);
}

// The metric named after the series' dot, for the series. Returns the problem.
std::string parseMetric(std::string_view name, Rule& rule) {
  if (check_detail::isServerMetricText(name)) {
    if (isDataPath(rule.series))
      return fmt::format("server counters are recorded for metadata phases, not {}", rule.series);
    if (rule.series == kSteadySeries)
      return fmt::format("server counters are recorded for the selected phases, not {} (--steady)",
                         rule.series);
    return check_detail::parseServerMetric(name, rule);
  }
  const auto* metric =
      std::find_if(kMetrics.begin(), kMetrics.end(), [&](const MetricInfo& m) { return m.name == name; });
  if (metric == kMetrics.end()) {
    std::string names;
    for (const MetricInfo& m : kMetrics) names += fmt::format("{}{}", names.empty() ? "" : ", ", m.name);
    return fmt::format("unknown metric '{}' ({})", name, names);
  }
  if (metric->mdbench_only && isDataPath(rule.series)) {
    return fmt::format("{} is measured for metadata series only, not {}", name, rule.series);
  }
  if (metric->metric == Metric::kStonewallRate && rule.series == kSteadySeries) {
    return fmt::format("{} is not measured for {}: --steady's stonewall counts rounds, not ops", name,
                       rule.series);
  }
  rule.metric = metric->metric;
  return {};
}

// Parses SERIES[.METRIC][@RANKS] into rule: the grammar (splitRuleSubject), then what the series and
// metric may be. Another family of series (a server's counters) checks its names here. Returns the problem.
std::string parseSubject(std::string_view subject, Rule& rule) {
  RuleSubject parts;
  if (std::string problem = splitRuleSubject(subject, parts); !problem.empty()) return problem;
  rule.ranks = parts.ranks;
  rule.series = std::string(parts.series);
  if (std::string problem = checkSeries(rule.series); !problem.empty()) return problem;
  return parts.metric.empty() ? std::string() : parseMetric(parts.metric, rule);
}

}  // namespace

std::string splitRuleSubject(std::string_view subject, RuleSubject& parts) {
  parts = {};
  if (const auto space = subject.find_first_of(kSpace); space != std::string_view::npos) {
    return fmt::format("unexpected '{}' after '{}'", trim(subject.substr(space)), subject.substr(0, space));
  }
  if (const auto at = subject.find('@'); at != std::string_view::npos) {
    const std::string_view ranks = subject.substr(at + 1);
    std::uint32_t value = 0;
    const auto [end, ec] = std::from_chars(ranks.data(), ranks.data() + ranks.size(), value);
    if (ranks.empty() || ec != std::errc() || end != ranks.data() + ranks.size() || value == 0) {
      return fmt::format("'@{}' is not a rank count (a whole number from 1)", ranks);
    }
    parts.ranks = value;
    subject = subject.substr(0, at);
  }
  const auto dot = subject.find('.');
  parts.series = subject.substr(0, dot);
  if (dot != std::string_view::npos) {
    parts.metric = subject.substr(dot + 1);
    if (parts.metric.empty()) return fmt::format("no metric after '{}.'", parts.series);
  }
  return {};
}

namespace {

std::string parseInto(std::string_view text, Rule& rule) {
  const auto op_start = text.find_first_of(kOperatorChars);
  if (op_start == std::string_view::npos) return "no comparison (>=, <=, >, <, ==)";
  const auto op_end = std::min(text.find_first_not_of(kOperatorChars, op_start), text.size());
  const std::string_view op = text.substr(op_start, op_end - op_start);
  const auto* comparison =
      std::find_if(kComparisons.begin(), kComparisons.end(), [&](const auto& c) { return c.first == op; });
  if (comparison == kComparisons.end()) return fmt::format("unknown comparison '{}' (>=, <=, >, <, ==)", op);
  rule.comparison = comparison->second;
  if (std::string problem = parseSubject(trim(text.substr(0, op_start)), rule); !problem.empty())
    return problem;
  return parseValue(trim(text.substr(op_end)), info(rule.metric), rule);
}

// Numbers for people: thousands grouped, about four significant digits, trailing zeros dropped.
std::string formatNumber(double value, int decimals) {
  std::string text = fmt::format("{:.{}f}", value, decimals);
  if (const auto dot = text.find('.'); dot != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  const std::size_t digits_start = text[0] == '-' ? 1 : 0;
  const std::size_t int_end = std::min(text.find('.'), text.size());
  for (std::size_t i = int_end; i > digits_start + 3; i -= 3) text.insert(i - 3, ",");
  return text;
}

int naturalDecimals(double value) {
  if (value == 0.0) return 0;
  return std::clamp(3 - static_cast<int>(std::floor(std::log10(std::fabs(value)))), 0, 9);
}

// The measured value and the limit, with enough decimals that two different values never print alike
// (49,999.7 against >= 50,000 must not read "50,000, required >= 50,000").
std::pair<std::string, std::string> formatPair(double measured, double limit) {
  int decimals = std::max(naturalDecimals(measured), naturalDecimals(limit));
  std::string a = formatNumber(measured, naturalDecimals(measured));
  std::string b = formatNumber(limit, naturalDecimals(limit));
  while (a == b && measured != limit && decimals < 15) {
    ++decimals;
    a = formatNumber(measured, decimals);
    b = formatNumber(limit, decimals);
  }
  return {a, b};
}

bool holds(double measured, Comparison comparison, double limit) {
  switch (comparison) {
    case Comparison::kGreaterEqual:
      return measured >= limit;
    case Comparison::kLessEqual:
      return measured <= limit;
    case Comparison::kGreater:
      return measured > limit;
    case Comparison::kLess:
      return measured < limit;
    case Comparison::kEqual:
      return measured == limit;
  }
  return false;
}

// The metric at a point in base units, or why the point has none.
struct Measured {
  double value = 0.0;
  std::string missing;
};

Measured measure(const ScalingPoint& p, Metric metric) {
  const MetricInfo& m = info(metric);
  if (m.mdbench_only && !p.has_latency) {
    return {0.0, m.kind == ValueKind::kLatency ? "imported results have no latencies"
                 : metric == Metric::kFailed   ? "imported results have no operation counts"
                                               : "imported results have no stonewall rate"};
  }
  if (metric == Metric::kStall || metric == Metric::kRecovery) {
    const double s = metric == Metric::kStall ? p.stall_s : p.recovery_s;
    if (std::isnan(s)) {
      return {0.0, metric == Metric::kStall
                       ? "no stall data (results of schema version 8 or older; of --steady runs, 9 or older)"
                       : "no fault was injected (--fault-at) with a measurable recovery"};
    }
    return {s * 1e9, {}};
  }
  if (metric == Metric::kStonewallRate && p.stonewall_mean == 0.0)
    return {0.0, "the stonewall (-W) did not fire"};
  switch (m.kind) {
    case ValueKind::kRate:
      return {p.*m.rate, {}};
    case ValueKind::kLatency:
      return {static_cast<double>(p.latency.*m.latency), {}};
    case ValueKind::kCount:
      return {static_cast<double>(p.failed), {}};
    case ValueKind::kServer:
      break;  // measured with the rule's counter: check_detail::measureServer
  }
  return {0.0, "unknown metric"};
}

std::string countOf(std::uint32_t n, std::string_view x_unit) {
  // "1 rank", "2 ranks": x units are plural nouns.
  if (n == 1 && x_unit.ends_with('s')) x_unit.remove_suffix(1);
  return fmt::format("{} {}", n, x_unit);
}

std::string fileList(const std::vector<std::string>& files) {
  constexpr std::size_t kShown = 3;  // a sweep split over many jobs must not flood every message
  std::string list;
  for (std::size_t i = 0; i < files.size() && i < kShown; ++i) list += (i ? ", " : "") + files[i];
  if (files.size() > kShown) list += fmt::format(" and {} more", files.size() - kShown);
  return list.empty() ? "no files" : list;
}

Outcome outcomeAt(const Rule& rule, const std::string& x_unit, const std::string& files,
                  const ScalingPoint& point, ShortPhases short_phases) {
  Outcome o{.rule = rule.text, .origin = rule.origin, .ranks = point.ranks, .x_unit = x_unit};
  // The default metric goes unnamed, as people say "file-create at 2 ranks" for its rate.
  const bool server = info(rule.metric).kind == ValueKind::kServer;
  const std::string metric = rule.metric == Metric::kRate ? ""
                             : server                     ? " " + check_detail::serverMetricLabel(rule)
                                                          : fmt::format(" {}", metricName(rule.metric));
  const std::string label = fmt::format("{}{} at {}", rule.series, metric, countOf(point.ranks, x_unit));
  Measured m;
  double limit_value = rule.limit;
  if (server) {
    const check_detail::ServerMeasured s = check_detail::measureServer(point, rule);
    m = {s.value, s.missing};
    limit_value = s.limit;
  } else {
    m = measure(point, rule.metric);
  }
  if (!m.missing.empty()) {
    o.verdict = Verdict::kNoData;
    o.message = fmt::format("{}: no {} in {}: {}", rule.text, label, files, m.missing);
    return o;
  }
  // A rate of a phase too short to time measures the barriers around one call, not the file system: a gate
  // must neither pass nor fail on it, unless the user asked for it (--allow-short). Latencies, counts and
  // server counters are per operation and stay judged.
  const bool too_short = info(rule.metric).kind == ValueKind::kRate && tooFewForRate(point);
  const std::string short_counts = too_short ? tooShortCounts(phaseSize(point)) : std::string();
  if (too_short && short_phases == ShortPhases::kNoData) {
    o.verdict = Verdict::kNoData;
    o.message = fmt::format("{}: {} in {}: too short to time: {} ({}; --allow-short judges it)", rule.text,
                            label, files, short_counts, tooShortThresholdText());
    return o;
  }
  o.verdict = holds(m.value, rule.comparison, limit_value) ? Verdict::kPass : Verdict::kFail;
  const auto [value, limit] = formatPair(m.value / rule.display_scale, limit_value / rule.display_scale);
  const std::string unit = rule.display_unit.empty() ? "" : " " + rule.display_unit;
  const std::string ops_note = rule.limit_is_ops ? " (the phase's operations)" : "";
  o.message = fmt::format("{}: {}{}, required {} {}{}{}", label, value, unit, comparisonText(rule.comparison),
                          limit, unit, ops_note);
  if (too_short) o.message += fmt::format(" (too short to time: {}; judged by --allow-short)", short_counts);
  return o;
}

// An outcome for want of data: the message leads with the rule, as it names no measured value.
Outcome missing(const Rule& rule, const std::string& x_unit, const std::string& why) {
  return {.rule = rule.text,
          .origin = rule.origin,
          .ranks = rule.ranks,
          .x_unit = x_unit,
          .verdict = Verdict::kNoData,
          .message = fmt::format("{}: {}", rule.text, why)};
}

void evaluateRule(const Rule& rule, const Configuration& configuration, ShortPhases short_phases,
                  std::vector<Outcome>& outcomes) {
  const Series* series = configuration.find(rule.series);
  const std::string x_unit =
      series && !series->x_unit.empty() ? series->x_unit : (isDataPath(rule.series) ? "clients" : "ranks");
  const std::string files = fileList(configuration.files);
  if (!series || series->points.empty()) {
    outcomes.push_back(missing(
        rule, x_unit,
        rule.ranks ? fmt::format("no {} results at {} in {}", rule.series, countOf(rule.ranks, x_unit), files)
                   : fmt::format("no {} results in {}", rule.series, files)));
    return;
  }
  if (rule.ranks == 0) {
    for (const ScalingPoint& point : series->points)
      outcomes.push_back(outcomeAt(rule, x_unit, files, point, short_phases));
    return;
  }
  if (const ScalingPoint* point = series->at(rule.ranks)) {
    outcomes.push_back(outcomeAt(rule, x_unit, files, *point, short_phases));
    return;
  }
  std::string counts;
  for (const ScalingPoint& p : series->points)
    counts += fmt::format("{}{}", counts.empty() ? "" : ", ", p.ranks);
  outcomes.push_back(missing(rule, x_unit,
                             fmt::format("no {} results at {} in {} ({} has {} {})", rule.series,
                                         countOf(rule.ranks, x_unit), files, rule.series, counts, x_unit)));
}

}  // namespace

std::string_view metricName(Metric metric) { return info(metric).name; }

std::string_view verdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass:
      return "PASS";
    case Verdict::kFail:
      return "FAIL";
    case Verdict::kNoData:
      return "NO-DATA";
  }
  return "FAIL";
}

std::string_view comparisonText(Comparison comparison) {
  return std::find_if(kComparisons.begin(), kComparisons.end(),
                      [&](const auto& c) { return c.second == comparison; })
      ->first;
}

RuleParse parseRule(std::string_view text, const std::string& origin) {
  Rule rule;
  rule.text = std::string(trim(text));
  rule.origin = origin;
  RuleParse result;
  if (std::string problem = parseInto(rule.text, rule); !problem.empty()) {
    result.errors.push_back(
        fmt::format("{}{}rule '{}': {}", origin, origin.empty() ? "" : ": ", rule.text, problem));
  } else {
    result.rules.push_back(std::move(rule));
  }
  return result;
}

RuleParse parseRules(std::string_view contents, const std::string& file_name) {
  RuleParse result;
  // A binary file (a results file given as --rules) is not a file of rules: one error, not its bytes
  // quoted back line by line.
  if (const auto nul = contents.find('\0'); nul != std::string_view::npos) {
    const auto line = std::count(contents.begin(), contents.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
    result.errors.push_back(
        fmt::format("{}: not a text file of rules (a NUL byte on line {})", file_name, line + 1));
    return result;
  }
  constexpr std::size_t kMostErrorsShown = 20;
  std::size_t line_number = 0;
  std::size_t bad_lines = 0;
  while (!contents.empty()) {
    ++line_number;
    const auto newline = contents.find('\n');
    std::string_view line = contents.substr(0, newline);
    contents = newline == std::string_view::npos ? std::string_view{} : contents.substr(newline + 1);
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    RuleParse one = parseRule(line, fmt::format("{}:{}", file_name, line_number));
    result.rules.insert(result.rules.end(), one.rules.begin(), one.rules.end());
    if (one.errors.empty()) continue;
    if (++bad_lines <= kMostErrorsShown) {
      result.errors.insert(result.errors.end(), one.errors.begin(), one.errors.end());
    }
  }
  if (bad_lines > kMostErrorsShown) {
    result.errors.push_back(fmt::format("{}: {} more lines that are not rules (the first {} are above)",
                                        file_name, bad_lines - kMostErrorsShown, kMostErrorsShown));
  }
  if (result.rules.empty() && result.errors.empty()) {
    result.errors.push_back(fmt::format("{}: holds no rule (only blank lines and comments)", file_name));
  }
  return result;
}

std::vector<Outcome> evaluate(const std::vector<Rule>& rules, const Configuration& configuration,
                              ShortPhases short_phases) {
  std::vector<Outcome> outcomes;
  for (const Rule& rule : rules) evaluateRule(rule, configuration, short_phases, outcomes);
  return outcomes;
}

std::vector<Outcome> evaluate(const std::vector<Rule>& rules,
                              const std::vector<Configuration>& configurations, ShortPhases short_phases) {
  std::vector<Outcome> outcomes;
  for (const Rule& rule : rules) {
    bool measured = false;
    for (const Configuration& c : configurations) {
      const Series* series = c.find(rule.series);
      if (!series || series->points.empty()) continue;
      measured = true;
      const std::size_t first = outcomes.size();
      evaluateRule(rule, c, short_phases, outcomes);
      // Said at the front, as the same rule and count can now appear once per configuration.
      for (std::size_t i = first; i < outcomes.size(); ++i) {
        outcomes[i].configuration = c.label;
        outcomes[i].message = fmt::format("[{}] {}", c.label, outcomes[i].message);
      }
    }
    if (measured) continue;
    // No configuration has the series: one outcome, over every file.
    Configuration all;
    for (const Configuration& c : configurations) {
      for (const std::string& file : c.files) {
        if (std::find(all.files.begin(), all.files.end(), file) == all.files.end()) all.files.push_back(file);
      }
    }
    evaluateRule(rule, all, short_phases, outcomes);
  }
  return outcomes;
}

}  // namespace mdbench
