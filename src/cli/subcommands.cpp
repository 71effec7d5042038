// The table of subcommands (subcommands.hpp): each one's name, usage, summary, options, the notes its --help
// ends with, and the function that runs it.
#include "mdbench/cli/subcommands.hpp"

#include <algorithm>
#include <array>
#include <boost/make_shared.hpp>
#include <cctype>
#include <iostream>
#include <stdexcept>
#include <string>

#include "mdbench/cli/app.hpp"
#include "tools.hpp"

namespace mdbench {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kCheckNotes = R"(
Rules: SERIES[.METRIC][@RANKS] OP VALUE[UNIT], one per --require or one a line in a --rules file
('#' starts a comment). Examples: "file-create >= 50k ops/s", "file-stat.p99@8 < 2ms",
"ior:write.rate-min >= 1.5 GiB/s", "ior:read@16 >= 2 GB/s", "file-create.failed == 0".
  SERIES  a phase (tree-create, dir-create, ..., file-create, file-stat, ..., tree-remove), steady (the
          mix of --steady runs), or a data-path series TOOL:OPERATION (ior:write, iozone:initial-write)
  METRIC  rate (default: mean over iterations of the aggregate rate), rate-min, rate-max (worst and best
          iteration), stonewall-rate, p50, p90, p99, p999, latency-max, failed (failed operations summed),
          stall (the longest time no rank completed an operation), recovery (the slowest of the faults
          --fault-at injected: "file-create.recovery <= 60s", "steady.stall <= 30s");
          all but the rates are measured by mdbench metadata runs only;
          server(COUNTER): a metadata server counter's delta over the phase, summed over the sources of
          --server-stats (mean over iterations), server(COUNTER)/op: that per client operation; VALUE a
          number or `ops`, the phase's operations: "file-create.server(mds.request)/op <= 1.1",
          "file-create.server(mds_server.req_create_latency.avgcount) == ops"
  RANKS   one rank (client) count; without it the rule must hold at every count the series has
  OP      >=, <=, >, <, ==
  VALUE   rates: a number with optional k, M, G (x1e3, x1e6, x1e9), then optionally a unit: metadata
          ops/s; data path MiB/s (the default), KiB/s, GiB/s, TiB/s (powers of 1024 bytes) or MB/s,
          GB/s, TB/s (powers of 1000), also spelt /sec as IOR prints them (kB/s is refused: IOzone's kB
          is 1024 bytes, SI's 1000); latencies need a unit: ns, us, ms, s; failed: a whole number
A rule whose series, rank count or metric is missing from the results fails as NO-DATA (JUnit failure
type no-data; a missed limit is type threshold), naming what is missing and the files.
Each argument (FILE, or LABEL=FILE,FILE as mdbench report takes it; the label defaults to the file's name)
is a configuration of its own, and so are its mdbench runs and each tool's imports with one command line:
a rule is checked on each that has its series, and each verdict names it ("[ext4]", "[ext4 (mdtest 2)]").
--pool pools everything by rank count instead, and each verdict says so ("[pooled: 2 files]").
Exit status: 0 every rule holds, 3 a rule does not, 2 bad usage or a bad rule, 1 a file cannot be read.
)";

// clang-format off
const std::array<Subcommand, 6> kSubcommands = {{
    {"validate", "mdbench validate FILE...", "check results files against the schema",
     [] { return validateOptions(); },
     "Exit status: 0 all files valid, 1 a file is not, 2 bad usage.\n",
     runValidate},
    {"export", "mdbench export FILE --format json|csv [-o OUT]",
     "results as JSON or CSV (one row per run, iteration, phase and rank)",
     [] { return exportOptions(); },
     "Exit status: 0 exported, 1 the results file cannot be read or OUT written, 2 bad usage.\n", runExport},
    {"import", "mdbench import INPUT... -o FILE.h5",
     "other tools' results into a results file (IOR, IOzone, mdtest, md-workbench, IO500 result directories)",
     [] { return importOptions(); },
     "IOR: its text output or -O summaryFormat=JSON (stdout or -O summaryFile). IOzone: throughput mode,\n"
     "iozone -t N. mdtest: its whole output, with or without -P and --showRankStatistics, sweeps included\n"
     "(-Z alone prints no rates: refused). md-workbench: its whole output. IO500: the result directory\n"
     "(result_summary.txt and the ior-*.txt and mdtest-*.txt logs beside it).\n"
     "Exit status: 0 imported, 1 an input cannot be read or parsed (nothing written), 2 bad usage.\n",
     runImport},
    {"report", "mdbench report [LABEL=]FILE[,FILE...]...",
     "tables and scaling charts; each argument is one configuration (several files of one configuration are "
     "pooled by rank count)",
     [] { return reportOptions(); },
     "Exit status: 0 report written, 1 a results file cannot be read or a report file written, 2 bad usage.\n",
     runReport},
    {"check", "mdbench check [LABEL=]FILE[,FILE...]... --require RULE ... [--rules FILE] [--junit OUT]",
     "acceptance gates on results files (each argument, tool and command line apart)",
     [] { return checkOptions(); }, kCheckNotes, runCheck},
    {"clean", "mdbench clean [-a API] DIR...",
     "remove what interrupted mdbench runs left in DIR (a target, a run's iteration\n"
     "directory, or the directory holding targets mdbench made), and nothing else",
     [] { return cleanOptions(); },
     "Only directories carrying mdbench's mark (.mdbench-run, written by the run that made them)\n"
     "are entered, and only names mdbench generates, of the type it gives them, are removed;\n"
     "links are never followed. Anything else stays and is listed. -a names the backend the runs\n"
     "used (POSIX by default), with the options that told them where their storage is\n"
     "(--cephfs.conf, --cephfs.user, --cephfs.prefix, --libnfs.url; DIR as their -d gave it);\n"
     "-a DUMMY stores nothing, so there is nothing to clean.\n"
     "Exit status: 0 everything found was removed (or nothing was found), 1 something stays or a\n"
     "DIR cannot be used, 2 bad usage.\n",
     runClean},
}};
// clang-format on

}  // namespace

std::span<const Subcommand> subcommands() { return kSubcommands; }

const Subcommand* findSubcommand(std::string_view name) {
  for (const Subcommand& sub : kSubcommands) {
    if (sub.name == name) return &sub;
  }
  return nullptr;
}

namespace {

// The options as --help shows them: the operand (the one option bound without a value name, which Boost
// would print as "arg") named as the usage line names it, "--file FILE"; lines as wide as the notes.
po::options_description helpOptions(const po::options_description& options) {
  constexpr unsigned kLineLength = 110;
  po::options_description shown(kLineLength, kLineLength / 2);
  for (const auto& option : options.options()) {
    if (option->semantic()->max_tokens() == 0 || option->format_parameter() != "arg") {
      shown.add(option);
      continue;
    }
    std::string value_name = option->long_name();
    std::transform(value_name.begin(), value_name.end(), value_name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    shown.add(boost::make_shared<po::option_description>(option->long_name().c_str(),
                                                         po::value<std::string>()->value_name(value_name),
                                                         option->description().c_str()));
  }
  return shown;
}

}  // namespace

int printSubcommandHelp(std::string_view name, const po::options_description& options) {
  const Subcommand* sub = findSubcommand(name);
  if (sub == nullptr) throw std::logic_error("no subcommand " + std::string(name));
  // As Boost prints a caption, "CAPTION:" on a line of its own, then the options.
  std::cout << sub->usage << ": " << sub->summary << ":\n" << helpOptions(options) << sub->notes;
  return kExitOk;
}

}  // namespace mdbench
