#include "mdbench/run/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>

#include "dir_cursor.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/run/signals.hpp"
#include "mdbench/run/steady_engine.hpp"
#include "mdbench/run/stonewall_file.hpp"
#include "mdbench/util/errno_name.hpp"
#include "run_steps.hpp"
#include "taken_record.hpp"

namespace mdbench {
namespace {

// A readdir count or a -X data check that does not match: a failed op with this errno.
constexpr int kMismatch = EBADMSG;
constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

bool contains(const std::vector<Phase>& phases, Phase phase) {
  return std::find(phases.begin(), phases.end(), phase) != phases.end();
}

bool isCreate(Phase p) { return p == Phase::kDirCreate || p == Phase::kFileCreate; }
bool isReaddir(Phase p) { return p == Phase::kDirReaddir || p == Phase::kFileReaddir; }
bool isRename(Phase p) { return p == Phase::kDirRename || p == Phase::kFileRename; }
// Whether the phase decides which names are mdbench's (ownership.hpp): its failures are recorded.
bool decidesOwnership(Phase p) { return isCreate(p) || isRename(p); }

// Which of a phase's items a pass of the item loop visits: all, or -S's two steps of a create (the names
// this rank creates, then the names it opens after their creators made them).
enum class Pick : std::uint8_t { kAll, kMine, kOthers };

// Items per rank that exist for each kind in this iteration: -n, -x's counts, or a stonewalled create's.
struct ItemLimits {
  std::uint64_t dirs = 0;
  std::uint64_t files = 0;
  std::uint64_t& of(ItemKind kind) { return kind == ItemKind::kDir ? dirs : files; }
};

// Everything one rank needs to measure a phase.
class PhaseExecutor {
 public:
  PhaseExecutor(const Plan& plan, RunParts parts) : plan_(plan), parts_(parts), rank_(parts.comm.rank()) {
    const Config& config = plan.config();
    write_data_.resize(config.write_bytes);
    read_buf_.resize(config.read_bytes);
    create_options_.mode = CreateMode::kExclusive;
    create_options_.fsync = config.fsync_writes;
    series_interval_ns_ = std::max<std::int64_t>(1, std::llround(config.series_interval_s * 1e9));
  }

  void setEpoch(std::int64_t epoch_ns) { epoch_ns_ = epoch_ns; }
  void setIteration(std::uint32_t iteration) { iteration_ = iteration; }
  // The last phase's ops per interval on this rank (collectSeries gathers them).
  SeriesRecorder& series() { return series_; }

  // Barrier, t_start, the planned operations (with the stonewall's agreement and wear-out), -Y's sync,
  // t_local_end, barrier, t_global_end.
  RankPhaseRecord measure(Phase phase, DirHandle iteration_dir, ItemLimits& limits,
                          LatencyHistogram& latency) {
    RankPhaseRecord record;
    const Config& config = plan_.config();
    const bool item_phase = !isTreePhase(phase) && !isReaddir(phase);
    const std::uint64_t limit = item_phase ? limits.of(itemKindOf(phase)) : 0;
    record.planned = plannedOps(phase, limit);
    latency = LatencyHistogram{};
    record_ = &record;
    latency_ = &latency;
    const std::uint32_t owner = plan_.owner(phase, rank_);
    DirCursor cursor(parts_.backend, iteration_dir, plan_.layout(), config.sharing, owner);
    StonewallRule rule = config.stonewall_s > 0 ? stonewallRule(phase) : StonewallRule::kNone;
    // -S's create agrees between its two steps (a collective every rank reaches once), so it cannot stop
    // at the stonewall and wear out later; it only notes when the stonewall fired, as renames do.
    if (rule == StonewallRule::kStopAndWearOut && sharedCreate(phase)) rule = StonewallRule::kNoteOnly;
    if (config.write_bytes > 0) fillPattern(write_data_, owner, 0);

    parts_.comm.barrier();
    const std::int64_t t_start = parts_.clock.nowNs();
    series_.begin(t_start, series_interval_ns_);
    if (parts_.progress != nullptr) {
      parts_.progress->beginPhase(phaseName(phase), iteration_, config.iterations, record.planned, t_start);
    }
    next_tick_ = nextTick();
    deadline_ns_ =
        rule == StonewallRule::kNone ? kNever : t_start + static_cast<std::int64_t>(config.stonewall_s * 1e9);
    stop_at_deadline_ = rule == StonewallRule::kStopAndWearOut;
    stopped_ = false;
    name_made_ = false;
    failed_here_.clear();
    failed_overflow_ = false;
    if (isCreate(phase)) fates_.forget(itemKindOf(phase));  // this iteration's creates decide afresh
    std::uint64_t reached = record.planned > 0 ? execute(phase, cursor, owner, 0, limit) : 0;
    items_ = limit;
    if (rule == StonewallRule::kStopAndWearOut) {
      // Every rank takes part, also those with nothing to do, so no rank waits alone.
      const std::uint64_t furthest = parts_.comm.allreduceMax(reached);
      deadline_ns_ = kNever;
      if (record.planned > 0 && reached < furthest && !stopped_)
        reached = execute(phase, cursor, owner, reached, furthest);
      if (isCreate(phase)) limits.of(itemKindOf(phase)) = furthest;
      record.planned = plannedOps(phase, furthest);
      items_ = furthest;
    }
    // Stopped by a signal: the ops it did are what it planned (as after a stonewall), so counts stay exact.
    if (stopped_) record.planned = record.ok + record.failed;
    if (record.t_stonewall == 0.0) record.ops_at_stonewall = record.ok;
    // -Y: inside the timed region, as mdtest does; not an op of the phase, so a failure is reported apart.
    sync_error_ = config.sync_phases ? parts_.backend.syncFileSystem() : 0;
    const std::int64_t t_local_end = parts_.clock.nowNs();
    series_.finish(t_local_end, record.ok);
    next_tick_ = kNever;
    if (parts_.progress_barrier) {
      ProgressReporter* progress = parts_.progress;
      const std::uint64_t done = record.ok + record.failed;
      if (progress != nullptr) progress->waiting(t_local_end, done);  // when rank 0 finished
      parts_.comm.barrierPolling(progress == nullptr ? std::function<void()>() : [this, progress, done] {
        const std::int64_t now = parts_.clock.nowNs();
        if (now >= progress->nextUpdateNs()) progress->waiting(now, done);
      });
    } else {
      parts_.comm.barrier();
    }
    const std::int64_t t_global_end = parts_.clock.nowNs();
    if (parts_.progress != nullptr) parts_.progress->endPhase();

    record.t_start = seconds(t_start);
    record.t_local_end = seconds(t_local_end);
    record.t_global_end = seconds(t_global_end);
    return record;
  }

 private:
  double seconds(std::int64_t ns) const { return static_cast<double>(ns - epoch_ns_) * 1e-9; }

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
    if (isTreePhase(phase) || isReaddir(phase) || planned == 0) return planned;
    return limit;
  }

  // Names for `phase`: renamed when -U renamed them earlier in this run, or --renamed says a job did.
  NameForm nameForm(Phase phase) const {
    if (plan_.config().renamed) return NameForm::kRenamed;
    const Phase rename = itemKindOf(phase) == ItemKind::kDir ? Phase::kDirRename : Phase::kFileRename;
    const auto& phases = plan_.phases();
    const auto at = std::find(phases.begin(), phases.end(), rename);
    return at != phases.end() && at < std::find(phases.begin(), phases.end(), phase) ? NameForm::kRenamed
                                                                                     : NameForm::kOriginal;
  }

  // Runs items [from, to) of the phase's order; returns where it stopped (`to`, or earlier when the
  // stonewall fired and the phase stops for it).
  std::uint64_t execute(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                        std::uint64_t to) {
    Backend& b = parts_.backend;
    const std::uint64_t limit = to;
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
        break;
    }
    const ItemKind kind = itemKindOf(phase);
    ItemNamer namer(kind, owner, nameForm(phase));
    ItemNamer original(kind, owner, NameForm::kOriginal);
    const ItemFates& fates = fates_;
    // The item's name in this phase, or nullptr for an item this run did not make (skipped, failed with
    // EEXIST). One empty() test per op when nothing was taken.
    const auto nameOf = [&](std::uint64_t item) -> const char* {
      if (fates.empty()) [[likely]]
        return namer.name(item);
      switch (fates.of(kind, owner, item)) {
        case ItemFate::kNotOurs:
          return nullptr;
        case ItemFate::kOriginalName:
          return original.name(item);
        default:
          return namer.name(item);
      }
    };
    const EntryType type = kind == ItemKind::kDir ? EntryType::kDir : EntryType::kFile;
    switch (phase) {
      case Phase::kDirCreate:
        return itemLoop(phase, cursor, owner, from, limit, 0,
                        [&](DirHandle dir, std::uint64_t item) { return b.makeDir(dir, namer.name(item)); });
      case Phase::kDirStat:
      case Phase::kFileStat:
        return itemLoop(phase, cursor, owner, from, limit, 0, [&](DirHandle dir, std::uint64_t item) {
          const char* name = nameOf(item);
          return name == nullptr ? EEXIST : b.statEntry(dir, name, kind == ItemKind::kDir);
        });
      case Phase::kDirRemove:
        return itemLoop(phase, cursor, owner, from, limit, 0, [&](DirHandle dir, std::uint64_t item) {
          const char* name = nameOf(item);
          return name == nullptr ? EEXIST : b.removeDir(dir, name);
        });
      case Phase::kFileCreate:
        return plan_.config().shared_files ? createShared(cursor, owner, from, limit)
                                           : createFiles(cursor, owner, from, limit, Pick::kAll);
      case Phase::kFileRead: {
        const std::span<std::byte> buf = read_buf_;
        const bool verify = plan_.config().verify_read;
        return itemLoop(phase, cursor, owner, from, limit, buf.size(),
                        [&](DirHandle dir, std::uint64_t item) {
                          const char* name = nameOf(item);
                          const int err = name == nullptr ? EEXIST : b.readFile(dir, name, buf);
                          if (err == 0 && verify && !checkPattern(buf, owner, item)) return kMismatch;
                          return err;
                        });
      }
      case Phase::kFileRemove:
        return itemLoop(phase, cursor, owner, from, limit, 0, [&](DirHandle dir, std::uint64_t item) {
          const char* name = nameOf(item);
          return name == nullptr ? EEXIST : b.unlinkFile(dir, name);
        });
      case Phase::kDirRename:
      case Phase::kFileRename: {
        ItemNamer renamed(kind, owner, NameForm::kRenamed);
        return itemLoop(phase, cursor, owner, from, limit, 0, [&](DirHandle dir, std::uint64_t item) {
          const char* name = nameOf(item);
          return name == nullptr ? EEXIST : b.renameEntry(dir, name, renamed.name(item), type);
        });
      }
      default:
        return to;
    }
  }

  bool sharedCreate(Phase phase) const { return phase == Phase::kFileCreate && plan_.config().shared_files; }

  // File creates of the items `pick` selects, with O_EXCL (`create_options_`) or, for -S's second step,
  // opening what their creators made (CreateMode::kOpenCreated); names this run does not own are skipped.
  std::uint64_t createFiles(DirCursor& cursor, std::uint32_t owner, std::uint64_t from, std::uint64_t to,
                            Pick pick) {
    Backend& b = parts_.backend;
    ItemNamer namer(ItemKind::kFile, owner);
    const ItemFates& fates = fates_;
    const std::span<std::byte> data = write_data_;
    // Only the 16-byte header differs between items; the rest was filled once for the owner.
    const std::span<std::byte> header = data.first(std::min<std::size_t>(16, data.size()));
    CreateOptions options = create_options_;
    if (pick == Pick::kOthers) options.mode = CreateMode::kOpenCreated;
    options.made = &name_made_;
    return itemLoop(
        Phase::kFileCreate, cursor, owner, from, to, data.size(),
        [&](DirHandle dir, std::uint64_t item) {
          if (!fates.empty() && fates.of(ItemKind::kFile, owner, item) != ItemFate::kOurs) return EEXIST;
          if (!header.empty()) fillPattern(header, owner, item);
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
    (void)createFiles(cursor, owner, from, to, Pick::kMine);
    mdbench::shareFailures(parts_.comm, failed_here_, failed_overflow_, owner, ItemKind::kFile,
                           ItemFate::kNotOurs, fates_);
    failed_here_.clear();
    failed_overflow_ = false;
    if (!stopped_) (void)createFiles(cursor, owner, from, to, Pick::kOthers);
    return to;
  }

  // One op on a directory itself (tree and readdir phases): counted, and timed when it succeeded.
  void tally(int err, std::int64_t elapsed_ns, std::uint32_t owner, std::uint64_t dir) {
    if (err == 0) {
      ++record_->ok;
      latency_->add(static_cast<std::uint64_t>(elapsed_ns));
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

  // A failed create leaves a name this run does not own; a failed rename leaves the item under its original
  // name. Both are shared after the phase (shareFailures) and recorded; bounded per rank.
  void noteFailure(std::uint64_t item) {
    if (failed_here_.size() < kMaxItemFates) {
      failed_here_.push_back(item);
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
    const bool notes_failures = decidesOwnership(phase);
    const TreeLayout& layout = plan_.layout();
    RankPhaseRecord& record = *record_;
    LatencyHistogram& latency = *latency_;
    const bool random = plan_.randomOrder(phase);
    const Permutation order(random ? to : 0, plan_.config().random_seed);
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
      if (now >= next_tick_) [[unlikely]]
        tick(now);
      if (err == 0) [[likely]] {
        ++record.ok;
        record.bytes += bytes_per_op;
        latency.add(static_cast<std::uint64_t>(now - previous));
      } else {
        fail(err, owner, dir, dir_error != 0 ? FirstError{}.item : item, 1);
        if (dir_error != 0) dir_end = 0;  // try to open it again for the next item
        // A file whose write failed after its create is the run's (removed later); only a name the create
        // never made is left to whoever has it.
        if (notes_failures && !name_made_) noteFailure(item);
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
    const TreeSharing sharing = plan_.config().sharing;
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
      if (now >= next_tick_) tick(now);
      tally(err, now - t0, owner, dir);
    }
  }

  // Lists each tree directory this rank is given and checks its entries: the phase's kind of items
  // (those that exist in this iteration) and the tree's own subdirectories. One op per directory.
  void readdirLoop(Phase phase, DirCursor& cursor, std::uint32_t owner) {
    static constexpr std::array<std::string_view, 3> kPrefixes = {"dir.mdbench.", "file.mdbench.",
                                                                  "mdbench_tree."};
    const TreeLayout& layout = plan_.layout();
    const Config& config = plan_.config();
    const std::size_t kind_index = itemKindOf(phase) == ItemKind::kDir ? 0 : 1;
    const std::uint64_t limit = readdir_limit_;
    const std::uint64_t owners =
        config.shared_files || config.sharing == TreeSharing::kUnique ? 1 : plan_.ranks();
    Clock& clock = parts_.clock;
    std::array<std::uint64_t, 3> counts{};
    const bool random = plan_.randomOrder(phase);
    const Permutation order(random ? layout.dirCount() : 0, config.random_seed);
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
      if (now >= next_tick_) tick(now);
      tally(err, now - t0, owner, dir);
    }
  }

 public:
  // Collective, after a create or rename phase: every rank learns which items could not be created (the name
  // was taken, or the create failed: not made by this run) or renamed (still under the original name).
  // Later phases, whichever rank -N gives the items to, skip the former (failed, EEXIST) and use the
  // original name for the latter; the lead ranks write it all into the ownership record for later jobs.
  void shareFailures(Comm& comm, Phase phase) {
    const ItemFate fate = isCreate(phase) ? ItemFate::kNotOurs : ItemFate::kOriginalName;
    mdbench::shareFailures(comm, failed_here_, failed_overflow_, plan_.owner(phase, rank_), itemKindOf(phase),
                           fate, fates_);
    failed_here_.clear();
    failed_overflow_ = false;
  }
  ItemFates& fates() { return fates_; }

  // The item count readdir checks against (the phase's kind), set before a readdir phase.
  void setReaddirLimit(std::uint64_t limit) { readdir_limit_ = limit; }
  // Items per rank the last item phase worked on (a stonewall's agreed count when it stopped early).
  std::uint64_t lastItems() const { return items_; }
  // The errno of -Y's syncfs at the end of the last phase (0: fine, or no -Y).
  int lastSyncError() const { return sync_error_; }

 private:
  const Plan& plan_;
  RunParts parts_;
  std::uint32_t rank_;
  std::int64_t epoch_ns_ = 0;
  std::int64_t deadline_ns_ = kNever;
  bool stop_at_deadline_ = false;
  bool stopped_ = false;  // the last phase stopped for a signal (signals.hpp)
  // Items this rank's last create or rename phase failed on, and what every rank knows (shareFailures).
  std::vector<std::uint64_t> failed_here_;
  bool name_made_ = false;  // the last file create made its name (CreateOptions::made)
  bool failed_overflow_ = false;
  ItemFates fates_;
  std::uint64_t readdir_limit_ = 0;
  std::uint64_t items_ = 0;
  int sync_error_ = 0;
  std::vector<std::byte> write_data_;
  std::vector<std::byte> read_buf_;
  CreateOptions create_options_;
  RankPhaseRecord* record_ = nullptr;
  LatencyHistogram* latency_ = nullptr;
  std::uint32_t iteration_ = 0;
  std::int64_t series_interval_ns_ = 100'000'000;
  SeriesRecorder series_;
  std::int64_t next_tick_ = kNever;  // min of the series' next boundary and rank 0's next progress line
};

// Whether the run leaves its trees for a later job (--keep, or a phase selection without removal); then
// a signal does not remove them either.
bool keepsTrees(const Plan& plan) {
  if (plan.config().steady_rounds > 0) return false;  // the steady state always cleans up after itself
  return plan.config().keep || !contains(plan.phases(), Phase::kTreeRemove);
}

// --steady: the engine's parameters from the command line's (config.hpp).
SteadyConfig steadyConfigOf(const Config& config) {
  SteadyConfig steady;
  steady.datasets = config.datasets;
  steady.working_set = config.items / config.datasets;
  steady.rounds = config.steady_rounds;
  steady.offset = config.shift > 0 ? config.shift : 1;
  steady.object_bytes = config.write_bytes;
  steady.stonewall_s = config.stonewall_s;
  return steady;
}

// -x without creating: rank 0 reads the counts an earlier job left; every rank learns them or the error.
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

}  // namespace

RunResult runBenchmark(const Plan& plan, RunParts parts, RunInfo info, std::span<Sink* const> sinks) {
  RunResult result;
  result.info = std::move(info);
  result.config = plan.config();
  const Config& config = plan.config();
  Comm& comm = parts.comm;
  Backend& backend = parts.backend;
  const bool root = comm.rank() == 0;
  const bool steady = config.steady_rounds > 0;
  const bool creates = steady || contains(plan.phases(), Phase::kTreeCreate);
  const bool removes = steady || contains(plan.phases(), Phase::kTreeRemove);
  const std::uint32_t targets = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(config.targets.size()));
  // The first rank of each target makes and removes that target's iteration directory.
  const bool leads_target = comm.rank() < targets;
  const std::string target = parts.target.empty() ? result.info.target : parts.target;
  if (root) {
    for (Sink* sink : sinks) sink->begin(result.info, plan);
  }

  ItemLimits run_limits{config.items, config.items};
  if (!config.stonewall_file.empty() && !creates) {
    result.setup_error = readLimits(comm, config, run_limits);
  }

  PhaseExecutor executor(plan, parts);
  LatencyHistogram latency;
  comm.barrier();
  executor.setEpoch(parts.clock.nowNs());

  for (std::uint32_t iteration = 0; iteration < config.iterations && result.setup_error.empty();
       ++iteration) {
    if (config.pre_delay_s > 0 && (result.stop_signal = preDelay(comm, config.pre_delay_s)) != 0) {
      result.steady_stopped_where = fmt::format("during the pre-delay (-p) of iteration {}", iteration);
      break;  // before the iteration made anything
    }
    IterationDir it;
    it.name = iterationDirName(iteration);
    it.where = fmt::format("{}/{}", target, it.name);
    result.setup_error = openIterationDir(comm, backend, it, creates, leads_target);
    if (!result.setup_error.empty()) break;
    if (!steady) {
      result.setup_error =
          startOwnership(comm, backend, it.handle, creates, leads_target, it.where, executor.fates());
      if (!result.setup_error.empty()) {
        if (creates && leads_target) (void)removeTakenRecord(backend, it.handle);
        result.setup_error += undoIterationDir(comm, backend, it);
        break;
      }
    }
    const std::string& name = it.name;
    const std::string& where = it.where;
    const DirHandle iteration_dir = it.handle;
    int err = 0;

    if (steady) {
      const SteadyResult measured =
          runSteady(steadyConfigOf(config), SteadyParts{comm, parts.clock, backend, iteration_dir});
      if (root) {
        result.steady_failed_ops += measured.failedOps();
        for (Sink* sink : sinks) sink->steady(iteration, measured, plan);
      }
      result.stop_signal = static_cast<int>(comm.allreduceMax(static_cast<std::uint64_t>(stopSignal())));
      if (root && result.stop_signal != 0) {
        result.steady_stopped_where =
            measured.stopped_in_precreate
                ? fmt::format("in the steady precreate of iteration {} (no mix rounds)", iteration)
                : fmt::format("in the steady mix of iteration {} after {} of {} rounds", iteration,
                              measured.rounds, config.steady_rounds);
      }
    }
    ItemLimits limits = run_limits;
    executor.setIteration(iteration);
    for (const Phase phase : steady ? std::vector<Phase>{} : plan.phases()) {
      if (phase == Phase::kDirReaddir) executor.setReaddirLimit(limits.dirs);
      if (phase == Phase::kFileReaddir) executor.setReaddirLimit(limits.files);
      const RankPhaseRecord record = executor.measure(phase, iteration_dir, limits, latency);
      const std::uint64_t items = isTreePhase(phase) ? config.items
                                  : isReaddir(phase) ? limits.of(itemKindOf(phase))
                                                     : executor.lastItems();
      PhaseResult measured = collectPhase(comm, iteration, phase, items, record, latency);
      measured.series = collectSeries(comm, executor.series());
      if (decidesOwnership(phase)) {
        executor.shareFailures(comm, phase);
        const int record_err = leads_target ? writeTakenRecord(backend, iteration_dir, executor.fates()) : 0;
        const std::string problem =
            agreeOnSetup(comm, record_err,
                         fmt::format("{}/{} not written after {}: later jobs will refuse this directory",
                                     where, kTakenName, phaseName(phase)));
        if (root && !problem.empty()) result.cleanup_problems.push_back(problem);
      }
      if (config.sync_phases) {
        const std::string problem =
            agreeOnSetup(comm, executor.lastSyncError(),
                         fmt::format("syncfs after {} (iteration {})", phaseName(phase), iteration));
        if (root && !problem.empty()) result.cleanup_problems.push_back(problem);
      }
      if (root) {
        if (!config.stonewall_file.empty() && isCreate(phase)) {
          StonewallCounts counts;
          if (contains(plan.phases(), Phase::kDirCreate)) counts.dirs = limits.dirs;
          if (contains(plan.phases(), Phase::kFileCreate)) counts.files = limits.files;
          if (std::string problem = writeStonewallFile(config.stonewall_file, counts); !problem.empty()) {
            result.cleanup_problems.push_back(problem);
          }
        }
        for (Sink* sink : sinks) sink->phase(measured, plan);
        // In the results file now; the sums stay for the run's end. Released, not just emptied (`= {}`
        // would keep the capacity: ranks x intervals counts of every phase held to the end of the run).
        measured.series.per_rank = std::vector<std::uint32_t>();
        result.phases.push_back(std::move(measured));
      }
      if (parts.after_phase) parts.after_phase(phase);
      // A signal on any rank ends the run after the phase it arrived in (which is kept, stopped short).
      result.stop_signal = static_cast<int>(comm.allreduceMax(static_cast<std::uint64_t>(stopSignal())));
      if (result.stop_signal != 0) break;
    }
    if (result.stop_signal != 0 && !keepsTrees(plan)) {
      // Every rank of the target removes its share of what this iteration made, then the lead removes the
      // directory below (as after a normal last phase). A second signal ends the process at once.
      const auto rank = comm.rank();
      const std::uint32_t parts = (comm.size() - rank % targets + targets - 1) / targets;
      CleanTally tally;
      CleanOptions options{false, rank / targets, parts};
      options.leave = &executor.fates();  // what the run did not make stays, as in the phases
      (void)backend.removeGenerated(iteration_dir, options, tally);
      const std::uint64_t kept = comm.allreduceMax(tally.kept);
      if (root && kept > 0) {
        result.cleanup_problems.push_back(fmt::format("{}: {} entries mdbench did not make were left{}",
                                                      where, kept,
                                                      tally.notes.empty() ? "" : ": " + tally.notes[0]));
      }
      comm.barrier();
    }
    // The last phase ended in a barrier, so every rank is done with the tree: the mark goes last, and comes
    // back when the directory cannot go (it holds something, and stays recognisable as a run's).
    // A mark this job did not find or write (replaced meanwhile) is never removed, and neither is its
    // directory; one put back is byte for byte the one removed (the text depends only on the inode).
    err = 0;
    std::string problem;
    if (leads_target && (result.stop_signal != 0 ? !keepsTrees(plan) : removes)) {
      if (const MarkKind kind = backend.readMark(iteration_dir); kind != MarkKind::kOurs) {
        problem = fmt::format("{} not removed: its mark changed while the run worked in it: {}", where,
                              markRefusal(where, kind));
      } else if ((err = steady ? 0 : removeTakenRecord(backend, iteration_dir)) == 0 &&
                 (err = backend.unlinkFile(iteration_dir, std::string(kMarkName).c_str())) == 0 &&
                 (err = backend.removeDir(backend.root(), name.c_str())) != 0) {
        (void)backend.writeMark(iteration_dir);
        if (!steady) (void)writeTakenRecord(backend, iteration_dir, executor.fates());
      }
    }
    (void)backend.closeDir(iteration_dir);
    if (err != 0) problem = fmt::format("{} not removed: {}", where, describeErrno(err));
    if (problem = agreeOnProblem(comm, problem); !problem.empty() && root) {
      result.cleanup_problems.push_back(problem);
    }
    if (result.stop_signal != 0) break;
  }

  result.info.end_utc = utcTimestampNow();
  if (root) {
    for (Sink* sink : sinks) sink->end(result, plan);
  }
  return result;
}

}  // namespace mdbench
