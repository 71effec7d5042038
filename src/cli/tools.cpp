// The subcommands that work on results files: validate and export. They run on rank 0 alone.
#include "tools.hpp"

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <iostream>

#include "mdbench/backend/cleanup.hpp"
#include "mdbench/cli/app.hpp"
#include "mdbench/results/export.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"
#include "mdbench/util/file_io.hpp"

namespace mdbench {
namespace po = boost::program_options;
int toolUsageError(const std::string& command, const std::string& message) {
  fmt::print(stderr, "mdbench {0}: error: {1}\nTry 'mdbench {0} --help'.\n", command, message);
  return kExitUsage;
}

bool parseToolArgs(const std::string& command, const std::vector<std::string>& args,
                   const po::options_description& options, const char* positional_name, int max_positional,
                   po::variables_map& vm) {
  po::positional_options_description positional;
  positional.add(positional_name, max_positional);
  try {
    po::store(po::command_line_parser(args)
                  .options(options)
                  .positional(positional)
                  .style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing)
                  .run(),
              vm);
    po::notify(vm);
    return true;
  } catch (const po::error& e) {
    toolUsageError(command, e.what());
    return false;
  }
}

namespace {
constexpr std::string_view kExportRole = "export file";

void writeExport(const StoredResults& results, const std::string& format, std::ostream& out) {
  if (format == "json") {
    exportJson(results, out);
  } else {
    exportCsv(results, out);
  }
}
}  // namespace

int runValidate(const std::vector<std::string>& args) {
  po::options_description options("mdbench validate FILE...: check results files against the schema");
  bool verbose = false;
  std::vector<std::string> files;
  options.add_options()("help,h", "print this help")("verbose,v", po::bool_switch(&verbose),
                                                     "also list objects not in the schema and other notes")(
      "file", po::value(&files), "results file");
  po::variables_map vm;
  if (!parseToolArgs("validate", args, options, "file", -1, vm)) return kExitUsage;
  if (vm.count("help")) {
    std::cout << options << "Exit status: 0 all files valid, 1 a file is not, 2 bad usage.\n";
    return kExitOk;
  }
  if (files.empty()) return toolUsageError("validate", "no file given");
  int status = kExitOk;
  for (const std::string& file : files) {
    const ValidationResult result = validateResultsFile(file);
    if (result.ok) {
      fmt::print("{}: valid ({} schema version {})\n", file, kSchemaName, result.schema_version);
    } else {
      fmt::print("{}: INVALID: {}\n", file, result.first_problem);
      status = kExitFailed;
    }
    if (verbose) {
      for (const std::string& note : result.notes) fmt::print("  note: {}\n", note);
    }
  }
  return status;
}

int runExport(const std::vector<std::string>& args) {
  failWritesPastSizeLimit();
  po::options_description options(
      "mdbench export FILE --format json|csv [-o OUT]: results as JSON or CSV (one row per run, iteration, "
      "phase and rank)");
  std::string file, format, out_path;
  bool force = false;
  options.add_options()("help,h", "print this help")("format,f", po::value(&format)->value_name("json|csv"),
                                                     "output format (required)")(
      "output,o", po::value(&out_path)->value_name("OUT"), "write to OUT instead of standard output")(
      "force", po::bool_switch(&force), "replace OUT if it exists")("file", po::value(&file), "results file");
  po::variables_map vm;
  if (!parseToolArgs("export", args, options, "file", 1, vm)) return kExitUsage;
  if (vm.count("help")) {
    std::cout << options;
    return kExitOk;
  }
  if (file.empty()) return toolUsageError("export", "no results file given");
  if (format != "json" && format != "csv") {
    return toolUsageError("export", format.empty()
                                        ? "--format json|csv is required"
                                        : fmt::format("--format: '{}' is not json or csv", format));
  }
  // OUT is looked at before the results file is read: a link, FIFO, directory, ... is never written to.
  if (!out_path.empty()) {
    const OutputCheck output = checkOutput(out_path, kExportRole);
    if (output.state == OutputState::kRefused) return toolUsageError("export", output.problem);
    if (output.state == OutputState::kRegularFile && !force) {
      return toolUsageError("export", fmt::format("{} exists: use --force to replace it", out_path));
    }
  }
  StoredResults results;
  try {
    results = readResultsFile(file);
  } catch (const ResultsFileError& e) {
    fmt::print(stderr, "mdbench export: error: {}\n", e.what());
    return kExitFailed;
  }
  if (out_path.empty()) {
    writeExport(results, format, std::cout);
    std::cout.flush();
    if (!std::cout) {
      fmt::print(stderr, "mdbench export: error: writing standard output failed\n");
      return kExitFailed;
    }
    return kExitOk;
  }
  // A new file renamed into place: an existing OUT is replaced whole or not at all, and without --force a
  // file that appeared meanwhile is kept.
  NewFile out(out_path, kExportRole);
  std::string problem = out.error();
  if (problem.empty()) {
    writeExport(results, format, out.stream());
    problem = out.commit(force ? Replace::kRegularFile : Replace::kNothing);
  }
  if (!problem.empty()) {
    fmt::print(stderr, "mdbench export: error: {}\n", problem);
    return kExitFailed;
  }
  return kExitOk;
}

int runClean(const std::vector<std::string>& args) {
  po::options_description options(
      "mdbench clean DIR...: remove what interrupted mdbench runs left in DIR (a target, a run's iteration\n"
      "directory, or the directory holding targets mdbench made), and nothing else");
  bool dry_run = false;
  std::vector<std::string> dirs;
  options.add_options()("help,h", "print this help")(
      "dry-run,n", po::bool_switch(&dry_run), "only say what would be removed")("dir", po::value(&dirs),
                                                                                "directory");
  po::variables_map vm;
  if (!parseToolArgs("clean", args, options, "dir", -1, vm)) return kExitUsage;
  if (vm.count("help")) {
    std::cout
        << options
        << "Only directories carrying mdbench's mark (.mdbench-run, written by the run that made them)\n"
           "are entered, and only names mdbench generates, of the type it gives them, are removed;\n"
           "links are never followed. Anything else stays and is listed.\n"
           "Exit status: 0 everything found was removed (or nothing was found), 1 something stays or a\n"
           "DIR cannot be used, 2 bad usage.\n";
    return kExitOk;
  }
  if (dirs.empty()) return toolUsageError("clean", "no directory given");
  int status = kExitOk;
  for (const std::string& dir : dirs) {
    std::vector<std::string> log;
    const CleanSummary summary = cleanDirectory(dir, dry_run, log);
    for (const std::string& line : log) fmt::print("{}\n", line);
    for (const std::string& note : summary.tally.notes) fmt::print("  left: {}\n", note);
    if (summary.tally.kept > summary.tally.notes.size()) {
      fmt::print("  ... and {} more\n", summary.tally.kept - summary.tally.notes.size());
    }
    if (!summary.error.empty()) {
      fmt::print(stderr, "mdbench clean: error: {}\n", summary.error);
      status = kExitFailed;
      continue;
    }
    if (summary.run_dirs == 0) fmt::print("{}: no mdbench run directories\n", dir);
    if (summary.tally.kept > 0) status = kExitFailed;
  }
  return status;
}

}  // namespace mdbench
