// The stop handlers (signals.hpp). The handler only stores the signal number, or on the second signal
// writes one line and _exits: both are async-signal-safe.
#include "mdbench/signals.hpp"

#include <unistd.h>

namespace mdbench {
namespace signals_detail {
volatile std::sig_atomic_t stop_signal = 0;
}  // namespace signals_detail

namespace {

void onStop(int signal) {
  if (signals_detail::stop_signal != 0) {
    static constexpr char kMessage[] = "mdbench: second signal: exiting now, without cleaning up\n";
    (void)!::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    ::_exit(128 + signal);
  }
  signals_detail::stop_signal = signal;
}

}  // namespace

StopSignals::StopSignals() {
  signals_detail::stop_signal = 0;
  struct sigaction action {};
  action.sa_handler = onStop;
  sigemptyset(&action.sa_mask);
  // Restarted system calls: an interrupted metadata call finishes, and the loop sees the flag right after.
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, &previous_int_);
  sigaction(SIGTERM, &action, &previous_term_);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

void requestStopForTesting(int signal) { signals_detail::stop_signal = signal; }

}  // namespace mdbench
