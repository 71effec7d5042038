// The hot loops of one rank's phase (phase_executor.hpp): over a range of items in number or -R's order,
// over the tree's directories in pre- or postorder, and readdir's over the directories it lists; each op
// counted into the phase's record and latency. Private to the runner; the loops over items are templates
// that phase_ops.cpp alone instantiates.
#pragma once

#include <cerrno>
#include <cstdint>
#include <string>

#include "dir_cursor.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/model/result.hpp"
#include "mdbench/model/stats.hpp"
#include "mdbench/run/runner.hpp"
#include "mdbench/run/signals.hpp"
#include "name_fates.hpp"
#include "phase_timing.hpp"

namespace mdbench {

class ItemLoop {
 public:
  // A readdir count or a -X data check that does not match: a failed op with this errno.
  static constexpr int kMismatch = EBADMSG;
  // Which of a phase's items a pass of the item loop visits: all, or -S's two steps of a create (the names
  // this rank creates, then the names it opens after their creators made them).
  enum class Pick : std::uint8_t { kAll, kMine, kOthers };
  struct Range {
    std::uint64_t from;
    std::uint64_t to;
    Pick pick = Pick::kAll;
  };
  enum class TreeOrder : std::uint8_t { kPreorder, kPostorder };

  // All of these outlive this.
  ItemLoop(const Plan& plan, const RunParts& parts, PhaseTiming& timing, NameFates& names)
      : plan_(plan), parts_(parts), rank_(parts.comm.rank()), timing_(timing), names_(names) {}

  // A phase's ops count into these from now on.
  void begin(RankPhaseRecord& record, LatencyHistogram& latency) {
    record_ = &record;
    latency_ = &latency;
  }
  // At t_start: not stopped, no name made.
  void open() {
    stopped_ = false;
    name_made_ = false;
  }
  RankPhaseRecord& record() { return *record_; }
  // Whether a signal stopped the phase (signals.hpp).
  bool stopped() const { return stopped_; }
  // Whether the last file create made its name (CreateOptions::made): its failure after that (the write)
  // leaves the name the run's.
  bool& nameMade() { return name_made_; }
  // The item count readdir checks against (the phase's kind), set before a readdir phase.
  void setReaddirLimit(std::uint64_t limit) { readdir_limit_ = limit; }

  // The hot loop: one backend call and one clock read per item, no allocation, no formatting. Each
  // op's latency runs from the previous clock read to this one, so it includes the loop's own few
  // nanoseconds (naming the item) but costs one clock read per op instead of two (the TSC where the
  // kernel trusts it, about 20 ns on the development VM against CLOCK_MONOTONIC's 34; bench/README.md). Items
  // are visited in number order (directory by directory), or in -R's permutation; the stonewall check is one
  // comparison per op. Returns where it stopped (`range.to`, or earlier after a stop or a stonewall that
  // stops the phase).
  template <class Op>
  std::uint64_t items(Phase phase, DirCursor& cursor, std::uint32_t owner, Range range,
                      std::uint64_t bytes_per_op, Op op) {
    // The real clocks without a virtual call per op; the tests' clocks through the interface.
    if (auto* tsc = dynamic_cast<TscClock*>(&parts_.clock)) {
      return itemsWith(*tsc, phase, cursor, owner, range, bytes_per_op, op);
    }
    if (auto* steady = dynamic_cast<SteadyClock*>(&parts_.clock)) {
      return itemsWith(*steady, phase, cursor, owner, range, bytes_per_op, op);
    }
    return itemsWith(parts_.clock, phase, cursor, owner, range, bytes_per_op, op);
  }

  // `op` on each tree directory (its parent's handle and its name) in `order`.
  template <class Op>
  void tree(DirCursor& cursor, std::uint32_t owner, TreeOrder order, Op op) {
    const TreeLayout& layout = plan_.layout();
    const TreeSharing sharing = plan_.settings().sharing;
    const bool pre = order == TreeOrder::kPreorder;
    for (std::uint64_t dir = pre ? layout.firstPreorder() : layout.firstPostorder(); dir != TreeLayout::kNone;
         dir = pre ? layout.nextPreorder(dir) : layout.nextPostorder(dir)) {
      if (stopSignal() != 0) {
        stopped_ = true;
        return;
      }
      const std::string name = treeDirName(sharing, owner, dir);
      DirHandle parent;
      if (const int err = cursor.openParentOf(dir, parent); err != 0) {
        fail(err, owner, dir, FirstError{}.item);
        continue;
      }
      const std::int64_t t0 = parts_.clock.nowNs();
      const int err = op(parent, name.c_str());
      finishDirOp(err, t0, owner, dir);
    }
  }

  // Lists each tree directory this rank is given and checks its entries: the phase's kind of items
  // (those that exist in this iteration) and the tree's own subdirectories. One op per directory.
  void readdir(Phase phase, DirCursor& cursor, std::uint32_t owner);

 private:
  template <class ClockType, class Op>
  std::uint64_t itemsWith(ClockType& clock, Phase phase, DirCursor& cursor, std::uint32_t owner, Range range,
                          std::uint64_t bytes_per_op, Op& op);
  // One op on a directory itself (tree and readdir phases), started at t0: logged, counted, and timed when
  // it succeeded.
  void finishDirOp(int err, std::int64_t t0, std::uint32_t owner, std::uint64_t dir);
  void fail(int err, std::uint32_t owner, std::uint64_t dir, std::uint64_t item);

  const Plan& plan_;
  const RunParts& parts_;
  std::uint32_t rank_;
  PhaseTiming& timing_;
  NameFates& names_;
  RankPhaseRecord* record_ = nullptr;
  LatencyHistogram* latency_ = nullptr;
  bool stopped_ = false;    // the last phase stopped for a signal (signals.hpp)
  bool name_made_ = false;  // the last file create made its name (CreateOptions::made)
  std::uint64_t readdir_limit_ = 0;
};

template <class ClockType, class Op>
std::uint64_t ItemLoop::itemsWith(ClockType& clock, Phase phase, DirCursor& cursor, std::uint32_t owner,
                                  Range range, std::uint64_t bytes_per_op, Op& op) {
  const std::uint64_t from = range.from;
  const std::uint64_t to = range.to;
  const bool picks = range.pick != Pick::kAll;
  const bool want_mine = range.pick == Pick::kMine;
  const std::uint64_t ranks = parts_.comm.size();
  const bool notes_failures = phaseInfo(phase).decidesOwnership();
  const TreeLayout& layout = plan_.layout();
  RankPhaseRecord& record = *record_;
  LatencyHistogram& latency = *latency_;
  PhaseTiming& timing = timing_;
  PerOpLog* const per_op = timing.perOp();
  const bool random = plan_.randomOrder(phase);
  const Permutation order(random ? to : 0, plan_.settings().random_seed);
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
    if (timing.due(now)) [[unlikely]]
      timing.tick(now, record);
    if (err == 0) [[likely]] {
      ++record.ok;
      timing.succeeded(now);
      record.bytes += bytes_per_op;
      latency.add(static_cast<std::uint64_t>(now - previous));
    } else {
      fail(err, owner, dir, dir_error != 0 ? FirstError{}.item : item);
      if (dir_error != 0) dir_end = 0;  // try to open it again for the next item
      // A file whose write failed after its create is the run's (removed later); only a name the create
      // never made is left to whoever has it.
      if (notes_failures && !name_made_) names_.noteFailure(phase, owner, item, err);
      name_made_ = false;
    }
    previous = now;
    if (timing.pastDeadline(now)) [[unlikely]] {
      if (timing.noteStonewall(now, record)) return position + 1;
    }
    if (stopSignal() != 0) [[unlikely]] {
      stopped_ = true;
      return position + 1;
    }
  }
  return to;
}

}  // namespace mdbench
