// Imported results (schema version 4) in a results file: the reader's part (the layout of an import group is
// in results_layout.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "h5.hpp"
#include "mdbench/results/results_file.hpp"

namespace mdbench {

namespace results {

// Optional tables of a /metadata-imports/import-NNNN group (added to version 6), written only when a row has
// such numbers; `row` is the index of the row of `results` they belong to.
inline constexpr const char* kRankStatisticsTable = "rank_statistics";  // mdtest --showRankStatistics
inline constexpr const char* kLatencyTable = "latency";                 // md-workbench's latencies

struct RankStatisticsFileRow {
  std::uint32_t row = 0;
  double per_rank_ops_per_s_max = 0.0;
  double per_rank_ops_per_s_min = 0.0;
  double per_rank_ops_per_s_mean = 0.0;
};

struct LatencyFileRow {
  std::uint32_t row = 0;
  double p50_ns = 0.0;
  double p90_ns = 0.0;
  double p99_ns = 0.0;
  double max_ns = 0.0;
};

inline constexpr std::array<h5::Field, 4> kRankStatisticsFields = {{
    {"row", h5::Type::kUint32, offsetof(RankStatisticsFileRow, row)},
    {"per_rank_ops_per_s_max", h5::Type::kFloat64, offsetof(RankStatisticsFileRow, per_rank_ops_per_s_max)},
    {"per_rank_ops_per_s_min", h5::Type::kFloat64, offsetof(RankStatisticsFileRow, per_rank_ops_per_s_min)},
    {"per_rank_ops_per_s_mean", h5::Type::kFloat64, offsetof(RankStatisticsFileRow, per_rank_ops_per_s_mean)},
}};

inline constexpr std::array<h5::Field, 5> kLatencyFields = {{
    {"row", h5::Type::kUint32, offsetof(LatencyFileRow, row)},
    {"p50_ns", h5::Type::kFloat64, offsetof(LatencyFileRow, p50_ns)},
    {"p90_ns", h5::Type::kFloat64, offsetof(LatencyFileRow, p90_ns)},
    {"p99_ns", h5::Type::kFloat64, offsetof(LatencyFileRow, p99_ns)},
    {"max_ns", h5::Type::kFloat64, offsetof(LatencyFileRow, max_ns)},
}};

}  // namespace results

std::string importGroupName(std::uint32_t index);  // "import-0000", ...
// Reads /datapath and /metadata-imports, when present, into out. Throws h5::Error.
void readImports(hid_t file, StoredResults& out);

}  // namespace mdbench
