// `mdbench validate`: checks results files against results-schema/schema.json and recomputes every
// derived number from the per-rank data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mdbench/results/results_file.hpp"

namespace mdbench {

struct ValidationResult {
  bool ok = true;
  std::uint32_t schema_version = 0;  // the file's, once its structure has been read
  std::string first_problem;         // "<file>: <object path>: <what is wrong>" when !ok
  std::vector<std::string> notes;    // objects present but not in the schema, runs still "running", ...
};

// Structure (groups, datasets, attributes, types, shapes, allowed values) against the compiled-in schema,
// then consistency: per-rank ok + failed = planned; sums of per-rank ops and bytes = aggregate; time_s =
// max(t_global_end - t_start); ops_per_s = ops_ok / time_s; rank rates and their min/max/mean/balance;
// histogram counts sum = ops_ok; percentiles = what the histogram gives; bucket bounds; summary = the
// statistics of the iterations' ops_per_s; node_of_rank consistent with hosts and nodes; for --steady runs
// the steady groups (agreed rounds, exact op counts, histograms = ok, summarizeSteadyPhase's numbers).
ValidationResult validateResultsFile(const std::string& path);

// What every tool that reads results (export, report, check) reads: the file as validateResultsFile checks
// it, in one pass. Throws ResultsFileError with validateResultsFile's first problem when it rejects the
// file, so that no tool reports numbers `mdbench validate` calls wrong.
StoredResults readValidResultsFile(const std::string& path);

// The compiled-in machine-readable schema (results-schema/schema.json).
const std::string& schemaJson();

}  // namespace mdbench
