// mdbench report: configurations (one or more results files each) as tables and scaling charts, and each
// configuration relative to a baseline. Pure: text and chart specs out; the subcommand writes the files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mdbench/chart.hpp"
#include "mdbench/scaling.hpp"

namespace mdbench {

enum class ErrorBars : std::uint8_t {
  kMinMax,  // the slowest and the fastest iteration
  kStddev,  // mean +- one sample standard deviation (not below 0)
};

struct ReportOptions {
  std::optional<std::size_t> baseline;  // index into the configurations
  ErrorBars error_bars = ErrorBars::kMinMax;
};

// Series names over all configurations: metadata phases in execution order, then data path by name.
std::vector<std::string> reportSeries(const std::vector<Configuration>& configs);

// One chart of the report: its file name without extension ("file-create", "ior-write",
// "file-create-relative", "overview") and the SVG.
struct ReportChart {
  std::string series;  // "" for the overview
  std::string stem;
  bool relative = false;
  std::string svg;
};

// Per series, ops/s (MiB/s) against ranks (clients) with one curve per configuration; with a baseline,
// also each other configuration's ratio to it; last, an overview with every absolute chart as a panel.
std::vector<ReportChart> reportCharts(const std::vector<Configuration>& configs,
                                      const ReportOptions& options);
ChartSpec seriesChart(const std::vector<Configuration>& configs, const std::string& series,
                      const ReportOptions& options);
ChartSpec relativeChart(const std::vector<Configuration>& configs, const std::string& series,
                        const ReportOptions& options);

// The tables: per series, one row per rank count and one column per configuration (mean +- stddev, and
// with a baseline the ratio to it), then each configuration's peak and saturation point and notes.
std::string reportText(const std::vector<Configuration>& configs, const ReportOptions& options);
// The same as Markdown, with the charts (ReportChart stems + ".svg") embedded as images.
std::string reportMarkdown(const std::vector<Configuration>& configs, const ReportOptions& options,
                           const std::vector<ReportChart>& charts);

// A file-name-safe stem for a series name ("ior:write" -> "ior-write").
std::string chartStem(const std::string& series);

}  // namespace mdbench
