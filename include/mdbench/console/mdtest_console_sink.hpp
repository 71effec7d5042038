// mdtest 4.1's console layout (--output mdtest), for scripts that parse mdtest logs, and the per-rank
// details file (--saveRankPerformanceDetails=FILE): mdtest's columns, one row per rank, iteration and phase.
#pragma once

#include <cstdio>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mdbench/model/sink.hpp"

namespace mdbench {

// The header lines ("-- started at ...", "mdtest-... was launched with ...", "Command line used:", the
// Path/FS lines, "N tasks, M files/directories"), -v's per-iteration "V-1" lines, then mdtest's SUMMARY
// tables: rate, time (-Z) or both (-P), with --showRankStatistics' per-rank columns and --print-all-procs'
// per-process lines, and "-- finished at ... --". Timestamps are UTC. Numbers are mdbench's (metrics.hpp):
// a row's per-iteration value is the phase's ops/s (or, in the time table, its barrier-to-barrier seconds:
// mdtest labels the table "in ms/op" and prints seconds, and so does this sink).
class MdtestConsoleSink final : public Sink {
 public:
  // `notes`: mdbench's own lines (the -N note, phases too short to time), apart from mdtest's stream, so
  // that a parser of mdtest logs reads mdtest's lines only.
  explicit MdtestConsoleSink(std::FILE* out, std::FILE* notes = stderr) : out_(out), notes_(notes) {}
  void begin(const RunInfo& info, const Plan& plan) override;
  void phase(const PhaseResult& result, const Plan& plan) override;
  void end(const RunResult& result, const Plan& plan) override;

 private:
  void printGroupLines(const PhaseResult& result, const Plan& plan);
  void printContinueStonewall(const PhaseResult& result, const Plan& plan);
  void printReadStonewall(const PhaseResult& result, const Plan& plan);
  void printStonewallCounts(const PhaseResult& result, const Plan& plan, std::uint64_t most);
  std::FILE* out_;
  std::FILE* notes_;
  std::string version_;
  std::vector<PhaseResult> seen_;  // -v: this iteration's phases, for mdtest's grouped V-1 lines
};

// The CSV of --saveRankPerformanceDetails: a header, then one row per run (sweep step), iteration, phase
// (execution order) and rank: rank,iteration,phase,operation,items,failed,rate,time,ranks. operation:
// mdtest's name of the phase ("File creation"), empty where mdtest has none (the readdir phases); items: the
// rank's successful ops; rate: items over its time; time: seconds from the phase's opening barrier to the
// rank's last op (mdtest's time before the closing barrier); rate is 0 when time is 0; ranks: the run's.
std::string rankDetailsCsv(std::span<const RunResult> runs);
inline std::string rankDetailsCsv(const RunResult& run) { return rankDetailsCsv(std::span(&run, 1)); }

// Writes rankDetailsCsv(runs) as the new file `path` (util/file_io: renamed into place, never over a file
// that is there): "" or the problem. A sweep writes the rows of all its steps once, at its end.
std::string writeRankDetails(const std::string& path, std::span<const RunResult> runs);

// Checked before any phase runs (rank 0): "" when FILE can be made, else the usage problem, naming the
// option: FILE exists (it is never overwritten), is not a file, or its directory is missing.
std::string rankDetailsFileProblem(const std::string& path);

// Writes rankDetailsCsv to FILE at the end of the run (rank 0): a new file renamed into place, never over
// an existing one (util/file_io). error() is "" or the problem.
class RankDetailsSink final : public Sink {
 public:
  explicit RankDetailsSink(std::string path) : path_(std::move(path)) {}
  void begin(const RunInfo&, const Plan&) override {}
  void phase(const PhaseResult&, const Plan&) override {}
  void end(const RunResult& result, const Plan& plan) override;
  const std::string& error() const { return error_; }

 private:
  std::string path_;
  std::string error_;
};

}  // namespace mdbench
