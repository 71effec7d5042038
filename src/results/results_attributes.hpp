// The computed attributes of the results file's phase, summary and steady groups (results-schema/README.md)
// as tables, a row per attribute: its name, the member that holds it, and how `mdbench validate` recomputes
// it. The writer, the reader, the export and validate all go through these rows, so that an attribute's
// name, its type and its order in the group are written once. Private to src/results/.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "h5.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/steady.hpp"

namespace mdbench::results {

// An attribute held by a member of S of one of the types T (those S has: an alternative that no row holds
// would only be code for the compiler to puzzle over).
template <class S, class... T>
struct Attribute {
  const char* name;
  std::variant<T S::*...> member;
  // Where validate's expected value comes from; "{}" stands for the op type of a steady op's attribute.
  std::string_view how;
};

// A phase group's totals, stored before its rate_formula.
inline constexpr std::array<Attribute<PhaseAggregate, std::uint64_t, double>, 5> kAggregateTotals = {{
    {"ops_ok", &PhaseAggregate::ok, "sum of ranks.ok"},
    {"ops_failed", &PhaseAggregate::failed, "sum of ranks.failed"},
    {"bytes", &PhaseAggregate::bytes, "sum of ranks.bytes"},
    {"time_s", &PhaseAggregate::time_s, "max of ranks.t_global_end - t_start"},
    {"ops_per_s", &PhaseAggregate::ops_per_s, "ops_ok / time_s"},
}};

// After the rate_formula: how the ranks' rates spread, and the stonewall.
inline constexpr std::array<Attribute<PhaseAggregate, std::uint32_t, double, bool, std::uint64_t>, 9>
    kAggregateSpread = {{
        {"active_ranks", &PhaseAggregate::active_ranks, "ranks with planned > 0"},
        {"rank_rate_min", &PhaseAggregate::rank_rate_min, "min of active ranks' rate"},
        {"rank_rate_max", &PhaseAggregate::rank_rate_max, "max of active ranks' rate"},
        {"rank_rate_mean", &PhaseAggregate::rank_rate_mean, "mean of active ranks' rate"},
        {"balance", &PhaseAggregate::balance, "rank_rate_min / rank_rate_max"},
        {"stonewalled", &PhaseAggregate::stonewalled, "some rank has t_stonewall > 0"},
        {"ops_at_stonewall", &PhaseAggregate::ops_at_stonewall,
         "sum of ranks.ops_at_stonewall when stonewalled, else 0"},
        {"stonewall_time_s", &PhaseAggregate::stonewall_time_s,
         "max of t_stonewall - t_start over ranks with t_stonewall > 0"},
        {"ops_per_s_at_stonewall", &PhaseAggregate::ops_per_s_at_stonewall,
         "ops_at_stonewall / stonewall_time_s"},
    }};

inline constexpr std::array<Attribute<LatencySummary, std::uint64_t>, 5> kLatencyAttributes = {{
    {"latency_p50_ns", &LatencySummary::p50_ns, "from the latency histogram"},
    {"latency_p90_ns", &LatencySummary::p90_ns, "from the latency histogram"},
    {"latency_p99_ns", &LatencySummary::p99_ns, "from the latency histogram"},
    {"latency_p999_ns", &LatencySummary::p999_ns, "from the latency histogram"},
    {"latency_max_ns", &LatencySummary::max_ns, "from the latency histogram"},
}};

// Version 5: the first/last-done rates (doneRates, metrics.hpp).
inline constexpr std::array<Attribute<DoneRates, double, std::uint64_t>, 5> kDoneRateAttributes = {{
    {"first_done_time_s", &DoneRates::first_done_time_s, "min over active ranks of t_local_end - t_start"},
    {"first_done_ops", &DoneRates::first_done_ops,
     "ops every rank had done by first_done_time_s, from ops_per_interval"},
    {"first_done_ops_per_s", &DoneRates::first_done_ops_per_s, "first_done_ops / first_done_time_s"},
    {"last_done_time_s", &DoneRates::last_done_time_s, "max over active ranks of t_local_end - t_start"},
    {"last_done_ops_per_s", &DoneRates::last_done_ops_per_s, "ops_ok / last_done_time_s"},
}};

// A summary/<phase> group: its phase's rates over the iterations.
inline constexpr std::array<Attribute<IterationSummary, std::uint32_t, double>, 5>
    kIterationSummaryAttributes = {{
        {"iterations", &IterationSummary::iterations, {}},
        {"ops_per_s_max", &IterationSummary::max, {}},
        {"ops_per_s_min", &IterationSummary::min, {}},
        {"ops_per_s_mean", &IterationSummary::mean, {}},
        {"ops_per_s_stddev", &IterationSummary::stddev, {}},
    }};

// --steady (schema version 5): what every steady phase stores of summarizeSteadyPhase: its aggregate under
// the steady group's names, and what only a steady phase has, in the order export gives them.
inline constexpr std::array<Attribute<PhaseAggregate, double, std::uint64_t>, 5> kSteadyTotalAttributes = {{
    {"time_s", &PhaseAggregate::time_s, "max of t_global_end - t_start"},
    {"ok", &PhaseAggregate::ok, "sum of the rows' ok over all op types"},
    {"failed", &PhaseAggregate::failed, "sum of the rows' failed over all op types"},
    {"ok_per_s", &PhaseAggregate::ops_per_s, "ok / time_s"},
    {"bytes", &PhaseAggregate::bytes, "sum of ranks.bytes"},
}};

inline constexpr std::array<Attribute<SteadyPhaseSummary, double>, 5> kSteadySummaryAttributes = {{
    {"bytes_per_s", &SteadyPhaseSummary::bytes_per_s, "bytes / time_s"},
    {"rank_time_min_s", &SteadyPhaseSummary::rank_time_min_s, "min of t_local_end - t_start"},
    {"rank_time_max_s", &SteadyPhaseSummary::rank_time_max_s, "max of t_local_end - t_start"},
    {"rank_time_mean_s", &SteadyPhaseSummary::rank_time_mean_s, "mean of t_local_end - t_start"},
    {"time_balance", &SteadyPhaseSummary::time_balance, "rank_time_min_s / rank_time_max_s"},
}};

inline constexpr std::array<Attribute<PhaseAggregate, double>, 3> kSteadyRateAttributes = {{
    {"rank_rate_min", &PhaseAggregate::rank_rate_min, "min of the ranks' ok per second"},
    {"rank_rate_max", &PhaseAggregate::rank_rate_max, "max of the ranks' ok per second"},
    {"rate_balance", &PhaseAggregate::balance, "rank_rate_min / rank_rate_max"},
}};

// Per op type of the phase, named <op>_<name> ("mkdir_ok"): its counts and rate, then its latencies.
inline constexpr std::array<Attribute<SteadyOpSummary, std::uint64_t, double>, 3> kSteadyOpAttributes = {{
    {"ok", &SteadyOpSummary::ok, "sum of ranks.{}_ok"},
    {"failed", &SteadyOpSummary::failed, "sum of ranks.{}_failed"},
    {"ops_per_s", &SteadyOpSummary::ops_per_s, "{}_ok / time_s"},
}};

inline constexpr std::array<Attribute<LatencySummary, std::uint64_t>, 4> kSteadyLatencyAttributes = {{
    {"p50_ns", &LatencySummary::p50_ns, "from latency_{}"},
    {"p90_ns", &LatencySummary::p90_ns, "from latency_{}"},
    {"p99_ns", &LatencySummary::p99_ns, "from latency_{}"},
    {"max_ns", &LatencySummary::max_ns, "from latency_{}"},
}};

// The mix only: its rounds, then its stonewall (the aggregate's, in rounds).
inline constexpr std::array<Attribute<SteadyPhaseSummary, std::uint64_t, double>, 3> kSteadyMixAttributes = {{
    {"rounds", &SteadyPhaseSummary::rounds, "max of ranks.rounds"},
    {"rounds_per_s", &SteadyPhaseSummary::rounds_per_s, "rounds / time_s"},
    {"objects_per_s", &SteadyPhaseSummary::objects_per_s, "read_ok / time_s"},
}};

inline constexpr std::array<Attribute<PhaseAggregate, bool, double, std::uint64_t>, 3>
    kSteadyStonewallAttributes = {{
        {"stonewalled", &PhaseAggregate::stonewalled, "some row has t_stonewall > 0"},
        {"stonewall_time_s", &PhaseAggregate::stonewall_time_s,
         "max of t_stonewall - t_start over the rows whose timer fired"},
        {"rounds_at_stonewall", &PhaseAggregate::ops_at_stonewall,
         "sum of ranks.rounds_at_stonewall when stonewalled, else 0"},
    }};

inline constexpr std::array<Attribute<SteadyPhaseSummary, double>, 1> kSteadyStonewallRate = {{
    {"rounds_per_s_at_stonewall", &SteadyPhaseSummary::rounds_per_s_at_stonewall,
     "rounds_at_stonewall / ranks / stonewall_time_s"},
}};

// Every table of a steady phase's summary, in order, with the part of each summary in `s` it holds:
// f(table, op, part...), op the op type of a per-op table ("" for the others). Only what the phase stores:
// the per-op tables of its own op types, the rounds and stonewall in the mix. The writer, the reader,
// validate and export go through this, so the parts are listed once.
template <class F, class... S>
void forSteadyTables(Phase phase, F&& f, S&... s) {
  f(kSteadyTotalAttributes, std::string_view{}, s.aggregate...);
  f(kSteadySummaryAttributes, std::string_view{}, s...);
  f(kSteadyRateAttributes, std::string_view{}, s.aggregate...);
  for (const OpKind op : opKindsOf(phase)) {
    const std::size_t i = opKindIndex(op);
    f(kSteadyOpAttributes, std::string_view(opKindName(op)), s.ops[i]...);
    f(kSteadyLatencyAttributes, std::string_view(opKindName(op)), s.ops[i].latency...);
  }
  if (phase == Phase::kSteadyMix) {
    f(kSteadyMixAttributes, std::string_view{}, s...);
    f(kSteadyStonewallAttributes, std::string_view{}, s.aggregate...);
    f(kSteadyStonewallRate, std::string_view{}, s...);
  }
}

// The attribute's name in the group: <op>_<name> for a steady op's, else the row's.
inline std::string attributeName(std::string_view op, std::string_view name) {
  return op.empty() ? std::string(name) : fmt::format("{}_{}", op, name);
}

// Calls f with the row's member of value (S or const S), as a reference of the member's own type.
template <class Row, class Value, class F>
void withMember(const Row& row, Value& value, F&& f) {
  std::visit([&](auto member) { f(value.*member); }, row.member);
}

// Flags are uint8 0/1 in the file.
inline std::uint8_t flag(bool value) { return value ? 1 : 0; }

inline bool readFlag(hid_t object, const std::string& name) {
  const auto value = h5::readAttribute<std::uint8_t>(object, name);
  if (value > 1) {
    throw h5::Error(
        fmt::format("{}: attribute '{}' is {}, expected 0 or 1", h5::pathOf(object), name, value));
  }
  return value == 1;
}

template <class Table, class S>
void writeAttributes(hid_t group, const Table& table, const S& value, std::string_view op = {}) {
  for (const auto& row : table) {
    withMember(row, value, [&](const auto& v) {
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(v)>, bool>) {
        h5::writeAttribute(group, attributeName(op, row.name), flag(v));
      } else {
        h5::writeAttribute(group, attributeName(op, row.name), v);
      }
    });
  }
}

template <class Table, class S>
void readAttributes(hid_t group, const Table& table, S& value, std::string_view op = {}) {
  for (const auto& row : table) {
    withMember(row, value, [&](auto& v) {
      using T = std::remove_cvref_t<decltype(v)>;
      if constexpr (std::is_same_v<T, bool>) {
        v = readFlag(group, attributeName(op, row.name));
      } else {
        v = h5::readAttribute<T>(group, attributeName(op, row.name));
      }
    });
  }
}

}  // namespace mdbench::results
