// Descriptors and child processes, written once: an owned descriptor, starting a program, waiting for it,
// and its wait status in words.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace mdbench {

// Owns a file descriptor: closed when it goes (or at reset()). -1: none.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  int get() const { return fd_; }
  void reset(int fd = -1);

 private:
  int fd_;
};

// A pipe whose both ends close on exec: {read end, write end}; err is the errno when it could not be made.
// nonblocking_read: reads from the read end return EAGAIN instead of waiting (for a poll loop).
struct Pipe {
  Fd read_end;
  Fd write_end;
  int err = 0;
};
Pipe makePipe(bool nonblocking_read = false);

// How to start a child process. It gets descriptors 0, 1 and 2 alone: none of mdbench's others.
struct SpawnSpec {
  std::string program;            // without a slash it is looked for in PATH; "": argv[0]
  std::vector<std::string> argv;  // argv[0] is the name the program is given
  int stdin_fd = -2;              // dup2'd to 0; -1: /dev/null; -2: inherited
  int stdout_fd = -2;             // dup2'd to 1; -2: inherited
  int stderr_fd = -2;             // dup2'd to 2; -2: inherited
  bool own_group = false;  // the leader of a process group of its own (kill(-pid) reaches all it starts)
  const std::vector<char*>* env = nullptr;  // null-terminated; nullptr: this process's environment
};
// Starts it: the child's pid, or -1 with `err` the errno (ENOENT: no such program).
pid_t spawnProcess(const SpawnSpec& spec, int& err);

// /bin/sh -c COMMAND, the rest of the spec as its defaults.
SpawnSpec shellCommand(const std::string& command);

// Waits for the child `pid` to end, through signals (EINTR): its wait status, or -1 with errno set.
int waitForChild(pid_t pid);

// A wait status in words: "" for exit status 0, "exit status 3", "exit status 127 (command not found?)",
// "killed by SIGTERM", "wait status N".
std::string waitStatusText(int status);

}  // namespace mdbench
