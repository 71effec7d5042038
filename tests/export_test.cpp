// Tests of `mdbench export`: JSON and CSV read back and compared field by field with what went in.
#include "mdbench/export.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <bit>
#include <cerrno>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "mdbench/metrics.hpp"
#include "mdbench/phase.hpp"
#include "mdbench/plan.hpp"
#include "mdbench/results_file.hpp"
#include "mdbench/stats.hpp"
#include "mdbench/validate.hpp"

namespace mdbench {
namespace {

using nlohmann::json;

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kNearMax = kMax - 58;  // 18446744073709551557, the largest 64-bit prime

// Values that catch lossy printing: shortest round-trip is needed for each of them.
constexpr double kDoubles[] = {
    0.1,  1e-17, 123456789.123456789, 1.0 / 3.0,          5e-324,        1.7976931348623157e308,
    -0.0, 2.0,   0.30000000000000004, 9007199254740993.0, 6.02214076e23, 0.0};
constexpr std::uint64_t kIntegers[] = {0, 1, kMax, kNearMax, (std::uint64_t{1} << 53) + 1, 4294967295u, 42};

// Hands out the special values in turn so that every field of the fixture gets a different one.
class Values {
 public:
  double real() { return kDoubles[d_++ % std::size(kDoubles)]; }
  std::uint64_t whole() { return kIntegers[u_++ % std::size(kIntegers)]; }

 private:
  std::size_t d_ = 0;
  std::size_t u_ = 0;
};

std::vector<std::uint64_t> schemaBounds(bool high) {
  std::vector<std::uint64_t> bounds(LatencyHistogram::kBuckets);
  for (std::size_t b = 0; b < bounds.size(); ++b) {
    bounds[b] = high ? LatencyHistogram::bucketHigh(b) : LatencyHistogram::bucketLow(b);
  }
  return bounds;
}

StoredPhase makePhase(Values& v, const std::string& run_group, std::uint32_t iteration, Phase phase,
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
    p.ranks.push_back({r, node_of_rank[r], v.whole(), v.whole(), v.whole(), v.whole(), v.real(), v.real(),
                       v.real(), v.real(), v.whole(), v.real()});
  }
  p.latency.assign(LatencyHistogram::kBuckets, 0);
  p.latency[0] = 1;
  p.latency[17] = 7 + iteration;
  p.latency[300] = kNearMax;
  p.latency[LatencyHistogram::kBuckets - 1] = 2;
  return p;
}

// Two runs: a finished one (3 ranks on 2 nodes, 2 iterations, one failed operation, awkward host and
// job names) and one killed while running (1 rank, no summary, no bucket bounds stored).
StoredResults makeResults() {
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
  c.phases = {.create = true, .stat = false, .read = true, .remove = true, .rename = true, .readdir = false};
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
  run.shift_used = 7;
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
  killed.phases.push_back(makePhase(v, killed.group, 0, Phase::kTreeCreate, 0, killed.node_of_rank));
  results.runs.push_back(killed);
  return results;
}

std::string toJson(const StoredResults& results) {
  std::ostringstream out;
  exportJson(results, out);
  return out.str();
}

std::string toCsv(const StoredResults& results) {
  std::ostringstream out;
  exportCsv(results, out);
  return out.str();
}

// ---- exact comparisons of JSON values ----

const json& field(const json& object, const std::string& key) {
  static const json kMissing;
  if (!object.is_object() || !object.contains(key)) {
    ADD_FAILURE() << "missing key '" << key << "' in " << object.dump();
    return kMissing;
  }
  return object.at(key);
}

void expectUint(const json& object, const std::string& key, std::uint64_t expected) {
  const json& j = field(object, key);
  ASSERT_TRUE(j.is_number_unsigned()) << key << ": " << j.dump();
  EXPECT_EQ(j.get<std::uint64_t>(), expected) << key;
}

void expectInt(const json& object, const std::string& key, std::int64_t expected) {
  const json& j = field(object, key);
  ASSERT_TRUE(j.is_number_integer()) << key << ": " << j.dump();
  EXPECT_EQ(j.get<std::int64_t>(), expected) << key;
}

// Bit for bit, so that -0.0 and 0.0 differ too.
void expectDouble(const json& object, const std::string& key, double expected) {
  const json& j = field(object, key);
  ASSERT_TRUE(j.is_number_float()) << key << ": " << j.dump();
  EXPECT_EQ(std::bit_cast<std::uint64_t>(j.get<double>()), std::bit_cast<std::uint64_t>(expected))
      << key << ": " << j.get<double>() << " != " << expected;
}

void expectString(const json& object, const std::string& key, std::string_view expected) {
  const json& j = field(object, key);
  ASSERT_TRUE(j.is_string()) << key << ": " << j.dump();
  EXPECT_EQ(j.get<std::string>(), expected) << key;
}

void expectBool(const json& object, const std::string& key, bool expected) {
  const json& j = field(object, key);
  ASSERT_TRUE(j.is_boolean()) << key << ": " << j.dump();
  EXPECT_EQ(j.get<bool>(), expected) << key;
}

void checkRunAttributes(const json& a, const StoredRun& run) {
  const RunInfo& info = run.info;
  expectString(a, "mdbench_version", info.version);
  expectString(a, "git_commit", info.git_commit);
  expectString(a, "command_line", info.command_line);
  expectString(a, "start_utc", info.start_utc);
  expectString(a, "end_utc", info.end_utc);
  expectString(a, "status", run.status);
  expectInt(a, "exit_status", run.exit_status);
  expectUint(a, "ranks", info.ranks);
  expectUint(a, "nodes", info.nodes);
  expectUint(a, "ranks_per_node_min", run.ranks_per_node_min);
  expectUint(a, "ranks_per_node_max", run.ranks_per_node_max);
  expectString(a, "scheduler", info.scheduler);
  expectString(a, "job_id", info.job_id);
  expectString(a, "job_name", info.job_name);
  expectString(a, "mpi_library", info.mpi_library);
  expectString(a, "hdf5_version", info.hdf5_version);
  expectString(a, "target", info.target);
  expectString(a, "fs_type", info.fs_type);
  expectUint(a, "fs_total_bytes", info.fs_total_bytes);
  expectUint(a, "fs_free_bytes", info.fs_free_bytes);
  expectUint(a, "fs_total_inodes", info.fs_total_inodes);
  expectUint(a, "fs_free_inodes", info.fs_free_inodes);
}

void checkConfig(const json& j, const StoredRun& run, std::string_view sharing, std::string_view kinds,
                 std::string_view targets) {
  const Config& c = run.config;
  expectUint(j, "items", c.items);
  expectString(j, "target", c.target);
  expectString(j, "targets", targets);
  expectString(j, "sharing", sharing);
  expectUint(j, "depth", c.depth);
  expectUint(j, "branching", c.branching);
  expectUint(j, "items_per_dir", c.items_per_dir);
  expectBool(j, "leaf_only", c.leaf_only);
  expectString(j, "kinds", kinds);
  expectBool(j, "phase_create", c.phases.create);
  expectBool(j, "phase_stat", c.phases.stat);
  expectBool(j, "phase_read", c.phases.read);
  expectBool(j, "phase_remove", c.phases.remove);
  expectUint(j, "iterations", c.iterations);
  expectUint(j, "write_bytes", c.write_bytes);
  expectUint(j, "read_bytes", c.read_bytes);
  expectBool(j, "keep", c.keep);
  expectBool(j, "phase_rename", c.phases.rename);
  expectBool(j, "phase_readdir", c.phases.readdir);
  expectUint(j, "shift", c.shift);
  expectUint(j, "shift_used", run.shift_used);
  expectBool(j, "random_order", c.random_order);
  expectUint(j, "random_seed", c.random_seed);
  expectDouble(j, "stonewall_s", c.stonewall_s);
  expectString(j, "stonewall_file", c.stonewall_file);
  expectBool(j, "renamed", c.renamed);
  expectBool(j, "fsync_writes", c.fsync_writes);
  expectBool(j, "sync_phases", c.sync_phases);
  expectBool(j, "verify_read", c.verify_read);
  expectBool(j, "shared_files", c.shared_files);
  expectDouble(j, "pre_delay_s", c.pre_delay_s);
  expectString(j, "preset", c.preset);
}

void checkRankRow(const json& j, const StoredRankRow& r) {
  expectUint(j, "rank", r.rank);
  expectUint(j, "node", r.node);
  expectUint(j, "planned", r.planned);
  expectUint(j, "ok", r.ok);
  expectUint(j, "failed", r.failed);
  expectUint(j, "bytes", r.bytes);
  expectDouble(j, "t_start", r.t_start);
  expectDouble(j, "t_local_end", r.t_local_end);
  expectDouble(j, "t_global_end", r.t_global_end);
  expectDouble(j, "rate", r.rate);
  expectUint(j, "ops_at_stonewall", r.ops_at_stonewall);
  expectDouble(j, "t_stonewall", r.t_stonewall);
}

void checkLatencyBuckets(const json& buckets, const StoredPhase& p) {
  ASSERT_TRUE(buckets.is_array());
  std::size_t next = 0;
  for (std::size_t b = 0; b < p.latency.size(); ++b) {
    if (p.latency[b] == 0) continue;
    ASSERT_LT(next, buckets.size()) << "bucket " << b << " missing";
    const json& j = buckets[next++];
    expectUint(j, "bucket", b);
    expectUint(j, "low", LatencyHistogram::bucketLow(b));
    expectUint(j, "high", LatencyHistogram::bucketHigh(b));
    expectUint(j, "count", p.latency[b]);
  }
  EXPECT_EQ(next, buckets.size()) << "empty buckets exported";
}

void checkPhase(const json& j, const StoredPhase& p) {
  expectString(j, "group", p.group);
  expectUint(j, "iteration", p.iteration);
  expectString(j, "phase", phaseName(p.phase));
  expectUint(j, "order", p.order);
  expectUint(j, "items", p.items);
  const PhaseAggregate& a = p.aggregate;
  expectUint(j, "ops_ok", a.ok);
  expectUint(j, "ops_failed", a.failed);
  expectUint(j, "bytes", a.bytes);
  expectDouble(j, "time_s", a.time_s);
  expectDouble(j, "ops_per_s", a.ops_per_s);
  expectString(j, "rate_formula", p.rate_formula);
  expectUint(j, "active_ranks", a.active_ranks);
  expectDouble(j, "rank_rate_min", a.rank_rate_min);
  expectDouble(j, "rank_rate_max", a.rank_rate_max);
  expectDouble(j, "rank_rate_mean", a.rank_rate_mean);
  expectDouble(j, "balance", a.balance);
  expectBool(j, "stonewalled", a.stonewalled);
  expectUint(j, "ops_at_stonewall", a.ops_at_stonewall);
  expectDouble(j, "stonewall_time_s", a.stonewall_time_s);
  expectDouble(j, "ops_per_s_at_stonewall", a.ops_per_s_at_stonewall);
  expectUint(j, "latency_p50_ns", p.latency_summary.p50_ns);
  expectUint(j, "latency_p90_ns", p.latency_summary.p90_ns);
  expectUint(j, "latency_p99_ns", p.latency_summary.p99_ns);
  expectUint(j, "latency_p999_ns", p.latency_summary.p999_ns);
  expectUint(j, "latency_max_ns", p.latency_summary.max_ns);
  const json& ranks = field(j, "ranks");
  ASSERT_EQ(ranks.size(), p.ranks.size());
  for (std::size_t r = 0; r < p.ranks.size(); ++r) checkRankRow(ranks[r], p.ranks[r]);
  checkLatencyBuckets(field(j, "latency_buckets"), p);
  const json& errors = field(j, "errors");
  ASSERT_TRUE(errors.is_array());
  ASSERT_EQ(errors.size(), p.errors.size());
  for (std::size_t e = 0; e < p.errors.size(); ++e) {
    expectUint(errors[e], "rank", p.errors[e].rank);
    expectInt(errors[e], "errno", p.errors[e].err);
    expectString(errors[e], "errno_name", p.errors[e].errno_name);
    expectString(errors[e], "path", p.errors[e].path);
  }
}

void checkRun(const json& j, const StoredRun& run, std::string_view sharing, std::string_view kinds,
              std::string_view targets) {
  expectString(j, "group", run.group);
  checkRunAttributes(field(j, "attributes"), run);
  EXPECT_EQ(field(j, "hosts"), json(run.info.host_of_rank));
  EXPECT_EQ(field(j, "node_of_rank"), json(run.node_of_rank));
  checkConfig(field(j, "config"), run, sharing, kinds, targets);
  const json& phases = field(j, "phases");
  ASSERT_EQ(phases.size(), run.phases.size());
  for (std::size_t p = 0; p < run.phases.size(); ++p) checkPhase(phases[p], run.phases[p]);
  if (!run.has_summary) {
    EXPECT_FALSE(j.contains("summary"));
    return;
  }
  const json& summary = field(j, "summary");
  ASSERT_EQ(summary.size(), run.summaries.size());
  for (std::size_t s = 0; s < run.summaries.size(); ++s) {
    const StoredSummary& expected = run.summaries[s];
    expectString(summary[s], "phase", phaseName(expected.phase));
    expectUint(summary[s], "iterations", expected.summary.iterations);
    expectDouble(summary[s], "ops_per_s_max", expected.summary.max);
    expectDouble(summary[s], "ops_per_s_min", expected.summary.min);
    expectDouble(summary[s], "ops_per_s_mean", expected.summary.mean);
    expectDouble(summary[s], "ops_per_s_stddev", expected.summary.stddev);
  }
}

TEST(ExportJson, EveryValueReadsBackExactly) {
  const StoredResults results = makeResults();
  const json doc = json::parse(toJson(results));
  expectString(doc, "schema", "mdbench-results");
  expectUint(doc, "schema_version", 2);
  const json& runs = field(doc, "runs");
  ASSERT_EQ(runs.size(), 2u);
  checkRun(runs[0], results.runs[0], "unique", "files", "/tmp/a b@/tmp/c,d");
  checkRun(runs[1], results.runs[1], "shared", "dirs", "");
}

TEST(ExportJson, ExportsOnlyNonEmptyLatencyBuckets) {
  const json doc = json::parse(toJson(makeResults()));
  const json& buckets = doc["runs"][0]["phases"][0]["latency_buckets"];
  ASSERT_EQ(buckets.size(), 4u);
  EXPECT_EQ(buckets[0], json::parse(R"({"bucket": 0, "low": 0, "high": 0, "count": 1})"));
  EXPECT_EQ(buckets[1], json::parse(R"({"bucket": 17, "low": 17, "high": 17, "count": 7})"));
  EXPECT_EQ(buckets[3]["high"].get<std::uint64_t>(), kMax);  // the open-ended last bucket
}

// The killed run stored no bucket bounds; its buckets get the bounds the schema defines.
TEST(ExportJson, BucketBoundsFromTheRunOrTheSchema) {
  StoredResults results = makeResults();
  results.runs[0].bucket_low[17] = 1000;  // the file's bounds win when it has them
  const json doc = json::parse(toJson(results));
  EXPECT_EQ(doc["runs"][0]["phases"][0]["latency_buckets"][1]["low"].get<std::uint64_t>(), 1000u);
  const json& killed = doc["runs"][1]["phases"][0]["latency_buckets"];
  ASSERT_EQ(killed.size(), 4u);
  EXPECT_EQ(killed[2]["low"].get<std::uint64_t>(), LatencyHistogram::bucketLow(300));
  EXPECT_EQ(killed[2]["high"].get<std::uint64_t>(), LatencyHistogram::bucketHigh(300));
}

TEST(ExportJson, UsesTheSchemaNames) {
  const json schema = json::parse(schemaJson());
  auto names = [&](std::string_view path, const char* list) {
    std::set<std::string> out;
    for (const json& object : schema["objects"]) {
      if (object["path"] != path) continue;
      for (const json& a : object[list]) out.insert(a["name"].get<std::string>());
    }
    EXPECT_FALSE(out.empty()) << path;
    return out;
  };
  auto keys = [](const json& object) {
    std::set<std::string> out;
    for (const auto& [key, value] : object.items()) out.insert(key);
    return out;
  };
  auto plus = [](std::set<std::string> s, std::initializer_list<std::string> extra) {
    s.insert(extra);
    return s;
  };
  const json doc = json::parse(toJson(makeResults()));
  EXPECT_EQ(keys(doc), plus(names("/", "attributes"), {"runs"}));
  const json& run = doc["runs"][0];
  EXPECT_EQ(keys(run), (std::set<std::string>{"group", "attributes", "hosts", "node_of_rank", "config",
                                              "phases", "summary"}));
  EXPECT_EQ(keys(run["attributes"]), names("/runs/run-*", "attributes"));
  EXPECT_EQ(keys(run["config"]), names("/runs/run-*/config", "attributes"));
  const json& phase = run["phases"][3];
  EXPECT_EQ(keys(phase), plus(names("/runs/run-*/iterations/iter-*/*", "attributes"),
                              {"group", "ranks", "latency_buckets", "errors"}));
  EXPECT_EQ(keys(phase["ranks"][0]), names("/runs/run-*/iterations/iter-*/*/ranks", "fields"));
  EXPECT_EQ(keys(phase["errors"][0]), names("/runs/run-*/iterations/iter-*/*/errors", "fields"));
  EXPECT_EQ(keys(run["summary"][0]), names("/runs/run-*/summary/*", "attributes"));
}

TEST(ExportJson, PrettyPrintedWithTwoSpacesAndTrailingNewline) {
  StoredResults results;
  results.schema = "mdbench-results";
  results.schema_version = 2;
  EXPECT_EQ(toJson(results),
            "{\n  \"schema\": \"mdbench-results\",\n  \"schema_version\": 2,\n  \"runs\": []\n}\n");
  const std::string text = toJson(makeResults());
  EXPECT_NE(text.find("\n      \"group\": \"/runs/run-0000\",\n"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
}

TEST(ExportJson, ReplacesInvalidUtf8InsteadOfFailing) {
  StoredResults results = makeResults();
  results.runs[0].info.host_of_rank[0] = "bad\xff";
  const json doc = json::parse(toJson(results));
  EXPECT_EQ(doc["runs"][0]["hosts"][0].get<std::string>(), "bad\xEF\xBF\xBD");
}

// ---- CSV ----

// A strict RFC 4180 reader with LF line ends: every record ends with "\n"; a quoted field is closed by a
// lone quote followed by a comma or the line end; an unquoted field holds no quote and no CR.
std::optional<std::vector<std::vector<std::string>>> parseCsv(std::string_view text) {
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

TEST(CsvReader, IsStrict) {
  using Records = std::vector<std::vector<std::string>>;
  EXPECT_EQ(parseCsv("a,\"b,\"\"c\"\"\r\nd\",\n"), (Records{{"a", "b,\"c\"\r\nd", ""}}));
  EXPECT_EQ(parseCsv(""), Records{});
  EXPECT_FALSE(parseCsv("a,b"));       // no line end
  EXPECT_FALSE(parseCsv("a\"b\n"));    // stray quote
  EXPECT_FALSE(parseCsv("\"a\"b\n"));  // text after the closing quote
  EXPECT_FALSE(parseCsv("\"a\n"));     // unterminated
  EXPECT_FALSE(parseCsv("a\r\n"));     // bare CR
}

std::uint64_t toUint(const std::string& s) {
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  EXPECT_TRUE(ec == std::errc() && ptr == s.data() + s.size()) << "not an integer: '" << s << "'";
  return value;
}

double toDouble(const std::string& s) {
  double value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  EXPECT_TRUE(ec == std::errc() && ptr == s.data() + s.size()) << "not a number: '" << s << "'";
  return value;
}

void expectSameDouble(const std::string& text, double expected) {
  EXPECT_EQ(std::bit_cast<std::uint64_t>(toDouble(text)), std::bit_cast<std::uint64_t>(expected))
      << "'" << text << "' != " << expected;
}

constexpr std::string_view kCsvColumns[] = {"run",
                                            "iteration",
                                            "phase",
                                            "order",
                                            "rank",
                                            "node",
                                            "host",
                                            "planned",
                                            "ok",
                                            "failed",
                                            "bytes",
                                            "t_start",
                                            "t_local_end",
                                            "t_global_end",
                                            "rate",
                                            "phase_ops_per_s",
                                            "phase_time_s",
                                            "ops_at_stonewall",
                                            "t_stonewall",
                                            "phase_items",
                                            "phase_ops_per_s_at_stonewall"};

TEST(ExportCsv, HeaderAndEveryFieldReadBackExactly) {
  const StoredResults results = makeResults();
  const auto records = parseCsv(toCsv(results));
  ASSERT_TRUE(records);
  ASSERT_FALSE(records->empty());
  const std::vector<std::string> header((*records)[0].begin(), (*records)[0].end());
  EXPECT_EQ(header, std::vector<std::string>(std::begin(kCsvColumns), std::end(kCsvColumns)));

  std::size_t expected_rows = 0;
  for (const StoredRun& run : results.runs) {
    for (const StoredPhase& p : run.phases) expected_rows += p.ranks.size();
  }
  ASSERT_EQ(expected_rows, 13u);
  ASSERT_EQ(records->size(), 1 + expected_rows);

  std::size_t line = 1;
  for (const StoredRun& run : results.runs) {
    for (const StoredPhase& p : run.phases) {
      for (const StoredRankRow& r : p.ranks) {
        const std::vector<std::string>& f = (*records)[line++];
        ASSERT_EQ(f.size(), std::size(kCsvColumns)) << "line " << line;
        EXPECT_EQ(f[0], run.group);
        EXPECT_EQ(toUint(f[1]), p.iteration);
        EXPECT_EQ(f[2], phaseName(p.phase));
        EXPECT_EQ(toUint(f[3]), p.order);
        EXPECT_EQ(toUint(f[4]), r.rank);
        EXPECT_EQ(toUint(f[5]), r.node);
        EXPECT_EQ(f[6], run.info.host_of_rank[r.rank]);
        EXPECT_EQ(toUint(f[7]), r.planned);
        EXPECT_EQ(toUint(f[8]), r.ok);
        EXPECT_EQ(toUint(f[9]), r.failed);
        EXPECT_EQ(toUint(f[10]), r.bytes);
        expectSameDouble(f[11], r.t_start);
        expectSameDouble(f[12], r.t_local_end);
        expectSameDouble(f[13], r.t_global_end);
        expectSameDouble(f[14], r.rate);
        expectSameDouble(f[15], p.aggregate.ops_per_s);
        expectSameDouble(f[16], p.aggregate.time_s);
        EXPECT_EQ(toUint(f[17]), r.ops_at_stonewall);
        expectSameDouble(f[18], r.t_stonewall);
        EXPECT_EQ(toUint(f[19]), p.items);
        expectSameDouble(f[20], p.aggregate.ops_per_s_at_stonewall);
      }
    }
  }
}

TEST(ExportCsv, QuotesOnlyWhatNeedsIt) {
  StoredResults results = makeResults();
  StoredPhase& p = results.runs[0].phases[0];
  p.ranks.resize(2);
  p.ranks[1] = {1, 1, 10, 9, 1, 4096, 0.1, 1e-17, 123456789.123456789, 0.0, 7, 0.125};
  p.aggregate.ops_per_s = 2.5;
  p.aggregate.time_s = 0.30000000000000004;
  p.items = 10;
  p.aggregate.ops_per_s_at_stonewall = 56.0;
  results.runs[0].phases.resize(1);
  results.runs.resize(1);
  const std::string csv = toCsv(results);
  const std::string row = csv.substr(csv.find('\n', csv.find('\n') + 1) + 1);
  EXPECT_EQ(
      row,
      "/runs/run-0000,0,file-create,0,1,1,\"we,ird \"\"host\"\"\",10,9,1,4096,0.1,1e-17,123456789.12345679,0,"
      "2.5,0.30000000000000004,7,0.125,10,56\n");
}

TEST(ExportCsv, HeaderOnlyWithoutPhases) {
  StoredResults results = makeResults();
  for (StoredRun& run : results.runs) run.phases.clear();
  EXPECT_EQ(toCsv(results),
            std::string("run,iteration,phase,order,rank,node,host,planned,ok,failed,bytes,t_start,"
                        "t_local_end,t_global_end,rate,phase_ops_per_s,phase_time_s,ops_at_stonewall,"
                        "t_stonewall,phase_items,phase_ops_per_s_at_stonewall\n"));
}

// ---- From a real results file ----

class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "mdbench-export-test.XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Every planned op succeeds except rank 1's first in file-remove (ENOENT); times are awkward doubles. The
// stonewall fires in file-create on rank 0 after 2 ops (rank 1 never fires, so both end with every item).
RunResult writtenRun(const Plan& plan) {
  RunResult run;
  run.config = plan.config();
  run.info.version = "0.1.0";
  run.info.command_line = plan.config().command_line;
  run.info.target = "/scratch/export";
  run.info.start_utc = "2026-11-30T13:23:06Z";
  run.info.end_utc = "2026-11-30T13:23:07Z";
  run.info.ranks = plan.ranks();
  run.info.nodes = 2;
  run.info.host_of_rank = {"node,\"a\"", "node-b"};
  run.info.fs_total_bytes = kNearMax;
  double t = 1e-17;
  for (const Phase phase : plan.phases()) {
    PhaseResult result;
    result.phase = phase;
    result.items = plan.config().items;
    for (std::uint32_t r = 0; r < plan.ranks(); ++r) {
      RankPhaseRecord rec;
      rec.planned = plan.plannedOps(phase, r);
      rec.ok = rec.planned;
      rec.ops_at_stonewall = rec.planned;
      rec.t_start = t;
      rec.t_local_end = t + 0.1 * (r + 1);
      rec.t_global_end = t + 0.30000000000000004;
      if (phase == Phase::kFileCreate && r == 0) {
        rec.ops_at_stonewall = 2;
        rec.t_stonewall = t + 0.0625;
      }
      if (phase == Phase::kFileRemove && r == 1 && rec.planned > 0) {
        --rec.ok;
        rec.failed = 1;
        rec.ops_at_stonewall = rec.ok;  // the timer never fired: every successful op
        rec.first_error = {.err = ENOENT, .owner = 1, .dir = 0, .item = 0};
      }
      for (std::uint64_t op = 0; op < rec.ok; ++op) result.latency.add(1000 + 37 * op + r);
      result.ranks.push_back(rec);
    }
    t += 123456789.123456789;
    run.phases.push_back(result);
  }
  return run;
}

TEST(ExportFromFile, WrittenFileReadBackAndExported) {
  ScratchDir dir;
  const std::string path = dir.path() + "/results.h5";
  Config config;
  config.items = 3;
  config.sharing = TreeSharing::kUnique;
  config.kinds = ItemKinds::kFilesOnly;
  config.phases = {
      .create = true, .stat = false, .read = false, .remove = true, .rename = true, .readdir = true};
  config.stonewall_s = 0.0625;
  config.command_line = "mdbench -n 3 -u -F -C -r -U --readdir -W 0.0625";
  const Plan plan(config, 2);
  const RunResult run = writtenRun(plan);
  {
    bool exists_error = false;
    const std::unique_ptr<Hdf5Sink> sink = Hdf5Sink::open(path, OutputMode::kCreate, exists_error);
    sink->begin(run.info, plan);
    for (const PhaseResult& p : run.phases) sink->phase(p, plan);
    sink->end(run, plan);
    sink->finish(1);
  }
  const ValidationResult validation = validateResultsFile(path);
  EXPECT_TRUE(validation.ok) << validation.first_problem;  // what is exported is a valid file
  const StoredResults stored = readResultsFile(path);
  const json doc = json::parse(toJson(stored));

  expectString(doc, "schema", "mdbench-results");
  expectUint(doc, "schema_version", kSchemaVersion);
  ASSERT_EQ(doc["runs"].size(), 1u);
  const json& j = doc["runs"][0];
  expectString(j, "group", "/runs/run-0000");
  expectString(j["attributes"], "status", "failed");
  expectInt(j["attributes"], "exit_status", 1);
  expectUint(j["attributes"], "fs_total_bytes", kNearMax);
  expectUint(j["attributes"], "ranks_per_node_max", 1);
  EXPECT_EQ(j["hosts"], json::parse(R"(["node,\"a\"", "node-b"])"));
  EXPECT_EQ(j["node_of_rank"], json::parse("[0, 1]"));
  expectString(j["config"], "sharing", "unique");
  expectString(j["config"], "kinds", "files");
  expectBool(j["config"], "phase_stat", false);
  expectBool(j["config"], "phase_remove", true);
  expectBool(j["config"], "phase_rename", true);
  expectBool(j["config"], "phase_readdir", true);
  expectDouble(j["config"], "stonewall_s", 0.0625);
  expectUint(j["config"], "shift_used", 0);
  expectString(j["config"], "targets", "");

  const json& phases = j["phases"];
  ASSERT_EQ(phases.size(), run.phases.size());
  for (std::size_t i = 0; i < run.phases.size(); ++i) {
    const PhaseResult& written = run.phases[i];
    const json& p = phases[i];
    expectString(p, "phase", phaseName(written.phase));
    expectUint(p, "order", i);
    const PhaseAggregate a = aggregate(written.ranks);
    expectUint(p, "ops_ok", a.ok);
    expectDouble(p, "ops_per_s", a.ops_per_s);
    expectUint(p, "items", 3);
    expectBool(p, "stonewalled", written.phase == Phase::kFileCreate);
    expectUint(p, "ops_at_stonewall", a.ops_at_stonewall);
    expectDouble(p, "ops_per_s_at_stonewall", a.ops_per_s_at_stonewall);
    expectUint(p, "latency_p99_ns", written.latency.quantile(0.99));
    for (std::size_t r = 0; r < written.ranks.size(); ++r) {
      expectDouble(p["ranks"][r], "t_start", written.ranks[r].t_start);
      expectDouble(p["ranks"][r], "t_local_end", written.ranks[r].t_local_end);
      expectDouble(p["ranks"][r], "rate", rankRate(written.ranks[r]));
      expectUint(p["ranks"][r], "ops_at_stonewall", written.ranks[r].ops_at_stonewall);
      expectDouble(p["ranks"][r], "t_stonewall", written.ranks[r].t_stonewall);
    }
    std::uint64_t counted = 0;
    for (const json& b : p["latency_buckets"]) {
      const std::size_t bucket = b["bucket"].get<std::size_t>();
      EXPECT_EQ(b["count"].get<std::uint64_t>(), written.latency.counts()[bucket]);
      EXPECT_EQ(b["low"].get<std::uint64_t>(), LatencyHistogram::bucketLow(bucket));
      counted += b["count"].get<std::uint64_t>();
    }
    EXPECT_EQ(counted, a.ok);
    const bool failed = written.phase == Phase::kFileRemove;
    ASSERT_EQ(p["errors"].size(), failed ? 1u : 0u) << phaseName(written.phase);
    if (failed) {
      expectUint(p["errors"][0], "rank", 1);
      expectInt(p["errors"][0], "errno", ENOENT);
      expectString(p["errors"][0], "errno_name", "ENOENT");
      // The writer records where the op failed: the target directory joined with the plan's path.
      expectString(
          p["errors"][0], "path",
          run.info.target + "/" + errorPath(plan, 0, Phase::kFileRemove, written.ranks[1].first_error));
    }
  }
  ASSERT_EQ(j["summary"].size(), run.phases.size());
  expectDouble(j["summary"][0], "ops_per_s_max", aggregate(run.phases[0].ranks).ops_per_s);

  const auto records = parseCsv(toCsv(stored));
  ASSERT_TRUE(records);
  EXPECT_EQ(records->size(), 1 + run.phases.size() * plan.ranks());
  EXPECT_EQ((*records)[1][6], "node,\"a\"");  // rank 0 of the first phase
  EXPECT_EQ((*records)[2][6], "node-b");
  // file-create is the second phase (after tree-create): rank 0 fired after 2 of its 3 ops, 0.0625 s in;
  // with rank 1's 3, that is 5 ops at the stonewall in 0.0625 s.
  const std::vector<std::string>& create0 = (*records)[1 + plan.ranks()];
  EXPECT_EQ(create0[2], "file-create");
  EXPECT_EQ(create0[17], "2");
  EXPECT_EQ(create0[19], "3");
  EXPECT_EQ(create0[20], "80");
}

}  // namespace
}  // namespace mdbench
