// Importer of md-workbench's output (ior's src/md-workbench.c, print_p_stat): one line per phase run
// (precreate, each benchmark iteration, cleanup) with its rate and each operation's latency figures.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "import_text.hpp"
#include "mdbench/model/imported.hpp"

namespace mdbench {
namespace {

using import_text::Line;
using import_text::quoteForMessage;
using import_text::startsWith;
using import_text::trim;

constexpr std::string_view kExpected = "md-workbench output";
constexpr std::array<std::string_view, 4> kOps = {"read", "stat", "create", "delete"};

// One operation's latency figures as printed: min, q1, median, q3, q90, q99, max (seconds).
using Latency = std::array<double, 7>;

// One phase line: its rates and the latency of each operation it printed.
struct PhaseLine {
  std::string phase;  // "precreate", "benchmark", "cleanup"
  double iops = 0.0;  // "rate:X iops/s": every operation of the phase
  double objects_per_s = 0.0;
  double time_s = 0.0;  // "process max:X s"
  std::array<std::optional<Latency>, kOps.size()> latency;
};

// A row in the making: the values of each iteration, reduced once all lines are read.
struct Samples {
  std::string operation;
  std::vector<double> rates;
  std::vector<double> times;
  std::optional<Latency> worst;  // the largest of each figure over the iterations
};

class MdWorkbenchParser : public import_text::TextParser {
 public:
  using TextParser::TextParser;
  MetadataImport parse();

 private:
  void readLine(const Line& line, std::string_view content);
  PhaseLine readPhase(const Line& line, std::string_view content) const;
  std::optional<double> valueAfter(const Line& line, std::string_view content, std::string_view key) const;
  void add(const std::string& operation, double rate, double time, const std::optional<Latency>& latency);

  MetadataImport out_;
  std::uint32_t ranks_ = 0;
  std::uint32_t nodes_ = 0;
  std::vector<Samples> samples_;
};

// The number after `key` (e.g. "rate:" before " iops/s"): md-workbench prints "key:value" pairs.
std::optional<double> MdWorkbenchParser::valueAfter(const Line& line, std::string_view content,
                                                    std::string_view key) const {
  const std::size_t at = content.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = trim(content.substr(at + key.size()));
  rest = rest.substr(0, rest.find_first_of(" \t"));
  if (rest.ends_with("s") && !rest.ends_with("/s")) rest.remove_suffix(1);  // "0.00s"
  const std::optional<double> value = import_text::parseNumber(rest);
  if (!value || *value < 0.0) {
    fail(line.number, fmt::format("'{}' {}: not a non-negative number", key, quoteForMessage(rest)));
  }
  return value;
}

PhaseLine MdWorkbenchParser::readPhase(const Line& line, std::string_view content) const {
  PhaseLine p;
  p.phase = std::string(content.substr(0, content.find(' ')));
  const std::optional<double> time = valueAfter(line, content, "process max:");
  const std::optional<double> iops = valueAfter(line, content, "rate:");
  // The obj/s rate is the number before " obj/s": find it by its unit.
  const std::size_t unit = content.find(" obj/s");
  const std::size_t start = unit == std::string_view::npos ? unit : content.rfind("rate:", unit);
  if (!time || !iops || start == std::string_view::npos) {
    fail(line.number,
         fmt::format("{} line without 'process max:', 'rate: iops/s' or 'rate: obj/s'", p.phase));
  }
  p.time_s = *time;
  p.iops = *iops;
  p.objects_per_s = *valueAfter(line, content.substr(start), "rate:");
  for (std::size_t op = 0; op < kOps.size(); ++op) {
    const std::string key = fmt::format(" {}(", kOps[op]);
    const std::size_t at = content.find(key);
    if (at == std::string_view::npos) continue;
    const std::size_t close = content.find(')', at);
    if (close == std::string_view::npos) fail(line.number, fmt::format("{}: no closing parenthesis", key));
    std::vector<std::string_view> figures;
    for (std::string_view word :
         import_text::splitWords(content.substr(at + key.size(), close - at - key.size()))) {
      if (word.ends_with(',')) word.remove_suffix(1);
      if (word.ends_with('s')) word.remove_suffix(1);
      figures.push_back(word);
    }
    if (figures.size() != 7) {
      fail(line.number, fmt::format("{}...): {} latency figures, expected 7", trim(key), figures.size()));
    }
    Latency latency{};
    for (std::size_t i = 0; i < 7; ++i) {
      const std::optional<double> value = import_text::parseNumber(figures[i]);
      if (!value || *value < 0.0) {
        fail(line.number, fmt::format("{}...): {} is not a latency", trim(key), quoteForMessage(figures[i])));
      }
      latency[i] = *value;
    }
    p.latency[op] = latency;
  }
  return p;
}

void MdWorkbenchParser::add(const std::string& operation, double rate, double time,
                            const std::optional<Latency>& latency) {
  auto it = std::find_if(samples_.begin(), samples_.end(),
                         [&](const Samples& s) { return s.operation == operation; });
  if (it == samples_.end()) it = samples_.insert(samples_.end(), Samples{operation, {}, {}, std::nullopt});
  it->rates.push_back(rate);
  it->times.push_back(time);
  if (latency) {
    if (!it->worst) it->worst = Latency{};
    for (std::size_t i = 0; i < latency->size(); ++i)
      (*it->worst)[i] = std::max((*it->worst)[i], (*latency)[i]);
  }
}

void MdWorkbenchParser::readLine(const Line& line, std::string_view content) {
  if (startsWith(content, "Args: ")) {
    out_.command_line = std::string(trim(content.substr(6)));
  } else if (startsWith(content, "Nodemap: ")) {
    // One digit per rank: 1 when the rank is on rank 0's host.
    const std::string_view map = trim(content.substr(9));
    if (map.empty() || map.find_first_not_of("01") != std::string_view::npos)
      fail(line.number, fmt::format("Nodemap {}: expected one 0 or 1 per rank", quoteForMessage(map)));
    ranks_ = static_cast<std::uint32_t>(map.size());
    nodes_ = map.find('0') == std::string_view::npos ? 1 : 0;  // several hosts: how many is not printed
  } else if (startsWith(content, "MD-Workbench total objects:")) {
    const std::size_t version = content.find("(version: ");
    const std::size_t close = version == std::string_view::npos ? version : content.find(')', version);
    if (close != std::string_view::npos)
      out_.tool_version = std::string(content.substr(version + 10, close - version - 10));
    const std::size_t time = content.find(" time: ");
    if (time != std::string_view::npos) out_.began = std::string(trim(content.substr(time + 7)));
  } else if (startsWith(content, "precreate process") || startsWith(content, "benchmark process") ||
             startsWith(content, "cleanup process")) {
    const PhaseLine p = readPhase(line, content);
    // The phase's own row, then one per operation: every object of a benchmark iteration is read,
    // stat'ed, created and deleted once, so each operation's rate is the objects' rate.
    const std::size_t ops = static_cast<std::size_t>(
        std::count_if(p.latency.begin(), p.latency.end(), [](const auto& l) { return l.has_value(); }));
    add(p.phase, p.iops, p.time_s,
        ops == 1
            ? *std::find_if(p.latency.begin(), p.latency.end(), [](const auto& l) { return l.has_value(); })
            : std::optional<Latency>());
    if (p.phase != "benchmark") return;
    for (std::size_t op = 0; op < kOps.size(); ++op) {
      if (p.latency[op])
        add(fmt::format("{} {}", p.phase, kOps[op]), p.objects_per_s, p.time_s, p.latency[op]);
    }
  }
}

MetadataImportRow reduce(const Samples& s, std::uint32_t ranks, std::uint32_t nodes) {
  MetadataImportRow row;
  row.operation = s.operation;
  row.ranks = ranks;
  row.nodes = nodes;
  row.iterations = static_cast<std::uint32_t>(s.rates.size());
  row.ops_per_s_max = *std::max_element(s.rates.begin(), s.rates.end());
  row.ops_per_s_min = *std::min_element(s.rates.begin(), s.rates.end());
  double sum = 0.0, time = 0.0;
  for (std::size_t i = 0; i < s.rates.size(); ++i) {
    sum += s.rates[i];
    time += s.times[i];
  }
  const double n = static_cast<double>(s.rates.size());
  row.ops_per_s_mean = sum / n;
  row.time_s_mean = time / n;
  double squares = 0.0;
  for (const double r : s.rates) squares += (r - row.ops_per_s_mean) * (r - row.ops_per_s_mean);
  row.ops_per_s_stddev = s.rates.size() > 1 ? std::sqrt(squares / (n - 1.0)) : 0.0;  // as mdtest: n - 1
  if (s.worst) {
    constexpr double kNs = 1e9;
    row.has_latency = true;
    row.latency_p50_ns = (*s.worst)[2] * kNs;
    row.latency_p90_ns = (*s.worst)[4] * kNs;
    row.latency_p99_ns = (*s.worst)[5] * kNs;
    row.latency_max_ns = (*s.worst)[6] * kNs;
  }
  return row;
}

MetadataImport MdWorkbenchParser::parse() {
  import_text::rejectEmptyOrBinary(text_, source_, kExpected);
  out_.tool = "md-workbench";
  const std::vector<Line> lines = import_text::splitLines(text_);
  for (const Line& line : lines) readLine(line, trim(line.text));
  if (samples_.empty()) {
    if (!out_.tool_version.empty())
      fail(lines.back().number, "md-workbench output without a phase line: the run ended before its results");
    fail(1, fmt::format("no 'MD-Workbench total objects' line and no phase line, expected {}", kExpected));
  }
  if (ranks_ == 0) fail(1, "no 'Nodemap:' line: the rank count is not known");
  for (const Samples& s : samples_) out_.rows.push_back(reduce(s, ranks_, nodes_));
  return std::move(out_);
}

}  // namespace

MetadataImport parseMdWorkbench(std::string_view text, const std::string& source) {
  return import_text::parseWith<MdWorkbenchParser>(text, source);
}

}  // namespace mdbench
