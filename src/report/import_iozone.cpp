// Importer of IOzone's throughput-mode text output (iozone -t N, or -l/-u for a range of client counts).
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "import_text.hpp"
#include "mdbench/model/imported.hpp"

namespace mdbench {
namespace {

using import_text::Line;
using import_text::quoteForMessage;
using import_text::startsWith;
using import_text::trim;

constexpr std::string_view kExpected = "IOzone throughput-mode output (iozone -t N or -l/-u)";
constexpr std::string_view kChildren = "Children see throughput for";
constexpr double kKiBPerMiB = 1024.0;

// IOzone's test names as printed in "Children see throughput for N <name> = ..." (iozone.c, every
// throughput test), and the operation names the import stores.
struct TestName {
  std::string_view printed;
  std::string_view operation;
};
constexpr std::array<TestName, 13> kTestNames = {{
    {"initial writers", "initial-write"},
    {"rewriters", "rewrite"},
    {"readers", "read"},
    {"re-readers", "re-read"},
    {"reverse readers", "reverse-read"},
    {"stride readers", "stride-read"},
    {"random readers", "random-read"},
    {"mixed workload", "mixed"},
    {"random writers", "random-write"},
    {"pwrite writers", "pwrite"},
    {"pread readers", "pread"},
    {"fwriters", "fwrite"},
    {"freaders", "fread"},
}};

// A name from a newer IOzone this table does not know is still stored, with its blanks as dashes, so an
// import never drops a measurement.
std::string operationOf(std::string_view printed) {
  for (const TestName& name : kTestNames) {
    if (name.printed == printed) return std::string(name.operation);
  }
  std::string operation(printed);
  for (char& c : operation) {
    if (c == ' ') c = '-';
  }
  return operation;
}

// Sizes the run states for every client count ("Each process writes a 4096 kByte file in 64 kByte
// records"), falling back on the option echo in the header ("Record Size 64 kB", "File size set to").
struct Sizes {
  std::uint64_t record_bytes = 0;
  std::uint64_t file_bytes = 0;
};

class IozoneParser : public import_text::TextParser {
 public:
  using TextParser::TextParser;

  DataPathImport parse();

 private:
  std::uint64_t kibToBytes(const Line& line, std::string_view word, std::string_view what) const;
  void readHeader(const Line& line, std::string_view content);
  void readEachWrites(const Line& line, const std::vector<std::string_view>& words);
  std::size_t readBlock(const std::vector<Line>& lines, std::size_t at);
  double readValue(const Line& line, std::string_view after_equals, std::string_view what,
                   std::string& unit) const;

  DataPathImport out_;
  Sizes header_;
  std::optional<Sizes> current_;
};

std::uint64_t IozoneParser::kibToBytes(const Line& line, std::string_view word, std::string_view what) const {
  const std::optional<std::uint64_t> kib = import_text::parseCount(word);
  if (!kib || *kib > std::numeric_limits<std::uint64_t>::max() / 1024) {
    fail(line.number,
         fmt::format("{} {} is not a size in kB that fits in 64 bits", what, quoteForMessage(word)));
  }
  return *kib * 1024;
}

void IozoneParser::readHeader(const Line& line, std::string_view content) {
  const std::vector<std::string_view> words = import_text::splitWords(content);
  if (startsWith(content, "Version $Revision:") && words.size() >= 3) {
    out_.tool_version = std::string(words[2]);
  } else if (startsWith(content, "Command line used:")) {
    out_.command_line = std::string(trim(content.substr(std::string_view("Command line used:").size())));
  } else if (startsWith(content, "Run began:")) {
    out_.began = std::string(trim(content.substr(std::string_view("Run began:").size())));
  } else if (startsWith(content, "Record Size ") && words.size() >= 3) {
    header_.record_bytes = kibToBytes(line, words[2], "record size");
  } else if (startsWith(content, "File size set to ") && words.size() >= 5) {
    header_.file_bytes = kibToBytes(line, words[4], "file size");
  } else if (startsWith(content, "Each ") && words.size() >= 3 && words[2] == "writes") {
    readEachWrites(line, words);
  }
}

// "Each process writes a 4096 kByte file in 64 kByte records" (or "in telemetry controlled records").
void IozoneParser::readEachWrites(const Line& line, const std::vector<std::string_view>& words) {
  Sizes sizes;
  if (words.size() >= 5) sizes.file_bytes = kibToBytes(line, words[4], "file size");
  if (words.size() >= 11 && words[10] == "records" && words[8] != "telemetry") {
    sizes.record_bytes = kibToBytes(line, words[8], "record size");
  }
  current_ = sizes;
}

// The number after '=' and its unit: "3295072.75 kB/sec" (older IOzone: "KB/sec"; -O: "ops/sec").
double IozoneParser::readValue(const Line& line, std::string_view after_equals, std::string_view what,
                               std::string& unit) const {
  const std::vector<std::string_view> words = import_text::splitWords(after_equals);
  if (words.size() != 2) {
    fail(line.number, fmt::format("{} line has {}, expected a number and a unit", what,
                                  quoteForMessage(trim(after_equals))));
  }
  const std::optional<double> value = import_text::parseNumber(words[0]);
  if (!value || *value < 0.0) {
    fail(line.number,
         fmt::format("{} is {}, expected a non-negative finite number", what, quoteForMessage(words[0])));
  }
  unit = std::string(words[1]);
  return *value;
}

// One "Children see throughput for N <test> = X kB/sec" block; returns the index of its last line. IOzone
// ends every block with "Min xfer": a block without it was cut short.
std::size_t IozoneParser::readBlock(const std::vector<Line>& lines, std::size_t at) {
  const Line& line = lines[at];
  const std::string_view content = trim(line.text);
  const std::size_t equals = content.find('=');
  if (equals == std::string_view::npos)
    fail(line.number, "'Children see throughput' line has no '=', cut short?");
  const std::vector<std::string_view> words =
      import_text::splitWords(content.substr(kChildren.size(), equals - kChildren.size()));
  if (words.size() < 2) fail(line.number, "'Children see throughput' line names no client count and test");
  const std::optional<std::uint64_t> clients = import_text::parseCount(words[0]);
  if (!clients || *clients == 0 || *clients > std::numeric_limits<std::uint32_t>::max()) {
    fail(line.number,
         fmt::format("client count {} is not a positive 32-bit integer", quoteForMessage(words[0])));
  }
  std::string printed(words[1]);
  for (std::size_t i = 2; i < words.size(); ++i) printed += " " + std::string(words[i]);

  std::string unit;
  const double value =
      readValue(line, content.substr(equals + 1), fmt::format("'{}' throughput", printed), unit);
  DataPathRow row;
  row.operation = operationOf(printed);
  row.clients = static_cast<std::uint32_t>(*clients);
  row.iterations = 1;
  const Sizes sizes = current_.value_or(header_);
  row.transfer_bytes = sizes.record_bytes;
  row.block_bytes = sizes.file_bytes;
  if (unit == "kB/sec" || unit == "KB/sec") {
    // IOzone's "kB" are 1024 bytes; the aggregate of all clients is the only figure per client count.
    row.mib_per_s_mean = value / kKiBPerMiB;
    row.mib_per_s_min = row.mib_per_s_max = row.mib_per_s_mean;
  } else if (unit == "ops/sec") {
    row.ops_per_s_mean = value;  // -O: operations per second; no bandwidth is printed
  } else {
    fail(line.number, fmt::format("unit {}, expected kB/sec or ops/sec", quoteForMessage(unit)));
  }

  for (std::size_t i = at + 1; i < lines.size(); ++i) {
    const std::string_view next = trim(lines[i].text);
    if (startsWith(next, kChildren)) break;
    const std::size_t eq = next.find('=');
    if (startsWith(next, "Min xfer")) {
      if (eq == std::string_view::npos) fail(lines[i].number, "'Min xfer' line has no '=', cut short?");
      std::string xfer_unit;
      readValue(lines[i], next.substr(eq + 1), "'Min xfer'", xfer_unit);
      out_.rows.push_back(std::move(row));
      return i;
    }
    // The per-client lines in between are checked for well-formed numbers but not stored: the aggregate
    // is what compares across tools, and IOzone's per-client minimum is 0 for a client stopped early.
    if (startsWith(next, "Parent sees") || startsWith(next, "Min throughput") ||
        startsWith(next, "Max throughput") || startsWith(next, "Avg throughput")) {
      if (eq == std::string_view::npos)
        fail(lines[i].number, fmt::format("{} has no '=', cut short?", quoteForMessage(next)));
      std::string other_unit;
      readValue(lines[i], next.substr(eq + 1), quoteForMessage(trim(next.substr(0, eq))), other_unit);
    }
  }
  fail(line.number, fmt::format("'{}' block for {} clients has no 'Min xfer' line: the output was cut short",
                                printed, row.clients));
}

DataPathImport IozoneParser::parse() {
  import_text::rejectEmptyOrBinary(text_, source_, kExpected);
  out_.tool = "iozone";
  const std::vector<Line> lines = import_text::splitLines(text_);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view content = trim(lines[i].text);
    if (startsWith(content, kChildren)) {
      i = readBlock(lines, i);
    } else {
      readHeader(lines[i], content);
    }
  }
  if (out_.rows.empty()) {
    const bool banner = text_.find("Iozone: Performance Test of File I/O") != std::string_view::npos;
    fail(banner ? lines.back().number : 1,
         banner
             ? "IOzone output without any 'Children see throughput' block: expected throughput mode (-t N or "
               "-l/-u); auto mode tables are not imported"
             : fmt::format("no 'Children see throughput' line, expected {}", kExpected));
  }
  if (text_.back() != '\n') {
    // IOzone ends every line; a last line without its end was cut, and a cut number reads as a smaller one.
    const std::string_view last = trim(lines.back().text);
    if (startsWith(last, "Min xfer") || startsWith(last, kChildren)) {
      fail(lines.back().number, "the last line has no line end: the output was cut short");
    }
  }
  return std::move(out_);
}

}  // namespace

DataPathImport parseIozone(std::string_view text, const std::string& source) {
  return import_text::parseWith<IozoneParser>(text, source);
}

}  // namespace mdbench
