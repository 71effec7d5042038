// Results of other tools brought into a results file (mdbench import): data-path summaries from IOR and
// IOzone, metadata summaries from mdtest. Plain data; the parsers never touch HDF5.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mdbench {

// Input a parser cannot read: names the source, the 1-based line (0: not line-specific) and the cause.
// what() is "SOURCE:LINE: MESSAGE" (or "SOURCE: MESSAGE").
class ImportError : public std::runtime_error {
 public:
  ImportError(const std::string& source, std::size_t line, const std::string& message);
  std::size_t line() const { return line_; }

 private:
  std::size_t line_;
};

// One operation at one client count, aggregate over all clients. Bandwidth in MiB/s (2^20 bytes per
// second): IOR reports MiB/s; IOzone's "kB/sec" are KiB/s and are divided by 1024.
struct DataPathRow {
  std::string operation;  // IOR: "write", "read"; IOzone: "initial-write", "rewrite", "read", "re-read", ...
  std::uint32_t clients = 0;     // IOR numTasks; IOzone processes or threads (-t N)
  std::uint32_t nodes = 0;       // 0: not known
  std::uint32_t iterations = 0;  // IOR repetitions; IOzone 1
  double mib_per_s_max = 0.0;    // over iterations
  double mib_per_s_min = 0.0;
  double mib_per_s_mean = 0.0;
  double mib_per_s_stddev = 0.0;     // as the tool reported it; 0 with one iteration
  double ops_per_s_mean = 0.0;       // IOR OPsMean; 0 when not reported
  std::uint64_t transfer_bytes = 0;  // IOR transferSize, IOzone record size; 0: not known
  std::uint64_t block_bytes = 0;     // IOR blockSize, IOzone file size per client; 0: not known
};

// One imported output of a data-path tool.
struct DataPathImport {
  std::string tool;          // "ior" or "iozone"
  std::string tool_version;  // as printed, "" when absent
  std::string command_line;  // as printed, "" when absent
  std::string began;         // start time as the tool printed it, "" when absent
  std::string source;        // the file it was read from (as given to import)
  std::vector<DataPathRow> rows;
  std::string group;         // the results file's group it was read from ("/datapath/import-0000"); "" before
  std::string imported_utc;  // once read from a results file: when and by which mdbench it was imported
  std::string mdbench_version;
};

// One mdtest operation at one rank count. Rates in ops/s over iterations, as in mdtest's SUMMARY rate
// table; times (seconds) from the SUMMARY time table when mdtest printed it (-P or newer mdtest), else 0.
struct MetadataImportRow {
  std::string phase;      // the mdbench phase name ("file-create", ...); "" when mdbench has no such phase
  std::string operation;  // mdtest's own label, e.g. "File creation"
  std::uint32_t ranks = 0;
  std::uint32_t nodes = 0;  // 0: not known
  std::uint32_t iterations = 0;
  double ops_per_s_max = 0.0;
  double ops_per_s_min = 0.0;
  double ops_per_s_mean = 0.0;
  double ops_per_s_stddev = 0.0;
  double time_s_mean = 0.0;  // 0: no time table
  // mdtest --showRankStatistics: its "per Rank" Max, Min and Mean columns of the rate table (one rank's
  // ops/s, over the ranks and iterations). Stored in the import group's `rank_statistics` table.
  bool has_rank_statistics = false;
  double per_rank_ops_per_s_max = 0.0;
  double per_rank_ops_per_s_min = 0.0;
  double per_rank_ops_per_s_mean = 0.0;
  // Latency of one operation where the tool printed it (md-workbench), in nanoseconds: the largest of each
  // figure over the iterations. Stored in the import group's `latency` table.
  bool has_latency = false;
  double latency_p50_ns = 0.0;
  double latency_p90_ns = 0.0;
  double latency_p99_ns = 0.0;
  double latency_max_ns = 0.0;
};

struct MetadataImport {
  std::string tool;  // "mdtest", "md-workbench"
  std::string tool_version;
  std::string command_line;
  std::string began;
  std::string source;
  std::vector<MetadataImportRow> rows;
  std::string group;         // "/metadata-imports/import-0000" once read from a results file
  std::string imported_utc;  // once read from a results file, as for DataPathImport
  std::string mdbench_version;
};

// Parsers: text is the whole file, source names it in errors. Each throws ImportError on input that is
// not the tool's output or is malformed, naming the line; none crashes or loops on any input.
DataPathImport parseIorJson(std::string_view text, const std::string& source);
// IOR's text output: its "Summary of all tests:" table.
DataPathImport parseIorText(std::string_view text, const std::string& source);
// md-workbench's output: a row per phase (precreate, benchmark, cleanup) and per benchmark operation
// ("benchmark read", ...), rates over the iterations, latencies where the phase printed them.
MetadataImport parseMdWorkbench(std::string_view text, const std::string& source);
DataPathImport parseIozone(std::string_view text, const std::string& source);
MetadataImport parseMdtest(std::string_view text, const std::string& source);

// An IO500 result directory: its result_summary.txt and the phase logs beside it (<phase>.txt), read by
// the caller. The summary's figures become an "io500" import of each kind (GiB/s as MiB/s, kIOPS as ops/s;
// an invalid phase keeps IO500's " [INVALID]" in its operation), each log the import of its own tool.
struct Io500Log {
  std::string phase;  // "ior-easy-write", ...
  std::string path;   // as read, for the import's source
  std::string text;
};
struct Io500Import {
  std::vector<DataPathImport> datapath;
  std::vector<MetadataImport> metadata;
};
// The phase logs a summary names, in its order (the caller reads those that exist).
std::vector<std::string> io500Phases(std::string_view summary);
// The tool name of an IO500 import (its data-path and metadata rows alike).
inline constexpr std::string_view kIo500Tool = "io500";
Io500Import parseIo500(std::string_view summary, const std::string& summary_path,
                       const std::vector<Io500Log>& logs);

// The tools' text formats mdbench reads, each defined once here: its name (what detectImportFormat
// returns), the --format value that selects it ("ior" selects IOR's JSON and its text alike) and its parser
// (one of the two, by the kind of import it makes). The importer and the fuzz target both go by this table,
// so a format added here is sniffed, selectable and fuzzed.
struct TextFormat {
  std::string_view name;
  std::string_view option;
  DataPathImport (*datapath)(std::string_view text, const std::string& source);
  MetadataImport (*metadata)(std::string_view text, const std::string& source);
};
std::span<const TextFormat> textFormats();
// The row of that name, or nullptr.
const TextFormat* findTextFormat(std::string_view name);
// The tools whose data-path rows an import writes (the TOOL of a series TOOL:OPERATION): those of the
// data-path formats, and IO500's.
std::vector<std::string_view> dataPathTools();

// Sniffs which tool wrote text: the name of one of textFormats() or "" (unknown).
std::string detectImportFormat(std::string_view text);

}  // namespace mdbench
