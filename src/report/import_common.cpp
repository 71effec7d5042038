// What the importers share: the error type, format sniffing and the text helpers of import_text.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <system_error>

#include "import_text.hpp"
#include "mdbench/model/imported.hpp"

namespace mdbench {
namespace {

std::string importMessage(const std::string& source, std::size_t line, const std::string& message) {
  if (line == 0) return fmt::format("{}: {}", source, message);
  return fmt::format("{}:{}: {}", source, line, message);
}

// Sniffing reads only this much of the head; the tools print their banners within the first lines.
constexpr std::size_t kSniffBytes = 8192;

bool looksLikeIorJson(std::string_view head) {
  // IOR writes "{" alone on the first line of its JSON, then "Version" (3.3 and later) or "Began" (3.2);
  // "tests" follows the header. Any text before the brace (a launcher's banner) is allowed.
  const bool has_brace =
      head.find("{\n") != std::string_view::npos || head.find("{\r\n") != std::string_view::npos;
  const bool has_keys = head.find("\"Began\"") != std::string_view::npos ||
                        head.find("\"Command line\"") != std::string_view::npos ||
                        head.find("\"tests\"") != std::string_view::npos;
  return has_brace && has_keys;
}

}  // namespace

ImportError::ImportError(const std::string& source, std::size_t line, const std::string& message)
    : std::runtime_error(importMessage(source, line, message)), line_(line) {}

std::string detectImportFormat(std::string_view text) {
  const std::string_view head = text.substr(0, std::min(text.size(), kSniffBytes));
  if (head.find('\0') != std::string_view::npos) return "";
  if (looksLikeIorJson(head)) return "ior";
  // The markers below are specific enough to search for in the whole text: a capture may carry a long
  // launcher or job-script preamble before the tool's banner.
  if (head.find("Iozone: Performance Test of File I/O") != std::string_view::npos ||
      text.find("Children see throughput for") != std::string_view::npos) {
    return "iozone";
  }
  if ((head.find("IOR-") != std::string_view::npos &&
       head.find(": MPI Coordinated Test of Parallel I/O") != std::string_view::npos) ||
      text.find("\nSummary of all tests:") != std::string_view::npos) {
    return "ior-text";
  }
  if (head.find("MD-Workbench total objects:") != std::string_view::npos) return "md-workbench";
  if ((head.find("mdtest-") != std::string_view::npos &&
       head.find(" was launched with ") != std::string_view::npos) ||
      text.find("\nSUMMARY rate") != std::string_view::npos) {
    return "mdtest";
  }
  return "";
}

namespace {
constexpr TextFormat kTextFormats[] = {
    {"ior", "ior", parseIorJson, nullptr},
    {"ior-text", "ior", parseIorText, nullptr},
    {"iozone", "iozone", parseIozone, nullptr},
    {"mdtest", "mdtest", nullptr, parseMdtest},
    {"md-workbench", "md-workbench", nullptr, parseMdWorkbench},
};
}  // namespace

std::span<const TextFormat> textFormats() { return kTextFormats; }

std::vector<std::string_view> dataPathTools() {
  std::vector<std::string_view> tools;
  for (const TextFormat& format : kTextFormats) {
    if (format.datapath != nullptr && std::find(tools.begin(), tools.end(), format.option) == tools.end())
      tools.push_back(format.option);
  }
  tools.push_back(kIo500Tool);
  return tools;
}

const TextFormat* findTextFormat(std::string_view name) {
  for (const TextFormat& format : kTextFormats) {
    if (format.name == name) return &format;
  }
  return nullptr;
}

namespace import_text {

std::vector<Line> splitLines(std::string_view text) {
  std::vector<Line> lines;
  std::size_t start = 0;
  std::size_t number = 1;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back({number, line});
    ++number;
    start = end + 1;
  }
  return lines;
}

std::string_view trim(std::string_view text) {
  constexpr std::string_view kBlanks = " \t\r\n\f\v";
  const std::size_t first = text.find_first_not_of(kBlanks);
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of(kBlanks);
  return text.substr(first, last - first + 1);
}

std::vector<std::string_view> splitWords(std::string_view text) {
  constexpr std::string_view kBlanks = " \t\r\f\v";
  std::vector<std::string_view> words;
  std::size_t pos = text.find_first_not_of(kBlanks);
  while (pos != std::string_view::npos) {
    std::size_t end = text.find_first_of(kBlanks, pos);
    if (end == std::string_view::npos) end = text.size();
    words.push_back(text.substr(pos, end - pos));
    pos = text.find_first_not_of(kBlanks, end);
  }
  return words;
}

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::optional<double> parseNumber(std::string_view word) {
  if (word.empty()) return std::nullopt;
  // from_chars takes no leading '+'; the tools never print one, but a hand-edited file might.
  if (word.front() == '+') word.remove_prefix(1);
  // Only digits, sign, point and exponent: this keeps out "inf", "nan" and hex floats before parsing.
  if (word.find_first_not_of("0123456789.-eE") != std::string_view::npos) return std::nullopt;
  double value = 0.0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error != std::errc{} || end != word.data() + word.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> parseCount(std::string_view word) {
  if (word.empty() || word.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error != std::errc{} || end != word.data() + word.size()) return std::nullopt;
  return value;
}

std::size_t lineOfOffset(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
  // An offset at the very end of a text that ends with a newline names the last line, not an empty one.
  if (offset == text.size() && offset > 0 && text[offset - 1] == '\n') --line;
  return line;
}

std::size_t columnOfOffset(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::size_t newline = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  if (newline == std::string_view::npos || newline >= offset) return offset + 1;
  return offset - newline;
}

void rejectEmptyOrBinary(std::string_view text, const std::string& source, std::string_view expected) {
  if (trim(text).empty()) throw ImportError(source, 1, fmt::format("empty input, expected {}", expected));
  const std::size_t nul = text.find('\0');
  if (nul != std::string_view::npos) {
    throw ImportError(source, lineOfOffset(text, nul),
                      fmt::format("binary data (a NUL byte at column {}), expected {}",
                                  columnOfOffset(text, nul), expected));
  }
}

std::string quoteForMessage(std::string_view text, std::size_t max_chars) {
  std::string out;
  for (const char c : text.substr(0, max_chars)) {
    const auto byte = static_cast<unsigned char>(c);
    out += (byte >= 0x20 && byte < 0x7f) || c == '\t' ? c : '?';
  }
  if (text.size() > max_chars) out += "...";
  return "'" + out + "'";
}

void TextParser::fail(std::size_t line, const std::string& message) const {
  throw ImportError(source_, line, message);
}

}  // namespace import_text
}  // namespace mdbench
