// The man page and the bash completion against the --help texts, read independently of the generator.
#include "mdbench/cli/manpage.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cout_capture.hpp"
#include "mdbench/cli/subcommands.hpp"
#include "mdbench/config/config.hpp"

namespace mdbench {
namespace {

using Names = std::set<std::string>;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Option names as a --help text shows them, read independently of the generator: Boost's "  -x [ --long ]"
// and "  --long", mdbench's "  -x, --long" and "      --long".
Names helpOptions(const std::string& help) {
  Names names;
  // mdtest's own long names have capitals: --dataPacketType, --showRankStatistics; a backend's have its
  // prefix and a dot: --posix.odirect, --dummy.delay-only-rank0.
  const std::regex boost(R"(^  (?:-([A-Za-z]) \[ )?--([a-z][A-Za-z0-9._-]*))");
  const std::regex mdbench(R"(^  (?:-([A-Za-z]), | {4})--([a-z][A-Za-z0-9._-]*))");
  for (const std::string& line : lines(help)) {
    std::smatch match;
    if (!std::regex_search(line, match, boost) && !std::regex_search(line, match, mdbench)) continue;
    if (match[1].matched) names.insert("-" + match[1].str());
    names.insert("--" + match[2].str());
  }
  return names;
}

// The options a part of the man page documents: the bold names on the lines after .TP.
Names manOptions(const std::string& man, const std::string& from, const std::string& to) {
  const std::size_t begin = man.find(from);
  const std::size_t end = man.find(to, begin + from.size());
  EXPECT_NE(begin, std::string::npos) << from;
  EXPECT_NE(end, std::string::npos) << to;
  Names names;
  const std::regex bold(R"(\\fB((?:\\-)+)([A-Za-z0-9][A-Za-z0-9._\\-]*)\\fR)");
  const std::vector<std::string> part = lines(man.substr(begin, end - begin));
  for (std::size_t i = 1; i < part.size(); ++i) {
    if (part[i - 1] != ".TP") continue;
    for (std::sregex_iterator it(part[i].begin(), part[i].end(), bold), last; it != last; ++it) {
      std::string name = (*it)[1].str() + (*it)[2].str();
      name = std::regex_replace(name, std::regex(R"(\\-)"), "-");
      names.insert(name);
    }
  }
  return names;
}

Names asSet(const std::vector<std::string>& words) { return Names(words.begin(), words.end()); }

using cout_test::CoutCapture;

// What `mdbench NAME --help` prints: the subcommand run with --help, its standard output captured.
std::string subcommandHelp(const std::string& name) {
  const Subcommand* sub = findSubcommand(name);
  EXPECT_NE(sub, nullptr) << name;
  if (sub == nullptr) return {};
  CoutCapture capture;
  EXPECT_EQ(sub->run({"--help"}), 0) << name;
  return capture.text();
}

// The subcommand names the --help text lists ("Subcommands: validate|export|... on results files, clean DIR
// for leftovers (--help)."): the first word of each comma-separated part, split at '|'.
std::vector<std::string> subcommandNamesInHelp(const std::string& help) {
  std::vector<std::string> names;
  constexpr std::string_view kLead = "Subcommands:";
  for (const std::string& line : lines(help)) {
    if (line.rfind(kLead, 0) != 0) continue;
    std::istringstream parts(line.substr(kLead.size()));
    for (std::string part; std::getline(parts, part, ',');) {
      std::istringstream words(part);
      std::string first;
      words >> first;
      std::istringstream alternatives(first);
      for (std::string name; std::getline(alternatives, name, '|');) names.push_back(name);
    }
  }
  return names;
}

class ManPageTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    docs_ = new DocSet(collectDocs("9.9.9", "2025-01-01"));
    man_ = new std::string(manPage(*docs_));
  }
  static void TearDownTestSuite() {
    delete man_;
    delete docs_;
  }
  static const DocSet& docs() { return *docs_; }
  static const std::string& man() { return *man_; }

 private:
  static inline DocSet* docs_ = nullptr;
  static inline std::string* man_ = nullptr;
};

TEST_F(ManPageTest, DocumentsEveryOptionOfHelpAndNoOther) {
  const Names help = helpOptions(helpText());
  ASSERT_GT(help.size(), 60U);  // the parse of --help found the table
  ASSERT_TRUE(help.count("--items") && help.count("-n") && help.count("--version") && help.count("--steady"));
  Names hidden;
  for (const OptionGroupDoc& group : docs().groups) {
    if (group.in_help) continue;
    for (const OptionDoc& option : group.options) {
      hidden.insert("--" + option.long_name);
      if (!option.short_name.empty()) hidden.insert("-" + option.short_name);
    }
  }
  EXPECT_EQ(hidden, (Names{"--sweep-first", "-f", "--sweep-last", "-l", "--sweep-stride", "-s",
                           "--print-rate-and-time", "-P", "--time-unique-overhead", "-t",
                           // mdtest's further options: in --help after the main groups, described here
                           "--run-cmd-before-phase", "--run-cmd-after-phase", "--random-seed",
                           "--verify-write", "--dataPacketType", "--buffer-offset", "-G", "--mknod", "-k",
                           "--collective-creates", "-c", "--no-barriers", "-B", "--print-time", "-Z",
                           "--print-all-procs", "--showRankStatistics", "--saveRankPerformanceDetails",
                           "--savePerOpDataCSV", "--warningAsErrors", "--verify-read"}));
  Names expected = help;
  expected.insert(hidden.begin(), hidden.end());
  EXPECT_EQ(manOptions(man(), ".SH OPTIONS", ".SS Presets"), expected);
}

TEST_F(ManPageTest, CompletionOffersEveryOptionOfHelpAndNoOther) {
  EXPECT_EQ(asSet(completionOptionWords(docs(), "")), helpOptions(helpText()));
  const std::string script = bashCompletion(docs());
  for (const std::string& word : completionOptionWords(docs(), "")) {
    EXPECT_TRUE(script.find(" " + word + " ") != std::string::npos ||
                script.find(" " + word + "'") != std::string::npos)
        << word;
  }
}

TEST_F(ManPageTest, EverySubcommandOfHelpHasItsSection) {
  const std::vector<std::string> names = subcommandNamesInHelp(helpText());
  EXPECT_EQ(names, (std::vector<std::string>{"validate", "export", "import", "report", "check", "clean"}));
  ASSERT_EQ(docs().subcommands.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(docs().subcommands[i].name, names[i]);
    EXPECT_NE(man().find(".SS \"mdbench " + names[i] + "\"\n"), std::string::npos) << names[i];
    EXPECT_NE(bashCompletion(docs()).find("'" + names[i] + "') action='words "), std::string::npos)
        << names[i];
  }
}

TEST_F(ManPageTest, SubcommandSectionsDocumentTheirHelp) {
  const std::vector<SubcommandDoc>& subs = docs().subcommands;
  for (std::size_t i = 0; i < subs.size(); ++i) {
    const std::string& name = subs[i].name;
    const Names help = helpOptions(subcommandHelp(name));
    ASSERT_TRUE(help.count("--help")) << name;
    Names operands;
    for (const OptionDoc& operand : subs[i].operands) operands.insert("--" + operand.long_name);
    EXPECT_EQ(operands.size(), 1U) << name;  // FILE, INPUT, CONFIG or DIR
    const std::string next =
        i + 1 < subs.size() ? ".SS \"mdbench " + subs[i + 1].name + "\"" : ".SH EXIT STATUS";
    Names expected;
    std::set_difference(help.begin(), help.end(), operands.begin(), operands.end(),
                        std::inserter(expected, expected.end()));
    EXPECT_EQ(manOptions(man(), ".SS \"mdbench " + name + "\"", next), expected) << name;
    EXPECT_EQ(asSet(completionOptionWords(docs(), name)), expected) << name;
  }
}

TEST_F(ManPageTest, HasTheSectionsAnAdminLooksFor) {
  for (const char* section : {".TH MDBENCH 1 \"2025-01-01\" \"mdbench 9.9.9\"", ".SH NAME", ".SH SYNOPSIS",
                              ".SH DESCRIPTION", ".SH OPTIONS", ".SH SUBCOMMANDS", ".SH EXIT STATUS",
                              ".SH ENVIRONMENT", ".SH FILES", ".SH EXAMPLES"}) {
    EXPECT_NE(man().find(section), std::string::npos) << section;
  }
  for (const char* variable :
       {"SLURM_JOB_ID", "SLURM_JOB_NAME", "PBS_JOBID", "PBS_JOBNAME", "MDBENCH_CLOCK"}) {
    EXPECT_NE(man().find(variable), std::string::npos) << variable;
  }
  for (const char* file :
       {"mdbench.iter.", ".mdbench\\-run", "share/mdbench/jobscripts", "share/mdbench/results\\-schema"}) {
    EXPECT_NE(man().find(file), std::string::npos) << file;
  }
  for (const char* preset : {"io500\\-easy", "io500\\-hard"})
    EXPECT_NE(man().find(preset), std::string::npos);
}

// A text line must not start a request by accident, and every escape must be one roff knows.
TEST_F(ManPageTest, RoffHasNoStrayControlCharacters) {
  const std::set<std::string> requests = {".TH", ".SH", ".SS", ".TP", ".PP", ".br", ".nf",
                                          ".fi", ".RS", ".RE", ".B",  ".I",  ".BR", ".\\\""};
  for (const std::string& line : lines(man())) {
    if (!line.empty() && line[0] == '.') {
      EXPECT_TRUE(requests.count(line.substr(0, line.find(' ')))) << line;
    }
    EXPECT_FALSE(!line.empty() && line[0] == '\'') << line;
    for (std::size_t at = line.find('\\'); at != std::string::npos; at = line.find('\\', at + 2)) {
      ASSERT_LT(at + 1, line.size()) << line;
      EXPECT_NE(std::string("-e&f[\"").find(line[at + 1]), std::string::npos) << line;
    }
  }
}

TEST(RoffEscape, EscapesWhatRoffWouldInterpret) {
  EXPECT_EQ(roffEscape("-n 5"), "\\-n 5");
  EXPECT_EQ(roffEscape(".mdbench-run"), "\\&.mdbench\\-run");
  EXPECT_EQ(roffEscape("'quoted'"), "\\&'quoted'");
  EXPECT_EQ(roffEscape("a\\b"), "a\\eb");
  EXPECT_EQ(roffEscape("I \xC3\x97 D"), "I \\[u00D7] D");
  EXPECT_EQ(roffEscape("a.b"), "a.b");
}

namespace po = boost::program_options;

// A row of the table as the documentation reads it: no help text is parsed, the row is.
TEST(SubcommandDoc, ReadsTheRow) {
  const Subcommand demo{"demo",
                        "mdbench demo FILE... -o OUT",
                        "does things\nacross two lines",
                        [] {
                          po::options_description options;
                          options.add_options()("help,h", "print this help")(
                              "format,f", po::value<std::string>()->value_name("json|csv"), "output format")(
                              "force", po::bool_switch(), "replace OUT")(
                              "file", po::value<std::vector<std::string>>(), "results file");
                          return options;
                        },
                        "\nNotes: first\n  indented second\n\n",
                        nullptr};
  const SubcommandDoc doc = subcommandDoc(demo);
  EXPECT_EQ(doc.name, "demo");
  EXPECT_EQ(doc.usage, "mdbench demo FILE... -o OUT");
  EXPECT_EQ(doc.purpose, "does things across two lines");
  ASSERT_EQ(doc.options.size(), 3U);
  EXPECT_EQ(doc.options[0].long_name, "help");
  EXPECT_EQ(doc.options[0].short_name, "h");
  EXPECT_EQ(doc.options[0].value_name, "");
  EXPECT_EQ(doc.options[1].long_name, "format");
  EXPECT_EQ(doc.options[1].value_name, "json|csv");
  EXPECT_EQ(doc.options[1].description, "output format");
  EXPECT_EQ(doc.options[2].long_name, "force");
  EXPECT_EQ(doc.options[2].short_name, "");
  EXPECT_EQ(doc.options[2].value_name, "");
  EXPECT_EQ(doc.options[2].description, "replace OUT");
  ASSERT_EQ(doc.operands.size(), 1U);
  EXPECT_EQ(doc.operands[0].long_name, "file");
  EXPECT_EQ(doc.operands[0].value_name, "FILE");
  EXPECT_EQ(doc.notes, (std::vector<std::string>{"Notes: first", "  indented second"}));
}

}  // namespace
}  // namespace mdbench
