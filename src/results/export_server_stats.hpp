// --server-stats in `mdbench export` (export.cpp): a phase's sources as JSON, and the CSV table of every
// counter kept.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "mdbench/model/server_stats.hpp"
#include "mdbench/results/results_file.hpp"

namespace mdbench::results {

// [{source, kind, description, status, problem, t_before, t_after, counters: [{name, before, after, delta}]}]
nlohmann::ordered_json serverStatsJson(const std::vector<ServerStatsDelta>& sources);

// Whether any phase of any run holds server counters.
bool hasServerStats(const StoredResults& results);
// One header line, then one row per run, iteration, phase, source and counter: run, iteration, phase,
// source, kind, status, counter, before, after, delta (a failed source: one row with the counter empty).
void serverStatsCsv(const StoredResults& results, std::ostream& out);

}  // namespace mdbench::results
