// The JUnit XML report of mdbench check: the common dialect Jenkins, GitLab and GitHub read, described by
// tests/fixtures/junit.xsd.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "mdbench/check.hpp"

namespace mdbench {
namespace {

constexpr std::string_view kSuiteName = "mdbench check";
constexpr std::string_view kClassName = "mdbench.check";
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence at the start of text (0: invalid). Overlong forms, surrogates and
// code points past U+10FFFF are invalid, as in XML.
std::size_t utf8Length(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  char32_t code = 0;
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i) & 0x3F);
  }
  const bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  // U+FFFE and U+FFFF are not XML characters either.
  if (overlong || surrogate || code > 0x10FFFF || code == 0xFFFE || code == 0xFFFF) return 0;
  return length;
}

std::string count(std::size_t n) { return std::to_string(n); }

void property(std::ostream& out, std::string_view name, std::string_view value) {
  out << "      <property name=\"" << xmlEscape(name) << "\" value=\"" << xmlEscape(value) << "\"/>\n";
}

void testcase(std::ostream& out, const Outcome& outcome) {
  out << "    <testcase classname=\"" << kClassName << "\" name=\"" << xmlEscape(testcaseName(outcome))
      << "\" time=\"0\">\n";
  if (!outcome.passed) {
    // The details name where the rule came from, which the one-line message leaves out.
    const std::string details =
        fmt::format("rule: {}{}\n{}", outcome.rule, outcome.origin.empty() ? "" : " (" + outcome.origin + ")",
                    outcome.message);
    out << "      <failure message=\"" << xmlEscape(outcome.message) << "\" type=\"threshold\">"
        << xmlEscape(details) << "</failure>\n";
  }
  // Dashboards show system-out for passing cases too: the measured value, not only a green tick.
  out << "      <system-out>" << xmlEscape(outcome.message) << "</system-out>\n";
  out << "    </testcase>\n";
}

}  // namespace

std::string xmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const char c = text[0];
    const std::size_t length = utf8Length(text);
    if (length == 0) {
      out += kReplacement;
      text.remove_prefix(1);
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      // Character references, so that attribute values keep their line breaks and tabs.
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      case '\t':
        out += "&#9;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += kReplacement;
        } else {
          out.append(text.substr(0, length));
        }
    }
    text.remove_prefix(length);
  }
  return out;
}

std::string testcaseName(const Outcome& outcome) {
  if (outcome.ranks == 0) return outcome.rule;
  return fmt::format("{} @ {} {}", outcome.rule, outcome.ranks, outcome.x_unit);
}

void writeJUnit(std::ostream& out, const JUnitReport& report) {
  const std::size_t failures = static_cast<std::size_t>(std::count_if(
      report.outcomes.begin(), report.outcomes.end(), [](const Outcome& o) { return !o.passed; }));
  const std::size_t errors = report.error.empty() ? 0 : 1;
  const std::size_t tests = report.outcomes.size() + errors;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"" << kSuiteName << "\" tests=\"" << count(tests) << "\" failures=\""
      << count(failures) << "\" errors=\"" << count(errors) << "\" time=\"0\">\n";
  out << "  <testsuite name=\"" << kSuiteName << "\" tests=\"" << count(tests) << "\" failures=\""
      << count(failures) << "\" errors=\"" << count(errors) << "\" skipped=\"0\" time=\"0\">\n";
  out << "    <properties>\n";
  for (const std::string& file : report.files) property(out, "file", file);
  for (const std::string& note : report.notes) property(out, "note", note);
  out << "    </properties>\n";
  if (!report.error.empty()) {
    out << "    <testcase classname=\"" << kClassName << "\" name=\"read results files\" time=\"0\">\n"
        << "      <error message=\"" << xmlEscape(report.error) << "\" type=\"results-file\">"
        << xmlEscape(report.error) << "</error>\n"
        << "    </testcase>\n";
  }
  for (const Outcome& outcome : report.outcomes) testcase(out, outcome);
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace mdbench
