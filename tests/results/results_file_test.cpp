// The results file: what Hdf5Sink writes, readResultsFile reads back exactly; unfinished and killed runs;
// what the reader and the sink say when something is wrong. Output modes: results_output_modes_test.cpp;
// the bytes on disk and a foreign reader: results_format_test.cpp.
#include "mdbench/results/results_file.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "mdbench/model/metrics.hpp"
#include "mdbench/model/plan.hpp"
#include "results_fixture.hpp"
#include "stored_rows.hpp"

namespace mdbench::results_test {
namespace {

bool linkExists(const std::string& path, const std::string& object) {
  bool found = false;
  withRawFile(path, [&](hid_t file) { found = H5Lexists(file, object.c_str(), H5P_DEFAULT) > 0; });
  return found;
}

// ---- Expectations ----

void expectRank(const RankPhaseRecord& row, std::uint32_t rank, const RankPhaseRecord& r, double rate) {
  SCOPED_TRACE(rank);
  EXPECT_EQ(row.planned, r.planned);
  EXPECT_EQ(row.ok, r.ok);
  EXPECT_EQ(row.failed, r.failed);
  EXPECT_EQ(row.bytes, r.bytes);
  EXPECT_EQ(row.t_start, r.t_start);
  EXPECT_EQ(row.t_local_end, r.t_local_end);
  EXPECT_EQ(row.t_global_end, r.t_global_end);
  EXPECT_EQ(rankRate(row), rate);
  EXPECT_EQ(row.ops_at_stonewall, r.ops_at_stonewall);
  EXPECT_EQ(row.t_stonewall, r.t_stonewall);
}

void expectRanks(const StoredPhase& stored, const PhaseResult& written, std::vector<double> rates) {
  ASSERT_EQ(stored.ranks.size(), 3u);
  for (std::uint32_t r = 0; r < 3; ++r) expectRank(stored.ranks[r], r, written.ranks[r], rates[r]);
}

// The columns the writer stores beside each rank's record, which the reader does not keep: in every phase
// of the run, each row's rank, its node (hosts node-a, node-b, node-a: nodes 0, 1, 0) and rankRate of the
// record read back (expectRanks checks those rates).
void expectDerivedColumns(const std::string& path, const StoredRun& run) {
  const std::uint32_t nodes[] = {0, 1, 0};
  for (const StoredPhase& p : run.phases) {
    SCOPED_TRACE(p.group);
    const std::vector<results::RankRow> rows = storedRankRows(path, p.group);
    ASSERT_EQ(rows.size(), 3u);
    ASSERT_EQ(p.ranks.size(), 3u);
    for (std::uint32_t r = 0; r < 3; ++r) {
      EXPECT_EQ(rows[r].rank, r);
      EXPECT_EQ(rows[r].node, nodes[r]);
      EXPECT_EQ(rows[r].rate, rankRate(p.ranks[r]));
    }
  }
}

void expectLatency(const StoredPhase& stored, const LatencyHistogram& written) {
  for (std::size_t b = 0; b < LatencyHistogram::kBuckets; ++b)
    EXPECT_EQ(stored.latency.counts()[b], written.counts()[b]) << b;
}

void expectInfo(const RunInfo& got, const RunInfo& want) {
  EXPECT_EQ(got.version, want.version);
  EXPECT_EQ(got.git_commit, want.git_commit);
  EXPECT_EQ(got.command_line, want.command_line);
  EXPECT_EQ(got.target, want.target);
  EXPECT_EQ(got.start_utc, want.start_utc);
  EXPECT_EQ(got.end_utc, want.end_utc);
  EXPECT_EQ(got.ranks, want.ranks);
  EXPECT_EQ(got.nodes, want.nodes);
  EXPECT_EQ(got.host_of_rank, want.host_of_rank);
  EXPECT_EQ(got.fs_type, want.fs_type);
  EXPECT_EQ(got.fs_total_bytes, want.fs_total_bytes);
  EXPECT_EQ(got.fs_free_bytes, want.fs_free_bytes);
  EXPECT_EQ(got.fs_total_inodes, want.fs_total_inodes);
  EXPECT_EQ(got.fs_free_inodes, want.fs_free_inodes);
  EXPECT_EQ(got.mpi_library, want.mpi_library);
  EXPECT_EQ(got.hdf5_version, want.hdf5_version);
  EXPECT_EQ(got.scheduler, want.scheduler);
  EXPECT_EQ(got.job_id, want.job_id);
  EXPECT_EQ(got.job_name, want.job_name);
}

void expectConfig(const Config& got, const Config& want) {
  EXPECT_EQ(got.items, want.items);
  EXPECT_EQ(got.target, want.target);
  EXPECT_EQ(got.sharing, want.sharing);
  EXPECT_EQ(got.depth, want.depth);
  EXPECT_EQ(got.branching, want.branching);
  EXPECT_EQ(got.items_per_dir, want.items_per_dir);
  EXPECT_EQ(got.leaf_only, want.leaf_only);
  EXPECT_EQ(got.kinds, want.kinds);
  EXPECT_EQ(got.phases.create, want.phases.create);
  EXPECT_EQ(got.phases.stat, want.phases.stat);
  EXPECT_EQ(got.phases.read, want.phases.read);
  EXPECT_EQ(got.phases.remove, want.phases.remove);
  EXPECT_EQ(got.iterations, want.iterations);
  EXPECT_EQ(got.write_bytes, want.write_bytes);
  EXPECT_EQ(got.read_bytes, want.read_bytes);
  EXPECT_EQ(got.keep, want.keep);
  EXPECT_EQ(got.command_line, want.command_line);
  EXPECT_EQ(got.targets, want.targets);
  EXPECT_EQ(got.shift, want.shift);
  EXPECT_EQ(got.random_order, want.random_order);
  EXPECT_EQ(got.random_seed, want.random_seed);
  EXPECT_EQ(got.stonewall_s, want.stonewall_s);
  EXPECT_EQ(got.stonewall_file, want.stonewall_file);
  EXPECT_EQ(got.renamed, want.renamed);
  EXPECT_EQ(got.fsync_writes, want.fsync_writes);
  EXPECT_EQ(got.sync_phases, want.sync_phases);
  EXPECT_EQ(got.verify_read, want.verify_read);
  EXPECT_EQ(got.shared_files, want.shared_files);
  EXPECT_EQ(got.pre_delay_s, want.pre_delay_s);
  EXPECT_EQ(got.preset, want.preset);
  EXPECT_EQ(got.phases.rename, want.phases.rename);
  EXPECT_EQ(got.phases.file_rename, want.phases.file_rename);
  EXPECT_EQ(got.phases.readdir, want.phases.readdir);
  EXPECT_EQ(got.series_interval_s, want.series_interval_s);
}

void expectSeries(const StoredPhase& stored, const PhaseResult& written) {
  EXPECT_TRUE(stored.has_series);
  EXPECT_EQ(stored.series.interval_s, written.series.interval_s);
  EXPECT_EQ(stored.series.intervals, written.series.intervals);
  EXPECT_EQ(stored.series.per_rank, written.series.per_rank);
  EXPECT_EQ(stored.series.total, written.series.total);
}

// file-create of iteration 0 (time_scale 1): ok 11 of 12, rates 2, 3, 4 over 4 s.
void expectFileCreate0(const StoredPhase& p, const PhaseResult& written) {
  EXPECT_EQ(p.group, "/runs/run-0000/iterations/iter-0000/file-create");
  EXPECT_EQ(p.phase, Phase::kFileCreate);
  EXPECT_EQ(p.iteration, 0u);
  // tree-create, file-create, file-stat, file-readdir, file-rename, file-remove, tree-remove
  EXPECT_EQ(p.order, 1u);
  EXPECT_EQ(p.items, 4u);
  EXPECT_EQ(p.aggregate.ok, 11u);
  EXPECT_EQ(p.aggregate.failed, 1u);
  EXPECT_EQ(p.aggregate.bytes, 1100u);
  EXPECT_EQ(p.aggregate.time_s, 4.0);
  EXPECT_EQ(p.aggregate.ops_per_s, 2.75);
  EXPECT_EQ(p.aggregate.active_ranks, 3u);
  EXPECT_EQ(p.aggregate.rank_rate_min, 2.0);
  EXPECT_EQ(p.aggregate.rank_rate_max, 4.0);
  EXPECT_EQ(p.aggregate.rank_rate_mean, 3.0);
  EXPECT_EQ(p.aggregate.balance, 0.5);
  EXPECT_FALSE(p.aggregate.stonewalled);
  EXPECT_EQ(p.aggregate.ops_at_stonewall, 0u);
  EXPECT_EQ(p.aggregate.stonewall_time_s, 0.0);
  EXPECT_EQ(p.aggregate.ops_per_s_at_stonewall, 0.0);
  EXPECT_EQ(p.rate_formula, "ops_ok / max(t_global_end - t_start)");
  // 5 ns once, 100 ns (bucket 100..103) 8 times, 1000 ns (bucket 992..1023) twice.
  EXPECT_EQ(p.latency_summary.p50_ns, 103u);
  EXPECT_EQ(p.latency_summary.p90_ns, 1023u);
  EXPECT_EQ(p.latency_summary.p99_ns, 1023u);
  EXPECT_EQ(p.latency_summary.p999_ns, 1023u);
  EXPECT_EQ(p.latency_summary.max_ns, 1023u);
  expectRanks(p, written, {2.0, 3.0, 4.0});
  expectLatency(p, written.latency);
  // Throughput over time, at 0.5 s: rank 0 one op per interval for 2 s, ranks 1 and 2 done after 1 s.
  expectSeries(p, written);
  EXPECT_EQ(p.series.intervals, 4u);
  EXPECT_EQ(p.series.per_rank, (std::vector<std::uint32_t>{1, 1, 1, 1, 2, 1, 0, 0, 3, 1, 0, 0}));
  EXPECT_EQ(p.series.total, (std::vector<std::uint64_t>{6, 3, 1, 1}));
  // First done after 1 s (ranks 1 and 2: 7 ops; rank 0: its first 2 intervals, 2 ops); last done after 2 s.
  EXPECT_EQ(p.done.first_done_time_s, 1.0);
  EXPECT_EQ(p.done.first_done_ops, 9u);
  EXPECT_EQ(p.done.first_done_ops_per_s, 9.0);
  EXPECT_EQ(p.done.last_done_time_s, 2.0);
  EXPECT_EQ(p.done.last_done_ops_per_s, 5.5);
  EXPECT_EQ(p.latency.counts()[5], 1u);
  EXPECT_EQ(p.latency.counts()[57], 8u);
  EXPECT_EQ(p.latency.counts()[111], 2u);
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_EQ(p.errors[0].rank, 1u);
  EXPECT_EQ(p.errors[0].err, EEXIST);
  EXPECT_EQ(p.errors[0].errno_name, "EEXIST");
  EXPECT_EQ(p.errors[0].path,
            "/scratch/other/mdbench.iter.0/mdbench_tree.1.0/mdbench_tree.1.2/file.mdbench.1.3");  // rank 1
}

// file-stat: 12 ops in 2 / time_scale s, every rank at 4 ops/s, every latency 50 ns (bucket 50..51).
void expectFileStat(const StoredPhase& p, const PhaseResult& written, std::uint32_t iteration,
                    double ops_per_s) {
  SCOPED_TRACE(iteration);
  EXPECT_EQ(p.group, fmt::format("/runs/run-0000/iterations/iter-000{}/file-stat", iteration));
  EXPECT_EQ(p.phase, Phase::kFileStat);
  EXPECT_EQ(p.iteration, iteration);
  EXPECT_EQ(p.order, 2u);
  EXPECT_EQ(p.items, 4u);
  EXPECT_EQ(p.aggregate.ops_per_s, ops_per_s);
  EXPECT_EQ(p.aggregate.rank_rate_min, iteration == 1 ? 3.0 : 4.0);
  EXPECT_EQ(p.aggregate.rank_rate_max, 4.0);
  EXPECT_EQ(p.latency_summary.p50_ns, 51u);
  EXPECT_EQ(p.latency_summary.max_ns, 51u);
  expectRanks(p, written, {4.0, 4.0, iteration == 1 ? 3.0 : 4.0});
  expectLatency(p, written.latency);
  expectSeries(p, written);
  EXPECT_EQ(p.series.total, (std::vector<std::uint64_t>{6, iteration == 1 ? 5u : 6u}));
  // Every rank took 1 s: first and last done at once, with every op.
  EXPECT_EQ(p.done.first_done_time_s, 1.0);
  EXPECT_EQ(p.done.first_done_ops, iteration == 1 ? 11u : 12u);
  EXPECT_EQ(p.done.last_done_time_s, 1.0);
}

// file-readdir: 8 of 9 directories listed as expected in 3 s; rank 2's wrong count is a failed op.
void expectFileReaddir(const StoredPhase& p, const PhaseResult& written) {
  EXPECT_EQ(p.group, "/runs/run-0000/iterations/iter-0000/file-readdir");
  EXPECT_EQ(p.phase, Phase::kFileReaddir);
  EXPECT_EQ(p.order, 3u);
  EXPECT_EQ(p.items, 4u);
  EXPECT_EQ(p.aggregate.ok, 8u);
  EXPECT_EQ(p.aggregate.failed, 1u);
  EXPECT_EQ(p.aggregate.time_s, 3.0);
  EXPECT_EQ(p.aggregate.ops_per_s, 8.0 / 3.0);
  EXPECT_FALSE(p.aggregate.stonewalled);
  expectRanks(p, written, {3.0, 2.0, 1.0});
  expectLatency(p, written.latency);
  expectSeries(p, written);
  // First done: rank 0 after 1 s (3 ops), rank 1 its first 2 intervals (2), rank 2 its first 2 (1).
  EXPECT_EQ(p.done.first_done_ops, 6u);
  EXPECT_EQ(p.done.first_done_ops_per_s, 6.0);
  EXPECT_EQ(p.done.last_done_time_s, 2.0);
  EXPECT_EQ(p.done.last_done_ops_per_s, 4.0);
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_EQ(p.errors[0].rank, 2u);
  EXPECT_EQ(p.errors[0].err, EBADMSG);
  EXPECT_EQ(p.errors[0].errno_name, "EBADMSG");
  // Rank 2 works in the first target (rank mod 2 targets); the directory whose count was wrong.
  EXPECT_EQ(p.errors[0].path, "/scratch/run/mdbench.iter.0/mdbench_tree.2.0/mdbench_tree.2.1");
}

// file-rename: 12 renames in 4 s.
void expectFileRename(const StoredPhase& p, const PhaseResult& written) {
  EXPECT_EQ(p.group, "/runs/run-0000/iterations/iter-0000/file-rename");
  EXPECT_EQ(p.phase, Phase::kFileRename);
  EXPECT_EQ(p.order, 4u);
  EXPECT_EQ(p.aggregate.ok, 12u);
  EXPECT_EQ(p.aggregate.ops_per_s, 3.0);
  expectRanks(p, written, {2.0, 2.0, 2.0});
  expectSeries(p, written);
  EXPECT_TRUE(p.errors.empty());
}

// file-create of iteration 1 (time_scale 2): the stonewall fired on ranks 0 and 2.
void expectStonewalledFileCreate1(const StoredPhase& p, const PhaseResult& written) {
  EXPECT_EQ(p.group, "/runs/run-0000/iterations/iter-0001/file-create");
  EXPECT_EQ(p.iteration, 1u);
  EXPECT_EQ(p.order, 1u);
  EXPECT_EQ(p.items, 4u);
  EXPECT_EQ(p.aggregate.time_s, 2.0);
  EXPECT_EQ(p.aggregate.ops_per_s, 5.5);
  EXPECT_TRUE(p.aggregate.stonewalled);
  EXPECT_EQ(p.aggregate.ops_at_stonewall, 9u);
  EXPECT_EQ(p.aggregate.stonewall_time_s, 1.0);
  EXPECT_EQ(p.aggregate.ops_per_s_at_stonewall, 9.0);
  expectRanks(p, written, {2.0, 3.0, 4.0});
  expectSeries(p, written);
  EXPECT_EQ(p.done.first_done_ops, 9u);  // the same ops at the same times as in iteration 0
  EXPECT_EQ(p.ranks[0].t_stonewall, 2.0);
  EXPECT_EQ(p.ranks[1].t_stonewall, 0.0);
  EXPECT_EQ(p.ranks[1].ops_at_stonewall, 4u);
}

// ---- Tests ----

TEST(ResultsFile, RunGroupNamesAreZeroPaddedToFourDigits) {
  EXPECT_EQ(runGroupName(0), "run-0000");
  EXPECT_EQ(runGroupName(1), "run-0001");
  EXPECT_EQ(runGroupName(9999), "run-9999");
  EXPECT_EQ(runGroupName(12345), "run-12345");
}

TEST(ResultsFile, WhatIsWrittenReadsBackExactly) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  const SyntheticRun run;
  EXPECT_EQ(writeRun(path, OutputMode::kCreate, run, 1), "/runs/run-0000");

  const StoredResults stored = readResultsFile(path);
  EXPECT_EQ(stored.schema, "mdbench-results");
  EXPECT_EQ(stored.schema_version, kSchemaVersion);
  ASSERT_EQ(stored.runs.size(), 1u);
  const StoredRun& r = stored.runs[0];
  EXPECT_EQ(r.group, "/runs/run-0000");
  EXPECT_TRUE(r.has_series);
  expectInfo(r.info, run.result.info);
  expectConfig(r.config, run.config);
  EXPECT_EQ(r.shift_used, 0u);
  EXPECT_EQ(r.status, "failed");
  EXPECT_EQ(r.exit_status, 1);
  EXPECT_EQ(r.ranks_per_node_min, 1u);
  EXPECT_EQ(r.ranks_per_node_max, 2u);
  EXPECT_EQ(r.node_of_rank, (std::vector<std::uint32_t>{0, 1, 0}));
  ASSERT_EQ(r.bucket_low.size(), LatencyHistogram::kBuckets);
  ASSERT_EQ(r.bucket_high.size(), LatencyHistogram::kBuckets);
  EXPECT_EQ(r.bucket_low[0], 0u);
  EXPECT_EQ(r.bucket_high[15], 15u);
  EXPECT_EQ(r.bucket_low[57], 100u);
  EXPECT_EQ(r.bucket_high[57], 103u);
  EXPECT_EQ(r.bucket_low[591], std::uint64_t{31} << 35);  // 2^39 + 15 x 2^35
  EXPECT_EQ(r.bucket_high[591], ~std::uint64_t{0});

  ASSERT_EQ(r.phases.size(), 6u);
  const std::vector<PhaseResult>& written = run.result.phases;
  expectDerivedColumns(path, r);
  expectFileCreate0(r.phases[0], written[0]);
  expectFileStat(r.phases[1], written[1], 0, 6.0);
  EXPECT_TRUE(r.phases[1].errors.empty());
  expectFileReaddir(r.phases[2], written[2]);
  expectFileRename(r.phases[3], written[3]);
  expectStonewalledFileCreate1(r.phases[4], written[4]);
  expectFileStat(r.phases[5], written[5], 1, 2.75);
  ASSERT_EQ(r.phases[5].errors.size(), 1u);
  EXPECT_EQ(r.phases[5].errors[0].rank, 2u);
  EXPECT_EQ(r.phases[5].errors[0].err, ENOENT);
  EXPECT_EQ(r.phases[5].errors[0].errno_name, "ENOENT");
  EXPECT_EQ(r.phases[5].errors[0].path, "/scratch/run/mdbench.iter.1/mdbench_tree.2.0/mdbench_tree.2.1");

  // errors exists only where an operation failed.
  EXPECT_TRUE(linkExists(path, "/runs/run-0000/iterations/iter-0000/file-create/errors"));
  EXPECT_FALSE(linkExists(path, "/runs/run-0000/iterations/iter-0000/file-stat/errors"));

  ASSERT_TRUE(r.has_summary);
  ASSERT_EQ(r.summaries.size(), 4u);  // the phases that ran, in execution order
  EXPECT_EQ(r.summaries[0].phase, Phase::kFileCreate);
  EXPECT_EQ(r.summaries[0].summary.iterations, 2u);
  EXPECT_EQ(r.summaries[0].summary.max, 5.5);
  EXPECT_EQ(r.summaries[0].summary.min, 2.75);
  EXPECT_EQ(r.summaries[0].summary.mean, 4.125);
  EXPECT_DOUBLE_EQ(r.summaries[0].summary.stddev, 2.75 / std::sqrt(2.0));
  EXPECT_EQ(r.summaries[1].phase, Phase::kFileStat);
  EXPECT_EQ(r.summaries[1].summary.iterations, 2u);
  EXPECT_EQ(r.summaries[1].summary.max, 6.0);
  EXPECT_EQ(r.summaries[1].summary.min, 2.75);
  EXPECT_EQ(r.summaries[1].summary.mean, 4.375);
  EXPECT_DOUBLE_EQ(r.summaries[1].summary.stddev, 3.25 / std::sqrt(2.0));
  EXPECT_EQ(r.summaries[2].phase, Phase::kFileReaddir);
  EXPECT_EQ(r.summaries[2].summary.iterations, 1u);
  EXPECT_EQ(r.summaries[2].summary.mean, 8.0 / 3.0);
  EXPECT_EQ(r.summaries[2].summary.stddev, 0.0);
  EXPECT_EQ(r.summaries[3].phase, Phase::kFileRename);
  EXPECT_EQ(r.summaries[3].summary.max, 3.0);
}

// The series as HDF5 holds it, for readers other than ours: a uint32 [ranks][intervals] dataset with its
// interval, a uint64 [intervals] total, and the five first/last-done attributes of the phase.
TEST(ResultsFile, ThroughputOverTimeInTheFile) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  writeRun(path, OutputMode::kCreate, SyntheticRun{}, 1);
  withRawFile(path, [](hid_t file) {
    const std::string group = "/runs/run-0000/iterations/iter-0000/file-readdir";
    const hid_t counts = H5Dopen2(file, (group + "/ops_per_interval").c_str(), H5P_DEFAULT);
    ASSERT_GE(counts, 0);
    const hid_t type = H5Dget_type(counts);
    EXPECT_TRUE(H5Tequal(type, H5T_STD_U32LE) > 0);
    H5Tclose(type);
    const hid_t space = H5Dget_space(counts);
    hsize_t dims[2] = {0, 0};
    EXPECT_EQ(H5Sget_simple_extent_ndims(space), 2);
    H5Sget_simple_extent_dims(space, dims, nullptr);
    H5Sclose(space);
    EXPECT_EQ(dims[0], 3u);
    EXPECT_EQ(dims[1], 4u);
    std::vector<std::uint32_t> values(12);
    EXPECT_GE(H5Dread(counts, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
    EXPECT_EQ(values, (std::vector<std::uint32_t>{2, 1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 1}));
    double interval = 0.0;
    const hid_t attribute = H5Aopen(counts, "interval_s", H5P_DEFAULT);
    EXPECT_GE(H5Aread(attribute, H5T_NATIVE_DOUBLE, &interval), 0);
    H5Aclose(attribute);
    EXPECT_EQ(interval, 0.5);
    H5Dclose(counts);

    const hid_t total = H5Dopen2(file, (group + "/ops_per_interval_total").c_str(), H5P_DEFAULT);
    ASSERT_GE(total, 0);
    const hid_t total_type = H5Dget_type(total);
    EXPECT_TRUE(H5Tequal(total_type, H5T_STD_U64LE) > 0);
    H5Tclose(total_type);
    std::vector<std::uint64_t> sums(4);
    EXPECT_GE(H5Dread(total, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, sums.data()), 0);
    EXPECT_EQ(sums, (std::vector<std::uint64_t>{4, 2, 1, 1}));
    H5Dclose(total);

    const auto number = [&](const char* name, hid_t memory_type, void* out) {
      const hid_t a = H5Aopen_by_name(file, group.c_str(), name, H5P_DEFAULT, H5P_DEFAULT);
      EXPECT_GE(a, 0) << name;
      EXPECT_GE(H5Aread(a, memory_type, out), 0) << name;
      H5Aclose(a);
    };
    double first_time = 0, first_rate = 0, last_time = 0, last_rate = 0, config_interval = 0;
    std::uint64_t first_ops = 0;
    number("first_done_time_s", H5T_NATIVE_DOUBLE, &first_time);
    number("first_done_ops", H5T_NATIVE_UINT64, &first_ops);
    number("first_done_ops_per_s", H5T_NATIVE_DOUBLE, &first_rate);
    number("last_done_time_s", H5T_NATIVE_DOUBLE, &last_time);
    number("last_done_ops_per_s", H5T_NATIVE_DOUBLE, &last_rate);
    EXPECT_EQ(first_time, 1.0);
    EXPECT_EQ(first_ops, 6u);
    EXPECT_EQ(first_rate, 6.0);
    EXPECT_EQ(last_time, 2.0);
    EXPECT_EQ(last_rate, 4.0);
    const hid_t a =
        H5Aopen_by_name(file, "/runs/run-0000/config", "series_interval_s", H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(H5Aread(a, H5T_NATIVE_DOUBLE, &config_interval), 0);
    H5Aclose(a);
    EXPECT_EQ(config_interval, 0.5);
  });
}

// A phase in which no op succeeded has no intervals: ops_per_interval is [ranks][0] (validate_test.cpp: and
// such a file is valid).
TEST(ResultsFile, APhaseWithoutOpsHasAnEmptySeries) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  SyntheticRun run;
  PhaseResult& stat = run.result.phases[1];
  for (std::uint32_t r = 0; r < 3; ++r) {
    stat.ranks[r] = record(0, 4, 0, 10.0, 11.0, 12.0);
    stat.ranks[r].first_error = {.err = ENOENT, .owner = r, .dir = 1, .item = 0};
  }
  stat.latency = LatencyHistogram{};
  stat.series = OpsSeries{0.5, 0, {}, {}};
  writeRun(path, OutputMode::kCreate, run, 1);
  withRawFile(path, [](hid_t file) {
    const hid_t counts =
        H5Dopen2(file, "/runs/run-0000/iterations/iter-0000/file-stat/ops_per_interval", H5P_DEFAULT);
    ASSERT_GE(counts, 0);
    const hid_t space = H5Dget_space(counts);
    hsize_t dims[2] = {9, 9};
    EXPECT_EQ(H5Sget_simple_extent_ndims(space), 2);
    H5Sget_simple_extent_dims(space, dims, nullptr);
    EXPECT_EQ(dims[0], 3u);
    EXPECT_EQ(dims[1], 0u);
    H5Sclose(space);
    H5Dclose(counts);
  });
  const StoredResults stored = readResultsFile(path);
  const StoredPhase& p = stored.runs.at(0).phases.at(1);
  EXPECT_TRUE(p.has_series);
  EXPECT_EQ(p.series.intervals, 0u);
  EXPECT_TRUE(p.series.per_rank.empty());
  EXPECT_TRUE(p.series.total.empty());
  EXPECT_EQ(p.done.first_done_time_s, 1.0);
  EXPECT_EQ(p.done.first_done_ops, 0u);
  EXPECT_EQ(p.done.last_done_ops_per_s, 0.0);
}

TEST(ResultsFile, StatusIsCompleteForExitZero) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  writeRun(path, OutputMode::kCreate, SyntheticRun{}, 0);
  const StoredRun r = readResultsFile(path).runs.at(0);
  EXPECT_EQ(r.status, "complete");
  EXPECT_EQ(r.exit_status, 0);
}

// -N 1 with 4 ranks in blocks of 2 per node would leave ranks 0 and 2 on their own node's items: the plan
// uses shift 2, and the file keeps both. No -d: no targets, and the targets attribute is "".
TEST(ResultsFile, ShiftAsGivenAndShiftUsedAreBothKept) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  Config config = testConfig();
  config.shift = 1;
  config.target.clear();
  config.targets.clear();
  const Plan plan(config, std::vector<std::uint32_t>{0, 0, 1, 1});
  ASSERT_EQ(plan.shift(), 2u);
  RunInfo info = testInfo();
  info.ranks = 4;
  info.host_of_rank = {"node-a", "node-a", "node-b", "node-b"};
  {
    bool exists_error = false;
    auto sink = Hdf5Sink::open(path, OutputMode::kCreate, exists_error);
    sink->begin(info, plan);
    sink->finish(0);
  }
  const StoredRun r = readResultsFile(path).runs.at(0);
  EXPECT_EQ(r.config.shift, 1u);
  EXPECT_EQ(r.shift_used, 2u);
  EXPECT_EQ(r.config.target, "");
  EXPECT_TRUE(r.config.targets.empty());
}

TEST(ResultsFile, AnUnfinishedRunReadsBackAsRunningWithItsPhases) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  const SyntheticRun run;
  {
    bool exists_error = false;
    auto sink = Hdf5Sink::open(path, OutputMode::kCreate, exists_error);
    sink->begin(run.result.info, run.plan);
    sink->phase(run.result.phases[0], run.plan);
    sink->phase(run.result.phases[1], run.plan);
  }  // destroyed without end() or finish(), as when the run aborts

  const StoredRun r = readResultsFile(path).runs.at(0);
  EXPECT_EQ(r.status, "running");
  EXPECT_EQ(r.exit_status, -1);
  EXPECT_EQ(r.info.end_utc, "");
  ASSERT_EQ(r.phases.size(), 2u);
  expectDerivedColumns(path, r);
  expectFileCreate0(r.phases[0], run.result.phases[0]);
  expectFileStat(r.phases[1], run.result.phases[1], 0, 6.0);
  EXPECT_FALSE(r.has_summary);
  EXPECT_TRUE(r.summaries.empty());
}

TEST(ResultsFile, AKilledWriterLeavesEveryFlushedPhase) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  const SyntheticRun run;
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The child writes two phases and dies without closing anything, like a job killed by the scheduler.
    int code = 0;
    try {
      bool exists_error = false;
      auto sink = Hdf5Sink::open(path, OutputMode::kCreate, exists_error);
      sink->begin(run.result.info, run.plan);
      sink->phase(run.result.phases[0], run.plan);
      sink->phase(run.result.phases[1], run.plan);
      sink.release();  // never closed
    } catch (...) {
      code = 3;
    }
    _exit(code);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);

  const StoredRun r = readResultsFile(path).runs.at(0);
  EXPECT_EQ(r.status, "running");
  ASSERT_EQ(r.phases.size(), 2u);
  expectDerivedColumns(path, r);
  expectFileCreate0(r.phases[0], run.result.phases[0]);
  EXPECT_FALSE(r.has_summary);
}

TEST(ResultsFile, ReaderNamesTheFileAndTheObjectThatIsWrong) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  const auto fresh = [&] { writeRun(path, OutputMode::kForce, SyntheticRun{}, 0); };

  EXPECT_EQ(errorOf([&] { readResultsFile(dir.file("missing.h5")); }),
            dir.file("missing.h5") + ": no such file");

  fresh();
  withRawFile(path, [](hid_t file) {
    EXPECT_GE(H5Adelete_by_name(file, "runs/run-0000", "status", H5P_DEFAULT), 0);
  });
  EXPECT_EQ(errorOf([&] { readResultsFile(path); }),
            path + ": /runs/run-0000: attribute 'status' is missing");

  fresh();
  withRawFile(path, [](hid_t file) {
    EXPECT_GE(H5Adelete_by_name(file, "runs/run-0000", "status", H5P_DEFAULT), 0);
    const hid_t space = H5Screate(H5S_SCALAR);
    const std::uint32_t value = 0;
    const hid_t attribute = H5Acreate_by_name(file, "runs/run-0000", "status", H5T_STD_U32LE, space,
                                              H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(attribute, 0);
    EXPECT_GE(H5Awrite(attribute, H5T_NATIVE_UINT32, &value), 0);
    H5Aclose(attribute);
    H5Sclose(space);
  });
  EXPECT_EQ(errorOf([&] { readResultsFile(path); }),
            path + ": /runs/run-0000: attribute 'status' is uint32, expected string");

  fresh();
  withRawFile(path, [](hid_t file) {
    EXPECT_GE(H5Ldelete(file, "runs/run-0000/iterations/iter-0001/file-stat/latency", H5P_DEFAULT), 0);
  });
  EXPECT_EQ(errorOf([&] { readResultsFile(path); }),
            path + ": /runs/run-0000/iterations/iter-0001/file-stat/latency: dataset is missing");

  fresh();
  withRawFile(path, [](hid_t file) {
    EXPECT_GE(H5Ldelete(file, "runs/run-0000/iterations/iter-0000/file-stat/ops_per_interval", H5P_DEFAULT),
              0);
  });
  EXPECT_EQ(errorOf([&] { readResultsFile(path); }),
            path + ": /runs/run-0000/iterations/iter-0000/file-stat/ops_per_interval: dataset is missing");

  // A row per rank, or the rows could not be told apart.
  fresh();
  withRawFile(path, [](hid_t file) {
    const char* name = "runs/run-0000/iterations/iter-0000/file-stat/ops_per_interval";
    EXPECT_GE(H5Ldelete(file, name, H5P_DEFAULT), 0);
    const hsize_t dims[2] = {2, 2};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t dataset = H5Dcreate2(file, name, H5T_STD_U32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const std::uint32_t zeros[4] = {};
    EXPECT_GE(H5Dwrite(dataset, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros), 0);
    H5Dclose(dataset);
    H5Sclose(space);
  });
  EXPECT_EQ(errorOf([&] { readResultsFile(path); }),
            path +
                ": /runs/run-0000/iterations/iter-0000/file-stat/ops_per_interval: 2 rows, expected one per "
                "row of ranks (3)");

  fresh();
  withRawFile(path, [](hid_t file) {
    EXPECT_GE(H5Adelete_by_name(file, "runs/run-0000/iterations/iter-0000/file-stat", "first_done_ops",
                                H5P_DEFAULT),
              0);
  });
  EXPECT_EQ(errorOf([&] { readResultsFile(path); }),
            path + ": /runs/run-0000/iterations/iter-0000/file-stat: attribute 'first_done_ops' is missing");
}

TEST(ResultsFile, SinkMisuseIsReportedAndWritesNothingWrong) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  const SyntheticRun run;
  bool exists_error = false;
  auto sink = Hdf5Sink::open(path, OutputMode::kCreate, exists_error);
  EXPECT_EQ(errorOf([&] { sink->phase(run.result.phases[0], run.plan); }),
            path + ": Hdf5Sink::phase called before begin()");
  sink->begin(run.result.info, run.plan);
  EXPECT_EQ(errorOf([&] { sink->begin(run.result.info, run.plan); }),
            path + ": Hdf5Sink::begin called twice");

  PhaseResult not_planned = run.result.phases[0];
  not_planned.phase = Phase::kFileRead;  // -F -C -T -r: no read phase
  EXPECT_EQ(errorOf([&] { sink->phase(not_planned, run.plan); }),
            path + ": Hdf5Sink::phase: file-read is not a phase of the plan");
  PhaseResult two_ranks = run.result.phases[0];
  two_ranks.ranks.pop_back();
  EXPECT_EQ(errorOf([&] { sink->phase(two_ranks, run.plan); }),
            path + ": Hdf5Sink::phase: file-create has 2 rank records for a run of 3 ranks");
  // The runner frees a phase's per-rank counts once the sinks have seen it: a phase handed over again
  // after that has totals without counts.
  PhaseResult freed = run.result.phases[0];
  freed.series.per_rank.clear();
  EXPECT_EQ(errorOf([&] { sink->phase(freed, run.plan); }),
            path +
                ": Hdf5Sink::phase: file-create has a series of 4 intervals with 0 per-rank counts and 4 "
                "totals for 3 ranks (its per-rank counts were freed?)");
  sink->phase(run.result.phases[0], run.plan);
  EXPECT_EQ(errorOf([&] { sink->phase(run.result.phases[0], run.plan); }),
            path + ": Hdf5Sink::phase: /runs/run-0000/iterations/iter-0000 already holds file-create");
  sink->finish(0);

  const StoredRun r = readResultsFile(path).runs.at(0);
  ASSERT_EQ(r.phases.size(), 1u);
  expectDerivedColumns(path, r);
  expectFileCreate0(r.phases[0], run.result.phases[0]);
  EXPECT_FALSE(r.has_summary);
  EXPECT_EQ(r.status, "complete");
}

}  // namespace
}  // namespace mdbench::results_test
