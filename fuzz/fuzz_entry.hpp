// The fuzzed entry points, one function per input reader, shared by the libFuzzer targets (fuzz/*_fuzz.cpp)
// and the replay of saved inputs in the normal test suite (tests/cli/fuzz_regressions_test.cpp).
// Each function feeds one input to the reader and lets through only the exception the reader documents for
// bad input; anything else (another exception, a broken invariant, a sanitizer report) is a finding.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/config/config.hpp"
#include "mdbench/model/imported.hpp"
#include "mdbench/report/check.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"
#include "mdbench/run/stonewall_file.hpp"

namespace mdbench::fuzz {

// A broken invariant of a reader: escapes every target as a crash.
class FuzzFinding : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// Options: the input split on NUL bytes into argv (argv[0] excluded). parseCommandLine never throws; a
// request it accepted must also pass validate() on its own.
inline void fuzzOptions(std::string_view input) {
  std::vector<std::string> args;
  std::size_t start = 0;
  for (std::size_t nul = input.find('\0'); nul != std::string_view::npos; nul = input.find('\0', start)) {
    args.emplace_back(input.substr(start, nul - start));
    start = nul + 1;
  }
  if (start < input.size()) args.emplace_back(input.substr(start));
  const CliRequest request = parseCommandLine(args);
  const std::vector<std::string> problems = validate(request.config);
  if (request.action == CliAction::kRun && request.errors.empty() && !problems.empty()) {
    throw FuzzFinding("parseCommandLine accepted a Config that validate() refuses: " + problems.front());
  }
}

// Importers: every parser of textFormats() on every input (and the sniffer, which names a row of it or
// nothing); only ImportError is allowed out.
inline void fuzzImport(std::string_view input) {
  const std::string detected = detectImportFormat(input);
  if (!detected.empty() && findTextFormat(detected) == nullptr) {
    throw FuzzFinding("detectImportFormat returned a format textFormats() does not hold: " + detected);
  }
  for (const TextFormat& format : textFormats()) {
    try {
      if (format.datapath != nullptr) (void)format.datapath(input, "fuzz.txt");
      if (format.metadata != nullptr) (void)format.metadata(input, "fuzz.txt");
    } catch (const ImportError&) {
    }
  }
}

// Acceptance rules: a rules file and a single rule; neither throws (problems come back as errors), and a
// rule either parses or says why not.
inline void fuzzRules(std::string_view input) {
  const RuleParse file = parseRules(input, "fuzz.rules");
  const RuleParse one = parseRule(input);
  if (one.rules.empty() == one.errors.empty()) {
    throw FuzzFinding("parseRule gave neither exactly one rule nor an error");
  }
  (void)file;
}

// Stonewall files (-x): parseStonewallText never throws; it accepts a text only with a count in it, and
// every message it gives names the file.
inline void fuzzStonewall(std::string_view input) {
  StonewallCounts counts;
  const std::string problem = parseStonewallText(input, "fuzz.sw", counts);
  if (problem.empty() && !counts.dirs && !counts.files) {
    throw FuzzFinding("parseStonewallText accepted a text without a count");
  }
  if (!problem.empty() && problem.find("fuzz.sw") == std::string::npos) {
    throw FuzzFinding("a stonewall file message that does not name the file: " + problem);
  }
}

// Results files: the reader may refuse a file (ResultsFileError); the validator never throws.
inline void fuzzResultsFile(const std::string& path) {
  try {
    (void)readResultsFile(path);
  } catch (const ResultsFileError&) {
  }
  (void)validateResultsFile(path);
}

}  // namespace mdbench::fuzz
