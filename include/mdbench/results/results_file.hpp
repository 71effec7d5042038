// The results file (results-schema/): the HDF5 writer, a sink on rank 0, and the reader behind validate,
// export and report.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/config/config.hpp"
#include "mdbench/model/fault.hpp"
#include "mdbench/model/imported.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/ops_series.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/rate_timing.hpp"
#include "mdbench/model/result.hpp"
#include "mdbench/model/run_result.hpp"
#include "mdbench/model/server_stats.hpp"
#include "mdbench/model/sink.hpp"
#include "mdbench/model/steady.hpp"

namespace mdbench {

inline constexpr std::string_view kSchemaName = "mdbench-results";
inline constexpr std::uint32_t kSchemaVersion = 10;
// Readers accept every version from this one on: each later version only added objects, which the files of
// an earlier version lack (version 5's throughput over time: StoredPhase::has_series is false then).
inline constexpr std::uint32_t kOldestReadableSchemaVersion = 3;
// The first version whose phases have ops_per_interval and the first/last-done rates.
inline constexpr std::uint32_t kSeriesSchemaVersion = 5;
// The first version with the run's path_style, api and barrier_timed attributes and the config's
// collective_creates, sync_creates_only, cmd_before_phase, cmd_after_phase and per_op_csv_prefix (mdtest's
// options). Earlier files were made by the dirfd style on POSIX, barrier-timed, without those options.
inline constexpr std::uint32_t kMdtestSchemaVersion = 6;
// The first version whose phase_rename is -U alone (mdtest's directory rename, rotating names) beside
// phase_file_rename (--file-rename); earlier files' phase_rename selected both rename phases.
inline constexpr std::uint32_t kFileRenameSchemaVersion = 8;
// The first version whose --steady phases have what the selected phases have over time (model's
// PhaseTimeline): ops_per_interval and its totals, the stall and the faults.
inline constexpr std::uint32_t kSteadyTimelineSchemaVersion = 10;

class ResultsFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes runs into a results file with the default (serial) HDF5 driver, on rank 0 only. Each sink
// call writes its part and flushes, so a job killed mid-run leaves a valid file with every finished
// phase (status "running", no summary). One run per begin() ... finish(); a begin() after finish() reopens
// the file and writes the next run group (a sweep writes one per step).
class Hdf5Sink final : public Sink {
 public:
  // Creates or opens the file. Throws ResultsFileError with a message naming the path and the cause
  // (already exists, not a results file, cannot create, ...). exists_error is set to true when the
  // failure is an existing file in kCreate mode (the caller reports that as a usage error).
  static std::unique_ptr<Hdf5Sink> open(const std::string& path, OutputMode mode, bool& exists_error);
  ~Hdf5Sink() override;
  Hdf5Sink(const Hdf5Sink&) = delete;
  Hdf5Sink& operator=(const Hdf5Sink&) = delete;

  // The run group, status "running"; after finish(), the file is reopened and the next group begun.
  void begin(const RunInfo& info, const Plan& plan) override;
  // A phase group, flushed; --steady's phases (schema version 5) go to iterations/iter-NNNN/steady/<phase>,
  // each flushed as it is done (a job killed in the mix keeps its precreate), the mix with the iteration's
  // agreed rounds.
  void phase(const PhaseResult& result, const Plan& plan) override;
  void end(const RunResult& result, const Plan& plan) override;  // summary and end_utc
  // With --force or --append onto an existing file, nothing is written before the run's first phase (or
  // steady iteration): commit() writes what begin() held back (phase() calls it). False when
  // the results could not be written (reported once, as every write failure).
  bool commit();
  // Whether the file holds this run: false while --force or --append still hold back (no phase ran:
  // the existing file is exactly as it was).
  bool holdsRun() const;
  // Status "complete" (exit 0) or "failed", the exit status; closes the file. Throws ResultsFileError when
  // a write failed, or when the path no longer names the file written (removed during the run).
  void finish(int exit_status);

  const std::string& path() const { return path_; }
  // "/runs/run-0000": the group of the run begin() began last (before it: the one it will begin).
  const std::string& runGroup() const { return run_group_; }

 private:
  struct Impl;
  Hdf5Sink(std::string path, std::unique_ptr<Impl> impl);
  std::string path_;
  std::string run_group_;
  std::unique_ptr<Impl> impl_;
};

// What a results file holds, as plain data: the result types the runner made (model's result.hpp and
// steady.hpp), written and read back as they are, with what the file stores beside them.
struct StoredError {
  std::uint32_t rank = 0;
  std::int32_t err = 0;
  std::string errno_name;
  std::string path;
  OpKind kind = OpKind::kMkdir;  // a --steady phase's: the kind of op that failed (its `op` column)
};

// A phase as stored, of either workload: the PhaseResult the runner wrote, with the phase group's own
// attributes beside it. Its ranks are the rows of `ranks` in rank order (the row's derived columns rank,
// node and rate are not kept: they are the index, the run's node_of_rank and rankRate(record), which
// `mdbench validate` checks; a rank's first_error is not stored as numbers, `errors` holds its text). Its
// latency is the histogram `latency`; series, server_stats, stall and faults are as stored (empty, or not
// measured, in files of versions before theirs).
// A --steady phase (schema version 5; iterations/iter-NNNN/steady/<phase>) is read into the same type: its
// rows hold the counters of all six op kinds (those the phase does not do 0), its kind_latency the
// histograms latency_<op> of its kinds and latency their sum, its items the iteration's rounds (the mix) or
// 0; its attributes are `summary` (summarizeSteadyPhase's numbers as stored; the mix-only fields and the
// per-kind fields of kinds it does not do are 0), and aggregate, latency_summary and done are computed from
// its rows, histograms and series (metrics' aggregate, latencySummary, doneRates: what a selected phase
// stores), so that what is shown of any phase (its timeline, failover, size) is read one way. Its series,
// stall and faults are stored from version 10 on (kSteadyTimelineSchemaVersion).
struct StoredPhase : PhaseResult {
  std::string group;         // "/runs/run-0000/iterations/iter-0000/file-create", ".../iter-0000/steady/mix"
  std::uint32_t order = 0;   // its place in its iteration (a steady phase's: in kSteadyPhases)
  PhaseAggregate aggregate;  // as stored in the attributes (a steady phase's: computed, see above)
  std::string rate_formula;
  LatencySummary latency_summary;
  SteadyPhaseSummary summary;  // a steady phase's attributes as stored
  std::vector<StoredError> errors;
  // Throughput over time and the first/last-done rates (schema version 5; a steady phase's 10). Files of
  // earlier versions have neither: has_series is false, the series empty and the rates 0.
  // series.intervals is the column count of ops_per_interval, per_rank its rows (one per rank) as stored,
  // total ops_per_interval_total as stored (its length is not checked here: `mdbench validate` does that).
  bool has_series = false;
  DoneRates done;
};

// A steady phase's aggregate, latency_summary and done from its rows, histograms and series, as the reader
// fills them (what a selected phase stores).
void deriveFromRows(StoredPhase& phase);

// A stored phase's size for the rule on phases too short to time (model's rate_timing.hpp): its ok, its
// ranks with work (all `run_ranks` when none had), the slowest rank's time to its last op from its rows.
PhaseSize phaseSize(const StoredPhase& phase, std::uint32_t run_ranks);

struct StoredSummary {
  Phase phase = Phase::kTreeCreate;
  IterationSummary summary;
};

// A run as stored: the measured part of the runner's RunResult (run_result.hpp: info, config, phases, each
// as the same type or that type with the file's attributes beside it), with the run group's own
// attributes (status, exit status, node map, latency buckets, summary). What only the runner has (its
// problems, stop signal, setup error) is in the file as the status and exit status it led to.
struct StoredRun {
  std::string group;  // "/runs/run-0000"
  RunInfo info;       // including host_of_rank
  std::string status;
  std::int32_t exit_status = -1;
  std::uint32_t ranks_per_node_min = 0;
  std::uint32_t ranks_per_node_max = 0;
  std::vector<std::uint32_t> node_of_rank;
  std::vector<std::uint64_t> bucket_low;
  std::vector<std::uint64_t> bucket_high;
  Config config;                 // config.series_interval_s keeps its default when !has_series
  std::uint32_t shift_used = 0;  // the plan's rank shift (Plan::shift()); config.shift is -N as given
  bool has_series = false;       // schema version 5: config series_interval_s and every phase's series
  // Schema version 6: the run attributes path_style, api and barrier_timed (into config.path_style, .api
  // and .no_barriers) and mdtest's options in the config group. False for older files, read as dirfd,
  // POSIX, barrier-timed.
  // By iteration, then execution order: the selected phases' groups, or a --steady run's (config
  // steady_rounds > 0) steady phases, as many of each iteration's as were stored (a mix's items are its
  // steady group's rounds).
  std::vector<StoredPhase> phases;
  bool has_summary = false;
  std::vector<StoredSummary> summaries;  // in execution order
  bool has_mdtest_options = false;       // schema version 6 (kMdtestSchemaVersion)
};

struct StoredResults {
  std::string schema;
  std::uint32_t schema_version = 0;
  std::vector<StoredRun> runs;  // by group name
  // Imported output of other tools (mdbench import; schema version 4), by group name.
  std::vector<DataPathImport> datapath;          // /datapath/import-NNNN
  std::vector<MetadataImport> metadata_imports;  // /metadata-imports/import-NNNN
};

// Reads a whole results file. Throws ResultsFileError naming the file and the object that is missing or
// of the wrong type. Reads with the default driver; never needs MPI.
StoredResults readResultsFile(const std::string& path);

// Adds the imported results of other tools (mdbench import) to a results file as /datapath/import-NNNN
// and /metadata-imports/import-NNNN groups: kCreate makes a new file (an existing one is an error),
// kAppend adds to an existing results file of this version (or creates it); kForce is not accepted
// (imports never replace a file). Returns the group paths written. Throws ResultsFileError.
struct ImportRecord {
  std::string imported_utc;     // when mdbench import ran (ISO 8601)
  std::string mdbench_version;  // the importing binary
};
std::vector<std::string> writeImports(const std::string& path, OutputMode mode,
                                      const std::vector<DataPathImport>& datapath,
                                      const std::vector<MetadataImport>& metadata,
                                      const ImportRecord& record);

// The next run group name in a file holding `existing` run groups: "run-0000", "run-0001", ...
std::string runGroupName(std::uint32_t index);

}  // namespace mdbench
