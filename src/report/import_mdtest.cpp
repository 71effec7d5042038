// Importer of mdtest's text output: the SUMMARY rate and SUMMARY time tables of ior 3.2 to 4.x mdtest,
// with --showRankStatistics columns and -f/-l/-s sweeps over rank counts.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "import_text.hpp"
#include "mdbench/model/imported.hpp"
#include "mdbench/model/phase.hpp"

namespace mdbench {
namespace {

using import_text::Line;
using import_text::quoteForMessage;
using import_text::startsWith;
using import_text::trim;

constexpr std::string_view kExpected = "mdtest output";

// mdtest's labels are the phase table's (phaseInfo's mdtest_label; 3.x printed the same words with a colon).
// "Directory read" times an empty loop in mdtest, not a directory read, and "File create (stonewall)" (3.3)
// is not a phase: both keep "".
std::string phaseOf(std::string_view label) {
  for (const Phase phase : kSelectablePhases) {
    const PhaseInfo& info = phaseInfo(phase);
    if (!label.empty() && info.mdtest_label == label && !info.readdir()) return std::string(info.name);
  }
  return "";
}

// Whether `text` is the beginning of an operation's row label, cut short ("Tre", "File cr").
bool cutLabel(std::string_view text) {
  if (text.empty()) return false;
  for (const Phase phase : kSelectablePhases) {
    const std::string_view label = phaseInfo(phase).mdtest_label;
    if (text.size() < label.size() && label.starts_with(text)) return true;
  }
  return false;
}

enum class TableKind { kRate, kTime };

// One row of a SUMMARY table: the last four numbers (the per-iteration Max, Min, Mean, Std Dev) and the
// --showRankStatistics per-rank columns before them. "NA" (3.3's stonewall row) reads as 0.
struct TableRow {
  std::string label;
  std::array<double, 4> values{};
  std::optional<std::array<double, 3>> per_rank;  // --showRankStatistics: per Rank Max, Min, Mean
  std::size_t line = 0;
};

// Rows of one rank count (one "N tasks, M files" line of a sweep, or the whole run), in printed order.
struct Group {
  std::uint32_t ranks = 0;
  std::size_t first_row = 0;  // index in the output's rows where this group starts
  std::uint64_t items = 0;    // "M files/directories": the items each file or directory phase works on
};

// A row's SUMMARY time figures (seconds per phase), for rates derived from -Z output.
struct RowTimes {
  double max = 0.0;
  double min = 0.0;
  std::uint64_t items = 0;  // of the row's group; 0: not printed
  std::size_t line = 0;
};

class MdtestParser : public import_text::TextParser {
 public:
  using TextParser::TextParser;
  MetadataImport parse();

 private:
  void readHeader(const Line& line, std::string_view content);
  std::size_t readTable(const std::vector<Line>& lines, std::size_t at);
  std::optional<TableRow> readRow(const Line& line, std::size_t numbers_expected) const;
  void store(TableKind kind, std::uint32_t iterations, const TableRow& row);
  std::uint32_t ranksFor(std::size_t line) const;

  void deriveRates();

  MetadataImport out_;
  std::vector<RowTimes> times_;       // by row of out_, when a time table was printed
  std::size_t first_time_table_ = 0;  // line of the first SUMMARY time table; 0: none
  bool rate_table_ = false;
  std::uint32_t launched_ranks_ = 0;
  std::uint32_t launched_nodes_ = 0;
  std::optional<Group> group_;
};

std::optional<std::uint32_t> parseU32(std::string_view word) {
  const std::optional<std::uint64_t> value = import_text::parseCount(word);
  if (!value || *value > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
  return static_cast<std::uint32_t>(*value);
}

void MdtestParser::readHeader(const Line& line, std::string_view content) {
  const std::vector<std::string_view> words = import_text::splitWords(content);
  // "mdtest-4.0.0 was launched with 8 total task(s) on 2 node(s)"
  if (startsWith(content, "mdtest-") && content.find(" was launched with ") != std::string_view::npos) {
    if (words.size() < 10) fail(line.number, "the 'was launched with' line is cut short");
    const std::optional<std::uint32_t> ranks = parseU32(words[4]);
    const std::optional<std::uint32_t> nodes = parseU32(words[8]);
    if (!ranks || *ranks == 0 || !nodes) {
      fail(line.number,
           fmt::format("task or node count in {} is not a positive integer", quoteForMessage(content)));
    }
    out_.tool_version = std::string(words[0].substr(std::string_view("mdtest-").size()));
    launched_ranks_ = *ranks;
    launched_nodes_ = *nodes;
  } else if (startsWith(content, "Command line used:")) {
    out_.command_line = std::string(trim(content.substr(std::string_view("Command line used:").size())));
  } else if (startsWith(content, "-- started at ") && content.size() > 17 && content.ends_with(" --")) {
    out_.began = std::string(trim(content.substr(14, content.size() - 17)));
  } else if (words.size() >= 4 && words[1] == "tasks," &&
             words[0].find_first_not_of("0123456789") == std::string_view::npos) {
    // "4 tasks, 200 files/directories" (or "files", "directories", "1 file"): the rank count of the
    // SUMMARY tables that follow, different per step of a -f/-l/-s sweep.
    const std::optional<std::uint32_t> ranks = parseU32(words[0]);
    if (!ranks || *ranks == 0)
      fail(line.number, fmt::format("{} tasks: not a positive task count", quoteForMessage(words[0])));
    // The item count: "200 files/directories", "200 files", "200 directories"; "1 file" (-S) is one shared
    // file, not a count of operations.
    const std::optional<std::uint64_t> items = words[3].starts_with("file") && words[3] != "file"
                                                   ? import_text::parseCount(words[2])
                                               : words[3] == "directories" ? import_text::parseCount(words[2])
                                                                           : std::nullopt;
    group_ = Group{*ranks, out_.rows.size(), items.value_or(0)};
  }
}

std::uint32_t MdtestParser::ranksFor(std::size_t line) const {
  if (group_) return group_->ranks;
  if (launched_ranks_ > 0) return launched_ranks_;
  fail(line,
       "SUMMARY table without a rank count: expected the 'mdtest-... was launched with N total task(s)' line "
       "or an 'N tasks, M files/directories' line before it");
}

// A table row, or nullopt when the line holds no number (the line after the table).
std::optional<TableRow> MdtestParser::readRow(const Line& line, std::size_t numbers_expected) const {
  const std::vector<std::string_view> words = import_text::splitWords(line.text);
  std::size_t first_value = 0;
  while (first_value < words.size() && words[first_value] != "NA" &&
         !import_text::parseNumber(words[first_value])) {
    ++first_value;
  }
  TableRow row;
  row.line = line.number;
  for (std::size_t i = 0; i < first_value; ++i) {
    if (words[i] == ":") continue;  // 3.3 pads its labels before a lone colon
    if (!row.label.empty()) row.label += ' ';
    row.label += words[i];
  }
  if (!row.label.empty() && row.label.back() == ':') row.label.pop_back();  // 3.2: "Directory creation:"
  if (first_value == words.size()) {
    // An operation's row without its numbers was cut (or garbled), not the end of the table.
    if (!phaseOf(row.label).empty()) {
      fail(line.number, fmt::format("'{}' row has no numbers, expected {}: the output was cut short",
                                    row.label, numbers_expected));
    }
    return std::nullopt;
  }
  // A sweep prints its next "N tasks, M files" line right after the last table of the previous step.
  if (words.size() >= 2 && words[1] == "tasks,") return std::nullopt;
  if (row.label.empty()) fail(line.number, "SUMMARY row without an operation label");
  const std::size_t count = words.size() - first_value;
  if (count != numbers_expected) {
    fail(line.number,
         fmt::format("'{}' row has {} numbers, expected {}", row.label, count, numbers_expected));
  }
  const auto number = [&](std::string_view word) {
    if (word == "NA") return 0.0;
    const std::optional<double> value = import_text::parseNumber(word);
    if (!value || *value < 0.0) {
      fail(line.number,
           fmt::format("'{}' row: {} is not a non-negative finite number", row.label, quoteForMessage(word)));
    }
    return *value;
  };
  for (std::size_t i = 0; i < 4; ++i) row.values[i] = number(words[words.size() - 4 + i]);
  if (count == 7) {
    row.per_rank.emplace();
    for (std::size_t i = 0; i < 3; ++i) (*row.per_rank)[i] = number(words[first_value + i]);
  }
  return row;
}

// Rates and times of the same operation and rank count land in one row.
void MdtestParser::store(TableKind kind, std::uint32_t iterations, const TableRow& row) {
  const std::size_t first = group_ ? group_->first_row : 0;
  MetadataImportRow* target = nullptr;
  for (std::size_t i = first; i < out_.rows.size(); ++i) {
    if (out_.rows[i].operation == row.label) target = &out_.rows[i];
  }
  if (target == nullptr) {
    MetadataImportRow fresh;
    fresh.phase = phaseOf(row.label);
    fresh.operation = row.label;
    fresh.ranks = ranksFor(row.line);
    fresh.nodes =
        fresh.ranks == launched_ranks_ ? launched_nodes_ : 0;  // a sweep step's node count is not printed
    fresh.iterations = iterations;
    out_.rows.push_back(fresh);
    target = &out_.rows.back();
  }
  if (kind == TableKind::kRate) {
    target->ops_per_s_max = row.values[0];
    target->ops_per_s_min = row.values[1];
    target->ops_per_s_mean = row.values[2];
    target->ops_per_s_stddev = row.values[3];
    if (row.per_rank) {
      target->has_rank_statistics = true;
      target->per_rank_ops_per_s_max = (*row.per_rank)[0];
      target->per_rank_ops_per_s_min = (*row.per_rank)[1];
      target->per_rank_ops_per_s_mean = (*row.per_rank)[2];
    }
  } else {
    // mdtest 4.x labels this table "in ms/op", but it prints each phase's duration in seconds (the time
    // field of its results); 3.x printed the same values as "SUMMARY time".
    target->time_s_mean = row.values[2];
    times_.resize(out_.rows.size());
    times_[static_cast<std::size_t>(target - out_.rows.data())] =
        RowTimes{row.values[0], row.values[1], group_ ? group_->items : 0, row.line};
  }
}

// "SUMMARY rate: (of 3 iterations)", "SUMMARY rate (in ops/sec): (of 3 iterations)", "SUMMARY time ...",
// then the "Operation ... Max Min Mean Std Dev" header, a dashed line and one row per operation.
std::size_t MdtestParser::readTable(const std::vector<Line>& lines, std::size_t at) {
  const Line& title = lines[at];
  const std::string_view content = trim(title.text);
  const TableKind kind = startsWith(content, "SUMMARY rate") ? TableKind::kRate : TableKind::kTime;
  if (kind == TableKind::kTime && !startsWith(content, "SUMMARY time")) {
    fail(title.number,
         fmt::format("{}: expected 'SUMMARY rate' or 'SUMMARY time'", quoteForMessage(content)));
  }
  if (kind == TableKind::kRate) rate_table_ = true;
  if (kind == TableKind::kTime && first_time_table_ == 0) first_time_table_ = title.number;
  const std::size_t of = content.find("(of ");
  const std::vector<std::string_view> words = of == std::string_view::npos
                                                  ? std::vector<std::string_view>{}
                                                  : import_text::splitWords(content.substr(of + 4));
  const std::optional<std::uint32_t> iterations = words.size() == 2 ? parseU32(words[0]) : std::nullopt;
  if (!iterations || *iterations == 0 || words[1] != "iterations)") {
    fail(title.number, "SUMMARY line without '(of N iterations)', N at least 1");
  }
  if (at + 2 >= lines.size() || !startsWith(trim(lines[at + 1].text), "Operation") ||
      !startsWith(trim(lines[at + 2].text), "---")) {
    fail(std::min(title.number + 1, lines.back().number),
         "expected the 'Operation  Max  Min  Mean  Std Dev' header and its dashed line after SUMMARY");
  }
  // --showRankStatistics adds per-rank Max, Min and Mean before the per-iteration columns.
  const bool rank_columns = lines[at + 1].text.find("per Rank") != std::string_view::npos;
  const std::size_t numbers_expected = rank_columns ? 7 : 4;
  std::size_t i = at + 3;
  std::vector<std::string> labels;
  for (; i < lines.size(); ++i) {
    const std::optional<TableRow> row = readRow(lines[i], numbers_expected);
    if (!row) break;
    if (std::find(labels.begin(), labels.end(), row->label) != labels.end()) {
      fail(row->line, fmt::format("'{}' appears twice in one SUMMARY table", row->label));
    }
    labels.push_back(row->label);
    store(kind, *iterations, *row);
  }
  if (labels.empty()) fail(lines[std::min(at + 3, lines.size() - 1)].number, "SUMMARY table has no rows");
  // mdtest ends every line; a last row without its end was cut, and a cut number reads as a smaller one. A
  // last line that is the start of an operation's label ("Tre") is a row cut in its label.
  if (text_.back() != '\n' &&
      (i == lines.size() || (i + 1 == lines.size() && cutLabel(trim(lines[i].text))))) {
    fail(lines.back().number, "the last SUMMARY row has no line end: the output was cut short");
  }
  return i - 1;
}

// -Z alone prints each phase's time (the slowest rank's, in seconds to the millisecond) and no rate.
// mdtest's rate of an iteration is the items of the step over that time (the slowest rank's rate times the
// ranks), so the fastest and slowest iterations' rates are exact; the mean and deviation are known for up
// to two iterations only. A row is derived when its time is at least kMinTime (the rounding then moves the
// rate by at most 0.5%); a row of 0.000 (a phase not run, or one under 0.5 ms) is left out with the tree
// rows (their item count is not printed). Anything else is refused: a rate of 0 or a guess never goes in.
void MdtestParser::deriveRates() {
  constexpr double kMinTime = 0.1;
  const auto refuse = [&](std::size_t line, const std::string& why) {
    fail(line,
         fmt::format("only a SUMMARY time table (mdtest -Z) and {}: rates cannot be derived; run mdtest "
                     "with -P (rates and times) or without -Z",
                     why));
  };
  if (out_.command_line.find("-W") != std::string::npos)
    refuse(first_time_table_, "a stonewall (-W): the items each phase did are not printed");
  times_.resize(out_.rows.size());
  std::vector<MetadataImportRow> derived;
  for (std::size_t i = 0; i < out_.rows.size(); ++i) {
    MetadataImportRow row = out_.rows[i];
    const RowTimes& t = times_[i];
    if (t.max == 0.0 || startsWith(row.operation, "Tree ")) continue;
    if (t.items == 0) refuse(t.line, "no 'N tasks, M files/directories' line giving the item count");
    if (t.min < kMinTime) {
      refuse(t.line, fmt::format("'{}' took {:.3f} s, under the {} s that keep the rounding under 0.5%",
                                 row.operation, t.min, kMinTime));
    }
    if (row.iterations > 2)
      refuse(t.line, fmt::format("{} iterations (the mean rate needs each one's time)", row.iterations));
    const auto items = static_cast<double>(t.items);
    row.ops_per_s_max = items / t.min;
    row.ops_per_s_min = items / t.max;
    row.ops_per_s_mean =
        row.iterations == 1 ? row.ops_per_s_max : (row.ops_per_s_max + row.ops_per_s_min) / 2;
    row.ops_per_s_stddev =
        row.iterations == 1 ? 0.0 : (row.ops_per_s_max - row.ops_per_s_min) / std::sqrt(2.0);
    derived.push_back(std::move(row));
  }
  if (derived.empty()) refuse(first_time_table_, "every time 0.000 (phases under 0.5 ms or not run)");
  out_.rows = std::move(derived);
}

MetadataImport MdtestParser::parse() {
  import_text::rejectEmptyOrBinary(text_, source_, kExpected);
  out_.tool = "mdtest";
  const std::vector<Line> lines = import_text::splitLines(text_);
  bool tables = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view content = trim(lines[i].text);
    if (startsWith(content, "SUMMARY ")) {
      i = readTable(lines, i);
      tables = true;
    } else {
      readHeader(lines[i], content);
    }
  }
  if (!tables) {
    if (launched_ranks_ > 0) {
      fail(lines.back().number, "mdtest output without a SUMMARY table: the run ended before its summary");
    }
    fail(1,
         fmt::format("no 'mdtest-... was launched with' line and no SUMMARY table, expected {}", kExpected));
  }
  if (!rate_table_) deriveRates();
  // mdtest prints a row of zeros for every operation of its fixed list, also those the options left out
  // (-F, -D, -C, -T, -r ...); keeping them would import phases that never ran as measured at 0 ops/s.
  std::vector<MetadataImportRow> ran;
  for (MetadataImportRow& row : out_.rows) {
    if (row.ops_per_s_max > 0.0 || row.ops_per_s_mean > 0.0 || row.time_s_mean > 0.0)
      ran.push_back(std::move(row));
  }
  if (ran.empty()) fail(lines.back().number, "every SUMMARY row is 0: no operation ran");
  out_.rows = std::move(ran);
  return std::move(out_);
}

}  // namespace

MetadataImport parseMdtest(std::string_view text, const std::string& source) {
  return import_text::parseWith<MdtestParser>(text, source);
}

}  // namespace mdbench
