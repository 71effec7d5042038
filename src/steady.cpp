#include "mdbench/steady.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <tuple>

#include "mdbench/errno_name.hpp"
#include "mdbench/plan.hpp"
#include "mdbench/signals.hpp"

namespace mdbench {
namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
constexpr std::uint64_t kNoObject = ~std::uint64_t{0};  // FirstError::item for an op on a dataset itself

// One dataset this rank works on, with its open handle (or why it could not be opened: then every op on
// its objects fails with that errno, as the runner's directory cursor does).
struct Dataset {
  std::uint32_t owner = 0;
  std::uint32_t index = 0;
  std::string name;
  std::string object_prefix;  // "obj.mdbench.<owner>.<d>."
  DirHandle handle;
  int open_error = 0;
  bool made = false;  // own datasets: this run's mkdir made it (only then is it removed)
};

Dataset makeDataset(std::uint32_t owner, std::uint32_t index) {
  Dataset d;
  d.owner = owner;
  d.index = index;
  d.name = steadyDatasetName(owner, index);
  d.object_prefix = fmt::format("obj.mdbench.{}.{}.", owner, index);
  return d;
}

// Everything one rank needs to run and measure the three phases.
class SteadyEngine {
 public:
  SteadyEngine(const SteadyConfig& config, SteadyParts& parts)
      : config_(config), parts_(parts), rank_(parts.comm.rank()), size_(parts.comm.size()) {
    write_data_.resize(config.object_bytes);
    // The pattern is md-workbench's idea (data that does not compress away); nothing verifies it here.
    if (!write_data_.empty()) fillPattern(write_data_, rank_, 0);
    read_buf_.resize(config.object_bytes);
    for (std::uint32_t d = 0; d < config.datasets; ++d) {
      own_.push_back(makeDataset(rank_, d));
      read_.push_back(makeDataset(steadyReadOwner(rank_, size_, config.offset, d), d));
      write_.push_back(makeDataset(steadyWriteOwner(rank_, size_, config.offset, d), d));
    }
  }

  SteadyResult run() {
    SteadyResult result;
    parts_.comm.barrier();
    epoch_ns_ = parts_.clock.nowNs();

    SteadyRankRecord record = measure(SteadyPhase::kPrecreate, [this] { precreate(); });
    keep(result, SteadyPhase::kPrecreate, record);
    shareTaken();
    // A signal during precreate (on any rank) leaves the mix out: its rounds would read objects that a
    // stopped rank never made.
    result.stopped_in_precreate = parts_.comm.allreduceMax(precreated_ < config_.working_set ? 1 : 0) != 0;
    skip_mix_ = result.stopped_in_precreate;

    // Every dataset exists now (or never will): open the ones the mix reads and writes, untimed.
    for (Dataset& d : read_) openIfOurs(d);
    for (Dataset& d : write_) openIfOurs(d);
    record = measure(SteadyPhase::kMix, [this] { mix(); });
    result.rounds = rounds_;
    keep(result, SteadyPhase::kMix, record);
    for (Dataset& d : read_) close(d);
    for (Dataset& d : write_) close(d);

    record = measure(SteadyPhase::kCleanup, [this] { cleanup(); });
    keep(result, SteadyPhase::kCleanup, record);
    return result;
  }

 private:
  double seconds(std::int64_t ns) const { return static_cast<double>(ns - epoch_ns_) * 1e-9; }

  // Barrier, t_start, the phase's ops, t_local_end, barrier, t_global_end. The hook's time (paused_ns_)
  // is left out of both ends.
  template <class Body>
  SteadyRankRecord measure(SteadyPhase phase, Body body) {
    SteadyRankRecord record;
    latency_ = {};
    record_ = &record;
    paused_ns_ = 0;
    parts_.comm.barrier();
    const std::int64_t t_start = parts_.clock.nowNs();
    t_start_ns_ = t_start;
    previous_ = t_start;
    body();
    // The clock read after this rank's last op (or after the hook that followed it): the mix ends in a
    // collective agreement on the round count, and reading the clock after it would give every rank the same
    // end and hide the imbalance.
    const std::int64_t t_local_end = previous_;
    parts_.comm.barrier();
    const std::int64_t t_global_end = parts_.clock.nowNs();
    record.t_start = seconds(t_start);
    record.t_local_end = seconds(t_local_end - paused_ns_);
    record.t_global_end = seconds(t_global_end - paused_ns_);
    if (phase == SteadyPhase::kMix) {
      record.rounds = rounds_;
      if (record.t_stonewall == 0.0) record.rounds_at_stonewall = rounds_;
    }
    record_ = nullptr;
    return record;
  }

  // Collective: one gather of the records and one reduction of all op types' histograms.
  void keep(SteadyResult& result, SteadyPhase phase, const SteadyRankRecord& record) {
    std::vector<std::byte> all;
    parts_.comm.gatherBytes(std::as_bytes(std::span(&record, 1)), all);
    constexpr std::size_t kBuckets = LatencyHistogram::kBuckets;
    std::vector<std::uint64_t> counts(kSteadyOpCount * kBuckets);
    for (std::size_t op = 0; op < kSteadyOpCount; ++op) {
      std::copy(latency_[op].counts().begin(), latency_[op].counts().end(), counts.begin() + op * kBuckets);
    }
    parts_.comm.reduceSumToRoot(counts);
    if (parts_.comm.rank() != 0) return;
    SteadyPhaseResult& p = result.phases.emplace_back();
    p.phase = phase;
    p.ranks.resize(size_);
    std::memcpy(p.ranks.data(), all.data(), all.size());
    for (std::size_t op = 0; op < kSteadyOpCount; ++op) {
      std::copy(counts.begin() + op * kBuckets, counts.begin() + (op + 1) * kBuckets,
                p.latency[op].counts().begin());
    }
  }

  // Counts one op that ended at `now`: its latency runs from the previous clock read, so one read per op
  // (as the runner's hot loop; the few nanoseconds of naming the object are included).
  void count(SteadyOp op, int err, std::int64_t now, const Dataset& dataset, std::uint64_t object,
             std::uint64_t bytes) {
    SteadyRankRecord& record = *record_;
    SteadyOpCounts& c = record.ops[steadyOpIndex(op)];
    if (err == 0) [[likely]] {
      ++c.ok;
      record.bytes += bytes;
      latency_[steadyOpIndex(op)].add(static_cast<std::uint64_t>(now - previous_));
    } else {
      ++c.failed;
      if (!record.first_error.any()) {
        record.first_error = FirstError{err, dataset.owner, dataset.index, object};
        record.first_error_op = op;
      }
    }
    previous_ = now;
  }

  // Untimed steps inside a phase (opening and closing handles) restart the next op's latency.
  void untimed() { previous_ = parts_.clock.nowNs(); }

  void open(Dataset& d) {
    d.open_error = parts_.backend.openDir(parts_.dir, d.name.c_str(), d.handle);
    if (d.open_error != 0) d.handle = DirHandle{};
  }
  void close(Dataset& d) {
    if (d.handle.valid()) (void)parts_.backend.closeDir(d.handle);
    d.handle = DirHandle{};
  }

  // The NUL-terminated name of an object of `d`, built without allocating; valid until the next call.
  const char* objectName(const Dataset& d, std::uint64_t object) {
    const std::size_t n = d.object_prefix.size();
    std::memcpy(name_.data(), d.object_prefix.data(), n);
    const auto end = std::to_chars(name_.data() + n, name_.data() + name_.size() - 1, object).ptr;
    *end = '\0';
    return name_.data();
  }

  int create(const Dataset& d, std::uint64_t object) {
    if (d.open_error != 0) return d.open_error;
    return parts_.backend.createFile(d.handle, objectName(d, object), write_data_, CreateOptions{});
  }

  // A name this run did not make: something was there when it created it (EEXIST). Such a dataset is never
  // entered and such an object never stat'ed, read or deleted, whichever rank would have.
  using Taken = std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>;  // owner, dataset, object
  bool taken(const Dataset& d, std::uint64_t object) const {
    return !taken_.empty() && taken_.count({d.owner, d.index, object}) != 0;
  }
  void noteTaken(int err, const Dataset& d, std::uint64_t object) {
    if (err == EEXIST) taken_here_.emplace_back(d.owner, d.index, object);
  }

  // Collective, after precreate: every rank learns every name precreate found taken (usually none: one
  // agreement on the count, and no more).
  void shareTaken() {
    const std::uint64_t most = parts_.comm.allreduceMax(taken_here_.size());
    if (most == 0) return;
    struct Slot {
      std::uint64_t object;
      std::uint32_t owner;
      std::uint32_t dataset;  // kNoDataset: an unused slot
    };
    constexpr std::uint32_t kNoDataset = ~std::uint32_t{0};
    std::vector<Slot> mine(most, Slot{0, 0, kNoDataset});
    for (std::size_t i = 0; i < taken_here_.size(); ++i) {
      const auto& [owner, dataset, object] = taken_here_[i];
      mine[i] = Slot{object, owner, dataset};
    }
    std::vector<std::byte> all;
    parts_.comm.gatherBytes(std::as_bytes(std::span(mine)), all);
    std::string bytes = parts_.comm.rank() == 0
                            ? std::string(reinterpret_cast<const char*>(all.data()), all.size())
                            : std::string();
    parts_.comm.broadcast(bytes);
    for (std::size_t at = 0; at + sizeof(Slot) <= bytes.size(); at += sizeof(Slot)) {
      Slot slot;
      std::memcpy(&slot, bytes.data() + at, sizeof slot);
      if (slot.dataset != kNoDataset) taken_.emplace(slot.owner, slot.dataset, slot.object);
    }
  }

  void openIfOurs(Dataset& d) {
    if (taken(d, kNoObject)) {
      d.open_error = EEXIST;
      return;
    }
    open(d);
  }

  void precreate() {
    Backend& b = parts_.backend;
    for (Dataset& d : own_) {
      const int err = b.makeDir(parts_.dir, d.name.c_str());
      count(SteadyOp::kMkdir, err, parts_.clock.nowNs(), d, kNoObject, 0);
      noteTaken(err, d, kNoObject);
      d.made = err == 0;
      d.open_error = err;  // a dataset this run could not make is never entered
    }
    for (Dataset& d : own_) {
      if (d.made) open(d);
    }
    untimed();
    for (precreated_ = 0; precreated_ < config_.working_set; ++precreated_) {
      // SIGINT or SIGTERM (signals.hpp): stop between objects, so every dataset holds 0 .. precreated_ - 1.
      if (stopSignal() != 0) break;
      for (const Dataset& d : own_) {
        const int err = create(d, precreated_);
        count(SteadyOp::kCreate, err, parts_.clock.nowNs(), d, precreated_, write_data_.size());
        if (d.made) noteTaken(err, d, precreated_);
      }
    }
  }

  // One round: per dataset, the oldest object of the read dataset through stat, read and delete, and a new
  // object in the write dataset (the header's rules for what a failure skips).
  void round(std::uint64_t f) {
    Backend& b = parts_.backend;
    Clock& clock = parts_.clock;
    const std::uint64_t victim = steadyVictim(f);
    const std::uint64_t fresh = steadyNewObject(config_.working_set, f);
    for (std::uint32_t d = 0; d < config_.datasets; ++d) {
      const Dataset& in = read_[d];
      int err = in.open_error != 0  ? in.open_error
                : taken(in, victim) ? EEXIST
                                    : b.statEntry(in.handle, objectName(in, victim), false);
      count(SteadyOp::kStat, err, clock.nowNs(), in, victim, 0);
      if (err != 0) continue;
      err = in.open_error != 0 ? in.open_error : b.readFile(in.handle, objectName(in, victim), read_buf_);
      count(SteadyOp::kRead, err, clock.nowNs(), in, victim, read_buf_.size());
      err = in.open_error != 0 ? in.open_error : b.unlinkFile(in.handle, objectName(in, victim));
      count(SteadyOp::kDelete, err, clock.nowNs(), in, victim, 0);
      if (err != 0) continue;
      const Dataset& out = write_[d];
      err = create(out, fresh);
      count(SteadyOp::kCreate, err, clock.nowNs(), out, fresh, write_data_.size());
    }
  }

  void mix() {
    SteadyRankRecord& record = *record_;
    const bool stonewall = config_.stonewall_s > 0;
    // Capped at about 30 years, so that the nanoseconds fit.
    const double stonewall_ns = std::min(config_.stonewall_s, 1e9) * 1e9;
    std::int64_t deadline = stonewall ? t_start_ns_ + std::llround(stonewall_ns) : kNever;
    bool fired = false;
    std::uint64_t done = 0;
    while (!skip_mix_ && done < config_.rounds) {
      round(done);
      ++done;
      // previous_ is the clock read after the round's last op: no extra read per round.
      if (!fired && previous_ >= deadline) {
        fired = true;
        record.rounds_at_stonewall = done;
        record.t_stonewall = seconds(previous_ - paused_ns_);
      }
      if (parts_.after_round) {
        const std::int64_t pause_start = previous_;
        const bool any_fired = stonewall && parts_.comm.allreduceMax(fired ? 1 : 0) != 0;
        parts_.after_round(done);
        untimed();
        paused_ns_ += previous_ - pause_start;
        if (deadline != kNever) deadline += previous_ - pause_start;
        if (any_fired) break;
      } else if (fired) {
        break;
      }
      // SIGINT or SIGTERM (signals.hpp): stop after this round. mpiexec and scancel signal every rank; a rank
      // that alone was signalled wears out to the others' count below, so the working set stays exact.
      if (stopSignal() != 0) break;
    }
    {
      // Every rank takes part, also those that never fired, so none waits alone.
      const std::uint64_t agreed = parts_.comm.allreduceMax(done);
      while (done < agreed) {
        round(done);
        ++done;
      }
    }
    rounds_ = done;
  }

  void cleanup() {
    Backend& b = parts_.backend;
    // What precreate made, moved on by the rounds (a mix only runs after a complete precreate everywhere).
    const std::uint64_t first = steadyFirstSurvivor(rounds_);
    for (Dataset& d : own_) {
      for (std::uint64_t i = first; i < first + precreated_; ++i) {
        const int err = d.open_error != 0 ? d.open_error
                        : taken(d, i)     ? EEXIST
                                          : b.unlinkFile(d.handle, objectName(d, i));
        count(SteadyOp::kDelete, err, parts_.clock.nowNs(), d, i, 0);
      }
      close(d);
      untimed();
      const int err = d.made ? b.removeDir(parts_.dir, d.name.c_str()) : d.open_error;
      count(SteadyOp::kRmdir, err, parts_.clock.nowNs(), d, kNoObject, 0);
    }
  }

  const SteadyConfig& config_;
  SteadyParts& parts_;
  std::uint32_t rank_;
  std::uint32_t size_;
  std::vector<Dataset> own_;    // this rank's datasets (precreate, cleanup)
  std::vector<Dataset> read_;   // dataset d of rank - k_d (mix)
  std::vector<Dataset> write_;  // dataset d of rank + k_d (mix)
  std::vector<std::byte> write_data_;
  std::vector<std::byte> read_buf_;
  std::array<char, 96> name_{};  // 12 + 10 + 1 + 10 + 1 + 20 + NUL fits
  std::array<LatencyHistogram, kSteadyOpCount> latency_{};
  SteadyRankRecord* record_ = nullptr;
  std::int64_t epoch_ns_ = 0;
  std::int64_t t_start_ns_ = 0;
  std::int64_t previous_ = 0;
  std::int64_t paused_ns_ = 0;
  std::uint64_t rounds_ = 0;
  std::uint64_t precreated_ = 0;  // objects per own dataset that precreate made (working_set unless stopped)
  bool skip_mix_ = false;
  std::vector<Taken> taken_here_;  // names this rank's precreate found taken
  std::set<Taken> taken_;          // every rank's (shareTaken)
};

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

}  // namespace

std::vector<std::string> steadyConfigProblems(const SteadyConfig& config) {
  std::vector<std::string> problems;
  if (config.datasets == 0) problems.push_back("datasets: 0; at least 1 dataset per rank is needed");
  if (config.working_set == 0) problems.push_back("working_set: 0; at least 1 object per dataset is needed");
  if (!std::isfinite(config.stonewall_s) || config.stonewall_s < 0) {
    problems.push_back(
        fmt::format("stonewall_s: {}; must be 0 (off) or a positive number of seconds", config.stonewall_s));
  }
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
  if (config.working_set >= kLimit || config.rounds >= kLimit - config.working_set) {
    problems.push_back(fmt::format("working_set + rounds: {} + {}; object numbers must stay below 2^63",
                                   config.working_set, config.rounds));
  }
  return problems;
}

const char* steadyPhaseName(SteadyPhase phase) {
  switch (phase) {
    case SteadyPhase::kPrecreate:
      return "precreate";
    case SteadyPhase::kMix:
      return "mix";
    case SteadyPhase::kCleanup:
      return "cleanup";
  }
  return "?";
}

const char* steadyOpName(SteadyOp op) {
  switch (op) {
    case SteadyOp::kMkdir:
      return "mkdir";
    case SteadyOp::kStat:
      return "stat";
    case SteadyOp::kRead:
      return "read";
    case SteadyOp::kDelete:
      return "delete";
    case SteadyOp::kCreate:
      return "create";
    case SteadyOp::kRmdir:
      return "rmdir";
  }
  return "?";
}

std::vector<SteadyOp> steadyOpsOf(SteadyPhase phase) {
  switch (phase) {
    case SteadyPhase::kPrecreate:
      return {SteadyOp::kMkdir, SteadyOp::kCreate};
    case SteadyPhase::kMix:
      return {SteadyOp::kStat, SteadyOp::kRead, SteadyOp::kDelete, SteadyOp::kCreate};
    case SteadyPhase::kCleanup:
      return {SteadyOp::kDelete, SteadyOp::kRmdir};
  }
  return {};
}

std::string steadyDatasetName(std::uint32_t owner, std::uint32_t dataset) {
  return fmt::format("steady.mdbench.{}.{}", owner, dataset);
}

std::string steadyObjectName(std::uint32_t owner, std::uint32_t dataset, std::uint64_t object) {
  return fmt::format("obj.mdbench.{}.{}.{}", owner, dataset, object);
}

namespace {
// k_d = offset * (d + 1) mod size, without overflow (both factors reduced first; their product < 2^64).
std::uint64_t ringDistance(std::uint32_t size, std::uint32_t offset, std::uint32_t dataset) {
  return (std::uint64_t{offset} % size) * ((std::uint64_t{dataset} + 1) % size) % size;
}
}  // namespace

std::uint32_t steadyReadOwner(std::uint32_t rank, std::uint32_t size, std::uint32_t offset,
                              std::uint32_t dataset) {
  return static_cast<std::uint32_t>((rank + size - ringDistance(size, offset, dataset)) % size);
}

std::uint32_t steadyWriteOwner(std::uint32_t rank, std::uint32_t size, std::uint32_t offset,
                               std::uint32_t dataset) {
  return static_cast<std::uint32_t>((rank + ringDistance(size, offset, dataset)) % size);
}

std::uint64_t SteadyRankRecord::ok() const {
  std::uint64_t n = 0;
  for (const SteadyOpCounts& c : ops) n += c.ok;
  return n;
}

std::uint64_t SteadyRankRecord::failed() const {
  std::uint64_t n = 0;
  for (const SteadyOpCounts& c : ops) n += c.failed;
  return n;
}

std::uint64_t SteadyResult::failedOps() const {
  std::uint64_t n = 0;
  for (const SteadyPhaseResult& p : phases) {
    for (const SteadyRankRecord& r : p.ranks) n += r.failed();
  }
  return n;
}

SteadyResult runSteady(const SteadyConfig& config, SteadyParts parts) {
  SteadyEngine engine(config, parts);
  return engine.run();
}

SteadyPhaseSummary summarizeSteadyPhase(const SteadyPhaseResult& phase) {
  SteadyPhaseSummary s;
  s.phase = phase.phase;
  s.ranks = static_cast<std::uint32_t>(phase.ranks.size());
  if (phase.ranks.empty()) return s;
  s.rank_time_min_s = std::numeric_limits<double>::infinity();
  s.rank_rate_min = std::numeric_limits<double>::infinity();
  double time_sum = 0.0;
  for (const SteadyRankRecord& r : phase.ranks) {
    s.time_s = std::max(s.time_s, r.t_global_end - r.t_start);
    for (std::size_t op = 0; op < kSteadyOpCount; ++op) {
      s.ops[op].ok += r.ops[op].ok;
      s.ops[op].failed += r.ops[op].failed;
    }
    s.ok += r.ok();
    s.failed += r.failed();
    s.bytes += r.bytes;
    s.rounds = std::max(s.rounds, r.rounds);
    const double rank_time = r.t_local_end - r.t_start;
    const double rank_rate = ratio(static_cast<double>(r.ok()), rank_time);
    time_sum += rank_time;
    s.rank_time_min_s = std::min(s.rank_time_min_s, rank_time);
    s.rank_time_max_s = std::max(s.rank_time_max_s, rank_time);
    s.rank_rate_min = std::min(s.rank_rate_min, rank_rate);
    s.rank_rate_max = std::max(s.rank_rate_max, rank_rate);
    s.rounds_at_stonewall += r.rounds_at_stonewall;
    if (r.t_stonewall != 0.0) {
      s.stonewalled = true;
      s.stonewall_time_s = std::max(s.stonewall_time_s, r.t_stonewall - r.t_start);
    }
  }
  for (std::size_t op = 0; op < kSteadyOpCount; ++op) {
    s.ops[op].ops_per_s = ratio(static_cast<double>(s.ops[op].ok), s.time_s);
    s.ops[op].latency = latencySummary(phase.latency[op]);
  }
  s.ok_per_s = ratio(static_cast<double>(s.ok), s.time_s);
  s.bytes_per_s = ratio(static_cast<double>(s.bytes), s.time_s);
  s.rounds_per_s = ratio(static_cast<double>(s.rounds), s.time_s);
  s.objects_per_s = ratio(static_cast<double>(s.ops[steadyOpIndex(SteadyOp::kRead)].ok), s.time_s);
  s.rank_time_mean_s = time_sum / static_cast<double>(phase.ranks.size());
  s.time_balance = ratio(s.rank_time_min_s, s.rank_time_max_s);
  s.rate_balance = ratio(s.rank_rate_min, s.rank_rate_max);
  if (!s.stonewalled) s.rounds_at_stonewall = 0;
  s.rounds_per_s_at_stonewall =
      ratio(ratio(static_cast<double>(s.rounds_at_stonewall), s.ranks), s.stonewall_time_s);
  return s;
}

std::string describeSteadyError(const SteadyRankRecord& record) {
  const FirstError& e = record.first_error;
  if (!e.any()) return {};
  const auto owner = e.owner;
  const auto dataset = static_cast<std::uint32_t>(e.dir);
  const std::string where = e.item == kNoObject ? steadyDatasetName(owner, dataset)
                                                : fmt::format("{}/{}", steadyDatasetName(owner, dataset),
                                                              steadyObjectName(owner, dataset, e.item));
  return fmt::format("{} {}: {}", steadyOpName(record.first_error_op), where, describeErrno(e.err));
}

}  // namespace mdbench
