// The subcommands `mdbench import` (other tools' output into a results file) and `mdbench report` (tables
// and charts of one or more configurations). They run on rank 0 alone and never overwrite a file.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>

#include "mdbench/cli/app.hpp"
#include "mdbench/cli/subcommands.hpp"
#include "mdbench/cli/version.hpp"
#include "mdbench/model/imported.hpp"
#include "mdbench/report/report.hpp"
#include "mdbench/report/scaling.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/file_io.hpp"
#include "tools.hpp"

namespace mdbench {
namespace po = boost::program_options;
namespace {

// Import inputs are text summaries; anything this large is not one (and would only waste memory).
constexpr std::uintmax_t kMaxImportBytes = 64u << 20;

bool exists(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0;
}

// The whole file as text, or an error message. A link is followed (inputs are only read).
bool readInput(const std::string& path, std::string& text, std::string& error) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    error =
        exists(path) ? fmt::format("{}: not a regular file", path) : fmt::format("{}: no such file", path);
    return false;
  }
  // The read itself checks again (the name may have changed meanwhile) and stops past the cap, whatever
  // the size says (file_io.hpp).
  error = readRegularFile(path, {"input", kMaxImportBytes}, text);
  return error.empty();
}

std::string utcNow() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec);
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

// "LABEL=FILE,FILE" or "FILE,FILE": the label defaults to the first file's name without directory and
// extension.
struct ConfigSpec {
  std::string label;
  std::vector<std::string> files;
};

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

constexpr std::string_view kReportRole = "report file";

// One file of the report: its name, its content and whether a PNG of it goes beside it.
struct ReportFile {
  std::string path;
  std::string content;
  bool png = false;
  std::string pngPath() const { return path.substr(0, path.size() - 4) + ".png"; }
};

// Every name is looked at before the first file is written, so that bad usage writes nothing: nothing that
// is not a regular file (a link, a FIFO, a directory) is ever written to, and without --force no file is
// replaced. "" or the problem.
std::string checkReportFiles(const std::string& out_dir, const std::vector<ReportFile>& files, bool force) {
  struct stat st {};
  if (::stat(out_dir.c_str(), &st) != 0) {
    // Absent: made below, with nothing in it yet. A dangling link or an unusable name is refused now.
    if (errno == ENOENT && !exists(out_dir)) return {};
    return fmt::format("--out-dir {}: {}", out_dir,
                       exists(out_dir) ? "exists and is not a directory" : describeErrno(errno));
  }
  if (!S_ISDIR(st.st_mode)) return fmt::format("--out-dir {}: exists and is not a directory", out_dir);
  for (const ReportFile& file : files) {
    for (const std::string& path : {file.path, file.png ? file.pngPath() : std::string()}) {
      if (path.empty()) continue;
      const OutputCheck output = checkOutput(path, kReportRole);
      if (output.state == OutputState::kRefused) return output.problem;
      if (output.state == OutputState::kRegularFile && !force)
        return fmt::format("{} exists: use --force to replace the report files", path);
    }
  }
  return {};
}

// Each file is a new file renamed into place (the PNG too), so none is ever half written; without --force a
// file that appeared since the check is kept and is an error.
int writeReportFiles(const std::string& out_dir, const std::vector<ReportFile>& files, bool force) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    fmt::print(stderr, "mdbench report: error: cannot create {}: {}\n", out_dir, ec.message());
    return kExitFailed;
  }
  const Replace replace = force ? Replace::kRegularFile : Replace::kNothing;
  for (const ReportFile& file : files) {
    if (const std::string problem = writeFileAtomically(file.path, file.content, replace, kReportRole);
        !problem.empty()) {
      fmt::print(stderr, "mdbench report: error: {}\n", problem);
      return kExitFailed;
    }
    if (!file.png) continue;
    try {
      svgToPng(file.path, file.pngPath(), replace);
    } catch (const std::exception& e) {
      fmt::print(stderr, "mdbench report: error: {}\n", e.what());
      return kExitFailed;
    }
  }
  return kExitOk;
}

}  // namespace

po::options_description importOptions(ImportArgs* bind) {
  po::options_description options;
  options.add_options()("help,h", "print this help")(
      "format,f", po::value(bound(bind, &ImportArgs::format))->value_name("auto|ior|iozone|mdtest"),
      "the tool that wrote every INPUT (default: recognised from each file)")(
      "output,o", po::value(bound(bind, &ImportArgs::out))->value_name("FILE.h5"),
      "the results file to write (required)")(
      "append", po::bool_switch(bound(bind, &ImportArgs::append)),
      "add to an existing results file (an existing FILE is an error otherwise)")(
      "input", po::value(bound(bind, &ImportArgs::inputs)), "a tool's output");
  return options;
}

int runImport(const std::vector<std::string>& args) {
  failWritesPastSizeLimit();
  ImportArgs parsed;
  const po::options_description options = importOptions(&parsed);
  const auto& [format, out, append, inputs] = parsed;
  po::variables_map vm;
  if (!parseToolArgs("import", args, options, "input", -1, vm)) return kExitUsage;
  if (vm.count("help")) return printSubcommandHelp("import", options);
  if (inputs.empty()) return toolUsageError("import", "no input file given");
  if (out.empty()) return toolUsageError("import", "-o FILE.h5 is required");
  if (format != "auto" && format != "ior" && format != "iozone" && format != "mdtest") {
    return toolUsageError("import", fmt::format("--format: '{}' is not auto, ior, iozone or mdtest", format));
  }
  // The output is looked at before any input is read: a link, FIFO, directory, ... is never written to.
  const OutputCheck output = checkOutput(out, "results file");
  if (output.state == OutputState::kRefused) return toolUsageError("import", output.problem);
  if (!append && output.state == OutputState::kRegularFile)
    return toolUsageError("import", fmt::format("{} exists: use --append to add to it", out));

  // Everything is parsed before anything is written: one bad input leaves the results file as it was.
  std::vector<DataPathImport> datapath;
  std::vector<MetadataImport> metadata;
  // writeImports writes the data-path imports first, then the metadata ones: the lines follow that order.
  std::vector<std::string> datapath_lines, metadata_lines;
  for (const std::string& input : inputs) {
    std::string text, error;
    if (!readInput(input, text, error)) {
      fmt::print(stderr, "mdbench import: error: {}\n", error);
      return kExitFailed;
    }
    const std::string tool = format == "auto" ? detectImportFormat(text) : format;
    try {
      if (tool == "ior" || tool == "iozone") {
        datapath.push_back(tool == "ior" ? parseIorJson(text, input) : parseIozone(text, input));
        datapath_lines.push_back(fmt::format("{}: {} {}, {}", input, tool, datapath.back().tool_version,
                                             describeRows(datapath.back().rows)));
      } else if (tool == "mdtest") {
        metadata.push_back(parseMdtest(text, input));
        metadata_lines.push_back(fmt::format("{}: mdtest {}, {}", input, metadata.back().tool_version,
                                             describeRows(metadata.back().rows)));
      } else {
        fmt::print(
            stderr,
            "mdbench import: error: {}: not recognised as IOR JSON, IOzone throughput output or mdtest "
            "output (give --format to say which)\n",
            input);
        return kExitFailed;
      }
    } catch (const ImportError& e) {
      fmt::print(stderr, "mdbench import: error: {}\n", e.what());
      return kExitFailed;
    }
  }
  try {
    const std::vector<std::string> groups =
        writeImports(out, append ? OutputMode::kAppend : OutputMode::kCreate, datapath, metadata,
                     {utcNow(), std::string(version())});
    std::vector<std::string> lines = std::move(datapath_lines);
    lines.insert(lines.end(), metadata_lines.begin(), metadata_lines.end());
    for (std::size_t i = 0; i < lines.size() && i < groups.size(); ++i) {
      fmt::print("{} -> {} {}\n", lines[i], out, groups[i]);
    }
  } catch (const ResultsFileError& e) {
    fmt::print(stderr, "mdbench import: error: {}\n", e.what());
    return kExitFailed;
  }
  return kExitOk;
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
      "error-bars", po::value(bound(bind, &ReportArgs::bars))->value_name("minmax|stddev"),
      "error bars from the slowest to the fastest iteration (default), or mean +- one standard deviation")(
      "config", po::value(bound(bind, &ReportArgs::specs)), "a configuration");
  return options;
}

int runReport(const std::vector<std::string>& args) {
  failWritesPastSizeLimit();
  ReportArgs parsed;
  const po::options_description options = reportOptions(&parsed);
  const auto& [specs, baseline, out_dir, bars, png, force, markdown] = parsed;
  po::variables_map vm;
  if (!parseToolArgs("report", args, options, "config", -1, vm)) return kExitUsage;
  if (vm.count("help")) return printSubcommandHelp("report", options);
  if (specs.empty()) return toolUsageError("report", "no results file given");
  ReportOptions report;
  if (bars != "minmax" && bars != "stddev") {
    return toolUsageError("report", fmt::format("--error-bars: '{}' is not minmax or stddev", bars));
  }
  report.error_bars = bars == "minmax" ? ErrorBars::kMinMax : ErrorBars::kStddev;
  if (png && out_dir.empty()) return toolUsageError("report", "--png needs --out-dir DIR");

  std::vector<ConfigSpec> configs_given;
  for (const std::string& text : specs) {
    configs_given.push_back(parseConfigSpec(text));
    if (configs_given.back().files.empty())
      return toolUsageError("report", fmt::format("'{}' names no file", text));
  }
  if (!baseline.empty()) {
    for (std::size_t i = 0; i < configs_given.size() && !report.baseline; ++i) {
      if (configs_given[i].label == baseline || specs[i] == baseline) report.baseline = i;
    }
    if (!report.baseline) {
      configs_given.push_back(parseConfigSpec(baseline));
      if (configs_given.back().files.empty()) return toolUsageError("report", "--baseline names no file");
      report.baseline = configs_given.size() - 1;
    }
  }
  for (std::size_t i = 0; i < configs_given.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (configs_given[i].label == configs_given[j].label) {
        return toolUsageError("report",
                              fmt::format("two configurations are labelled '{}': name them LABEL=FILE",
                                          configs_given[i].label));
      }
    }
  }

  // Each file is read once, for the scaling model and the runs' throughput over time; a configuration's
  // files are let go before the next one is read.
  std::vector<Configuration> configs;
  std::vector<TimelineRun> timelines;
  try {
    for (const ConfigSpec& spec : configs_given) {
      std::vector<StoredResults> results;
      results.reserve(spec.files.size());
      for (const std::string& file : spec.files) results.push_back(readResultsFile(file));
      configs.push_back(buildConfiguration(spec.label, spec.files, results));
      std::vector<TimelineRun> runs = timelineRuns(spec.label, spec.files, results);
      timelines.insert(timelines.end(), std::make_move_iterator(runs.begin()),
                       std::make_move_iterator(runs.end()));
    }
  } catch (const ResultsFileError& e) {
    fmt::print(stderr, "mdbench report: error: {}\n", e.what());
    return kExitFailed;
  }

  const std::vector<ReportChart> charts = reportCharts(configs, report, timelines);
  if (markdown) {
    fmt::print("{}", reportMarkdown(configs, report, charts, timelines));
  } else {
    fmt::print("{}", reportText(configs, report, timelines));
  }
  if (out_dir.empty()) return kExitOk;

  // Every file is checked before the first is written: an existing report is kept whole or replaced whole.
  std::vector<ReportFile> files;
  files.push_back({out_dir + "/report.md", reportMarkdown(configs, report, charts, timelines)});
  for (const ReportChart& chart : charts)
    files.push_back({fmt::format("{}/{}.svg", out_dir, chart.stem), chart.svg, png});
  if (const std::string problem = checkReportFiles(out_dir, files, force); !problem.empty()) {
    return toolUsageError("report", problem);
  }
  if (const int status = writeReportFiles(out_dir, files, force); status != kExitOk) return status;
  fmt::print("wrote {}/report.md and {} chart{}{}\n", out_dir, charts.size(), charts.size() == 1 ? "" : "s",
             png ? " (SVG and PNG)" : " (SVG)");
  return kExitOk;
}

}  // namespace mdbench
