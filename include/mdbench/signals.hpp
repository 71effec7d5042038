// SIGINT and SIGTERM during a run (Slurm sends SIGTERM at the time limit, then SIGKILL after KillWait):
// the first asks the run to stop, a second ends the process at once with 128 + the signal number.
#pragma once

#include <csignal>

namespace mdbench {

namespace signals_detail {
// The one piece of global mutable state: a signal handler can only reach the program through it.
extern volatile std::sig_atomic_t stop_signal;
}  // namespace signals_detail

// 0, or the first SIGINT/SIGTERM received while a StopSignals was installed. One load: the phase loops read
// it after every operation.
inline int stopSignal() { return signals_detail::stop_signal; }

// Installs the handlers for its lifetime (restoring the previous ones after), and clears any earlier stop.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

// For tests: behave as if `signal` had arrived (0 clears it).
void requestStopForTesting(int signal);

}  // namespace mdbench
