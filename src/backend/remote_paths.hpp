// What the backends that reach their storage through a client library (-a CEPHFS, -a LIBNFS) share, private
// to backend: -d as a path inside the remote file system, and the options such a client cannot serve.
#pragma once

#include <fcntl.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/config/config.hpp"

namespace mdbench {

// The path inside the remote file system that -d's `path` names: `prefix` taken off its front when it
// starts with all of it (mdtest's CEPHFS pfix; "" for none), a leading '/' added, trailing '/' removed
// ("/" for the top).
std::string remotePath(const std::string& path, const std::string& prefix);
// The directory holding the remote path `path` ("/" for the top and what is directly in it).
std::string remoteParent(const std::string& path);

// --verify-write through a client's handle: a file is opened read-write (these flags for its O_WRONLY ones)
// and, once written, read back from offset 0 by `read_at(offset, into, count)` (bytes read, or a negative
// errno) into `buf`, spoiled first as mdtest spoils its buffer so that a read returning nothing cannot
// pass; a difference or a short file is EBADMSG.
constexpr int readBackFlags(int flags) { return (flags & ~O_ACCMODE) | O_RDWR; }
template <class ReadAt>
int verifyReadBack(std::span<const std::byte> data, std::vector<std::byte>& buf, ReadAt read_at) {
  buf.resize(data.size());
  buf[0] = ~data[0];
  std::size_t got = 0;
  while (got < data.size()) {
    const std::int64_t ret = read_at(got, buf.data() + got, data.size() - got);
    if (ret < 0) return static_cast<int>(-ret);
    if (ret == 0) return EBADMSG;
    got += static_cast<std::size_t>(ret);
  }
  return std::memcmp(buf.data(), data.data(), data.size()) == 0 ? 0 : EBADMSG;
}

// "" or why `config` asks for what a path-based client has no call for, before anything is made:
// --path-style dirfd, -k where `no_mknod` says why there is no mknod of a regular file ("" when there is
// one), and (`has_sync` false) -Y. `api_label` is "-a CEPHFS"; `names_by` says how the client names items
// ("libcephfs names every item by its path inside the CephFS").
std::string remoteRefusal(const Config& config, std::string_view api_label, std::string_view names_by,
                          std::string_view no_mknod, bool has_sync);

}  // namespace mdbench
