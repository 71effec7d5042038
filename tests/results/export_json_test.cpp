// Tests of `mdbench export` to JSON: every value of hand-made results read back exactly, under the schema's
// names.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

#include "export_fixture.hpp"
#include "mdbench/model/fault.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"

namespace mdbench::export_test {
namespace {

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
  expectBool(j, "phase_file_rename", c.phases.file_rename);
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
  if (run.has_series) {
    expectDouble(j, "series_interval_s", c.series_interval_s);
  } else {
    EXPECT_FALSE(j.contains("series_interval_s"));  // as absent as in the file
  }
}

// The row of rank `rank` (on `node`): its record, and the derived columns the file stores beside it.
void checkRankRow(const json& j, std::uint32_t rank, std::uint32_t node, const RankPhaseRecord& r) {
  expectUint(j, "rank", rank);
  expectUint(j, "node", node);
  expectUint(j, "planned", r.planned);
  expectUint(j, "ok", r.ok);
  expectUint(j, "failed", r.failed);
  expectUint(j, "bytes", r.bytes);
  expectDouble(j, "t_start", r.t_start);
  expectDouble(j, "t_local_end", r.t_local_end);
  expectDouble(j, "t_global_end", r.t_global_end);
  expectDouble(j, "rate", rankRate(r));
  expectUint(j, "ops_at_stonewall", r.ops_at_stonewall);
  expectDouble(j, "t_stonewall", r.t_stonewall);
}

void checkLatencyBuckets(const json& buckets, const StoredPhase& p) {
  ASSERT_TRUE(buckets.is_array());
  std::size_t next = 0;
  const auto counts = p.latency.counts();
  for (std::size_t b = 0; b < counts.size(); ++b) {
    if (counts[b] == 0) continue;
    ASSERT_LT(next, buckets.size()) << "bucket " << b << " missing";
    const json& j = buckets[next++];
    expectUint(j, "bucket", b);
    expectUint(j, "low", LatencyHistogram::bucketLow(b));
    expectUint(j, "high", LatencyHistogram::bucketHigh(b));
    expectUint(j, "count", counts[b]);
  }
  EXPECT_EQ(next, buckets.size()) << "empty buckets exported";
}

void checkPhase(const json& j, const StoredPhase& p, const std::vector<std::uint32_t>& node_of_rank) {
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
  const char* const series_keys[] = {"first_done_time_s",     "first_done_ops",      "first_done_ops_per_s",
                                     "last_done_time_s",      "last_done_ops_per_s", "interval_s",
                                     "ops_per_interval_total"};
  if (p.has_series) {
    expectDouble(j, "first_done_time_s", p.done.first_done_time_s);
    expectUint(j, "first_done_ops", p.done.first_done_ops);
    expectDouble(j, "first_done_ops_per_s", p.done.first_done_ops_per_s);
    expectDouble(j, "last_done_time_s", p.done.last_done_time_s);
    expectDouble(j, "last_done_ops_per_s", p.done.last_done_ops_per_s);
    expectDouble(j, "interval_s", p.series.interval_s);
    EXPECT_EQ(field(j, "ops_per_interval_total"), json(p.series.total));
    EXPECT_FALSE(j.contains("ops_per_interval"));  // the per-rank counts stay in the HDF5 file
  } else {
    for (const char* key : series_keys) EXPECT_FALSE(j.contains(key)) << key;
  }
  const json& ranks = field(j, "ranks");
  ASSERT_EQ(ranks.size(), p.ranks.size());
  ASSERT_EQ(node_of_rank.size(), p.ranks.size());
  for (std::uint32_t r = 0; r < p.ranks.size(); ++r) checkRankRow(ranks[r], r, node_of_rank[r], p.ranks[r]);
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
  for (std::size_t p = 0; p < run.phases.size(); ++p) checkPhase(phases[p], run.phases[p], run.node_of_rank);
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

// too_short, per phase and in the summary: the phase's ops per rank with work and its time against the
// thresholds (model's rate_timing.hpp); the summary judges the mean over the phase's iterations.
TEST(ExportJson, MarksPhasesTooShortToTime) {
  StoredResults results = makeResults();
  StoredRun& run = results.runs[0];
  run.info.ranks = 2;
  run.phases.resize(2);
  run.phases[1] = run.phases[0];
  run.phases[1].iteration = 1;
  run.summaries.resize(1);
  run.summaries[0].phase = run.phases[0].phase;
  for (StoredPhase& p : run.phases) {
    p.aggregate.ok = 40;  // 20 per rank: enough
    p.aggregate.active_ranks = 2;
    p.aggregate.time_s = 0.5;  // barrier to barrier: not what is judged
    p.ranks.resize(2);
    for (RankPhaseRecord& r : p.ranks) r.planned = 20;
  }
  // The slowest rank's time to its last op: iteration 0 too short (4 ms); iteration 1 timed (0.5 s).
  const auto rank = [](double t_start, double t_local_end) {
    RankPhaseRecord r;
    r.planned = 20;
    r.t_start = t_start;
    r.t_local_end = t_local_end;
    return r;
  };
  run.phases[0].ranks[0] = rank(10.0, 10.003);
  run.phases[0].ranks[1] = rank(10.0, 10.004);
  run.phases[1].ranks[0] = rank(20.0, 20.5);
  run.phases[1].ranks[1] = rank(20.0, 20.1);
  json doc = json::parse(toJson(results));
  EXPECT_EQ(doc["runs"][0]["phases"][0]["too_short"], true);
  EXPECT_EQ(doc["runs"][0]["phases"][1]["too_short"], false);
  EXPECT_EQ(doc["runs"][0]["summary"][0]["too_short"], false);  // mean 0.252 s
  for (StoredPhase& p : run.phases) p.aggregate.ok = 18;        // 9 per rank
  doc = json::parse(toJson(results));
  EXPECT_EQ(doc["runs"][0]["phases"][1]["too_short"], true);
  EXPECT_EQ(doc["runs"][0]["summary"][0]["too_short"], true);
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
  StoredResults results = makeResults();
  results.runs[0].has_mdtest_options = true;  // version 6's run and config attributes
  results.datapath.push_back({"ior", "", "", "", "", {{"write", 1, 0, 1, 1, 1, 1, 0, 0, 0, 0}}, "", "", ""});
  results.metadata_imports.push_back(
      {"mdtest", "", "", "", "", {{"file-stat", "File stat", 1, 0, 1, 1, 1, 1, 0, 0}}, "", "", ""});
  // Version 9's stall attributes and a fault (issue 34).
  StoredPhase& failed_over = results.runs[0].phases[3];
  failed_over.stall = PhaseStall{true, 1.5, 10.0, 11.5, 0.1};
  FaultRecord fault;
  fault.at_s = 2;
  fault.command = "ceph mds fail a";
  fault.injected = true;
  failed_over.faults.push_back(fault);
  const json doc = json::parse(toJson(results));
  EXPECT_EQ(keys(doc), plus(names("/", "attributes"), {"runs", "datapath", "metadata_imports"}));
  EXPECT_EQ(keys(doc["datapath"][0]), plus(names("/datapath/import-*", "attributes"), {"group", "results"}));
  EXPECT_EQ(keys(doc["datapath"][0]["results"][0]), names("/datapath/import-*/results", "fields"));
  EXPECT_EQ(keys(doc["metadata_imports"][0]),
            plus(names("/metadata-imports/import-*", "attributes"), {"group", "results"}));
  EXPECT_EQ(keys(doc["metadata_imports"][0]["results"][0]),
            names("/metadata-imports/import-*/results", "fields"));
  const json& run = doc["runs"][0];
  EXPECT_EQ(keys(run), (std::set<std::string>{"group", "attributes", "hosts", "node_of_rank", "config",
                                              "phases", "summary"}));
  EXPECT_EQ(keys(run["attributes"]), names("/runs/run-*", "attributes"));
  // The config's attributes, of them the backend options of the run's backend only (POSIX here).
  std::set<std::string> config_names = names("/runs/run-*/config", "attributes");
  std::erase_if(config_names, [](const std::string& name) {
    return name.starts_with("dummy.") || name.starts_with("cephfs.") || name.starts_with("libnfs.");
  });
  EXPECT_EQ(keys(run["config"]), config_names);
  EXPECT_EQ(run["config"]["posix.odirect"], 0);
  const json& phase = run["phases"][3];
  EXPECT_EQ(keys(phase), plus(names("/runs/run-*/iterations/iter-*/*!steady", "attributes"),
                              {"group", "ranks", "latency_buckets", "errors", "faults", "interval_s",
                               "ops_per_interval_total", "too_short"}));
  EXPECT_EQ(keys(phase["faults"][0]), names("/runs/run-*/iterations/iter-*/*!steady/faults", "fields"));
  EXPECT_EQ(phase["faults"][0]["command"], "ceph mds fail a");
  EXPECT_TRUE(phase["faults"][0]["recovery_s"].is_null());  // NaN: not measured
  EXPECT_EQ(phase["stall_s"], 1.5);
  EXPECT_EQ(names("/runs/run-*/iterations/iter-*/*!steady/ops_per_interval", "attributes"),
            std::set<std::string>{"interval_s"});
  EXPECT_EQ(keys(phase["ranks"][0]), names("/runs/run-*/iterations/iter-*/*!steady/ranks", "fields"));
  EXPECT_EQ(keys(phase["errors"][0]), names("/runs/run-*/iterations/iter-*/*!steady/errors", "fields"));
  // too_short is computed on export (model's rate_timing.hpp), not stored.
  EXPECT_EQ(keys(run["summary"][0]), plus(names("/runs/run-*/summary/*", "attributes"), {"too_short"}));
}

TEST(ExportJson, PrettyPrintedWithTwoSpacesAndTrailingNewline) {
  StoredResults results;
  results.schema = "mdbench-results";
  results.schema_version = 2;
  EXPECT_EQ(toJson(results),
            "{\n  \"schema\": \"mdbench-results\",\n  \"schema_version\": 2,\n  \"runs\": [],\n  "
            "\"datapath\": [],\n  \"metadata_imports\": []\n}\n");
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

TEST(ExportJson, ImportedResultsWithEveryField) {
  StoredResults results = makeResults();
  DataPathImport ior;
  ior.group = "/datapath/import-0000";
  ior.tool = "ior";
  ior.tool_version = "4.1.0";
  ior.command_line = "ior -w";
  ior.began = "Mon Nov 30";
  ior.source = "ior.json";
  ior.rows.push_back({"write", 2, 1, 3, 0.1, 1e-17, 1.0 / 3.0, 5e-324, 6.02214076e23, kMax, 42});
  results.datapath.push_back(ior);
  MetadataImport md;
  md.group = "/metadata-imports/import-0000";
  md.tool = "mdtest";
  md.rows.push_back(
      {"file-stat", "File stat", 4, 2, 5, 123456789.123456789, 0.30000000000000004, 2.0, 0.0, 0.25});
  results.metadata_imports.push_back(md);

  const json doc = json::parse(toJson(results));
  const json& d = field(doc, "datapath").at(0);
  expectString(d, "group", "/datapath/import-0000");
  expectString(d, "tool", "ior");
  expectString(d, "tool_version", "4.1.0");
  expectString(d, "command_line", "ior -w");
  expectString(d, "began", "Mon Nov 30");
  expectString(d, "source", "ior.json");
  const json& row = field(d, "results").at(0);
  expectString(row, "operation", "write");
  expectUint(row, "clients", 2);
  expectUint(row, "nodes", 1);
  expectUint(row, "iterations", 3);
  expectDouble(row, "mib_per_s_max", 0.1);
  expectDouble(row, "mib_per_s_min", 1e-17);
  expectDouble(row, "mib_per_s_mean", 1.0 / 3.0);
  expectDouble(row, "mib_per_s_stddev", 5e-324);
  expectDouble(row, "ops_per_s_mean", 6.02214076e23);
  expectUint(row, "transfer_bytes", kMax);
  expectUint(row, "block_bytes", 42);
  const json& m = field(doc, "metadata_imports").at(0);
  expectString(m, "tool", "mdtest");
  const json& mrow = field(m, "results").at(0);
  expectString(mrow, "phase", "file-stat");
  expectString(mrow, "operation", "File stat");
  expectUint(mrow, "ranks", 4);
  expectUint(mrow, "nodes", 2);
  expectUint(mrow, "iterations", 5);
  expectDouble(mrow, "ops_per_s_max", 123456789.123456789);
  expectDouble(mrow, "ops_per_s_min", 0.30000000000000004);
  expectDouble(mrow, "ops_per_s_mean", 2.0);
  expectDouble(mrow, "ops_per_s_stddev", 0.0);
  expectDouble(mrow, "time_s_mean", 0.25);
}

}  // namespace
}  // namespace mdbench::export_test
