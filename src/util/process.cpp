// Descriptors and child processes: process.hpp.
#include "mdbench/util/process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace mdbench {

void Fd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

Pipe makePipe(bool nonblocking_read) {
  Pipe p;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    p.err = errno;
    return p;
  }
  if (nonblocking_read && ::fcntl(fds[0], F_SETFL, O_NONBLOCK) != 0) {
    p.err = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return p;
  }
  p.read_end.reset(fds[0]);
  p.write_end.reset(fds[1]);
  return p;
}

pid_t spawnProcess(const SpawnSpec& spec, int& err) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  if (spec.stdin_fd == -1) posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (spec.stdin_fd >= 0) posix_spawn_file_actions_adddup2(&actions, spec.stdin_fd, STDIN_FILENO);
  if (spec.stdout_fd >= 0) posix_spawn_file_actions_adddup2(&actions, spec.stdout_fd, STDOUT_FILENO);
  if (spec.stderr_fd >= 0) posix_spawn_file_actions_adddup2(&actions, spec.stderr_fd, STDERR_FILENO);
  // Nothing else of ours: a daemon the command starts (a failover that restarts a server) must not keep the
  // results file, the MPI sockets or the backend's descriptors open after mdbench has gone.
  posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
  if (spec.own_group) {
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
  }
  std::vector<std::string> args = spec.argv;
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  char* const* env = spec.env != nullptr ? spec.env->data() : environ;
  pid_t pid = -1;
  const char* program = !spec.program.empty() ? spec.program.c_str() : args.empty() ? nullptr : argv[0];
  err = program == nullptr ? EINVAL : ::posix_spawnp(&pid, program, &actions, &attr, argv.data(), env);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  return err == 0 ? pid : -1;
}

SpawnSpec shellCommand(const std::string& command) {
  SpawnSpec spec;
  spec.program = "/bin/sh";
  spec.argv = {"sh", "-c", command};
  return spec;
}

int waitForChild(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return status;
}

std::string waitStatusText(int status) {
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    if (code == 0) return {};
    return code == 127 ? "exit status 127 (command not found?)" : fmt::format("exit status {}", code);
  }
  if (WIFSIGNALED(status)) {
    const char* abbreviation = sigabbrev_np(WTERMSIG(status));
    return abbreviation != nullptr ? fmt::format("killed by SIG{}", abbreviation)
                                   : fmt::format("killed by signal {}", WTERMSIG(status));
  }
  return fmt::format("wait status {}", status);
}

}  // namespace mdbench
