// Subcommands on results files (validate, export, import, report; check is in mdbench/check.hpp):
// run on one rank, return the exit status.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace mdbench {

int runValidate(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);
int runImport(const std::vector<std::string>& args);  // report_tools.cpp
int runReport(const std::vector<std::string>& args);  // report_tools.cpp
int runClean(const std::vector<std::string>& args);

// Shared by the subcommands: "mdbench COMMAND: error: MESSAGE" and the --help hint on standard error;
// returns kExitUsage.
int toolUsageError(const std::string& command, const std::string& message);
// Parses a subcommand's arguments with Boost.PO (no abbreviated options); the words that are not options
// go to the option `positional_name`, at most `max_positional` of them (-1: any number). On bad usage prints
// the parser's message as toolUsageError does and returns false.
bool parseToolArgs(const std::string& command, const std::vector<std::string>& args,
                   const boost::program_options::options_description& options, const char* positional_name,
                   int max_positional, boost::program_options::variables_map& vm);

}  // namespace mdbench
