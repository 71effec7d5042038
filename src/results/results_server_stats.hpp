// --server-stats in a results file (schema version 7): <phase>/server_stats/source-NN per source, in the
// order given, each with its description, status, sampling times and a `counters` table (name, before,
// after, delta). Shared by the writer, the reader and the validator.
#pragma once

#include <hdf5.h>

#include <string>
#include <vector>

#include "mdbench/model/server_stats.hpp"

namespace mdbench::results {

inline constexpr const char* kServerStatsGroup = "server_stats";
inline constexpr std::uint32_t kServerStatsSchemaVersion = 7;

// "source-00", "source-01", ...
std::string serverSourceGroupName(std::size_t index);

// Nothing when `sources` is empty (a run without --server-stats).
void writeServerStats(hid_t phase_group, const std::vector<ServerStatsDelta>& sources);
// Empty when the phase has no server_stats group. Throws h5::Error on a damaged one (a status or kind it
// does not know, a missing attribute or table).
std::vector<ServerStatsDelta> readServerStats(hid_t phase_group);

// What is wrong with one source's numbers: a delta other than after - before (0 when the counter went
// backwards, which only a went-backwards status may hold), counters in a failed source, sampling times out
// of order. "" when consistent.
std::string serverStatsProblem(const ServerStatsDelta& source);

}  // namespace mdbench::results
