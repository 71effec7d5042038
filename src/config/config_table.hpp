// The main command's options, one row each (fio's options.c and parse.h are the model): names, value name,
// help text, group, kind, where the value lands in Config and the option's own check. Everything else is
// generated from the rows: the Boost table the tokenizer reads (config_table.cpp), the conversions into
// Config (config.cpp), --help and the rows exported for the man page and the completion (config_help.cpp),
// and every message that names an option. Private to src/config/.
#pragma once

#include <array>
#include <boost/program_options.hpp>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "mdbench/config/backends.hpp"
#include "mdbench/config/config.hpp"

namespace mdbench::config_detail {

namespace po = boost::program_options;

enum class OptionKind : std::uint8_t {
  kSwitch,         // no value: -u
  kCounter,        // no value, and each occurrence counts: -v, -vv
  kCount,          // a whole number: -n 5
  kOptionalCount,  // a whole number that may be left out: -R, -R 7
  kBytes,          // a byte count, optionally with k, m or g: -w 4k
  kSeconds,        // digits with an optional fraction: -W 0.5
  kText,           // a path, a name or a list: checked by the row's hook, or read with others (the sweep's)
};

// The --help groups, in the order --help prints them; the last one it leaves out.
enum class OptionGroup : std::uint8_t {
  kWorkload,
  kTree,
  kPhases,
  kOrder,
  kData,
  kOutput,
  kBackend,
  kMdtest
};

struct GroupRow {
  OptionGroup id;
  std::string_view caption;
  bool in_help;
};

inline constexpr std::array<GroupRow, 8> kOptionGroups = {{
    {OptionGroup::kWorkload, "Workload", true},
    {OptionGroup::kTree, "Tree", true},
    {OptionGroup::kPhases,
     "Phases (none of -C -T -E -r -U given: all five, as mdtest; without read for -D; a preset: its own)",
     true},
    {OptionGroup::kOrder, "Order and timing (SECONDS: digits, optionally with a fraction: 300, 0.5)", true},
    {OptionGroup::kData, "Data (B: bytes, or with suffix k, m, g for KiB, MiB, GiB; at most 1g)", true},
    {OptionGroup::kOutput, "Output and run", true},
    // Each backend's own options, named <prefix>.<name> as mdtest names them (backends.hpp's rows).
    {OptionGroup::kBackend, "Backend options (mdtest's; each only with its -a)", true},
    // mdtest's spelling of --sweep and -X, its switches for what mdbench always does, and its further
    // options: parsed, documented in the man page, named in one line of --help.
    {OptionGroup::kMdtest, "mdtest's further options (docs/mdtest.md)", false},
}};

// Where a value lands in Config. A switch (and -R, given with or without its seed) calls `on`; a number
// arrives converted, at most `max`; a text arrives as given, after the row's check. Nothing set: the option
// changes no field by itself (--help, mdtest's -P; the sweep's options, which convertSweep reads together).
struct Land {
  void (*on)(Config&) = nullptr;
  void (*number)(Config&, std::uint64_t) = nullptr;
  void (*seconds)(Config&, double) = nullptr;
  void (*text)(Config&, const std::string&) = nullptr;
  std::uint64_t max = 0;
  // A backend's option: its value as the results file records it (backendOptionValues), a number or a text.
  std::uint64_t (*get)(const Config&) = nullptr;
  std::string (*get_text)(const Config&) = nullptr;
};

// A backend's switch or count, a member of one of Config's backend option structs.
template <auto kGroup, auto kField>
constexpr Land backendFlag() {
  return {.on = [](Config& config) { (config.*kGroup).*kField = true; },
          .get = [](const Config& config) -> std::uint64_t { return (config.*kGroup).*kField ? 1 : 0; }};
}
template <auto kGroup, auto kField>
constexpr Land backendCount() {
  return {.number = [](Config& config, std::uint64_t value) { (config.*kGroup).*kField = value; },
          .max = std::numeric_limits<std::uint64_t>::max(),
          .get = [](const Config& config) -> std::uint64_t { return (config.*kGroup).*kField; }};
}

template <auto kGroup, auto kField>
constexpr Land backendText() {
  return {.text = [](Config& config, const std::string& value) { (config.*kGroup).*kField = value; },
          .get_text = [](const Config& config) -> std::string { return (config.*kGroup).*kField; }};
}

// A member of Config, with the largest value its type holds.
template <auto kField>
constexpr Land number() {
  using Field = std::remove_cvref_t<decltype(std::declval<Config&>().*kField)>;
  return {.number = [](Config& config, std::uint64_t value) { config.*kField = static_cast<Field>(value); },
          .max = std::numeric_limits<Field>::max()};
}
template <auto kField>
constexpr Land seconds() {
  return {.seconds = [](Config& config, double value) { config.*kField = value; }};
}
template <auto kField>
constexpr Land text() {
  return {.text = [](Config& config, const std::string& value) { config.*kField = value; }};
}
template <auto kField>
constexpr Land flag() {
  return {.on = [](Config& config) { config.*kField = true; }};
}
template <auto kPhase>
constexpr Land phase() {
  return {.on = [](Config& config) { config.phases.*kPhase = true; }};
}

// A text option's own check: appends each problem of the value, named `label` ("-d/--dir").
using TextCheck = void (*)(const std::string& label, const std::string& value,
                           std::vector<std::string>& errors);
void checkDirValue(const std::string& label, const std::string& value, std::vector<std::string>& errors);
void checkStonewallFileValue(const std::string& label, const std::string& value,
                             std::vector<std::string>& errors);
void checkOutputValue(const std::string& label, const std::string& value, std::vector<std::string>& errors);
void checkPresetValue(const std::string& label, const std::string& value, std::vector<std::string>& errors);
void checkApiValue(const std::string& label, const std::string& value, std::vector<std::string>& errors);
void checkOffsetValue(const std::string& label, const std::string& value, std::vector<std::string>& errors);
void checkPacketValue(const std::string& label, const std::string& value, std::vector<std::string>& errors);
void checkPathStyleValue(const std::string& label, const std::string& value,
                         std::vector<std::string>& errors);
void checkSyncCallValue(const std::string& label, const std::string& value, std::vector<std::string>& errors);
void checkCommandValue(const std::string& label, const std::string& value, std::vector<std::string>& errors);
void checkFileValue(const std::string& label, const std::string& value, std::vector<std::string>& errors);
void checkServerStatsValue(const std::string& label, const std::string& value,
                           std::vector<std::string>& errors);
void landDir(Config& config, const std::string& value);  // -d: the text, and its targets when they split
void landApi(Config& config, const std::string& value);  // each: only a value its check accepts
void landOffset(Config& config, const std::string& value);
void landPacket(Config& config, const std::string& value);
void landPathStyle(Config& config, const std::string& value);
void landSyncCall(Config& config, const std::string& value);
// -o's words that select the console style rather than name a results file ("-o ./mdtest" names a file).
bool isConsoleStyle(const std::string& value);
void landConsoleStyle(Config& config, const std::string& value);
void landPreset(Config& config, const std::string& value);  // --preset: only a name the table knows

enum class WithSteady : std::uint8_t { kYes, kNo };  // kNo: no meaning in --steady's mix (checkSteady)

struct OptionRow {
  std::string_view long_name;
  char short_name;              // mdtest's letter; 0: none
  std::string_view value_name;  // empty for a switch
  OptionGroup group;
  OptionKind kind;
  Land land;
  std::string_view help;  // '\n' where --help breaks the line
  WithSteady steady = WithSteady::kYes;
  TextCheck check = nullptr;
};

// The text options given more than once, each occurrence a value of its own (RawOption::texts): -o (a
// results file and a console style), --server-stats (a source each), --fault-at, --fault-cmd (a fault
// each, in pairs) and --fault-phase (a phase each).
inline constexpr std::array<std::string_view, 5> kRepeatedTexts = {"output", "server-stats", "fault-at",
                                                                   "fault-cmd", "fault-phase"};

// The rows, in --help's order within each group. In a namespace of their own, where the kinds and groups
// need no qualification.
namespace option_rows {
using enum OptionKind;
using enum OptionGroup;
inline constexpr WithSteady kNot = WithSteady::kNo;
// clang-format off
inline constexpr std::array<OptionRow, 85> kOptionRows = {{
  {"items", 'n', "N", kWorkload, kCount, number<&Config::items>(),
   "items per rank, exact (default 1000; required with --preset)"},
  {"files-only", 'F', "", kWorkload, kSwitch, {.on = [](Config& c) { c.kinds = ItemKinds::kFilesOnly; }},
   "files only (default: files and directories)", kNot},
  {"dirs-only", 'D', "", kWorkload, kSwitch, {.on = [](Config& c) { c.kinds = ItemKinds::kDirsOnly; }},
   "directories only", kNot},
  {"shared-files", 'S', "", kWorkload, kSwitch, flag<&Config::shared_files>(),
   "every rank uses the same file names (implies -F; not with -u)", kNot},
  {"steady", 0, "ROUNDS", kWorkload, kCount, number<&Config::steady_rounds>(),
   "md-workbench's steady mix: ROUNDS x stat, read, delete, create"},
  {"datasets", 0, "D", kWorkload, kCount, number<&Config::datasets>(),
   "--steady: directories the -n objects are spread over (default 10)"},
  {"preset", 0, "NAME", kWorkload, kText, {.text = landPreset},
   "IO500's mdtest options, read before the others (see Presets)", kNot, checkPresetValue},
  {"api", 'a', kApiValueName, kWorkload, kText, {.text = landApi},
   "the backend (default POSIX; see Backends below)", WithSteady::kYes, checkApiValue},
  {"path-style", 0, "STYLE", kWorkload, kText, {.text = landPathStyle},
   "full (default): mdtest's calls on full paths from -d (rates comparable\n"
   "with mdtest's); dirfd: names relative to directories opened once",
   WithSteady::kYes, checkPathStyleValue},

  {"dir", 'd', "DIR", kTree, kText, {.text = landDir},
   "directory to run in (default: a new mdbench.<stamp> in the current one);\n"
   "DIR@DIR@...: rank r runs in the (r mod count)-th (needs -u, no -N);\n"
   "an '@' in a directory's name is written \\@ (-d 'run\\@2')", WithSteady::kYes, checkDirValue},
  {"unique-dir", 'u', "", kTree, kSwitch, {.on = [](Config& c) { c.sharing = TreeSharing::kUnique; }},
   "a tree per rank (default: one tree shared by all)", kNot},
  {"depth", 'z', "N", kTree, kCount, number<&Config::depth>(),
   "tree depth (default 0: the tree is one directory)", kNot},
  {"branching", 'b', "N", kTree, kCount, number<&Config::branching>(),
   "subdirectories per directory (default 1)", kNot},
  {"items-per-dir", 'I', "N", kTree, kCount, number<&Config::items_per_dir>(),
   "N items per item directory (default: spread -n evenly); as mdtest, with\n"
   "-n over a shared tree -n/N whole trees of N per directory (-n a multiple\n"
   "of N: -n 6 -I 3 -z 1 -b 2 makes 18 items per rank); not -n and -I with -u", kNot},
  {"leaf-only", 'L', "", kTree, kSwitch, flag<&Config::leaf_only>(),
   "items only in the leaf directories", kNot},

  {"create", 'C', "", kPhases, kSwitch, phase<&PhaseSelection::create>(), "create the items", kNot},
  {"stat", 'T', "", kPhases, kSwitch, phase<&PhaseSelection::stat>(), "stat the items", kNot},
  {"read", 'E', "", kPhases, kSwitch, phase<&PhaseSelection::read>(), "read the files (-e bytes each)", kNot},
  {"remove", 'r', "", kPhases, kSwitch, phase<&PhaseSelection::remove>(), "remove the items", kNot},
  {"rename", 'U', "", kPhases, kSwitch, phase<&PhaseSelection::rename>(),
   "rename the directories as mdtest: each rank's names rotate, none added", kNot},
  {"file-rename", 0, "", kPhases, kSwitch, phase<&PhaseSelection::file_rename>(),
   "also rename every file to <name>.renamed (mdbench's; not mdtest's)", kNot},
  {"readdir", 0, "", kPhases, kSwitch, phase<&PhaseSelection::readdir>(),
   "also list every tree directory and check its entries", kNot},
  {"renamed", 0, "", kPhases, kSwitch, flag<&Config::renamed>(),
   "files renamed by an earlier --file-rename job; not with -C", kNot},

  {"shift", 'N', "S", kOrder, kCount, number<&Config::shift>(),
   "later phases work on the items of rank r+S (mod ranks), defeating\n"
   "client caches (default 0: each rank its own)"},
  {"random", 'R', "[SEED]", kOrder, kOptionalCount,
   {.on = [](Config& c) { c.random_order = true; },
    .number = [](Config& c, std::uint64_t seed) { c.random_seed = seed; },
    .max = std::numeric_limits<std::uint64_t>::max()},
   "stat, read and readdir in a random order from SEED (default 0); the\n"
   "next word is SEED when it starts with a digit: -R 7, -R7, --random=7", kNot},
  {"stonewall", 'W', "SECONDS", kOrder, kSeconds, seconds<&Config::stonewall_s>(),
   "creates, stats and reads stop after SECONDS, then every rank goes\n"
   "on to the highest count reached; renames and removes note the rate\n"
   "at SECONDS and finish (default 0: off)"},
  {"stonewall-file", 'x', "FILE", kOrder, kText, text<&Config::stonewall_file>(),
   "the create phase writes the item count it reached to FILE; runs\n"
   "without -C read it from there", kNot, checkStonewallFileValue},
  {"pre-delay", 'p', "SECONDS", kOrder, kSeconds, seconds<&Config::pre_delay_s>(),
   "sleep before each iteration (default 0)"},
  {"series-interval", 0, "SECONDS", kOrder, kSeconds, seconds<&Config::series_interval_s>(),
   "count every rank's ops per SECONDS: throughput over time (default 0.1)"},
  {"progress", 0, "SECONDS", kOrder, kSeconds, seconds<&Config::progress_s>(),
   "print rank 0's progress every SECONDS (0: never; default: live on a terminal)"},

  {"write-bytes", 'w', "B", kData, kBytes, number<&Config::write_bytes>(),
   "bytes written to each file it creates (default 0)"},
  {"read-bytes", 'e', "B", kData, kBytes, number<&Config::read_bytes>(),
   "bytes read from each file in the read phase (default 0)", kNot},
  {"fsync", 'y', "", kData, kSwitch, flag<&Config::fsync_writes>(),
   "fsync each file after writing it (nothing to do without -w)", kNot},
  {"sync", 'Y', "", kData, kSwitch, flag<&Config::sync_phases>(),
   "sync at the end of each item phase, inside its timed region (not the\n"
   "tree's, as mdtest; a preset: the create phase only, as IO500)", kNot},
  {"sync-call", 0, "CALL", kData, kText, {.text = landSyncCall},
   "what -Y calls: sync (default, as mdtest) or syncfs (the target's only)", kNot, checkSyncCallValue},
  {"verify", 'X', "", kData, kSwitch, flag<&Config::verify_read>(),
   "check the bytes read against the pattern written (needs -e > 0)", kNot},

  {"iterations", 'i', "N", kOutput, kCount, number<&Config::iterations>(),
   "repeat the selected phases N times (default 1)"},
  {"keep", 0, "", kOutput, kSwitch, flag<&Config::keep>(), "leave the tree in place after the run", kNot},
  // Its values are read by convertOutput (config.cpp): files and console styles, each at most once.
  {"output", 'o', "FILE", kOutput, kText, {},
   "HDF5 results file (default: mdbench-<UTC time>[-<job id>].h5 in the\n"
   "current directory); never overwritten unless --force. mdtest, mdbench:\n"
   "the console's layout instead (a file so named: -o ./mdtest)"},
  {"force", 0, "", kOutput, kSwitch, {.on = [](Config& c) { c.output_mode = OutputMode::kForce; }},
   "replace an existing results file"},
  {"append", 0, "", kOutput, kSwitch, {.on = [](Config& c) { c.output_mode = OutputMode::kAppend; }},
   "add this run to an existing results file (made when absent)"},
  {"sweep", 0, "STEPS", kOutput, kText, {},
   "the whole run once per step of 1,2,4,.. ranks or pow2 (or mdtest's -f -l -s)"},
  {"sweep-placement", 0, "P", kOutput, kText, {},
   "a step of k: block, ranks 0..k-1 (default); spread, round-robin over nodes", kNot},
  {"verbose", 'v', "", kOutput, kCounter, number<&Config::verbosity>(),
   "more detail on the console; repeat for more: -vv (-v=3: 3)"},
  {"verbosity", 'V', "N", kOutput, kCount, number<&Config::verbosity>(), "the verbosity: -V 4 is -vvvv"},
  {"help", 'h', "", kOutput, kSwitch, {}, "print this help and exit"},
  {"version", 0, "", kOutput, kSwitch, {}, "print the version and exit"},
  {"server-stats", 0, "SOURCE", kOutput, kText,
   {.text = [](Config& c, const std::string& value) { c.server_stats.push_back(value); }},
   "MDS counters per phase, repeatable: ceph-mds:SOCK, lustre-mdt:GLOB,\n"
   "ganesha:DBUS_ADDRESS (NFS-Ganesha's per-operation counts), cmd:CMD", kNot,
   checkServerStatsValue},
  {"fault-at", 0, "SECONDS", kOutput, kText, {},
   "repeatable, paired with --fault-cmd: SECONDS into each phase, rank 0\n"
   "starts the fault command (outside the timing, without waiting)"},
  {"fault-cmd", 0, "CMD", kOutput, kText, {},
   "the fault command (sh -c, its own process group) of the --fault-at\n"
   "given in the same position; its start, status and output are recorded"},
  {"fault-phase", 0, "PHASE", kOutput, kText, {},
   "repeatable: the phases the faults go into, e.g. file-create (default:\n"
   "every phase; with --steady its mix: precreate, mix or cleanup)"},

  {"posix.odirect", 0, "", kBackend, kSwitch, backendFlag<&Config::posix, &PosixBackendOptions::odirect>(),
   "-a POSIX: O_DIRECT on the files' opens (aligned buffers; -w, -e multiples\n"
   "of the file system's O_DIRECT alignment; refused where it has none)"},
  {"posix.rangelocks", 0, "", kBackend, kSwitch,
   backendFlag<&Config::posix, &PosixBackendOptions::rangelocks>(),
   "-a POSIX: lock the range of each write (-w) and read (-e) with fcntl"},
  {"dummy.delay-create", 0, "US", kBackend, kCount,
   backendCount<&Config::dummy, &DummyBackendOptions::delay_create_us>(),
   "-a DUMMY: sleep US microseconds per file create"},
  {"dummy.delay-close", 0, "US", kBackend, kCount,
   backendCount<&Config::dummy, &DummyBackendOptions::delay_close_us>(),
   "-a DUMMY: per close (of a file created or read)"},
  {"dummy.delay-sync", 0, "US", kBackend, kCount,
   backendCount<&Config::dummy, &DummyBackendOptions::delay_sync_us>(), "-a DUMMY: per sync (-Y)"},
  {"dummy.delay-xfer", 0, "US", kBackend, kCount,
   backendCount<&Config::dummy, &DummyBackendOptions::delay_xfer_us>(),
   "-a DUMMY: per transfer (-w's write, -e's read)"},
  {"dummy.delay-only-rank0", 0, "", kBackend, kSwitch,
   backendFlag<&Config::dummy, &DummyBackendOptions::delay_only_rank0>(), "-a DUMMY: only rank 0 sleeps"},
  {"cephfs.user", 0, "ID", kBackend, kText, backendText<&Config::cephfs, &CephfsBackendOptions::user>(),
   "-a CEPHFS: the cephx client id, without \"client.\" (default admin)"},
  {"cephfs.conf", 0, "FILE", kBackend, kText, backendText<&Config::cephfs, &CephfsBackendOptions::conf>(),
   "-a CEPHFS: the ceph.conf to read (default $CEPH_CONF)"},
  {"cephfs.prefix", 0, "PATH", kBackend, kText, backendText<&Config::cephfs, &CephfsBackendOptions::prefix>(),
   "-a CEPHFS: taken off the front of -d (-d PATH/x is /x in the CephFS)"},
  {"cephfs.remote_prefix", 0, "PATH", kBackend, kText,
   backendText<&Config::cephfs, &CephfsBackendOptions::remote_prefix>(),
   "-a CEPHFS: the CephFS directory each client mounts (default /)"},
  {"cephfs.olazy", 0, "", kBackend, kSwitch, backendFlag<&Config::cephfs, &CephfsBackendOptions::olazy>(),
   "-a CEPHFS: lazy I/O (ceph_lazyio) on the files' opens"},
  {"libnfs.url", 0, "URL", kBackend, kText, backendText<&Config::libnfs, &LibnfsBackendOptions::url>(),
   "-a LIBNFS: the server and export, nfs://SERVER/EXPORT/?version=4 (the\n"
   "trailing '/' is needed; -d is a path inside the export)"},

  // Rate and time are always printed, and creating the trees (unique ones too) is always timed as a phase.
  {"print-rate-and-time", 'P', "", kMdtest, kSwitch, flag<&Config::print_rate_and_time>(),
   "--output mdtest: print the rate and the time tables"},
  {"time-unique-overhead", 't', "", kMdtest, kSwitch, {}, "accepted for mdtest scripts"},
  // Whole numbers, converted together with --sweep (convertSweep): "-f x --sweep 4" is one contradiction.
  {"sweep-first", 'f', "N", kMdtest, kText, {}, "first step (default 1)"},
  {"sweep-last", 'l', "N", kMdtest, kText, {}, "last step: FIRST, FIRST+STRIDE, ... up to LAST"},
  {"sweep-stride", 's', "N", kMdtest, kText, {}, "ranks between steps (default 1)"},
  {"run-cmd-before-phase", 0, "CMD", kMdtest, kText, text<&Config::cmd_before_phase>(),
   "every rank runs CMD (sh -c) before each item phase's opening barrier,\n"
   "outside the timing (not around the tree phases, as mdtest)", kNot, checkCommandValue},
  {"run-cmd-after-phase", 0, "CMD", kMdtest, kText, text<&Config::cmd_after_phase>(),
   "every rank runs CMD after each item phase's operations, inside the\n"
   "timing (not after the tree phases, as mdtest)", kNot, checkCommandValue},
  {"random-seed", 0, "SEED", kMdtest, kCount, number<&Config::random_seed>(),
   "mdtest's seed for -R (what -R SEED gives)", kNot},
  {"verify-write", 0, "", kMdtest, kSwitch, flag<&Config::verify_write>(),
   "read each file back right after writing it, and check it", kNot},
  {"dataPacketType", 0, "T", kMdtest, kText, {.text = landPacket},
   "what -w writes: timestamp (default), offset, incompressible, random,\n"
   "or their first letters t, o, i, r", kNot, checkPacketValue},
  {"buffer-offset", 'G', "OFFSET", kMdtest, kText, {.text = landOffset},
   "data packets' offset (mdtest's -G; default 0, mdtest's the time)", kNot, checkOffsetValue},
  {"mknod", 'k', "", kMdtest, kSwitch, flag<&Config::make_node>(),
   "create files with mknod instead of open and close (not with -w)", kNot},
  {"collective-creates", 'c', "", kMdtest, kSwitch, flag<&Config::collective_creates>(),
   "rank 0 makes every create; the others wait (not with -S, -B, several -d)", kNot},
  {"no-barriers", 'B', "[0|1]", kMdtest, kOptionalCount,
   {.on = [](Config& c) { c.no_barriers = true; },
    .number = [](Config& c, std::uint64_t value) { c.no_barriers = value != 0; },
    .max = std::numeric_limits<std::uint64_t>::max()},
   "no barriers between phases: rates from each rank's own time (-B 0:\n"
   "barriers; not with -N, -c)", kNot},
  {"print-time", 'Z', "", kMdtest, kSwitch, flag<&Config::print_time>(),
   "--output mdtest: times instead of rates (in seconds)", kNot},
  {"print-all-procs", 0, "", kMdtest, kSwitch, flag<&Config::print_all_procs>(),
   "every rank prints an excerpt of its own results", kNot},
  {"showRankStatistics", 0, "", kMdtest, kSwitch, flag<&Config::show_rank_statistics>(),
   "per-rank max, min and mean columns", kNot},
  {"saveRankPerformanceDetails", 0, "FILE", kMdtest, kText, text<&Config::rank_details_csv>(),
   "mdtest 4.1's per-rank CSV: an 'all' row, a row per iteration and rank", kNot, checkFileValue},
  {"savePerOpDataCSV", 0, "PREFIX", kMdtest, kText, text<&Config::per_op_csv_prefix>(),
   "each rank writes each op's start and duration to PREFIX<rank>.csv", kNot, checkFileValue},
  {"warningAsErrors", 0, "", kMdtest, kSwitch, flag<&Config::warnings_as_errors>(),
   "a warning (e.g. a read phase with -e 0 only opens and closes) is a\n"
   "usage error, exit 2", kNot},
  {"verify-read", 0, "", kMdtest, kSwitch, flag<&Config::verify_read>(), "mdtest's name for -X/--verify", kNot},
}};
// clang-format on
}  // namespace option_rows
using option_rows::kOptionRows;

// A row by its long name, found while compiling: a misspelt name does not build.
consteval const OptionRow& row(std::string_view long_name) {
  for (const OptionRow& option : kOptionRows) {
    if (option.long_name == long_name) return option;
  }
  throw "no such option";  // not a constant expression: the build stops here
}

// An option named in code, checked against the rows while compiling: label("items") builds, a misspelt
// name does not.
class OptionRef {
 public:
  consteval OptionRef(const char* long_name)
      : row_(&row(long_name)) {}  // NOLINT(google-explicit-constructor)
  const OptionRow& operator*() const { return *row_; }

 private:
  const OptionRow* row_;
};

inline std::size_t rowIndex(const OptionRow& option) {
  return static_cast<std::size_t>(&option - kOptionRows.data());
}

// The option as messages name it: "-n/--items", or "--keep" without a short name.
inline std::string shown(const OptionRow& option) {
  std::string label;
  if (option.short_name != 0) label = std::string{'-', option.short_name} + "/";
  return label + "--" + std::string(option.long_name);
}

inline std::string label(OptionRef option) { return shown(*option); }

// The value options in the order their values are converted, and so the order of their messages: numbers,
// then paths and names, then the sweep's (convertSweep). Help's order differs; this one is what job
// scripts have always seen.
inline constexpr std::array<const OptionRow*, 49> kConversionOrder = {&row("items"),
                                                                      &row("items-per-dir"),
                                                                      &row("depth"),
                                                                      &row("branching"),
                                                                      &row("iterations"),
                                                                      &row("write-bytes"),
                                                                      &row("read-bytes"),
                                                                      &row("shift"),
                                                                      &row("random"),
                                                                      &row("stonewall"),
                                                                      &row("pre-delay"),
                                                                      &row("series-interval"),
                                                                      &row("steady"),
                                                                      &row("datasets"),
                                                                      &row("progress"),
                                                                      &row("dir"),
                                                                      &row("stonewall-file"),
                                                                      &row("output"),
                                                                      &row("preset"),
                                                                      &row("sweep"),
                                                                      &row("sweep-placement"),
                                                                      &row("sweep-first"),
                                                                      &row("sweep-last"),
                                                                      &row("sweep-stride"),
                                                                      &row("random-seed"),
                                                                      &row("verbosity"),
                                                                      &row("no-barriers"),
                                                                      &row("buffer-offset"),
                                                                      &row("api"),
                                                                      &row("path-style"),
                                                                      &row("sync-call"),
                                                                      &row("dataPacketType"),
                                                                      &row("saveRankPerformanceDetails"),
                                                                      &row("savePerOpDataCSV"),
                                                                      &row("run-cmd-before-phase"),
                                                                      &row("run-cmd-after-phase"),
                                                                      &row("server-stats"),
                                                                      &row("fault-at"),
                                                                      &row("fault-cmd"),
                                                                      &row("fault-phase"),
                                                                      &row("dummy.delay-create"),
                                                                      &row("dummy.delay-close"),
                                                                      &row("dummy.delay-sync"),
                                                                      &row("dummy.delay-xfer"),
                                                                      &row("cephfs.user"),
                                                                      &row("cephfs.conf"),
                                                                      &row("cephfs.prefix"),
                                                                      &row("cephfs.remote_prefix"),
                                                                      &row("libnfs.url")};

// What the command line (after a preset) said for each row, before conversion. Values stay strings so that
// a bad one becomes a message, not an exception.
struct RawValue {
  bool given = false;               // a switch given "=0" (mdtest's off) is not given
  std::optional<std::string> text;  // the last value given; none for a switch (or -R without a seed)
  std::uint32_t count = 0;          // kCounter: the occurrences, or the number given ("-v=3")
  std::vector<std::string> texts;   // -o, --server-stats, --fault-*: every value, in order
};

class RawOptions {
 public:
  RawValue& operator[](const OptionRow& option) { return values_[rowIndex(option)]; }
  const RawValue& operator[](const OptionRow& option) const { return values_[rowIndex(option)]; }
  const RawValue& operator[](OptionRef option) const { return (*this)[*option]; }

 private:
  std::array<RawValue, kOptionRows.size()> values_{};
};

// Every backend option given (a switch, or a value) whose backend is not `api`: a usage error naming it.
void checkBackendOptions(const RawOptions& raw, Api api, std::vector<std::string>& errors);

// The Boost table the tokenizer looks options up in, generated from the rows; each option's semantic stores
// what it is given into raw.
po::options_description buildOptionTable(RawOptions& raw);

// The row of a Boost option the table made.
const OptionRow& rowOf(const po::option_description& option);

}  // namespace mdbench::config_detail
