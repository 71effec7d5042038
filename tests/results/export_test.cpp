// Tests of `mdbench export` on a real results file: written by Hdf5Sink, validated, read back and exported
// to JSON and CSV. Hand-made results: export_json_test.cpp and export_csv_test.cpp.
#include "mdbench/results/export.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "export_fixture.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/stats.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"

namespace mdbench::export_test {
namespace {

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
    // Over time (0.1 s intervals): rank 0 does everything in its one interval, rank 1 half in each of two.
    result.series.interval_s = plan.config().series_interval_s;
    result.series.intervals = 2;
    const auto ok0 = static_cast<std::uint32_t>(result.ranks[0].ok);
    const auto ok1 = static_cast<std::uint32_t>(result.ranks[1].ok);
    result.series.per_rank = {ok0, 0, (ok1 + 1) / 2, ok1 / 2};
    result.series.total = {ok0 + (ok1 + 1) / 2, ok1 / 2};
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
  config.phases = {.create = true,
                   .stat = false,
                   .read = false,
                   .remove = true,
                   .rename = true,
                   .readdir = true,
                   .file_rename = true};
  config.stonewall_s = 0.0625;
  config.command_line = "mdbench -n 3 -u -F -C -r -U --readdir --file-rename -W 0.0625";
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
  expectBool(j["config"], "phase_file_rename", true);
  expectDouble(j["config"], "stonewall_s", 0.0625);
  expectUint(j["config"], "shift_used", 0);
  expectString(j["config"], "targets", "");
  expectDouble(j["config"], "series_interval_s", 0.1);

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
    const DoneRates done = doneRates(written.ranks, written.series);
    expectDouble(p, "first_done_time_s", done.first_done_time_s);
    expectUint(p, "first_done_ops", done.first_done_ops);
    expectDouble(p, "first_done_ops_per_s", done.first_done_ops_per_s);
    expectDouble(p, "last_done_time_s", done.last_done_time_s);
    expectDouble(p, "last_done_ops_per_s", done.last_done_ops_per_s);
    expectDouble(p, "interval_s", 0.1);
    EXPECT_EQ(p["ops_per_interval_total"], json(written.series.total));
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
  // First done: rank 0 after 0.1 s with its 3 ops, rank 1 its first interval's 2; last done after 0.2 s.
  // (Near, not equal: the times are differences of numbers around 1.2e8.)
  ASSERT_EQ(create0.size(), 34u);
  EXPECT_NEAR(std::stod(create0[21]), 0.1, 1e-6);
  EXPECT_EQ(create0[22], "5");
  EXPECT_NEAR(std::stod(create0[23]), 50.0, 1e-3);
  EXPECT_NEAR(std::stod(create0[24]), 0.2, 1e-6);
  EXPECT_NEAR(std::stod(create0[25]), 30.0, 1e-3);
  EXPECT_EQ(create0[26], std::to_string(plan.ranks()));  // the run's ranks; not a sweep step
  EXPECT_EQ(create0[27], "0");
  EXPECT_EQ(create0[33], "1");  // 3 ops per rank in 0.2 s: too short to time
}

}  // namespace
}  // namespace mdbench::export_test
