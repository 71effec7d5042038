// The phase loop of one rank (runner.cpp's steps run it): the barrier-timed measurement of a phase, the hot
// loops over items and directories, the stonewall's wear-out and the ownership of names. Private to the
// runner; one class in a header because its loops are templates the runner alone instantiates.
#pragma once

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "dir_cursor.hpp"
#include "dir_rotation.hpp"
#include "fault_injector.hpp"
#include "mdbench/model/data_pattern.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/run/runner.hpp"
#include "mdbench/run/signals.hpp"
#include "phase_hooks.hpp"
#include "run_steps.hpp"
#include "taken_record.hpp"

namespace mdbench {

// An item's name in an item phase by the ownership record: under the name the record says the item has
// (the original, or the renamed one after a rename that succeeded), or nullptr for an item this run did not
// make (skipped; error() is what the phase counts it failed with: not made by the create job, not created,
// EEXIST for a name found taken). One test per op when every item up to the phase's limit is the run's
// under one name.
class PhaseNames {
 public:
  PhaseNames(const ItemFates& fates, ItemKind kind, std::uint32_t owner, std::uint64_t limit)
      : fates_(fates),
        kind_(kind),
        owner_(owner),
        original_(kind, owner, NameForm::kOriginal),
        renamed_(kind, owner, NameForm::kRenamed) {
    uniform_ = fates.uniform(kind, owner, limit, where_);
  }

  const char* operator()(std::uint64_t item) {
    if (uniform_) [[likely]]
      return where_ == ItemState::Where::kRenamed ? renamed_.name(item) : original_.name(item);
    const ItemState state = fates_.state(kind_, owner_, item);
    where_ = state.where;
    err_ = state.err;
    switch (state.where) {
      case ItemState::Where::kNone:
        return nullptr;
      case ItemState::Where::kRenamed:
        return renamed_.name(item);
      default:
        return original_.name(item);
    }
  }
  // After operator(): why the item was skipped, and whether its name is the renamed one.
  int error() const { return err_; }
  bool atRenamedName() const { return where_ == ItemState::Where::kRenamed; }
  // The original name whatever the item's fate: for the creates, which decide it.
  const char* planned(std::uint64_t item) { return original_.name(item); }

 private:
  const ItemFates& fates_;
  ItemKind kind_;
  std::uint32_t owner_;
  ItemNamer original_;
  ItemNamer renamed_;
  bool uniform_ = false;
  ItemState::Where where_ = ItemState::Where::kOriginal;
  int err_ = 0;
};

// Everything one rank needs to measure a phase.
class PhaseExecutor {
  // A readdir count or a -X data check that does not match: a failed op with this errno.
  static constexpr int kMismatch = EBADMSG;
  static constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
  // A read, remove or rename phase lists each directory once for the type checks (TypeCheckBatch) when
  // the tree is the rank's own or shared by at most this many ranks: beyond, each listing costs more.
  static constexpr std::uint32_t kMaxRanksListingSharedDirs = 8;
  // Which of a phase's items a pass of the item loop visits: all, or -S's two steps of a create (the names
  // this rank creates, then the names it opens after their creators made them).
  enum class Pick : std::uint8_t { kAll, kMine, kOthers };

 public:
  PhaseExecutor(const Plan& plan, RunParts parts)
      : plan_(plan),
        settings_(plan.settings()),
        parts_(parts),
        rank_(parts.comm.rank()),
        pattern_(settings_.pattern) {
    write_data_.resize(settings_.write_bytes);
    read_buf_.resize(settings_.read_bytes);
    create_options_.mode = CreateMode::kExclusive;
    create_options_.fsync = settings_.fsync_writes;
  }

  void setEpoch(std::int64_t epoch_ns) { epoch_ns_ = epoch_ns; }
  void setIteration(std::uint32_t iteration) { iteration_ = iteration; }
  // The last phase's ops per interval on this rank (collectSeries gathers them).
  SeriesRecorder& series() { return series_; }
  // This rank's gaps between successful completions (collectStall); rank 0's --fault-at injector (t_start).
  const GapRecorder& gaps() const { return gaps_; }
  void setFaults(FaultInjector* faults) { faults_ = faults; }
  // --savePerOpDataCSV: the log every op of the following phases goes into (nullptr: off).
  void setPerOpLog(PerOpLog* log) { per_op_ = log; }
  // What the last phase's --run-cmd-before-phase and --run-cmd-after-phase said on this rank ("" when
  // they succeeded or there were none).
  const std::string& beforeCommandProblem() const { return before_problem_; }
  const std::string& afterCommandProblem() const { return after_problem_; }

  // --run-cmd-before-phase, barrier, t_start, the planned operations (with the stonewall's agreement and
  // wear-out), -Y's sync, --run-cmd-after-phase, t_local_end, barrier, t_global_end. With -B no barrier:
  // each rank goes on to the phase's work and then out of it on its own, and its t_global_end is its
  // t_local_end. With -c rank 0 does every rank's operations of the collective phases (metrics.hpp).
  RankPhaseRecord measure(Phase phase, DirHandle iteration_dir, ItemLimits& limits,
                          LatencyHistogram& latency) {
    RankPhaseRecord record;
    const PhaseSettings& settings = settings_;
    const PhaseInfo& info = phaseInfo(phase);
    const std::uint64_t limit = info.itemOps() ? limits.of(itemKindOf(phase)) : 0;
    const bool collective = plan_.collective(phase);
    record.planned = collective ? collectivePlanned(phase, limit) : plannedOps(phase, limit);
    latency = LatencyHistogram{};
    record_ = &record;
    latency_ = &latency;
    const std::uint32_t owner = plan_.owner(phase, rank_);
    DirCursor cursor(parts_.backend, iteration_dir, plan_.layout(), settings.sharing, owner);
    const StonewallRule rule = plan_.stonewallIn(phase);
    if (settings.write_bytes > 0) pattern_.fill(write_data_, owner);

    before_problem_ =
        settings.cmd_before_phase.empty() ? std::string() : runCommand(settings.cmd_before_phase, phase);
    if (listsBeforePhase(phase)) shareTypeListings(iteration_dir, owner, itemKindOf(phase));
    const std::int64_t t_start = openPhase(phase, record.planned, rule);
    if (info.creates()) fates_.forget(itemKindOf(phase));  // this iteration's creates decide afresh
    std::uint64_t reached = 0;
    reach_.assign(plan_.ranks(), 0);
    if (collective) {
      if (record.planned > 0) executeForEveryOwner(phase, iteration_dir, limit);
    } else if (record.planned > 0) {
      reached = execute(phase, cursor, owner, 0, limit);
    }
    items_ = limit;
    if (rule == StonewallRule::kStopAndWearOut) reached = wearOut(phase, cursor, owner, reached, limits);
    if (!collective) noteReach(owner, reached);
    if (phase == Phase::kTreeCreate) tree_stopped_ = stopped_;
    closePhase(phase, t_start);
    return record;
  }

 private:
  double seconds(std::int64_t ns) const { return static_cast<double>(ns - epoch_ns_) * 1e-9; }

  std::string runCommand(const std::string& command, Phase phase) const {
    return runPhaseCommand(command, phaseName(phase), iteration_, rank_);
  }

  // -c: rank 0's ops in a collective phase, every rank's (items up to `limit`, or a tree each).
  std::uint64_t collectivePlanned(Phase phase, std::uint64_t limit) const {
    if (rank_ != 0) return 0;
    const std::uint64_t each = phaseInfo(phase).itemOps() ? limit : plan_.layout().dirCount();
    return each * plan_.ranks();
  }

  // -c on rank 0: the phase's operations for every rank's items (or tree) in turn, as mdtest's
  // collective_create_remove, each with the data its owner would have written.
  void executeForEveryOwner(Phase phase, DirHandle iteration_dir, std::uint64_t limit) {
    for (std::uint32_t owner = 0; owner < plan_.ranks() && !stopped_; ++owner) {
      DirCursor cursor(parts_.backend, iteration_dir, plan_.layout(), settings_.sharing, owner);
      if (settings_.write_bytes > 0) pattern_.fill(write_data_, owner);
      noteReach(owner, execute(phase, cursor, owner, 0, limit));
    }
  }

  // The items of `owner` this rank's pass of the phase attempted: [0, reached). With -S the creates are
  // kept per creating rank (ItemFates::slotOf), and rank 0's renames of the shared names count for all.
  void noteReach(std::uint32_t owner, std::uint64_t reached) {
    if (owner != kSharedOwner) {
      if (owner < reach_.size()) reach_[owner] = std::max(reach_[owner], reached);
      return;
    }
    if (shared_reach_set_) return;  // createShared noted the creating rank's own pass
    std::fill(reach_.begin(), reach_.end(), reached);
  }

  // The opening barrier and t_start; the series, progress line and stonewall deadline start from it.
  std::int64_t openPhase(Phase phase, std::uint64_t planned, StonewallRule rule) {
    const PhaseSettings& settings = settings_;
    if (!settings.no_barriers) parts_.comm.barrier();
    const std::int64_t t_start = parts_.clock.nowNs();
    series_.begin(t_start, settings.series_interval_ns);
    gaps_.begin(t_start, epoch_ns_);
    if (faults_ != nullptr) faults_->begin(phaseName(phase), iteration_);
    if (per_op_ != nullptr) per_op_->begin(t_start, planned);
    if (parts_.progress != nullptr) {
      parts_.progress->beginPhase(phaseName(phase), iteration_, settings.iterations, planned, t_start);
    }
    next_tick_ = nextTick();
    deadline_ns_ = rule == StonewallRule::kNone ? kNever : t_start + settings.stonewall_ns;
    stop_at_deadline_ = rule == StonewallRule::kStopAndWearOut;
    stopped_ = false;
    name_made_ = false;
    shared_reach_set_ = false;
    failed_here_.clear();
    failed_overflow_ = false;
    return t_start;
  }

  // After a stonewall that stops the phase: the ranks agree on the furthest count any reached and those
  // behind go on to it. Every rank takes part, also those with nothing to do, so no rank waits alone.
  // Returns where this rank's pass ended.
  std::uint64_t wearOut(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t reached,
                        ItemLimits& limits) {
    RankPhaseRecord& record = *record_;
    const std::uint64_t furthest = parts_.comm.allreduceMax(reached);
    deadline_ns_ = kNever;
    if (record.planned > 0 && reached < furthest && !stopped_)
      reached = execute(phase, cursor, owner, reached, furthest);
    if (phaseInfo(phase).creates()) limits.of(itemKindOf(phase)) = furthest;
    record.planned = plannedOps(phase, furthest);
    items_ = furthest;
    return reached;
  }

  // The counts' last word, -Y's sync, --run-cmd-after-phase, t_local_end, the closing barrier (not with -B)
  // and t_global_end.
  void closePhase(Phase phase, std::int64_t t_start) {
    const PhaseSettings& settings = settings_;
    RankPhaseRecord& record = *record_;
    // Stopped by a signal: the ops it did are what it planned (as after a stonewall), so counts stay exact.
    if (stopped_) record.planned = record.ok + record.failed;
    if (record.t_stonewall == 0.0) record.ops_at_stonewall = record.ok;
    // -Y: inside the timed region, as mdtest does; not an op of the phase, so a failure is reported apart.
    sync_error_ = plan_.syncsAfter(phase) ? parts_.backend.syncFileSystem() : 0;
    // Inside the timing, as mdtest runs its epilogue before the closing barrier.
    after_problem_ =
        settings.cmd_after_phase.empty() ? std::string() : runCommand(settings.cmd_after_phase, phase);
    const std::int64_t t_local_end = parts_.clock.nowNs();
    series_.finish(t_local_end, record.ok);
    gaps_.finish();
    next_tick_ = kNever;
    if (!settings.no_barriers) closingBarrier(t_local_end, record.ok + record.failed);
    const std::int64_t t_global_end = settings.no_barriers ? t_local_end : parts_.clock.nowNs();
    if (parts_.progress != nullptr) parts_.progress->endPhase();

    record.t_start = seconds(t_start);
    record.t_local_end = seconds(t_local_end);
    record.t_global_end = seconds(t_global_end);
  }

  // With --progress, rank 0 keeps printing while it waits for the others (`done`: its ops).
  void closingBarrier(std::int64_t t_local_end, std::uint64_t done) {
    if (!parts_.progress_barrier) {
      parts_.comm.barrier();
      return;
    }
    ProgressReporter* progress = parts_.progress;
    if (progress != nullptr) progress->waiting(t_local_end, done);  // when rank 0 finished
    parts_.comm.barrierPolling(progress == nullptr ? std::function<void()>() : [this, progress, done] {
      const std::int64_t now = parts_.clock.nowNs();
      if (now >= progress->nextUpdateNs()) progress->waiting(now, done);
    });
  }

  // The next time the loops must call tick(): the end of the series' interval or rank 0's next progress line.
  std::int64_t nextTick() const {
    const std::int64_t progress = parts_.progress != nullptr ? parts_.progress->nextUpdateNs() : kNever;
    return std::min(series_.nextBoundary(), progress);
  }

  // Called by the loops when the clock reached next_tick_, before the op that completed at `now` is counted
  // (it belongs to the interval `now` is in). Rare: once per interval and progress line.
  void tick(std::int64_t now) {
    const RankPhaseRecord& record = *record_;
    if (now >= series_.nextBoundary()) series_.tick(now, record.ok);
    if (parts_.progress != nullptr && now >= parts_.progress->nextUpdateNs()) {
      parts_.progress->update(now, record.ok + record.failed);
    }
    next_tick_ = nextTick();
  }

  // The plan's count, with the item phases limited to the items that exist in this iteration.
  std::uint64_t plannedOps(Phase phase, std::uint64_t limit) const {
    const std::uint64_t planned = plan_.plannedOps(phase, rank_);
    if (!phaseInfo(phase).itemOps() || planned == 0) return planned;
    return limit;
  }

  // Runs items [from, to) of the phase's order; returns where it stopped (`to`, or earlier when the
  // stonewall fired and the phase stops for it).
  std::uint64_t execute(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                        std::uint64_t to) {
    Backend& b = parts_.backend;
    switch (phase) {
      case Phase::kTreeCreate:
        treeLoop(cursor, owner, TreeOrder::kPreorder,
                 [&b](DirHandle parent, const char* name) { return b.makeDir(parent, name); });
        return to;
      case Phase::kTreeRemove:
        treeLoop(cursor, owner, TreeOrder::kPostorder,
                 [&b](DirHandle parent, const char* name) { return b.removeDir(parent, name); });
        return to;
      case Phase::kDirReaddir:
      case Phase::kFileReaddir:
        readdirLoop(phase, cursor, owner);
        return to;
      default:
        return executeItems(phase, cursor, owner, from, to);
    }
  }

  // The item phases: one backend call per item.
  std::uint64_t executeItems(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                             std::uint64_t to) {
    Backend& b = parts_.backend;
    const ItemKind kind = itemKindOf(phase);
    PhaseNames names(fates_, kind, owner, to);
    switch (phase) {
      case Phase::kDirCreate:
        return itemLoop(phase, cursor, owner, from, to, 0, [&](DirHandle dir, std::uint64_t item) {
          return b.makeDir(dir, names.planned(item));
        });
      case Phase::kDirStat:
      case Phase::kFileStat:
        return itemLoop(phase, cursor, owner, from, to, 0, [&](DirHandle dir, std::uint64_t item) {
          const char* name = names(item);
          return name == nullptr ? names.error() : b.statEntry(dir, name, kind == ItemKind::kDir);
        });
      case Phase::kDirRemove: {
        const TypeCheckBatch batch(b, EntryType::kDir, listsBeforePhase(phase) || listsForTypeChecks());
        return itemLoop(phase, cursor, owner, from, to, 0, [&](DirHandle dir, std::uint64_t item) {
          const char* name = names(item);
          return name == nullptr ? names.error() : b.removeDir(dir, name);
        });
      }
      case Phase::kFileCreate:
        return settings_.shared_files ? createShared(cursor, owner, from, to)
                                      : createFiles(cursor, owner, from, to, Pick::kAll);
      case Phase::kFileRead:
        return readFiles(cursor, owner, from, to, names);
      case Phase::kFileRemove: {  // listed before the phase (shareTypeListings), at any rank count
        const TypeCheckBatch batch(b, EntryType::kFile, true);
        return itemLoop(phase, cursor, owner, from, to, 0, [&](DirHandle dir, std::uint64_t item) {
          const char* name = names(item);
          return name == nullptr ? names.error() : b.unlinkFile(dir, name);
        });
      }
      case Phase::kDirRename:
        return rotateDirs(cursor, owner, from, to, names);
      case Phase::kFileRename:
        return renameItems(phase, cursor, owner, from, to, names);
      default:
        return to;
    }
  }

  // Reads each file into read_buf_; with -X, checks the data its creator wrote.
  std::uint64_t readFiles(DirCursor& cursor, std::uint32_t owner, std::uint64_t from, std::uint64_t to,
                          PhaseNames& names) {
    Backend& b = parts_.backend;
    const std::span<std::byte> buf = read_buf_;
    const bool verify = settings_.verify_read;
    const TypeCheckBatch batch(b, EntryType::kFile,
                               listsBeforePhase(Phase::kFileRead) || listsForTypeChecks());
    return itemLoop(Phase::kFileRead, cursor, owner, from, to, buf.size(),
                    [&](DirHandle dir, std::uint64_t item) {
                      const char* name = names(item);
                      const int err = name == nullptr ? names.error() : b.readFile(dir, name, buf);
                      if (err == 0 && verify && !pattern_.check(buf, owner, item)) return kMismatch;
                      return err;
                    });
  }

  // Renames each item to its renamed name (layout.hpp's kRenamedSuffix); one an earlier job renamed
  // already is left as it is (and stays renamed).
  std::uint64_t renameItems(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                            std::uint64_t to, PhaseNames& names) {
    Backend& b = parts_.backend;
    const ItemKind kind = itemKindOf(phase);
    const EntryType type = kind == ItemKind::kDir ? EntryType::kDir : EntryType::kFile;
    ItemNamer renamed(kind, owner, NameForm::kRenamed);
    const TypeCheckBatch batch(b, type, true);  // listed before the phase (shareTypeListings)
    return itemLoop(phase, cursor, owner, from, to, 0, [&](DirHandle dir, std::uint64_t item) {
      const char* name = names(item);
      if (name == nullptr) return names.error();
      if (names.atRenamedName()) return kErrAlreadyRenamed;
      const int err = b.renameEntry(dir, name, renamed.name(item), type);
      // An item an earlier rename left under its original name is renamed now: its exception goes.
      if (err == 0 && !fates_.empty() && fates_.of(kind, owner, item) == ItemFate::kOriginalName) {
        noteRenamedNow(owner, item);
      }
      return err;
    });
  }

  // mdtest's directory rename: the owner's names rotate (dir_rotation.hpp). Items the run does not own are
  // skipped (failed, untouched); a name the rotation lost to another process is recorded as not the run's.
  std::uint64_t rotateDirs(DirCursor& cursor, std::uint32_t owner, std::uint64_t from, std::uint64_t to,
                           PhaseNames& names) {
    Backend& b = parts_.backend;
    DirRotation rotation(b, cursor.base(), plan_.layout(), settings_.sharing, owner, to - 1);
    const TypeCheckBatch batch(b, EntryType::kDir, true);  // listed before the phase (shareTypeListings)
    const std::uint64_t reached =
        itemLoop(Phase::kDirRename, cursor, owner, from, to, 0, [&](DirHandle dir, std::uint64_t item) {
          const char* name = names(item);
          return name == nullptr ? names.error() : rotation.step(dir, item, name);
        });
    // Not an op of its own: only after a signal, or when the set's last items were skipped (counted failed).
    (void)rotation.finish();
    for (const std::uint64_t item : rotation.lost()) {
      if (failed_here_.size() < kMaxItemFates) {
        failed_here_.push_back(FailedItem{item, owner, EEXIST, ItemFate::kNotOurs});
      } else {
        failed_overflow_ = true;
      }
    }
    return reached;
  }

  // Before the opening barrier of a phase whose calls check types by listings (listsBeforePhase), after its
  // hook (outside its timing): one listing of each of its directories (backend.hpp), directory d by rank d
  // mod ranks in a shared tree (every rank receives the few names not of the items' type), by its owner in
  // -u's. Collective.
  void shareTypeListings(DirHandle iteration_dir, std::uint32_t owner, ItemKind kind) {
    const EntryType type = kind == ItemKind::kDir ? EntryType::kDir : EntryType::kFile;
    const PhaseSettings& settings = settings_;
    const bool shared = settings.sharing != TreeSharing::kUnique;
    const std::uint32_t ranks = plan_.ranks();
    if (settings.no_barriers) return;  // -B: no rank waits for another; each lists at its first remove there
    if (!settings.cmd_before_phase.empty()) parts_.comm.barrier();  // every rank's hook done: its work listed
    std::string mine;
    {
      DirCursor cursor(parts_.backend, iteration_dir, plan_.layout(), settings.sharing, owner);
      for (std::uint64_t d = 0; d < plan_.layout().dirCount(); ++d) {
        if (shared && d % ranks != rank_) continue;
        DirHandle dir;
        if (cursor.open(d, dir) == 0) (void)parts_.backend.listTypes(dir, type, mine);
      }
    }
    if (shared && ranks > 1) mine = gatherToAll(parts_.comm, mine);
    parts_.backend.adoptListings(mine);
  }

  // Whether the phase's calls check types by listings that shareTypeListings takes before its opening
  // barrier: file-remove and renames always, dir-remove and read when the backend's calls need them.
  bool listsBeforePhase(Phase phase) const {
    const Backend& b = parts_.backend;
    if (phaseInfo(phase).renames()) return b.checksTypesByListing(CheckedCall::kRename);
    switch (phase) {
      case Phase::kFileRemove:
        return b.checksTypesByListing(CheckedCall::kUnlink);
      case Phase::kDirRemove:
        return b.checksTypesByListing(CheckedCall::kRemoveDir);
      case Phase::kFileRead:
        return b.checksTypesByListing(CheckedCall::kRead);
      default:
        return false;
    }
  }

  // Whether a phase checks types by one listing of each directory (backend.hpp), not before each call: where
  // the listing is not much larger than this rank's share of it (its own tree, or one shared by a few ranks).
  bool listsForTypeChecks() const {
    return settings_.sharing == TreeSharing::kUnique || plan_.ranks() <= kMaxRanksListingSharedDirs;
  }

  // File creates of the items `pick` selects, with O_EXCL (`create_options_`) or, for -S's second step,
  // opening what their creators made (CreateMode::kOpenCreated); names this run does not own are skipped.
  std::uint64_t createFiles(DirCursor& cursor, std::uint32_t owner, std::uint64_t from, std::uint64_t to,
                            Pick pick) {
    Backend& b = parts_.backend;
    ItemNamer namer(ItemKind::kFile, owner);
    const ItemFates& fates = fates_;
    const std::span<std::byte> data = write_data_;
    CreateOptions options = create_options_;
    if (pick == Pick::kOthers) options.mode = CreateMode::kOpenCreated;
    options.made = &name_made_;
    return itemLoop(
        Phase::kFileCreate, cursor, owner, from, to, data.size(),
        [&](DirHandle dir, std::uint64_t item) {
          if (!fates.empty() && fates.of(ItemKind::kFile, owner, item) != ItemFate::kOurs) {
            const int err = fates.errOf(ItemKind::kFile, owner, item);
            return err == EEXIST ? EEXIST : kErrNotCreated | err;
          }
          pattern_.stamp(data, owner, item);  // mdtest's update before each write (data_pattern.hpp)
          name_made_ = false;
          return b.createFile(dir, namer.name(item), data, options);
        },
        pick);
  }

  // -S: each shared name is created by one rank alone, with O_EXCL: the rank it falls to round robin (item
  // mod ranks), which spreads the creates as evenly as items over ranks. Then every rank learns which
  // creates failed (a name that was there before is nobody's to write), and only then opens the names it
  // did not create (never with O_CREAT), so no rank writes into anything before its creator made it. The
  // agreement is one allreduce (plus a gather and broadcast of the failures when there are any) inside the
  // timed phase, and every rank waits there for the slowest creator.
  std::uint64_t createShared(DirCursor& cursor, std::uint32_t owner, std::uint64_t from, std::uint64_t to) {
    const std::uint64_t reached = createFiles(cursor, owner, from, to, Pick::kMine);
    if (rank_ < reach_.size()) reach_[rank_] = reached;
    shared_reach_set_ = true;
    mdbench::shareFailures(parts_.comm, failed_here_, failed_overflow_, ItemKind::kFile, fates_);
    failed_here_.clear();
    failed_overflow_ = false;
    if (!stopped_) (void)createFiles(cursor, owner, from, to, Pick::kOthers);
    return to;
  }

  // One op on a directory itself (tree and readdir phases): counted, and timed when it succeeded.
  void tally(int err, std::int64_t t0, std::int64_t now, std::uint32_t owner, std::uint64_t dir) {
    if (err == 0) {
      ++record_->ok;
      latency_->add(static_cast<std::uint64_t>(now - t0));
      gaps_.done(now);
    } else {
      fail(err, owner, dir, FirstError{}.item, 1);
    }
  }

  void fail(int err, std::uint32_t owner, std::uint64_t dir, std::uint64_t item, std::uint64_t count) {
    record_->failed += count;
    if (!record_->first_error.any()) record_->first_error = FirstError{err, owner, dir, item};
  }

  // The hot loop: one backend call and one clock read per item, no allocation, no formatting. Each
  // op's latency runs from the previous clock read to this one, so it includes the loop's own few
  // nanoseconds (naming the item) but costs one clock read per op instead of two (the TSC where the
  // kernel trusts it, about 20 ns on the development VM against CLOCK_MONOTONIC's 34; bench/README.md). Items
  // are visited in number order (directory by directory), or in -R's permutation; the stonewall check is one
  // comparison per op.
  template <class Op>
  std::uint64_t itemLoop(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                         std::uint64_t to, std::uint64_t bytes_per_op, Op op, Pick pick = Pick::kAll) {
    const LoopRange range{from, to, pick};
    // The real clocks without a virtual call per op; the tests' clocks through the interface.
    if (auto* tsc = dynamic_cast<TscClock*>(&parts_.clock)) {
      return itemLoopWith(*tsc, phase, cursor, owner, range, bytes_per_op, op);
    }
    if (auto* steady = dynamic_cast<SteadyClock*>(&parts_.clock)) {
      return itemLoopWith(*steady, phase, cursor, owner, range, bytes_per_op, op);
    }
    return itemLoopWith(parts_.clock, phase, cursor, owner, range, bytes_per_op, op);
  }

  struct LoopRange {
    std::uint64_t from;
    std::uint64_t to;
    Pick pick;
  };

  // A failed create leaves a name this run does not own (with the create's errno); a failed rename leaves
  // the item under its original name, unless the rename found no item there (then neither name is known
  // to be the run's). Only EEXIST means the new name is someone else's. An item the record already kept
  // from the op (err: one of ownership.hpp's codes) keeps its fate. Shared after the phase (shareFailures)
  // and recorded; bounded per rank.
  // The directory rename keeps every name: a directory its rename left in place (EEXIST: the name it was to
  // take was found taken) is still the run's under its name; one gone or no longer a directory is not.
  void noteFailure(Phase phase, std::uint32_t owner, std::uint64_t item, int err) {
    if ((err & ~kOpErrorMask) != 0) return;
    if (phase == Phase::kDirRename && err == EEXIST) return;
    ItemFate fate = ItemFate::kNotOurs;
    if (!phaseInfo(phase).creates() && phase != Phase::kDirRename) {
      fate = err == ENOENT ? ItemFate::kGone : ItemFate::kOriginalName;
    }
    if (failed_here_.size() < kMaxItemFates) {
      failed_here_.push_back(FailedItem{item, owner, err, fate});
    } else {
      failed_overflow_ = true;
    }
  }

  void noteRenamedNow(std::uint32_t owner, std::uint64_t item) {
    if (failed_here_.size() < kMaxItemFates) {
      failed_here_.push_back(FailedItem{item, owner, 0, ItemFate::kOurs});
    } else {
      failed_overflow_ = true;
    }
  }

  template <class ClockType, class Op>
  std::uint64_t itemLoopWith(ClockType& clock, Phase phase, DirCursor& cursor, std::uint32_t owner,
                             LoopRange range, std::uint64_t bytes_per_op, Op& op) {
    const std::uint64_t from = range.from;
    const std::uint64_t to = range.to;
    const bool picks = range.pick != Pick::kAll;
    const bool want_mine = range.pick == Pick::kMine;
    const std::uint64_t ranks = parts_.comm.size();
    const bool notes_failures = phaseInfo(phase).decidesOwnership();
    const TreeLayout& layout = plan_.layout();
    RankPhaseRecord& record = *record_;
    LatencyHistogram& latency = *latency_;
    PerOpLog* const per_op = per_op_;
    const bool random = plan_.randomOrder(phase);
    const Permutation order(random ? to : 0, settings_.random_seed);
    std::uint64_t dir = TreeLayout::kNone;
    std::uint64_t dir_first = 0;
    std::uint64_t dir_end = 0;
    DirHandle handle;
    int dir_error = 0;
    std::int64_t previous = clock.nowNs();
    for (std::uint64_t position = from; position < to; ++position) {
      const std::uint64_t item = random ? order(position) : position;
      if (picks && ((item % ranks == rank_) != want_mine)) continue;
      if (item < dir_first || item >= dir_end) {
        dir = layout.dirOfItem(item);
        dir_first = layout.firstItemInDir(dir);
        dir_end = dir_first + layout.itemsInDir(dir);
        dir_error = cursor.open(dir, handle);
      }
      const int err = dir_error != 0 ? dir_error : op(handle, item);
      const std::int64_t now = clock.nowNs();
      if (per_op != nullptr) [[unlikely]]
        per_op->add(item, previous, now);
      if (now >= next_tick_) [[unlikely]]
        tick(now);
      if (err == 0) [[likely]] {
        ++record.ok;
        gaps_.done(now);
        record.bytes += bytes_per_op;
        latency.add(static_cast<std::uint64_t>(now - previous));
      } else {
        fail(err, owner, dir, dir_error != 0 ? FirstError{}.item : item, 1);
        if (dir_error != 0) dir_end = 0;  // try to open it again for the next item
        // A file whose write failed after its create is the run's (removed later); only a name the create
        // never made is left to whoever has it.
        if (notes_failures && !name_made_) noteFailure(phase, owner, item, err);
        name_made_ = false;
      }
      previous = now;
      if (now >= deadline_ns_) [[unlikely]] {
        record.ops_at_stonewall = record.ok;
        record.t_stonewall = seconds(now);
        deadline_ns_ = kNever;
        if (stop_at_deadline_) return position + 1;
      }
      if (stopSignal() != 0) [[unlikely]] {
        stopped_ = true;
        return position + 1;
      }
    }
    return to;
  }

  enum class TreeOrder { kPreorder, kPostorder };

  template <class Op>
  void treeLoop(DirCursor& cursor, std::uint32_t owner, TreeOrder order, Op op) {
    const TreeLayout& layout = plan_.layout();
    const TreeSharing sharing = settings_.sharing;
    const bool pre = order == TreeOrder::kPreorder;
    Clock& clock = parts_.clock;
    for (std::uint64_t dir = pre ? layout.firstPreorder() : layout.firstPostorder(); dir != TreeLayout::kNone;
         dir = pre ? layout.nextPreorder(dir) : layout.nextPostorder(dir)) {
      if (stopSignal() != 0) {
        stopped_ = true;
        return;
      }
      const std::string name = treeDirName(sharing, owner, dir);
      DirHandle parent;
      if (const int err = cursor.openParentOf(dir, parent); err != 0) {
        fail(err, owner, dir, FirstError{}.item, 1);
        continue;
      }
      const std::int64_t t0 = clock.nowNs();
      const int err = op(parent, name.c_str());
      const std::int64_t now = clock.nowNs();
      if (per_op_ != nullptr) per_op_->add(dir, t0, now);
      if (now >= next_tick_) tick(now);
      tally(err, t0, now, owner, dir);
    }
  }

  // Lists each tree directory this rank is given and checks its entries: the phase's kind of items
  // (those that exist in this iteration) and the tree's own subdirectories. One op per directory.
  void readdirLoop(Phase phase, DirCursor& cursor, std::uint32_t owner) {
    static constexpr std::array<std::string_view, 3> kPrefixes = {"dir.mdbench.", "file.mdbench.",
                                                                  "mdbench_tree."};
    const TreeLayout& layout = plan_.layout();
    const PhaseSettings& settings = settings_;
    const std::size_t kind_index = itemKindOf(phase) == ItemKind::kDir ? 0 : 1;
    const std::uint64_t limit = readdir_limit_;
    const std::uint64_t owners =
        settings.shared_files || settings.sharing == TreeSharing::kUnique ? 1 : plan_.ranks();
    Clock& clock = parts_.clock;
    std::array<std::uint64_t, 3> counts{};
    const bool random = plan_.randomOrder(phase);
    const Permutation order(random ? layout.dirCount() : 0, settings.random_seed);
    for (std::uint64_t position = 0; position < layout.dirCount(); ++position) {
      if (stopSignal() != 0) {
        stopped_ = true;
        return;
      }
      const std::uint64_t dir = random ? order(position) : position;
      if (!plan_.listsDir(phase, rank_, dir)) continue;
      const std::uint64_t first = layout.firstItemInDir(dir);
      const std::uint64_t present = limit <= first ? 0 : std::min(layout.itemsInDir(dir), limit - first);
      const std::uint64_t children = layout.firstChild(dir) == TreeLayout::kNone ? 0 : layout.branching();
      const std::int64_t t0 = clock.nowNs();
      DirHandle handle;
      std::uint64_t total = 0;
      int err = cursor.open(dir, handle);
      if (err == 0) err = parts_.backend.countEntries(handle, kPrefixes, counts, total);
      if (err == 0 && (counts[kind_index] != present * owners || counts[2] != children)) err = kMismatch;
      const std::int64_t now = clock.nowNs();
      if (per_op_ != nullptr) per_op_->add(dir, t0, now);
      if (now >= next_tick_) tick(now);
      tally(err, t0, now, owner, dir);
    }
  }

 public:
  // Collective, after a create or rename phase: every rank learns which items could not be created (the name
  // was taken, or the create failed: not made by this run) or renamed (still under the original name).
  // Later phases, whichever rank -N gives the items to, skip the former (failed, EEXIST) and use the
  // original name for the latter; the lead ranks write it all into the ownership record for later jobs.
  void shareFailures(Comm& comm, Phase phase) {
    mdbench::shareFailures(comm, failed_here_, failed_overflow_, itemKindOf(phase), fates_);
    failed_here_.clear();
    failed_overflow_ = false;
  }
  ItemFates& fates() { return fates_; }
  // Per slot (ItemFates::slotOf), the items this rank's last item phase attempted, [0, count).
  const std::vector<std::uint64_t>& reach() const { return reach_; }
  // Whether the last tree-create was stopped by a signal before it made every directory.
  bool treeStopped() const { return tree_stopped_; }

  // The item count readdir checks against (the phase's kind), set before a readdir phase.
  void setReaddirLimit(std::uint64_t limit) { readdir_limit_ = limit; }
  // Items per rank the last item phase worked on (a stonewall's agreed count when it stopped early).
  std::uint64_t lastItems() const { return items_; }
  // The errno of -Y's sync (or syncfs) at the end of the last phase (0: fine, or no -Y).
  int lastSyncError() const { return sync_error_; }

 private:
  const Plan& plan_;
  const PhaseSettings& settings_;
  RunParts parts_;
  std::uint32_t rank_;
  DataPattern pattern_;  // -w's bytes: mdtest's --dataPacketType at -G
  std::int64_t epoch_ns_ = 0;
  std::int64_t deadline_ns_ = kNever;
  bool stop_at_deadline_ = false;
  bool stopped_ = false;  // the last phase stopped for a signal (signals.hpp)
  // Items this rank's last create or rename phase failed on, and what every rank knows (shareFailures).
  std::vector<FailedItem> failed_here_;
  bool name_made_ = false;  // the last file create made its name (CreateOptions::made)
  bool failed_overflow_ = false;
  ItemFates fates_;
  std::vector<std::uint64_t> reach_;
  bool shared_reach_set_ = false;
  bool tree_stopped_ = false;
  std::uint64_t readdir_limit_ = 0;
  std::uint64_t items_ = 0;
  int sync_error_ = 0;
  std::vector<std::byte> write_data_;
  std::vector<std::byte> read_buf_;
  CreateOptions create_options_;
  RankPhaseRecord* record_ = nullptr;
  LatencyHistogram* latency_ = nullptr;
  std::uint32_t iteration_ = 0;
  SeriesRecorder series_;
  GapRecorder gaps_;
  FaultInjector* faults_ = nullptr;
  std::int64_t next_tick_ = kNever;  // min of the series' next boundary and rank 0's next progress line
  PerOpLog* per_op_ = nullptr;
  std::string before_problem_;
  std::string after_problem_;
};

}  // namespace mdbench
