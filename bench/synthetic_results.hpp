// Synthetic but realistic measurement data for the results-writer benchmark: what a run of any number of
// ranks would hand to the sinks, built without running anything. Deterministic: the same arguments give
// the same records on every rank and in every run.
#pragma once

#include <cstdint>
#include <string>

#include "mdbench/config/config.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/result.hpp"
#include "mdbench/model/stats.hpp"

namespace mdbench::bench {

// Whether some ranks fail a few operations (file-stat only), so that the `errors` dataset is written.
enum class Failures : std::uint8_t { kNone, kFewRanks };

// The default workload (every phase selected, both kinds: the nine phases), 4 KiB written and read per
// file, `iterations` iterations.
Config syntheticConfig(std::uint32_t iterations);

// A run of `ranks` ranks with 32 ranks per node on hosts "node0000", "node0001", ...
RunInfo syntheticRunInfo(std::uint32_t ranks, const std::string& target);

// The epoch-relative time at which the phase at position `slot` of the run starts.
double syntheticPhaseStart(std::uint32_t slot);

// One rank's record of one phase: rates varied from rank to rank (a few stragglers), start and end skewed
// as barriers leave them, ok + failed = planned. Pure function of its arguments.
RankPhaseRecord syntheticRecord(const Plan& plan, Phase phase, std::uint32_t rank, double t0,
                                Failures failures);

// Adds `ops` latencies of a plausible shape for the phase to the histogram, in O(buckets) time.
void addSyntheticLatencies(LatencyHistogram& histogram, Phase phase, std::uint64_t ops);

// The whole phase as rank 0 has it after the gather and the reduce, with `intervals` intervals of ops per
// interval per rank (the series; 1024 is the most a rank records).
PhaseResult syntheticPhase(const Plan& plan, std::uint32_t iteration, Phase phase, std::uint32_t slot,
                           Failures failures, std::uint32_t intervals = 1);

}  // namespace mdbench::bench
