// The checks of what a phase measured over time (model's PhaseTimeline: the series, the stall, the faults),
// the same for the selected phases and --steady's (validate.cpp, validate_steady.cpp). Private to
// src/validate*.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/model/result.hpp"
#include "mdbench/model/steady.hpp"

namespace mdbench::validation {

// `ranks`: model's RankSpan of either workload's rank records (rankSpans).
// The ops per interval of the phase group `group`: each rank's counts add up to its ok, the totals are the
// sums over ranks, and no rank counts an op in an interval that starts after it finished. `ok_name` says
// where a rank's ok was read in the messages: "ranks.ok".
void checkSeries(const std::string& group, const OpsSeries& series, const std::vector<RankSpan>& ranks,
                 std::string_view ok_name);
// The stall within the phase (its earliest t_start to its latest t_local_end), each fault's recovery after
// it (results_faults.hpp's failoverProblem).
void checkFailover(const std::string& group, const PhaseTimeline& timeline,
                   const std::vector<RankSpan>& ranks);

}  // namespace mdbench::validation
