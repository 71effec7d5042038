// What the target file system is, for the run's metadata: statfs for the type, statvfs for the sizes.
#include "mdbench/backend/fsinfo.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <string_view>

namespace mdbench {
namespace {

struct FsMagic {
  std::uint64_t magic;
  std::string_view name;
};

// Super block magics from linux/magic.h and the vendors' clients (Lustre, GPFS, BeeGFS are out of tree).
// clang-format off
constexpr std::array kFsMagics{
    FsMagic{0x01021994, "tmpfs"},
    FsMagic{0x0000EF53, "ext4"},  // ext2 and ext3 share the magic
    FsMagic{0x58465342, "xfs"},
    FsMagic{0x9123683E, "btrfs"},
    FsMagic{0x00006969, "nfs"},
    FsMagic{0x0BD00BD0, "lustre"},
    FsMagic{0x47504653, "gpfs"},
    FsMagic{0x19830326, "beegfs"},
    FsMagic{0x00C36400, "ceph"},
    FsMagic{0x794C7630, "overlay"},
    FsMagic{0x2FC12FC1, "zfs"},
    FsMagic{0x65735546, "fuse"},
    FsMagic{0x01021997, "9p"},
    FsMagic{0x858458F6, "ramfs"},
    FsMagic{0xFE534D42, "smb2"},
    FsMagic{0xFF534D42, "cifs"},
    FsMagic{0x00009FA0, "proc"},
    FsMagic{0x62656572, "sysfs"},
};
// clang-format on

}  // namespace

std::string fsTypeName(std::uint64_t magic) {
  for (const FsMagic& fs : kFsMagics) {
    if (fs.magic == magic) return std::string(fs.name);
  }
  return fmt::format("{:#x}", magic);
}

std::optional<FsInfo> probeFileSystem(const std::string& path) {
  struct statfs sfs;
  struct statvfs svfs;
  if (::statfs(path.c_str(), &sfs) != 0 || ::statvfs(path.c_str(), &svfs) != 0) return std::nullopt;
  FsInfo info;
  // f_type is a signed word on some ABIs; magics are 32-bit, so drop any sign extension.
  info.type = fsTypeName(static_cast<std::uint32_t>(sfs.f_type));
  info.total_bytes = static_cast<std::uint64_t>(svfs.f_blocks) * svfs.f_frsize;
  info.free_bytes = static_cast<std::uint64_t>(svfs.f_bavail) * svfs.f_frsize;
  info.total_inodes = svfs.f_files;
  info.free_inodes = svfs.f_favail;
  knownCounts(info);
  return info;
}

void knownCounts(FsInfo& info) {
  // statvfs has no "unknown": file systems that do not count give all ones (sign-extended -1, in 32 or 64
  // bits), a free count above the total, or a total of 0 with a free count.
  const auto unknown = [](std::uint64_t v) { return v == kUnknownCount || v == 0xFFFFFFFFu; };
  if (unknown(info.total_inodes) || unknown(info.free_inodes) || info.free_inodes > info.total_inodes) {
    info.free_inodes = kUnknownCount;
    if (unknown(info.total_inodes)) info.total_inodes = kUnknownCount;
  }
  if (info.free_bytes > info.total_bytes) info.free_bytes = kUnknownCount;
}

int probeDirectIo(const std::string& dir, std::uint32_t& align) {
  align = 0;
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int err = errno;
    return err == EOPNOTSUPP || err == EISDIR ? 0 : err;
  }
  struct statx stx {};
  if (::statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 && (stx.stx_mask & STATX_DIOALIGN) != 0) {
    align = stx.stx_dio_offset_align;
  }
  ::close(fd);
  return 0;
}

}  // namespace mdbench
