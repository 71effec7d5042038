// Importer of an IO500 result directory (IO500/io500 src/main.c): result_summary.txt's "[RESULT]" lines,
// and the phase logs, which are ior's and mdtest's own text output.
#include <fmt/format.h>

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

constexpr std::string_view kExpected = "IO500 result_summary.txt";

// "[RESULT]       ior-easy-write        0.133877 GiB/s : time 0.058 seconds [INVALID]"; "[      ]" for a
// phase without a score.
struct SummaryLine {
  std::size_t line = 0;
  std::string phase;
  double value = 0.0;
  bool bandwidth = false;  // GiB/s, else kIOPS
  double time_s = 0.0;
  bool invalid = false;
};

std::optional<SummaryLine> readSummaryLine(const Line& line, const std::string& source) {
  const std::string_view content = trim(line.text);
  if (!startsWith(content, "[RESULT]") && !startsWith(content, "[      ]")) return std::nullopt;
  const std::vector<std::string_view> words = import_text::splitWords(content.substr(8));
  // phase value unit : time T seconds [[INVALID]]
  const auto bad = [&](const std::string& why) {
    return ImportError(source, line.number, fmt::format("{}: {}", quoteForMessage(content, 80), why));
  };
  if (words.size() < 7 || words[3] != ":" || words[4] != "time" || words[6] != "seconds")
    throw bad("expected 'PHASE VALUE GiB/s|kIOPS : time T seconds'");
  SummaryLine out;
  out.line = line.number;
  out.phase = std::string(words[0]);
  const std::optional<double> value = import_text::parseNumber(words[1]);
  const std::optional<double> time = import_text::parseNumber(words[5]);
  if (!value || *value < 0.0 || !time || *time < 0.0) throw bad("the value or the time is not a number");
  if (words[2] != "GiB/s" && words[2] != "kIOPS") throw bad("the unit is neither GiB/s nor kIOPS");
  out.value = *value;
  out.bandwidth = words[2] == "GiB/s";
  out.time_s = *time;
  out.invalid = words.size() > 7 && words[7] == "[INVALID]";
  return out;
}

std::vector<SummaryLine> readSummary(std::string_view text, const std::string& source) {
  import_text::rejectEmptyOrBinary(text, source, kExpected);
  std::vector<SummaryLine> out;
  for (const Line& line : import_text::splitLines(text)) {
    if (std::optional<SummaryLine> s = readSummaryLine(line, source)) out.push_back(std::move(*s));
  }
  if (out.empty()) {
    throw ImportError(source, 1, fmt::format("no '[RESULT]' line, expected {}", kExpected));
  }
  return out;
}

std::string versionOf(std::string_view text) {
  for (const Line& line : import_text::splitLines(text)) {
    const std::string_view content = trim(line.text);
    if (startsWith(content, "IO500 version ")) return std::string(trim(content.substr(14)));
  }
  return "";
}

// Each log through its own tool's importer; ior logs are IOR's text output, the others mdtest's.
void importLog(const Io500Log& log, Io500Import& out) {
  if (startsWith(log.phase, "ior-")) {
    out.datapath.push_back(parseIorText(log.text, log.path));
  } else if (startsWith(log.phase, "mdtest-")) {
    out.metadata.push_back(parseMdtest(log.text, log.path));
  }
}

// The job's rank count, the same for every phase: that of the first log that has one.
std::uint32_t ranksOf(const Io500Import& logs) {
  for (const MetadataImport& imp : logs.metadata) {
    if (!imp.rows.empty()) return imp.rows.front().ranks;
  }
  for (const DataPathImport& imp : logs.datapath) {
    if (!imp.rows.empty()) return imp.rows.front().clients;
  }
  return 0;
}

}  // namespace

std::vector<std::string> io500Phases(std::string_view summary) {
  std::vector<std::string> phases;
  for (const Line& line : import_text::splitLines(summary)) {
    const std::string_view content = trim(line.text);
    if (!startsWith(content, "[RESULT]") && !startsWith(content, "[      ]")) continue;
    const std::vector<std::string_view> words = import_text::splitWords(content.substr(8));
    if (!words.empty()) phases.emplace_back(words[0]);
  }
  return phases;
}

Io500Import parseIo500(std::string_view summary, const std::string& summary_path,
                       const std::vector<Io500Log>& logs) {
  const std::vector<SummaryLine> lines = readSummary(summary, summary_path);
  Io500Import out;
  for (const Io500Log& log : logs) importLog(log, out);
  const std::uint32_t ranks = ranksOf(out);
  if (ranks == 0) {
    throw ImportError(
        summary_path, 0,
        "no ior or mdtest phase log beside it (ior-easy-write.txt, ...): the rank count is not known");
  }
  DataPathImport bandwidth;
  MetadataImport metadata;
  bandwidth.tool = metadata.tool = std::string(kIo500Tool);
  bandwidth.tool_version = metadata.tool_version = versionOf(summary);
  bandwidth.source = metadata.source = summary_path;
  bandwidth.command_line = metadata.command_line = "io500";
  for (const SummaryLine& s : lines) {
    const std::string operation = s.invalid ? s.phase + " [INVALID]" : s.phase;
    if (s.bandwidth) {
      DataPathRow row;
      row.operation = operation;
      row.clients = ranks;
      row.iterations = 1;
      row.mib_per_s_max = row.mib_per_s_min = row.mib_per_s_mean = s.value * 1024.0;
      bandwidth.rows.push_back(row);
    } else {
      MetadataImportRow row;
      row.operation = operation;
      row.ranks = ranks;
      row.iterations = 1;
      row.ops_per_s_max = row.ops_per_s_min = row.ops_per_s_mean = s.value * 1000.0;
      row.time_s_mean = s.time_s;
      metadata.rows.push_back(row);
    }
  }
  if (!bandwidth.rows.empty()) out.datapath.insert(out.datapath.begin(), std::move(bandwidth));
  if (!metadata.rows.empty()) out.metadata.insert(out.metadata.begin(), std::move(metadata));
  return out;
}

}  // namespace mdbench
