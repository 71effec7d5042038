// `mdbench export`: results files as JSON or CSV for people who do not use HDF5.
#pragma once

#include <ostream>

#include "mdbench/results/results_file.hpp"

namespace mdbench {

// The whole file as one JSON document (nlohmann::json): schema, then every run with its attributes,
// config, per-phase aggregates (with the first/last-done rates, interval_s and ops_per_interval_total from
// version 5 on), per-rank rows, latency histogram and errors, and summary; a `steady` array in --steady runs.
void exportJson(const StoredResults& results, std::ostream& out);

// One header line, then one row per run, iteration, phase and rank (RFC 4180 quoting): run, iteration,
// phase, order, rank, node, host, planned, ok, failed, bytes, t_start, t_local_end, t_global_end, rate,
// and the phase aggregate's ops_per_s, time_s, ...; the columns of later versions last (the first/last-done
// rates: empty for a file before version 5). Steady runs (--steady) have a table of their own, one row per
// run, iteration, phase and op (results-schema/README.md): alone in a file of steady runs only, else after
// the phase table and an empty line. Imported results (mdbench import) have a table of their own, last
// (after an empty line when run rows came first; alone in a file of imports only): one row per imported row
// with its import group, tool, rank count, sweep step, rates, per-rank statistics, latency percentiles,
// source and command line, empty where the tool printed no such figure.
void exportCsv(const StoredResults& results, std::ostream& out);

}  // namespace mdbench
