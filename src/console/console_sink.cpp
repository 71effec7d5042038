#include "mdbench/console/console_sink.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "mdbench/config/backends.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/model/rate_timing.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/util/errno_name.hpp"

namespace mdbench {
namespace {

std::string humanBytes(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", value, kUnits[unit]);
}

// -Y, in words: the call the backend makes (posix_backend's syncFileSystem), what it flushes and after which
// phases (Plan::syncsAfter: every phase, or under a preset the item creates only).
std::string describeSync(const Config& c) {
  const std::string_view when = c.sync_creates_only ? "at the end of each item create phase (the preset's)"
                                                    : "at the end of each item phase";
  return c.sync_call == SyncCall::kSyncfs
             ? fmt::format(
                   "{}(2) of the target's file system {}, inside the timed region (-Y --sync-call {})",
                   syncCallName(c.sync_call), when, syncCallName(c.sync_call))
             : fmt::format(
                   "{}(2) of every file system of the node {}, inside the timed region (-Y, as mdtest)",
                   syncCallName(c.sync_call), when);
}

// The options that change what a phase does, in words.
std::string describeOptions(const Plan& plan) {
  const Config& c = plan.config();
  std::vector<std::string> parts;
  // Under --steady, -N is the ring's offset (the workload's line), not a rank shift.
  if (c.steady_rounds == 0 && (c.shift > 0 || plan.shift() > 0))
    parts.push_back(fmt::format("rank shift {} (-N)", plan.shift()));
  if (c.random_order) parts.push_back(fmt::format("random order, seed {} (-R)", c.random_seed));
  if (c.stonewall_s > 0) parts.push_back(fmt::format("stonewall {} s (-W)", c.stonewall_s));
  if (!c.stonewall_file.empty()) parts.push_back(fmt::format("stonewall file {} (-x)", c.stonewall_file));
  if (c.sync_phases) parts.push_back(describeSync(c));
  if (c.fsync_writes) parts.push_back("fsync after each write (-y)");
  if (c.verify_read) parts.push_back("data read is verified (-X)");
  if (c.shared_files) parts.push_back("all ranks use the same file names (-S)");
  if (c.renamed) parts.push_back("files renamed by an earlier job (--renamed)");
  if (c.pre_delay_s > 0) parts.push_back(fmt::format("{} s delay before each iteration (-p)", c.pre_delay_s));
  if (!c.preset.empty()) parts.push_back(fmt::format("preset {}", c.preset));
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

// --path-style, in words: what a rate measured in this style can be compared with.
std::string describePathStyle(PathStyle style) {
  return style == PathStyle::kFull
             ? fmt::format(
                   "{} (--path-style): each call names its item by its full path, as mdtest's POSIX "
                   "backend does",
                   pathStyleName(style))
             : fmt::format(
                   "{} (--path-style): each call names its item relative to a directory descriptor "
                   "opened once",
                   pathStyleName(style));
}

std::string humanCount(std::uint64_t count) {
  if (count >= 10'000'000) return fmt::format("{:.1f}M", static_cast<double>(count) / 1e6);
  if (count >= 10'000) return fmt::format("{:.1f}k", static_cast<double>(count) / 1e3);
  return fmt::format("{}", count);
}

std::string describeWorkload(const Plan& plan) {
  const Config& c = plan.config();
  if (c.steady_rounds > 0) {
    const std::uint32_t offset = steadyRingOffset(c);
    return fmt::format(
        "steady state: {} objects per rank in {} datasets of {}, {} B each, {} rounds (stat, read, delete, "
        "create one object per dataset), ring offset {}{}; {} iteration{}",
        c.items, c.datasets, c.items / c.datasets, c.write_bytes, c.steady_rounds, offset,
        plan.ranks() > 1 && offset % plan.ranks() == 0
            ? fmt::format(" (a multiple of the {} ranks: each rank in its own datasets)", plan.ranks())
            : "",
        c.iterations, c.iterations == 1 ? "" : "s");
  }
  const TreeLayout& layout = plan.layout();
  const char* kinds = c.kinds == ItemKinds::kFilesOnly  ? "files"
                      : c.kinds == ItemKinds::kDirsOnly ? "directories"
                                                        : "files and directories";
  std::string text =
      fmt::format("{} items per rank ({}), {} tree{}: depth {}, branching {}, {} director{}", c.items, kinds,
                  nameOf(kTreeSharingNames, c.sharing), c.sharing == TreeSharing::kUnique ? " per rank" : "",
                  c.depth, c.branching, layout.dirCount(), layout.dirCount() == 1 ? "y" : "ies");
  text += fmt::format(", items in {} of them{}", layout.itemDirCount(), c.leaf_only ? " (leaves)" : "");
  if (c.write_bytes || c.read_bytes) {
    text += fmt::format("; write {} B, read {} B per file", c.write_bytes, c.read_bytes);
  }
  text += fmt::format("; {} iteration{}", c.iterations, c.iterations == 1 ? "" : "s");
  return text;
}

// After a rate of a phase too short to time, on the same line: "   too short: 26 ops in 812 us".
std::string shortMark(const PhaseSize& size) {
  return tooShortToTime(size) ? "   " + tooShortText(size) : std::string();
}

// Under a table row of a phase too short to time, indented past the phase column: the row keeps its
// fields (scripts read the tables by column, the failed count last), the mark is where its rate is.
void printShortRow(std::FILE* out, const PhaseSize& size) {
  if (tooShortToTime(size)) fmt::print(out, "{:<12} {}\n", "", tooShortText(size));
}

std::string micros(std::uint64_t ns) {
  if (ns == LatencyHistogram::bucketHigh(LatencyHistogram::kBuckets - 1)) {
    return fmt::format(
        ">{:.0f}", static_cast<double>(LatencyHistogram::bucketLow(LatencyHistogram::kBuckets - 1)) / 1e3);
  }
  return fmt::format("{:.1f}", static_cast<double>(ns) / 1e3);
}

}  // namespace

// Latency percentiles per phase, over every successful op of every rank and iteration.
void ConsoleSink::printLatencyTable(const RunResult& run, const Plan& plan) {
  fmt::print(out_, "\n{:<12} {:>11} {:>11} {:>11} {:>11} {:>11}   latency in microseconds\n", "phase", "p50",
             "p90", "p99", "p99.9", "max");
  for (const Phase phase : plan.phases()) {
    LatencyHistogram merged;
    for (const PhaseResult& measured : run.phases) {
      if (measured.phase == phase) merged += measured.latency;
    }
    if (merged.count() == 0) continue;
    const LatencySummary l = latencySummary(merged);
    fmt::print(out_, "{:<12} {:>11} {:>11} {:>11} {:>11} {:>11}\n", phaseName(phase), micros(l.p50_ns),
               micros(l.p90_ns), micros(l.p99_ns), micros(l.p999_ns), micros(l.max_ns));
  }
}

// With -W: per phase that the stonewall cut, the rate at the stonewall beside the full rate.
void ConsoleSink::printStonewallTable(const RunResult& run, const Plan& plan) {
  bool header = false;
  for (const Phase phase : plan.phases()) {
    for (const PhaseResult& measured : run.phases) {
      if (measured.phase != phase) continue;
      const PhaseAggregate agg = aggregate(measured.ranks);
      if (!agg.stonewalled) continue;
      if (!header) {
        fmt::print(out_, "\n{:<12} {:>9} {:>16} {:>12} {:>18} {:>13} {:>13}\n", "stonewall", "iteration",
                   "ops at stonewall", "time s", "ops/s at stonewall", "ops (full)", "ops/s (full)");
        header = true;
      }
      fmt::print(out_, "{:<12} {:>9} {:>16} {:>12.3f} {:>18.1f} {:>13} {:>13.1f}\n", phaseName(phase),
                 measured.iteration, agg.ops_at_stonewall, agg.stonewall_time_s, agg.ops_per_s_at_stonewall,
                 agg.ok + agg.failed, agg.ops_per_s);
      printShortRow(out_, phaseSize(measured));
    }
  }
}

// First done and last done (metrics.hpp), per phase, as means over its iterations: how much the ranks that
// finished late held the phase back.
void ConsoleSink::printDoneTable(const RunResult& run, const Plan& plan) {
  fmt::print(out_, "\n{:<12} {:>14} {:>14} {:>14} {:>14}\n", "phase", "first done s", "ops/s", "last done s",
             "ops/s");
  for (const Phase phase : plan.phases()) {
    DoneRates sum;
    std::size_t n = 0;
    for (const auto& [which, rates] : done_) {
      if (which != phase) continue;
      sum.first_done_time_s += rates.first_done_time_s;
      sum.first_done_ops_per_s += rates.first_done_ops_per_s;
      sum.last_done_time_s += rates.last_done_time_s;
      sum.last_done_ops_per_s += rates.last_done_ops_per_s;
      ++n;
    }
    if (n == 0) continue;
    const double k = static_cast<double>(n);
    fmt::print(out_, "{:<12} {:>14.3f} {:>14.1f} {:>14.3f} {:>14.1f}\n", phaseName(phase),
               sum.first_done_time_s / k, sum.first_done_ops_per_s / k, sum.last_done_time_s / k,
               sum.last_done_ops_per_s / k);
    printShortRow(out_, meanPhaseSize(run, phase));
  }
}

void ConsoleSink::begin(const RunInfo& info, const Plan& plan) {
  fmt::print(out_, "mdbench {} (commit {}) on {} rank{}, {} node{}\n", info.version, info.git_commit,
             info.ranks, info.ranks == 1 ? "" : "s", info.nodes, info.nodes == 1 ? "" : "s");
  fmt::print(out_, "command:  {}\n", info.command_line);
  // What the file system does not count (kUnknownCount) is "unknown", never a number.
  const auto bytes = [](std::uint64_t v) {
    return v == kUnknownCount ? std::string("unknown") : humanBytes(v);
  };
  const auto count = [](std::uint64_t v) {
    return v == kUnknownCount ? std::string("unknown") : humanCount(v);
  };
  fmt::print(out_, "target:   {} ({}, {} free of {}, {} inodes free of {})\n", info.target, info.fs_type,
             bytes(info.fs_free_bytes), bytes(info.fs_total_bytes), count(info.fs_free_inodes),
             count(info.fs_total_inodes));
  if (const Api api = plan.config().api; api == Api::kCephfs || api == Api::kLibnfs) {
    fmt::print(out_,
               "paths:    each call names its item by its path inside the {}, as mdtest's {} backend does\n",
               api == Api::kCephfs ? "CephFS" : "NFS export", apiName(api));
  } else {
    fmt::print(out_, "paths:    {}\n", describePathStyle(plan.config().path_style));
  }
  if (const Api api = plan.config().api; api == Api::kDummy) {
    fmt::print(out_, "api:      {} (-a): no file-system I/O; the rates measure mdbench itself\n",
               apiName(api));
  } else if (api != Api::kPosix) {
    fmt::print(out_, "api:      {} (-a): {}\n", apiName(api), backendRow(api).summary);
  }
  if (info.sweep.step > 0) {
    fmt::print(out_, "sweep:    step {}: {} of the job's {} ranks, placement {}\n", info.sweep.step,
               info.ranks, info.sweep.job_ranks, sweepPlacementName(info.sweep.placement));
  }
  fmt::print(out_, "workload: {}\n", describeWorkload(plan));
  if (const std::string options = describeOptions(plan); !options.empty())
    fmt::print(out_, "options:  {}\n", options);
  if (!plan.shiftNote().empty()) fmt::print(out_, "note:     {}\n", plan.shiftNote());
  if (const Config& c = plan.config(); c.steady_rounds > c.items / std::max<std::uint32_t>(1, c.datasets)) {
    fmt::print(out_,
               "note:     {} rounds > {} objects per dataset: a rank more rounds ahead than that of the rank "
               "writing the dataset it reads finds its objects missing (ENOENT), as in md-workbench\n",
               c.steady_rounds, c.items / std::max<std::uint32_t>(1, c.datasets));
  }
  fmt::print(out_, "started:  {}\n\n", info.start_utc);
  std::fflush(out_);
}

// One line per finished phase, so a long batch job shows how far it got.
// -v: every rank's numbers for the phase (-vv: no cap on the number of ranks shown).
void ConsoleSink::printRanks(const PhaseResult& result, std::uint32_t verbosity) {
  constexpr std::size_t kMaxRanks = 64;
  for (std::size_t r = 0; r < result.ranks.size(); ++r) {
    if (r == kMaxRanks && verbosity < 2) {
      fmt::print(out_, "        ... {} more ranks (-vv shows all)\n", result.ranks.size() - kMaxRanks);
      break;
    }
    const RankPhaseRecord& rec = result.ranks[r];
    fmt::print(out_,
               "        rank {:>5}: {:>10} ok {:>8} failed {:>13.1f} ops/s {:>10.3f} s to its last op\n", r,
               rec.ok, rec.failed, rankRate(rec), rec.t_local_end - rec.t_start);
  }
}

void ConsoleSink::phase(const PhaseResult& result, const Plan& plan) {
  if (phaseInfo(result.phase).steady()) {
    steadyPhase(result);
    return;
  }
  const PhaseAggregate agg = aggregate(result.ranks);
  done_.emplace_back(result.phase, doneRates(result.ranks, result.series));
  fmt::print(out_, "  done: iteration {} {:<12} {:>11} ops {:>13.1f} ops/s {:>10.3f} s {:>8} failed",
             result.iteration, phaseName(result.phase), agg.ok + agg.failed, agg.ops_per_s, agg.time_s,
             agg.failed);
  if (agg.stonewalled) {
    fmt::print(out_, "   stonewall: {} ops in {:.3f} s = {:.1f} ops/s", agg.ops_at_stonewall,
               agg.stonewall_time_s, agg.ops_per_s_at_stonewall);
  }
  fmt::print(out_, "{}\n", shortMark(phaseSize(result)));
  for (const std::string& line : serverStatsLines(result.server_stats, result.phase, agg.ok + agg.failed)) {
    fmt::print(out_, "        {}\n", line);
  }
  for (const std::string& line : failoverLines(result)) fmt::print(out_, "        {}\n", line);
  if (plan.config().verbosity > 0) printRanks(result, plan.config().verbosity);
  std::fflush(out_);
}

// --steady: each phase as it is done (the iteration's header with its precreate), one row per op kind (rate
// over the phase's barrier-to-barrier time, latency percentiles), then the mix's rounds, objects cycled and
// balance (steady.hpp's formulas).
void ConsoleSink::steadyPhase(const PhaseResult& phase) {
  if (phase.phase == Phase::kSteadyPrecreate) {
    fmt::print(out_, "{}steady state, iteration {}\n", phase.iteration == 0 ? "" : "\n", phase.iteration);
    fmt::print(out_,
               "{:<10} {:<7} {:>11} {:>8} {:>13} {:>10} {:>10} {:>10} {:>10}   latency in microseconds\n",
               "phase", "op", "ok", "failed", "ops/s", "p50", "p90", "p99", "max");
  }
  const SteadyPhaseSummary s = summarizeSteadyPhase(phase);
  for (const OpKind op : opKindsOf(phase.phase)) {
    const SteadyOpSummary& o = s.ops[opKindIndex(op)];
    fmt::print(out_, "{:<10} {:<7} {:>11} {:>8} {:>13.1f} {:>10} {:>10} {:>10} {:>10}\n",
               phaseName(phase.phase), opKindName(op), o.ok, o.failed, o.ops_per_s, micros(o.latency.p50_ns),
               micros(o.latency.p90_ns), micros(o.latency.p99_ns), micros(o.latency.max_ns));
  }
  fmt::print(out_, "{:<10} {:<7} {:>11} {:>8} {:>13.1f}   {:.3f} s barrier to barrier, balance {:.3f}\n",
             phaseName(phase.phase), "all", s.aggregate.ok, s.aggregate.failed, s.aggregate.ops_per_s,
             s.aggregate.time_s, s.time_balance);
  printShortRow(out_, phaseSize(phase));
  if (phase.phase == Phase::kSteadyMix) {
    fmt::print(out_,
               "mix: {} rounds, {:.1f} rounds/s, {:.1f} objects/s cycled; rank time {:.3f}-{:.3f} s "
               "(balance {:.3f}), rank ops/s {:.1f}-{:.1f} (balance {:.3f})\n",
               s.rounds, s.rounds_per_s, s.objects_per_s, s.rank_time_min_s, s.rank_time_max_s,
               s.time_balance, s.aggregate.rank_rate_min, s.aggregate.rank_rate_max, s.aggregate.balance);
    if (s.aggregate.stonewalled) {
      fmt::print(out_, "mix: stonewall after {:.3f} s: {:.1f} rounds/s per rank up to it\n",
                 s.aggregate.stonewall_time_s, s.rounds_per_s_at_stonewall);
    }
  }
  for (const std::string& line : failoverLines(phase)) {
    fmt::print(out_, "{}: {}\n", phaseName(phase.phase), line);
  }
  std::fflush(out_);
}

// What every summary ends with: the run's problems, what it could not remove, and the time it finished.
void ConsoleSink::printClosing(const RunResult& run) {
  for (const std::string& problem : run.problems) fmt::print(out_, "problem: {}\n", problem);
  for (const std::string& problem : run.cleanup_problems) fmt::print(out_, "cleanup: {}\n", problem);
  fmt::print(out_, "finished: {}\n", run.info.end_utc);
  std::fflush(out_);
}

// --steady: the tables were printed per iteration; the legend and each rank's first error, from the run's
// record of its iterations.
void ConsoleSink::printSteadyEnd(const RunResult& run) {
  fmt::print(out_,
             "\nops/s: operations that succeeded, over all ranks, divided by the slowest rank's barrier-to-"
             "barrier time;\nbalance: fastest over slowest rank's time to its last op (md-workbench's); "
             "latency: upper bound of the histogram bucket holding the percentile.\n");
  bool too_short = false;
  std::vector<std::string> errors;
  for (const PhaseResult& phase : run.phases) {
    too_short = too_short || tooShortToTime(phaseSize(phase));
    for (std::size_t r = 0; r < phase.ranks.size(); ++r) {
      if (const std::string e = describeSteadyError(phase.ranks[r]); !e.empty())
        errors.push_back(fmt::format("rank {}: {} ({})", r, e, phaseName(phase.phase)));
    }
  }
  if (too_short) printShortLegendLine();
  for (const std::string& e : errors) fmt::print(out_, "first error: {}\n", e);
  printClosing(run);
}

// Rows in execution order, one per phase, summarising its iterations.
void ConsoleSink::printSummaryTable(const RunResult& run, const Plan& plan) {
  fmt::print(out_, "{:<12} {:>11} {:>13} {:>13} {:>13} {:>11} {:>13} {:>13} {:>7} {:>8}\n", "phase",
             "ops/iter", "mean ops/s", "max ops/s", "min ops/s", "stddev", "rank min", "rank max", "balance",
             "failed");
  for (const Phase phase : plan.phases()) {
    std::vector<double> rates;
    std::uint64_t ops = 0;
    std::uint64_t failed = 0;
    double rank_min = 0.0;
    double rank_max = 0.0;
    double balance = 1.0;
    for (const PhaseResult& measured : run.phases) {
      if (measured.phase != phase) continue;
      const PhaseAggregate agg = aggregate(measured.ranks);
      if (rates.empty() || agg.rank_rate_min < rank_min) rank_min = agg.rank_rate_min;
      if (rates.empty() || agg.rank_rate_max > rank_max) rank_max = agg.rank_rate_max;
      if (rates.empty() || agg.balance < balance) balance = agg.balance;
      rates.push_back(agg.ops_per_s);
      ops = agg.ok + agg.failed;
      failed += agg.failed;
    }
    if (rates.empty()) continue;
    const IterationSummary s = summarize(rates);
    fmt::print(out_,
               "{:<12} {:>11} {:>13.1f} {:>13.1f} {:>13.1f} {:>11.1f} {:>13.1f} {:>13.1f} {:>7.3f} {:>8}\n",
               phaseName(phase), ops, s.mean, s.max, s.min, s.stddev, rank_min, rank_max, balance, failed);
    printShortRow(out_, meanPhaseSize(run, phase));
  }
}

namespace {

// The directory `rank` worked in (-d A@B: its own, not the joined list).
std::string rankTarget(const RunInfo& info, const Plan& plan, std::uint32_t rank) {
  if (info.targets.empty()) return info.target;
  return info.targets[plan.targetOf(rank) % info.targets.size()];
}

}  // namespace

// When a rate above was marked too short to time: what the mark means, once.
void ConsoleSink::printShortLegend(const RunResult& run, const Plan& plan) {
  for (const Phase phase : plan.phases()) {
    if (!tooShortToTime(meanPhaseSize(run, phase))) continue;
    printShortLegendLine();
    return;
  }
}

void ConsoleSink::printShortLegendLine() {
  fmt::print(out_,
             "too short: {}: such a rate is mostly the cost of one call and the barriers around it, not "
             "of the file system (docs/numbers.md).\n",
             tooShortThresholdText());
}

// Each rank's first error, once, when any op failed.
void ConsoleSink::printFirstErrors(const RunResult& run, const Plan& plan) {
  std::map<std::uint32_t, std::string> first_errors;
  for (const PhaseResult& measured : run.phases) {
    for (std::uint32_t r = 0; r < measured.ranks.size(); ++r) {
      const FirstError& e = measured.ranks[r].first_error;
      if (!e.any() || first_errors.count(r)) continue;
      first_errors[r] = fmt::format(
          "rank {}: {} (iteration {}): {} {}: {}", r, phaseName(measured.phase), measured.iteration,
          phaseInfo(measured.phase).verb,
          rankTarget(run.info, plan, r) + "/" + errorPath(plan, measured.iteration, measured.phase, e),
          describeOpError(e.err));
    }
  }
  const std::uint64_t failed = run.failedOps();
  if (failed == 0) return;
  fmt::print(out_, "\n{} operation{} failed; first error of each rank:\n", failed, failed == 1 ? "" : "s");
  // Enough to diagnose; a job of thousands of failing ranks must not flood its log.
  constexpr std::size_t kMaxLines = 16;
  std::size_t shown = 0;
  for (const auto& [rank, line] : first_errors) {
    if (shown++ == kMaxLines) break;
    fmt::print(out_, "  {}\n", line);
  }
  if (first_errors.size() > kMaxLines) {
    fmt::print(out_, "  ... and {} more ranks with errors\n", first_errors.size() - kMaxLines);
  }
}

void ConsoleSink::end(const RunResult& run, const Plan& plan) {
  if (run.phases.empty()) {
    // A setup error (reported by the caller) stopped the run before its first phase: no empty tables.
    fmt::print(out_, "no phase ran\n");
    printClosing(run);
    return;
  }
  if (run.config.steady_rounds > 0) {
    printSteadyEnd(run);
    return;
  }
  printSummaryTable(run, plan);
  printLatencyTable(run, plan);
  printDoneTable(run, plan);
  printStonewallTable(run, plan);
  fmt::print(out_,
             "\nops/s: operations that succeeded, over all ranks, divided by the slowest rank's barrier-to-"
             "barrier time;\nrank min/max: one rank's ops/s up to its own last operation, balance = min/max "
             "(worst iteration); stddev over iterations (n-1);\nlatency: upper bound of the histogram bucket "
             "(at most 6.25% wide) holding the percentile;\nfirst done: ops all ranks had done when the "
             "fastest finished, over its time; last done: all ops over the slowest rank's time to its last "
             "op.\n");
  printShortLegend(run, plan);
  printFirstErrors(run, plan);
  printClosing(run);
}

void printSweepTable(std::FILE* out, std::span<const RunResult> steps) {
  if (steps.empty()) return;
  const RunInfo& first_info = steps.front().info;
  fmt::print(out, "\nsweep: {} step{} of the job's {} ranks, placement {}\n", steps.size(),
             steps.size() == 1 ? "" : "s", first_info.sweep.job_ranks,
             sweepPlacementName(first_info.sweep.placement));
  fmt::print(out, "{:<12} {:>5} {:>6} {:>6} {:>14} {:>15} {:>11} {:>8}\n", "phase", "step", "ranks", "nodes",
             "mean ops/s", "ops/s per rank", "efficiency", "failed");
  // The phases any step measured (a steady run's too), in execution order: the phase table's.
  std::vector<Phase> phases;
  for (const RunResult& step : steps) {
    for (const PhaseResult& measured : step.phases) {
      if (std::ranges::find(phases, measured.phase) == phases.end()) phases.push_back(measured.phase);
    }
  }
  std::ranges::sort(phases);
  for (const Phase phase : phases) {
    double first_per_rank = -1.0;
    bool first_short = false;
    for (const RunResult& step : steps) {
      std::vector<double> rates;
      std::uint32_t active = 0;
      std::uint64_t failed = 0;
      for (const PhaseResult& measured : step.phases) {
        if (measured.phase != phase) continue;
        const PhaseAggregate agg = aggregate(measured.ranks);
        rates.push_back(agg.ops_per_s);
        active = std::max(active, agg.active_ranks);
        failed += agg.failed;
      }
      if (rates.empty()) continue;
      const double mean = summarize(rates).mean;
      const double per_rank = perRankRate(mean, active);
      const PhaseSize size = meanPhaseSize(step, phase);
      if (first_per_rank < 0.0) {
        first_per_rank = per_rank;
        first_short = tooShortToTime(size);
      }
      // An efficiency against, or of, a rate too short to time compares the cost of barriers: none.
      const std::string efficiency =
          first_short || tooShortToTime(size)
              ? std::string("-")
              : fmt::format("{:.1f}%", 100.0 * scalingEfficiency(per_rank, first_per_rank));
      fmt::print(out, "{:<12} {:>5} {:>6} {:>6} {:>14.1f} {:>15.1f} {:>11} {:>8}\n", phaseName(phase),
                 step.info.sweep.step, step.info.ranks, step.info.nodes, mean, per_rank, efficiency, failed);
      printShortRow(out, size);
    }
  }
  fmt::print(
      out,
      "\nmean ops/s: over the step's iterations; ops/s per rank: mean ops/s / ranks with work in the phase;"
      "\nefficiency: ops/s per rank / the first step's (100% = linear scaling); -: this step's or the first "
      "step's phase was too short to time\n({}).\n",
      tooShortThresholdText());
  std::fflush(out);
}

}  // namespace mdbench
