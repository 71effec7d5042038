// The table of subcommands: what the dispatcher runs, what --help prints, and what the man page and the
// completion list are its rows, and nothing else.
#include "mdbench/cli/subcommands.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cout_capture.hpp"
#include "mdbench/cli/app.hpp"
#include "mdbench/cli/manpage.hpp"
#include "mdbench/run/comm.hpp"

namespace mdbench {
namespace {

using cout_test::CoutCapture;

std::vector<std::string> names() {
  std::vector<std::string> out;
  for (const Subcommand& sub : subcommands()) out.emplace_back(sub.name);
  return out;
}

TEST(Subcommands, TheTableHoldsEachOnceInHelpsOrder) {
  EXPECT_EQ(names(), (std::vector<std::string>{"validate", "export", "import", "report", "check", "clean"}));
  for (const Subcommand& sub : subcommands()) {
    EXPECT_EQ(findSubcommand(sub.name), &sub) << sub.name;
    EXPECT_TRUE(sub.usage.starts_with("mdbench " + std::string(sub.name))) << sub.name;
    EXPECT_NE(sub.run, nullptr) << sub.name;
    EXPECT_FALSE(sub.summary.empty()) << sub.name;
  }
  EXPECT_EQ(findSubcommand("run"), nullptr);  // the benchmark's own word, not a subcommand
  EXPECT_EQ(findSubcommand("Validate"), nullptr);
}

// The dispatcher runs a row's function for the row's name: its --help (printed through the table) comes
// back, where a word that is no row's is the benchmark's (whose help goes elsewhere).
TEST(Subcommands, TheDispatcherRunsEveryRowAndNothingElse) {
  SelfComm comm;
  for (const Subcommand& sub : subcommands()) {
    CoutCapture capture;
    EXPECT_EQ(runApp({std::string(sub.name), "--help"}, comm), kExitOk) << sub.name;
    const std::string help = capture.text();
    EXPECT_TRUE(help.starts_with(std::string(sub.usage) + ": ")) << help;
    EXPECT_TRUE(help.ends_with(std::string(sub.notes))) << help;
    EXPECT_NE(help.find("  -h [ --help ]"), std::string::npos) << help;
  }
  CoutCapture capture;
  EXPECT_EQ(runApp({"frobnicate", "--help"}, comm), kExitOk);  // mdbench's --help wins over any word
  EXPECT_EQ(capture.text(), "");
}

// Every value a subcommand's --help shows has a name (FILE, RULE, DIR, ...), never Boost's "arg"; the
// operand is there as the option it also is ("--file FILE"), named as its usage line names it.
TEST(Subcommands, HelpNamesEveryValue) {
  const std::map<std::string, std::string> operands = {
      {"validate", "  --file FILE "},   {"export", "  --file FILE "}, {"import", "  --input INPUT "},
      {"report", "  --config CONFIG "}, {"check", "  --file FILE "},  {"clean", "  --dir DIR "}};
  SelfComm comm;
  for (const Subcommand& sub : subcommands()) {
    CoutCapture capture;
    EXPECT_EQ(runApp({std::string(sub.name), "--help"}, comm), kExitOk) << sub.name;
    const std::string help = capture.text();
    EXPECT_EQ(help.find(" arg "), std::string::npos) << help;
    EXPECT_EQ(help.find(" arg\n"), std::string::npos) << help;
    ASSERT_TRUE(operands.count(std::string(sub.name))) << sub.name;
    EXPECT_NE(help.find(operands.at(std::string(sub.name))), std::string::npos) << help;
  }
  CoutCapture capture;
  EXPECT_EQ(runApp({"check", "--help"}, comm), kExitOk);
  EXPECT_NE(capture.text().find("  -r [ --require ] RULE "), std::string::npos) << capture.text();
  EXPECT_NE(capture.text().find("  --rules FILE "), std::string::npos) << capture.text();
  EXPECT_NE(capture.text().find("  --junit OUT "), std::string::npos) << capture.text();
}

TEST(Subcommands, TheManPageAndTheCompletionListEveryRow) {
  const DocSet docs = collectDocs("9.9.9", "2025-01-01");
  const std::string man = manPage(docs);
  const std::string completion = bashCompletion(docs);
  std::string alternatives;
  for (const Subcommand& sub : subcommands()) {
    const std::string name(sub.name);
    alternatives += (alternatives.empty() ? "" : "|") + name;
    EXPECT_NE(man.find(".SS \"mdbench " + name + "\"\n"), std::string::npos) << name;
    EXPECT_NE(man.find("\\fB" + roffEscape("mdbench " + name) + "\\fR"), std::string::npos) << name;
    EXPECT_NE(completion.find("'" + name + "') action='words "), std::string::npos) << name;
  }
  EXPECT_NE(completion.find("      " + alternatives + ") cmd=${COMP_WORDS[1]} ;;\n"), std::string::npos)
      << alternatives;
  ASSERT_EQ(docs.subcommands.size(), subcommands().size());
  for (std::size_t i = 0; i < docs.subcommands.size(); ++i) {
    EXPECT_EQ(docs.subcommands[i].name, subcommands()[i].name);
  }
}

// Each row's options reach the documentation as its options_description holds them: the operand apart.
TEST(Subcommands, EveryOptionOfARowIsDocumented) {
  for (const Subcommand& sub : subcommands()) {
    const boost::program_options::options_description options = sub.options();
    const SubcommandDoc doc = subcommandDoc(sub);
    ASSERT_EQ(doc.operands.size(), 1U) << sub.name;
    EXPECT_EQ(doc.options.size() + 1, options.options().size()) << sub.name;
    std::set<std::string> documented;
    for (const OptionDoc& option : doc.options) documented.insert(option.long_name);
    documented.insert(doc.operands.front().long_name);
    for (const auto& option : options.options()) {
      EXPECT_TRUE(documented.count(option->long_name())) << sub.name << " --" << option->long_name();
    }
  }
}

}  // namespace
}  // namespace mdbench
