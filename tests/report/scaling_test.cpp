// The report model: runs and imports pooled into series by rank count, and the shape formulas (peak,
// saturation, pooled summaries) it is drawn with.
#include "mdbench/report/scaling.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "mdbench/model/metrics.hpp"
#include "mdbench/model/stats.hpp"

namespace mdbench {
namespace {

StoredPhase phase(Phase which, std::uint32_t iteration, double ops_per_s, std::uint64_t ok,
                  std::uint64_t latency_ns) {
  StoredPhase p;
  p.phase = which;
  p.iteration = iteration;
  p.aggregate.ok = ok;
  p.aggregate.ops_per_s = ops_per_s;
  p.latency.counts()[LatencyHistogram::bucketOf(latency_ns)] = ok;
  return p;
}

StoredRun run(std::uint32_t ranks, std::vector<StoredPhase> phases, const std::string& status = "complete") {
  StoredRun r;
  r.group = "/runs/run-0000";
  r.info.ranks = ranks;
  r.info.nodes = 1;
  r.status = status;
  r.exit_status = status == "complete" ? 0 : 1;
  r.phases = std::move(phases);
  return r;
}

TEST(Scaling, PoolsIterationsOfEveryRunAtOneRankCount) {
  StoredResults a, b;
  a.runs.push_back(
      run(1, {phase(Phase::kFileCreate, 0, 100.0, 10, 1000), phase(Phase::kFileCreate, 1, 200.0, 10, 1000)}));
  a.runs.push_back(run(2, {phase(Phase::kFileCreate, 0, 300.0, 20, 5000)}));
  b.runs.push_back(run(1, {phase(Phase::kFileCreate, 0, 300.0, 10, 100000)}));  // another job, same count
  const Configuration c = buildConfiguration("cfg", {"a.h5", "b.h5"}, {a, b});
  ASSERT_EQ(c.series.size(), 1u);
  const Series& s = c.series[0];
  EXPECT_EQ(s.name, "file-create");
  EXPECT_EQ(s.unit, "ops/s");
  EXPECT_EQ(s.x_unit, "ranks");
  ASSERT_EQ(s.points.size(), 2u);
  const ScalingPoint& one = s.points[0];
  EXPECT_EQ(one.ranks, 1u);
  EXPECT_EQ(one.iterations, 3u);
  EXPECT_DOUBLE_EQ(one.mean, 200.0);
  EXPECT_DOUBLE_EQ(one.min, 100.0);
  EXPECT_DOUBLE_EQ(one.max, 300.0);
  EXPECT_DOUBLE_EQ(one.stddev, 100.0);
  EXPECT_EQ(one.ok, 30u);
  ASSERT_TRUE(one.has_latency);
  // 20 of 30 ops at 1 us, 10 at 100 us: the median is in the 1 us bucket, p90 in the 100 us one.
  EXPECT_EQ(one.latency.p50_ns, LatencyHistogram::bucketHigh(LatencyHistogram::bucketOf(1000)));
  EXPECT_EQ(one.latency.p90_ns, LatencyHistogram::bucketHigh(LatencyHistogram::bucketOf(100000)));
  EXPECT_EQ(s.points[1].ranks, 2u);
  EXPECT_EQ(s.at(2), &s.points[1]);
  EXPECT_EQ(s.at(4), nullptr);
  EXPECT_TRUE(c.notes.empty());
}

TEST(Scaling, SeriesInPhaseOrderThenDataPathByName) {
  StoredResults r;
  r.runs.push_back(run(1, {phase(Phase::kFileStat, 0, 5.0, 1, 10), phase(Phase::kDirCreate, 0, 5.0, 1, 10)}));
  DataPathImport ior;
  ior.tool = "ior";
  ior.rows.push_back({"write", 4, 1, 2, 900.0, 700.0, 800.0, 141.4, 0.0, 0, 0});
  ior.rows.push_back({"read", 4, 1, 2, 2000.0, 1000.0, 1500.0, 707.1, 0.0, 0, 0});
  r.datapath.push_back(ior);
  MetadataImport mdtest;
  mdtest.tool = "mdtest";
  mdtest.rows.push_back({"tree-create", "Tree creation", 8, 2, 3, 30.0, 10.0, 20.0, 10.0, 0.0});
  mdtest.rows.push_back({"", "Some new operation", 8, 2, 1, 1.0, 1.0, 1.0, 0.0, 0.0});
  r.metadata_imports.push_back(mdtest);
  const Configuration c = buildConfiguration("x", {"r.h5"}, {r});
  std::vector<std::string> names;
  for (const Series& s : c.series) names.push_back(s.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"tree-create", "dir-create", "file-stat", "ior:read", "ior:write"}));
  const Series* write = c.find("ior:write");
  ASSERT_NE(write, nullptr);
  EXPECT_EQ(write->kind, SeriesKind::kDataPath);
  EXPECT_EQ(write->unit, "MiB/s");
  EXPECT_EQ(write->x_unit, "clients");
  ASSERT_EQ(write->points.size(), 1u);
  EXPECT_DOUBLE_EQ(write->points[0].mean, 800.0);
  EXPECT_EQ(write->points[0].iterations, 2u);
  EXPECT_FALSE(write->points[0].has_latency);
  const ScalingPoint& tree = c.find("tree-create")->points[0];
  EXPECT_EQ(tree.ranks, 8u);
  EXPECT_EQ(tree.nodes, 2u);
  EXPECT_DOUBLE_EQ(tree.stddev, 10.0);
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_EQ(c.notes[0], "r.h5: mdtest operation 'Some new operation' has no mdbench phase; not shown");
}

TEST(Scaling, NotesUnfinishedAndFailedRunsAndPooledTools) {
  StoredResults r;
  r.runs.push_back(run(2, {phase(Phase::kFileCreate, 0, 100.0, 10, 10)}, "running"));
  r.runs.push_back(run(4, {phase(Phase::kFileCreate, 0, 100.0, 10, 10)}, "failed"));
  MetadataImport mdtest;
  mdtest.tool = "mdtest";
  mdtest.rows.push_back({"file-create", "File creation", 4, 1, 1, 300.0, 300.0, 300.0, 0.0, 0.0});
  r.metadata_imports.push_back(mdtest);
  const Configuration c = buildConfiguration("x", {"r.h5"}, {r});
  ASSERT_EQ(c.notes.size(), 3u);
  EXPECT_EQ(c.notes[0],
            "r.h5 /runs/run-0000 (2 ranks) did not finish (killed?): only its finished phases are shown");
  EXPECT_EQ(
      c.notes[1],
      "r.h5 /runs/run-0000 (4 ranks) ended with status failed (exit 1): failed ops are not in any rate");
  EXPECT_EQ(c.notes[2], "file-create: mdbench runs and imported results at the same rank count are pooled");
  const ScalingPoint* four = c.find("file-create")->at(4);
  ASSERT_NE(four, nullptr);
  EXPECT_EQ(four->iterations, 2u);
  EXPECT_DOUBLE_EQ(four->mean, 200.0);
}

TEST(Scaling, IozoneOpsOutputIsNotAMiBPoint) {
  StoredResults r;
  DataPathImport iozone;
  iozone.tool = "iozone";
  iozone.source = "iozone-O.txt";
  iozone.rows.push_back({"initial-write", 2, 0, 1, 0.0, 0.0, 0.0, 0.0, 51234.5, 65536, 4194304});
  r.datapath.push_back(iozone);
  const Configuration c = buildConfiguration("x", {"r.h5"}, {r});
  EXPECT_TRUE(c.series.empty());
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_EQ(c.notes[0], "r.h5: iozone iozone-O.txt reported ops/s, not bandwidth: not shown in MiB/s");
}

TEST(ScalingShape, PeakAndSaturation) {
  const std::vector<double> rising = {100, 200, 400};
  ScalingShape s = scalingShape(rising);
  EXPECT_EQ(s.peak, 2u);
  EXPECT_FALSE(s.saturated);  // still scaling at the last point

  const std::vector<double> knee = {100, 190, 280, 300};  // 280 >= 0.9 * 300, and 8 ranks were measured
  s = scalingShape(knee);
  EXPECT_EQ(s.peak, 3u);
  EXPECT_TRUE(s.saturated);
  EXPECT_EQ(s.saturation, 2u);

  const std::vector<double> falling = {100, 400, 350, 200};
  s = scalingShape(falling);
  EXPECT_EQ(s.peak, 1u);
  EXPECT_TRUE(s.saturated);
  EXPECT_EQ(s.saturation, 1u);

  EXPECT_FALSE(scalingShape(std::vector<double>{5.0}).saturated);
  EXPECT_FALSE(scalingShape(std::vector<double>{0.0, 0.0}).saturated);
  EXPECT_EQ(scalingShape(std::vector<double>{}).peak, 0u);
}

TEST(ScalingShape, PoolMatchesOneSummaryOfAllIterations) {
  const std::vector<double> all = {1.0, 4.0, 9.0, 16.0, 25.0};
  const IterationSummary whole = summarize(all);
  const IterationSummary pooled =
      pool(summarize(std::vector<double>{1.0, 4.0}), summarize(std::vector<double>{9.0, 16.0, 25.0}));
  EXPECT_EQ(pooled.iterations, 5u);
  EXPECT_DOUBLE_EQ(pooled.mean, whole.mean);
  EXPECT_NEAR(pooled.stddev, whole.stddev, 1e-12);
  EXPECT_DOUBLE_EQ(pooled.min, 1.0);
  EXPECT_DOUBLE_EQ(pooled.max, 25.0);
  const IterationSummary empty;
  EXPECT_DOUBLE_EQ(pool(empty, whole).mean, whole.mean);
  double ratio = 0.0;
  EXPECT_TRUE(ratioToBaseline(150.0, 100.0, ratio));
  EXPECT_DOUBLE_EQ(ratio, 1.5);
  EXPECT_FALSE(ratioToBaseline(150.0, 0.0, ratio));
}

}  // namespace
}  // namespace mdbench
