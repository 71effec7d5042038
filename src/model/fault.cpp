// Failover measurement: fault.hpp.
#include "mdbench/model/fault.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "mdbench/model/metrics.hpp"
#include "mdbench/model/result.hpp"

namespace mdbench {

void GapRecorder::begin(std::int64_t t_start_ns, std::int64_t epoch_ns) {
  epoch_ns_ = epoch_ns;
  last_ns_ = t_start_ns;
  threshold_ns_ = kFirstThresholdNs;
  gaps_.clear();
}

void GapRecorder::keep(std::int64_t from_ns, std::int64_t to_ns) {
  if (gaps_.size() == kMaxGaps) {
    threshold_ns_ *= 2;
    const double shortest = static_cast<double>(threshold_ns_) * 1e-9;
    std::erase_if(gaps_, [shortest](const Gap& g) { return g.to - g.from <= shortest; });
    if (to_ns - from_ns <= threshold_ns_) return;
  }
  gaps_.push_back(Gap{seconds(from_ns), seconds(to_ns)});
}

void GapRecorder::finish() {
  // The gap after the last completion stays open: the rank completes nothing more in this phase.
  if (gaps_.size() == kMaxGaps) keep(last_ns_, last_ns_ + 2 * threshold_ns_ + 1);  // makes room
  gaps_.push_back(Gap{seconds(last_ns_), std::numeric_limits<double>::infinity()});
}

PhaseStall commonStall(const std::vector<std::vector<Gap>>& per_rank, double t_start, double t_end,
                       double resolution_s) {
  PhaseStall stall;
  stall.measured = !per_rank.empty();
  stall.resolution_s = resolution_s;
  if (per_rank.empty() || !(t_end > t_start)) return stall;
  // A sweep over every gap's ends: where all ranks are inside a gap at once, no rank completes anything.
  std::vector<std::pair<double, int>> events;  // (time, +1 gap opens / -1 gap closes); closes sort first
  for (const std::vector<Gap>& gaps : per_rank) {
    for (const Gap& g : gaps) {
      const double from = std::max(g.from, t_start);
      const double to = std::min(g.to, t_end);
      if (to <= from) continue;
      events.emplace_back(from, +1);
      events.emplace_back(to, -1);
    }
  }
  std::sort(events.begin(), events.end());
  const int all = static_cast<int>(per_rank.size());
  int inside = 0;
  double opened = 0.0;
  for (const auto& [time, step] : events) {
    if (step < 0 && inside == all && time - opened > stall.stall_s) {
      stall.stall_s = time - opened;
      stall.t_start = opened;
      stall.t_end = time;
    }
    inside += step;
    if (step > 0 && inside == all) opened = time;
  }
  return stall;
}

namespace {

// Successful ops of every rank in [from, to) seconds after the phase's start, an interval partly inside
// counted in proportion.
double opsIn(const OpsSeries& series, double from, double to) {
  double ops = 0.0;
  for (std::uint32_t k = 0; k < series.intervals; ++k) {
    const double a = k * series.interval_s;
    const double b = a + series.interval_s;
    const double overlap = std::min(b, to) - std::max(a, from);
    if (overlap > 0) ops += static_cast<double>(series.total[k]) * overlap / series.interval_s;
  }
  return ops;
}

}  // namespace

double recoverySeconds(const OpsSeries& series, double fault_s, double phase_s) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (series.intervals == 0 || series.interval_s <= 0 || series.total.size() != series.intervals) return kNaN;
  std::vector<double> before;
  for (double end = fault_s; end - 1.0 >= -1e-9; end -= 1.0) before.push_back(opsIn(series, end - 1.0, end));
  if (before.empty()) return kNaN;
  std::sort(before.begin(), before.end());
  const std::size_t n = before.size();
  const double median = n % 2 == 1 ? before[n / 2] : (before[n / 2 - 1] + before[n / 2]) / 2.0;
  // The rate comes back once it has fallen: a window before the dip (a command that takes a moment to act)
  // is no recovery. A rate that never falls below half is recovered at once (0).
  bool fell = false;
  for (double k = 0.0; fault_s + k + 1.0 <= phase_s + 1e-9; k += 1.0) {
    const bool up = opsIn(series, fault_s + k, fault_s + k + 1.0) >= median / 2.0;
    if (up && fell) return k;
    fell = fell || !up;
  }
  return fell ? FaultRecord::kNotRecovered : 0.0;
}

std::string recoveryText(double recovery_s) {
  if (std::isnan(recovery_s)) return "not measured";
  if (recovery_s < 0) return "not recovered within the phase";
  return fmt::format("{:g} s", recovery_s);
}

StallSpan stallIntoPhase(const PhaseStall& stall, double phase_t_start) {
  return {stall.t_start - phase_t_start, stall.t_end - phase_t_start};
}

bool hasStall(const PhaseStall& stall) { return stall.measured && stall.stall_s > stall.resolution_s; }

std::string stallText(const PhaseStall& stall, double phase_t_start) {
  if (!stall.measured) return "not measured";
  if (!hasStall(stall)) return fmt::format("under {:g} s", stall.resolution_s);
  const StallSpan span = stallIntoPhase(stall, phase_t_start);
  return fmt::format("{:.3f} s ({:.3f}-{:.3f} s into the phase)", stall.stall_s, span.from, span.to);
}

std::string faultOutcomeText(const FaultRecord& fault) {
  if (!fault.injected && fault.problem.empty()) return "the fault was not injected (the phase ended first)";
  return fmt::format("started at {:.3f} s, {}", fault.t_start,
                     fault.problem.empty() ? "exit status 0" : fault.problem);
}

std::vector<std::string> failoverLines(const PhaseTimeline& timeline, double t_start, std::uint64_t failed,
                                       std::uint64_t latency_max_ns) {
  std::vector<std::string> lines;
  if (timeline.faults.empty()) return lines;
  const std::string stall = stallText(timeline.stall, t_start);
  const std::string latency_max =
      fmt::format("latency max {:.3f} s", static_cast<double>(latency_max_ns) * 1e-9);
  lines.push_back(hasStall(timeline.stall)
                      ? fmt::format("stall {}, {} failed ops, {}", stall, failed, latency_max)
                      : fmt::format("stall {} ({} failed ops, {})", stall, failed, latency_max));
  for (std::size_t i = 0; i < timeline.faults.size(); ++i) {
    const FaultRecord& f = timeline.faults[i];
    const std::string outcome = faultOutcomeText(f);
    lines.push_back(f.injected || !f.problem.empty()
                        ? fmt::format("fault {} at {:g} s: {}, recovery {}: {}", i + 1, f.at_s, outcome,
                                      recoveryText(f.recovery_s), f.command)
                        : fmt::format("fault {} at {:g} s: {}: {}", i + 1, f.at_s, outcome, f.command));
  }
  return lines;
}

std::vector<std::string> failoverLines(const PhaseResult& result) {
  if (result.faults.empty()) return {};
  return failoverLines(result, result.ranks.empty() ? 0.0 : result.ranks.front().t_start,
                       aggregate(result.ranks).failed, latencySummary(result.latency).max_ns);
}

}  // namespace mdbench
