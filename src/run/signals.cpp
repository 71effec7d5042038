// The stop handlers and the console streams (signals.hpp). The handler only stores the signal number, or on
// a second signal writes one line and _exits: both are async-signal-safe.
#include "mdbench/run/signals.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <ext/stdio_sync_filebuf.h>
#include <iostream>

namespace mdbench {
namespace signals_detail {
volatile std::sig_atomic_t stop_signal = 0;
volatile std::sig_atomic_t child_group = 0;
}  // namespace signals_detail

namespace {

// SIGHUP and SIGPIPE come from a console that went away, often right after a SIGINT that also reached the
// reader (Ctrl-C on `mdbench | tee log`): they ask for a stop but never end the process, which would skip
// the cleanup. The others are a user's or a scheduler's: the second one means "now".
bool escalates(int signal) { return signal != SIGHUP && signal != SIGPIPE; }

void onStop(int signal) {
  if (signals_detail::stop_signal != 0) {
    if (!escalates(signal)) return;
    static constexpr char kMessage[] = "mdbench: second signal: exiting now, without cleaning up\n";
    (void)!::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    if (const int group = signals_detail::child_group; group > 0) (void)::kill(-group, SIGKILL);
    ::_exit(128 + signal);
  }
  signals_detail::stop_signal = signal;
}

// One console descriptor behind a stdio stream (fopencookie). After its first failed write the descriptor is
// /dev/null: whatever else writes to it (MPI, HDF5, a std::cout from before protectConsole) is harmless too.
struct ConsoleFd {
  int fd;
  int dev_null;
};

// The streams protectConsole() made (null before): streamFd knows their descriptors.
FILE* console_out = nullptr;
FILE* console_err = nullptr;

ssize_t writeConsole(void* cookie, const char* data, std::size_t size) {
  auto& console = *static_cast<ConsoleFd*>(cookie);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(console.fd, data + done, size - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      // The reader is gone (SIGPIPE came first when it is caught; not when it is ignored or blocked).
      if (n < 0 && errno == EPIPE && signals_detail::stop_signal == 0) signals_detail::stop_signal = SIGPIPE;
      if (console.dev_null >= 0) (void)::dup2(console.dev_null, console.fd);
      break;
    }
  }
  return static_cast<ssize_t>(size);  // all of it, always: a short count makes fmt::print throw
}

FILE* openConsole(ConsoleFd& console, int buffering) {
  const cookie_io_functions_t io{nullptr, writeConsole, nullptr, nullptr};
  FILE* stream = fopencookie(&console, "w", io);
  if (stream != nullptr) std::setvbuf(stream, nullptr, buffering, BUFSIZ);
  return stream;
}

}  // namespace

StopSignals::StopSignals() {
  signals_detail::stop_signal = 0;
  struct sigaction action {};
  action.sa_handler = onStop;
  sigemptyset(&action.sa_mask);
  // Restarted system calls: an interrupted metadata call finishes, and the loop sees the flag right after.
  action.sa_flags = SA_RESTART;
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    sigaction(kSignals[i], nullptr, &previous_[i]);
    if (kSignals[i] == SIGHUP && previous_[i].sa_handler == SIG_IGN) continue;  // nohup
    sigaction(kSignals[i], &action, nullptr);
  }
}

StopSignals::~StopSignals() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &previous_[i], nullptr);
}

void requestStopForTesting(int signal) { signals_detail::stop_signal = signal; }

int agreeOnStop(Comm& comm) {
  return static_cast<int>(comm.allreduceMax(static_cast<std::uint64_t>(stopSignal())));
}

void protectConsole() {
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
    if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      const int null = ::open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
      if (null >= 0 && null != fd) {
        (void)::dup2(null, fd);
        ::close(null);
      }
    }
  }
  // For the life of the process: the streams stay in use until exit.
  static const int dev_null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  static ConsoleFd out{STDOUT_FILENO, dev_null};
  static ConsoleFd err{STDERR_FILENO, dev_null};
  std::fflush(stdout);
  std::fflush(stderr);
  // stdio's own choices: stdout line-buffered on a terminal and fully buffered otherwise, stderr unbuffered.
  FILE* new_out = openConsole(out, ::isatty(STDOUT_FILENO) == 1 ? _IOLBF : _IOFBF);
  FILE* new_err = openConsole(err, _IONBF);
  if (new_out == nullptr || new_err == nullptr) return;  // out of memory at start: the plain streams stay
  // glibc's stdout and stderr are ordinary variables, documented as assignable.
  stdout = console_out = new_out;
  stderr = console_err = new_err;
  static __gnu_cxx::stdio_sync_filebuf<char> cout_buffer(stdout);
  static __gnu_cxx::stdio_sync_filebuf<char> cerr_buffer(stderr);
  std::cout.rdbuf(&cout_buffer);
  std::cerr.rdbuf(&cerr_buffer);
}

int streamFd(std::FILE* stream) {
  if (stream != nullptr && stream == console_out) return STDOUT_FILENO;
  if (stream != nullptr && stream == console_err) return STDERR_FILENO;
  return stream == nullptr ? -1 : ::fileno(stream);
}

}  // namespace mdbench
