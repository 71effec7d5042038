// A libnfs client mounted for -a LIBNFS (private to backend): shared by the backend each rank opens on its
// target (libnfs_backend.cpp) and the storage rank 0 prepares the targets with (libnfs_storage.cpp).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "mdbench/backend/cleanup.hpp"
#include "mdbench/backend/libnfs_backend.hpp"

struct nfs_context;

namespace mdbench {

// A client of its own for `options.url` (nfs_parse_url_full: nfs://SERVER/EXPORT/?OPTIONS, the trailing '/'
// needed, as mdtest's), every RPC bounded by options.timeout_s, the export mounted; nullptr with `error`
// set (the message begins "-a LIBNFS: ") when any step fails, and nothing is left.
nfs_context* mountLibnfs(const LibnfsOptions& options, LibnfsOpenError& error);
// NFSv4 state lives as long as the client's lease (60 s by default in NFS-Ganesha, 90 s in Linux's nfsd),
// which only calls renew: libnfs's synchronous API sends no RENEW by itself, so a client idle longer (rank
// 0's storage client during the phases, a rank waiting at a barrier) finds its state expired
// (NFS4ERR_EXPIRED) at its next OPEN. A client idle for kLibnfsIdle is therefore made anew before its next
// call (a mount costs a few round trips; path-based calls keep nothing else).
inline constexpr std::chrono::seconds kLibnfsIdle{15};
// A client that sat idle while the server restarted fails its next calls (libnfs 4.0: EIO; its NFSv4 state
// is gone), however short the pause. Rank 0's storage client (the targets, their marks) is idle through the
// phases and its calls are never timed: it is made anew before any call after kLibnfsStorageIdle without
// one, so that a gateway restarted during the run does not leave the run's directory behind. The ranks'
// clients are not (a mount inside a timed phase would be timed): they are revived after their failed calls.
inline constexpr std::chrono::seconds kLibnfsStorageIdle{1};
// Whether a client last used at `last` has been idle for `limit`; `last` becomes now.
inline bool idleFor(std::chrono::steady_clock::time_point& last, std::chrono::steady_clock::duration limit) {
  const auto now = std::chrono::steady_clock::now();
  const bool idle = now - last >= limit;
  last = now;
  return idle;
}
inline bool leaseLapsed(std::chrono::steady_clock::time_point& last) { return idleFor(last, kLibnfsIdle); }
// Unmounts and frees a client mountLibnfs made (nullptr: nothing).
void unmountLibnfs(nfs_context* nfs);
// "NFSv4 (libnfs)": the version the URL asks for (libnfs's default, 3, when it names none).
std::string libnfsDescription(const std::string& url);

// What `path` is (lstat: never followed): 0 with the mode's type bits and the identity, or an errno.
struct LibnfsEntry {
  unsigned mode = 0;
  StorageId id;
};
int lstatLibnfs(nfs_context* nfs, const std::string& path, LibnfsEntry& entry);
// The names in the directory at `path` (not "." or "..").
int listLibnfs(nfs_context* nfs, const std::string& path, std::vector<std::string>& names);

// The mark (cleanup.hpp) of the directory at `dir_path` in the export, written exclusively, or read back
// (never through a link; a mark of another directory's inode is foreign).
int writeLibnfsMark(nfs_context* nfs, const std::string& dir_path);
MarkKind readLibnfsMark(nfs_context* nfs, const std::string& dir_path);

}  // namespace mdbench
