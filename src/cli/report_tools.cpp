// The subcommands `mdbench import` (other tools' output into a results file) and `mdbench report` (tables
// and charts of one or more configurations). They run on rank 0 alone and never overwrite a file.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <cerrno>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <optional>
#include <set>

#include "mdbench/cli/app.hpp"
#include "mdbench/cli/subcommands.hpp"
#include "mdbench/cli/version.hpp"
#include "mdbench/model/imported.hpp"
#include "mdbench/report/report.hpp"
#include "mdbench/report/scaling.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"
#include "mdbench/util/clock.hpp"
#include "mdbench/util/diagnostics.hpp"
#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/file_io.hpp"
#include "tools.hpp"

namespace mdbench {
namespace po = boost::program_options;
namespace {

// Import inputs are text summaries; anything this large is not one (and would only waste memory).
constexpr std::uintmax_t kMaxImportBytes = 64u << 20;

// The whole file as text, or an error message. A link is followed (inputs are only read).
bool readInput(const std::string& path, std::string& text, std::string& error) {
  error = inputFileProblem(path);
  if (!error.empty()) return false;
  // The read itself checks again (the name may have changed meanwhile) and stops past the cap, whatever
  // the size says (file_io.hpp).
  error = readRegularFile(path, {"input", kMaxImportBytes}, text);
  return error.empty();
}

template <class Rows>
std::string describeRows(const Rows& rows) {
  std::set<std::uint32_t> counts;
  std::set<std::string> operations;
  for (const auto& row : rows) {
    operations.insert(row.operation);
    if constexpr (requires { row.clients; }) {
      counts.insert(row.clients);
    } else {
      counts.insert(row.ranks);
    }
  }
  return fmt::format("{} rows: {} at {}", rows.size(), fmt::join(operations, ", "), fmt::join(counts, ", "));
}

constexpr std::string_view kReportRole = "report file";
constexpr std::string_view kReportName = "report.md";

// One file of the report: its name, its content and whether a PNG of it goes beside it.
struct ReportFile {
  std::string path;
  std::string content;
  bool png = false;
  std::string pngPath() const { return path.substr(0, path.size() - 4) + ".png"; }
};

// The report files that exist, in one message: every one of them named, up to a dozen.
std::string existingReportFiles(const std::string& out_dir, const std::vector<std::string>& existing) {
  constexpr std::size_t kNamed = 12;
  if (existing.size() == 1)
    return fmt::format("{} exists: use --force to replace the report files", existing[0]);
  // Named within the directory: "file-create.svg", not the directory again for each.
  const std::string prefix = pathIn(out_dir, "");
  std::string names;
  for (std::size_t i = 0; i < existing.size() && i < kNamed; ++i) {
    const std::string& path = existing[i];
    names += (i == 0 ? "" : ", ") + (path.starts_with(prefix) ? path.substr(prefix.size()) : path);
  }
  if (existing.size() > kNamed) names += fmt::format(" and {} more", existing.size() - kNamed);
  return fmt::format("{} report files exist in {}: {}: use --force to replace them", existing.size(), out_dir,
                     names);
}

// An absent --out-dir is made with its missing parents: the nearest one that exists must let that happen
// (checked now, so that a report that cannot be written says so before it prints anything). "" or why not.
std::string absentDirProblem(const std::string& out_dir) {
  std::filesystem::path above = std::filesystem::path(out_dir).parent_path();
  struct stat st {};
  while (!above.empty() && ::stat(above.c_str(), &st) != 0 && errno == ENOENT && above != above.parent_path())
    above = above.parent_path();
  const std::string existing = above.empty() ? std::string(".") : above.string();
  if (::stat(existing.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    return fmt::format("--out-dir {}: cannot be made in {}: it is not a directory", out_dir, existing);
  }
  if (::access(existing.c_str(), W_OK | X_OK) != 0) {
    return fmt::format("--out-dir {}: cannot be made in {}: {}", out_dir, existing, describeErrno(errno));
  }
  return {};
}

// Every name is looked at before the first file is written, so that bad usage writes nothing: nothing that
// is not a regular file (a link, a FIFO, a directory) is ever written to, and without --force no file is
// replaced, nor one of the `inputs`. "" or the problem. `out_dir` has no trailing slash (an lstat of "LINK/"
// would follow the link).
std::string checkReportFiles(const std::string& out_dir, const std::vector<ReportFile>& files, bool force,
                             const std::vector<std::string>& inputs) {
  struct stat st {};
  if (::lstat(out_dir.c_str(), &st) != 0) {
    // Absent: made below, with nothing in it yet. An unusable name is refused now.
    const int err = errno;
    if (err == ENOENT) return absentDirProblem(out_dir);
    return fmt::format("--out-dir {}: {}", out_dir, describeErrno(err));
  }
  // A link is never written through, even to a directory: the report would land in whatever it points to
  // (and --force replace what is there).
  if (S_ISLNK(st.st_mode)) {
    return fmt::format(
        "--out-dir {} is a symbolic link: give the directory itself (nothing is written "
        "through a link)",
        out_dir);
  }
  if (!S_ISDIR(st.st_mode)) return fmt::format("--out-dir {}: exists and is not a directory", out_dir);
  std::vector<std::string> existing;
  for (const ReportFile& file : files) {
    for (const std::string& path : {file.path, file.png ? file.pngPath() : std::string()}) {
      if (path.empty()) continue;
      const OutputCheck output = checkOutput(path, kReportRole);
      if (output.state == OutputState::kRefused) return output.problem;
      if (std::string problem = outputIsAnInput(path, inputs, kReportRole); !problem.empty()) return problem;
      if (output.state == OutputState::kRegularFile && !force) existing.push_back(path);
    }
  }
  return existing.empty() ? std::string() : existingReportFiles(out_dir, existing);
}

// Each file is a new file renamed into place (the PNG too), so none is ever half written; without --force a
// file that appeared since the check is kept and is an error.
int writeReportFiles(const std::string& out_dir, const std::vector<ReportFile>& files, bool force) {
  if (const std::string problem = makeDirectories(out_dir); !problem.empty()) {
    printCommandError("report", problem);
    return kExitFailed;
  }
  const Replace replace = force ? Replace::kRegularFile : Replace::kNothing;
  struct stat made {};
  if (::lstat(out_dir.c_str(), &made) != 0 || !S_ISDIR(made.st_mode)) {
    printCommandError("report", fmt::format("--out-dir {} is not a directory (or a link was swapped in): "
                                            "nothing written",
                                            out_dir));
    return kExitFailed;
  }
  for (const ReportFile& file : files) {
    // The directory checked is the one written into: a link swapped in meanwhile is never written through.
    struct stat now {};
    if (::lstat(out_dir.c_str(), &now) != 0 || !S_ISDIR(now.st_mode) || now.st_dev != made.st_dev ||
        now.st_ino != made.st_ino) {
      printCommandError("report", fmt::format("--out-dir {} was replaced while the report was written: "
                                              "nothing more written",
                                              out_dir));
      return kExitFailed;
    }
    if (const std::string problem = writeFileAtomically(file.path, file.content, replace, kReportRole);
        !problem.empty()) {
      printCommandError("report", problem);
      return kExitFailed;
    }
    if (!file.png) continue;
    try {
      svgToPng(file.path, file.pngPath(), replace);
    } catch (const std::exception& e) {
      printCommandError("report", e.what());
      return kExitFailed;
    }
  }
  return kExitOk;
}

// ---- mdbench import ----

// The usage problem, if any. The output is looked at before any input is read: a link, FIFO, directory, ...
// is never written to.
std::optional<std::string> importUsageProblem(const ImportArgs& a) {
  if (a.inputs.empty()) return "no input file given";
  if (a.out.empty()) return "-o FILE.h5 is required";
  // auto, each tool's --format value once (textFormats(), in its order) and io500.
  std::vector<std::string_view> formats = {"auto"};
  for (const TextFormat& f : textFormats()) {
    if (std::find(formats.begin(), formats.end(), f.option) == formats.end()) formats.push_back(f.option);
  }
  formats.push_back("io500");
  if (std::find(formats.begin(), formats.end(), a.format) == formats.end()) {
    return fmt::format("--format: '{}' is not {} or {}", a.format,
                       fmt::join(formats.begin(), formats.end() - 1, ", "), formats.back());
  }
  const OutputCheck output = checkOutput(a.out, "results file");
  if (output.state == OutputState::kRefused) return output.problem;
  if (!a.append && output.state == OutputState::kRegularFile)
    return fmt::format("{} exists: use --append to add to it", a.out);
  return std::nullopt;
}

// Every input parsed, with one line per input saying what it held. writeImports writes the data-path
// imports first, then the metadata ones: the lines are kept apart to follow that order.
struct ParsedImports {
  std::vector<DataPathImport> datapath;
  std::vector<MetadataImport> metadata;
  std::vector<std::string> datapath_lines, metadata_lines;
};

template <class Import>
void addParsed(const Import& imported, std::vector<Import>& imports, std::vector<std::string>& lines) {
  imports.push_back(imported);
  lines.push_back(fmt::format("{}: {} {}, {}", imported.source, imported.tool, imported.tool_version,
                              describeRows(imported.rows)));
}

// A directory holding result_summary.txt (not through a link): an IO500 result directory.
bool isIo500Dir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
         ::lstat(pathIn(path, "result_summary.txt").c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The summary and the phase logs it names that are there (a missing log is left out, a log that cannot be
// read is an error); "" or the message.
std::string parseIo500Dir(const std::string& dir, ParsedImports& parsed) {
  const std::string summary_path = pathIn(dir, "result_summary.txt");
  std::string summary, error;
  if (!readInput(summary_path, summary, error)) return error;
  std::vector<Io500Log> logs;
  for (const std::string& phase : io500Phases(summary)) {
    Io500Log log{phase, pathIn(dir, fmt::format("{}.txt", phase)), {}};
    struct stat st {};
    if (::lstat(log.path.c_str(), &st) != 0 && errno == ENOENT) continue;
    if (!readInput(log.path, log.text, error)) return error;
    logs.push_back(std::move(log));
  }
  const Io500Import imported = parseIo500(summary, summary_path, logs);
  for (const DataPathImport& imp : imported.datapath) addParsed(imp, parsed.datapath, parsed.datapath_lines);
  for (const MetadataImport& imp : imported.metadata) addParsed(imp, parsed.metadata, parsed.metadata_lines);
  return {};
}

// One input read and parsed into `parsed`; "" or the message (ImportError is caught by the caller).
std::string parseImport(const std::string& input, const std::string& format, ParsedImports& parsed) {
  if ((format == "auto" || format == "io500") && isIo500Dir(input)) return parseIo500Dir(input, parsed);
  if (format == "io500") return fmt::format("{}: not a directory holding result_summary.txt", input);
  if (struct stat st{}; format == "auto" && ::stat(input.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    return fmt::format(
        "{}: a directory, and not an IO500 result directory (no regular file result_summary.txt in it); "
        "give a tool's output file, or the directory IO500 wrote",
        input);
  }
  std::string text, error;
  if (!readInput(input, text, error)) return error;
  // --format picks the tool; of its formats (IOR's JSON and text), the one the text looks like.
  const std::string detected = detectImportFormat(text);
  const TextFormat* tool = findTextFormat(detected);
  if (format != "auto" && (tool == nullptr || tool->option != format)) {
    tool = nullptr;
    for (const TextFormat& f : textFormats()) {
      if (f.option == format) {
        tool = &f;
        break;
      }
    }
  }
  if (tool == nullptr) {
    return fmt::format(
        "{}: not recognised as IOR JSON or text, IOzone throughput, mdtest or md-workbench output or an "
        "IO500 result directory (give --format to say which)",
        input);
  }
  if (tool->datapath != nullptr) {
    addParsed(tool->datapath(text, input), parsed.datapath, parsed.datapath_lines);
  } else {
    addParsed(tool->metadata(text, input), parsed.metadata, parsed.metadata_lines);
  }
  return {};
}

// Everything is parsed before anything is written: one bad input leaves the results file as it was.
int parseImports(const ImportArgs& a, ParsedImports& parsed) {
  for (const std::string& input : a.inputs) {
    std::string problem;
    try {
      problem = parseImport(input, a.format, parsed);
    } catch (const ImportError& e) {
      problem = e.what();
    }
    if (!problem.empty()) {
      printCommandError("import", problem);
      return kExitFailed;
    }
  }
  return kExitOk;
}

// Writes the imports and says, per input, which run group it went to.
int writeParsedImports(const ImportArgs& a, const ParsedImports& parsed) {
  try {
    const std::vector<std::string> groups =
        writeImports(a.out, a.append ? OutputMode::kAppend : OutputMode::kCreate, parsed.datapath,
                     parsed.metadata, {utcTimestampNow(), std::string(version())});
    std::vector<std::string> lines = parsed.datapath_lines;
    lines.insert(lines.end(), parsed.metadata_lines.begin(), parsed.metadata_lines.end());
    for (std::size_t i = 0; i < lines.size() && i < groups.size(); ++i) {
      fmt::print("{} -> {} {}\n", lines[i], a.out, groups[i]);
    }
  } catch (const ResultsFileError& e) {
    printCommandError("import", e.what());
    return kExitFailed;
  }
  return kExitOk;
}

// ---- mdbench report ----

// The configurations named on the command line, the baseline last when it is a further one; "" or the
// usage problem.
std::string resolveConfigs(const ReportArgs& a, ReportOptions& report, std::vector<ConfigSpec>& configs) {
  // The baseline, when it is none of them, comes last; its label must not be theirs either.
  if (std::string problem = parseConfigSpecs(a.specs, configs); !problem.empty()) return problem;
  if (!a.baseline.empty()) {
    for (std::size_t i = 0; i < configs.size() && !report.baseline; ++i) {
      if (configs[i].label == a.baseline || a.specs[i] == a.baseline) report.baseline = i;
    }
    if (!report.baseline) {
      configs.push_back(parseConfigSpec(a.baseline));
      if (configs.back().files.empty()) return "--baseline names no file";
      report.baseline = configs.size() - 1;
    }
  }
  return duplicateLabelProblem(configs);
}

// Every usage problem is found before any results file is read; "" or the first.
std::string reportUsageProblem(const ReportArgs& a, ReportOptions& report, std::vector<ConfigSpec>& configs) {
  if (a.specs.empty()) return "no results file given";
  if (a.bars != "minmax" && a.bars != "stddev")
    return fmt::format("--error-bars: '{}' is not minmax or stddev", a.bars);
  report.error_bars = a.bars == "minmax" ? ErrorBars::kMinMax : ErrorBars::kStddev;
  if (a.png && a.out_dir.empty()) return "--png needs --out-dir DIR";
  return resolveConfigs(a, report, configs);
}

// Each file is read once, for the scaling model and the runs' throughput over time; a configuration's
// files are let go before the next one is read. A label's mdbench runs and each tool's imports with one
// command line become configurations of their own (buildConfigurations); the baseline is the first of its.
int readConfigurations(const std::vector<ConfigSpec>& given, Grouping grouping, ReportOptions& report,
                       std::vector<Configuration>& configs, std::vector<TimelineRun>& timelines) {
  std::optional<std::size_t> baseline;
  try {
    for (std::size_t i = 0; i < given.size(); ++i) {
      const ConfigSpec& spec = given[i];
      std::vector<StoredResults> results;
      results.reserve(spec.files.size());
      for (const std::string& file : spec.files) results.push_back(readValidResultsFile(file));
      if (report.baseline == i) baseline = configs.size();
      for (Configuration& c : buildConfigurations(spec.label, spec.files, results, grouping))
        configs.push_back(std::move(c));
      std::vector<TimelineRun> runs = timelineRuns(spec.label, spec.files, results);
      timelines.insert(timelines.end(), std::make_move_iterator(runs.begin()),
                       std::make_move_iterator(runs.end()));
    }
  } catch (const ResultsFileError& e) {
    printCommandError("report", e.what());
    return kExitFailed;
  }
  report.baseline = baseline;
  return kExitOk;
}

// The files of a report in --out-dir: report.md, then each chart's SVG (and its PNG with --png).
std::vector<ReportFile> reportFiles(const ReportArgs& a, const std::string& markdown,
                                    const std::vector<ReportChart>& charts) {
  std::vector<ReportFile> files;
  files.push_back({pathIn(a.out_dir, kReportName), markdown});
  for (const ReportChart& chart : charts)
    files.push_back({pathIn(a.out_dir, chart.stem + ".svg"), chart.svg, a.png});
  return files;
}

// report.md and the charts into --out-dir, checked (checkReportFiles) before anything was printed: an
// existing report is kept whole or replaced whole.
int writeReportDir(const ReportArgs& a, const std::vector<ReportFile>& files) {
  if (const int status = writeReportFiles(a.out_dir, files, a.force); status != kExitOk) return status;
  const std::size_t charts = files.size() - 1;
  fmt::print("wrote {} and {} chart{}{}\n", files.front().path, charts, charts == 1 ? "" : "s",
             a.png ? " (SVG and PNG)" : " (SVG)");
  return kExitOk;
}

}  // namespace

po::options_description importOptions(ImportArgs* bind) {
  po::options_description options;
  options.add_options()("help,h", "print this help")(
      "format,f",
      po::value(bound(bind, &ImportArgs::format))->value_name("auto|ior|iozone|mdtest|md-workbench|io500"),
      "the tool that wrote every INPUT (default: recognised from each file)")(
      "output,o", po::value(bound(bind, &ImportArgs::out))->value_name("FILE.h5"),
      "the results file to write (required)")(
      "append", po::bool_switch(bound(bind, &ImportArgs::append)),
      "add to an existing results file, made when absent (an existing FILE is an error otherwise)")(
      "input", po::value(bound(bind, &ImportArgs::inputs)), "a tool's output, or an IO500 result directory");
  return options;
}

int runImport(const std::vector<std::string>& args) {
  failWritesPastSizeLimit();
  ImportArgs a;
  const po::options_description options = importOptions(&a);
  po::variables_map vm;
  if (!parseToolArgs("import", args, options, "input", -1, vm)) return kExitUsage;
  if (vm.count("help")) return printSubcommandHelp("import", options);
  if (const std::optional<std::string> problem = importUsageProblem(a)) {
    return toolUsageError("import", *problem);
  }
  ParsedImports parsed;
  if (const int status = parseImports(a, parsed); status != kExitOk) return status;
  return writeParsedImports(a, parsed);
}

po::options_description reportOptions(ReportArgs* bind) {
  po::options_description options;
  options.add_options()("help,h", "print this help")(
      "baseline,b", po::value(bound(bind, &ReportArgs::baseline))->value_name("LABEL|[LABEL=]FILE"),
      "show every configuration relative to this one (a LABEL given, or a further configuration)")(
      "out-dir,d", po::value(bound(bind, &ReportArgs::out_dir))->value_name("DIR"),
      "write report.md, one SVG chart per phase and data-path operation, overview.svg, and one "
      "timeline-*.svg per run (throughput over time) into DIR")(
      "png", po::bool_switch(bound(bind, &ReportArgs::png)),
      "also write each chart as PNG (needs rsvg-convert: librsvg2-bin)")(
      "force", po::bool_switch(bound(bind, &ReportArgs::force)), "replace report files that exist in DIR")(
      "markdown", po::bool_switch(bound(bind, &ReportArgs::markdown)),
      "print the Markdown report instead of the console tables")(
      "pool", po::bool_switch(bound(bind, &ReportArgs::pool)),
      "pool a label's mdbench runs and every tool's imports by rank count (default: the runs, and each "
      "tool and command line, are configurations of their own)")(
      "error-bars", po::value(bound(bind, &ReportArgs::bars))->value_name("minmax|stddev"),
      "error bars from the slowest to the fastest iteration (default), or mean +- one standard deviation")(
      "config", po::value(bound(bind, &ReportArgs::specs)), "a configuration");
  return options;
}

int runReport(const std::vector<std::string>& args) {
  failWritesPastSizeLimit();
  ReportArgs a;
  const po::options_description options = reportOptions(&a);
  po::variables_map vm;
  if (!parseToolArgs("report", args, options, "config", -1, vm)) return kExitUsage;
  if (vm.count("help")) return printSubcommandHelp("report", options);
  // "DIR/" and "DIR" are one directory, looked at and named the same way.
  a.out_dir = withoutTrailingSlashes(a.out_dir);
  ReportOptions report;
  std::vector<ConfigSpec> given;
  if (const std::string problem = reportUsageProblem(a, report, given); !problem.empty()) {
    return toolUsageError("report", problem);
  }
  std::vector<std::string> inputs;
  for (const ConfigSpec& spec : given) inputs.insert(inputs.end(), spec.files.begin(), spec.files.end());
  // What can be checked before any file is read (the directory, what report.md's name is) is: a report that
  // cannot be written fails at once, whatever the size of its inputs. Files that exist without --force are
  // named below, all in one message, once the charts' names are known.
  if (!a.out_dir.empty()) {
    if (const std::string problem =
            checkReportFiles(a.out_dir, {{pathIn(a.out_dir, kReportName), {}}}, true, inputs);
        !problem.empty())
      return toolUsageError("report", problem);
  }
  std::vector<Configuration> configs;
  std::vector<TimelineRun> timelines;
  report.png = a.png;
  if (const int status = readConfigurations(given, a.pool ? Grouping::kPooled : Grouping::kBySource, report,
                                            configs, timelines);
      status != kExitOk)
    return status;
  const std::vector<ReportChart> charts = reportCharts(configs, report, timelines);
  // The Markdown only when it is printed or written (a large report takes a while to render).
  const std::string markdown =
      a.markdown || !a.out_dir.empty() ? reportMarkdown(configs, report, charts, timelines) : std::string();
  // Every file is checked before anything is printed: a refused report prints its one message alone.
  const std::vector<ReportFile> files =
      a.out_dir.empty() ? std::vector<ReportFile>() : reportFiles(a, markdown, charts);
  if (const std::string problem =
          a.out_dir.empty() ? std::string() : checkReportFiles(a.out_dir, files, a.force, inputs);
      !problem.empty())
    return toolUsageError("report", problem);
  fmt::print("{}", a.markdown ? markdown : reportText(configs, report, timelines));
  if (a.out_dir.empty()) return kExitOk;
  return writeReportDir(a, files);
}

}  // namespace mdbench
