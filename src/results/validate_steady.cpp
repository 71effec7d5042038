// `mdbench validate`'s checks of a --steady run's groups, iterations/iter-NNNN/steady (steady.hpp's engine;
// results-schema/README.md, "Steady state"): rows, histograms, exact counts and the stored summary.
#include "validate_steady.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "h5.hpp"
#include "mdbench/config/config.hpp"
#include "mdbench/model/stats.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/results/results_file.hpp"
#include "results_layout.hpp"
#include "validate_checks.hpp"
#include "validate_timeline.hpp"

namespace mdbench::validation {
namespace {

// The stored summary against summarizeSteadyPhase of the stored rows and histograms (steady.hpp holds the
// formulas). Only what the phase stores: per op its own op types, and the rounds and stonewall in the mix.
void checkSteadySummary(const StoredPhase& phase) {
  const std::string& g = phase.group;
  const SteadyPhaseSummary want = summarizeSteadyPhase(phase);
  // The counts before the times and rates computed from them, so that a wrong count is the one named.
  for (const Rows rows : {Rows::kExact, Rows::kNear}) {
    results::forSteadyTables(
        phase.phase,
        [&](const auto& table, std::string_view op, const auto& w, const auto& got) {
          expectAttributes(g, table, w, got, op, rows);
        },
        want, phase.summary);
  }
}

// Each op type's histogram holds exactly its successful ops (its length is the structure's: a histogram's
// buckets, checked before the file is read).
void checkSteadyLatency(const StoredPhase& phase) {
  for (const OpKind op : opKindsOf(phase.phase)) {
    const std::string path = fmt::format("{}/{}", phase.group, results::steadyLatencyName(op));
    std::uint64_t ok = 0;
    for (const RankPhaseRecord& row : phase.ranks) ok += row.kinds[opKindIndex(op)].ok;
    expectEqual(path, "sum of counts", ok, phase.kind_latency[opKindIndex(op)].count(),
                fmt::format("sum of ranks.{}_ok", opKindName(op)));
  }
}

// What a phase does when nothing failed, from the config: precreate makes D datasets and -n objects per
// rank, every mix round stats, reads, deletes and creates one object per dataset, cleanup removes what
// precreate made and the datasets. In the iteration a signal stopped (`stopped`), precreate may have made
// fewer objects (at most -n per rank, and then the mix ran no round); cleanup still removes all it made.
void checkSteadyCounts(const StoredPhase& phase, const Config& config, std::uint64_t rounds,
                       std::uint64_t precreated, bool stopped) {
  if (phase.summary.aggregate.failed != 0) return;  // a failure skips later ops (steady.hpp): no exact counts
  const std::uint64_t ranks = phase.ranks.size();
  std::array<std::uint64_t, kOpKindCount> want{};
  std::string how;
  switch (phase.phase) {
    case Phase::kSteadyPrecreate:
      want[opKindIndex(OpKind::kMkdir)] = config.datasets * ranks;
      want[opKindIndex(OpKind::kCreate)] = config.items * ranks;
      how = "config datasets and items x ranks, nothing failed";
      if (stopped && precreated < config.items * ranks && rounds == 0) {
        want[opKindIndex(OpKind::kCreate)] = precreated;  // checked against the limit below
        how = "stopped by a signal: at most config items x ranks, and then no mix rounds";
      }
      break;
    case Phase::kSteadyMix:
      for (const OpKind op : opKindsOf(Phase::kSteadyMix)) {
        want[opKindIndex(op)] = rounds * config.datasets * ranks;
      }
      how = "rounds x datasets x ranks, nothing failed";
      break;
    case Phase::kSteadyCleanup:
      want[opKindIndex(OpKind::kDelete)] = precreated;
      want[opKindIndex(OpKind::kRmdir)] = config.datasets * ranks;
      how = "precreate's create_ok and config datasets x ranks, nothing failed";
      break;
    default:
      return;  // the reader takes only steady phases into a steady group
  }
  for (std::size_t op = 0; op < kOpKindCount; ++op) {
    std::uint64_t ok = 0;
    for (const RankPhaseRecord& row : phase.ranks) ok += row.kinds[op].ok;
    expectEqual(phase.group + "/ranks", fmt::format("sum of {}_ok", opKindName(static_cast<OpKind>(op))),
                want[op], ok, how);
  }
}

// The rows of a steady phase's `ranks` table with their rank and node columns, which the reader does not
// keep.
std::vector<results::SteadyRankRow> storedSteadyRows(hid_t file, const std::string& phase_group) {
  const h5::Handle group = h5::openGroup(file, phase_group.substr(phase_group.starts_with('/') ? 1 : 0));
  return h5::readCompound<results::SteadyRankRow>(group.get(), "ranks", results::kSteadyRankFields,
                                                  [](const results::SteadyRankRow& row) { return row; });
}

void checkSteadyRows(hid_t file, const StoredPhase& phase, const std::vector<std::uint32_t>& node_of_rank,
                     std::uint64_t rounds) {
  const std::string path = phase.group + "/ranks";
  expectEqual<std::size_t>(path, "rows", node_of_rank.size(), phase.ranks.size(), "ranks");
  const std::vector<results::SteadyRankRow> stored = storedSteadyRows(file, phase.group);
  const std::span<const OpKind> own = opKindsOf(phase.phase);
  for (std::uint32_t r = 0; r < phase.ranks.size(); ++r) {
    const RankPhaseRecord& row = phase.ranks[r];
    const std::string at = fmt::format("row {}", r);
    expectEqual(path, at + ": rank", r, stored[r].rank, "rows are in rank order");
    expectEqual(path, at + ": node", node_of_rank[r], stored[r].node, "node_of_rank");
    if (!(row.t_start <= row.t_local_end && row.t_local_end <= row.t_global_end)) {
      fail(path, fmt::format("{}: expected t_start <= t_local_end <= t_global_end, found {}, {}, {}", at,
                             row.t_start, row.t_local_end, row.t_global_end));
    }
    for (std::size_t op = 0; op < kOpKindCount; ++op) {
      const bool of_phase = std::find(own.begin(), own.end(), static_cast<OpKind>(op)) != own.end();
      if (!of_phase && (row.kinds[op].ok != 0 || row.kinds[op].failed != 0)) {
        fail(path, fmt::format("{}: {}_ok and {}_failed: expected 0 ({} does no {}), found {} and {}", at,
                               opKindName(static_cast<OpKind>(op)), opKindName(static_cast<OpKind>(op)),
                               phaseName(phase.phase), opKindName(static_cast<OpKind>(op)), row.kinds[op].ok,
                               row.kinds[op].failed));
      }
    }
    if (phase.phase != Phase::kSteadyMix) continue;
    expectEqual(path, at + ": rounds", rounds, row.rounds, "the steady group's rounds: every rank agrees");
    if (row.t_stonewall == 0.0) {
      expectEqual(path, at + ": rounds_at_stonewall", row.rounds, row.ops_at_stonewall,
                  "rounds: t_stonewall = 0, the timer never fired");
    } else if (row.ops_at_stonewall > row.rounds ||
               !(row.t_start <= row.t_stonewall && row.t_stonewall <= row.t_local_end)) {
      fail(path,
           fmt::format("{}: expected rounds_at_stonewall <= rounds and t_start <= t_stonewall <= "
                       "t_local_end, found {} of {} rounds at {} (t_start {}, t_local_end {})",
                       at, row.ops_at_stonewall, row.rounds, row.t_stonewall, row.t_start, row.t_local_end));
    }
  }
}

// One iteration's steady group: all three phases, the agreed rounds (at most --steady's; exactly that
// without a stonewall, unless a signal stopped this iteration) and each phase's rows, histograms, counts and
// summary.
}  // namespace

std::vector<SteadyIteration> steadyIterations(const StoredRun& run) {
  std::vector<SteadyIteration> out;
  for (const StoredPhase& phase : run.phases) {
    if (!phaseInfo(phase.phase).steady()) continue;
    const std::string group = phase.group.substr(0, phase.group.rfind('/'));
    if (out.empty() || out.back().group != group) out.push_back({group, phase.iteration, {}});
    out.back().phases.push_back(&phase);
  }
  return out;
}

void checkSteadyIteration(hid_t file, const SteadyIteration& it, const Config& config,
                          const std::vector<std::uint32_t>& node_of_rank, bool stopped, bool cut) {
  if (it.iteration >= config.iterations) {
    fail(it.group, fmt::format("iteration: expected less than config iterations = {}, found {}",
                               config.iterations, it.iteration));
  }
  const auto has = [&](Phase phase) {
    return std::any_of(it.phases.begin(), it.phases.end(),
                       [&](const StoredPhase* p) { return p->phase == phase; });
  };
  // The group's own attribute (the reader gives it to the mix as its items).
  const h5::Handle group = h5::openGroup(file, it.group.substr(it.group.starts_with('/') ? 1 : 0));
  const auto rounds = h5::readAttribute<std::uint64_t>(group.get(), "rounds");
  // Killed before the mix was written: its rounds are not known yet.
  const bool before_mix = cut && !has(Phase::kSteadyMix);
  if (before_mix) {
    expectEqual<std::uint64_t>(it.group, "rounds", 0, rounds, "0 until the mix is written");
  } else if (config.stonewall_s == 0.0 && !stopped && !cut) {
    expectEqual(it.group, "rounds", config.steady_rounds, rounds, "config steady_rounds, no stonewall");
  } else if (rounds > config.steady_rounds) {
    fail(it.group, fmt::format("rounds: expected at most config steady_rounds = {} (a stonewall or a signal "
                               "only stops early), found {}",
                               config.steady_rounds, rounds));
  }
  // The phases in order from the precreate; a killed job's last iteration may stop after any of them.
  for (std::size_t i = 0; i < kSteadyPhaseCount; ++i) {
    const auto phase = kSteadyPhases[i];
    if (cut && i == it.phases.size() && i > 0) break;
    if (i >= it.phases.size() || it.phases[i]->phase != phase) {
      fail(fmt::format("{}/{}", it.group, phaseName(phase)),
           cut ? "missing (a steady group's phases are written in order, from the precreate)"
               : "missing (every steady group has precreate, mix and cleanup)");
    }
  }
  std::uint64_t precreated = 0;
  if (!it.phases.empty() && it.phases.front()->phase == Phase::kSteadyPrecreate) {
    for (const RankPhaseRecord& row : it.phases.front()->ranks)
      precreated += row.kinds[opKindIndex(OpKind::kCreate)].ok;
  }
  if (stopped && precreated > config.items * node_of_rank.size()) {
    fail(it.group, fmt::format("precreate: expected at most config items x ranks = {} creates, found {}",
                               config.items * node_of_rank.size(), precreated));
  }
  for (const StoredPhase* stored : it.phases) {
    const StoredPhase& phase = *stored;
    checkSteadyRows(file, phase, node_of_rank, rounds);
    checkSteadyLatency(phase);
    checkSteadyCounts(phase, config, rounds, precreated, stopped);
    checkSteadySummary(phase);
    checkErrors(phase);
    // Version 10: what the phase measured over time, checked as the selected phases' are.
    const std::vector<RankSpan> spans = rankSpans(phase.ranks);
    if (phase.has_series) checkSeries(phase.group, phase.series, spans, "the *_ok columns of ranks");
    checkFailover(phase.group, phase, spans);
  }
}

}  // namespace mdbench::validation
