// A libcephfs client mounted for -a CEPHFS (private to backend): shared by the backend each rank opens on
// its target (cephfs_backend.cpp) and the storage rank 0 prepares the targets with (cephfs_storage.cpp).
#pragma once

#include <string>

#include "mdbench/backend/cephfs_backend.hpp"
#include "mdbench/backend/cleanup.hpp"

struct ceph_mount_info;

namespace mdbench {

// A client of its own (ceph_create as --cephfs.user), configured (--cephfs.conf, the mount timeouts) and
// mounted at --cephfs.remote_prefix; nullptr with `error` set (the message begins "-a CEPHFS: ") when any
// step fails, and nothing is left mounted.
ceph_mount_info* mountCephfs(const CephfsOptions& options, CephfsOpenError& error);
// Unmounts and releases a client mountCephfs made (nullptr: nothing).
void unmountCephfs(ceph_mount_info* cmount);

// The mark (cleanup.hpp) of the directory at `dir_path` in the mount, written exclusively, or read back
// (never through a link; a mark of another directory's inode is foreign).
int writeCephfsMark(ceph_mount_info* cmount, const std::string& dir_path);
MarkKind readCephfsMark(ceph_mount_info* cmount, const std::string& dir_path);

}  // namespace mdbench
