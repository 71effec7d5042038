// Acceptance gates (mdbench check): threshold rules, their outcomes on one configuration, and the JUnit
// XML report that CI dashboards read.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/report/scaling.hpp"
#include "mdbench/util/xml_text.hpp"  // xmlEscape, used by the JUnit writer and its tests

namespace mdbench {

// Exit status of `mdbench check` when every rule could be evaluated and at least one does not hold
// (0, 1 and 2 are as in app.hpp: all hold, a results file cannot be read, bad usage or a bad rule).
inline constexpr int kExitCheckFailed = 3;

// What a rule measures at one point of a series.
enum class Metric : std::uint8_t {
  kRate,           // mean over iterations of the aggregate rate
  kRateMin,        // the worst iteration's aggregate rate
  kRateMax,        // the best iteration's
  kStonewallRate,  // mean rate at the stonewall (mdbench metadata runs that set -W)
  kP50,            // latency percentiles of the merged histograms (mdbench metadata runs)
  kP90,
  kP99,
  kP999,
  kLatencyMax,
  kFailed,    // failed operations summed over iterations (mdbench metadata runs)
  kStall,     // the longest stall of any iteration (schema version 9), in nanoseconds as a latency
  kRecovery,  // the slowest recovery of any injected fault (--fault-at), in nanoseconds as a latency
  // --server-stats: a counter's delta summed over the sources (mean over iterations), or that per client
  // operation (SERIES.server(COUNTER) and SERIES.server(COUNTER)/op; the counter is Rule::counter).
  kServerCounter,
  kServerPerOp,
};

enum class Comparison : std::uint8_t { kGreaterEqual, kLessEqual, kGreater, kLess, kEqual };

// One parsed rule: SERIES[.METRIC][@RANKS] OP VALUE[UNIT]. The limit is in the metric's base unit
// (ops/s or MiB/s, ns, operations); display_unit and display_scale are the unit the rule was written in,
// so that messages show the measured value the way the user wrote the limit.
struct Rule {
  std::string text;    // as written (trimmed): names the rule in messages and in the JUnit report
  std::string origin;  // "FILE:LINE" for a rule from a rules file; empty for --require
  std::string series;  // a phase name or "TOOL:OPERATION"
  Metric metric = Metric::kRate;
  std::uint32_t ranks = 0;  // 0: the rule must hold at every rank count of the series
  Comparison comparison = Comparison::kGreaterEqual;
  double limit = 0.0;
  std::string display_unit;
  std::string counter;         // kServerCounter, kServerPerOp: "mds.request"
  bool limit_is_ops = false;   // kServerCounter compared with the phase's own operations ("== ops")
  double display_scale = 1.0;  // base units per display unit: 1e6 for ms, 1024 for GiB/s
};

// The parts of a rule's subject, SERIES[.METRIC][@RANKS], before anything checks the names: the series
// ("file-create", "ior:write"), the metric ("p99"; empty: the default rate) and the rank count (0: none).
struct RuleSubject {
  std::string_view series;
  std::string_view metric;
  std::uint32_t ranks = 0;
};
// Splits the subject into parts (views into it). Returns the problem: a space, a bad @RANKS, an empty metric.
std::string splitRuleSubject(std::string_view subject, RuleSubject& parts);

// Rules, or every problem found in them: one message each, naming the rule text (and FILE:LINE).
struct RuleParse {
  std::vector<Rule> rules;
  std::vector<std::string> errors;
};

// One rule. origin ("FILE:LINE" or empty) prefixes its error message.
RuleParse parseRule(std::string_view text, const std::string& origin = {});
// A rules file's contents: one rule a line; '#' starts a comment; blank lines are ignored. A file with a
// NUL byte is one error (not a text file); past 20 bad lines the rest are counted, not quoted; a file with
// no rule at all is an error.
RuleParse parseRules(std::string_view contents, const std::string& file_name);

std::string_view metricName(Metric metric);
std::string_view comparisonText(Comparison comparison);

// What became of a rule at one rank count. kNoData is a failure too (a gate never passes for want of
// data), but its own kind: the JUnit failure type "no-data", not "threshold", and NO-DATA on the console.
enum class Verdict : std::uint8_t { kPass, kFail, kNoData };

// One rule at one rank count (or, when there is no count to name, the rule as a whole: ranks 0).
// Members with {} may be left out of designated initializers without a -Wextra warning.
struct Outcome {
  std::string rule;      // Rule::text
  std::string origin{};  // Rule::origin
  std::uint32_t ranks = 0;
  std::string x_unit;  // "ranks" or "clients"
  // The configuration measured, when the files hold several (mdbench runs, and each tool's imports with one
  // command line, are kept apart): its label, "results (mdtest 2)"; empty when there is one.
  std::string configuration{};
  Verdict verdict = Verdict::kFail;
  // Self-describing: "file-create at 2 ranks: 41,234 ops/s, required >= 50,000 ops/s", or which data is
  // missing, where ("file-stat >= 10k: no file-stat results at 8 ranks in a.h5, b.h5").
  std::string message{};
  bool passed() const { return verdict == Verdict::kPass; }
};

// "PASS", "FAIL" or "NO-DATA": how the console and the summary name a verdict.
std::string_view verdictName(Verdict verdict);

// A rule on the rate of a point too short to time (model's rate_timing.hpp): kNoData, "too short to
// time: 26 ops in 812 us" (the default), or judged as any other, the message still saying so
// (--allow-short).
enum class ShortPhases : std::uint8_t { kNoData, kJudged };

// Every rule against the configuration: one outcome per rank count checked. A rule whose series, rank
// count or metric is missing has the verdict kNoData; it never passes for want of data.
std::vector<Outcome> evaluate(const std::vector<Rule>& rules, const Configuration& configuration,
                              ShortPhases short_phases = ShortPhases::kNoData);
// The same over several configurations, kept apart: a rule is evaluated on every configuration that has its
// series (each outcome names its configuration), and has the verdict kNoData when none has.
std::vector<Outcome> evaluate(const std::vector<Rule>& rules,
                              const std::vector<Configuration>& configurations,
                              ShortPhases short_phases = ShortPhases::kNoData);

// The JUnit test case name of an outcome: "RULE @ N ranks" (the rule alone when ranks is 0), followed by
// " [CONFIGURATION]" when the outcome names one.
std::string testcaseName(const Outcome& outcome);

// Everything a JUnit report holds. error: why the results could not be read (then outcomes is empty and
// the report has one erroring test case, so that a dashboard shows the gate as broken, not as absent).
struct JUnitReport {
  std::vector<std::string> files;
  std::vector<std::string> notes;
  std::vector<Outcome> outcomes;
  std::string error;
};

// The common JUnit XML that Jenkins, GitLab and GitHub read (schema: tests/fixtures/junit.xsd).
void writeJUnit(std::ostream& out, const JUnitReport& report);

// `mdbench check FILE... --require RULE ... [--rules FILE] [--junit OUT [--force]]`; runs on one rank.
int runCheck(const std::vector<std::string>& args);

}  // namespace mdbench
