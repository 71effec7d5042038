// The man page mdbench(1) and the bash completion, generated from the option tables that --help prints
// (option_docs.hpp for the benchmark, each subcommand's own --help), so that neither can drift from the
// parser.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "mdbench/config/option_docs.hpp"

namespace mdbench {

struct SubcommandDoc {
  std::string name;                // "validate"
  std::string usage;               // "mdbench validate FILE..."
  std::string purpose;             // what it does, one paragraph
  std::vector<OptionDoc> options;  // as its --help lists them
  // The words that are not options: Boost lists them as options too ("--file arg"); here they are operands.
  std::vector<OptionDoc> operands;
  std::vector<std::string> notes;  // the lines its --help prints after the options
};

// Reads what Boost.Program_options prints for a subcommand's --help: the caption, the option table (a
// description column, long descriptions wrapped onto indented lines), then free text.
SubcommandDoc parseSubcommandHelp(std::string name, const std::string& help);

// What `mdbench NAME --help` prints (the subcommand run with --help, standard output captured); empty for
// a name that is not a subcommand.
std::string subcommandHelp(std::string_view name);
// Every subcommand's --help, parsed.
std::vector<SubcommandDoc> subcommandDocs();
// The subcommand names the --help text lists ("Subcommands: validate|export|... clean DIR").
std::vector<std::string> subcommandNamesInHelp(const std::string& help);

struct DocSet {
  std::vector<OptionGroupDoc> groups;
  std::vector<PresetDoc> presets;
  std::vector<SubcommandDoc> subcommands;
  std::string version;  // "0.1.0"
  std::string date;     // "2025-01-31", for the man page's header
};
DocSet collectDocs(std::string version, std::string date);

// Text for a roff text line: backslashes, hyphens and non-ASCII characters escaped, and a leading '.' or
// '\'' made harmless.
std::string roffEscape(std::string_view text);

std::string manPage(const DocSet& docs);         // mdbench(1), man(7) macros
std::string bashCompletion(const DocSet& docs);  // defines _mdbench and registers it for `mdbench`

// The words completion offers for options: "--items", "-n", ... (context "" is the benchmark itself).
std::vector<std::string> completionOptionWords(const DocSet& docs, std::string_view subcommand);

}  // namespace mdbench
