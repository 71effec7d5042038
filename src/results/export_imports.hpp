// `mdbench export` of imported results: the CSV table of every import row and the optional details
// (rank statistics, latency) of a metadata import row for the JSON export.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "mdbench/results/results_file.hpp"

namespace mdbench {

// The header and one row per imported row, data-path imports first (RFC 4180 quoting); nothing when the
// file holds no import. Columns a tool did not print are empty, never 0.
void exportImportsCsv(const StoredResults& results, std::ostream& out);

// "rank_statistics" and "latency" objects for the row, when it has them.
void addImportRowDetails(nlohmann::ordered_json& row, const MetadataImportRow& r);
inline void addImportRowDetails(nlohmann::ordered_json& /*row*/, const DataPathRow& /*r*/) {}

}  // namespace mdbench
