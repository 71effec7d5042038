// Monotonic clocks, injected so tests can make time exact. Times are nanoseconds since an arbitrary epoch.
#pragma once

#include <cstdint>
#include <string>

namespace mdbench {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::int64_t nowNs() = 0;
};

// CLOCK_MONOTONIC through std::chrono::steady_clock (vDSO: no system call).
class SteadyClock final : public Clock {
 public:
  std::int64_t nowNs() override;
};

// Time that moves only when told: the fake backend advances it by its injected latencies.
class ManualClock final : public Clock {
 public:
  std::int64_t nowNs() override { return now_ns_; }
  void advance(std::int64_t ns) { now_ns_ += ns; }

 private:
  std::int64_t now_ns_ = 0;
};

// Wall-clock time for the record only (never for measuring): "2026-11-30T13:23:06Z".
std::string utcTimestampNow();

}  // namespace mdbench
