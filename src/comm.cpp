#include "mdbench/comm.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <set>

#include "mdbench/errno_name.hpp"

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

std::string agreeOnSetup(Comm& comm, int err, const std::string& what) {
  const std::int32_t mine = err;
  std::vector<std::byte> all;
  comm.gatherBytes(std::as_bytes(std::span(&mine, 1)), all);
  std::string message;
  if (comm.rank() == 0) {
    std::uint32_t failing = 0;
    std::uint32_t first = 0;
    std::int32_t first_err = 0;
    for (std::uint32_t r = 0; r < comm.size(); ++r) {
      std::int32_t e = 0;
      std::memcpy(&e, all.data() + r * sizeof e, sizeof e);
      if (e == 0) continue;
      if (failing++ == 0) {
        first = r;
        first_err = e;
      }
    }
    if (failing > 0) {
      message = fmt::format("{}: {} (rank {}{})", what, describeErrno(first_err), first,
                            failing > 1 ? fmt::format(" and {} more", failing - 1) : "");
    }
  }
  comm.broadcast(message);
  return message;
}

}  // namespace mdbench
