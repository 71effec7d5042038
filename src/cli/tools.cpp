// The subcommands validate and export (on results files) and clean (after killed runs), and what every
// subcommand shares: parsing, bad usage. They run on rank 0 alone.
#include "tools.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "mdbench/backend/storage.hpp"
#include "mdbench/cli/app.hpp"
#include "mdbench/cli/subcommands.hpp"
#include "mdbench/config/backends.hpp"
#include "mdbench/results/export.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"
#include "mdbench/util/diagnostics.hpp"
#include "mdbench/util/file_io.hpp"

namespace mdbench {
namespace po = boost::program_options;

ConfigSpec parseConfigSpec(const std::string& text) {
  ConfigSpec spec;
  std::string files = text;
  if (const std::size_t eq = text.find('='); eq != std::string::npos && eq > 0) {
    spec.label = text.substr(0, eq);
    files = text.substr(eq + 1);
  }
  std::size_t start = 0;
  while (start <= files.size()) {
    const std::size_t comma = files.find(',', start);
    const std::string file =
        files.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!file.empty()) spec.files.push_back(file);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (spec.label.empty() && !spec.files.empty())
    spec.label = std::filesystem::path(spec.files[0]).stem().string();
  return spec;
}

std::string duplicateLabelProblem(const std::vector<ConfigSpec>& specs) {
  for (std::size_t i = 0; i < specs.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (specs[i].label == specs[j].label) {
        return fmt::format("two configurations are labelled '{}': name them LABEL=FILE", specs[i].label);
      }
    }
  }
  return {};
}

std::string parseConfigSpecs(const std::vector<std::string>& words, std::vector<ConfigSpec>& specs) {
  for (const std::string& text : words) {
    specs.push_back(parseConfigSpec(text));
    if (specs.back().files.empty()) return fmt::format("'{}' names no file", text);
  }
  return duplicateLabelProblem(specs);
}

int toolUsageError(const std::string& command, const std::string& message) {
  printCommandError(command, message);
  fmt::print(stderr, "Try 'mdbench {} --help'.\n", command);
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

po::options_description validateOptions(ValidateArgs* bind) {
  po::options_description options;
  options.add_options()("help,h", "print this help")("verbose,v",
                                                     po::bool_switch(bound(bind, &ValidateArgs::verbose)),
                                                     "also list objects not in the schema and other notes")(
      "file", po::value(bound(bind, &ValidateArgs::files)), "results file");
  return options;
}

int runValidate(const std::vector<std::string>& args) {
  ValidateArgs parsed;
  const po::options_description options = validateOptions(&parsed);
  const auto& [verbose, files] = parsed;
  po::variables_map vm;
  if (!parseToolArgs("validate", args, options, "file", -1, vm)) return kExitUsage;
  if (vm.count("help")) return printSubcommandHelp("validate", options);
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

po::options_description exportOptions(ExportArgs* bind) {
  po::options_description options;
  options.add_options()("help,h", "print this help")(
      "format,f", po::value(bound(bind, &ExportArgs::format))->value_name("json|csv"),
      "output format (required)")("output,o",
                                  po::value(bound(bind, &ExportArgs::out_path))->value_name("OUT"),
                                  "write to OUT instead of standard output")(
      "force", po::bool_switch(bound(bind, &ExportArgs::force)), "replace OUT if it exists")(
      "file", po::value(bound(bind, &ExportArgs::file)), "results file");
  return options;
}

int runExport(const std::vector<std::string>& args) {
  failWritesPastSizeLimit();
  ExportArgs parsed;
  const po::options_description options = exportOptions(&parsed);
  const auto& [file, format, out_path, force] = parsed;
  po::variables_map vm;
  if (!parseToolArgs("export", args, options, "file", 1, vm)) return kExitUsage;
  if (vm.count("help")) return printSubcommandHelp("export", options);
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
    if (const std::string problem = outputIsAnInput(out_path, {file}, kExportRole); !problem.empty()) {
      return toolUsageError("export", problem);
    }
  }
  StoredResults results;
  try {
    results = readValidResultsFile(file);
  } catch (const ResultsFileError& e) {
    printCommandError("export", e.what());
    return kExitFailed;
  }
  if (out_path.empty()) {
    writeExport(results, format, std::cout);
    std::cout.flush();
    if (!std::cout) {
      printCommandError("export", "writing standard output failed");
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
    printCommandError("export", problem);
    return kExitFailed;
  }
  return kExitOk;
}

po::options_description cleanOptions(CleanArgs* bind) {
  po::options_description options;
  options.add_options()("help,h", "print this help")(
      "dry-run,n", po::bool_switch(bound(bind, &CleanArgs::dry_run)), "only say what would be removed")(
      "api,a", po::value(bound(bind, &CleanArgs::api))->value_name(std::string(kApiValueName)),
      "the backend the runs used (default POSIX)")("dir", po::value(bound(bind, &CleanArgs::dirs)),
                                                   "directory");
  // Where the backend's storage is, as the runs were told (--cephfs.conf, --libnfs.url, ...).
  for (const BackendPlaceOption& place : backendPlaceOptions()) {
    std::string help(place.help);
    std::replace(help.begin(), help.end(), '\n', ' ');
    options.add_options()(std::string(place.name).c_str(),
                          po::value<std::string>()->value_name(std::string(place.value_name)), help.c_str());
  }
  return options;
}

int runClean(const std::vector<std::string>& args) {
  CleanArgs parsed;
  const po::options_description options = cleanOptions(&parsed);
  const auto& [dry_run, api, dirs] = parsed;
  po::variables_map vm;
  if (!parseToolArgs("clean", args, options, "dir", -1, vm)) return kExitUsage;
  if (vm.count("help")) return printSubcommandHelp("clean", options);
  Config config;
  if (const std::optional<Api> named = apiNamed(api); named) {
    config.api = *named;
  } else {
    return toolUsageError(
        "clean", fmt::format("-a: unknown API '{}' (mdbench supports {})", api, apiNames(", ", " and ")));
  }
  for (const BackendPlaceOption& place : backendPlaceOptions()) {
    const std::string name(place.name);
    if (vm.count(name) == 0) continue;
    if (const BackendRow* owner = optionBackend(name); owner != nullptr && owner->api != config.api) {
      return toolUsageError(
          "clean", fmt::format("--{} is an option of -a {}, and -a is {} (-a {} for it)", name, owner->name,
                               backendRow(config.api).name, owner->name));
    }
    (void)setBackendOption(config, name, vm[name].as<std::string>());
  }
  if (dirs.empty()) return toolUsageError("clean", "no directory given");
  // Through the backend's storage: the walk, the marks and the removals are its calls (storage.hpp).
  const std::unique_ptr<Storage> storage = makeStorage(config);
  int status = kExitOk;
  for (const std::string& dir : dirs) {
    std::vector<std::string> log;
    const CleanSummary summary = storage->clean(dir, dry_run, log);
    for (const std::string& line : log) fmt::print("{}\n", line);
    for (const std::string& note : summary.tally.notes) fmt::print("  left: {}\n", note);
    if (summary.tally.kept > summary.tally.notes.size()) {
      fmt::print("  ... and {} more\n", summary.tally.kept - summary.tally.notes.size());
    }
    if (!summary.error.empty()) {
      printCommandError("clean", summary.error);
      status = summary.usage ? kExitUsage : std::max(status, kExitFailed);
      continue;
    }
    if (summary.run_dirs == 0 && !backendRow(config.api).stores_nothing) {
      fmt::print("{}: no mdbench run directories\n", dir);
    }
    if (summary.tally.kept > 0) status = std::max(status, kExitFailed);
  }
  return status;
}

}  // namespace mdbench
