// What the target file system is: type name, capacity, free space and inodes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace mdbench {

struct FsInfo {
  std::string type;  // "tmpfs", "ext4", "lustre", ... or "0x<magic>" when unknown
  std::uint64_t total_bytes = 0;
  std::uint64_t free_bytes = 0;  // available to unprivileged users
  std::uint64_t total_inodes = 0;
  std::uint64_t free_inodes = 0;
};

std::optional<FsInfo> probeFileSystem(const std::string& path);
std::string fsTypeName(std::uint64_t magic);

}  // namespace mdbench
