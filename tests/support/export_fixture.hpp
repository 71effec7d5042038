// Shared by the export tests: hand-made results with values that catch lossy printing, the exports as
// text, exact comparisons of JSON values, and a strict CSV reader.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mdbench/model/metrics.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/stats.hpp"
#include "mdbench/results/export.hpp"
#include "mdbench/results/results_file.hpp"

namespace mdbench::export_test {

using nlohmann::json;

inline constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
inline constexpr std::uint64_t kNearMax = kMax - 58;  // 18446744073709551557, the largest 64-bit prime

// Values that catch lossy printing: shortest round-trip is needed for each of them.
inline constexpr double kDoubles[] = {
    0.1,  1e-17, 123456789.123456789, 1.0 / 3.0,          5e-324,        1.7976931348623157e308,
    -0.0, 2.0,   0.30000000000000004, 9007199254740993.0, 6.02214076e23, 0.0};
inline constexpr std::uint64_t kIntegers[] = {0,           1, kMax, kNearMax, (std::uint64_t{1} << 53) + 1,
                                              4294967295u, 42};

// Hands out the special values in turn so that every field of the fixture gets a different one.
class Values {
 public:
  double real() { return kDoubles[d_++ % std::size(kDoubles)]; }
  std::uint64_t whole() { return kIntegers[u_++ % std::size(kIntegers)]; }

 private:
  std::size_t d_ = 0;
  std::size_t u_ = 0;
};

inline std::vector<std::uint64_t> schemaBounds(bool high) {
  std::vector<std::uint64_t> bounds(LatencyHistogram::kBuckets);
  for (std::size_t b = 0; b < bounds.size(); ++b) {
    bounds[b] = high ? LatencyHistogram::bucketHigh(b) : LatencyHistogram::bucketLow(b);
  }
  return bounds;
}

inline StoredPhase makePhase(Values& v, const std::string& run_group, std::uint32_t iteration, Phase phase,
                             std::uint32_t order, const std::vector<std::uint32_t>& node_of_rank) {
  StoredPhase p;
  p.group =
      run_group + "/iterations/iter-000" + std::to_string(iteration) + "/" + std::string(phaseName(phase));
  p.phase = phase;
  p.iteration = iteration;
  p.order = order;
  p.items = v.whole();
  p.aggregate = {v.whole(), v.whole(),      v.whole(),
                 v.real(),  v.real(),       static_cast<std::uint32_t>(node_of_rank.size()),
                 v.real(),  v.real(),       v.real(),
                 v.real(),  order % 2 == 0, v.whole(),
                 v.real(),  v.real()};
  p.rate_formula = "ops_ok / max(t_global_end - t_start)";
  p.latency_summary = {v.whole(), v.whole(), v.whole(), v.whole(), v.whole()};
  for (std::uint32_t r = 0; r < node_of_rank.size(); ++r) {
    RankPhaseRecord rank;  // rank r, on node_of_rank[r]
    rank.planned = v.whole();
    rank.ok = v.whole();
    rank.failed = v.whole();
    rank.bytes = v.whole();
    rank.t_start = v.real();
    rank.t_local_end = v.real();
    rank.t_global_end = v.real();
    v.real();  // the stored rate's value before it became rankRate's: the values after it stay as they were
    rank.ops_at_stonewall = v.whole();
    rank.t_stonewall = v.real();
    p.ranks.push_back(rank);
  }
  const auto latency = p.latency.counts();
  latency[0] = 1;
  latency[17] = 7 + iteration;
  latency[300] = kNearMax;
  latency[LatencyHistogram::kBuckets - 1] = 2;
  // Version 5: the first/last-done rates and a series (the per-rank counts are not exported).
  p.has_series = true;
  p.done = {v.real(), v.whole(), v.real(), v.real(), v.real()};
  p.series.interval_s = v.real();
  p.series.intervals = 3;
  p.series.per_rank.assign(node_of_rank.size() * 3, 7);
  p.series.total = {v.whole(), v.whole(), v.whole()};
  return p;
}

// A phase as a file from before schema version 5 holds it: no series, no first/last-done rates.
inline StoredPhase withoutSeries(StoredPhase p) {
  p.has_series = false;
  p.series = {};
  p.done = {};
  return p;
}

// Two runs: a finished one (3 ranks on 2 nodes, 2 iterations, one failed operation, awkward host and
// job names) and one killed while running (1 rank, no summary, no bucket bounds stored), the second as an
// mdbench before schema version 5 wrote it (no throughput over time).
inline StoredResults makeResults() {
  Values v;
  StoredResults results;
  results.schema = "mdbench-results";
  results.schema_version = 2;

  StoredRun run;
  run.group = "/runs/run-0000";
  RunInfo& info = run.info;
  info.version = "0.1.0";
  info.git_commit = "0123abcd-dirty";
  info.command_line = "mdbench -n 3 -u -d '/tmp/a b'";
  info.target = "/tmp/a b";
  info.start_utc = "2026-11-30T13:23:06Z";
  info.end_utc = "2026-11-30T13:23:09Z";
  info.ranks = 3;
  info.nodes = 2;
  info.host_of_rank = {"node-a", "we,ird \"host\"", "node-a"};
  info.fs_type = "tmpfs";
  info.fs_total_bytes = kMax;
  info.fs_free_bytes = kNearMax;
  info.fs_total_inodes = std::uint64_t{1} << 40;
  info.fs_free_inodes = 12345;
  info.mpi_library = "MPICH Version:\t4.0.2";
  info.hdf5_version = "1.10.8";
  info.scheduler = "slurm";
  info.job_id = "123456";
  info.job_name = "md,bench \"x\"";
  run.status = "failed";
  run.exit_status = 1;
  run.ranks_per_node_min = 1;
  run.ranks_per_node_max = 2;
  run.node_of_rank = {0, 1, 0};
  run.bucket_low = schemaBounds(false);
  run.bucket_high = schemaBounds(true);
  Config& c = run.config;
  c.items = kNearMax;
  c.target = "/tmp/a b@/tmp/c,d";
  c.targets = {"/tmp/a b", "/tmp/c,d"};
  c.sharing = TreeSharing::kUnique;
  c.depth = 2;
  c.branching = 3;
  c.items_per_dir = 0;
  c.leaf_only = true;
  c.kinds = ItemKinds::kFilesOnly;
  c.phases = {.create = true,
              .stat = false,
              .read = true,
              .remove = true,
              .rename = true,
              .readdir = false,
              .file_rename = true};
  c.iterations = 2;
  c.write_bytes = 4096;
  c.read_bytes = std::uint64_t{1} << 30;
  c.keep = false;
  c.shift = 4294967295u;
  c.random_order = true;
  c.random_seed = kMax;
  c.stonewall_s = 0.1;
  c.stonewall_file = "/tmp/count \"x\"";
  c.renamed = false;
  c.fsync_writes = true;
  c.sync_phases = true;
  c.verify_read = true;
  c.shared_files = false;
  c.pre_delay_s = 1e-17;
  c.preset = "io500-hard";
  c.series_interval_s = 0.30000000000000004;
  run.shift_used = 7;
  run.has_series = true;
  for (std::uint32_t it = 0; it < 2; ++it) {
    run.phases.push_back(makePhase(v, run.group, it, Phase::kFileCreate, 0, run.node_of_rank));
    run.phases.push_back(makePhase(v, run.group, it, Phase::kFileRemove, 1, run.node_of_rank));
  }
  run.phases[3].errors.push_back({1, 2, "ENOENT", "iter-0001/dir.0/file, \"1\""});
  run.has_summary = true;
  run.summaries.push_back({Phase::kFileCreate, {2, v.real(), v.real(), v.real(), v.real()}});
  run.summaries.push_back({Phase::kFileRemove, {2, v.real(), v.real(), v.real(), v.real()}});
  results.runs.push_back(run);

  StoredRun killed;
  killed.group = "/runs/run-0001";
  killed.info.ranks = 1;
  killed.info.nodes = 1;
  killed.info.host_of_rank = {"solo\r\nhost"};
  killed.status = "running";
  killed.exit_status = -1;
  killed.ranks_per_node_min = 1;
  killed.ranks_per_node_max = 1;
  killed.node_of_rank = {0};
  killed.config.sharing = TreeSharing::kShared;
  killed.config.kinds = ItemKinds::kDirsOnly;
  killed.config.phases.readdir = true;
  killed.config.renamed = true;
  killed.config.shared_files = true;
  killed.phases.push_back(
      withoutSeries(makePhase(v, killed.group, 0, Phase::kTreeCreate, 0, killed.node_of_rank)));
  results.runs.push_back(killed);
  return results;
}

inline std::string toJson(const StoredResults& results) {
  std::ostringstream out;
  exportJson(results, out);
  return out.str();
}

inline std::string toCsv(const StoredResults& results) {
  std::ostringstream out;
  exportCsv(results, out);
  return out.str();
}

// ---- exact comparisons of JSON values ----

inline const json& field(const json& object, const std::string& key) {
  static const json kMissing;
  if (!object.is_object() || !object.contains(key)) {
    ADD_FAILURE() << "missing key '" << key << "' in " << object.dump();
    return kMissing;
  }
  return object.at(key);
}

inline void expectUint(const json& object, const std::string& key, std::uint64_t expected) {
  const json& j = field(object, key);
  ASSERT_TRUE(j.is_number_unsigned()) << key << ": " << j.dump();
  EXPECT_EQ(j.get<std::uint64_t>(), expected) << key;
}

inline void expectInt(const json& object, const std::string& key, std::int64_t expected) {
  const json& j = field(object, key);
  ASSERT_TRUE(j.is_number_integer()) << key << ": " << j.dump();
  EXPECT_EQ(j.get<std::int64_t>(), expected) << key;
}

// Bit for bit, so that -0.0 and 0.0 differ too.
inline void expectDouble(const json& object, const std::string& key, double expected) {
  const json& j = field(object, key);
  ASSERT_TRUE(j.is_number_float()) << key << ": " << j.dump();
  EXPECT_EQ(std::bit_cast<std::uint64_t>(j.get<double>()), std::bit_cast<std::uint64_t>(expected))
      << key << ": " << j.get<double>() << " != " << expected;
}

inline void expectString(const json& object, const std::string& key, std::string_view expected) {
  const json& j = field(object, key);
  ASSERT_TRUE(j.is_string()) << key << ": " << j.dump();
  EXPECT_EQ(j.get<std::string>(), expected) << key;
}

inline void expectBool(const json& object, const std::string& key, bool expected) {
  const json& j = field(object, key);
  ASSERT_TRUE(j.is_boolean()) << key << ": " << j.dump();
  EXPECT_EQ(j.get<bool>(), expected) << key;
}

// ---- CSV ----

// A strict RFC 4180 reader with LF line ends: every record ends with "\n"; a quoted field is closed by a
// lone quote followed by a comma or the line end; an unquoted field holds no quote and no CR.
inline std::optional<std::vector<std::vector<std::string>>> parseCsv(std::string_view text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::size_t i = 0;
  while (i < text.size()) {
    std::string value;
    if (text[i] == '"') {
      ++i;
      for (;;) {
        if (i >= text.size()) return std::nullopt;  // unterminated quote
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            value += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        value += text[i++];
      }
      if (i >= text.size() || (text[i] != ',' && text[i] != '\n')) return std::nullopt;
    } else {
      while (i < text.size() && text[i] != ',' && text[i] != '\n') {
        if (text[i] == '"' || text[i] == '\r') return std::nullopt;
        value += text[i++];
      }
      if (i >= text.size()) return std::nullopt;  // no line end
    }
    record.push_back(std::move(value));
    if (text[i++] == '\n') {
      records.push_back(std::move(record));
      record.clear();
    }
  }
  return records;
}

}  // namespace mdbench::export_test
