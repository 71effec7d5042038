// The results file: what Hdf5Sink writes, readResultsFile reads back exactly; output modes; unfinished
// and killed runs; files that are not ours; a foreign reader (h5py).
#include "mdbench/results_file.hpp"

// The private HDF5 helpers behind the writer and reader (also used by the validator).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "../src/h5.hpp"
#include "mdbench/metrics.hpp"
#include "mdbench/plan.hpp"

namespace mdbench {
namespace {

// ---- Fixtures: a temporary directory, files, and a synthetic run ----

class TempDir {
 public:
  TempDir() {
    std::string pattern = "/dev/shm/mdbench-results-test.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Runs a shell command and returns its standard output (stderr is folded in, to show in failures).
std::string commandOutput(const std::string& command, int& status) {
  std::string out;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    status = -1;
    return out;
  }
  char buf[4096];
  std::size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  status = pclose(pipe);
  return out;
}

constexpr std::uint64_t kNoItem = ~std::uint64_t{0};

// Every option away from its default, as far as the options allow together (one results file records
// them all, so the round trip is checked for each).
Config testConfig() {
  Config c;
  c.items = 4;
  c.target = "/scratch/run@/scratch/other";
  c.targets = {"/scratch/run", "/scratch/other"};
  c.sharing = TreeSharing::kUnique;
  c.depth = 1;
  c.branching = 2;
  c.items_per_dir = 3;
  c.leaf_only = true;
  c.kinds = ItemKinds::kFilesOnly;
  c.phases = {.create = true, .stat = true, .read = false, .remove = true, .rename = true, .readdir = true};
  c.iterations = 2;
  c.write_bytes = 100;
  c.read_bytes = 0;
  c.keep = false;
  c.random_order = true;
  c.random_seed = 18446744073709551557u;  // needs all 64 bits
  c.stonewall_s = 0.5;
  c.stonewall_file = "/scratch/counts, \"1\"";
  c.fsync_writes = true;
  c.sync_phases = true;
  c.pre_delay_s = 0.125;
  c.preset = "io500-easy";
  c.command_line =
      "mdbench -n 4 -u -z 1 -b 2 -I 3 -L -F -C -T -r -U --readdir -i 2 -w 100 -d /scratch/run@/scratch/other "
      "-R 18446744073709551557 -W 0.5 -x '/scratch/counts, \"1\"' -y -Y -p 0.125 --preset io500-easy";
  return c;
}

RunInfo testInfo() {
  RunInfo info;
  info.version = "0.1.0";
  info.git_commit = "abc1234-dirty";
  info.command_line = testConfig().command_line;
  info.target = "/scratch/run@/scratch/other";  // the targets, absolute
  info.start_utc = "2026-11-30T13:23:06Z";
  info.end_utc = "2026-11-30T13:24:10Z";
  info.ranks = 3;
  info.nodes = 2;
  info.host_of_rank = {"node-a", "node-b", "node-a"};
  info.fs_type = "lustre";
  info.fs_total_bytes = 1'000'000'000'000;
  info.fs_free_bytes = 400'000'000'000;
  info.fs_total_inodes = 50'000'000;
  info.fs_free_inodes = 20'000'000;
  info.mpi_library = "MPICH Version: 4.0.2";
  info.hdf5_version = "1.10.8";
  info.scheduler = "slurm";
  info.job_id = "123";
  info.job_name = "md test";
  return info;
}

RankPhaseRecord record(std::uint64_t ok, std::uint64_t failed, std::uint64_t bytes, double t_start,
                       double t_local_end, double t_global_end) {
  RankPhaseRecord r;
  r.planned = ok + failed;
  r.ok = ok;
  r.failed = failed;
  r.bytes = bytes;
  r.t_start = t_start;
  r.t_local_end = t_local_end;
  r.t_global_end = t_global_end;
  r.ops_at_stonewall = ok + failed;  // the timer never fired
  return r;
}

LatencyHistogram histogram(std::initializer_list<std::pair<std::uint64_t, int>> samples) {
  LatencyHistogram h;
  for (const auto& [ns, count] : samples) {
    for (int i = 0; i < count; ++i) h.add(ns);
  }
  return h;
}

// file-create: rank 1 fails once (EEXIST on an item). Rates 2, 3, 4; time_s = 4 / time_scale. In
// iteration 1 the stonewall fires on ranks 0 (1 s in, 2 ops done) and 2 (0.75 s in, 3 ops); rank 1 never
// fires (4 ops): 9 ops at the stonewall, 1 s, 9 ops/s.
PhaseResult fileCreate(std::uint32_t iteration, double time_scale) {
  PhaseResult p;
  p.iteration = iteration;
  p.phase = Phase::kFileCreate;
  p.items = 4;
  p.ranks = {record(4, 0, 400, 1.0, 3.0, 1.0 + 4.0 / time_scale),
             record(3, 1, 300, 1.0, 2.0, 1.0 + 4.0 / time_scale),
             record(4, 0, 400, 1.5, 2.5, 1.5 + 4.0 / time_scale)};
  p.ranks[1].first_error = {.err = EEXIST, .owner = 1, .dir = 2, .item = 3};
  if (iteration == 1) {
    p.ranks[0].t_stonewall = 2.0;
    p.ranks[0].ops_at_stonewall = 2;
    p.ranks[2].t_stonewall = 2.25;
    p.ranks[2].ops_at_stonewall = 3;
  }
  p.latency = histogram({{5, 1}, {100, 8}, {1000, 2}});  // 11 = ok
  return p;
}

// file-readdir (iteration 0): every rank lists the 3 directories of a tree; rank 2 finds a wrong count in
// one (EBADMSG). time_s = 3.
PhaseResult fileReaddir() {
  PhaseResult p;
  p.phase = Phase::kFileReaddir;
  p.items = 4;
  p.ranks = {record(3, 0, 0, 20.0, 21.0, 23.0), record(3, 0, 0, 20.0, 21.5, 23.0),
             record(2, 1, 0, 20.0, 22.0, 23.0)};
  p.ranks[2].first_error = {.err = EBADMSG, .owner = 2, .dir = 1, .item = kNoItem};
  p.latency = histogram({{2000, 8}});
  return p;
}

// file-rename (iteration 0): every rank renames its 4 files in 2 s; time_s = 4.
PhaseResult fileRename() {
  PhaseResult p;
  p.phase = Phase::kFileRename;
  p.items = 4;
  for (int r = 0; r < 3; ++r) p.ranks.push_back(record(4, 0, 0, 30.0, 32.0, 34.0));
  p.latency = histogram({{700, 12}});
  return p;
}

// file-stat: every rank stats 4 files in 1 s; time_s = 2 / time_scale. In iteration 1, rank 2 fails on
// its tree directory (ENOENT, no item).
PhaseResult fileStat(std::uint32_t iteration, double time_scale) {
  PhaseResult p;
  p.iteration = iteration;
  p.phase = Phase::kFileStat;
  p.items = 4;
  for (int r = 0; r < 3; ++r) p.ranks.push_back(record(4, 0, 0, 10.0, 11.0, 10.0 + 2.0 / time_scale));
  int ok = 12;
  if (iteration == 1) {
    p.ranks[2] = record(3, 1, 0, 10.0, 11.0, 10.0 + 2.0 / time_scale);
    p.ranks[2].first_error = {.err = ENOENT, .owner = 2, .dir = 1, .item = kNoItem};
    ok = 11;
  }
  p.latency = histogram({{50, ok}});
  return p;
}

struct SyntheticRun {
  Config config = testConfig();
  Plan plan{config, 3};
  RunResult result;
  SyntheticRun() {
    result.info = testInfo();
    result.config = config;
    result.phases = {fileCreate(0, 1.0), fileStat(0, 1.0),   fileReaddir(),
                     fileRename(),       fileCreate(1, 2.0), fileStat(1, 0.5)};
  }
};

// Writes the whole synthetic run: begin, every phase, end, finish.
std::string writeRun(const std::string& path, OutputMode mode, const SyntheticRun& run, int exit_status) {
  bool exists_error = false;
  auto sink = Hdf5Sink::open(path, mode, exists_error);
  sink->begin(run.result.info, run.plan);
  for (const PhaseResult& p : run.result.phases) sink->phase(p, run.plan);
  sink->end(run.result, run.plan);
  sink->finish(exit_status);
  return sink->runGroup();
}

// ---- Helpers on raw HDF5 files ----

template <class Body>
void withRawFile(const std::string& path, Body&& body) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0) << path;
  body(file);
  ASSERT_GE(H5Fclose(file), 0);
}

bool linkExists(const std::string& path, const std::string& object) {
  bool found = false;
  withRawFile(path, [&](hid_t file) { found = H5Lexists(file, object.c_str(), H5P_DEFAULT) > 0; });
  return found;
}

std::string errorOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const ResultsFileError& e) {
    return e.what();
  }
  return "(no ResultsFileError)";
}

// ---- Expectations ----

void expectRank(const StoredRankRow& row, std::uint32_t rank, std::uint32_t node, const RankPhaseRecord& r,
                double rate) {
  SCOPED_TRACE(rank);
  EXPECT_EQ(row.rank, rank);
  EXPECT_EQ(row.node, node);
  EXPECT_EQ(row.planned, r.planned);
  EXPECT_EQ(row.ok, r.ok);
  EXPECT_EQ(row.failed, r.failed);
  EXPECT_EQ(row.bytes, r.bytes);
  EXPECT_EQ(row.t_start, r.t_start);
  EXPECT_EQ(row.t_local_end, r.t_local_end);
  EXPECT_EQ(row.t_global_end, r.t_global_end);
  EXPECT_EQ(row.rate, rate);
  EXPECT_EQ(row.ops_at_stonewall, r.ops_at_stonewall);
  EXPECT_EQ(row.t_stonewall, r.t_stonewall);
}

void expectRanks(const StoredPhase& stored, const PhaseResult& written, std::vector<double> rates) {
  ASSERT_EQ(stored.ranks.size(), 3u);
  const std::uint32_t nodes[] = {0, 1, 0};
  for (std::uint32_t r = 0; r < 3; ++r) expectRank(stored.ranks[r], r, nodes[r], written.ranks[r], rates[r]);
}

void expectLatency(const StoredPhase& stored, const LatencyHistogram& written) {
  ASSERT_EQ(stored.latency.size(), LatencyHistogram::kBuckets);
  for (std::size_t b = 0; b < LatencyHistogram::kBuckets; ++b)
    EXPECT_EQ(stored.latency[b], written.counts()[b]) << b;
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
  EXPECT_EQ(got.phases.readdir, want.phases.readdir);
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
  EXPECT_EQ(p.latency[5], 1u);
  EXPECT_EQ(p.latency[57], 8u);
  EXPECT_EQ(p.latency[111], 2u);
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
  EXPECT_EQ(stored.schema_version, 2u);
  ASSERT_EQ(stored.runs.size(), 1u);
  const StoredRun& r = stored.runs[0];
  EXPECT_EQ(r.group, "/runs/run-0000");
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

TEST(ResultsFile, CreateRefusesAnExistingFileAndLeavesItUntouched) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  writeRun(path, OutputMode::kCreate, SyntheticRun{}, 0);
  const std::string before = readBytes(path);

  bool exists_error = false;
  EXPECT_EQ(errorOf([&] { Hdf5Sink::open(path, OutputMode::kCreate, exists_error); }),
            path + " exists: use --append to add this run to it, or --force to replace it");
  EXPECT_TRUE(exists_error);
  EXPECT_EQ(readBytes(path), before);
}

TEST(ResultsFile, CreateReportsAnImpossiblePath) {
  const TempDir dir;
  const std::string path = dir.file("no-such-dir/r.h5");
  bool exists_error = true;
  EXPECT_EQ(errorOf([&] { Hdf5Sink::open(path, OutputMode::kCreate, exists_error); }),
            "cannot create " + path + ": unable to open file: No such file or directory");
  EXPECT_FALSE(exists_error);
}

TEST(ResultsFile, ForceReplacesAnExistingFile) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  writeRun(path, OutputMode::kCreate, SyntheticRun{}, 1);
  SyntheticRun second;
  second.result.info.job_id = "456";
  EXPECT_EQ(writeRun(path, OutputMode::kForce, second, 0), "/runs/run-0000");

  const StoredResults stored = readResultsFile(path);
  ASSERT_EQ(stored.runs.size(), 1u);
  EXPECT_EQ(stored.runs[0].info.job_id, "456");
  EXPECT_EQ(stored.runs[0].status, "complete");

  writeText(path, "not HDF5 at all\n");
  writeRun(path, OutputMode::kForce, second, 0);
  EXPECT_EQ(readResultsFile(path).runs.size(), 1u);
}

TEST(ResultsFile, AppendAddsTheNextRunAndBothReadBack) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  writeRun(path, OutputMode::kCreate, SyntheticRun{}, 1);
  SyntheticRun second;
  second.result.info.host_of_rank.clear();  // unknown hosts: all on one node
  second.result.info.nodes = 1;
  second.result.info.job_id = "456";
  EXPECT_EQ(writeRun(path, OutputMode::kAppend, second, 0), "/runs/run-0001");

  const StoredResults stored = readResultsFile(path);
  ASSERT_EQ(stored.runs.size(), 2u);
  EXPECT_EQ(stored.runs[0].group, "/runs/run-0000");
  EXPECT_EQ(stored.runs[0].info.job_id, "123");
  EXPECT_EQ(stored.runs[0].status, "failed");
  EXPECT_EQ(stored.runs[0].phases.size(), 6u);
  const StoredRun& r = stored.runs[1];
  EXPECT_EQ(r.group, "/runs/run-0001");
  EXPECT_EQ(r.info.job_id, "456");
  EXPECT_EQ(r.status, "complete");
  EXPECT_EQ(r.info.host_of_rank, (std::vector<std::string>{"unknown", "unknown", "unknown"}));
  EXPECT_EQ(r.info.nodes, 1u);
  EXPECT_EQ(r.node_of_rank, (std::vector<std::uint32_t>{0, 0, 0}));
  EXPECT_EQ(r.ranks_per_node_min, 3u);
  EXPECT_EQ(r.ranks_per_node_max, 3u);
  ASSERT_EQ(r.phases.size(), 6u);
  EXPECT_EQ(r.phases[0].group, "/runs/run-0001/iterations/iter-0000/file-create");
  EXPECT_EQ(r.phases[0].ranks[1].node, 0u);
  EXPECT_EQ(r.summaries.size(), 4u);
}

TEST(ResultsFile, AppendCreatesAMissingFile) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  EXPECT_EQ(writeRun(path, OutputMode::kAppend, SyntheticRun{}, 0), "/runs/run-0000");
  EXPECT_EQ(readResultsFile(path).runs.size(), 1u);
}

TEST(ResultsFile, AppendRefusesAnHdf5FileThatIsNotOursAndLeavesItUntouched) {
  const TempDir dir;
  const std::string path = dir.file("other.h5");
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  ASSERT_GE(H5Gclose(H5Gcreate2(file, "data", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)), 0);
  ASSERT_GE(H5Fclose(file), 0);
  const std::string before = readBytes(path);

  bool exists_error = false;
  EXPECT_EQ(
      errorOf([&] { Hdf5Sink::open(path, OutputMode::kAppend, exists_error); }),
      path +
          " is not an mdbench results file (no string attribute 'schema' at its root): cannot append to it");
  EXPECT_FALSE(exists_error);
  EXPECT_EQ(readBytes(path), before);
  EXPECT_EQ(errorOf([&] { readResultsFile(path); }),
            path + " is not an mdbench results file (no string attribute 'schema' at its root)");
}

TEST(ResultsFile, AppendRefusesAPlainTextFileAndLeavesItUntouched) {
  const TempDir dir;
  const std::string path = dir.file("notes.txt");
  writeText(path, "some notes\n");

  bool exists_error = false;
  EXPECT_EQ(errorOf([&] { Hdf5Sink::open(path, OutputMode::kAppend, exists_error); }),
            path + " is not an mdbench results file (not an HDF5 file): cannot append to it");
  EXPECT_EQ(readBytes(path), "some notes\n");
  EXPECT_EQ(errorOf([&] { readResultsFile(path); }),
            path + " is not an mdbench results file (not an HDF5 file)");
}

TEST(ResultsFile, AppendRefusesAnotherSchemaVersion) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  writeRun(path, OutputMode::kCreate, SyntheticRun{}, 0);
  withRawFile(path, [](hid_t file) {
    const std::uint32_t version = 3;
    const hid_t attribute = H5Aopen(file, "schema_version", H5P_DEFAULT);
    ASSERT_GE(attribute, 0);
    EXPECT_GE(H5Awrite(attribute, H5T_NATIVE_UINT32, &version), 0);
    EXPECT_GE(H5Aclose(attribute), 0);
  });
  const std::string before = readBytes(path);

  bool exists_error = false;
  EXPECT_EQ(errorOf([&] { Hdf5Sink::open(path, OutputMode::kAppend, exists_error); }),
            path + " has schema version 3, this mdbench writes 2: cannot append to it");
  EXPECT_EQ(readBytes(path), before);
  EXPECT_EQ(errorOf([&] { readResultsFile(path); }), path + " has schema version 3, this mdbench reads 2");
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
  sink->phase(run.result.phases[0], run.plan);
  EXPECT_EQ(errorOf([&] { sink->phase(run.result.phases[0], run.plan); }),
            path + ": Hdf5Sink::phase: /runs/run-0000/iterations/iter-0000 already holds file-create");
  sink->finish(0);

  const StoredRun r = readResultsFile(path).runs.at(0);
  ASSERT_EQ(r.phases.size(), 1u);
  expectFileCreate0(r.phases[0], run.result.phases[0]);
  EXPECT_FALSE(r.has_summary);
  EXPECT_EQ(r.status, "complete");
}

// A row with padding in memory (uint8, then an 8-byte aligned double) is stored packed: 1 + 8 + 4 bytes.
struct PaddedRow {
  std::uint8_t flag = 0;
  double value = 0.0;
  std::uint32_t count = 0;
};
constexpr std::array<h5::Field, 3> kPaddedFields = {{
    {"flag", h5::Type::kUint8, offsetof(PaddedRow, flag)},
    {"value", h5::Type::kFloat64, offsetof(PaddedRow, value)},
    {"count", h5::Type::kUint32, offsetof(PaddedRow, count)},
}};

TEST(H5Helpers, CompoundRowsAreStoredPackedAndReadBack) {
  static_assert(sizeof(PaddedRow) == 24);
  const TempDir dir;
  const std::string path = dir.file("c.h5");
  const h5::QuietErrors quiet;
  {
    const h5::Handle file(H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT));
    ASSERT_TRUE(file.valid());
    const std::vector<PaddedRow> rows = {{1, 0.5, 7}, {0, -2.25, 4'000'000'000u}};
    h5::writeCompound<PaddedRow>(file.get(), "rows", kPaddedFields, rows);
    h5::writeAttribute(file.get(), "note", "h\u00e9llo");
  }
  const h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  ASSERT_TRUE(file.valid());
  const h5::Handle dataset(H5Dopen2(file.get(), "rows", H5P_DEFAULT));
  const h5::Handle type(H5Dget_type(dataset.get()));
  EXPECT_EQ(H5Tget_size(type.get()), 13u);
  EXPECT_EQ(H5Tget_member_offset(type.get(), 0), 0u);
  EXPECT_EQ(H5Tget_member_offset(type.get(), 1), 1u);
  EXPECT_EQ(H5Tget_member_offset(type.get(), 2), 9u);

  const auto rows = h5::readCompound<PaddedRow>(file.get(), "rows", kPaddedFields, [](const PaddedRow& r) {
    return fmt::format("{} {} {}", r.flag, r.value, r.count);
  });
  EXPECT_EQ(rows, (std::vector<std::string>{"1 0.5 7", "0 -2.25 4000000000"}));
  EXPECT_EQ(h5::readAttribute<std::string>(file.get(), "note"), "h\u00e9llo");

  constexpr std::array<h5::Field, 1> kWrongType = {
      {{"value", h5::Type::kUint64, offsetof(PaddedRow, value)}}};
  EXPECT_EQ(errorOf([&] {
              h5::readCompound<PaddedRow>(file.get(), "rows", kWrongType, [](const PaddedRow&) { return 0; });
            }),
            "/rows: field 'value' is float64, expected uint64");
  EXPECT_EQ(errorOf([&] { h5::readAttribute<std::uint32_t>(file.get(), "note"); }),
            "/: attribute 'note' is string, expected uint32");
  EXPECT_EQ(errorOf([&] { h5::readVector<std::uint64_t>(file.get(), "missing"); }),
            "/missing: dataset is missing");
}

TEST(ResultsFile, H5pyReadsTheFile) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  writeRun(path, OutputMode::kCreate, SyntheticRun{}, 1);

  int status = 0;
  const std::string probe = commandOutput("/usr/bin/python3 -c 'import h5py' ", status);
  ASSERT_EQ(status, 0) << "this test needs h5py: apt-get install python3-h5py\n" << probe;

  const std::string script =
      "import h5py, sys\n"
      "f = h5py.File(sys.argv[1], 'r')\n"
      "run = f['runs/run-0000']\n"
      "print(f.attrs['schema'], f.attrs['schema_version'], f.attrs['schema_version'].dtype)\n"
      "print(run.attrs['status'], run.attrs['exit_status'], run.attrs['exit_status'].dtype)\n"
      "print(run.attrs['job_name'], run['config'].attrs['kinds'], run['config'].attrs['leaf_only'].dtype)\n"
      "d = run['iterations/iter-0000/file-create/ranks']\n"
      "print(d.dtype.itemsize, [(n, d.dtype.fields[n][0].str, d.dtype.fields[n][1]) for n in "
      "d.dtype.names])\n"
      "print([float(x) for x in d['rate']])\n"
      "e = run['iterations/iter-0000/file-create/errors']\n"
      "text = lambda v: v.decode() if isinstance(v, bytes) else v\n"
      "print(e[0]['errno'], text(e[0]['errno_name']), text(e[0]['path']))\n"
      "c = run['config'].attrs\n"
      "print(text(c['targets']), c['random_seed'], c['random_seed'].dtype, c['stonewall_s'], "
      "c['shift_used'])\n"
      "p = run['iterations/iter-0001/file-create']\n"
      "print(p.attrs['items'], p.attrs['stonewalled'], p.attrs['ops_at_stonewall'], "
      "p.attrs['stonewall_time_s'], "
      "p.attrs['ops_per_s_at_stonewall'])\n"
      "print([float(x) for x in p['ranks']['t_stonewall']], [int(x) for x in "
      "p['ranks']['ops_at_stonewall']])\n"
      "print(text(run['iterations/iter-0000/file-readdir'].attrs['phase']))\n";
  const std::string script_path = dir.file("probe.py");
  writeText(script_path, script);
  const std::string out = commandOutput("/usr/bin/python3 " + script_path + " " + path, status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_EQ(
      out,
      "mdbench-results 2 uint32\n"
      "failed 1 int32\n"
      "md test files uint8\n"
      "88 [('rank', '<u4', 0), ('node', '<u4', 4), ('planned', '<u8', 8), ('ok', '<u8', 16), "
      "('failed', '<u8', 24), ('bytes', '<u8', 32), ('t_start', '<f8', 40), ('t_local_end', '<f8', 48), "
      "('t_global_end', '<f8', 56), ('rate', '<f8', 64), ('ops_at_stonewall', '<u8', 72), "
      "('t_stonewall', '<f8', 80)]\n"
      "[2.0, 3.0, 4.0]\n"
      "17 EEXIST /scratch/other/mdbench.iter.0/mdbench_tree.1.0/mdbench_tree.1.2/file.mdbench.1.3\n"
      "/scratch/run@/scratch/other 18446744073709551557 uint64 0.5 0\n"
      "4 1 9 1.0 9.0\n"
      "[2.0, 0.0, 2.25] [2, 4, 3]\n"
      "file-readdir\n");
}

}  // namespace
}  // namespace mdbench
