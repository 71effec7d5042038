#include "mdbench/run/steady_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <tuple>

#include "fault_injector.hpp"
#include "mdbench/model/fault.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/run/runner.hpp"
#include "mdbench/run/signals.hpp"
#include "mdbench/util/errno_name.hpp"

namespace mdbench {
namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

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

    RankPhaseRecord record = measure(Phase::kSteadyPrecreate, [this] { precreate(); });
    keep(result, Phase::kSteadyPrecreate, record);
    shareTaken();
    // A signal during precreate (on any rank) leaves the mix out: its rounds would read objects that a
    // stopped rank never made.
    result.stopped_in_precreate = parts_.comm.allreduceMax(precreated_ < config_.working_set ? 1 : 0) != 0;
    skip_mix_ = result.stopped_in_precreate;

    // Every dataset exists now (or never will): open the ones the mix reads and writes, untimed.
    for (Dataset& d : read_) openIfOurs(d);
    for (Dataset& d : write_) openIfOurs(d);
    record = measure(Phase::kSteadyMix, [this] { mix(); });
    result.rounds = rounds_;
    keep(result, Phase::kSteadyMix, record);
    for (Dataset& d : read_) close(d);
    for (Dataset& d : write_) close(d);

    record = measure(Phase::kSteadyCleanup, [this] { cleanup(); });
    keep(result, Phase::kSteadyCleanup, record);
    return result;
  }

 private:
  double seconds(std::int64_t ns) const { return static_cast<double>(ns - epoch_ns_) * 1e-9; }

  // Barrier, t_start, the phase's ops, t_local_end, barrier, t_global_end. The hook's time (paused_ns_)
  // is left out of both ends.
  template <class Body>
  RankPhaseRecord measure(Phase phase, Body body) {
    RankPhaseRecord record;
    latency_ = {};
    record_ = &record;
    paused_ns_ = 0;
    parts_.comm.barrier();
    const std::int64_t t_start = parts_.clock.nowNs();
    t_start_ns_ = t_start;
    previous_ = t_start;
    ok_ = 0;
    series_.begin(t_start, std::max<std::int64_t>(1, parts_.series_interval_ns));
    gaps_.begin(t_start, epoch_ns_);
    if (parts_.faults != nullptr) parts_.faults->begin(phaseName(phase), parts_.iteration);
    body();
    series_.finish(previous_, ok_);
    gaps_.finish();
    // The clock read after this rank's last op (or after the hook that followed it): the mix ends in a
    // collective agreement on the round count, and reading the clock after it would give every rank the same
    // end and hide the imbalance.
    const std::int64_t t_local_end = previous_;
    parts_.comm.barrier();
    const std::int64_t t_global_end = parts_.clock.nowNs();
    record.t_start = seconds(t_start);
    record.t_local_end = seconds(t_local_end - paused_ns_);
    record.t_global_end = seconds(t_global_end - paused_ns_);
    sumKinds(record);
    if (phase == Phase::kSteadyMix) {
      record.rounds = rounds_;
      if (record.t_stonewall == 0.0) record.ops_at_stonewall = rounds_;
    }
    record_ = nullptr;
    return record;
  }

  // Collective: one gather of the records and one reduction of all op types' histograms, then the series
  // and the stall as the runner's phases collect them; rank 0 ends the phase's faults and measures each
  // injected one's recovery.
  void keep(SteadyResult& result, Phase phase, const RankPhaseRecord& record) {
    std::vector<FaultRecord> faults =
        parts_.faults != nullptr ? parts_.faults->end() : std::vector<FaultRecord>();
    std::vector<std::byte> all;
    parts_.comm.gatherBytes(std::as_bytes(std::span(&record, 1)), all);
    constexpr std::size_t kBuckets = LatencyHistogram::kBuckets;
    std::vector<std::uint64_t> counts(kOpKindCount * kBuckets);
    for (std::size_t op = 0; op < kOpKindCount; ++op) {
      std::copy(latency_[op].counts().begin(), latency_[op].counts().end(), counts.begin() + op * kBuckets);
    }
    parts_.comm.reduceSumToRoot(counts);
    OpsSeries series = collectSeries(parts_.comm, series_);
    if (parts_.comm.rank() != 0) {
      (void)collectStall(parts_.comm, gaps_, std::vector<RankPhaseRecord>());
      return;
    }
    PhaseResult& p = result.phases.emplace_back();
    p.iteration = parts_.iteration;
    p.phase = phase;
    p.items = phase == Phase::kSteadyMix ? rounds_ : 0;
    p.ranks.resize(size_);
    std::memcpy(p.ranks.data(), all.data(), all.size());
    p.kind_latency.resize(kOpKindCount);
    for (std::size_t op = 0; op < kOpKindCount; ++op) {
      std::copy(counts.begin() + op * kBuckets, counts.begin() + (op + 1) * kBuckets,
                p.kind_latency[op].counts().begin());
      p.latency += p.kind_latency[op];
    }
    p.series = std::move(series);
    p.stall = collectStall(parts_.comm, gaps_, p.ranks);
    const double phase_s = aggregate(p.ranks).time_s;
    for (FaultRecord& f : faults) {
      if (f.injected) f.recovery_s = recoverySeconds(p.series, f.t_start, phase_s);
    }
    p.faults = std::move(faults);
    if (parts_.after_phase) parts_.after_phase(p);
  }

  // Counts one op that ended at `now`: its latency runs from the previous clock read, so one read per op
  // (as the runner's hot loop; the few nanoseconds of naming the object are included).
  void count(OpKind op, int err, std::int64_t now, const Dataset& dataset, std::uint64_t object,
             std::uint64_t bytes) {
    RankPhaseRecord& record = *record_;
    OpCounts& c = record.kinds[opKindIndex(op)];
    if (err == 0) [[likely]] {
      if (now >= series_.nextBoundary()) [[unlikely]]
        series_.tick(now, ok_);
      ++ok_;
      gaps_.done(now);
      ++c.ok;
      record.bytes += bytes;
      latency_[opKindIndex(op)].add(static_cast<std::uint64_t>(now - previous_));
    } else {
      ++c.failed;
      if (!record.first_error.any()) {
        record.first_error = FirstError{err, dataset.owner, dataset.index, object};
        record.first_error_kind = op;
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
    if (taken(d, kSteadyNoObject)) {
      d.open_error = EEXIST;
      return;
    }
    open(d);
  }

  void precreate() {
    Backend& b = parts_.backend;
    for (Dataset& d : own_) {
      const int err = b.makeDir(parts_.dir, d.name.c_str());
      count(OpKind::kMkdir, err, parts_.clock.nowNs(), d, kSteadyNoObject, 0);
      noteTaken(err, d, kSteadyNoObject);
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
        count(OpKind::kCreate, err, parts_.clock.nowNs(), d, precreated_, write_data_.size());
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
      count(OpKind::kStat, err, clock.nowNs(), in, victim, 0);
      if (err != 0) continue;
      err = in.open_error != 0 ? in.open_error : b.readFile(in.handle, objectName(in, victim), read_buf_);
      count(OpKind::kRead, err, clock.nowNs(), in, victim, read_buf_.size());
      err = in.open_error != 0 ? in.open_error : b.unlinkFile(in.handle, objectName(in, victim));
      count(OpKind::kDelete, err, clock.nowNs(), in, victim, 0);
      if (err != 0) continue;
      const Dataset& out = write_[d];
      err = create(out, fresh);
      count(OpKind::kCreate, err, clock.nowNs(), out, fresh, write_data_.size());
    }
  }

  void mix() {
    RankPhaseRecord& record = *record_;
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
        record.ops_at_stonewall = done;
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
        count(OpKind::kDelete, err, parts_.clock.nowNs(), d, i, 0);
      }
      close(d);
      untimed();
      const int err = d.made ? b.removeDir(parts_.dir, d.name.c_str()) : d.open_error;
      count(OpKind::kRmdir, err, parts_.clock.nowNs(), d, kSteadyNoObject, 0);
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
  std::array<LatencyHistogram, kOpKindCount> latency_{};
  SeriesRecorder series_;  // the phase's successful ops of every type per interval
  GapRecorder gaps_;       // and the gaps between them
  std::uint64_t ok_ = 0;   // the phase's successful ops so far, of every type
  RankPhaseRecord* record_ = nullptr;
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

}  // namespace

SteadyResult runSteady(const SteadyConfig& config, SteadyParts parts) {
  SteadyEngine engine(config, parts);
  return engine.run();
}

}  // namespace mdbench
