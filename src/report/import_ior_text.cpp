// Importer of IOR's text output (the default summaryFormat): the "Summary of all tests:" table, one row
// per test and operation, its columns found by their names in the table's header line.
#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
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

constexpr std::string_view kExpected = "IOR text output";
constexpr std::string_view kSummaryTitle = "Summary of all tests:";

// The header's column names as IOR 3.x and 4.x print them (ior-output.c); StdDev appears twice, the first
// being that of the bandwidth.
struct Columns {
  std::map<std::string, std::size_t, std::less<>> index;  // first occurrence of each name
  std::size_t count = 0;
};

class IorTextParser : public import_text::TextParser {
 public:
  using TextParser::TextParser;
  DataPathImport parse();

 private:
  void readHeader(std::string_view content);
  std::size_t readSummary(const std::vector<Line>& lines, std::size_t at);
  DataPathRow readRow(const Line& line, const std::vector<std::string_view>& words) const;
  std::size_t column(const Line& line, std::string_view name) const;
  double number(const Line& line, const std::vector<std::string_view>& words, std::string_view name) const;
  std::uint64_t count(const Line& line, const std::vector<std::string_view>& words, std::string_view name,
                      std::uint64_t max) const;

  DataPathImport out_;
  Columns columns_;
  std::optional<std::uint64_t> test_id_;
  std::map<std::uint64_t, std::uint32_t> nodes_of_test_;  // "nodes : N" in each test's Options block
};

std::string_view valueAfterColon(std::string_view content) {
  const std::size_t colon = content.find(':');
  return colon == std::string_view::npos ? std::string_view() : trim(content.substr(colon + 1));
}

void IorTextParser::readHeader(std::string_view content) {
  // "IOR-4.1.0+dev: MPI Coordinated Test of Parallel I/O"
  if (startsWith(content, "IOR-") && content.find(": MPI Coordinated Test") != std::string_view::npos) {
    out_.tool_version = std::string(content.substr(4, content.find(':') - 4));
  } else if (startsWith(content, "Began ") && out_.began.empty()) {
    out_.began = std::string(valueAfterColon(content));
  } else if (startsWith(content, "Command line ") && out_.command_line.empty()) {
    out_.command_line = std::string(valueAfterColon(content));
  } else if (startsWith(content, "TestID ")) {
    test_id_ = import_text::parseCount(valueAfterColon(content));
  } else if (startsWith(content, "nodes ") && test_id_) {
    const std::optional<std::uint64_t> nodes = import_text::parseCount(valueAfterColon(content));
    if (nodes && *nodes <= std::numeric_limits<std::uint32_t>::max())
      nodes_of_test_[*test_id_] = static_cast<std::uint32_t>(*nodes);
  }
}

std::size_t IorTextParser::column(const Line& line, std::string_view name) const {
  const auto it = columns_.index.find(name);
  if (it == columns_.index.end()) {
    fail(line.number, fmt::format("the 'Summary of all tests' header has no '{}' column", name));
  }
  return it->second;
}

double IorTextParser::number(const Line& line, const std::vector<std::string_view>& words,
                             std::string_view name) const {
  const std::string_view word = words[column(line, name)];
  const std::optional<double> value = import_text::parseNumber(word);
  if (!value || *value < 0.0) {
    fail(line.number, fmt::format("{} {}: not a non-negative finite number", name, quoteForMessage(word)));
  }
  return *value;
}

std::uint64_t IorTextParser::count(const Line& line, const std::vector<std::string_view>& words,
                                   std::string_view name, std::uint64_t max) const {
  const std::string_view word = words[column(line, name)];
  const std::optional<std::uint64_t> value = import_text::parseCount(word);
  if (!value || *value > max) {
    fail(line.number, fmt::format("{} {}: not an integer from 0 to {}", name, quoteForMessage(word), max));
  }
  return *value;
}

DataPathRow IorTextParser::readRow(const Line& line, const std::vector<std::string_view>& words) const {
  constexpr std::uint64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
  constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();
  DataPathRow row;
  row.operation = std::string(words[0]);
  row.mib_per_s_max = number(line, words, "Max(MiB)");
  row.mib_per_s_min = number(line, words, "Min(MiB)");
  row.mib_per_s_mean = number(line, words, "Mean(MiB)");
  row.mib_per_s_stddev = number(line, words, "StdDev");
  row.ops_per_s_mean = columns_.index.contains("Mean(OPs)") ? number(line, words, "Mean(OPs)") : 0.0;
  const std::uint64_t tasks = count(line, words, "#Tasks", kMaxU32);
  const std::uint64_t reps = count(line, words, "reps", kMaxU32);
  if (tasks == 0 || reps == 0) fail(line.number, "#Tasks and reps must be at least 1");
  row.clients = static_cast<std::uint32_t>(tasks);
  row.iterations = static_cast<std::uint32_t>(reps);
  if (columns_.index.contains("xsize")) row.transfer_bytes = count(line, words, "xsize", kMaxU64);
  if (columns_.index.contains("blksiz")) row.block_bytes = count(line, words, "blksiz", kMaxU64);
  if (columns_.index.contains("Test#")) {
    const auto it = nodes_of_test_.find(count(line, words, "Test#", kMaxU64));
    if (it != nodes_of_test_.end()) row.nodes = it->second;
  }
  return row;
}

// The title, the header line of column names, then one line per test and operation.
std::size_t IorTextParser::readSummary(const std::vector<Line>& lines, std::size_t at) {
  if (at + 1 >= lines.size() || !startsWith(trim(lines[at + 1].text), "Operation")) {
    fail(lines[at].number, "expected the 'Operation  Max(MiB) ...' header after 'Summary of all tests:'");
  }
  const std::vector<std::string_view> names = import_text::splitWords(lines[at + 1].text);
  columns_ = {};
  columns_.count = names.size();
  for (std::size_t i = 0; i < names.size(); ++i) columns_.index.emplace(std::string(names[i]), i);
  std::size_t i = at + 2;
  for (; i < lines.size(); ++i) {
    const std::vector<std::string_view> words = import_text::splitWords(lines[i].text);
    if (words.empty() || (words[0] != "write" && words[0] != "read")) break;
    if (words.size() != columns_.count) {
      fail(lines[i].number,
           fmt::format("'{}' row has {} columns, the header {}", words[0], words.size(), columns_.count));
    }
    out_.rows.push_back(readRow(lines[i], words));
  }
  if (i == lines.size() && text_.back() != '\n') {
    fail(lines.back().number, "the last summary row has no line end: the output was cut short");
  }
  return i - 1;
}

DataPathImport IorTextParser::parse() {
  import_text::rejectEmptyOrBinary(text_, source_, kExpected);
  out_.tool = "ior";
  const std::vector<Line> lines = import_text::splitLines(text_);
  bool summary = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view content = trim(lines[i].text);
    if (content == kSummaryTitle) {
      i = readSummary(lines, i);
      summary = true;
    } else {
      readHeader(content);
    }
  }
  if (!summary) {
    if (!out_.tool_version.empty()) {
      fail(lines.back().number,
           "IOR output without 'Summary of all tests:': the run ended before its summary");
    }
    fail(1, fmt::format("no 'IOR-...: MPI Coordinated Test' line and no summary, expected {}", kExpected));
  }
  if (out_.rows.empty()) fail(lines.back().number, "the 'Summary of all tests' table has no rows");
  return std::move(out_);
}

}  // namespace

DataPathImport parseIorText(std::string_view text, const std::string& source) {
  return import_text::parseWith<IorTextParser>(text, source);
}

}  // namespace mdbench
