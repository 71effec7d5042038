// Monotonic clocks, injected so tests can make time exact. Times are nanoseconds since an arbitrary epoch.
#pragma once

#include <chrono>
#include <cstdint>
#include <ctime>
#include <memory>
#include <string>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace mdbench {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::int64_t nowNs() = 0;
};

// CLOCK_MONOTONIC through std::chrono::steady_clock (vDSO: no system call). Final and inline, so that a
// loop holding a SteadyClock& reads the clock without a call (runner.cpp's hot loop does).
class SteadyClock final : public Clock {
 public:
  std::int64_t nowNs() override {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

// The CPU's time-stamp counter, in nanoseconds through a rate calibrated against CLOCK_MONOTONIC at start.
// Reading it costs about half of a CLOCK_MONOTONIC read (20 against 34 ns on the development VM, where
// that is 1.2% of a tmpfs stat), which matters in the hot loop's one read per op. Used only where the
// kernel keeps its own time with the TSC (clocksource "tsc": invariant and synchronised across CPUs, so a
// rank that moves between CPUs reads the same clock); elsewhere SteadyClock. Over a phase of an hour the
// calibration's error (a few parts per million) moves a time by a few milliseconds.
class TscClock final : public Clock {
 public:
  // Calibrates over about `calibration` when this machine qualifies (x86-64, the kernel's clocksource is
  // the TSC and the CPU flags say it is constant and never stops); nullptr otherwise.
  static std::unique_ptr<TscClock> create(
      std::chrono::nanoseconds calibration = std::chrono::milliseconds(10));
  // Whether this machine qualifies, and why not when it does not (for the console).
  static bool usable(std::string* why_not = nullptr);

  std::int64_t nowNs() override {
#if defined(__x86_64__)
    return base_ns_ + static_cast<std::int64_t>(static_cast<double>(__rdtsc() - base_ticks_) * ns_per_tick_);
#else
    return base_ns_;  // never made on other machines (create returns nullptr)
#endif
  }
  double ticksPerSecond() const { return 1e9 / ns_per_tick_; }

 private:
  TscClock(std::uint64_t base_ticks, std::int64_t base_ns, double ns_per_tick)
      : base_ticks_(base_ticks), base_ns_(base_ns), ns_per_tick_(ns_per_tick) {}
  std::uint64_t base_ticks_;
  std::int64_t base_ns_;
  double ns_per_tick_;
};

// The clock a run measures with: a TscClock where the machine qualifies, else a SteadyClock.
// MDBENCH_CLOCK=steady forces the SteadyClock, to compare the two.
std::unique_ptr<Clock> makeRunClock();

// Time that moves only when told: the fake backend advances it by its injected latencies.
class ManualClock final : public Clock {
 public:
  std::int64_t nowNs() override { return now_ns_; }
  void advance(std::int64_t ns) { now_ns_ += ns; }

 private:
  std::int64_t now_ns_ = 0;
};

// Wall-clock time for the record only (never for measuring): "2026-11-30T13:23:06Z", ISO 8601 in UTC to
// the second. The one format of every timestamp mdbench writes (runs' start and end, imports).
std::string utcTimestamp(std::time_t time);
std::string utcTimestampNow();

}  // namespace mdbench
