// SVG to PNG (chart.hpp's svgToPng): rsvg-convert, run without a shell, its messages kept for the error. It
// writes to its standard output, a new file of ours (file_io.hpp) that is renamed into place once it
// succeeded: rsvg-convert never opens the PNG's name, so it cannot write through a link or into a FIFO, and
// a failed conversion leaves no half PNG.
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "mdbench/report/chart.hpp"

extern char** environ;

namespace mdbench {

void svgToPng(const std::string& svg_path, const std::string& png_path, Replace replace) {
  if (::access(svg_path.c_str(), R_OK) != 0) {
    throw std::runtime_error(fmt::format("cannot read SVG file {}: {}", svg_path, std::strerror(errno)));
  }
  NewFile png(png_path, "PNG file");
  if (!png.error().empty()) throw std::runtime_error(png.error());
  int err_pipe[2];
  if (::pipe2(err_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_adddup2(&actions, png.fd(), STDOUT_FILENO);
  std::vector<std::string> args = {"rsvg-convert", "--format=png", svg_path};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, "rsvg-convert", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(err_pipe[1]);
  if (spawned != 0) {
    ::close(err_pipe[0]);
    if (spawned == ENOENT)
      throw std::runtime_error("PNG output needs rsvg-convert (apt-get install librsvg2-bin)");
    throw std::runtime_error(fmt::format("cannot run rsvg-convert: {}", std::strerror(spawned)));
  }
  // Read stderr to the end before waiting, so a chatty child cannot block on a full pipe.
  std::string messages;
  std::array<char, 4096> buffer{};
  for (;;) {
    const ssize_t n = ::read(err_pipe[0], buffer.data(), buffer.size());
    if (n > 0) messages.append(buffer.data(), static_cast<std::size_t>(n));
    if (n == 0 || (n < 0 && errno != EINTR)) break;
  }
  ::close(err_pipe[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    while (!messages.empty() && (messages.back() == '\n' || messages.back() == ' ')) messages.pop_back();
    const std::string how = WIFEXITED(status) ? fmt::format("exit status {}", WEXITSTATUS(status))
                                              : fmt::format("signal {}", WTERMSIG(status));
    throw std::runtime_error(fmt::format("rsvg-convert failed converting {} to {} ({}){}{}", svg_path,
                                         png_path, how, messages.empty() ? "" : ": ", messages));
  }
  if (const std::string problem = png.commit(replace); !problem.empty()) throw std::runtime_error(problem);
}

}  // namespace mdbench
