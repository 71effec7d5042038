// A libnfs client mounted for -a LIBNFS (private to backend): shared by the backend each rank opens on its
// target (libnfs_backend.cpp) and the storage rank 0 prepares the targets with (libnfs_storage.cpp).
#pragma once

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
