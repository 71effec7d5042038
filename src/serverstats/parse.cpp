// The counter parsers (parse.hpp).
#include "mdbench/serverstats/parse.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mdbench::serverstats {
namespace {

using nlohmann::json;

constexpr int kMaxDepth = 16;  // Ceph nests three deep; deeper is not a counter dump

// Numbers under `prefix`; false when the nesting is absurd.
bool flatten(const json& node, const std::string& prefix, int depth, Counters& out) {
  if (depth > kMaxDepth) return false;
  for (const auto& [key, value] : node.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (value.is_object()) {
      if (!flatten(value, name, depth + 1, out)) return false;
    } else if (value.is_number()) {
      out[name] = value.get<double>();
    }
  }
  return true;
}

// A line's words, split at spaces and tabs.
std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos < line.size()) {
    const std::size_t start = line.find_first_not_of(" \t\r", pos);
    if (start == std::string_view::npos) break;
    const std::size_t end = line.find_first_of(" \t\r", start);
    out.push_back(line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    pos = end == std::string_view::npos ? line.size() : end;
  }
  return out;
}

// A finite decimal number, the whole word.
bool number(std::string_view word, double& value) {
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  return ec == std::errc() && end == word.data() + word.size() && std::isfinite(value);
}

template <typename Each>
void forEachLine(std::string_view text, Each each) {
  std::size_t line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    ++line_no;
    if (!each(text.substr(0, nl), line_no)) return;
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
}

// "<op> <count> samples [unit] [min max sum [sumsq]]" into counters; "" or the problem.
std::string mdStatsLine(const std::vector<std::string_view>& w, std::string_view mdt, Counters& out) {
  double count = 0;
  if (w.size() < 3 || w[2] != "samples" || !number(w[1], count)) {
    return "expected '<op> <count> samples [<unit>] ...'";
  }
  const std::string op = fmt::format("{}.{}", mdt, w[0]);
  out[op] = count;
  static constexpr std::string_view kFields[] = {"min", "max", "sum", "sumsq"};
  const std::size_t first = w.size() > 3 && w[3].starts_with('[') ? 4 : 3;
  for (std::size_t i = first; i < w.size(); ++i) {
    double value = 0;
    if (i - first >= std::size(kFields) || !number(w[i], value)) return fmt::format("unexpected '{}'", w[i]);
    out[fmt::format("{}.{}", op, kFields[i - first])] = value;
  }
  return {};
}

}  // namespace

Parsed parseJsonCounters(std::string_view text) {
  Parsed parsed;
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) {
    parsed.error = "not valid JSON";
  } else if (!doc.is_object()) {
    parsed.error = "not a JSON object";
  } else if (!flatten(doc, "", 0, parsed.counters)) {
    parsed.error = fmt::format("objects nested more than {} deep", kMaxDepth);
  }
  return parsed;
}

Parsed parseLustreMdStats(std::string_view text, std::string_view mdt) {
  Parsed parsed;
  std::string current(mdt);
  bool seen_snapshot = false;
  forEachLine(text, [&](std::string_view line, std::size_t line_no) {
    const std::vector<std::string_view> w = words(line);
    if (w.empty()) return true;
    if (w.size() == 1 && w[0].starts_with("mdt.") && w[0].ends_with(".md_stats=")) {
      current = std::string(w[0].substr(4, w[0].size() - 4 - std::string_view(".md_stats=").size()));
      return true;
    }
    if (w[0] == "snapshot_time" || w[0] == "start_time" || w[0] == "elapsed_time") {
      seen_snapshot = true;
      return true;
    }
    if (const std::string problem = mdStatsLine(w, current, parsed.counters); !problem.empty()) {
      parsed.error = fmt::format("line {}: {}: '{}'", line_no, problem, line);
      return false;
    }
    return true;
  });
  if (parsed.ok() && !seen_snapshot) parsed.error = "no snapshot_time line: not md_stats";
  if (!parsed.ok()) parsed.counters.clear();
  return parsed;
}

namespace {

// The text between the first and the last double quote of a dbus-send "string" line.
std::string_view quoted(std::string_view line) {
  const std::size_t open = line.find('"'), close = line.rfind('"');
  return open == std::string_view::npos || close <= open ? std::string_view()
                                                         : line.substr(open + 1, close - open - 1);
}

}  // namespace

Parsed parseGaneshaFullStats(std::string_view text, std::string_view prefix) {
  Parsed parsed;
  static constexpr std::string_view kFields[] = {"", ".errors", ".dups"};
  std::optional<bool> answer;  // the reply's leading boolean
  std::string op;              // the operation whose counts follow
  std::size_t field = 0;
  bool in_array = false;  // the operations' array (before it: the status and a time stamp; after: a status)
  forEachLine(text, [&](std::string_view line, std::size_t line_no) {
    const std::vector<std::string_view> w = words(line);
    if (w.empty() || w[0] == "method" || w[0] == "struct" || w[0] == "}" || w[0] == "double") return true;
    if (w[0] == "array" || w[0] == "]") {
      in_array = w[0] == "array";
      op.clear();
      return true;
    }
    double value = 0;
    if (w[0] == "boolean" && w.size() == 2 && !answer) {
      answer = w[1] == "true";
    } else if (w[0] == "string" && answer && !*answer) {
      if (quoted(line).find("does not have any activity") == std::string_view::npos)
        parsed.error = fmt::format("ganesha says: {}", quoted(line));
      return false;
    } else if (w[0] == "string" && answer) {
      op = in_array ? std::string(quoted(line)) : std::string();
      field = 0;
    } else if (w[0] == "uint64" && w.size() == 2 && number(w[1], value)) {
      if (!op.empty() && field < std::size(kFields))
        parsed.counters[fmt::format("{}.{}{}", prefix, op, kFields[field++])] = value;
    } else {
      parsed.error = fmt::format("line {}: unexpected '{}'", line_no, line);
      return false;
    }
    return true;
  });
  if (parsed.ok() && !answer) parsed.error = "no 'boolean' status: not a ganesha statistics reply";
  if (!parsed.ok()) parsed.counters.clear();
  return parsed;
}

Parsed parseCommandCounters(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') return parseJsonCounters(text);
  Parsed parsed;
  forEachLine(text, [&](std::string_view line, std::size_t line_no) {
    const std::vector<std::string_view> w = words(line);
    if (w.empty() || w[0].starts_with('#')) return true;
    double value = 0;
    if (w.size() != 2 || !number(w[1], value)) {
      parsed.error = fmt::format("line {}: expected '<name> <number>', got '{}'", line_no, line);
      return false;
    }
    parsed.counters[std::string(w[0])] = value;
    return true;
  });
  if (parsed.ok() && parsed.counters.empty()) parsed.error = "no counters in the output";
  if (!parsed.ok()) parsed.counters.clear();
  return parsed;
}

}  // namespace mdbench::serverstats
