// The runner (runner.hpp): a run as named steps around the phase loop (phase_executor.hpp).
#include "mdbench/run/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mdbench/model/layout.hpp"
#include "mdbench/run/signals.hpp"
#include "mdbench/run/steady_engine.hpp"
#include "mdbench/serverstats/source.hpp"
#include "phase_executor.hpp"
#include "phase_hooks.hpp"
#include "run_steps.hpp"
#include "taken_record.hpp"

namespace mdbench {
namespace {

// One run of a plan on this rank: its steps, each collective, in the order runBenchmark takes them.
class BenchmarkRun {
 public:
  BenchmarkRun(const Plan& plan, RunParts parts, RunInfo info, std::span<Sink* const> sinks)
      : plan_(plan),
        config_(plan.config()),
        parts_(parts),
        sinks_(sinks),
        root_(parts.comm.rank() == 0),
        steady_(config_.steady_rounds > 0),
        creates_(steady_ || plan.runs(Phase::kTreeCreate)),
        removes_(steady_ || plan.runs(Phase::kTreeRemove)),
        targets_(std::max<std::uint32_t>(1, static_cast<std::uint32_t>(config_.targets.size()))),
        // The first rank of each target makes and removes that target's iteration directory.
        leads_target_(parts.comm.rank() < targets_),
        executor_(plan, parts) {
    result_.info = std::move(info);
    result_.config = config_;
    target_ = parts.target.empty() ? result_.info.target : parts.target;
  }

  // The sinks' header; -x's counts when this job does not create; the epoch every rank's times count from.
  // Each setup step is followed by an agreement on a stop: a signal during one (a slow --server-stats
  // command, a slow file system) ends the run before its first phase, on every rank alike.
  void start() {
    if (root_) {
      for (Sink* sink : sinks_) sink->begin(result_.info, plan_);
    }
    run_limits_ = ItemLimits{config_.items, config_.items};
    // Each target's lead reads and writes its target's ownership record for the ranks working there.
    if (targets_ > 1) target_comm_ = parts_.comm.split(parts_.comm.rank() % targets_, parts_.comm.rank());
    if (!config_.stonewall_file.empty() && !creates_) {
      setupStep("reading the -x file",
                [&] { result_.setup_error = readLimits(parts_.comm, config_, run_limits_); });
    }
    if (!config_.per_op_csv_prefix.empty())
      setupStep("opening the --savePerOpDataCSV files", [&] { startPerOpLog(); });
    if (!config_.server_stats.empty()) setupStep("reading --server-stats", [&] { openServerStats(); });
    if (root_ && !config_.faults.empty()) {
      // --steady's faults go into its mix unless --fault-phase names its phases (precreate, mix, cleanup).
      std::vector<std::string> phases = config_.fault_phases;
      if (steady_ && phases.empty()) phases.emplace_back(phaseName(Phase::kSteadyMix));
      faults_ = std::make_unique<FaultInjector>(config_.faults, std::move(phases));
      executor_.setFaults(faults_.get());
    }
    parts_.comm.barrier();
    epoch_ns_ = parts_.clock.nowNs();
    executor_.setEpoch(epoch_ns_);
  }

  // Whether the run goes on to another iteration: not after a setup error or a stop.
  bool goesOn() const { return result_.setup_error.empty() && !stopped(); }

  void runIteration(std::uint32_t iteration) {
    if (!waitPreDelay(iteration)) return;  // before the iteration made anything
    IterationDir it;
    if (!claimIterationDirectory(iteration, it)) return;
    if (stopAgreed(fmt::format("setup (claiming the directory of iteration {})", iteration))) {
      unclaimAfterStop(it);  // no phase of it began: nothing of it is recorded, and its directory goes
      return;
    }
    if (steady_) {
      runSteadyState(iteration, it);
    } else if (!runPhases(iteration, it)) {
      unclaimAfterStop(it);  // stopped before its first phase (a --server-stats read): as above
      return;
    }
    if (stopped() && !keepsTrees(plan_)) cleanUpAfterStop(it);
    releaseMark(it);
  }

  // The sinks' summary; rank 0's result holds every phase.
  RunResult finish() {
    // Per-op files only for a run that measured something (a setup failure or stop leaves none).
    if (per_op_ != nullptr && result_.phases_began)
      noteProblem(agreeOnProblem(parts_.comm, per_op_->finish()));
    per_op_.reset();
    result_.info.end_utc = utcTimestampNow();
    if (root_) {
      for (Sink* sink : sinks_) sink->end(result_, plan_);
    }
    return std::move(result_);
  }

 private:
  bool stopped() const { return result_.stop_signal != 0; }
  // The ranks of this rank's target (all of them with one target), its lead first.
  Comm& targetComm() { return target_comm_ != nullptr ? *target_comm_ : parts_.comm; }

  // Collective: a setup step that every rank runs, unless an earlier one failed or was stopped; then the
  // ranks agree on a stop (the step's own failure was agreed inside it, so every rank gets here alike).
  template <class Step>
  void setupStep(std::string_view what, Step&& step) {
    if (!result_.setup_error.empty() || stopped()) return;
    step();
    (void)stopAgreed(
        fmt::format("setup ({})",
                    what));  // also after a failure: a step abandoned for the stop (--server-stats) is a stop
  }

  // Collective: whether any rank was asked to stop, noting it, and where, as a stop before a phase began
  // (the run then records nothing of what it was setting up: reportStop and the results file say so).
  bool stopAgreed(std::string_view during) {
    result_.stop_signal = agreeOnStop(parts_.comm);
    if (!stopped()) return false;
    result_.steady_stopped_where = fmt::format("during {}, before {}", during,
                                               result_.phases_began ? "the next phase" : "the first phase");
    return true;
  }

  // After a stop agreed right after the claim: undone as after a failed claim, whatever --keep says (no
  // phase put anything in the directory).
  void unclaimAfterStop(IterationDir& it) {
    if (!steady_ && creates_ && leads_target_) (void)removeTakenRecord(parts_.backend, it.handle);
    const std::string kept = undoIterationDir(parts_.comm, parts_.backend, it);
    if (!kept.empty()) noteLeftBehind(kept.substr(2));  // "; <what stays>"
  }

  // --savePerOpDataCSV: every rank's file is checked and begun before anything runs; one that exists on
  // any rank is a setup error (never overwritten).
  void startPerOpLog() {
    auto log = std::make_unique<PerOpLog>();
    const std::string path =
        PerOpLog::pathFor(config_.per_op_csv_prefix, parts_.comm.rank(), result_.info.sweep.step);
    result_.setup_error = agreeOnProblem(parts_.comm, log->open(path));
    if (!result_.setup_error.empty()) return;
    per_op_ = std::move(log);
    executor_.setPerOpLog(per_op_.get());
  }

  // --server-stats: rank 0 reads every source once more (the command line's check read them already); one
  // that became unreadable since is a setup error on every rank.
  void openServerStats() {
    std::string problem;
    if (root_) {
      // A stop never waits for a server: a read under way is given up (a command killed) at once.
      problem = serverstats::ServerSampler::open(config_.server_stats, serverstats::kDefaultTimeout_s,
                                                 server_stats_, [] { return stopSignal() != 0; });
    }
    result_.setup_error = agreeOnProblem(parts_.comm, problem);
  }
  double secondsSinceEpoch() const { return static_cast<double>(parts_.clock.nowNs() - epoch_ns_) * 1e-9; }

  // After a phase, outside its timing: each rank's per-op rows into its file, and rank 0 says how many ops
  // no rank had room to record.
  void endPerOpLog(std::uint32_t iteration, Phase phase) {
    const std::uint64_t dropped = per_op_->end(phaseName(phase), iteration, parts_.comm.rank());
    const std::uint64_t all = parts_.comm.allreduceSum(dropped);
    if (root_ && all > 0) {
      fmt::print(stderr,
                 "mdbench: note: --savePerOpDataCSV: {} ops of {} (iteration {}) not recorded: each rank "
                 "records at most {} per phase\n",
                 all, phaseName(phase), iteration, PerOpLog::kMaxOps);
    }
  }

  // --run-cmd-before-phase / --run-cmd-after-phase: a command that failed on any rank is reported once, by
  // rank 0, and makes the exit status non-zero; the run goes on.
  void agreeOnCommands(std::uint32_t iteration, Phase phase) {
    const auto agree = [&](const std::string& command, const std::string& problem, std::string_view option,
                           std::string_view when) {
      if (command.empty()) return;
      const std::string mine =
          problem.empty()
              ? std::string()
              : fmt::format("{}='{}' {} {} (iteration {}): {}{}", option, command, when, phaseName(phase),
                            iteration, problem, stopSignal() != 0 ? "" : "; the run went on");
      noteProblem(agreeOnProblem(parts_.comm, mine));
    };
    agree(config_.cmd_before_phase, executor_.beforeCommandProblem(), "--run-cmd-before-phase", "before");
    agree(config_.cmd_after_phase, executor_.afterCommandProblem(), "--run-cmd-after-phase", "at the end of");
  }
  // Rank 0 keeps each problem the ranks agreed on: one that the run went on after, or one that left
  // something the run made behind (a sweep ends after that step).
  void noteProblem(const std::string& problem) {
    if (root_ && !problem.empty()) result_.problems.push_back(problem);
  }
  void noteLeftBehind(const std::string& problem) {
    if (root_ && !problem.empty()) result_.cleanup_problems.push_back(problem);
  }

  // -p; false when a signal arrived during it.
  bool waitPreDelay(std::uint32_t iteration) {
    if (config_.pre_delay_s <= 0) return true;
    result_.stop_signal = preDelay(parts_.comm, config_.pre_delay_s);
    if (!stopped()) return true;
    result_.steady_stopped_where = fmt::format("during the pre-delay (-p) of iteration {}", iteration);
    return false;
  }

  // Makes (or finds), opens and marks the iteration directory, and starts its ownership record (not for the
  // steady state, whose directory holds only its own names); false after a setup error, undone.
  bool claimIterationDirectory(std::uint32_t iteration, IterationDir& it) {
    Comm& comm = parts_.comm;
    Backend& backend = parts_.backend;
    it.name = iterationDirName(iteration);
    it.where = fmt::format("{}/{}", target_, it.name);
    it.target = target_;
    result_.setup_error = openIterationDir(comm, backend, it, creates_, leads_target_);
    if (!result_.setup_error.empty()) return false;
    if (steady_) return true;
    const RecordLayout job = recordLayoutOf(config_, comm.size(), comm.rank() % targets_);
    result_.setup_error =
        startOwnership(OwnershipStart{comm, targetComm(), backend, it.handle, creates_, leads_target_},
                       it.where, job, executor_.fates(), result_.setup_usage);
    if (result_.setup_error.empty()) return true;
    if (creates_ && leads_target_) (void)removeTakenRecord(backend, it.handle);
    result_.setup_error += undoIterationDir(comm, backend, it);
    return false;
  }

  // --steady: the engine's three phases in the iteration directory, handed to the sinks.
  void runSteadyState(std::uint32_t iteration, const IterationDir& it) {
    Comm& comm = parts_.comm;
    result_.phases_began = true;
    // The backend's look before creates, as before a create phase (LIBNFS's probe of its library's create):
    // the precreate and the mix create in this iteration's directory, which holds the run's mark.
    parts_.backend.prepareCreates(it.handle);
    SteadyParts steady{comm, parts_.clock, parts_.backend, it.handle};
    steady.series_interval_ns = plan_.settings().series_interval_ns;
    steady.faults = faults_.get();
    steady.iteration = iteration;
    if (root_) {
      steady.after_phase = [&](const PhaseResult& phase) {
        for (Sink* sink : sinks_) sink->phase(phase, plan_);
      };
    }
    SteadyResult measured = runSteady(steadyConfigOf(config_), steady);
    if (root_) {
      for (const PhaseResult& p : measured.phases) {
        for (const FaultRecord& f : p.faults) result_.fault_failed = result_.fault_failed || f.failed();
      }
    }
    result_.stop_signal = agreeOnStop(comm);
    if (root_ && stopped()) {
      result_.steady_stopped_where =
          measured.stopped_in_precreate
              ? fmt::format("in the steady precreate of iteration {} (no mix rounds)", iteration)
              : fmt::format("in the steady mix of iteration {} after {} of {} rounds", iteration,
                            measured.rounds, config_.steady_rounds);
    }
    // Kept for the run's end as a selected phase is (publishPhase): the series' per-rank counts released.
    for (PhaseResult& p : measured.phases) {
      p.series.per_rank = std::vector<std::uint32_t>();
      result_.phases.push_back(std::move(p));
    }
  }

  // The plan's phases in order. A signal on any rank ends the run after the phase it arrived in (which is
  // kept, stopped short). Returns whether any phase began.
  bool runPhases(std::uint32_t iteration, const IterationDir& it) {
    ItemLimits limits = run_limits_;
    executor_.setIteration(iteration);
    bool began = false;
    for (const Phase phase : plan_.phases()) {
      if (!runPhase(iteration, phase, it, limits)) break;
      began = true;
      if (parts_.after_phase) parts_.after_phase(phase);
      result_.stop_signal = agreeOnStop(parts_.comm);
      if (stopped()) break;
    }
    return began;
  }

  // One phase: measured, collected to rank 0, its ownership and -Y's sync agreed, handed to the sinks.
  // False when a stop came before it began (during the --server-stats read before it): then it never runs.
  bool runPhase(std::uint32_t iteration, Phase phase, const IterationDir& it, ItemLimits& limits) {
    Comm& comm = parts_.comm;
    const PhaseInfo& info = phaseInfo(phase);
    // The intent record is written before --server-stats' first read, so that the server's counters for
    // the phase hold the phase's operations only.
    // The backend's look before a create first: recordIntent's agreement then holds every rank's.
    if (info.creates()) {
      parts_.backend.prepareCreates(it.handle);
      recordIntent(phase, it);
    }
    // --server-stats on rank 0: right before the opening barrier and right after the closing one.
    if (!config_.server_stats.empty()) {  // on every rank: the agreement is collective
      if (server_stats_) server_stats_->before(secondsSinceEpoch());
      if (stopAgreed(fmt::format("the --server-stats read before {} of iteration {}", phaseName(phase),
                                 iteration))) {
        // The phase never ran: the record goes back to what was made.
        if (info.creates()) writeRecord(it, fmt::format("when {} did not begin", phaseName(phase)));
        return false;
      }
    }
    result_.phases_began = true;
    if (info.readdir()) executor_.setReaddirLimit(limits.of(itemKindOf(phase)));
    const RankPhaseRecord record = executor_.measure(phase, it.handle, limits, latency_);
    std::vector<FaultRecord> faults = faults_ ? faults_->end() : std::vector<FaultRecord>();
    std::vector<ServerStatsDelta> server =
        server_stats_ ? server_stats_->after(secondsSinceEpoch()) : std::vector<ServerStatsDelta>();
    const std::uint64_t items = info.tree()      ? config_.items
                                : info.readdir() ? limits.of(itemKindOf(phase))
                                                 : executor_.lastItems();
    PhaseResult measured = collectPhase(comm, iteration, phase, items, record, latency_);
    measured.series = collectSeries(comm, executor_.series());
    measured.stall = collectStall(comm, executor_.gaps(), measured.ranks);
    if (root_) noteFaults(measured, std::move(faults));
    measured.server_stats = std::move(server);
    if (server_stats_ && server_stats_->incomplete()) result_.server_stats_incomplete = true;
    if (per_op_ != nullptr) endPerOpLog(iteration, phase);
    agreeOnCommands(iteration, phase);
    if (info.decidesOwnership() || info.tree() || info.action == PhaseAction::kRemove) {
      recordOwnership(phase, it, record);
    }
    if (config_.sync_phases) {
      noteProblem(agreeOnSetup(comm, executor_.lastSyncError(),
                               fmt::format("{} after {} (iteration {})", syncCallName(config_.sync_call),
                                           phaseName(phase), iteration)));
    }
    if (root_) publishPhase(std::move(measured), limits);
    return true;
  }

  // Rank 0, --fault-at: each injected fault's recovery from the phase's series; a failed command fails the
  // run.
  void noteFaults(PhaseResult& measured, std::vector<FaultRecord> faults) {
    const double phase_s = measured.stall.measured ? aggregate(measured.ranks).time_s : 0.0;
    for (FaultRecord& f : faults) {
      if (f.injected) f.recovery_s = recoverySeconds(measured.series, f.t_start, phase_s);
      if (f.failed()) result_.fault_failed = true;
    }
    measured.faults = std::move(faults);
  }

  // Before a create: the record says that every item of the kind the layout plans (up to -n per rank) may be
  // the run's, so that a create job killed outright (SIGKILL, no record after the phase) leaves a record
  // `mdbench clean` acts on: those names, of the type mdbench gives them, where the layout puts them, and
  // nothing beyond. The exact counts replace it after the phase (recordOwnership).
  void recordIntent(Phase phase, const IterationDir& it) {
    ItemFates planned = executor_.fates();
    if (!planned.hasLayout()) return;
    const ItemKind kind = itemKindOf(phase);
    planned.forget(kind);
    planned.setMade(kind, std::vector<std::uint64_t>(planned.layout().ranks, planned.layout().items));
    const int err = leads_target_ ? writeTakenRecord(parts_.backend, it.handle, planned) : 0;
    noteProblem(agreeOnSetup(parts_.comm, err,
                             fmt::format("{}/{} not written before {}: later jobs will refuse this directory",
                                         it.where, kTakenName, phaseName(phase))));
  }

  // After a create or rename: every rank of a target learns the items that failed there and how far each
  // rank's pass went (a stonewall's or a signal's end), and the lead ranks write the record. After the
  // tree's create: whether it is whole. After a remove phase: the items it reached are no longer the run's
  // (a name freed may be taken by anyone), nor the tree after a tree-remove that removed it whole: a tree
  // directory the phase could not remove (something not the run's inside it, a stop) is still the run's,
  // for a later job or mdbench clean to finish once it is empty.
  void recordOwnership(Phase phase, const IterationDir& it, const RankPhaseRecord& record) {
    Comm& comm = parts_.comm;
    ItemFates& fates = executor_.fates();
    if (phase == Phase::kTreeCreate) {
      fates.setTreeComplete(comm.allreduceMax(executor_.treeStopped() ? 1 : 0) == 0);
    } else if (phase == Phase::kTreeRemove) {
      if (targetComm().allreduceMax(record.ok == record.planned ? 0 : 1) == 0) fates.setTreeRemoved();
    } else if (phaseInfo(phase).action == PhaseAction::kRemove) {
      std::vector<std::uint64_t> reach = executor_.reach();
      targetComm().allreduceMaxEach(reach);
      fates.setRemoved(itemKindOf(phase), reach);
    } else {
      executor_.shareFailures(targetComm(), phase);
      std::vector<std::uint64_t> reach = executor_.reach();
      targetComm().allreduceMaxEach(reach);
      if (phaseInfo(phase).creates()) {
        fates.setMade(itemKindOf(phase), reach);
      } else if (phase == Phase::kFileRename) {
        fates.setRenamed(itemKindOf(phase), reach);
      }  // the directory rename rotates names: every directory keeps a name the run made
    }
    writeRecord(it, fmt::format("after {}", phaseName(phase)));
  }

  // The lead ranks write the record of what the run made in the iteration directory; all ranks agree on
  // whether it was written (`when` says when, for the message).
  void writeRecord(const IterationDir& it, const std::string& when) {
    const int err = leads_target_ ? writeTakenRecord(parts_.backend, it.handle, executor_.fates()) : 0;
    noteProblem(agreeOnSetup(parts_.comm, err,
                             fmt::format("{}/{} not written {}: later jobs will refuse this directory",
                                         it.where, kTakenName, when)));
  }

  // Rank 0: -x's counts after a create, the sinks, and the phase kept for the run's end.
  void publishPhase(PhaseResult measured, const ItemLimits& limits) {
    if (!config_.stonewall_file.empty() && phaseInfo(measured.phase).creates()) {
      noteProblem(writeCreateCounts(plan_, limits));
    }
    for (Sink* sink : sinks_) sink->phase(measured, plan_);
    // In the results file now; the sums stay for the run's end. Released, not just emptied (`= {}`
    // would keep the capacity: ranks x intervals counts of every phase held to the end of the run).
    measured.series.per_rank = std::vector<std::uint32_t>();
    result_.phases.push_back(std::move(measured));
  }

  // After a stop: every rank removes its share of what this iteration made, as the remove phases would
  // have (then the lead removes the directory, as after a normal last phase).
  void cleanUpAfterStop(const IterationDir& it) {
    noteLeftBehind(removeAfterStop(parts_.comm, parts_.backend, it, executor_.fates(), targets_));
  }

  // The directory's mark goes last, with the directory, when the run removes its trees.
  void releaseMark(IterationDir& it) {
    const bool removes = stopped() ? !keepsTrees(plan_) : removes_;
    const DirEnd end = leads_target_ && removes ? DirEnd::kRemove : DirEnd::kKeep;
    noteLeftBehind(
        releaseIterationDir(parts_.comm, parts_.backend, it, end, steady_ ? nullptr : &executor_.fates()));
  }

  const Plan& plan_;
  const Config& config_;
  RunParts parts_;
  std::span<Sink* const> sinks_;
  const bool root_;
  const bool steady_;
  const bool creates_;  // this job makes the trees (and the iteration directories)
  const bool removes_;  // and removes them
  const std::uint32_t targets_;
  const bool leads_target_;
  std::string target_;  // this rank's target directory, for messages
  RunResult result_;
  ItemLimits run_limits_;
  PhaseExecutor executor_;
  LatencyHistogram latency_;
  std::unique_ptr<Comm> target_comm_;  // with several targets: the ranks of this rank's target
  std::unique_ptr<PerOpLog> per_op_;   // --savePerOpDataCSV
  std::unique_ptr<serverstats::ServerSampler> server_stats_;  // --server-stats, rank 0 only
  std::unique_ptr<FaultInjector> faults_;                     // --fault-at, rank 0 only
  std::int64_t epoch_ns_ = 0;
};

}  // namespace

RunResult runBenchmark(const Plan& plan, RunParts parts, RunInfo info, std::span<Sink* const> sinks) {
  BenchmarkRun run(plan, parts, std::move(info), sinks);
  run.start();
  for (std::uint32_t iteration = 0; iteration < plan.config().iterations && run.goesOn(); ++iteration) {
    run.runIteration(iteration);
  }
  return run.finish();
}

}  // namespace mdbench
