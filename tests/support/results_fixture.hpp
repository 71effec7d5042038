// Shared by the results-file tests: a temporary directory, a synthetic 3-rank run with every option away
// from its default written through Hdf5Sink, and helpers on raw HDF5 files.
#pragma once

#include <gtest/gtest.h>
#include <hdf5.h>
#include <stdlib.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "mdbench/config/config.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/results/results_file.hpp"
#include "series_fixture.hpp"

namespace mdbench::results_test {

// ---- A temporary directory, files, and a synthetic run ----

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

inline void writeText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

inline constexpr std::uint64_t kNoItem = ~std::uint64_t{0};

// Every option away from its default, as far as the options allow together (one results file records
// them all, so the round trip is checked for each).
inline Config testConfig() {
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
  c.phases = {.create = true,
              .stat = true,
              .read = false,
              .remove = true,
              .rename = true,
              .readdir = true,
              .file_rename = true};
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
  c.series_interval_s = 0.5;
  c.command_line =
      "mdbench -n 4 -u -z 1 -b 2 -I 3 -L -F -C -T -r -U --readdir -i 2 -w 100 -d /scratch/run@/scratch/other "
      "-R 18446744073709551557 -W 0.5 -x '/scratch/counts, \"1\"' -y -Y -p 0.125 --preset io500-easy "
      "--series-interval 0.5";
  return c;
}

inline RunInfo testInfo() {
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

inline RankPhaseRecord record(std::uint64_t ok, std::uint64_t failed, std::uint64_t bytes, double t_start,
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

// A phase's series at testConfig()'s 0.5 s intervals: one row of counts per rank (all rows as long), and
// their sums.
using series_test::series;

inline LatencyHistogram histogram(std::initializer_list<std::pair<std::uint64_t, int>> samples) {
  LatencyHistogram h;
  for (const auto& [ns, count] : samples) {
    for (int i = 0; i < count; ++i) h.add(ns);
  }
  return h;
}

// file-create: rank 1 fails once (EEXIST on an item). Rates 2, 3, 4; time_s = 4 / time_scale. In
// iteration 1 the stonewall fires on ranks 0 (1 s in, 2 ops done) and 2 (0.75 s in, 3 ops); rank 1 never
// fires (4 ops): 9 ops at the stonewall, 1 s, 9 ops/s. Over time (0.5 s intervals): rank 0 one op in each
// of its 4 intervals, rank 1 two then one, rank 2 three then one. First done: ranks 1 and 2 after 1 s, when
// rank 0 had done 2: 9 ops, 9 ops/s; last done: rank 0 after 2 s, 11 ops, 5.5 ops/s.
inline PhaseResult fileCreate(std::uint32_t iteration, double time_scale) {
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
  p.series = series({{1, 1, 1, 1}, {2, 1, 0, 0}, {3, 1, 0, 0}});
  return p;
}

// file-readdir (iteration 0): every rank lists the 3 directories of a tree; rank 2 finds a wrong count in
// one (EBADMSG). time_s = 3.
inline PhaseResult fileReaddir() {
  PhaseResult p;
  p.phase = Phase::kFileReaddir;
  p.items = 4;
  p.ranks = {record(3, 0, 0, 20.0, 21.0, 23.0), record(3, 0, 0, 20.0, 21.5, 23.0),
             record(2, 1, 0, 20.0, 22.0, 23.0)};
  p.ranks[2].first_error = {.err = EBADMSG, .owner = 2, .dir = 1, .item = kNoItem};
  p.latency = histogram({{2000, 8}});
  p.series = series({{2, 1, 0, 0}, {1, 1, 1, 0}, {1, 0, 0, 1}});
  return p;
}

// file-rename (iteration 0): every rank renames its 4 files in 2 s; time_s = 4.
inline PhaseResult fileRename() {
  PhaseResult p;
  p.phase = Phase::kFileRename;
  p.items = 4;
  for (int r = 0; r < 3; ++r) p.ranks.push_back(record(4, 0, 0, 30.0, 32.0, 34.0));
  p.latency = histogram({{700, 12}});
  p.series = series({{1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}});
  return p;
}

// file-stat: every rank stats 4 files in 1 s; time_s = 2 / time_scale. In iteration 1, rank 2 fails on
// its tree directory (ENOENT, no item).
inline PhaseResult fileStat(std::uint32_t iteration, double time_scale) {
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
  p.series = iteration == 1 ? series({{2, 2}, {2, 2}, {2, 1}}) : series({{2, 2}, {2, 2}, {2, 2}});
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
inline std::string writeRun(const std::string& path, OutputMode mode, const SyntheticRun& run,
                            int exit_status) {
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

// Makes a file written by this mdbench look like one of an earlier schema version: without version 5's
// throughput over time (the datasets, the first/last-done attributes, the config's series_interval_s).
inline void downgrade(const std::string& path, std::uint32_t version) {
  withRawFile(path, [&](hid_t file) {
    const auto remove_attribute = [](hid_t object, const char* name) {
      if (H5Aexists(object, name) > 0) {
        EXPECT_GE(H5Adelete(object, name), 0) << name;
      }
    };
    const hid_t runs = H5Gopen2(file, "runs", H5P_DEFAULT);
    H5G_info_t info{};
    H5Gget_info(runs, &info);
    for (hsize_t r = 0; r < info.nlinks; ++r) {
      char run_name[64] = {};
      H5Lget_name_by_idx(runs, ".", H5_INDEX_NAME, H5_ITER_INC, r, run_name, sizeof run_name, H5P_DEFAULT);
      const hid_t run = H5Gopen2(runs, run_name, H5P_DEFAULT);
      const hid_t config = H5Gopen2(run, "config", H5P_DEFAULT);
      remove_attribute(config, "series_interval_s");
      H5Gclose(config);
      const hid_t iterations = H5Gopen2(run, "iterations", H5P_DEFAULT);
      H5G_info_t iteration_info{};
      H5Gget_info(iterations, &iteration_info);
      for (hsize_t i = 0; i < iteration_info.nlinks; ++i) {
        char iteration_name[64] = {};
        H5Lget_name_by_idx(iterations, ".", H5_INDEX_NAME, H5_ITER_INC, i, iteration_name,
                           sizeof iteration_name, H5P_DEFAULT);
        const hid_t iteration = H5Gopen2(iterations, iteration_name, H5P_DEFAULT);
        H5G_info_t phase_info{};
        H5Gget_info(iteration, &phase_info);
        for (hsize_t p = 0; p < phase_info.nlinks; ++p) {
          char phase_name[64] = {};
          H5Lget_name_by_idx(iteration, ".", H5_INDEX_NAME, H5_ITER_INC, p, phase_name, sizeof phase_name,
                             H5P_DEFAULT);
          const hid_t phase = H5Gopen2(iteration, phase_name, H5P_DEFAULT);
          for (const char* dataset : {"ops_per_interval", "ops_per_interval_total"}) {
            EXPECT_GE(H5Ldelete(phase, dataset, H5P_DEFAULT), 0) << phase_name << "/" << dataset;
          }
          for (const char* attribute : {"first_done_time_s", "first_done_ops", "first_done_ops_per_s",
                                        "last_done_time_s", "last_done_ops_per_s"}) {
            remove_attribute(phase, attribute);
          }
          H5Gclose(phase);
        }
        H5Gclose(iteration);
      }
      H5Gclose(iterations);
      H5Gclose(run);
    }
    H5Gclose(runs);
    const hid_t attribute = H5Aopen(file, "schema_version", H5P_DEFAULT);
    ASSERT_GE(attribute, 0);
    EXPECT_GE(H5Awrite(attribute, H5T_NATIVE_UINT32, &version), 0);
    EXPECT_GE(H5Aclose(attribute), 0);
  });
}

inline std::string errorOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const ResultsFileError& e) {
    return e.what();
  }
  return "(no ResultsFileError)";
}

}  // namespace mdbench::results_test
