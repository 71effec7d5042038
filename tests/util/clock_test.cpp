#include "mdbench/util/clock.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

namespace mdbench {
namespace {

// Whether the kernel keeps time with the TSC here; then TscClock must be made.
bool kernelUsesTsc() {
  std::ifstream source("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  return static_cast<bool>(source >> name) && name == "tsc";
}

TEST(TscClock, MadeExactlyWhenTheMachineQualifies) {
  std::string why_not;
  const bool usable = TscClock::usable(&why_not);
  EXPECT_EQ(TscClock::create() != nullptr, usable) << why_not;
  if (!usable) {
    EXPECT_FALSE(why_not.empty());
    EXPECT_FALSE(kernelUsesTsc() && why_not.find("kernel") != std::string::npos);
  }
#if defined(__x86_64__)
  // Every x86-64 machine this project runs on (the development VM, CI) keeps time with an invariant TSC.
  if (kernelUsesTsc()) {
    EXPECT_TRUE(usable) << why_not;
  }
#endif
}

TEST(TscClock, AgreesWithTheMonotonicClock) {
  const std::unique_ptr<TscClock> tsc = TscClock::create();
  if (!tsc) {  // nothing to compare on such a machine; the test above checked that it does not qualify
    EXPECT_FALSE(TscClock::usable());
    return;
  }
  EXPECT_GT(tsc->ticksPerSecond(), 1e8);
  EXPECT_LT(tsc->ticksPerSecond(), 1e10);
  SteadyClock steady;
  // Intervals of 20, 50 and 100 ms measured by both: within 0.1% (plus the two reads' own time, 20 us).
  for (const int ms : {20, 50, 100}) {
    const std::int64_t s0 = steady.nowNs();
    const std::int64_t t0 = tsc->nowNs();
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    const std::int64_t t1 = tsc->nowNs();
    const std::int64_t s1 = steady.nowNs();
    const double steady_span = static_cast<double>(s1 - s0);
    EXPECT_NEAR(static_cast<double>(t1 - t0), steady_span, steady_span * 1e-3 + 20e3) << ms << " ms";
  }
  // On the monotonic clock's time line at creation, and never going back.
  EXPECT_NEAR(static_cast<double>(tsc->nowNs()), static_cast<double>(steady.nowNs()), 1e6);
  std::int64_t last = tsc->nowNs();
  for (int i = 0; i < 100000; ++i) {
    const std::int64_t now = tsc->nowNs();
    ASSERT_GE(now, last);
    last = now;
  }
}

// The one timestamp format (runs' start_utc and end_utc, imports' imported_utc): ISO 8601 in UTC, seconds.
TEST(UtcTimestamp, IsIso8601InUtcToTheSecond) {
  EXPECT_EQ(utcTimestamp(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(utcTimestamp(1796044986), "2026-11-30T13:23:06Z");
  EXPECT_EQ(utcTimestamp(951782400), "2000-02-29T00:00:00Z");
  const std::time_t before = std::time(nullptr);
  const std::string now = utcTimestampNow();
  const std::time_t after = std::time(nullptr);
  EXPECT_TRUE(now == utcTimestamp(before) || now == utcTimestamp(after)) << now;
}

}  // namespace
}  // namespace mdbench
