// The steady-state workload (md-workbench's): every rank keeps a fixed working set of objects that other
// ranks cycle through stat, read, delete and create, measured in three barrier-timed phases with one
// mergeable latency histogram per op type.
//
// What a run does (every rank, collectively, inside the caller's directory `dir`):
//   precreate  rank r makes its D datasets steady.mdbench.<r>.<d> and P objects obj.mdbench.<r>.<d>.<i>
//              (i = 0 .. P-1) in each, object by object across the datasets (i outer, d inner), as
//              md-workbench's run_precreate does.
//   mix        R rounds. In round f, for each dataset d in order, rank r works on the dataset d of
//              rank r - k_d (k_d = offset * (d + 1) mod size): stat, read and delete its object f (the
//              oldest), then creates object P + f in the dataset d of rank r + k_d. So the reader and the
//              writer of every dataset are two other ranks (when k_d is not 0 mod size) and the metadata
//              server sees cross-client access; creates and deletes pair up, and every dataset holds exactly
//              P objects after every round: the file system's object count stays constant. FIFO naming as
//              md-workbench's: after R rounds dataset (r, d) holds objects R .. R+P-1.
//   cleanup    rank r removes objects R .. R+P-1 of its own datasets (dataset by dataset) and the datasets.
// R is the agreed round count (the stonewall below may cut it). offset = size (or any multiple of it) keeps
// every rank in its own datasets; the tests use that to run the exact fake-backend checks under MPI.
//
// Each phase: barrier, t_start, the ops, t_local_end, barrier, t_global_end (as runner.hpp's), then one
// gather of the per-rank records and one reduction of the histograms to rank 0. Directory handles are
// opened and closed outside every op's latency: the own datasets' in precreate after the mkdirs (inside
// the phase's time, outside any op's) and closed in cleanup before each rmdir; the 2·D read and write
// datasets' between precreate and mix (untimed, after precreate's closing barrier, when every dataset
// exists). So up to 3·D directory handles are open at once (D = 10 by default; the caller should keep
// 3·D well below RLIMIT_NOFILE).
//
// Errors never abort. A failed op counts as failed with its errno (the first one per rank and phase is
// kept, with its op and object) and never in a rate. In the mix:
//   - a failed stat skips that object's read, delete and create (md-workbench's `continue`): nothing is
//     removed, so nothing is added, and the object count stays constant;
//   - a failed read still deletes and creates (md-workbench does the same: the object exists);
//   - a failed delete skips the create (md-workbench ignores remove's result; we keep creates paired with
//     deletes, so the count stays constant);
//   - a failed create leaves the written dataset one object short until the end.
// Any of these leaves a dataset's FIFO out of step: P rounds later its reader's stat of the missing object
// fails (ENOENT, counted again), and cleanup reports what it could not find (ENOENT) or remove (ENOTEMPTY:
// an object the mix skipped is left). Failures propagate and stay visible; they never go uncounted.
// Ranks never wait for each other inside the mix (as in md-workbench): a rank more than P rounds ahead of
// the rank writing the dataset it reads finds its object missing in the same way, so P should exceed the
// drift between ranks (md-workbench's default P is 3000).
//
// Stonewall (stonewall_s > 0), as mdbench's -W does for creates: a rank whose timer fired finishes its
// current round and stops; then all ranks agree on the largest round count reached (one allreduce, MAX) and
// those behind wear out to it, so every dataset again holds exactly P objects and cleanup knows the
// survivors. Each rank records the rounds it had done when its timer fired, and when.
//
// SIGINT and SIGTERM (signals.hpp): precreate stops between objects (every own dataset then holds objects
// 0 .. c-1, c the same for all of a rank's datasets); if it stopped short on any rank, the mix runs no
// round. The mix stops after the round in progress, and the ranks wear out to the largest count as after a
// stonewall. Cleanup always runs in full: it removes what this rank's precreate made, moved on by the
// rounds, and the datasets. So a stopped run leaves nothing behind and its counts still add up.
//
// The run relies on `dir` being the run's own new directory (the runner's iteration directory): every
// name in it is then the run's, so cleanup's deletes by name never remove anything the run did not make.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "mdbench/model/metrics.hpp"
#include "mdbench/model/result.hpp"
#include "mdbench/model/stats.hpp"
#include "mdbench/util/enum_names.hpp"

namespace mdbench {

struct SteadyConfig {
  std::uint32_t datasets = 10;    // D per rank (md-workbench -D)
  std::uint64_t working_set = 1;  // P objects per dataset, >= 1 (md-workbench -P, default 3000 there)
  std::uint64_t rounds = 1;       // R: one object per dataset through stat, read, delete, create (-I)
  std::uint32_t offset = 1;       // rank distance between a dataset's owner and its reader/writer (-O)
  // Written by create, read back by read (not verified); 0: read only opens and closes. The data is
  // plan.hpp's fillPattern(writer's rank, 0): the first bytes name the rank that wrote the object.
  std::uint64_t object_bytes = 0;
  double stonewall_s = 0.0;  // 0: off
};

// Every problem with the configuration, one message each naming the field ("" none): datasets >= 1,
// working_set >= 1, stonewall_s finite and >= 0, working_set + rounds below 2^63 (object numbers).
std::vector<std::string> steadyConfigProblems(const SteadyConfig& config);

// The phases are rows of the phase table (phase.hpp: kSteadyPhases, "precreate", "mix" and "cleanup"), which
// also gives each one's op kinds (opKindsOf): precreate mkdir and create, the mix stat, read, delete and
// create, cleanup delete and rmdir.

// Names, relative to the run's directory. <owner> is the rank whose dataset it is (not the rank that
// created the object: creates land in other ranks' datasets).
std::string steadyDatasetName(std::uint32_t owner, std::uint32_t dataset);  // steady.mdbench.<owner>.<d>
std::string steadyObjectName(std::uint32_t owner, std::uint32_t dataset,
                             std::uint64_t object);  // obj.mdbench.<owner>.<d>.<i>

// The ring: the owner of the dataset d that `rank` reads from (rank - k_d mod size) and writes into
// (rank + k_d mod size), k_d = offset * (d + 1) mod size.
std::uint32_t steadyReadOwner(std::uint32_t rank, std::uint32_t size, std::uint32_t offset,
                              std::uint32_t dataset);
std::uint32_t steadyWriteOwner(std::uint32_t rank, std::uint32_t size, std::uint32_t offset,
                               std::uint32_t dataset);
// The FIFO: round f deletes object f and creates object P + f; after R rounds the survivors are
// R .. R+P-1 (the first is R).
constexpr std::uint64_t steadyVictim(std::uint64_t round) { return round; }
constexpr std::uint64_t steadyNewObject(std::uint64_t working_set, std::uint64_t round) {
  return working_set + round;
}
constexpr std::uint64_t steadyFirstSurvivor(std::uint64_t rounds) { return rounds; }

// FirstError::item of an op on a dataset itself (mkdir, rmdir, opening it), not on one of its objects.
inline constexpr std::uint64_t kSteadyNoObject = ~std::uint64_t{0};

// A steady phase's result is result.hpp's PhaseResult, as a selected phase's: its series counts every op
// kind's successes, a fault's time counts from the phase's t_start; `items` is the mix's agreed round count
// (0 in precreate and cleanup); `latency` holds every successful op, kind_latency each kind's. The ranks'
// records count each kind (RankPhaseRecord::kinds: planned is every op the rank did, ok and failed their
// sums; the mix's rounds and ops_at_stonewall count rounds). Times are seconds since runSteady's epoch
// (right after its opening barrier); first_error's owner is the dataset's owner rank, dir the dataset
// index, item the object number (kSteadyNoObject when the op was on the dataset itself).
struct SteadyResult {
  std::vector<PhaseResult> phases;  // rank 0: precreate, mix, cleanup; empty elsewhere
  std::uint64_t rounds = 0;         // every rank: the mix's agreed round count
  // Every rank: a signal stopped precreate short on some rank, so the mix ran no round (see above).
  bool stopped_in_precreate = false;
};

// Derived numbers of one phase (rank 0, from its PhaseResult). No I/O. Its time, counts, rank rates and
// stonewall are `aggregate`: metrics.hpp's aggregate of the phase's records, one formula for both workloads
// (its ops_per_s is the phase's ok of all op kinds per second; in the mix its ops_at_stonewall counts
// rounds). What a steady phase has beside that:
//   ops[o].ops_per_s  ok of op o over all ranks / time_s (failed ops never in a rate)
//   ops[o].latency    latencySummary (metrics.hpp) of op o's merged histogram (kind_latency)
//   bytes_per_s       bytes / time_s
//   rounds            mix: the agreed round count; rounds_per_s = rounds / time_s (the rounds every rank
//                     went through per second, set by the slowest); objects_per_s = successful reads /
//                     time_s (md-workbench's obj/s: objects cycled through the working sets per second)
//   rank time         t_local_end - t_start per rank: min, max, mean, and time_balance = min / max
//                     (md-workbench's balance, as a fraction; md-workbench prints it in percent)
//   rounds_per_s_at_stonewall = aggregate's ops_per_s_at_stonewall / ranks (rounds per rank and second up
//                     to the slowest timer)
// A ratio or rate whose denominator is 0 is 0.
struct SteadyOpSummary {
  std::uint64_t ok = 0;
  std::uint64_t failed = 0;
  double ops_per_s = 0.0;
  LatencySummary latency;
};
struct SteadyPhaseSummary {
  PhaseAggregate aggregate;
  std::array<SteadyOpSummary, kOpKindCount> ops{};
  double bytes_per_s = 0.0;
  std::uint64_t rounds = 0;
  double rounds_per_s = 0.0;
  double objects_per_s = 0.0;
  double rank_time_min_s = 0.0;
  double rank_time_max_s = 0.0;
  double rank_time_mean_s = 0.0;
  double time_balance = 0.0;
  double rounds_per_s_at_stonewall = 0.0;
};
SteadyPhaseSummary summarizeSteadyPhase(const PhaseResult& phase);

// The path (relative to the run's directory) and op of a rank's first error, for messages:
// "delete steady.mdbench.3.1/obj.mdbench.3.1.17: ENOENT (No such file or directory)". "" without error.
std::string describeSteadyError(const RankPhaseRecord& record);

}  // namespace mdbench
