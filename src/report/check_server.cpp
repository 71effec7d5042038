// Rules on the metadata servers' counters: grammar and measurement (check_server.hpp).
#include "check_server.hpp"

#include <fmt/format.h>

#include <charconv>
#include <optional>

namespace mdbench::check_detail {
namespace {

constexpr std::string_view kPrefix = "server(";
constexpr std::string_view kPerOp = "/op";

// A counter name as the sources flatten them: section.name[.field], Lustre's MDT.op, a command's names.
bool isCounterName(std::string_view name) {
  if (name.empty()) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '.' || c == '-' || c == ':';
    if (!ok) return false;
  }
  return true;
}

std::optional<double> plainNumber(std::string_view text) {
  double multiplier = 1.0;
  if (!text.empty()) {
    switch (text.back()) {
      case 'k':
        multiplier = 1e3;
        break;
      case 'M':
        multiplier = 1e6;
        break;
      case 'G':
        multiplier = 1e9;
        break;
      default:
        break;
    }
    if (multiplier != 1.0) text.remove_suffix(1);
  }
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value * multiplier;
}

}  // namespace

bool isServerMetricText(std::string_view metric) { return metric.starts_with(kPrefix); }

std::string parseServerMetric(std::string_view metric, Rule& rule) {
  const auto close = metric.find(')');
  if (close == std::string_view::npos) return fmt::format("no ')' after '{}'", metric);
  const std::string_view counter = metric.substr(kPrefix.size(), close - kPrefix.size());
  if (!isCounterName(counter)) {
    return fmt::format("'{}' is not a counter name (letters, digits, '_', '.', '-', ':'; e.g. mds.request)",
                       counter);
  }
  const std::string_view rest = metric.substr(close + 1);
  if (!rest.empty() && rest != kPerOp) {
    return fmt::format("unexpected '{}' after server({}): only /op may follow", rest, counter);
  }
  rule.counter = std::string(counter);
  rule.metric = rest.empty() ? Metric::kServerCounter : Metric::kServerPerOp;
  return {};
}

std::string parseServerValue(std::string_view text, Rule& rule) {
  if (text.empty()) return "no value after the comparison";
  if (text == "ops") {
    if (rule.metric == Metric::kServerPerOp)
      return "'ops' compares a counter, not a counter per op: use a number";
    rule.limit_is_ops = true;
    return {};
  }
  const std::optional<double> number = plainNumber(text);
  if (!number) return fmt::format("'{}' is not a number or 'ops' (a server counter has no unit)", text);
  rule.limit = *number;
  return {};
}

ServerMeasured measureServer(const ScalingPoint& p, const Rule& rule) {
  if (!p.server_problem.empty()) return {.missing = p.server_problem};
  if (p.server_iterations == 0)
    return {.missing = "no server counters in the results (run with --server-stats)"};
  const auto it = p.server_deltas.find(rule.counter);
  if (it == p.server_deltas.end()) {
    return {.missing =
                fmt::format("no counter {} at the servers ({} counters moved or were recorded; a counter "
                            "is kept when it moved or is its source's primary one)",
                            rule.counter, p.server_deltas.size())};
  }
  const double iterations = p.server_iterations;
  const double ops = static_cast<double>(p.server_ops);
  if (rule.metric == Metric::kServerPerOp) {
    if (p.server_ops == 0) return {.missing = "no client operations in the phase to divide by"};
    return {.value = it->second / ops, .limit = rule.limit, .missing = {}};
  }
  return {.value = it->second / iterations,
          .limit = rule.limit_is_ops ? ops / iterations : rule.limit,
          .missing = {}};
}

std::string serverMetricLabel(const Rule& rule) {
  return fmt::format("server({}){}", rule.counter, rule.metric == Metric::kServerPerOp ? "/op" : "");
}

}  // namespace mdbench::check_detail
