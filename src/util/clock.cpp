#include "mdbench/util/clock.hpp"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace mdbench {

bool TscClock::usable(std::string* why_not) {
  const auto no = [why_not](const char* reason) {
    if (why_not != nullptr) *why_not = reason;
    return false;
  };
#if !defined(__x86_64__)
  return no("not an x86-64 CPU");
#else
  std::ifstream source("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  if (!(source >> name) || name != "tsc") return no("the kernel does not keep time with the TSC");
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line);
    bool constant = false, nonstop = false;
    for (std::string word; words >> word;) {
      constant = constant || word == "constant_tsc";
      nonstop = nonstop || word == "nonstop_tsc";
    }
    return constant && nonstop ? true : no("the CPU's TSC is not constant and non-stop");
  }
  return no("no CPU flags in /proc/cpuinfo");
#endif
}

std::unique_ptr<TscClock> TscClock::create(std::chrono::nanoseconds calibration) {
#if defined(__x86_64__)
  if (!usable()) return nullptr;
  SteadyClock steady;
  const std::int64_t ns0 = steady.nowNs();
  const std::uint64_t ticks0 = __rdtsc();
  std::int64_t ns1 = ns0;
  while (ns1 - ns0 < calibration.count()) ns1 = steady.nowNs();
  const std::uint64_t ticks1 = __rdtsc();
  if (ticks1 <= ticks0) return nullptr;
  const double ns_per_tick = static_cast<double>(ns1 - ns0) / static_cast<double>(ticks1 - ticks0);
  return std::unique_ptr<TscClock>(new TscClock(ticks1, ns1, ns_per_tick));
#else
  (void)calibration;
  return nullptr;
#endif
}

std::unique_ptr<Clock> makeRunClock() {
  const char* choice = std::getenv("MDBENCH_CLOCK");
  if (choice == nullptr || std::string_view(choice) != "steady") {
    if (std::unique_ptr<TscClock> tsc = TscClock::create()) return tsc;
  }
  return std::make_unique<SteadyClock>();
}

std::string utcTimestamp(std::time_t time) {
  std::tm utc{};
  gmtime_r(&time, &utc);
  char text[32];
  const std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string(text, n);
}

std::string utcTimestampNow() { return utcTimestamp(std::time(nullptr)); }

}  // namespace mdbench
