// The subcommands, one row each: the dispatcher runs them, their --help prints them, and the man page and
// the bash completion (manpage.hpp) document them, all from this one table.
#pragma once

#include <boost/program_options/options_description.hpp>
#include <span>
#include <string_view>
#include <vector>

namespace mdbench {

struct Subcommand {
  std::string_view name;     // "validate"
  std::string_view usage;    // "mdbench validate FILE..."
  std::string_view summary;  // what it does; '\n' where --help breaks the line
  // Its options as --help lists them, bound to nothing (its run function binds its own). The words that are
  // not options are the one option without a value name (Boost's "arg"): FILE, INPUT, CONFIG or DIR.
  boost::program_options::options_description (*options)();
  std::string_view notes;                            // what --help prints after the options
  int (*run)(const std::vector<std::string>& args);  // on one process; returns the exit status
};

// In the order --help, the man page and the completion list them.
std::span<const Subcommand> subcommands();
// nullptr: not a subcommand (then the arguments are the benchmark's).
const Subcommand* findSubcommand(std::string_view name);

// `mdbench NAME --help` on standard output: "USAGE: SUMMARY:", the options, the notes. Returns kExitOk.
int printSubcommandHelp(std::string_view name, const boost::program_options::options_description& options);

}  // namespace mdbench
