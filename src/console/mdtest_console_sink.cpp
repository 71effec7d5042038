// mdtest 4.1's console layout, line for line (mdtest_run, summarize_results_rank0 and ShowFileSystemSize in
// ior's src/mdtest.c and src/utilities.c): the same words, the same printf widths, mdbench's numbers.
#include "mdbench/console/mdtest_console_sink.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "mdbench/model/metrics.hpp"
#include "mdbench/model/rate_timing.hpp"
#include "mdbench/model/stats.hpp"
#include "mdbench/util/file_io.hpp"

namespace mdbench {
namespace {

// The mdtest release whose layout this is; the version word reads "4.1.0+mdbench-<version>".
constexpr std::string_view kMdtestRelease = "4.1.0";

// mdtest's operations, in its order; their labels are the phase table's (phaseInfo's mdtest_label). mdtest
// has no file rename and never prints "Directory read" in a SUMMARY table (only per process); mdbench's file
// rename, when it runs, gets a row.
struct Operation {
  Phase phase;
  bool measured = true;  // false: mdtest's own result that mdbench has no counterpart of (printed as 0)
  std::string_view label() const { return phaseInfo(phase).mdtest_label; }
};
constexpr std::array<Operation, 4> kDirOps = {
    {{Phase::kDirCreate}, {Phase::kDirStat}, {Phase::kDirRename}, {Phase::kDirRemove}}};
constexpr std::array<Operation, 5> kFileOps = {{{Phase::kFileCreate},
                                                {Phase::kFileStat},
                                                {Phase::kFileRead},
                                                {Phase::kFileRename},
                                                {Phase::kFileRemove}}};
constexpr std::array<Operation, 2> kTreeOps = {{{Phase::kTreeCreate}, {Phase::kTreeRemove}}};
// --print-all-procs lists all eleven of mdtest's results. Its "Directory read" times an empty loop (the
// directory read is "N/A" in mdtest 4.1): mdbench has nothing that matches, and prints 0.
constexpr std::array<Operation, 11> kPerProcessOps = {{{Phase::kDirCreate},
                                                       {Phase::kDirStat},
                                                       {Phase::kDirReaddir, false},
                                                       {Phase::kDirRename},
                                                       {Phase::kDirRemove},
                                                       {Phase::kFileCreate},
                                                       {Phase::kFileStat},
                                                       {Phase::kFileRead},
                                                       {Phase::kFileRemove},
                                                       {Phase::kTreeCreate},
                                                       {Phase::kTreeRemove}}};

// "2026-11-30T13:23:06Z" as mdtest prints a time ("%m/%d/%Y %T"); anything else as it is.
std::string mdtestTime(const std::string& iso) {
  if (iso.size() != 20 || iso[4] != '-' || iso[7] != '-' || iso[10] != 'T' || iso[19] != 'Z') return iso;
  return fmt::format("{}/{}/{} {}", iso.substr(5, 2), iso.substr(8, 2), iso.substr(0, 4), iso.substr(11, 8));
}

enum class Table : std::uint8_t { kRate, kTime };

// One rank's value in a phase, as --print-all-procs and --showRankStatistics show it: its rate up to its
// own last op (mdtest's rate before the barrier), or its time to it.
double rankValue(const RankPhaseRecord& r, Table table) {
  return table == Table::kRate ? rankRate(r) : r.t_local_end - r.t_start;
}

// A phase's value in one iteration: ops/s, or the barrier-to-barrier time.
double phaseValue(const PhaseResult& result, Table table) {
  const PhaseAggregate agg = aggregate(result.ranks);
  return table == Table::kRate ? agg.ops_per_s : agg.time_s;
}

struct RowValues {
  IterationSummary iterations;  // over the iterations' phase values
  RunningStats ranks;           // over every iteration's ranks with work
};

RowValues rowValues(const RunResult& run, Phase phase, Table table) {
  RowValues out;
  std::vector<double> values;
  for (const PhaseResult& measured : run.phases) {
    if (measured.phase != phase) continue;
    values.push_back(phaseValue(measured, table));
    for (const RankPhaseRecord& r : measured.ranks) {
      if (r.planned > 0) out.ranks.add(rankValue(r, table));
    }
  }
  out.iterations = summarize(values);
  return out;
}

std::uint32_t iterationsRun(const RunResult& run) {
  std::uint32_t n = 0;
  for (const PhaseResult& measured : run.phases) n = std::max(n, measured.iteration + 1);
  return n;
}

std::string iterationColumns(const IterationSummary& s) {
  return fmt::format("{:14.3f} {:14.3f} {:14.3f} {:14.3f}\n", s.max, s.min, s.mean, s.stddev);
}

// mdtest's directory results: not with -F, nor with -S (which turns its directory tests off).
bool dirRows(const Config& c) { return c.kinds != ItemKinds::kFilesOnly && !c.shared_files; }

void printPerProcess(std::FILE* out, const RunResult& run, const Plan& plan, Table table) {
  fmt::print(out, "\nPer process result ({}):\n", table == Table::kRate ? "rate" : "time");
  const bool dirs = dirRows(plan.config());
  for (std::uint32_t j = 0; j < iterationsRun(run); ++j) {
    fmt::print(out, "iteration: {}\n", j);
    for (const Operation& op : kPerProcessOps) {
      if (!dirs && phaseInfo(op.phase).scope == PhaseScope::kDirs) continue;
      const PhaseResult* found = nullptr;
      for (const PhaseResult& measured : run.phases) {
        if (op.measured && measured.iteration == j && measured.phase == op.phase) found = &measured;
      }
      std::string line = fmt::format("Test {}", op.label());
      for (std::uint32_t k = 0; k < run.info.ranks; ++k) {
        const double v = found && k < found->ranks.size() ? rankValue(found->ranks[k], table) : 0.0;
        line += fmt::format("{}{:e}", k == 0 ? ' ' : ',', v);
      }
      fmt::print(out, "{}\n", line);
    }
  }
}

// The operations of the SUMMARY table, in mdtest's order: the directory rows unless -F, the file rows
// unless -D (file rename only when it runs), then the tree rows.
std::vector<Operation> summaryOps(const Plan& plan) {
  std::vector<Operation> ops;
  const ItemKinds kinds = plan.config().kinds;
  if (dirRows(plan.config())) ops.insert(ops.end(), kDirOps.begin(), kDirOps.end());
  if (kinds != ItemKinds::kDirsOnly) {
    for (const Operation& op : kFileOps) {
      if (op.phase != Phase::kFileRename || plan.runs(op.phase)) ops.push_back(op);
    }
  }
  ops.insert(ops.end(), kTreeOps.begin(), kTreeOps.end());
  return ops;
}

void printSummary(std::FILE* out, const RunResult& run, const Plan& plan, Table table) {
  const bool rank_stats = plan.config().show_rank_statistics;
  if (plan.config().print_all_procs) printPerProcess(out, run, plan, table);
  fmt::print(out, "\nSUMMARY {}: (of {} iterations)\n",
             table == Table::kRate ? "rate (in ops/sec)" : "time (in ms/op)", iterationsRun(run));
  fmt::print(
      out, "   Operation     {} Max            Min           Mean        Std Dev\n",
      rank_stats ? "per Rank: Max            Min           Mean      per Iteration:" : "               ");
  fmt::print(out, "   ---------      {}               ---            ---           ----        -------\n",
             rank_stats ? "         ---            ---           ----       " : "");
  for (const Operation& op : summaryOps(plan)) {
    const RowValues v = rowValues(run, op.phase, table);
    const IterationSummary& s = v.iterations;
    if (phaseInfo(op.phase).tree()) {
      // mdtest's tree rows: a wider label, and its per-rank columns repeat the per-iteration ones.
      const std::string ranks =
          rank_stats ? fmt::format("{:14.3f} {:14.3f} {:14.3f}     ", s.max, s.min, s.mean) : "";
      fmt::print(out, "   {:<22} {}{}", op.label(), ranks, iterationColumns(s));
    } else {
      const std::string ranks = rank_stats ? fmt::format("{:14.3f} {:14.3f} {:14.3f}     ", v.ranks.max(),
                                                         v.ranks.min(), v.ranks.mean())
                                           : "";
      fmt::print(out, "   {:<18} {}    {}", op.label(), ranks, iterationColumns(s));
    }
  }
}

// mdtest's output stays line for line as mdtest prints it (scripts read its SUMMARY rows by column and
// compare whole outputs); the rows whose phase was too short to time are named on one line of mdbench's own
// (standard error, with the results file and the exit status), so that the rates are not taken as measured.
void printTooShort(std::FILE* out, const RunResult& run, const Plan& plan) {
  std::string list;
  for (const Operation& op : summaryOps(plan)) {
    const PhaseSize size = meanPhaseSize(run, op.phase);
    if (!tooShortToTime(size)) continue;
    list += fmt::format("{}{} ({})", list.empty() ? "" : "; ", op.label(), tooShortText(size));
  }
  if (list.empty()) return;
  fmt::print(out,
             "note:     rates of phases too short to time ({}) are mostly the barriers around them: {}\n",
             tooShortThresholdText(), list);
}

// "10 files/directories", "10 files", "1 file" (-S), "10 directories".
std::string itemsWords(const RunInfo& info, const Plan& plan) {
  const Config& c = plan.config();
  const std::uint64_t all = static_cast<std::uint64_t>(info.ranks) * c.items;
  if (c.shared_files) return "1 file";
  if (c.kinds == ItemKinds::kDirsOnly) return fmt::format("{} directories", all);
  if (c.kinds == ItemKinds::kBoth) return fmt::format("{} files/directories", all);
  return fmt::format("{} files", all);
}

// mdtest's "Used" percentage: its arithmetic on statvfs's counts taken as signed 64-bit numbers, so an
// unknown count (all ones, kUnknownCount) is -1 (ceph-fuse's free inodes: 133.3% used of 3) and 0 of 0 is a
// NaN, which x86-64's glibc prints "-nan" (the sign of the NaN 0.0/0.0 gives there); real mdtest 4.1 printed
// both (tests/fixtures/import/mdtest-4.1-real-{cephfuse,zero-counts}-n1.txt).
std::string usedPercent(std::uint64_t free, std::uint64_t total) {
  const double f = static_cast<double>(static_cast<std::int64_t>(free));
  const double t = static_cast<double>(static_cast<std::int64_t>(total));
  const double used = (1.0 - f / t) * 100.0;
  if (std::isnan(used)) return "-nan%";
  return fmt::format("{:.1f}%", used);
}

void printFileSystem(std::FILE* out, const RunInfo& info) {
  const double total = static_cast<double>(static_cast<std::int64_t>(info.fs_total_bytes));
  double size = total / static_cast<double>(1ull << 30);
  std::string_view unit = "GiB";
  if (size > 1024) {
    size /= 1024;
    unit = "TiB";
  }
  fmt::print(out, "{:<20}: {}\n", "Path", info.target);
  fmt::print(
      out, "{:<20}: {:.1f} {}   Used FS: {}   Inodes: {:.1f} Mi   Used Inodes: {}\n", "FS", size, unit,
      usedPercent(info.fs_free_bytes, info.fs_total_bytes),
      static_cast<double>(static_cast<std::int64_t>(info.fs_total_inodes)) / static_cast<double>(1u << 20),
      usedPercent(info.fs_free_inodes, info.fs_total_inodes));
}

// mdtest's -v lines carry the level that prints them, a rank and mdtest 4.1's source line; `line` is the
// line of mdtest 4.1 that prints the message. Level 0 with the header: lines every run prints (-N, the phase
// commands).
void verbose(std::FILE* out, int line, std::string_view message, std::uint32_t rank = 0, int level = 1) {
  fmt::print(out, "V-{}: Rank {:3} Line {:5} {}\n", level, rank, line, message);
}

// mdtest's word before each of its timestamps at -v (printed without the header).
void timestampTrace(std::FILE* out, const Config& c) {
  if (c.verbosity > 0) fmt::print(out, "V-1: Entering PrintTimestamp...\n");
}

std::string_view trueFalse(bool b) { return b ? "True" : "False"; }

// mdtest's read switch: -E, or its default selection (which turns it on with -D too: mdtest warns then).
bool readSwitch(const Config& c) { return c.phases.read || c.default_phases; }

// mdtest's first/last/stride (-f, -l, -s) as its -v prints them before it resolves them: 1, 0, 1 without.
std::array<std::uint32_t, 3> sweepWords(const SweepSpec& sweep) {
  if (sweep.kind != SweepSpec::Kind::kList || sweep.steps.empty()) return {1, 0, 1};
  const std::uint32_t stride = sweep.steps.size() > 1 ? sweep.steps[1] - sweep.steps[0] : 1;
  return {sweep.steps.front(), sweep.steps.back(), stride};
}

// mdtest's -v lines between its command line and its option dump: the -d parse, the default selection, the
// check of the options.
void printStartupTrace(std::FILE* out, const Config& c) {
  if (!c.targets.empty()) verbose(out, 251, fmt::format("Entering parse_dirpath on {}...", c.target));
  if (c.default_phases) verbose(out, 1905, "main: Setting create/stat/read/remove_only to True");
  verbose(out, 1804, "Entering md_validate_tests...");
}

// mdtest 4.1's option dump at -v (its names, its order, its formats), with mdbench's values. mdtest's
// "remove_only" line prints its leaf_only flag; so does this one, for a parser that reads it.
void printOptionDump(std::FILE* out, const Config& c) {
  const auto [first, last, stride] = sweepWords(c.sweep);
  const bool dirs = c.kinds != ItemKinds::kFilesOnly && !c.shared_files;
  const auto line = [out](int at, std::string_view name, auto value) {
    verbose(out, at, fmt::format("{:<24}: {}", name, value));
  };
  line(2442, "api", apiName(c.api));
  line(2443, "barriers", trueFalse(!c.no_barriers));
  line(2444, "collective_creates", trueFalse(c.collective_creates));
  line(2445, "create_only", trueFalse(c.phases.create));
  verbose(out, 2446, "dirpath(s):");
  for (const std::string& target : c.targets) verbose(out, 2448, "\t" + target);
  line(2450, "dirs_only", trueFalse(dirs));
  line(2451, "read_bytes", c.read_bytes);
  line(2452, "read_only", trueFalse(readSwitch(c)));
  line(2453, "first", first);
  line(2454, "files_only", trueFalse(c.kinds != ItemKinds::kDirsOnly));
  line(2458, "iterations", c.iterations);
  line(2459, "items_per_dir", c.items_per_dir);
  line(2460, "last", last);
  line(2461, "leaf_only", trueFalse(c.leaf_only));
  line(2462, "items", c.items);
  line(2463, "nstride", c.shift);
  line(2464, "pre_delay", static_cast<int>(c.pre_delay_s));
  line(2465, "remove_only", trueFalse(c.leaf_only));
  line(2466, "random_seed", c.random_order ? c.random_seed : 0);
  line(2467, "stride", stride);
  line(2468, "shared_file", trueFalse(c.shared_files));
  line(2469, "time_unique_dir_overhead", trueFalse(false));
  line(2470, "stone_wall_timer_seconds", static_cast<int>(c.stonewall_s));
  line(2471, "stat_only", trueFalse(c.phases.stat));
  line(2472, "unique_dir_per_task", trueFalse(c.sharing == TreeSharing::kUnique));
  line(2473, "write_bytes", c.write_bytes);
  line(2474, "sync_file", trueFalse(c.fsync_writes));
  line(2475, "call_sync", trueFalse(c.sync_phases));
  line(2476, "depth", c.depth);
  line(2477, "make_node", c.make_node ? 1 : 0);
}

std::string timeAndRate(const PhaseAggregate& agg) {
  return fmt::format("{:14.3f} sec, {:14.3f} ops/sec", agg.time_s, agg.ops_per_s);
}

// The last phase the plan runs in an iteration with this scope (mdtest prints a group's lines after it).
std::optional<Phase> lastOfScope(const Plan& plan, PhaseScope scope) {
  std::optional<Phase> last;
  for (const Phase p : plan.phases()) {
    if (phaseInfo(p).scope == scope) last = p;
  }
  return last;
}

// mdtest's test of a -W file create: the ranks did not all make every item when their timers fired.
bool stonewallHit(const PhaseResult& result, const Plan& plan) {
  std::uint64_t sum = 0;
  for (const RankPhaseRecord& r : result.ranks) sum += r.ops_at_stonewall;
  return sum != plan.config().items * result.ranks.size();
}

}  // namespace

void MdtestConsoleSink::begin(const RunInfo& info, const Plan& plan) {
  const Config& c = plan.config();
  timestampTrace(out_, c);
  fmt::print(out_, "-- started at {} --\n\n", mdtestTime(info.start_utc));
  fmt::print(out_, "mdtest-{}+mdbench-{} was launched with {} total task(s) on {} node(s)\n", kMdtestRelease,
             info.version, info.ranks, info.nodes);
  // As mdtest prints it: the program as started, then every argument in single quotes.
  std::string line = info.invoked_as.empty() ? std::string("mdbench") : info.invoked_as;
  for (const std::string& arg : info.arguments) line += fmt::format(" '{}'", arg);
  fmt::print(out_, "Command line used: {}\n", line);
  // mdbench's own word on -N (it wrapped, or moved off the node): on standard error, so that the mdtest
  // stream stays mdtest's.
  if (!plan.shiftNote().empty()) fmt::print(notes_, "mdbench: note: {}\n", plan.shiftNote());
  if (c.verbosity > 0) printStartupTrace(out_, c);
  if (readSwitch(c) && c.read_bytes == 0) {  // mdtest warns whenever its read switch is on, -D or not
    fmt::print(out_, "WARNING: Read bytes is 0, thus, a read test will actually just open/close\n");
  }
  if (c.verbosity > 0) printOptionDump(out_, c);
  std::string nodemap;
  for (std::uint32_t r = 0; r < info.ranks; ++r) {
    const bool same = r >= info.host_of_rank.size() || info.host_of_rank[r] == info.host_of_rank[0];
    nodemap += same ? '1' : '0';
  }
  fmt::print(out_, "Nodemap: {}\n", nodemap);
  printFileSystem(out_, info);
  // mdtest's -N as given on one node (and under --steady: the ring's offset); across nodes, the shift mdbench
  // uses.
  if (c.shift > 0) {
    const std::uint32_t shift = info.nodes > 1 && c.steady_rounds == 0 ? plan.shift() : c.shift;
    verbose(out_, 2594, fmt::format("Shifting ranks by {} for each phase.", shift), 0, 0);
  }
  if (c.random_order) fmt::print(out_, "random seed: {}\n", c.random_seed);
  fmt::print(out_, "{} tasks, {}\n", info.ranks, itemsWords(info, plan));
  if (c.verbosity > 0) {
    verbose(out_, 2677, "");
    verbose(out_, 2678, "   Operation               Duration              Rate");
    verbose(out_, 2679, "   ---------               --------              ----");
  }
  std::fflush(out_);
}

void MdtestConsoleSink::phase(const PhaseResult& result, const Plan& plan) {
  if (phaseInfo(result.phase).steady()) return;  // mdtest has no steady state to print
  const Config& c = plan.config();
  if (c.verbosity > 0 && (seen_.empty() || seen_.back().iteration != result.iteration)) {
    seen_.clear();
    verbose(out_, 2063, fmt::format("main: * iteration {} *", result.iteration + 1));
  }
  // mdtest runs its phase commands around its item phases only (not the tree's), and says so on rank 0.
  const bool items_phase = phaseInfo(result.phase).bracketed();
  if (items_phase && !c.cmd_before_phase.empty()) {
    verbose(out_, 285, fmt::format("calling prologue: \"{}\"", c.cmd_before_phase), 0, 0);
  }
  printReadStonewall(result, plan);
  printContinueStonewall(result, plan);
  if (items_phase && !c.cmd_after_phase.empty()) {
    verbose(out_, 301, fmt::format("calling epilogue: \"{}\"", c.cmd_after_phase), 0, 0);
  }
  if (c.verbosity > 0) {
    PhaseResult seen;  // what the verbose lines of later phases need: no rows, errors or counters
    seen.iteration = result.iteration;
    seen.phase = result.phase;
    seen.items = result.items;
    seen.ranks = result.ranks;
    seen_.push_back(std::move(seen));
    printGroupLines(result, plan);
  }
  std::fflush(out_);
}

// -v, a job that reads -x's count instead of creating the files: mdtest's line at its file phases' start.
void MdtestConsoleSink::printReadStonewall(const PhaseResult& result, const Plan& plan) {
  const Config& c = plan.config();
  if (c.verbosity == 0 || c.stonewall_file.empty() || plan.runs(Phase::kFileCreate)) return;
  for (const PhaseResult& p : seen_) {
    if (phaseInfo(p.phase).scope == PhaseScope::kFiles) return;  // not the iteration's first file phase
  }
  if (phaseInfo(result.phase).scope != PhaseScope::kFiles) return;
  verbose(out_, 1307, fmt::format("Read stonewall status; items: {}\n", result.items));
}

// mdtest's lines after a file create with -W: at -v each rank's count when its timer fired (or it finished);
// the fewest and most items a rank had made then, and their mean, when the ranks did not all make every item
// (mdtest 4.1 prints it for files only); at -v, each rank's count against the most, which it went on to.
void MdtestConsoleSink::printContinueStonewall(const PhaseResult& result, const Plan& plan) {
  const Config& c = plan.config();
  if (result.phase != Phase::kFileCreate || c.stonewall_s <= 0.0 || result.ranks.empty()) return;
  std::uint64_t lo = result.ranks.front().ops_at_stonewall, hi = lo, sum = 0;
  for (std::uint32_t r = 0; r < result.ranks.size(); ++r) {
    const std::uint64_t done = result.ranks[r].ops_at_stonewall;
    if (c.verbosity > 0) verbose(out_, 1136, fmt::format("stonewall hit with {} items", done), r);
    lo = std::min(lo, done);
    hi = std::max(hi, done);
    sum += done;
  }
  if (stonewallHit(result, plan)) {
    fmt::print(out_, "Continue stonewall hit min: {} max: {} avg: {:.1f} \n\n", lo, hi,
               static_cast<double>(sum) / static_cast<double>(result.ranks.size()));
  }
  printStonewallCounts(result, plan, hi);
}

// -v: mdtest's "stonewall: N of MAX" of each rank that goes on to the most any rank made. mdtest's rank 0
// decides that from the sum over the ranks, its other ranks from a sum they never receive (0): they print
// the line whenever -W is on, rank 0 only when the ranks did not all make every item.
void MdtestConsoleSink::printStonewallCounts(const PhaseResult& result, const Plan& plan,
                                             std::uint64_t most) {
  if (plan.config().verbosity == 0) return;
  for (std::uint32_t r = 0; r < result.ranks.size(); ++r) {
    if (r == 0 && !stonewallHit(result, plan)) continue;
    verbose(out_, 1224, fmt::format("stonewall: {} of {}", result.ranks[r].ops_at_stonewall, most), r);
  }
}

// mdtest's per-iteration lines: the tree's after building and removing it, the directories' after the last
// directory phase, the files' after the last file phase (0 for a phase that did not run).
void MdtestConsoleSink::printGroupLines(const PhaseResult& result, const Plan& plan) {
  const auto agg = [&](Phase phase) {
    for (const PhaseResult& p : seen_) {
      if (p.phase == phase) return aggregate(p.ranks);
    }
    return PhaseAggregate{};
  };
  const PhaseScope scope = phaseInfo(result.phase).scope;
  if (result.phase == Phase::kTreeCreate) {
    verbose(out_, 2139, "V-1: main:   Tree creation     : " + timeAndRate(agg(Phase::kTreeCreate)));
  } else if (result.phase == Phase::kTreeRemove) {
    verbose(out_, 2249, "main   Tree removal      : " + timeAndRate(agg(Phase::kTreeRemove)));
  } else if (lastOfScope(plan, scope) != result.phase) {
    return;
  } else if (scope == PhaseScope::kDirs) {
    verbose(out_, 1125, "   Directory creation: " + timeAndRate(agg(Phase::kDirCreate)));
    verbose(out_, 1126, "   Directory stat    : " + timeAndRate(agg(Phase::kDirStat)));
    verbose(out_, 1127, "   Directory rename : " + timeAndRate(agg(Phase::kDirRename)));
    verbose(out_, 1128, "   Directory removal : " + timeAndRate(agg(Phase::kDirRemove)));
  } else {
    const PhaseAggregate create = agg(Phase::kFileCreate);
    verbose(out_, 1435, "  File creation     : " + timeAndRate(create));
    if (plan.config().stonewall_s > 0.0 && plan.runs(Phase::kFileCreate)) {  // mdtest: whenever -W is on
      verbose(out_, 1437,
              fmt::format("  File creation (stonewall): {:14.3f} sec, {:14.3f} ops/sec",
                          create.stonewalled ? create.stonewall_time_s : create.time_s,
                          static_cast<double>(create.stonewalled ? create.ops_at_stonewall : create.ok)));
    }
    verbose(out_, 1439, "  File stat         : " + timeAndRate(agg(Phase::kFileStat)));
    verbose(out_, 1440, "  File read         : " + timeAndRate(agg(Phase::kFileRead)));
    verbose(out_, 1441, "  File removal      : " + timeAndRate(agg(Phase::kFileRemove)));
  }
}

void MdtestConsoleSink::end(const RunResult& run, const Plan& plan) {
  const Config& c = plan.config();
  if (!run.phases.empty()) {
    if (c.print_rate_and_time) {
      printSummary(out_, run, plan, Table::kRate);
      printSummary(out_, run, plan, Table::kTime);
    } else {
      printSummary(out_, run, plan, c.print_time ? Table::kTime : Table::kRate);
    }
  }
  // mdtest has no words for these; mdbench does not hide them (they also make the exit status non-zero).
  if (const std::uint64_t failed = run.failedOps(); failed > 0) {
    fmt::print(out_, "\nERROR: {} operation{} failed; the rates count only those that succeeded\n", failed,
               failed == 1 ? "" : "s");
  }
  for (const std::string& problem : run.problems) fmt::print(out_, "ERROR: {}\n", problem);
  for (const std::string& problem : run.cleanup_problems) fmt::print(out_, "ERROR: cleanup: {}\n", problem);
  timestampTrace(out_, c);
  fmt::print(out_, "-- finished at {} --\n\n", mdtestTime(run.info.end_utc));
  if (!run.phases.empty()) printTooShort(notes_, run, plan);
  std::fflush(out_);
}

namespace {

// A phase's (rate,time) pair as mdtest writes it: ",," when it has no items.
std::string ratePair(std::uint64_t items, double rate, double time_s) {
  if (items == 0) return ",,";
  return fmt::format(",{:.10e},{:.10e}", rate, time_s);
}

const PhaseResult* findPhase(const RunResult& run, Phase phase, std::uint32_t iteration) {
  for (const PhaseResult& p : run.phases) {
    if (p.phase == phase && p.iteration == iteration) return &p;
  }
  return nullptr;
}

}  // namespace

// mdtest 4.1's file, column for column (StoreRankInformation): the header names a rate and a time for each
// of its eleven results; each run (a sweep's step) adds an "all" row, the first iteration's aggregate
// (items summed over the ranks, the slowest rank's barrier-to-barrier time), then a row per iteration and
// rank (items up to the rank's last op, its time to it; no tree columns, an empty items column). mdtest's
// "Directory read" (an empty loop) and mdbench's file rename have no column with a number: ",," there.
std::string rankDetailsCsv(std::span<const RunResult> runs) {
  std::string csv = "rank,items";
  for (const Operation& op : kPerProcessOps) csv += fmt::format(",rate-{0},time-{0}", op.label());
  csv += '\n';
  for (const RunResult& run : runs) {
    csv += fmt::format("all,{}", run.config.items);
    for (const Operation& op : kPerProcessOps) {
      const PhaseResult* p = op.measured ? findPhase(run, op.phase, 0) : nullptr;
      const PhaseAggregate agg = p != nullptr ? aggregate(p->ranks) : PhaseAggregate{};
      csv += ratePair(agg.ok, agg.ops_per_s, agg.time_s);
    }
    csv += '\n';
    for (std::uint32_t it = 0; it < iterationsRun(run); ++it) {
      for (std::uint32_t r = 0; r < run.info.ranks; ++r) {
        csv += fmt::format("{},", r);
        for (const Operation& op : kPerProcessOps) {
          if (op.phase == Phase::kTreeCreate) break;  // mdtest's rank rows end before the tree's results
          const PhaseResult* p = op.measured ? findPhase(run, op.phase, it) : nullptr;
          if (p == nullptr || r >= p->ranks.size()) {
            csv += ",,";
            continue;
          }
          const RankPhaseRecord& rec = p->ranks[r];
          csv += ratePair(rec.ok, rankRate(rec), rec.t_local_end - rec.t_start);
        }
        csv += '\n';
      }
    }
  }
  return csv;
}

std::string writeRankDetails(const std::string& path, std::span<const RunResult> runs) {
  return writeFileAtomically(path, rankDetailsCsv(runs), Replace::kNothing, "rank details file");
}

std::string rankDetailsFileProblem(const std::string& path) {
  if (path.empty()) return {};
  const OutputCheck check = checkOutput(path, "rank details file");
  if (check.state == OutputState::kRefused) return "--saveRankPerformanceDetails: " + check.problem;
  if (check.state == OutputState::kAbsent) return {};
  return fmt::format("--saveRankPerformanceDetails: {} exists; mdbench never overwrites it", path);
}

void RankDetailsSink::end(const RunResult& result, const Plan& /*plan*/) {
  error_ = writeRankDetails(path_, std::span(&result, 1));
}

}  // namespace mdbench
