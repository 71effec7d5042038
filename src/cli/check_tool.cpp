// mdbench check: acceptance gates on results files, for CI. Runs on rank 0 alone.
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <iostream>
#include <sstream>

#include "mdbench/cli/app.hpp"
#include "mdbench/cli/subcommands.hpp"
#include "mdbench/model/rate_timing.hpp"
#include "mdbench/report/check.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"
#include "mdbench/util/diagnostics.hpp"
#include "mdbench/util/file_io.hpp"
#include "tools.hpp"

namespace mdbench {
namespace po = boost::program_options;
namespace {

int usageErrors(const std::vector<std::string>& messages) {
  for (const std::string& message : messages) printCommandError("check", message);
  fmt::print(stderr, "Try 'mdbench check --help'.\n");
  return kExitUsage;
}

// A rules file is a few lines; one this large is not one, and reading it whole would only exhaust memory.
constexpr std::uint64_t kMaxRulesBytes = 1u << 20;
constexpr std::string_view kJUnitRole = "JUnit report";

// Every rule from --require and --rules; problems (bad rules, unreadable rules files) are appended.
std::vector<Rule> collectRules(const std::vector<std::string>& required,
                               const std::vector<std::string>& files, std::vector<std::string>& problems) {
  std::vector<Rule> rules;
  const auto take = [&](RuleParse parsed) {
    rules.insert(rules.end(), parsed.rules.begin(), parsed.rules.end());
    problems.insert(problems.end(), parsed.errors.begin(), parsed.errors.end());
  };
  for (const std::string& text : required) take(parseRule(text));
  for (const std::string& file : files) {
    // Only a regular file is read (file_io.hpp): a FIFO would block until a writer came (a hang in CI),
    // and a directory reads as empty, which would look like "no rule given".
    std::string contents;
    if (const std::string problem = readRegularFile(file, {"rules file", kMaxRulesBytes}, contents);
        !problem.empty()) {
      problems.push_back(fmt::format("--rules: {}", problem));
      continue;
    }
    take(parseRules(contents, file));
  }
  return rules;
}

// The JUnit report's name before anything is read: "" or the problem (a link, FIFO, directory, ... is never
// written to; an existing file only with --force).
std::string checkReportPath(const std::string& path, bool force) {
  const OutputCheck output = checkOutput(path, kJUnitRole);
  if (output.state == OutputState::kRefused) return fmt::format("--junit: {}", output.problem);
  if (output.state == OutputState::kRegularFile && !force) {
    return fmt::format("--junit: {} exists: use --force to replace it", path);
  }
  return {};
}

// Writes the report as a new file renamed into place; without force, a file that appeared since the check
// is kept (and an error). Returns the problem, empty on success.
std::string writeReport(const std::string& path, const JUnitReport& report, bool force) {
  std::ostringstream xml;
  writeJUnit(xml, report);
  return writeFileAtomically(path, xml.str(), force ? Replace::kRegularFile : Replace::kNothing, kJUnitRole);
}

// Every usage problem at once, before any results file is read; the rules in `rules`.
std::vector<std::string> usageProblems(const CheckArgs& a, std::vector<Rule>& rules) {
  std::vector<std::string> problems;
  if (a.specs.empty()) problems.emplace_back("no results file given");
  // A rule given where the files go (`mdbench check run.h5 'file-create >= 50k'`) would be read as a file
  // (its '=' even as a label's): say what it is, when nothing by that name exists and it reads as a rule.
  for (const std::string& spec : a.specs) {
    const RuleParse parsed = parseRule(spec);
    if (!nameExists(spec) && parsed.errors.empty() && !parsed.rules.empty()) {
      problems.push_back(
          fmt::format("'{}' is a rule, not a results file: give it as --require '{}'", spec, spec));
    }
  }
  std::vector<ConfigSpec> specs;
  if (std::string problem = parseConfigSpecs(a.specs, specs); !problem.empty()) {
    problems.push_back(std::move(problem));
  }
  rules = collectRules(a.required, a.rule_files, problems);
  if (rules.empty() && problems.empty())
    problems.emplace_back("no rule given: --require RULE or --rules FILE");
  if (!a.junit_path.empty()) {
    if (std::string problem = checkReportPath(a.junit_path, a.force); !problem.empty()) {
      problems.push_back(std::move(problem));
    }
    std::vector<std::string> inputs = a.rule_files;
    for (const ConfigSpec& spec : specs) inputs.insert(inputs.end(), spec.files.begin(), spec.files.end());
    if (std::string problem = outputIsAnInput(a.junit_path, inputs, kJUnitRole); !problem.empty()) {
      problems.push_back(fmt::format("--junit: {}", problem));
    }
  }
  if (a.force && a.junit_path.empty()) problems.emplace_back("--force without --junit: nothing to replace");
  return problems;
}

// The configurations checked. Each spec (FILE, or LABEL=FILE,FILE as report takes it) is its own, and so
// are its mdbench runs and each tool's imports with one command line (as in `mdbench report`): a gate never
// passes on a mean of systems of which one fails. --pool makes one of everything, and says so in its label.
std::vector<Configuration> checkedConfigurations(const std::vector<ConfigSpec>& specs, bool pool) {
  std::vector<Configuration> configurations;
  if (pool) {
    std::vector<std::string> files;
    for (const ConfigSpec& spec : specs) files.insert(files.end(), spec.files.begin(), spec.files.end());
    const std::string label = fmt::format("pooled: {} file{}", files.size(), files.size() == 1 ? "" : "s");
    return loadConfigurations(label, files, Grouping::kPooled);
  }
  for (const ConfigSpec& spec : specs) {
    for (Configuration& c : loadConfigurations(spec.label, spec.files, Grouping::kBySource)) {
      configurations.push_back(std::move(c));
    }
  }
  return configurations;
}

// The rules evaluated on the files, each outcome printed: kExitOk, kExitCheckFailed or kExitFailed (a file
// cannot be read: the report says so).
int evaluateRules(const std::vector<ConfigSpec>& specs, const std::vector<Rule>& rules, const CheckArgs& a,
                  JUnitReport& report) {
  for (const ConfigSpec& spec : specs)
    report.files.insert(report.files.end(), spec.files.begin(), spec.files.end());
  int status = kExitOk;
  try {
    const std::vector<Configuration> configurations = checkedConfigurations(specs, a.pool);
    for (const Configuration& c : configurations)
      report.notes.insert(report.notes.end(), c.notes.begin(), c.notes.end());
    report.outcomes =
        evaluate(rules, configurations, a.allow_short ? ShortPhases::kJudged : ShortPhases::kNoData);
  } catch (const ResultsFileError& e) {
    printCommandError("check", e.what());
    report.error = e.what();
    status = kExitFailed;
  }
  for (const std::string& note : report.notes) fmt::print("note: {}\n", note);
  std::size_t passed = 0;
  std::size_t no_data = 0;
  for (const Outcome& outcome : report.outcomes) {
    fmt::print("{}  {}\n", verdictName(outcome.verdict), outcome.message);
    if (outcome.passed()) ++passed;
    if (outcome.verdict == Verdict::kNoData) ++no_data;
  }
  if (status == kExitOk) {
    fmt::print("{} of {} checks passed{}\n", passed, report.outcomes.size(),
               no_data == 0 ? "" : fmt::format(" ({} without data)", no_data));
    if (passed != report.outcomes.size()) status = kExitCheckFailed;
  }
  return status;
}

}  // namespace

// The thresholds are the model's (rate_timing.hpp), so the help and the man page say what check applies.
const std::string& allowShortHelp() {
  static const std::string help =
      fmt::format("judge the rates of phases too short to time ({}) as any other (default: NO-DATA)",
                  tooShortThresholdText());
  return help;
}

po::options_description checkOptions(CheckArgs* bind) {
  po::options_description options;
  options.add_options()("help,h", "print this help")(
      "require,r", po::value(bound(bind, &CheckArgs::required))->value_name("RULE"),
      "a rule that must hold (repeatable)")(
      "rules", po::value(bound(bind, &CheckArgs::rule_files))->value_name("FILE"),
      "rules, one a line (repeatable)")("junit",
                                        po::value(bound(bind, &CheckArgs::junit_path))->value_name("OUT"),
                                        "also write a JUnit XML report to OUT")(
      "force", po::bool_switch(bound(bind, &CheckArgs::force)), "replace OUT if it exists")(
      "pool", po::bool_switch(bound(bind, &CheckArgs::pool)),
      "pool every file's mdbench runs and tools' imports into one configuration (default: each "
      "argument, tool and command line apart)")(
      "allow-short", po::bool_switch(bound(bind, &CheckArgs::allow_short)), allowShortHelp().c_str())(
      "file", po::value(bound(bind, &CheckArgs::specs)), "results file");
  return options;
}

int runCheck(const std::vector<std::string>& args) {
  failWritesPastSizeLimit();
  CheckArgs a;
  const po::options_description options = checkOptions(&a);
  po::variables_map vm;
  if (!parseToolArgs("check", args, options, "file", -1, vm)) return kExitUsage;
  if (vm.count("help")) return printSubcommandHelp("check", options);
  std::vector<Rule> rules;
  if (const std::vector<std::string> problems = usageProblems(a, rules); !problems.empty()) {
    return usageErrors(problems);
  }
  std::vector<ConfigSpec> specs;
  (void)parseConfigSpecs(a.specs, specs);  // usageProblems found none
  JUnitReport report;
  const int status = evaluateRules(specs, rules, a, report);
  std::fflush(stdout);
  if (!a.junit_path.empty()) {
    if (const std::string problem = writeReport(a.junit_path, report, a.force); !problem.empty()) {
      printCommandError("check", problem);
      return kExitFailed;
    }
  }
  return status;
}

}  // namespace mdbench
