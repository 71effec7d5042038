// Whether a phase's rate measures the file system: a phase too short to time (a tree phase of one mkdir
// per rank, a phase of a few milliseconds) measures the cost of one call and the barriers around it, and
// every place that shows a rate (console, sweep table, export, check, report, timelines) marks it so.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "mdbench/model/metrics.hpp"
#include "mdbench/model/run_result.hpp"

namespace mdbench {

// Below these a rate is mostly the cost of one call and the barriers around it.
inline constexpr double kMinOpsPerRankForRate = 10.0;
inline constexpr double kMinSecondsForRate = 0.01;

// What the rule judges: a phase's successful operations over all ranks, per rank with work, and the time
// its operations took: the slowest rank's time to its last op (the barriers around the phase are not the
// file system's: a first phase's closing barrier alone can take 50 ms while its 13 mkdirs take 70 us);
// imports, which know no rank's time, give their phase time. Means over iterations where several are
// judged together. 0: not known (an import without a time table), and then that half of the rule does
// not apply.
struct PhaseSize {
  double ops = 0.0;
  double ops_per_rank = 0.0;
  double time_s = 0.0;
};

// The slowest rank's t_local_end - t_start over the ranks with planned ops (metrics' last-done time); 0
// without any.
double slowestRankTime(std::span<const RankPhaseRecord> ranks);
// One phase of one iteration: ok over all ranks, ok / active ranks (all `ranks` when none had planned
// work, as for a phase that did nothing), slowest_rank_s (aggregate.time_s when that is 0: not known).
PhaseSize phaseSize(const PhaseAggregate& aggregate, double slowest_rank_s, std::uint32_t ranks);
// Several iterations of a phase, judged together by their mean size (all zero for none).
class PhaseSizeMean {
 public:
  void add(const PhaseSize& one);
  PhaseSize mean() const;

 private:
  PhaseSize sum_;
  std::uint32_t count_ = 0;
};
// One measured phase; a phase of a run over its iterations (what a summary row of it shows).
PhaseSize phaseSize(const PhaseResult& result);
PhaseSize meanPhaseSize(const RunResult& run, Phase phase);

// True when the op count per rank or the time is known and below the thresholds above.
bool tooShortToTime(const PhaseSize& size);

// How every output names a phase too short to time: "too short: 26 ops in 812 us", with the ops per rank
// when they differ ("too short: 26 ops (13 per rank) in 12.3 ms"); a count or time not known is left out.
std::string tooShortText(const PhaseSize& size);
// The same without the leading "too short: ": "26 ops in 812 us".
std::string tooShortCounts(const PhaseSize& size);
// The thresholds, in words: "fewer than 10 ops per rank or under 10 ms".
std::string tooShortThresholdText();

// Three significant digits in the largest unit that keeps the number at least 1: 850 us, 12.3 ms, 1.5 s.
std::string durationText(double seconds);

}  // namespace mdbench
