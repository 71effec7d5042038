#include "mdbench/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "mdbench/errno_name.hpp"
#include "mdbench/layout.hpp"

namespace mdbench {
namespace {

// Keeps the chain of open tree directories from the tree root down to the directory last asked for.
// Depth-first order makes consecutive directories share most ancestors, so most moves cost one
// openat, and no path is ever resolved from the top (nor through a symlink: the backend refuses them).
class DirCursor {
 public:
  DirCursor(Backend& backend, DirHandle base, const TreeLayout& layout, TreeSharing sharing,
            std::uint32_t owner)
      : backend_(backend), base_(base), layout_(layout), sharing_(sharing), owner_(owner) {}
  ~DirCursor() { closeFrom(0); }
  DirCursor(const DirCursor&) = delete;
  DirCursor& operator=(const DirCursor&) = delete;

  // Opens tree directory `dir`; returns 0 or the errno of the open that failed.
  int open(std::uint64_t dir, DirHandle& out) {
    path_.clear();
    for (std::uint64_t d = dir; d != TreeLayout::kNone; d = layout_.parent(d)) path_.push_back(d);
    std::reverse(path_.begin(), path_.end());
    std::size_t shared = 0;
    while (shared < chain_.size() && shared < path_.size() && chain_[shared].dir == path_[shared]) {
      ++shared;
    }
    closeFrom(shared);
    for (std::size_t level = shared; level < path_.size(); ++level) {
      const DirHandle parent = level == 0 ? base_ : chain_[level - 1].handle;
      const std::string name = treeDirName(sharing_, owner_, path_[level]);
      DirHandle opened;
      if (const int err = backend_.openDir(parent, name.c_str(), opened); err != 0) return err;
      chain_.push_back({path_[level], opened});
    }
    out = chain_.back().handle;
    return 0;
  }

  // The directory that holds tree directory `dir` (the iteration directory for the tree root).
  int openParentOf(std::uint64_t dir, DirHandle& out) {
    if (dir == 0) {
      closeFrom(0);
      out = base_;
      return 0;
    }
    return open(layout_.parent(dir), out);
  }

 private:
  struct Entry {
    std::uint64_t dir;
    DirHandle handle;
  };
  void closeFrom(std::size_t level) {
    while (chain_.size() > level) {
      // A failed close of a directory we only read cannot lose data; nothing to report.
      (void)backend_.closeDir(chain_.back().handle);
      chain_.pop_back();
    }
  }

  Backend& backend_;
  DirHandle base_;
  const TreeLayout& layout_;
  TreeSharing sharing_;
  std::uint32_t owner_;
  std::vector<Entry> chain_;
  std::vector<std::uint64_t> path_;
};

// Everything one rank needs to measure a phase.
class PhaseExecutor {
 public:
  PhaseExecutor(const Plan& plan, RunParts parts) : plan_(plan), parts_(parts), rank_(parts.comm.rank()) {
    const Config& config = plan.config();
    write_data_.resize(config.write_bytes);
    for (std::size_t i = 0; i < write_data_.size(); ++i) {
      write_data_[i] = static_cast<std::byte>((rank_ * 131u + i) & 0xffu);
    }
    read_buf_.resize(config.read_bytes);
  }

  void setEpoch(std::int64_t epoch_ns) { epoch_ns_ = epoch_ns; }

  // Barrier, t_start, the planned operations, t_local_end, barrier, t_global_end.
  RankPhaseRecord measure(Phase phase, DirHandle iteration_dir, LatencyHistogram& latency) {
    RankPhaseRecord record;
    record.planned = plan_.plannedOps(phase, rank_);
    latency = LatencyHistogram{};
    record_ = &record;
    latency_ = &latency;
    const std::uint32_t owner = plan_.owner(phase, rank_);
    DirCursor cursor(parts_.backend, iteration_dir, plan_.layout(), plan_.config().sharing, owner);

    parts_.comm.barrier();
    const std::int64_t t_start = parts_.clock.nowNs();
    if (record.planned > 0) execute(phase, cursor, owner);
    const std::int64_t t_local_end = parts_.clock.nowNs();
    parts_.comm.barrier();
    const std::int64_t t_global_end = parts_.clock.nowNs();

    record.t_start = seconds(t_start);
    record.t_local_end = seconds(t_local_end);
    record.t_global_end = seconds(t_global_end);
    return record;
  }

 private:
  double seconds(std::int64_t ns) const { return static_cast<double>(ns - epoch_ns_) * 1e-9; }

  void execute(Phase phase, DirCursor& cursor, std::uint32_t owner) {
    Backend& b = parts_.backend;
    const std::span<const std::byte> data = write_data_;
    const std::span<std::byte> buf = read_buf_;
    switch (phase) {
      case Phase::kTreeCreate:
        return treeLoop(cursor, owner, TreeOrder::kPreorder,
                        [&b](DirHandle parent, const char* name) { return b.makeDir(parent, name); });
      case Phase::kTreeRemove:
        return treeLoop(cursor, owner, TreeOrder::kPostorder,
                        [&b](DirHandle parent, const char* name) { return b.removeDir(parent, name); });
      case Phase::kDirCreate:
        return itemLoop(cursor, owner, ItemKind::kDir, 0,
                        [&b](DirHandle dir, const char* name) { return b.makeDir(dir, name); });
      case Phase::kDirStat:
        return itemLoop(cursor, owner, ItemKind::kDir, 0, [&b](DirHandle dir, const char* name) {
          return b.statEntry(dir, name, /*is_dir=*/true);
        });
      case Phase::kDirRemove:
        return itemLoop(cursor, owner, ItemKind::kDir, 0,
                        [&b](DirHandle dir, const char* name) { return b.removeDir(dir, name); });
      case Phase::kFileCreate:
        return itemLoop(
            cursor, owner, ItemKind::kFile, data.size(),
            [&b, data](DirHandle dir, const char* name) { return b.createFile(dir, name, data); });
      case Phase::kFileStat:
        return itemLoop(cursor, owner, ItemKind::kFile, 0, [&b](DirHandle dir, const char* name) {
          return b.statEntry(dir, name, /*is_dir=*/false);
        });
      case Phase::kFileRead:
        return itemLoop(cursor, owner, ItemKind::kFile, buf.size(),
                        [&b, buf](DirHandle dir, const char* name) { return b.readFile(dir, name, buf); });
      case Phase::kFileRemove:
        return itemLoop(cursor, owner, ItemKind::kFile, 0,
                        [&b](DirHandle dir, const char* name) { return b.unlinkFile(dir, name); });
    }
  }

  void fail(int err, std::uint32_t owner, std::uint64_t dir, std::uint64_t item, std::uint64_t count) {
    record_->failed += count;
    if (!record_->first_error.any()) record_->first_error = FirstError{err, owner, dir, item};
  }

  // The hot loop: one backend call and one clock read per item, no allocation, no formatting. Each
  // op's latency runs from the previous clock read to this one, so it includes the loop's own few
  // nanoseconds (naming the item) but costs one clock read per op instead of two (about 40 ns each here,
  // 4% of a tmpfs stat).
  template <class Op>
  void itemLoop(DirCursor& cursor, std::uint32_t owner, ItemKind kind, std::uint64_t bytes_per_op, Op op) {
    const TreeLayout& layout = plan_.layout();
    ItemNamer namer(kind, owner);
    Clock& clock = parts_.clock;
    RankPhaseRecord& record = *record_;
    LatencyHistogram& latency = *latency_;
    for (std::uint64_t dir = layout.firstPreorder(); dir != TreeLayout::kNone;
         dir = layout.nextPreorder(dir)) {
      const std::uint64_t count = layout.itemsInDir(dir);
      if (count == 0) continue;
      const std::uint64_t first = layout.firstItemInDir(dir);
      DirHandle handle;
      if (const int err = cursor.open(dir, handle); err != 0) {
        fail(err, owner, dir, FirstError{}.item, count);
        continue;
      }
      std::int64_t previous = clock.nowNs();
      for (std::uint64_t item = first; item < first + count; ++item) {
        const int err = op(handle, namer.name(item));
        const std::int64_t now = clock.nowNs();
        if (err == 0) [[likely]] {
          ++record.ok;
          record.bytes += bytes_per_op;
          latency.add(static_cast<std::uint64_t>(now - previous));
        } else {
          fail(err, owner, dir, item, 1);
        }
        previous = now;
      }
    }
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
      const std::string name = treeDirName(sharing, owner, dir);
      DirHandle parent;
      if (const int err = cursor.openParentOf(dir, parent); err != 0) {
        fail(err, owner, dir, FirstError{}.item, 1);
        continue;
      }
      const std::int64_t t0 = clock.nowNs();
      const int err = op(parent, name.c_str());
      const std::int64_t t1 = clock.nowNs();
      if (err == 0) {
        ++record_->ok;
        latency_->add(static_cast<std::uint64_t>(t1 - t0));
      } else {
        fail(err, owner, dir, FirstError{}.item, 1);
      }
    }
  }

  const Plan& plan_;
  RunParts parts_;
  std::uint32_t rank_;
  std::int64_t epoch_ns_ = 0;
  std::vector<std::byte> write_data_;
  std::vector<std::byte> read_buf_;
  RankPhaseRecord* record_ = nullptr;
  LatencyHistogram* latency_ = nullptr;
};

PhaseResult collect(Comm& comm, std::uint32_t iteration, Phase phase, const RankPhaseRecord& record,
                    LatencyHistogram& latency) {
  PhaseResult result;
  result.iteration = iteration;
  result.phase = phase;
  std::vector<std::byte> all;
  comm.gatherBytes(std::as_bytes(std::span(&record, 1)), all);
  comm.reduceSumToRoot(latency.counts());
  if (comm.rank() == 0) {
    result.ranks.resize(comm.size());
    std::memcpy(result.ranks.data(), all.data(), all.size());
    result.latency = latency;
  }
  return result;
}

bool contains(const std::vector<Phase>& phases, Phase phase) {
  return std::find(phases.begin(), phases.end(), phase) != phases.end();
}

}  // namespace

RunResult runBenchmark(const Plan& plan, RunParts parts, RunInfo info, std::span<Sink* const> sinks) {
  RunResult result;
  result.info = std::move(info);
  result.config = plan.config();
  Comm& comm = parts.comm;
  Backend& backend = parts.backend;
  const bool root = comm.rank() == 0;
  const bool creates = contains(plan.phases(), Phase::kTreeCreate);
  const bool removes = contains(plan.phases(), Phase::kTreeRemove);
  if (root) {
    for (Sink* sink : sinks) sink->begin(result.info, plan);
  }

  PhaseExecutor executor(plan, parts);
  LatencyHistogram latency;
  comm.barrier();
  executor.setEpoch(parts.clock.nowNs());

  for (std::uint32_t iteration = 0; iteration < plan.config().iterations; ++iteration) {
    const std::string name = iterationDirName(iteration);
    const std::string where = fmt::format("{}/{}", result.info.target, name);
    int err = (root && creates) ? backend.makeDir(backend.root(), name.c_str()) : 0;
    result.setup_error = agreeOnSetup(comm, err, fmt::format("cannot create {}", where));
    if (err == EEXIST) {
      // Only rank 0 makes it, so only rank 0 knows; the hint reaches the user from there.
      result.setup_error += " (left by an earlier run? finish it with -r, or choose another -d)";
    }
    if (!result.setup_error.empty()) break;
    DirHandle iteration_dir;
    err = backend.openDir(backend.root(), name.c_str(), iteration_dir);
    result.setup_error = agreeOnSetup(
        comm, err,
        fmt::format("cannot open {}{}", where, creates ? "" : " (left by an earlier create run?)"));
    if (!result.setup_error.empty()) {
      if (iteration_dir.valid()) (void)backend.closeDir(iteration_dir);
      break;
    }

    for (const Phase phase : plan.phases()) {
      const RankPhaseRecord record = executor.measure(phase, iteration_dir, latency);
      PhaseResult measured = collect(comm, iteration, phase, record, latency);
      if (root) {
        for (Sink* sink : sinks) sink->phase(measured, plan);
        result.phases.push_back(std::move(measured));
      }
    }
    (void)backend.closeDir(iteration_dir);
    // The last phase ended in a barrier, so every rank is done with the tree.
    if (root && removes) {
      if (const int rm = backend.removeDir(backend.root(), name.c_str()); rm != 0) {
        result.cleanup_problems.push_back(fmt::format("{} not removed: {}", where, describeErrno(rm)));
      }
    }
  }

  result.info.end_utc = utcTimestampNow();
  if (root) {
    for (Sink* sink : sinks) sink->end(result, plan);
  }
  return result;
}

}  // namespace mdbench
