// What the target file system is: type name, capacity, free space and inodes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "mdbench/model/result.hpp"  // kUnknownCount

namespace mdbench {

struct FsInfo {
  std::string type;  // "tmpfs", "ext4", "lustre", ... or "0x<magic>" when unknown
  std::uint64_t total_bytes = 0;
  std::uint64_t free_bytes = 0;  // available to unprivileged users
  std::uint64_t total_inodes = 0;
  std::uint64_t free_inodes = 0;
};

// statvfs's counts, each kUnknownCount where the file system does not know it (ceph-fuse and others report
// all ones, or more free than total): printed and stored as unknown, never as a number.
std::optional<FsInfo> probeFileSystem(const std::string& path);

// --posix.odirect: whether the file system of the directory `dir` takes O_DIRECT, probed with an unnamed
// file (O_TMPFILE | O_DIRECT: nothing appears in `dir`, and it is gone at close). 0 with `align` the offset
// and length alignment its transfers need (statx's dio_offset_align; 0 when the kernel does not say), or
// the errno of the open: EINVAL means no O_DIRECT there. A file system without O_TMPFILE (EOPNOTSUPP,
// EISDIR) gives 0 and align 0: not known before the run, whose first create says it.
int probeDirectIo(const std::string& dir, std::uint32_t& align);
std::string fsTypeName(std::uint64_t magic);
// Marks the counts statvfs gave that mean "not known" as kUnknownCount (probeFileSystem does this).
void knownCounts(FsInfo& info);

}  // namespace mdbench
