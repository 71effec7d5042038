// Bounded reads of sockets and commands: source_io.hpp.
#include "source_io.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>

#include "mdbench/serverstats/source.hpp"
#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/process.hpp"

namespace mdbench::serverstats {
namespace {

using Deadline = std::chrono::steady_clock::time_point;

Deadline deadlineIn(double seconds) {
  return std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                std::chrono::duration<double>(seconds));
}

// Milliseconds left before `deadline` (0 once past).
int msLeft(Deadline deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
          .count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1 << 30));
}

// Whether the caller gave the read up (ECANCELED then).
bool givenUp(const Abandon& abandon) { return abandon && abandon(); }

// Waits until fd is ready for `events`: 0, ETIMEDOUT, ECANCELED (abandoned), or the errno. In slices of at
// most kAbandonCheck_ms with `abandon` asked after each (and after a signal, poll's EINTR).
int waitFor(int fd, short events, Deadline deadline, const Abandon& abandon) {
  pollfd p{fd, events, 0};
  while (true) {
    const int left = msLeft(deadline);
    const int n = ::poll(&p, 1, abandon ? std::min(left, kAbandonCheck_ms) : left);
    if (n > 0) return 0;
    if (n < 0 && errno != EINTR) return errno;
    if (givenUp(abandon)) return ECANCELED;
    if (n == 0 && left == 0) return ETIMEDOUT;
  }
}

// Exactly `size` bytes from fd (non-blocking) before the deadline: 0, ETIMEDOUT, EPIPE at end of file, or the
// errno.
int readExactly(int fd, char* data, std::size_t size, Deadline deadline, const Abandon& abandon) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, data + done, size - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n == 0) {
      return EPIPE;
    } else if (errno == EAGAIN) {
      if (const int err = waitFor(fd, POLLIN, deadline, abandon); err != 0) return err;
    } else if (errno != EINTR) {
      return errno;
    }
  }
  return 0;
}

int writeAll(int fd, const char* data, std::size_t size, Deadline deadline, const Abandon& abandon) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::send(fd, data + done, size - done, MSG_NOSIGNAL);
    if (n >= 0) {
      done += static_cast<std::size_t>(n);
    } else if (errno == EAGAIN) {
      if (const int err = waitFor(fd, POLLOUT, deadline, abandon); err != 0) return err;
    } else if (errno != EINTR) {
      return errno;
    }
  }
  return 0;
}

std::string what(int err) { return err == EPIPE ? "the reply ended early" : describeErrno(err); }

}  // namespace

std::string adminSocketCommand(const std::string& socket_path, std::string_view command, double timeout_s,
                               std::string& reply, const Abandon& abandon) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof addr.sun_path)
    return fmt::format("{}: name too long for a socket", socket_path);
  std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
  const Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (fd.get() < 0) return fmt::format("cannot make a socket: {}", describeErrno(errno));
  const Deadline deadline = deadlineIn(timeout_s);
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    if (errno != EAGAIN && errno != EINPROGRESS) {
      return fmt::format("cannot connect to the admin socket {}: {}", socket_path, describeErrno(errno));
    }
    if (const int err = waitFor(fd.get(), POLLOUT, deadline, abandon); err != 0) {
      return fmt::format("cannot connect to the admin socket {}: {}", socket_path, describeErrno(err));
    }
  }
  std::string request(command);
  request.push_back('\0');
  if (const int err = writeAll(fd.get(), request.data(), request.size(), deadline, abandon); err != 0) {
    return fmt::format("admin socket {}: cannot send the request: {}", socket_path, what(err));
  }
  std::array<unsigned char, 4> length{};
  if (const int err = readExactly(fd.get(), reinterpret_cast<char*>(length.data()), 4, deadline, abandon);
      err != 0) {
    return fmt::format("admin socket {}: no reply within {} s: {}", socket_path, timeout_s, what(err));
  }
  const std::uint32_t size = (std::uint32_t{length[0]} << 24) | (std::uint32_t{length[1]} << 16) |
                             (std::uint32_t{length[2]} << 8) | std::uint32_t{length[3]};
  if (size > kMaxSampleBytes) {
    return fmt::format("admin socket {}: a reply of {} bytes (at most {})", socket_path, size,
                       kMaxSampleBytes);
  }
  reply.assign(size, '\0');
  if (const int err = readExactly(fd.get(), reply.data(), size, deadline, abandon); err != 0) {
    return fmt::format("admin socket {}: the reply within {} s: {}", socket_path, timeout_s, what(err));
  }
  return {};
}

namespace {

// Reads the child's output until end of file or the deadline: 0, ETIMEDOUT, EFBIG, or the errno.
int drain(int fd, Deadline deadline, std::string& out, const Abandon& abandon) {
  std::array<char, 65536> buffer{};
  while (true) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n > 0) {
      out.append(buffer.data(), static_cast<std::size_t>(n));
      if (out.size() > kMaxSampleBytes) return EFBIG;
    } else if (n == 0) {
      return 0;
    } else if (errno == EAGAIN) {
      if (const int err = waitFor(fd, POLLIN, deadline, abandon); err != 0) return err;
    } else if (errno != EINTR) {
      return errno;
    }
  }
}

}  // namespace

std::string runCommand(const std::string& command, double timeout_s, std::string& out,
                       const Abandon& abandon) {
  Pipe pipe = makePipe();
  if (pipe.err != 0) return fmt::format("cannot make a pipe: {}", describeErrno(pipe.err));
  Fd& read_end = pipe.read_end;
  // A group of its own: killed whole after the timeout.
  SpawnSpec shell = shellCommand(command);
  shell.stdin_fd = -1;
  shell.stdout_fd = pipe.write_end.get();
  shell.own_group = true;
  int err = 0;
  const pid_t pid = spawnProcess(shell, err);
  if (pid < 0) return fmt::format("cannot run /bin/sh: {}", describeErrno(err));
  pipe.write_end.reset();
  (void)::fcntl(read_end.get(), F_SETFL, O_NONBLOCK);
  const Deadline deadline = deadlineIn(timeout_s);
  int read_err = drain(read_end.get(), deadline, out, abandon);
  int status = 0;
  // A shell that closed its output may still run: waited for until the deadline too.
  while (read_err == 0 && ::waitpid(pid, &status, WNOHANG) == 0) {
    if (msLeft(deadline) == 0) read_err = ETIMEDOUT;
    if (givenUp(abandon)) read_err = ECANCELED;
    ::usleep(5000);
  }
  if (read_err != 0) {
    ::kill(-pid, SIGKILL);
    status = waitForChild(pid);
  }
  if (read_err == ETIMEDOUT)
    return fmt::format("'{}' did not finish within {} s (killed)", command, timeout_s);
  if (read_err == ECANCELED) return fmt::format("'{}' abandoned: the run was stopped (killed)", command);
  if (read_err == EFBIG)
    return fmt::format("'{}' printed more than {} bytes (killed)", command, kMaxSampleBytes);
  if (read_err != 0) return fmt::format("'{}': reading its output: {}", command, describeErrno(read_err));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return fmt::format("'{}': {}", command, waitStatusText(status));
  return {};
}

}  // namespace mdbench::serverstats
