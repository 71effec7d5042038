// The man page mdbench(1) and the bash completion, generated from what the parsers and --help are made
// from (the option rows, option_docs.hpp; the table of subcommands, subcommands.hpp), so that neither can
// drift from them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "mdbench/config/option_docs.hpp"

namespace mdbench {

struct Subcommand;

struct SubcommandDoc {
  std::string name;                // "validate"
  std::string usage;               // "mdbench validate FILE..."
  std::string purpose;             // what it does, one paragraph
  std::vector<OptionDoc> options;  // as its --help lists them
  // The words that are not options: Boost holds them as an option too ("--file arg"); here they are operands.
  std::vector<OptionDoc> operands;
  std::vector<std::string> notes;  // the lines its --help prints after the options
};

// A subcommand's row of the table, as the documentation needs it.
SubcommandDoc subcommandDoc(const Subcommand& sub);
// Every subcommand's, in the table's order.
std::vector<SubcommandDoc> subcommandDocs();

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
