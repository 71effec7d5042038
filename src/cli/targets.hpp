// The directories a run works in (-d A@B@C, or a fresh one): checked, made and removed on rank 0 (private
// to cli), through the selected backend's Storage (storage.hpp): no POSIX call here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mdbench/backend/storage.hpp"
#include "mdbench/config/config.hpp"

namespace mdbench {

// A directory the run works in. Decided on rank 0, shared with every rank.
struct Target {
  std::string path;      // absolute
  bool created = false;  // this run made it (and so may remove it when it is empty)
  // An earlier job of the workload made it (it carries the mark): the job that removes the trees also
  // removes it once it is empty, as a single run would have.
  bool marked = false;
  // The directory's identity once prepared (rank 0): its removal acts only on that very directory.
  StorageId id;
};

// Removes a directory this run made, or one an earlier job made (it carries mdbench's mark for it), through
// the backend's storage (Storage::removeMarkedDir): the mark first, then the directory; when the directory
// cannot go, the mark comes back, byte for byte the one removed (its text depends only on the inode). A
// directory whose mark is not mdbench's (replaced meanwhile) keeps everything, and so does another
// directory than `target`'s identity put in its place (EPERM). Returns 0 or the errno of the step that
// failed.
int removeTarget(Storage& storage, const Target& target);

// Rank 0 only: every target (-d A@B@C), or the one fresh default directory. On failure, removes what
// it made (in reverse order) and returns the message. -a DUMMY touches no file system: the targets are
// names only.
std::string prepareTargetsOnRoot(const Config& config, Storage& storage, std::vector<Target>& targets);

// Rank 0: duplicate or nested targets are a usage error found before anything is touched ("" when none).
std::string checkTargetsOnRoot(const Config& config, Storage& storage);

// Rank 0: a -z the run cannot work through on this machine is a usage error ("" when it can): in the full
// path style the deepest item's path must fit PATH_MAX, in the dirfd style the chain of open directories
// must fit the open-file limit.
std::string checkDepthOnRoot(const Config& config, std::uint32_t ranks);

std::string joinPaths(const std::vector<Target>& targets, char separator);

}  // namespace mdbench
