// Stop requests during a run: SIGINT, SIGTERM (Slurm at the time limit), SIGQUIT, SIGHUP (the session went
// away) and SIGPIPE (the console's reader went away) ask the run to stop; a second SIGINT, SIGTERM or
// SIGQUIT ends the process at once with 128 + its number. And the console itself: a write to a closed or
// broken standard output or error never fails the run.
#pragma once

#include <csignal>
#include <cstdio>
#include <iterator>

#include "mdbench/run/comm.hpp"

namespace mdbench {

namespace signals_detail {
// The one piece of global mutable state: a signal handler can only reach the program through it.
extern volatile std::sig_atomic_t stop_signal;
// The process group of the child being waited for (a phase hook), or 0.
extern volatile std::sig_atomic_t child_group;
}  // namespace signals_detail

// 0, or the first stop request received while a StopSignals was installed. One load: the phase loops read
// it after every operation.
inline int stopSignal() { return signals_detail::stop_signal; }

// Collective: the largest stop request any rank has received, or 0. Every step that may take a while (each
// setup step, each phase) is followed by it, so that a stop ends the run on every rank at the same step and
// no rank is left waiting in a collective.
int agreeOnStop(Comm& comm);

// Installs the handlers for its lifetime (restoring the previous ones after), and clears any earlier stop.
// SIGHUP stays ignored when it was ignored on entry (nohup: the run is meant to outlive the session).
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE};
  struct sigaction previous_[std::size(kSignals)]{};
};

// While a child of mdbench runs in a process group of its own (a phase hook, leading group `group`; 0 when
// it is gone): a second signal, which ends mdbench at once, sends that group SIGKILL first, so that nothing
// mdbench started outlives it.
inline void setChildGroup(int group) { signals_detail::child_group = group; }

// For tests: behave as if `signal` had arrived (0 clears it).
void requestStopForTesting(int signal);

// Call once, first thing in main(): makes sure descriptors 0, 1 and 2 are open (on /dev/null if not, so that
// no file the run opens later becomes its console), and puts stdout and stderr (and std::cout, std::cerr)
// on streams whose writes never fail: when the descriptor's write fails (EPIPE: `mdbench | head -1`; EIO: a
// terminal that hung up; ENOSPC: a full log) the descriptor is moved onto /dev/null for the rest of the
// process, and EPIPE is a stop request (SIGPIPE) as if the signal had arrived. Without this a failed write
// made fmt::print throw, which ended the job without its cleanup.
void protectConsole();

// The descriptor behind a stream, as fileno(), which says -1 for the streams protectConsole() made (for
// isatty and the terminal's width).
int streamFd(std::FILE* stream);

}  // namespace mdbench
