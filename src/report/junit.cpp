// The JUnit XML report of mdbench check: the common dialect Jenkins, GitLab and GitHub read, described by
// tests/fixtures/junit.xsd.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "mdbench/report/check.hpp"
#include "mdbench/util/xml_text.hpp"

namespace mdbench {
namespace {

constexpr std::string_view kSuiteName = "mdbench check";
constexpr std::string_view kClassName = "mdbench.check";
std::string count(std::size_t n) { return std::to_string(n); }

void property(std::ostream& out, std::string_view name, std::string_view value) {
  out << "      <property name=\"" << xmlEscape(name) << "\" value=\"" << xmlEscape(value) << "\"/>\n";
}

void testcase(std::ostream& out, const Outcome& outcome) {
  out << "    <testcase classname=\"" << kClassName << "\" name=\"" << xmlEscape(testcaseName(outcome))
      << "\" time=\"0\">\n";
  if (!outcome.passed()) {
    // The details name where the rule came from, which the one-line message leaves out.
    const std::string details =
        fmt::format("rule: {}{}\n{}", outcome.rule, outcome.origin.empty() ? "" : " (" + outcome.origin + ")",
                    outcome.message);
    // A dashboard can tell a gate that was missed from one that had nothing to measure.
    const std::string_view type = outcome.verdict == Verdict::kNoData ? "no-data" : "threshold";
    out << "      <failure message=\"" << xmlEscape(outcome.message) << "\" type=\"" << type << "\">"
        << xmlEscape(details) << "</failure>\n";
  }
  // Dashboards show system-out for passing cases too: the measured value, not only a green tick.
  out << "      <system-out>" << xmlEscape(outcome.message) << "</system-out>\n";
  out << "    </testcase>\n";
}

}  // namespace

std::string testcaseName(const Outcome& outcome) {
  const std::string where = outcome.configuration.empty() ? "" : fmt::format(" [{}]", outcome.configuration);
  if (outcome.ranks == 0) return outcome.rule + where;
  return fmt::format("{} @ {} {}{}", outcome.rule, outcome.ranks, outcome.x_unit, where);
}

void writeJUnit(std::ostream& out, const JUnitReport& report) {
  const std::size_t failures = static_cast<std::size_t>(std::count_if(
      report.outcomes.begin(), report.outcomes.end(), [](const Outcome& o) { return !o.passed(); }));
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
