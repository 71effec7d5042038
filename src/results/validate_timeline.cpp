// The checks of a phase that are the same for both workloads (validate_timeline.hpp).
#include "validate_timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "results_attributes.hpp"
#include "results_faults.hpp"
#include "results_layout.hpp"
#include "validate_checks.hpp"

namespace mdbench::validation {

void checkSeries(const std::string& group, const OpsSeries& s, const std::vector<RankSpan>& ranks,
                 std::string_view ok_name) {
  const std::string counts_path = fmt::format("{}/{}", group, results::kOpsPerInterval);
  const std::string totals_path = fmt::format("{}/{}", group, results::kOpsPerIntervalTotal);
  const std::size_t n = s.intervals;
  if (!std::isfinite(s.interval_s) || s.interval_s < 0.0 || (n > 0 && s.interval_s == 0.0)) {
    fail(counts_path, fmt::format("{}: expected a positive number of seconds, found {}",
                                  results::kIntervalAttribute, s.interval_s));
  }
  expectEqual<std::size_t>(totals_path, "length", n, s.total.size(),
                           "intervals: columns of ops_per_interval");
  // A rank's last interval holds its t_local_end, so an op counted in a later one would have completed after
  // the rank finished. Intervals start on the rank's clock in whole nanoseconds: 1 us of slack.
  constexpr double kClockSlack = 1e-6;
  std::vector<std::uint64_t> sums(n, 0);
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const RankSpan& row = ranks[r];
    std::uint64_t sum = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint32_t count = s.per_rank[r * n + k];
      if (count == 0) continue;
      sum += count;
      sums[k] += count;
      const double starts = static_cast<double>(k) * s.interval_s;
      if (starts > row.t_local_end - row.t_start + kClockSlack) {
        fail(counts_path,
             fmt::format("row {}: {} ops in interval {}, which starts {} s into the phase, after "
                         "the rank finished (t_local_end - t_start = {} s)",
                         r, count, k, starts, row.t_local_end - row.t_start));
      }
    }
    if (sum != row.ok) {
      fail(counts_path, fmt::format("row {}: sum of counts: expected {} ({} of rank {}), found {}", r, row.ok,
                                    ok_name, r, sum));
    }
  }
  for (std::size_t k = 0; k < n; ++k) {
    expectEqual(totals_path, fmt::format("element {}", k), sums[k], s.total[k],
                "sum over ranks of that ops_per_interval column");
  }
}

void checkFailover(const std::string& group, const PhaseTimeline& timeline,
                   const std::vector<RankSpan>& ranks) {
  if (!timeline.stall.measured || ranks.empty()) return;
  double t_start = ranks.front().t_start, t_end = ranks.front().t_local_end;
  for (const RankSpan& r : ranks) {
    t_start = std::min(t_start, r.t_start);
    t_end = std::max(t_end, r.t_local_end);
  }
  if (const std::string problem = results::failoverProblem(timeline.stall, timeline.faults, t_start, t_end);
      !problem.empty()) {
    fail(group, problem);
  }
}

void checkErrors(const StoredPhase& phase) {
  const std::string path = phase.group + "/errors";
  const bool kinds = phaseInfo(phase.phase).steady();
  std::vector<bool> has_row(phase.ranks.size(), false);
  for (std::size_t i = 0; i < phase.errors.size(); ++i) {
    const StoredError& e = phase.errors[i];
    if (e.rank >= phase.ranks.size()) {
      fail(path, fmt::format("row {}: rank {} is not a rank of the run", i, e.rank));
    }
    if (has_row[e.rank]) fail(path, fmt::format("row {}: a second row for rank {}", i, e.rank));
    has_row[e.rank] = true;
    const RankPhaseRecord& row = phase.ranks[e.rank];
    if (row.failed == 0) {
      fail(path, fmt::format("row {}: rank {} has no failed operation in this phase", i, e.rank));
    }
    if (kinds && row.kinds[opKindIndex(e.kind)].failed == 0) {
      fail(path, fmt::format("row {}: rank {}'s first error is a {}, but ranks.{}_failed is 0", i, e.rank,
                             opKindName(e.kind), opKindName(e.kind)));
    }
    if (e.err <= 0) fail(path, fmt::format("row {}: errno: expected an error number, found {}", i, e.err));
    if (e.errno_name.empty()) fail(path, fmt::format("row {}: errno_name is empty", i));
  }
  for (std::size_t r = 0; r < phase.ranks.size(); ++r) {
    if (phase.ranks[r].failed > 0 && !has_row[r]) {
      fail(path, fmt::format("no row for rank {}, which failed {} operation(s)", r, phase.ranks[r].failed));
    }
  }
}

}  // namespace mdbench::validation
