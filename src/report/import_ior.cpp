// Importer of IOR's JSON summary (ior -O summaryFormat=JSON, to stdout or to -O summaryFile=).
#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "import_text.hpp"
#include "mdbench/model/imported.hpp"

namespace mdbench {
namespace {

using json = nlohmann::json;
using import_text::lineOfOffset;

constexpr std::string_view kExpected = "IOR JSON output (ior -O summaryFormat=JSON)";

// Where the JSON object starts: IOR writes its opening brace first on a line. In a stdout capture,
// launcher banners or warnings may come before it (and after its closing brace, see parseObject).
std::size_t objectStart(std::string_view text, const std::string& source) {
  for (const import_text::Line& line : import_text::splitLines(text)) {
    const std::string_view content = import_text::trim(line.text);
    if (!content.empty() && content.front() == '{') {
      return static_cast<std::size_t>(line.text.data() - text.data()) + line.text.find('{');
    }
  }
  throw ImportError(source, 1, fmt::format("no JSON object found, expected {}", kExpected));
}

std::string shortReason(const std::string& what) {
  const std::size_t column = what.find("column ");
  const std::size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

// nlohmann reports the byte where it stopped within what it parsed; the error names that line of the file.
[[noreturn]] void failParse(std::string_view text, std::size_t begin, const json::parse_error& e,
                            const std::string& source) {
  const std::size_t at = begin + (e.byte == 0 ? 0 : e.byte - 1);
  throw ImportError(source, lineOfOffset(text, at),
                    fmt::format("invalid JSON at column {}: {}", import_text::columnOfOffset(text, at),
                                import_text::quoteForMessage(shortReason(e.what()), 200)));
}

// Number overflow (a literal such as 1e999) carries no position; the line is that of the literal it quotes.
[[noreturn]] void failOther(std::string_view text, std::size_t begin, const json::exception& e,
                            const std::string& source) {
  const std::string what = e.what();
  std::size_t line = 0;
  const std::size_t quote = what.find('\'');
  const std::size_t close = quote == std::string::npos ? std::string::npos : what.find('\'', quote + 1);
  if (close != std::string::npos && close > quote + 1) {
    const std::size_t found = text.find(what.substr(quote + 1, close - quote - 1), begin);
    if (found != std::string_view::npos) line = lineOfOffset(text, found);
  }
  throw ImportError(source, line, fmt::format("invalid JSON: {}", import_text::quoteForMessage(what, 200)));
}

// IOR's summary nests a few levels and holds a few values per test. nlohmann's tree costs some 50 bytes per
// nesting level or value, so a crafted input within the size cap (64 MiB of "[[[[" or of "0,0,0") would take
// gigabytes: its shape is checked first, by one pass over the text that allocates nothing.
constexpr std::size_t kMaxJsonDepth = 64;
constexpr std::size_t kMaxJsonValues = 4u << 20;

void checkShape(std::string_view text, std::size_t begin, const std::string& source) {
  std::size_t depth = 0;
  std::size_t values = 0;
  bool in_string = false;
  for (std::size_t i = begin; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        throw ImportError(source, lineOfOffset(text, i),
                          fmt::format("JSON nested deeper than {} levels: not {}", kMaxJsonDepth, kExpected));
      }
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    }
    if ((c == ',' || c == '[' || c == '{') && ++values > kMaxJsonValues) {
      throw ImportError(source, lineOfOffset(text, i),
                        fmt::format("JSON with more than {} values: not {}", kMaxJsonValues, kExpected));
    }
  }
}

json parseObject(std::string_view text, const std::string& source) {
  const std::size_t begin = objectStart(text, source);
  const std::string_view body = text.substr(begin);
  checkShape(text, begin, source);
  try {
    try {
      return json::parse(body.begin(), body.end());
    } catch (const json::parse_error& e) {
      // A complete object followed by other text (a launcher's messages after IOR's output): parse again up
      // to the last closing brace before the point where nlohmann met the text. A file cut inside the
      // object fails differently ("unexpected end of input") and is reported where it ends.
      if (std::string_view(e.what()).find("expected end of input") == std::string_view::npos) throw;
      const std::size_t close = body.rfind('}', e.byte == 0 ? 0 : e.byte - 1);
      if (close == std::string_view::npos) throw;
      try {
        return json::parse(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(close) + 1);
      } catch (const json::parse_error&) {
        throw e;
      }
    }
  } catch (const json::parse_error& e) {
    failParse(text, begin, e, source);
  } catch (const json::exception& e) {
    failOther(text, begin, e, source);
  }
}

// Reports on one entry of the "summary" array, naming its line: nlohmann keeps no positions, so the line is
// that of the entry's n-th "operation" key after "summary" (IOR prints that key first in every entry).
class EntryReader {
 public:
  EntryReader(const json& entry, std::size_t index, std::size_t line, const std::string& source)
      : entry_(entry), index_(index), line_(line), source_(source) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw ImportError(source_, line_, fmt::format("summary entry {}: {}", index_ + 1, message));
  }

  const json& entry() const { return entry_; }

  const json* find(const char* key) const {
    const auto it = entry_.find(key);
    return it == entry_.end() ? nullptr : &*it;
  }

  double rate(const char* key, bool required) const {
    const json* value = find(key);
    if (value == nullptr) {
      if (required) fail(fmt::format("no '{}', expected a number", key));
      return 0.0;
    }
    // IOR 3.3 and later write an infinite rate (a zero-time phase) as the string "inf".
    if (!value->is_number()) {
      fail(fmt::format(
          "'{}' is {}, expected a finite number", key,
          import_text::quoteForMessage(value->dump(-1, ' ', false, json::error_handler_t::replace))));
    }
    const double number = value->get<double>();
    if (!(number >= 0.0) || number > std::numeric_limits<double>::max()) {
      fail(fmt::format("'{}' is {}, expected a non-negative finite number", key, number));
    }
    return number;
  }

  std::uint64_t count(const char* key, bool required, std::uint64_t max) const {
    const json* value = find(key);
    if (value == nullptr) {
      if (required) fail(fmt::format("no '{}', expected an integer", key));
      return 0;
    }
    if (value->is_number_unsigned() || (value->is_number_integer() && value->get<std::int64_t>() >= 0)) {
      const auto number = value->get<std::uint64_t>();
      if (number <= max) return number;
    }
    fail(fmt::format(
        "'{}' is {}, expected an integer from 0 to {}", key,
        import_text::quoteForMessage(value->dump(-1, ' ', false, json::error_handler_t::replace)), max));
  }

 private:
  const json& entry_;
  std::size_t index_;
  std::size_t line_;
  const std::string& source_;
};

std::size_t entryLine(std::string_view text, std::size_t summary_at, std::size_t index) {
  if (summary_at == std::string_view::npos) return 0;
  std::size_t pos = summary_at;
  for (std::size_t i = 0; i <= index; ++i) {
    pos = text.find("\"operation\"", pos + 1);
    if (pos == std::string_view::npos) return lineOfOffset(text, summary_at);
  }
  return lineOfOffset(text, pos);
}

// IOR's "tasksPerNode" is the task count on node 0 of the whole job, not of the test (a test with fewer
// tasks than the job still shows the job's figure), so the node count comes from the test's own
// Parameters.nodes when the "tests" array has it.
std::uint32_t nodesOfTest(const json& doc, const json& entry, std::uint64_t tasks, std::uint64_t per_node) {
  const auto id = entry.find("TestID");
  const auto tests = doc.find("tests");
  if (id != entry.end() && tests != doc.end() && tests->is_array()) {
    for (const json& test : *tests) {
      if (!test.is_object() || test.value("TestID", json()) != *id) continue;
      const json params = test.value("Parameters", json::object());
      const json nodes = params.is_object() ? params.value("nodes", json()) : json();
      if (nodes.is_number_unsigned() &&
          nodes.get<std::uint64_t>() <= std::numeric_limits<std::uint32_t>::max()) {
        return nodes.get<std::uint32_t>();
      }
    }
  }
  if (per_node > 0 && tasks >= per_node && tasks % per_node == 0)
    return static_cast<std::uint32_t>(tasks / per_node);
  return 0;
}

std::string stringOr(const json& doc, const char* key) {
  const auto it = doc.find(key);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

DataPathRow readEntry(const json& doc, const EntryReader& reader) {
  constexpr std::uint64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
  DataPathRow row;
  const json* operation = reader.find("operation");
  if (operation == nullptr || !operation->is_string()) reader.fail("no 'operation' string");
  row.operation = operation->get<std::string>();
  if (row.operation != "write" && row.operation != "read") {
    reader.fail(fmt::format("operation {}, expected \"write\" or \"read\"",
                            import_text::quoteForMessage(row.operation)));
  }
  const std::uint64_t tasks = reader.count("numTasks", true, kMaxU32);
  if (tasks == 0) reader.fail("'numTasks' is 0, expected at least 1");
  row.clients = static_cast<std::uint32_t>(tasks);
  const std::uint64_t reps = reader.count("repetitions", true, kMaxU32);
  if (reps == 0) reader.fail("'repetitions' is 0, expected at least 1");
  row.iterations = static_cast<std::uint32_t>(reps);
  row.mib_per_s_max = reader.rate("bwMaxMIB", true);
  row.mib_per_s_min = reader.rate("bwMinMIB", true);
  row.mib_per_s_mean = reader.rate("bwMeanMIB", true);
  row.mib_per_s_stddev = reader.rate("bwStdMIB", true);
  row.ops_per_s_mean = reader.rate("OPsMean", false);
  constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();
  row.transfer_bytes = reader.count("transferSize", false, kMaxU64);
  row.block_bytes = reader.count("blockSize", false, kMaxU64);
  row.nodes = nodesOfTest(doc, reader.entry(), tasks, reader.count("tasksPerNode", false, kMaxU32));
  return row;
}

}  // namespace

DataPathImport parseIorJson(std::string_view text, const std::string& source) {
  import_text::rejectEmptyOrBinary(text, source, kExpected);
  const json doc = parseObject(text, source);
  if (!doc.is_object())
    throw ImportError(source, 1, fmt::format("a JSON {}, expected {}", doc.type_name(), kExpected));
  const auto summary = doc.find("summary");
  if (summary == doc.end() || !summary->is_array()) {
    throw ImportError(source, 1,
                      fmt::format("valid JSON without a \"summary\" array, expected {}", kExpected));
  }
  // The last "summary" key: the command line string may mention the word, the array comes after the tests.
  const std::size_t summary_at = text.rfind("\"summary\"");
  if (summary->empty()) {
    throw ImportError(source, lineOfOffset(text, summary_at),
                      "the \"summary\" array is empty: IOR reported no results");
  }
  DataPathImport out;
  out.tool = "ior";
  out.tool_version = stringOr(doc, "Version");
  out.command_line = stringOr(doc, "Command line");
  out.began = stringOr(doc, "Began");
  out.source = source;
  for (std::size_t i = 0; i < summary->size(); ++i) {
    const json& entry = (*summary)[i];
    const std::size_t line = entryLine(text, summary_at, i);
    if (!entry.is_object()) {
      throw ImportError(
          source, line,
          fmt::format("summary entry {} is a JSON {}, expected an object", i + 1, entry.type_name()));
    }
    const EntryReader reader(entry, i, line, source);
    out.rows.push_back(readEntry(doc, reader));
  }
  return out;
}

}  // namespace mdbench
