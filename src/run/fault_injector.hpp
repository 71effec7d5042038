// --fault-at/--fault-cmd on rank 0 (issue 34): a thread that starts each fault command at its time into the
// phase, outside the timing and without the ranks waiting for it, and records what became of it. Private to
// the runner.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "mdbench/config/config.hpp"
#include "mdbench/model/fault.hpp"

namespace mdbench {

class FaultInjector {
 public:
  // How long the end of a phase waits for fault commands still running, before SIGTERM to their process
  // groups (then SIGKILL kHookGrace_s later).
  static constexpr double kWaitAfterPhase_s = 30.0;

  // `phases`: the names of the phases the faults go into (--fault-phase); empty: every phase.
  FaultInjector(std::vector<FaultSpec> faults, std::vector<std::string> phases)
      : faults_(std::move(faults)), phases_(std::move(phases)) {}
  ~FaultInjector();
  FaultInjector(const FaultInjector&) = delete;
  FaultInjector& operator=(const FaultInjector&) = delete;

  // At the phase's t_start: the thread starts. Each command gets MDBENCH_PHASE and MDBENCH_ITERATION. A
  // phase --fault-phase does not name gets no fault and no record.
  void begin(std::string_view phase, std::uint32_t iteration);
  // After the phase's operations: the faults whose time had not come are not injected; the commands still
  // running get up to kWaitAfterPhase_s. One record per pair, in the order given.
  std::vector<FaultRecord> end();

 private:
  using Time = std::chrono::steady_clock::time_point;
  struct Running;
  void start(std::size_t i, const std::vector<std::string>& env, std::vector<Running>& running);
  void run(std::string phase, std::uint32_t iteration);
  std::vector<FaultSpec> faults_;
  std::vector<std::string> phases_;
  std::vector<FaultRecord> records_;
  Time start_{};
  std::atomic<bool> ended_{false};
  std::thread thread_;
};

}  // namespace mdbench
