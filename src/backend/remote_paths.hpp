// What the backends that reach their storage through a client library (-a CEPHFS, -a LIBNFS) share, private
// to backend: -d as a path inside the remote file system, and the options such a client cannot serve.
#pragma once

#include <string>
#include <string_view>

#include "mdbench/config/config.hpp"

namespace mdbench {

// The path inside the remote file system that -d's `path` names: `prefix` taken off its front when it
// starts with all of it (mdtest's CEPHFS pfix; "" for none), a leading '/' added, trailing '/' removed
// ("/" for the top).
std::string remotePath(const std::string& path, const std::string& prefix);

// "" or why `config` asks for what a path-based client has no call for, before anything is made:
// --path-style dirfd, -k where `no_mknod` says why there is no mknod of a regular file ("" when there is
// one), and (`has_sync` false) -Y. `api_label` is "-a CEPHFS"; `names_by` says how the client names items
// ("libcephfs names every item by its path inside the CephFS").
std::string remoteRefusal(const Config& config, std::string_view api_label, std::string_view names_by,
                          std::string_view no_mknod, bool has_sync);

}  // namespace mdbench
