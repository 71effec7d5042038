// The subcommands' options and run functions (validate, export and clean in tools.cpp; import and report in
// report_tools.cpp; check in check_tool.cpp), registered in the table of subcommands.cpp. They run on rank 0
// alone and return the exit status.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace mdbench {

// Each subcommand's values, and its options: bound to them, or (nullptr) to nothing, for the documentation.
struct ValidateArgs {
  bool verbose = false;
  std::vector<std::string> files;
};
boost::program_options::options_description validateOptions(ValidateArgs* bind = nullptr);
int runValidate(const std::vector<std::string>& args);

struct ExportArgs {
  std::string file, format, out_path;
  bool force = false;
};
boost::program_options::options_description exportOptions(ExportArgs* bind = nullptr);
int runExport(const std::vector<std::string>& args);

struct ImportArgs {
  std::string format = "auto", out;
  bool append = false;
  std::vector<std::string> inputs;
};
boost::program_options::options_description importOptions(ImportArgs* bind = nullptr);  // report_tools.cpp
int runImport(const std::vector<std::string>& args);                                    // report_tools.cpp

struct ReportArgs {
  std::vector<std::string> specs;
  std::string baseline, out_dir, bars = "minmax";
  bool png = false, force = false, markdown = false, pool = false;
};
boost::program_options::options_description reportOptions(ReportArgs* bind = nullptr);  // report_tools.cpp
int runReport(const std::vector<std::string>& args);                                    // report_tools.cpp

struct CheckArgs {
  std::vector<std::string> specs, required, rule_files;
  std::string junit_path;
  bool force = false, pool = false, allow_short = false;
};
boost::program_options::options_description checkOptions(CheckArgs* bind = nullptr);  // check_tool.cpp
int runCheck(const std::vector<std::string>& args);                                   // check_tool.cpp

struct CleanArgs {
  bool dry_run = false;
  std::string api = "POSIX";  // -a: the backend whose storage is cleaned
  std::vector<std::string> dirs;
};
boost::program_options::options_description cleanOptions(CleanArgs* bind = nullptr);
int runClean(const std::vector<std::string>& args);

// A configuration as report and check take it: "LABEL=FILE,FILE" or "FILE,FILE"; the label defaults to the
// first file's name without directory and extension.
struct ConfigSpec {
  std::string label;
  std::vector<std::string> files;
};
ConfigSpec parseConfigSpec(const std::string& text);
// The specs of the words given; "" or the usage problem (no file in a spec, two specs with one label).
std::string parseConfigSpecs(const std::vector<std::string>& words, std::vector<ConfigSpec>& specs);
// "" or the usage problem of two specs with one label (their verdicts and charts could not be told apart).
std::string duplicateLabelProblem(const std::vector<ConfigSpec>& specs);

// Shared by the subcommands: "mdbench COMMAND: error: MESSAGE" and the --help hint on standard error;
// returns kExitUsage.
int toolUsageError(const std::string& command, const std::string& message);
// Parses a subcommand's arguments with Boost.PO (no abbreviated options); the words that are not options
// go to the option `positional_name`, at most `max_positional` of them (-1: any number). On bad usage prints
// the parser's message as toolUsageError does and returns false.
bool parseToolArgs(const std::string& command, const std::vector<std::string>& args,
                   const boost::program_options::options_description& options, const char* positional_name,
                   int max_positional, boost::program_options::variables_map& vm);

// The address of a member of the values to bind, or nullptr (bound to nothing) without values.
template <typename Args, typename Field>
Field* bound(Args* args, Field Args::*field) {
  return args == nullptr ? nullptr : &(args->*field);
}

}  // namespace mdbench
