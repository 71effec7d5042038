// What a backend does to the run's storage outside its phases: the targets (-d) checked, made, marked,
// described and removed, the Backend opened on a target, and `mdbench clean`. One Storage per backend row
// (makeStorage); cli and run reach the target through it and through Backend only, never by a POSIX call.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mdbench/backend/backend.hpp"
#include "mdbench/backend/cleanup.hpp"
#include "mdbench/backend/fsinfo.hpp"
#include "mdbench/config/config.hpp"

namespace mdbench {

// What a name is, its last component never followed.
enum class StorageKind : std::uint8_t { kMissing, kDirectory, kLink, kOther };

// The identities of a path (or its nearest existing parent) and of each directory above it up to the
// root, found by "..", so that a bind mount or a second name of a directory shows as the same directory.
struct StorageIdChain {
  bool exists = false;           // chain.front() is the path's own
  std::vector<StorageId> chain;  // the path (or its nearest existing parent) first
};

// Every call returns 0 or an errno value, or what its comment says; none throws. Paths are as -d gives them
// (relative to the working directory, or absolute).
class Storage {
 public:
  virtual ~Storage() = default;

  // "" or why the storage cannot be reached at all (a CephFS client that cannot mount, a backend this
  // build lacks), found before anything is made: a usage error naming what is wrong.
  virtual std::string reachProblem() { return {}; }
  // What the last failed call said beyond its errno ("" when nothing): a mount's refusal, for open.
  virtual std::string lastProblem() const { return {}; }

  // What `path` is (lstat: never through a link in its last component); 0 with kMissing when nothing has
  // the name, an errno when it cannot be looked at.
  virtual int kindOf(const std::string& path, StorageKind& kind) = 0;
  // The absolute path with every link followed (realpath). The path must exist.
  virtual int resolve(const std::string& path, std::string& out) = 0;
  // An absolute path with the links in what exists followed, the missing rest taken as written: a target
  // still to be made compared as the directory it would be. Never fails (the lexical path at worst).
  virtual std::string resolveLinks(const std::string& absolute) = 0;
  // The identity of the existing `path` (never followed).
  virtual int identify(const std::string& path, StorageId& id) = 0;
  virtual StorageIdChain identityChain(const std::string& absolute) = 0;

  // A new directory (EEXIST if anything has the name), or the removal of an empty one.
  virtual int makeDir(const std::string& path) = 0;
  virtual int removeDir(const std::string& path) = 0;
  // The mark (cleanup.hpp) of the directory `path`, opened without following a link: written exclusively
  // (never over another entry), or read back.
  virtual int writeMark(const std::string& path) = 0;
  virtual MarkKind readMark(const std::string& path) = 0;
  // Removes the directory `path` that mdbench made: the mark first, then the directory; the mark back (the
  // same bytes) when the directory cannot go. EPERM, and nothing touched, when its mark is not mdbench's
  // or (`expect` given) it is no longer the directory with that identity.
  virtual int removeMarkedDir(const std::string& path, const StorageId* expect) = 0;

  // The file system `path` is on, recorded in the results (counts it does not know: kUnknownCount);
  // nullopt when it cannot be told.
  virtual std::optional<FsInfo> describe(const std::string& path) = 0;
  // "" or why the backend's options cannot work on the targets (--posix.odirect), found before anything
  // is made: a usage error.
  virtual std::string optionProblem(const Config& /*config*/) { return {}; }

  // The Backend rooted at the existing directory `root` for this rank (`rank`: its number in the run), or
  // nullptr with `err` set.
  virtual std::unique_ptr<Backend> open(const std::string& root, std::uint32_t rank, int& err) = 0;
  // `mdbench clean DIR` (cleanup.hpp's rules): by default (storage_clean.cpp) through kindOf, open and
  // the opened Backend's walk calls, so every backend that has them cleans alike.
  virtual CleanSummary clean(const std::string& dir, bool dry_run, std::vector<std::string>& log);
};

// The storage of the backend -a selects (config.api), with its options. A backend that keeps nothing
// (-a DUMMY) answers ENOTSUP to the target calls (its targets are names only: the row's local_paths is
// false), describes nothing, and cleans nothing.
std::unique_ptr<Storage> makeStorage(const Config& config);

}  // namespace mdbench
