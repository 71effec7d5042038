#include "mdbench/run/comm.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <set>
#include <string_view>

#include "mdbench/util/errno_name.hpp"

namespace mdbench {

void SelfComm::gatherBytes(std::span<const std::byte> send, std::vector<std::byte>& recv) {
  recv.assign(send.begin(), send.end());
}

std::unique_ptr<Comm> SelfComm::split(std::optional<std::uint32_t> color, std::uint32_t) {
  if (!color) return nullptr;
  return std::make_unique<SelfComm>();
}

std::string SelfComm::hostName() const {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return "localhost";
  return name.data();
}

NodeMap gatherNodeMap(Comm& comm) {
  // Fixed-width records keep this one gather; names longer than that are cut (still distinct enough).
  constexpr std::size_t kWidth = 256;
  std::array<char, kWidth> mine{};
  const std::string host = comm.hostName();
  std::memcpy(mine.data(), host.data(), std::min(host.size(), kWidth - 1));
  std::vector<std::byte> all;
  comm.gatherBytes(std::as_bytes(std::span(mine)), all);

  NodeMap map;
  if (comm.rank() != 0) return map;
  std::set<std::string> distinct;
  for (std::uint32_t r = 0; r < comm.size(); ++r) {
    const char* record = reinterpret_cast<const char*>(all.data()) + r * kWidth;
    map.host_of_rank.emplace_back(record, strnlen(record, kWidth));
    distinct.insert(map.host_of_rank.back());
  }
  map.nodes = static_cast<std::uint32_t>(distinct.size());
  return map;
}

std::string gatherToAll(Comm& comm, const std::string& text) {
  const std::uint64_t width = comm.allreduceMax(text.size()) + sizeof(std::uint64_t);
  std::vector<std::byte> block(width);
  const std::uint64_t size = text.size();
  std::memcpy(block.data(), &size, sizeof size);
  std::memcpy(block.data() + sizeof size, text.data(), text.size());
  std::vector<std::byte> all;
  comm.gatherBytes(block, all);
  std::string joined;
  for (std::size_t at = 0; at + width <= all.size(); at += width) {
    std::uint64_t n = 0;
    std::memcpy(&n, all.data() + at, sizeof n);
    joined.append(reinterpret_cast<const char*>(all.data() + at + sizeof n), n);
  }
  comm.broadcast(joined);
  return joined;
}

std::string agreeOnProblem(Comm& comm, const std::string& problem) {
  // Every rank passes its own text, so the message names the failing rank's own path, not rank 0's. One
  // reduction when all went well; a failure costs a gather of fixed-width records (the longest text).
  const std::uint64_t width = comm.allreduceMax(problem.empty() ? 0 : problem.size() + 1);
  if (width == 0) return {};
  std::vector<char> mine(width, '\0');
  std::memcpy(mine.data(), problem.data(), problem.size());
  std::vector<std::byte> all;
  comm.gatherBytes(std::as_bytes(std::span(mine)), all);
  std::string message;
  if (comm.rank() == 0) {
    std::uint32_t failing = 0;
    std::uint32_t first = 0;
    for (std::uint32_t r = 0; r < comm.size(); ++r) {
      const char* record = reinterpret_cast<const char*>(all.data()) + r * width;
      if (record[0] == '\0') continue;
      if (failing++ == 0) first = r;
    }
    const char* record = reinterpret_cast<const char*>(all.data()) + first * width;
    message = fmt::format("{} (rank {}{})", std::string_view(record, strnlen(record, width)), first,
                          failing > 1 ? fmt::format(" and {} more", failing - 1) : "");
  }
  comm.broadcast(message);
  return message;
}

std::string agreeOnSetup(Comm& comm, int err, const std::string& what) {
  return agreeOnProblem(comm, err == 0 ? std::string() : fmt::format("{}: {}", what, describeErrno(err)));
}

}  // namespace mdbench
