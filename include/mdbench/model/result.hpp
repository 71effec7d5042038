// Results as plain data: what every rank measured in every phase, and what the run was.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "mdbench/config/config.hpp"
#include "mdbench/model/fault.hpp"
#include "mdbench/model/ops_series.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/server_stats.hpp"
#include "mdbench/model/stats.hpp"

namespace mdbench {

// A rank's first failed operation in a phase. The path is rebuilt on rank 0 from the plan, so the hot
// loop records numbers only.
struct FirstError {
  std::int32_t err = 0;                    // errno; 0: no error
  std::uint32_t owner = 0;                 // whose items / tree
  std::uint64_t dir = 0;                   // tree directory (breadth-first index)
  std::uint64_t item = ~std::uint64_t{0};  // item number, or ~0 when the op was on the directory itself
  bool any() const { return err != 0; }
};

struct OpCounts {
  std::uint64_t ok = 0;
  std::uint64_t failed = 0;
};

// One rank's record of one phase. Trivially copyable: gathered to rank 0 as bytes (same binary on all
// ranks). Times are seconds since the run's epoch (taken right after a barrier at run start) on the
// rank's own monotonic clock.
struct RankPhaseRecord {
  std::uint64_t planned = 0;  // ops the plan gave this rank
  std::uint64_t ok = 0;       // ops that succeeded
  std::uint64_t failed = 0;   // ops that failed (never in a rate)
  std::uint64_t bytes = 0;    // bytes written or read by successful ops
  double t_start = 0.0;       // after the opening barrier
  double t_local_end = 0.0;   // this rank's last op done
  double t_global_end = 0.0;  // after the closing barrier
  // Stonewall (-W): ops that had succeeded when this rank's timer fired, and when that was; if it never
  // fired, ops_at_stonewall = ok and t_stonewall = 0. After firing, a rank of a create, stat or
  // read phase stops and then wears out to the largest count any rank reached; rename and remove phases
  // run to the end (what they skipped would be left behind).
  std::uint64_t ops_at_stonewall = 0;
  double t_stonewall = 0.0;
  FirstError first_error;
  // A phase of several op kinds (--steady's): each kind's counts (OpKind order; ok and failed are their
  // sums) and the kind of the first error. The mix's rounds this rank did (after the wear-out: the agreed
  // count); its ops_at_stonewall then counts rounds. A selected phase leaves these 0.
  std::array<OpCounts, kOpKindCount> kinds{};
  OpKind first_error_kind = OpKind::kMkdir;
  std::uint64_t rounds = 0;
};
static_assert(std::is_trivially_copyable_v<RankPhaseRecord>);

// A phase of several op kinds: ok and failed from the record's kinds, and planned their sum (a --steady
// rank's work is every op it did).
void sumKinds(RankPhaseRecord& record);

// What a phase's measures over time (the series' checks and lines, the first/last-done rates) need of a
// rank's record, whichever workload's: its planned ops (a --steady rank's: every op it did), its successes
// and its times. Made from the records by rankSpans (here and in steady.hpp), never stored.
struct RankSpan {
  std::uint64_t planned = 0;
  std::uint64_t ok = 0;
  double t_start = 0.0;
  double t_local_end = 0.0;
};
std::vector<RankSpan> rankSpans(std::span<const RankPhaseRecord> ranks);

// What a phase measured over time beside its counts, whatever the workload (the selected phases' and
// --steady's precreate, mix and cleanup): written, read, validated, exported and shown once for both.
struct PhaseTimeline {
  // Successful ops per interval of every rank (--series-interval). The runner empties per_rank once the
  // sinks have seen the phase (rank 0 would otherwise hold ranks x intervals counts for every phase run).
  OpsSeries series;
  // Issue 34 (schema version 9; --steady's phases from version 10): the longest interval no rank completed
  // an op in, and each --fault-at/--fault-cmd pair's record in this phase (rank 0 only).
  PhaseStall stall;
  std::vector<FaultRecord> faults;
};

struct PhaseResult : PhaseTimeline {
  std::uint32_t iteration = 0;
  Phase phase = Phase::kTreeCreate;
  std::uint64_t items =
      0;  // items per rank this phase worked on (-n, or a stonewall's count; --steady's mix: its rounds)
  std::vector<RankPhaseRecord> ranks;  // indexed by rank
  LatencyHistogram latency;            // every successful op of every rank
  // A phase of several op kinds (--steady's): each kind's successful ops, indexed by opKindIndex
  // (kOpKindCount histograms, whose sum is `latency`); empty for a selected phase.
  std::vector<LatencyHistogram> kind_latency;
  // --server-stats: what the phase cost each metadata server source, in the order given (rank 0 only).
  std::vector<ServerStatsDelta> server_stats;
};

// A run that is one step of a sweep (--sweep): which step, how its ranks were picked, out of how many.
struct SweepStepInfo {
  std::uint32_t step = 0;  // 1-based; 0: the run is not a sweep step
  SweepPlacement placement = SweepPlacement::kNone;
  std::uint32_t job_ranks = 0;  // ranks in the whole job; 0: the run's own ranks (not a sweep step)
};

// A file system count the file system does not give (statvfs's all ones, or more free than total, as
// ceph-fuse reports): stored and shown as unknown, never as a number.
inline constexpr std::uint64_t kUnknownCount = ~std::uint64_t{0};

struct RunInfo {
  std::string version;
  std::string git_commit;
  std::string command_line;
  std::string invoked_as;              // argv[0]
  std::vector<std::string> arguments;  // argv[1..], as given
  std::string target;                  // absolute path of the target directory
  std::vector<std::string> targets;    // each target's absolute path, in -d's order (target joins them)
  std::string start_utc;               // ISO 8601
  std::string end_utc;
  std::uint32_t ranks = 1;
  std::uint32_t nodes = 1;
  std::vector<std::string> host_of_rank;
  std::string fs_type;
  std::uint64_t fs_total_bytes = 0, fs_free_bytes = 0, fs_total_inodes = 0,
                fs_free_inodes = 0;  // or kUnknownCount
  std::string mpi_library;
  std::string hdf5_version;
  std::string scheduler = "none";  // "slurm", "pbs" or "none"
  std::string job_id;              // SLURM_JOB_ID / PBS_JOBID; "" outside a batch job
  std::string job_name;            // SLURM_JOB_NAME / PBS_JOBNAME
  SweepStepInfo sweep;
};

}  // namespace mdbench
