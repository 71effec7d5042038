// `mdbench validate`: a results file is checked in two passes, and the first problem found ends the check.
//
// 1. Structure, driven by the compiled-in results-schema/schema.json: validate_structure.cpp.
// 2. Consistency, on the file as read by readResultsFile() (and the rows' derived columns, which the
//    reader does not keep): every derived number is recomputed from the per-rank rows with the functions in
//    metrics.hpp (the only place the formulas live) and compared, and every rank's planned ops from the plan
//    (plan.hpp) of the stored config, node_of_rank and the phase's items; the items themselves and the
//    stonewall fields follow the rules of results-schema/README.md; version 5's ops per interval add up to
//    the rows' ok, and the first/last-done rates are recomputed.
//
// Inside, a problem is thrown as a `Problem` so each check is one line; validateResultsFile catches it and
// every other exception, so nothing escapes to the caller.
#include "mdbench/results/validate.hpp"

#include <fmt/format.h>
#include <hdf5.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "h5.hpp"
#include "mdbench/config/config.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/result.hpp"
#include "mdbench/model/stats.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/results/results_file.hpp"
#include "results_faults.hpp"
#include "results_files.hpp"
#include "results_layout.hpp"
#include "results_server_stats.hpp"
#include "validate_checks.hpp"
#include "validate_steady.hpp"
#include "validate_structure.hpp"
#include "validate_timeline.hpp"

namespace mdbench {
namespace validation {
namespace {

// ---------------------------------------------------------------------------------------------------------
// Pass 2: consistency.

// "2026-11-30T13:23:06Z"
bool isIsoUtc(const std::string& text) {
  constexpr std::string_view kPattern = "dddd-dd-ddTdd:dd:ddZ";
  if (text.size() != kPattern.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (kPattern[i] == 'd' ? !digit : text[i] != kPattern[i]) return false;
  }
  return true;
}

// The rows of a phase's `ranks` table with their derived columns (rank, node, rate), which the reader does
// not keep: they are checked against their recomputation from the record.
std::vector<results::RankRow> storedRankRows(hid_t file, const std::string& phase_group) {
  const h5::Handle group = h5::openGroup(file, phase_group.substr(phase_group.starts_with('/') ? 1 : 0));
  return h5::readCompound<results::RankRow>(group.get(), "ranks", results::kRankFields,
                                            [](const results::RankRow& row) { return row; });
}

std::uint64_t failedOps(const StoredRun& run) {
  std::uint64_t failed = 0;
  for (const StoredPhase& phase : run.phases) failed += phase.aggregate.failed;
  return failed;
}

void checkAggregate(const StoredPhase& phase) {
  const PhaseAggregate want = aggregate(phase.ranks);
  expectAttributes(phase.group, results::kAggregateTotals, want, phase.aggregate);
  expectAttributes(phase.group, results::kAggregateSpread, want, phase.aggregate);
}

void checkLatency(const StoredPhase& phase) {
  // Its length is the structure's (a histogram's buckets, checked before the file is read).
  const std::string path = phase.group + "/latency";
  expectEqual(path, "sum of counts", phase.aggregate.ok, phase.latency.count(), "ops_ok");
  const LatencySummary want = latencySummary(phase.latency);
  expectAttributes(phase.group, results::kLatencyAttributes, want, phase.latency_summary);
}

// The first/last-done rates (version 5): plausible on their own first, so a damaged value gets a plain
// message, then exactly what doneRates (metrics.hpp) gives for the stored rows and series.
void checkDoneRates(const StoredPhase& phase) {
  const DoneRates& got = phase.done;
  const std::string& g = phase.group;
  for (const auto& [name, value] :
       {std::pair<std::string_view, double>{"first_done_time_s", got.first_done_time_s},
        {"last_done_time_s", got.last_done_time_s},
        {"first_done_ops_per_s", got.first_done_ops_per_s},
        {"last_done_ops_per_s", got.last_done_ops_per_s}}) {
    if (!std::isfinite(value) || value < 0.0) {
      fail(g, fmt::format("{}: expected a finite number >= 0, found {}", name, value));
    }
  }
  if (got.last_done_time_s < got.first_done_time_s) {
    fail(g,
         fmt::format("last_done_time_s: expected at least first_done_time_s = {} (the slowest rank ends no "
                     "earlier than the fastest), found {}",
                     got.first_done_time_s, got.last_done_time_s));
  }
  if (got.first_done_ops > phase.aggregate.ok) {
    fail(g, fmt::format("first_done_ops: expected at most ops_ok = {}, found {}", phase.aggregate.ok,
                        got.first_done_ops));
  }
  const DoneRates want = doneRates(phase.ranks, phase.series);
  expectAttributes(g, results::kDoneRateAttributes, want, got);
}

// --server-stats (version 7): each source's deltas against its own before and after samples.
void checkServerStats(const StoredPhase& phase) {
  for (std::size_t i = 0; i < phase.server_stats.size(); ++i) {
    if (const std::string problem = results::serverStatsProblem(phase.server_stats[i]); !problem.empty()) {
      fail(
          fmt::format("{}/{}/{}", phase.group, results::kServerStatsGroup, results::serverSourceGroupName(i)),
          problem);
    }
  }
}

class RunChecker {
 public:
  // `file`: the open file `run` was read from, for the columns the reader does not keep.
  RunChecker(hid_t file, const StoredRun& run, std::vector<std::string>& notes)
      : file_(file), run_(run), notes_(notes) {}

  void check() {
    checkStatus();
    checkNodes();
    checkSweep();
    checkBuckets();
    makePlan();
    for (const StoredPhase& phase : run_.phases) {
      if (!phaseInfo(phase.phase).steady()) checkPhase(phase);
    }
    checkSteady();
    checkCompleteness();
    if (finished() || run_.has_summary) {
      checkSummary();
    } else {
      notes_.push_back(
          fmt::format("{}: status {} and no exit status (still being written, or killed{}): no "
                      "summary to check",
                      run_.group, run_.status, run_.status == "interrupted" ? " after a stop request" : ""));
    }
  }

 private:
  // Whether the run wrote its exit status: a job killed first (SIGKILL, or Hydra's after a stop request)
  // leaves status running, or interrupted when a stop had cut a phase short, with exit_status -1.
  bool finished() const {
    return run_.exit_status != -1 || run_.status == "complete" || run_.status == "failed";
  }

  void checkStatus() const {
    const std::string& g = run_.group;
    if (!isIsoUtc(run_.info.start_utc)) {
      fail(g, fmt::format("start_utc: expected an ISO 8601 UTC time, found \"{}\"", run_.info.start_utc));
    }
    if (run_.status == "running" || (run_.status == "interrupted" && !finished())) {
      expectEqual<std::int32_t>(g, "exit_status", -1, run_.exit_status, "status " + run_.status);
      // Killed after the summary and end time were written, before the status: both are there.
      const bool ended = run_.has_summary && isIsoUtc(run_.info.end_utc);
      if (!run_.info.end_utc.empty() && !ended) {
        fail(g, fmt::format("end_utc: expected \"\" (status {}, no summary), found \"{}\"", run_.status,
                            run_.info.end_utc));
      }
      return;
    }
    if (!isIsoUtc(run_.info.end_utc)) {
      fail(g, fmt::format("end_utc: expected an ISO 8601 UTC time (status {}), found \"{}\"", run_.status,
                          run_.info.end_utc));
    }
    if (run_.status == "complete") {
      expectEqual<std::int32_t>(g, "exit_status", 0, run_.exit_status, "status complete");
      expectEqual<std::uint64_t>(g, "status complete: failed operations", 0, failedOps(run_),
                                 "a run with a failed operation exits 1");
    } else if (run_.status == "interrupted" && run_.exit_status <= 128) {
      fail(g, fmt::format("exit_status: expected 128 + a signal number (status interrupted), found {}",
                          run_.exit_status));
    } else if (run_.exit_status <= 0) {
      fail(g, fmt::format("exit_status: expected a positive exit status (status {}), found {}", run_.status,
                          run_.exit_status));
    }
  }

  void checkNodes() const {
    const std::string& g = run_.group;
    const std::vector<std::string>& hosts = run_.info.host_of_rank;
    expectEqual<std::size_t>(g + "/hosts", "length", run_.info.ranks, hosts.size(), "ranks");
    expectEqual<std::size_t>(g + "/node_of_rank", "length", run_.info.ranks, run_.node_of_rank.size(),
                             "ranks");
    const NodeLayout layout = nodeLayout(hosts);
    for (std::size_t r = 0; r < hosts.size(); ++r) {
      if (layout.node_of_rank[r] != run_.node_of_rank[r]) {
        fail(g + "/node_of_rank", fmt::format("element {}: expected {} (host \"{}\", hosts numbered by first "
                                              "appearance), found {}",
                                              r, layout.node_of_rank[r], hosts[r], run_.node_of_rank[r]));
      }
    }
    expectEqual(g, "nodes", layout.nodes, run_.info.nodes, "distinct hosts");
    expectEqual(g, "ranks_per_node_min", layout.ranks_per_node_min, run_.ranks_per_node_min, "from hosts");
    expectEqual(g, "ranks_per_node_max", layout.ranks_per_node_max, run_.ranks_per_node_max, "from hosts");
  }

  // A sweep step ran on some of the job's ranks; any other run on all of them (results-schema/README.md).
  void checkSweep() const {
    const std::string& g = run_.group;
    const SweepStepInfo& sweep = run_.info.sweep;
    if (sweep.placement == SweepPlacement::kNone) {
      expectEqual<std::uint32_t>(g, "sweep_step", 0, sweep.step, "sweep_placement none: not a sweep step");
      expectEqual(g, "job_ranks", run_.info.ranks, sweep.job_ranks, "ranks: not a sweep step");
      return;
    }
    if (sweep.step == 0) fail(g, "sweep_step: expected at least 1 (a sweep step), found 0");
    if (sweep.job_ranks < run_.info.ranks) {
      fail(g, fmt::format("job_ranks: expected at least ranks = {} (a step runs on some of the job's ranks), "
                          "found {}",
                          run_.info.ranks, sweep.job_ranks));
    }
  }

  void checkBuckets() const {
    const auto check = [&](const std::vector<std::uint64_t>& stored, const std::string& name, auto bound) {
      const std::string path = run_.group + "/" + name;
      expectEqual<std::size_t>(path, "length", LatencyHistogram::kBuckets, stored.size(),
                               "histogram buckets");
      for (std::size_t b = 0; b < stored.size(); ++b) {
        expectEqual<std::uint64_t>(path, fmt::format("element {}", b), bound(b), stored[b], "bucket bound");
      }
    };
    check(run_.bucket_low, "latency_bucket_low", &LatencyHistogram::bucketLow);
    check(run_.bucket_high, "latency_bucket_high", &LatencyHistogram::bucketHigh);
  }

  // The plan the stored configuration gives: what each rank was planned to do, which phases run in
  // which order.
  void makePlan() {
    const std::string config_group = run_.group + "/config";
    const std::vector<std::string> problems = validate(run_.config);
    if (!problems.empty()) fail(config_group, "invalid configuration: " + problems.front());
    if (run_.info.ranks == 0) fail(run_.group, "ranks: expected at least 1, found 0");
    plan_.emplace(run_.config, run_.node_of_rank);  // node-aware: the rank shift depends on the nodes
    expectEqual(config_group, "shift_used", plan_->shift(), run_.shift_used,
                "the plan's shift for the stored config and node_of_rank");
  }

  // The plan a phase worked to: the stored config's, with the phase's items (a stonewalled create's count,
  // or -x's, replaces -n). Tree phases build the same tree whatever the count.
  const Plan& planFor(const StoredPhase& phase) {
    if (isTreePhase(phase.phase) || phase.items == run_.config.items) return *plan_;
    const auto known = item_plans_.find(phase.items);
    if (known != item_plans_.end()) return known->second;
    if (phase.items > 0) {
      Config config = run_.config;
      config.items = phase.items;
      const std::vector<std::string> problems = validate(config);
      if (!problems.empty()) {
        fail(phase.group, fmt::format("items: {} gives no valid plan with the stored config: {}", phase.items,
                                      problems.front()));
      }
    }
    return item_plans_.emplace(phase.items, plan_->withItems(phase.items)).first->second;
  }

  // Without -W, and without -x reading another job's counts, every item phase works on -n items. A
  // stonewall (-W) can stop a create, stat or read short of -n (all ranks wear out to one count), never
  // beyond. Within an iteration no phase works on more items than its kind's create made, and rename and
  // remove work on all of them (they run to the end: what they skipped would be left behind).
  void checkItems(const StoredPhase& phase) {
    if (isTreePhase(phase.phase)) return;
    const Config& c = run_.config;
    const bool reads_counts = !c.stonewall_file.empty() && !c.phases.create;
    if (c.stonewall_s == 0.0 && !reads_counts) {
      expectEqual(phase.group, "items", c.items, phase.items, "config items: no -W, no counts read with -x");
      return;
    }
    if (!reads_counts && phase.items > c.items) {
      fail(phase.group, fmt::format("items: expected at most config items = {} (a stonewall only stops "
                                    "early), found {}",
                                    c.items, phase.items));
    }
    const auto key = std::make_pair(phase.iteration, itemKindOf(phase.phase));
    if (phaseInfo(phase.phase).creates()) {
      created_[key] = {phase.items, phase.group};
      return;
    }
    const auto create = created_.find(key);
    if (create == created_.end()) return;
    const auto& [created, create_group] = create->second;
    const bool all = phaseInfo(phase.phase).onceForShared();
    if (all ? phase.items != created : phase.items > created) {
      fail(phase.group, fmt::format("items: expected {}{} ({} made that many; {}), found {}",
                                    all ? "" : "at most ", created, create_group,
                                    all ? "rename and remove work on all of them" : "no phase works on more",
                                    phase.items));
    }
  }

  void checkPhase(const StoredPhase& phase) {
    const std::string& g = phase.group;
    const std::vector<Phase>& order = plan_->phases();
    const auto at = std::find(order.begin(), order.end(), phase.phase);
    if (at == order.end()) {
      fail(g, fmt::format("phase {} is not selected by the stored config", phaseName(phase.phase)));
    }
    const std::string expected_group =
        fmt::format("{}/iterations/{}/{}", run_.group, results::iterationGroupName(phase.iteration),
                    phaseName(phase.phase));
    if (g != expected_group) {
      fail(g, fmt::format("its attributes (phase {}, iteration {}) belong in {}", phaseName(phase.phase),
                          phase.iteration, expected_group));
    }
    if (phase.iteration >= run_.config.iterations) {
      fail(g, fmt::format("iteration: expected less than config iterations = {}, found {}",
                          run_.config.iterations, phase.iteration));
    }
    expectEqual<std::uint32_t>(g, "order", static_cast<std::uint32_t>(at - order.begin()), phase.order,
                               "position in the execution order");
    if (phase.rate_formula != results::kRateFormula) {
      fail(g, fmt::format("rate_formula: expected \"{}\", found \"{}\"", results::kRateFormula,
                          phase.rate_formula));
    }
    checkItems(phase);
    checkRows(phase, planFor(phase));
    checkWearOut(phase);
    checkAggregate(phase);
    checkLatency(phase);
    const std::vector<RankSpan> spans = rankSpans(phase.ranks);
    if (phase.has_series) {
      checkSeries(phase.group, phase.series, spans, "ranks.ok");
      checkDoneRates(phase);
    }
    checkErrors(phase);
    checkServerStats(phase);
    checkFailover(phase.group, phase, spans);
  }

  void checkRows(const StoredPhase& phase, const Plan& plan) const {
    const std::string path = phase.group + "/ranks";
    expectEqual<std::size_t>(path, "rows", run_.info.ranks, phase.ranks.size(), "ranks");
    const std::vector<results::RankRow> stored = storedRankRows(file_, phase.group);
    for (std::uint32_t r = 0; r < phase.ranks.size(); ++r) {
      const RankPhaseRecord& row = phase.ranks[r];
      const results::RankRow want = results::rankRowOf(r, run_.node_of_rank[r], row);
      const std::string at = fmt::format("row {}", r);
      expectEqual(path, at + ": rank", want.rank, stored[r].rank, "rows are in rank order");
      expectEqual(path, at + ": node", want.node, stored[r].node, "node_of_rank");
      // A signal stops the phase it arrives in short: each rank then planned what it did (at most the plan).
      const bool stopped = run_.status == "interrupted" && &phase == &run_.phases.back();
      if (!stopped || row.planned > plannedOpsOf(plan, phase.phase, r)) {
        expectEqual(path, at + ": planned", plannedOpsOf(plan, phase.phase, r), row.planned,
                    "the stored config's plan for the phase's items");
      }
      if (row.ok > row.planned || row.planned - row.ok != row.failed) {
        fail(path, fmt::format("{}: ok + failed = {} + {}, expected planned = {}", at, row.ok, row.failed,
                               row.planned));
      }
      if (run_.config.no_barriers && row.t_global_end != row.t_local_end) {
        fail(path, fmt::format("{}: barrier_timed is 0 (-B: no closing barrier), so t_global_end must equal "
                               "t_local_end, found {} and {}",
                               at, row.t_global_end, row.t_local_end));
      }
      if (!(row.t_start <= row.t_local_end && row.t_local_end <= row.t_global_end)) {
        fail(path, fmt::format("{}: expected t_start <= t_local_end <= t_global_end, found {}, {}, {}", at,
                               row.t_start, row.t_local_end, row.t_global_end));
      }
      expectNear(path, at + ": rate", want.rate, stored[r].rate, "ok / (t_local_end - t_start)");
      checkStonewallRow(path, at, row, phase.phase);
    }
  }

  // A rank whose timer never fired (t_stonewall = 0) had done all its ops "at the stonewall"; one whose
  // timer fired had done at most all of them, at a time inside its own run of the phase.
  void checkStonewallRow(const std::string& path, const std::string& at, const RankPhaseRecord& row,
                         Phase phase) const {
    if (row.t_stonewall == 0.0) {
      if (row.ops_at_stonewall != row.ok) {
        fail(path, fmt::format("{}: ops_at_stonewall: expected ok = {} (t_stonewall = 0: the timer "
                               "never fired), found {}",
                               at, row.ok, row.ops_at_stonewall));
      }
      return;
    }
    if (row.ops_at_stonewall > row.ok) {
      fail(path, fmt::format("{}: ops_at_stonewall: expected at most ok = {}, found {}", at, row.ok,
                             row.ops_at_stonewall));
    }
    if (!(row.t_start <= row.t_stonewall && row.t_stonewall <= row.t_local_end)) {
      fail(path,
           fmt::format("{}: expected t_stonewall = 0 or t_start <= t_stonewall <= t_local_end, found {} "
                       "(t_start {}, t_local_end {})",
                       at, row.t_stonewall, row.t_start, row.t_local_end));
    }
    if (!(run_.config.stonewall_s > 0.0)) {
      fail(path, fmt::format("{}: t_stonewall: expected 0 (config stonewall_s = 0: no stonewall), found {}",
                             at, row.t_stonewall));
    }
    if (stonewallRule(phase) == StonewallRule::kNone) {
      fail(path, fmt::format("{}: t_stonewall: expected 0 ({} has no stonewall), found {}", at,
                             phaseName(phase), row.t_stonewall));
    }
  }

  // A stonewalled create, stat or read stops every rank at its firing and then takes all ranks on to the
  // largest count any rank reached: that is the phase's items.
  void checkWearOut(const StoredPhase& phase) const {
    if (stonewallRule(phase.phase) != StonewallRule::kStopAndWearOut) return;
    const auto fired = [](const RankPhaseRecord& row) { return row.t_stonewall > 0.0; };
    if (std::none_of(phase.ranks.begin(), phase.ranks.end(), fired)) return;
    std::uint64_t reached = 0;
    for (const RankPhaseRecord& row : phase.ranks) reached = std::max(reached, row.ops_at_stonewall);
    if (phase.items < reached) {
      fail(phase.group, fmt::format("items: expected at least the largest ranks.ops_at_stonewall = {} (every "
                                    "rank wears out to the furthest count), found {}",
                                    reached, phase.items));
    }
  }

  // A steady run (config steady_rounds > 0) has a steady group per iteration instead of phase groups.
  void checkSteady() const {
    const bool steady = run_.config.steady_rounds > 0;
    const std::vector<SteadyIteration> iterations = steadyIterations(run_);
    for (const StoredPhase& phase : run_.phases) {
      if (steady && !phaseInfo(phase.phase).steady()) {
        fail(phase.group, "a phase group in a steady run (config steady_rounds > 0)");
      }
    }
    if (!steady && !iterations.empty()) {
      fail(iterations.front().group, "a steady group in a run without --steady (config steady_rounds = 0)");
    }
    for (const SteadyIteration& it : iterations) {
      const bool last = &it == &iterations.back();
      const bool stopped = run_.status == "interrupted" && last;
      // A job killed before the run ended (exit_status -1) may have written part of its last iteration.
      const bool cut = !finished() && last;
      checkSteadyIteration(file_, it, run_.config, run_.node_of_rank, stopped, cut);
    }
  }

  // A complete run ran every selected phase in every iteration (a steady run: the steady state).
  void checkCompleteness() const {
    if (run_.status != "complete") return;
    if (run_.config.steady_rounds > 0) {
      for (std::uint32_t i = 0; i < run_.config.iterations; ++i) {
        const auto same = [&](const StoredPhase& s) { return s.iteration == i; };
        if (std::none_of(run_.phases.begin(), run_.phases.end(), same)) {
          fail(fmt::format("{}/iterations/{}/{}", run_.group, results::iterationGroupName(i),
                           results::kSteadyGroup),
               "missing: the run is complete and its config has --steady");
        }
      }
      return;
    }
    for (std::uint32_t i = 0; i < run_.config.iterations; ++i) {
      for (const Phase p : plan_->phases()) {
        const auto same = [&](const StoredPhase& s) { return s.iteration == i && s.phase == p; };
        if (std::none_of(run_.phases.begin(), run_.phases.end(), same)) {
          fail(fmt::format("{}/iterations/{}/{}", run_.group, results::iterationGroupName(i), phaseName(p)),
               "missing: the run is complete and its config selects this phase");
        }
      }
    }
  }

  void checkSummary() const {
    std::map<Phase, std::vector<double>> ops_per_s;  // iteration order: the reader's order
    for (const StoredPhase& phase : run_.phases) {
      // A steady run's phases have no summary group (its steady groups hold their own numbers).
      if (!phaseInfo(phase.phase).steady()) ops_per_s[phase.phase].push_back(phase.aggregate.ops_per_s);
    }
    std::set<Phase> summarized;
    for (const StoredSummary& s : run_.summaries) {
      const std::string path = fmt::format("{}/summary/{}", run_.group, phaseName(s.phase));
      const auto values = ops_per_s.find(s.phase);
      if (values == ops_per_s.end()) fail(path, "summary of a phase that has no phase group");
      if (!summarized.insert(s.phase).second) fail(path, "a second summary of this phase");
      const IterationSummary want = summarize(values->second);
      expectEqual(path, "iterations", want.iterations, s.summary.iterations, "phase groups of this phase");
      expectNear(path, "ops_per_s_max", want.max, s.summary.max, "max of the iterations' ops_per_s");
      expectNear(path, "ops_per_s_min", want.min, s.summary.min, "min of the iterations' ops_per_s");
      expectNear(path, "ops_per_s_mean", want.mean, s.summary.mean, "mean of the iterations' ops_per_s");
      expectNear(path, "ops_per_s_stddev", want.stddev, s.summary.stddev,
                 "sample standard deviation of the iterations' ops_per_s", std::max(want.max, -want.min));
    }
    for (const auto& [phase, values] : ops_per_s) {
      if (!summarized.contains(phase)) {
        fail(fmt::format("{}/summary/{}", run_.group, phaseName(phase)),
             fmt::format("missing: the phase ran in {} iteration(s)", values.size()));
      }
    }
  }

  hid_t file_;
  const StoredRun& run_;
  std::vector<std::string>& notes_;
  std::optional<Plan> plan_;
  std::map<std::uint64_t, Plan> item_plans_;  // by phase items, when they differ from config items
  // The create phase of each (iteration, item kind) seen so far: its items and group.
  std::map<std::pair<std::uint32_t, ItemKind>, std::pair<std::uint64_t, std::string>> created_;
};

// An imported row's rates (ops/s or MiB/s): finite, not negative, min <= mean <= max, a sensible count.
struct ImportedRates {
  std::uint32_t count;  // clients or ranks
  std::uint32_t iterations;
  double max, min, mean, stddev;
};

void checkImportedRow(const std::string& object, const ImportedRates& r) {
  if (r.count == 0) fail(object, "a client or rank count of 0");
  if (r.iterations == 0) fail(object, "0 iterations");
  for (const double v : {r.max, r.min, r.mean, r.stddev}) {
    if (!std::isfinite(v) || v < 0.0)
      fail(object, fmt::format("a rate of {}: not a finite, non-negative number", v));
  }
  if (!(r.min <= r.mean * (1 + 1e-9) && r.mean <= r.max * (1 + 1e-9))) {
    fail(object, fmt::format("min {} <= mean {} <= max {} does not hold", r.min, r.mean, r.max));
  }
}

void checkImports(const StoredResults& results) {
  for (const DataPathImport& imp : results.datapath) {
    for (std::size_t i = 0; i < imp.rows.size(); ++i) {
      const DataPathRow& r = imp.rows[i];
      const std::string object = fmt::format("{}/results row {}", imp.group, i);
      if (r.operation.empty()) fail(object, "an empty operation name");
      checkImportedRow(object, {r.clients, r.iterations, r.mib_per_s_max, r.mib_per_s_min, r.mib_per_s_mean,
                                r.mib_per_s_stddev});
    }
  }
  for (const MetadataImport& imp : results.metadata_imports) {
    for (std::size_t i = 0; i < imp.rows.size(); ++i) {
      const MetadataImportRow& r = imp.rows[i];
      const std::string object = fmt::format("{}/results row {}", imp.group, i);
      if (!r.phase.empty() && !parsePhaseName(r.phase))
        fail(object, fmt::format("phase '{}' is not a phase name", r.phase));
      if (r.operation.empty()) fail(object, "an empty operation name");
      checkImportedRow(object, {r.ranks, r.iterations, r.ops_per_s_max, r.ops_per_s_min, r.ops_per_s_mean,
                                r.ops_per_s_stddev});
    }
  }
}

// The one check of a results file, behind `mdbench validate`, --append and every tool that reads results
// (readValidResultsFile): the file is opened once, as every results file is (results_files.hpp), its
// structure checked, then read and its numbers recomputed.
StoredResults checkFile(const std::string& path, std::vector<std::string>& notes, std::uint32_t& version,
                        const results::FileKey* expected) {
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, error))) fail("", "no such file");
  if (!std::filesystem::is_regular_file(path, error)) fail("", "not a regular file");
  const h5::QuietErrors quiet;
  h5::Handle file;
  try {
    file = results::openFile(path, H5F_ACC_RDONLY, "read", expected);
  } catch (const ResultsFileError& e) {
    // The message names the file; "cannot be read" keeps the validator's wording for a foreign file.
    const std::string what = e.what();
    fail("", what.starts_with(path + ": ") ? what.substr(path.size() + 2) : what);
  }
  checkStructure(file.get(), notes);

  StoredResults results = results::readStored(file.get(), path);
  version = results.schema_version;
  // Since version 4 a file may hold imports only; a file with nothing at all is a mistake.
  if (results.runs.empty() && results.datapath.empty() && results.metadata_imports.empty()) {
    fail("/runs", "no group matching \"run-*\" and no imports: the file holds no results");
  }
  for (const StoredRun& run : results.runs) RunChecker(file.get(), run, notes).check();
  checkImports(results);
  return results;
}

ValidationResult validateFile(const std::string& path, const results::FileKey* expected,
                              StoredResults* read) {
  ValidationResult result;
  const auto failed = [&](const std::string& problem) {
    result.ok = false;
    result.first_problem = problem;
  };
  try {
    StoredResults stored = checkFile(path, result.notes, result.schema_version, expected);
    if (read != nullptr) *read = std::move(stored);
  } catch (const Problem& p) {
    failed(p.object.empty() ? fmt::format("{}: {}", path, p.what)
                            : fmt::format("{}: {}: {}", path, p.object, p.what));
  } catch (const ResultsFileError& e) {
    // The reader names the file and the object.
    const std::string what = e.what();
    failed(what.starts_with(path) ? what : fmt::format("{}: {}", path, what));
  } catch (const std::exception& e) {
    failed(fmt::format("{}: internal error while validating: {}", path, e.what()));
  }
  return result;
}

}  // namespace
}  // namespace validation

ValidationResult validateResultsFile(const std::string& path) {
  return validation::validateFile(path, nullptr, nullptr);
}

namespace results {
ValidationResult validateExpected(const std::string& path, const FileKey& expected) {
  return validation::validateFile(path, &expected, nullptr);
}
}  // namespace results

StoredResults readValidResultsFile(const std::string& path) {
  StoredResults read;
  const ValidationResult result = validation::validateFile(path, nullptr, &read);
  if (!result.ok) {
    throw ResultsFileError(fmt::format("{} (`mdbench validate` rejects the file: nothing is read from it)",
                                       result.first_problem));
  }
  return read;
}

}  // namespace mdbench
