// The steps of a run around an iteration's phases: run_steps.hpp.
#include "run_steps.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <thread>

#include "mdbench/backend/cleanup.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/run/signals.hpp"
#include "mdbench/run/stonewall_file.hpp"
#include "mdbench/util/errno_name.hpp"
#include "taken_record.hpp"

namespace mdbench {
namespace {

// Collective: makes the iteration directory the run's own. The rank that made it writes its mark; a run
// that did not make it (a later job of a split workload) uses it only when it carries a mark mdbench wrote
// for it (cleanup.hpp), so a directory of that name that mdbench did not make is never used, nor anything
// removed in it. `creates` is the same on every rank; `leads` is true on the first rank of each target.
// Every rank names its own directory in the message.
std::string claimIterationDir(Comm& comm, Backend& backend, IterationDir& it, bool creates, bool leads) {
  if (creates) {
    const int err = leads ? backend.writeMark(it.handle) : 0;
    it.marked = leads && err == 0;
    return agreeOnSetup(comm, err, fmt::format("cannot mark {} as this run's", it.where));
  }
  const MarkKind kind = leads ? backend.readMark(it.handle) : MarkKind::kOurs;
  return agreeOnProblem(comm, markRefusal(it.where, kind));
}

}  // namespace

bool keepsTrees(const Plan& plan) {
  if (plan.config().steady_rounds > 0) return false;  // the steady state always cleans up after itself
  return plan.config().keep || !plan.runs(Phase::kTreeRemove);
}

SteadyConfig steadyConfigOf(const Config& config) {
  SteadyConfig steady;
  steady.datasets = config.datasets;
  steady.working_set = config.items / config.datasets;
  steady.rounds = config.steady_rounds;
  steady.offset = steadyRingOffset(config);
  steady.object_bytes = config.write_bytes;
  steady.stonewall_s = config.stonewall_s;
  return steady;
}

std::string readLimits(Comm& comm, const Config& config, ItemLimits& limits) {
  std::string error;
  StonewallCounts counts;
  if (comm.rank() == 0) error = readStonewallFile(config.stonewall_file, counts);
  comm.broadcast(error);
  if (!error.empty()) return error;
  std::string text = comm.rank() == 0 ? fmt::format("{} {}", counts.dirs.value_or(limits.dirs),
                                                    counts.files.value_or(limits.files))
                                      : std::string();
  comm.broadcast(text);
  std::sscanf(text.c_str(), "%lu %lu", &limits.dirs, &limits.files);
  for (const std::uint64_t count : {limits.dirs, limits.files}) {
    if (count > config.items) {
      return fmt::format(
          "{}: a count of {} is more than -n {}: run with the -n of the job that created the items",
          config.stonewall_file, count, config.items);
    }
  }
  return {};
}

// Both kinds' counts when both were created, so a later job of either kind finds its own.
std::string writeCreateCounts(const Plan& plan, const ItemLimits& limits) {
  StonewallCounts counts;
  if (plan.runs(Phase::kDirCreate)) counts.dirs = limits.dirs;
  if (plan.runs(Phase::kFileCreate)) counts.files = limits.files;
  return writeStonewallFile(plan.config().stonewall_file, counts);
}

// Collective: undoes what openIterationDir did on this rank, in reverse order: the mark it wrote, the
// directory it made. A directory that is no longer empty stays, with its mark, and is reported.
std::string undoIterationDir(Comm& comm, Backend& backend, IterationDir& it) {
  const std::string mark_name(kMarkName);
  const OwnFilesScope own(backend);
  int err = 0;
  if (it.marked) err = backend.unlinkFile(it.handle, mark_name.c_str());
  if (it.made && err == 0) {
    err = backend.removeDir(backend.root(), it.name.c_str());
    if (err != 0 && it.marked) (void)backend.writeMark(it.handle);  // the same bytes as the one removed
  }
  if (it.handle.valid()) (void)backend.closeDir(it.handle);
  it.handle = DirHandle{};
  const std::string problem = agreeOnSetup(comm, err, fmt::format("{} kept", it.where));
  return problem.empty() ? std::string() : "; " + problem;
}

// Collective: makes (when the run creates the trees), opens and claims the iteration directory. On a failure
// on any rank, every rank undoes its part and the message names the failing rank's own directory.
std::string openIterationDir(Comm& comm, Backend& backend, IterationDir& it, bool creates, bool leads) {
  int err = (leads && creates) ? backend.makeDir(backend.root(), it.name.c_str()) : 0;
  it.made = leads && creates && err == 0;
  // A create job run twice: mdtest warns and exits 0 over the old items; mdbench touches nothing and says
  // what to do, naming each failing rank's own target.
  std::string error = agreeOnProblem(
      comm, err == 0 ? std::string()
                     : fmt::format("cannot create {}: {}{}", it.where, describeErrno(err),
                                   err != EEXIST ? ""
                                                 : fmt::format(": an earlier run left it; a -r job (with the "
                                                               "create job's options) removes its items, "
                                                               "'mdbench clean {}' removes what any run "
                                                               "left, or choose another -d",
                                                               it.target)));
  if (error.empty()) {
    err = backend.openDir(backend.root(), it.name.c_str(), it.handle);
    error = agreeOnSetup(
        comm, err,
        fmt::format("cannot open {}{}", it.where, creates ? "" : " (left by an earlier create run?)"));
  }
  if (error.empty()) error = claimIterationDir(comm, backend, it, creates, leads);
  if (!error.empty()) error += undoIterationDir(comm, backend, it);
  return error;
}

// Collective, once the iteration directory is claimed: a job that creates starts with nothing made and
// leaves that record at once (so a later job always finds one, even after a stop); a later job reads the
// record the create job left, and refuses the directory when there is none, it is damaged, or the job's
// layout is not the one the items were made in.
std::string startOwnership(const OwnershipStart& start, const std::string& where, const RecordLayout& job,
                           ItemFates& fates, bool& usage) {
  usage = false;
  fates.clear();
  if (!start.creates) {
    return loadTakenRecords(start.comm, start.target_comm, start.backend, start.dir, start.leads, where, job,
                            fates, usage);
  }
  fates.setLayout(job);
  const int err = start.leads ? writeTakenRecord(start.backend, start.dir, fates) : 0;
  return agreeOnSetup(start.comm, err, fmt::format("cannot write {}/{}", where, kTakenName));
}

// Collective: -p, slept in slices of at most 0.1 s, with the ranks agreeing after each on a stop request,
// so that a signal ends the wait within a slice everywhere (the same number of slices on every rank: the
// same collectives). Returns the signal, or 0 after the whole delay.
int preDelay(Comm& comm, double delay_s) {
  static constexpr double kSlice_s = 0.1;
  const auto slices = static_cast<std::uint64_t>(std::ceil(delay_s / kSlice_s));
  const std::chrono::duration<double> slice(delay_s / static_cast<double>(slices));
  for (std::uint64_t i = 0; i < slices; ++i) {
    std::this_thread::sleep_for(slice);
    if (const int signal = agreeOnStop(comm); signal != 0) return signal;
  }
  return 0;
}

// Each rank of a target takes its part of the directory's top-level entries (cleanup.hpp's hash), so the
// ranks remove in parallel; a second signal ends the process at once. The barrier: every rank is done
// before the lead removes the directory itself (releaseIterationDir).
std::string removeAfterStop(Comm& comm, Backend& backend, const IterationDir& it, const ItemFates& fates,
                            std::uint32_t targets) {
  const auto rank = comm.rank();
  const std::uint32_t parts = (comm.size() - rank % targets + targets - 1) / targets;
  CleanTally tally;
  CleanOptions options{false, rank / targets, parts};
  options.leave = &fates;  // what the run did not make stays, as in the phases
  (void)backend.removeGenerated(it.handle, options, tally);
  const std::uint64_t kept = comm.allreduceMax(tally.kept);
  std::string problem;
  if (kept > 0) {
    problem = fmt::format("{}: {} entries mdbench did not make were left{}", it.where, kept,
                          tally.notes.empty() ? "" : ": " + tally.notes[0]);
  }
  comm.barrier();
  return problem;
}

// The last phase ended in a barrier, so every rank is done with the tree: the mark goes last, and comes
// back when the directory cannot go (it holds something, and stays recognisable as a run's). A mark this
// job did not find or write (replaced meanwhile) is never removed, and neither is its directory; one put
// back is byte for byte the one removed (the text depends only on the inode).
std::string releaseIterationDir(Comm& comm, Backend& backend, IterationDir& it, DirEnd end,
                                const ItemFates* record) {
  int err = 0;
  std::string problem;
  const OwnFilesScope own(backend);
  if (end == DirEnd::kRemove) {
    if (const MarkKind kind = backend.readMark(it.handle); kind != MarkKind::kOurs) {
      problem = fmt::format("{} not removed: its mark changed while the run worked in it: {}", it.where,
                            markRefusal(it.where, kind));
    } else if ((err = record == nullptr ? 0 : removeTakenRecord(backend, it.handle)) == 0 &&
               (err = backend.unlinkFile(it.handle, std::string(kMarkName).c_str())) == 0 &&
               (err = backend.removeDir(backend.root(), it.name.c_str())) != 0) {
      (void)backend.writeMark(it.handle);
      if (record != nullptr) (void)writeTakenRecord(backend, it.handle, *record);
    }
  }
  (void)backend.closeDir(it.handle);
  it.handle = DirHandle{};
  if (err != 0) problem = fmt::format("{} not removed: {}", it.where, describeErrno(err));
  return agreeOnProblem(comm, problem);
}

}  // namespace mdbench
