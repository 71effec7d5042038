// The checks of a phase that are the same for the selected phases and --steady's (validate.cpp,
// validate_steady.cpp): what it measured over time (model's PhaseTimeline: the series, the stall, the
// faults) and its first errors. Private to src/validate*.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/model/result.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/results/results_file.hpp"

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
// The `errors` rows: at most one per rank, each of a rank of the run that failed an op in the phase (in a
// steady phase, an op of the row's kind), with an error number; and one for every rank that failed.
void checkErrors(const StoredPhase& phase);

}  // namespace mdbench::validation
