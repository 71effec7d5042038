// Run configuration: a plain value, parsed from the command line, resolved and validated before any I/O.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/util/enum_names.hpp"

namespace mdbench {

enum class TreeSharing : std::uint8_t { kShared, kUnique };            // -u selects kUnique
enum class ItemKinds : std::uint8_t { kBoth, kFilesOnly, kDirsOnly };  // -F / -D
inline constexpr EnumNames<TreeSharing, 2> kTreeSharingNames{{
    {TreeSharing::kShared, "shared"},
    {TreeSharing::kUnique, "unique"},
}};
inline constexpr EnumNames<ItemKinds, 3> kItemKindsNames{{
    {ItemKinds::kBoth, "both"},
    {ItemKinds::kFilesOnly, "files"},
    {ItemKinds::kDirsOnly, "dirs"},
}};

enum class OutputMode : std::uint8_t {
  kCreate,  // the results file must not exist
  kForce,   // --force: replace an existing file
  kAppend,  // --append: add a run group to an existing results file (or create it)
};

// -C -T -E -r -U --readdir --file-rename. When none of -C -T -E -r -U is given, mdtest's five are selected
// (read only when files are in play: not with -D), or a preset's; --readdir and --file-rename add their phase
// to any selection.
struct PhaseSelection {
  bool create = false;
  bool stat = false;
  bool read = false;
  bool remove = false;
  bool rename = false;   // -U, --rename: mdtest's directory rename (each rank's names rotated, none added)
  bool readdir = false;  // --readdir: list every tree directory and check its entry counts
  bool file_rename = false;  // --file-rename: mdbench's file rename (to <name>.renamed) after stat and read
  bool any() const { return create || stat || read || remove || rename || readdir || file_rename; }
};

// --sweep-placement: which ranks take part in a sweep step of k ranks. kNone marks a run that is not a
// sweep step (the results file records it so); a Config's sweep never holds it.
enum class SweepPlacement : std::uint8_t {
  kNone,
  kBlock,   // world ranks 0 .. k-1
  kSpread,  // round-robin across the nodes: the i-th participant from node i mod nodes
};
inline constexpr EnumNames<SweepPlacement, 3> kSweepPlacementNames{{
    {SweepPlacement::kNone, "none"},
    {SweepPlacement::kBlock, "block"},
    {SweepPlacement::kSpread, "spread"},
}};
inline std::string_view sweepPlacementName(SweepPlacement placement) {
  return nameOf(kSweepPlacementNames, placement);
}

// --sweep LIST|pow2, or mdtest's -f FIRST -l LAST -s STRIDE: run the whole workload once per step on that
// many ranks. The steps are resolved against the job size at run time (sweep.hpp).
struct SweepSpec {
  enum class Kind : std::uint8_t { kNone, kList, kPow2 };
  Kind kind = Kind::kNone;
  std::vector<std::uint32_t> steps;  // kList: strictly increasing, each >= 1 (-f/-l/-s expand into it)
  SweepPlacement placement = SweepPlacement::kBlock;
  bool active() const { return kind != Kind::kNone; }
};

// -a API (mdtest's backends): one row each in backends.hpp (name, options, what it can do).
enum class Api : std::uint8_t { kPosix, kDummy, kCephfs, kLibnfs };
std::string_view apiName(Api api);  // the row's name: "POSIX", "DUMMY", "CEPHFS", "LIBNFS"

// --posix.*: mdtest 4.1's POSIX backend options (aiori-POSIX.c), with its meaning.
struct PosixBackendOptions {
  bool odirect = false;     // --posix.odirect: O_DIRECT on the file data's opens (aligned buffers)
  bool rangelocks = false;  // --posix.rangelocks: fcntl range lock around each write and read
};

// --dummy.*: mdtest 4.1's DUMMY backend options (aiori-DUMMY.c): sleeps, in microseconds.
struct DummyBackendOptions {
  std::uint64_t delay_create_us = 0;  // --dummy.delay-create: per file create
  std::uint64_t delay_close_us = 0;   // --dummy.delay-close: per close (after a create and a read)
  std::uint64_t delay_sync_us = 0;    // --dummy.delay-sync: per sync (-Y)
  std::uint64_t delay_xfer_us = 0;    // --dummy.delay-xfer: per transfer (-w's write, -e's read)
  bool delay_only_rank0 = false;      // --dummy.delay-only-rank0: only rank 0 sleeps
};

// --cephfs.*: mdtest 4.1's CEPHFS backend options (aiori-CEPHFS.c), with its meaning.
struct CephfsBackendOptions {
  std::string user;           // --cephfs.user: the cephx id, without "client." ("": libcephfs's, admin)
  std::string conf;           // --cephfs.conf: the ceph.conf to read ("": $CEPH_CONF, /etc/ceph/ceph.conf)
  std::string prefix;         // --cephfs.prefix: taken off the front of -d's paths (mdtest's pfix)
  std::string remote_prefix;  // --cephfs.remote_prefix: the CephFS directory each client mounts ("": /)
  bool olazy = false;         // --cephfs.olazy: lazy I/O (ceph_lazyio) on every file opened
};

// --libnfs.*: mdtest 4.1's LIBNFS backend option (aiori-LIBNFS.c), with its meaning.
struct LibnfsBackendOptions {
  std::string url;  // --libnfs.url: nfs://SERVER/EXPORT/?version=4 (RFC 2224, libnfs's URL options)
};

// --path-style: how the POSIX backend names an item in each system call. kFull: the full path from -d, the
// calls mdtest 4.1's POSIX backend makes (rates comparable with mdtest's); kDirfd: one name relative to a
// directory descriptor opened once (openat, fstatat, unlinkat), no path walk per operation.
enum class PathStyle : std::uint8_t { kFull, kDirfd };
inline constexpr EnumNames<PathStyle, 2> kPathStyleNames{
    {{PathStyle::kFull, "full"}, {PathStyle::kDirfd, "dirfd"}}};
inline std::string_view pathStyleName(PathStyle style) { return nameOf(kPathStyleNames, style); }

// -Y's system call: sync(2), as mdtest's POSIX backend (every file system of the node), or syncfs(2) on the
// target's file system only (--sync-call syncfs).
enum class SyncCall : std::uint8_t { kSync, kSyncfs };
inline constexpr EnumNames<SyncCall, 2> kSyncCallNames{
    {{SyncCall::kSync, "sync"}, {SyncCall::kSyncfs, "syncfs"}}};
inline std::string_view syncCallName(SyncCall call) { return nameOf(kSyncCallNames, call); }

// The console's layout: mdbench's tables, or mdtest's (--output mdtest: its SUMMARY table, -P/-Z/
// --showRankStatistics variants) for scripts that parse mdtest logs.
enum class ConsoleStyle : std::uint8_t { kMdbench, kMdtest };
inline constexpr EnumNames<ConsoleStyle, 2> kConsoleStyleNames{
    {{ConsoleStyle::kMdbench, "mdbench"}, {ConsoleStyle::kMdtest, "mdtest"}}};

// --dataPacketType: what the bytes written with -w hold (mdtest's packet types).
enum class DataPacket : std::uint8_t { kTimestamp, kOffset, kIncompressible, kRandom };
inline constexpr EnumNames<DataPacket, 4> kDataPacketNames{{
    {DataPacket::kTimestamp, "timestamp"},
    {DataPacket::kOffset, "offset"},
    {DataPacket::kIncompressible, "incompressible"},
    {DataPacket::kRandom, "random"},
}};
inline std::string_view dataPacketName(DataPacket packet) { return nameOf(kDataPacketNames, packet); }

// One --fault-at/--fault-cmd pair: `command` started through /bin/sh -c by rank 0 `at_s` seconds into each
// phase, in a process group of its own, outside the timing (issue 34).
struct FaultSpec {
  double at_s = 0.0;
  std::string command;
};

struct Config {
  // -n, --items: items per rank, exact, as every step counts them. Given with -I over a shared tree, the
  // command line's -n is mdtest's: n/I loops, each a whole tree with -I items per item directory, so this
  // holds n x item directories (resolve). -I alone: -I x item directories, one loop.
  std::uint64_t items = 1000;
  std::string target;  // -d, --dir: empty means a fresh mdbench.<stamp> directory in the cwd
  TreeSharing sharing = TreeSharing::kShared;
  std::uint32_t depth = 0;          // -z, --depth
  std::uint32_t branching = 1;      // -b, --branching
  std::uint64_t items_per_dir = 0;  // -I, --items-per-dir; 0: spread -n evenly over the directories
  bool leaf_only = false;           // -L, --leaf-only
  ItemKinds kinds = ItemKinds::kBoth;
  PhaseSelection phases;          // after resolve(): at least one selected
  bool default_phases = false;    // none of -C -T -E -r -U given: mdtest's default selection (its -v says so)
  std::uint32_t iterations = 1;   // -i, --iterations
  std::uint64_t write_bytes = 0;  // -w, --write-bytes
  std::uint64_t read_bytes = 0;   // -e, --read-bytes
  bool keep = false;              // --keep: leave the tree in place after the run
  SweepSpec sweep;                // --sweep, --sweep-placement, -f/-l/-s
  // -d A@B@C: several targets, rank r works in targets[r % count] (needs -u). Filled by parsing: one
  // element for a plain -d, empty without -d. `target` keeps the option's text as given.
  std::vector<std::string> targets;
  std::uint32_t shift = 0;        // -N, --shift: later phases work on items of rank r + k*S (mdtest -N)
  bool random_order = false;      // -R, --random [SEED]: stat, read and readdir in a random order
  std::uint64_t random_seed = 0;  //   the seed (reproducible; default 0)
  double stonewall_s = 0.0;       // -W, --stonewall SECONDS: 0 = off
  std::string stonewall_file;     // -x, --stonewall-file FILE: create writes the count, later jobs read it
  bool renamed = false;           // --renamed: the files were renamed by an earlier job (--file-rename)
  bool fsync_writes = false;      // -y, --fsync: fsync each file after writing it
  bool sync_phases = false;       // -Y, --sync: sync_call at the end of each phase, inside the timed region
  bool verify_read = false;       // -X, --verify: check the bytes read against the written pattern
  bool shared_files = false;      // -S, --shared-files: every rank uses the same file names (files only)
  std::uint32_t verbosity = 0;    // -v (repeatable), --verbose
  double pre_delay_s = 0.0;       // -p, --pre-delay SECONDS: sleep before each iteration
  std::string preset;             // --preset io500-easy|io500-hard ("" when none)
  // --steady ROUNDS: md-workbench's steady-state mix instead of the phases above (steady.hpp): the working
  // set of -n objects per rank in --datasets directories, ROUNDS rounds; 0: off. -N is the ring's offset
  // (0: 1), -w the objects' size, -W the stonewall.
  std::uint64_t steady_rounds = 0;
  std::uint32_t datasets = 10;     // --datasets D: -n must be a multiple of it
  double series_interval_s = 0.1;  // --series-interval SECONDS: throughput-over-time resolution (> 0)
  // --progress SECONDS: rank 0 prints a progress line every SECONDS of a phase (plain lines, for batch logs);
  // 0: never. Not given (< 0): an updating line when rank 0's output is a terminal, nothing otherwise.
  double progress_s = -1.0;
  std::string output;  // -o, --output: results file; empty: a default name in the cwd
  OutputMode output_mode = OutputMode::kCreate;  // --force, --append
  std::string command_line;                      // the arguments as given, for the record
  std::vector<std::string> arguments;            // the same, one by one (mdtest's console quotes each)

  // mdtest 4.1's options beyond the common subset (docs/mdtest.md).
  Api api = Api::kPosix;                          // -a API
  PathStyle path_style = PathStyle::kFull;        // --path-style full|dirfd
  SyncCall sync_call = SyncCall::kSync;           // --sync-call sync|syncfs: what -Y calls
  ConsoleStyle console = ConsoleStyle::kMdbench;  // --output mdtest|mdbench
  bool make_node = false;             // -k: mknod instead of open/close for file creates (not with -w)
  bool collective_creates = false;    // -c: rank 0 makes every create (and remove); the others wait
  bool no_barriers = false;           // -B: no barriers between phases; rates from each rank's own time
  bool print_time = false;            // -Z: print times instead of rates (mdtest console)
  bool print_all_procs = false;       // --print-all-procs: every rank prints its own excerpt
  bool show_rank_statistics = false;  // --showRankStatistics: per-rank max/min/mean columns
  std::string rank_details_csv;       // --saveRankPerformanceDetails=FILE: mdtest's per-rank CSV
  std::string per_op_csv_prefix;      // --savePerOpDataCSV=PREFIX: each rank's per-op start and duration
  bool verify_write = false;          // --verify-write: read each written file back and check it at create
  DataPacket data_packet = DataPacket::kTimestamp;  // --dataPacketType
  std::int64_t buffer_offset = -1;                  // -G OFFSET: the data pattern's offset (-1: none given)
  bool warnings_as_errors = false;                  // --warningAsErrors: a warning is a usage error (exit 2)
  std::string cmd_before_phase;  // --run-cmd-before-phase=CMD: every rank, before the opening barrier
  std::string cmd_after_phase;   // --run-cmd-after-phase=CMD: every rank, inside the timing, at the end
  // --preset io500-*: -Y syncs at the end of the create phases only, as IO500 passes -Y to its write job.
  bool sync_creates_only = false;
  bool print_rate_and_time = false;  // -P: the mdtest console prints the rate and the time tables
  // --server-stats SOURCE (repeatable): metadata server counters sampled around each phase (serverstats).
  std::vector<std::string> server_stats;
  // --fault-at SECONDS --fault-cmd CMD (pairs, repeatable): SECONDS into each phase, rank 0 starts CMD.
  std::vector<FaultSpec> faults;
  // --fault-phase PHASE (repeatable): the phases the faults go into (names as phase.hpp's); empty: every one.
  std::vector<std::string> fault_phases;
  // The backends' own options (backends.hpp): only the selected backend's may be given.
  PosixBackendOptions posix;
  DummyBackendOptions dummy;
  CephfsBackendOptions cephfs;
  LibnfsBackendOptions libnfs;
};

enum class CliAction : std::uint8_t { kRun, kHelp, kVersion };

struct CliRequest {
  CliAction action = CliAction::kRun;
  Config config;
  // Every problem found, each naming the option and the offending value. Non-empty means exit 2.
  std::vector<std::string> errors;
  // What mdtest warns about at startup (a read phase with -e 0 only opens and closes), for rank 0 to print
  // before the run. Empty under --warningAsErrors: they are then among the errors.
  std::vector<std::string> warnings;
};

// Parses, resolves and validates. args excludes argv[0]. Never throws for bad user input, never does I/O.
CliRequest parseCommandLine(const std::vector<std::string>& args);

// Checks a resolved Config for contradictions and impossible values; returns every problem found.
std::vector<std::string> validate(const Config& config);

// --steady's ring offset (model's steady.hpp: dataset d of rank r is read by rank r + k_d, k_d = offset x
// (d + 1) mod ranks): -N as given, 1 without it (md-workbench's default). Under --steady, -N is that offset
// alone, not the phase workload's rank shift (Plan::shift(), node-aware, which does not apply there).
inline std::uint32_t steadyRingOffset(const Config& config) { return config.shift > 0 ? config.shift : 1; }

// Pure: the first pair of -d targets that are the same directory or one inside the other, as a usage
// message naming both as given, or "". `normal` holds the same paths in the same order, absolute and
// lexically normal (no "." or ".." components, no trailing '/').
std::string nestedTargets(const std::vector<std::string>& given, const std::vector<std::string>& normal);

// The --help text.
std::string helpText();

}  // namespace mdbench
