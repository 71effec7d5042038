// SVG to PNG (chart.hpp's svgToPng): rsvg-convert, run without a shell, its messages kept for the error. It
// writes to its standard output, a new file of ours (file_io.hpp) that is renamed into place once it
// succeeded: rsvg-convert never opens the PNG's name, so it cannot write through a link or into a FIFO, and
// a failed conversion leaves no half PNG.
#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "mdbench/report/chart.hpp"
#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/file_io.hpp"
#include "mdbench/util/process.hpp"

namespace mdbench {

void svgToPng(const std::string& svg_path, const std::string& png_path, Replace replace) {
  if (::access(svg_path.c_str(), R_OK) != 0) {
    throw std::runtime_error(fmt::format("cannot read SVG file {}: {}", svg_path, std::strerror(errno)));
  }
  NewFile png(png_path, "PNG file");
  if (!png.error().empty()) throw std::runtime_error(png.error());
  Pipe err_pipe = makePipe();
  if (err_pipe.err != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(err_pipe.err)));
  SpawnSpec convert;
  convert.argv = {"rsvg-convert", "--format=png", svg_path};
  convert.stdout_fd = png.fd();
  convert.stderr_fd = err_pipe.write_end.get();
  int spawned = 0;
  const pid_t pid = spawnProcess(convert, spawned);
  err_pipe.write_end.reset();
  if (pid < 0) {
    if (spawned == ENOENT)
      throw std::runtime_error("PNG output needs rsvg-convert (apt-get install librsvg2-bin)");
    throw std::runtime_error(fmt::format("cannot run rsvg-convert: {}", std::strerror(spawned)));
  }
  // Read stderr to the end before waiting, so a chatty child cannot block on a full pipe.
  std::string messages;
  std::array<char, 4096> buffer{};
  for (;;) {
    const ssize_t n = ::read(err_pipe.read_end.get(), buffer.data(), buffer.size());
    if (n > 0) messages.append(buffer.data(), static_cast<std::size_t>(n));
    if (n == 0 || (n < 0 && errno != EINTR)) break;
  }
  err_pipe.read_end.reset();
  const int status = waitForChild(pid);
  if (const std::string how = status < 0 ? describeErrno(errno) : waitStatusText(status); !how.empty()) {
    while (!messages.empty() && (messages.back() == '\n' || messages.back() == ' ')) messages.pop_back();
    throw std::runtime_error(fmt::format("rsvg-convert failed converting {} to {} ({}){}{}", svg_path,
                                         png_path, how, messages.empty() ? "" : ": ", messages));
  }
  if (const std::string problem = png.commit(replace); !problem.empty()) throw std::runtime_error(problem);
}

}  // namespace mdbench
