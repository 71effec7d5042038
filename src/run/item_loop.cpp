// The hot loops of one rank's phase (item_loop.hpp): readdir's, and the counting of an op.
#include "item_loop.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace mdbench {

void ItemLoop::readdir(Phase phase, DirCursor& cursor, std::uint32_t owner) {
  static constexpr std::array<std::string_view, 3> kPrefixes = {"dir.mdbench.", "file.mdbench.",
                                                                "mdbench_tree."};
  const TreeLayout& layout = plan_.layout();
  const PhaseSettings& settings = plan_.settings();
  const std::size_t kind_index = itemKindOf(phase) == ItemKind::kDir ? 0 : 1;
  const std::uint64_t limit = readdir_limit_;
  const std::uint64_t owners =
      settings.shared_files || settings.sharing == TreeSharing::kUnique ? 1 : plan_.ranks();
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
    const std::int64_t t0 = parts_.clock.nowNs();
    DirHandle handle;
    std::uint64_t total = 0;
    int err = cursor.open(dir, handle);
    if (err == 0) err = parts_.backend.countEntries(handle, kPrefixes, counts, total);
    if (err == 0 && (counts[kind_index] != present * owners || counts[2] != children)) err = kMismatch;
    finishDirOp(err, t0, owner, dir);
  }
}

void ItemLoop::finishDirOp(int err, std::int64_t t0, std::uint32_t owner, std::uint64_t dir) {
  const std::int64_t now = parts_.clock.nowNs();
  if (PerOpLog* per_op = timing_.perOp(); per_op != nullptr) per_op->add(dir, t0, now);
  if (timing_.due(now)) timing_.tick(now, *record_);
  if (err == 0) {
    ++record_->ok;
    latency_->add(static_cast<std::uint64_t>(now - t0));
    timing_.succeeded(now);
  } else {
    fail(err, owner, dir, FirstError{}.item);
  }
}

void ItemLoop::fail(int err, std::uint32_t owner, std::uint64_t dir, std::uint64_t item) {
  ++record_->failed;
  if (!record_->first_error.any()) record_->first_error = FirstError{err, owner, dir, item};
}

}  // namespace mdbench
