// Text helpers shared by the importers: lines with their numbers, words, checked numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mdbench::import_text {

// One line of the input without its line ending ("\n" or "\r\n"); number is 1-based.
struct Line {
  std::size_t number = 0;
  std::string_view text;
};

std::vector<Line> splitLines(std::string_view text);
std::string_view trim(std::string_view text);
// Words separated by blanks (spaces, tabs).
std::vector<std::string_view> splitWords(std::string_view text);
bool startsWith(std::string_view text, std::string_view prefix);

// A finite number written in decimal or exponent notation; nullopt for anything else, including "nan",
// "inf" and values that overflow a double. Never throws (no std::stod: its exceptions would leak).
std::optional<double> parseNumber(std::string_view word);
// A non-negative integer in decimal that fits in 64 bits; nullopt for anything else.
std::optional<std::uint64_t> parseCount(std::string_view word);

// The 1-based line holding the byte at offset (offsets past the end count as the last line).
std::size_t lineOfOffset(std::string_view text, std::size_t offset);
// The 1-based column of the byte at offset within its line.
std::size_t columnOfOffset(std::string_view text, std::size_t offset);

// Throws ImportError for input no importer can read: empty (or only blanks) and binary data (a NUL byte),
// naming the line. expected says what the caller wanted, e.g. "mdtest output".
void rejectEmptyOrBinary(std::string_view text, const std::string& source, std::string_view expected);

// The text shortened to at most max_chars bytes with non-printable bytes replaced, for quoting input in an
// error message without dumping garbage into a terminal.
std::string quoteForMessage(std::string_view text, std::size_t max_chars = 60);

// What the line-oriented importers (IOzone, mdtest) hold while they read: the whole text, the name of its
// source, and how a problem on a line ends the import.
class TextParser {
 public:
  TextParser(std::string_view text, const std::string& source) : text_(text), source_(source) {}

 protected:
  [[noreturn]] void fail(std::size_t line, const std::string& message) const;

  std::string_view text_;
  const std::string& source_;
};

// Parser(text, source).parse(), with the source named in the import it returns.
template <class Parser>
auto parseWith(std::string_view text, const std::string& source) {
  auto out = Parser(text, source).parse();
  out.source = source;
  return out;
}

}  // namespace mdbench::import_text
