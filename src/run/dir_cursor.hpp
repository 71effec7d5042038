// A cursor over a tree's directories for the runner: keeps the chain of open directories from the tree
// root down to the directory last asked for.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "mdbench/backend/backend.hpp"
#include "mdbench/config/config.hpp"
#include "mdbench/model/layout.hpp"

namespace mdbench {

// Consecutive directories share most ancestors, so most moves cost one openat; no path is ever resolved
// from the top (nor through a symlink: the backend refuses them).
class DirCursor {
 public:
  DirCursor(Backend& backend, DirHandle base, const TreeLayout& layout, TreeSharing sharing,
            std::uint32_t owner)
      : backend_(backend), base_(base), layout_(layout), sharing_(sharing), owner_(owner) {}
  ~DirCursor() { closeFrom(0); }
  DirCursor(const DirCursor&) = delete;
  DirCursor& operator=(const DirCursor&) = delete;

  // Opens tree directory `dir`; returns 0 or the errno of the open that failed.
  int open(std::uint64_t dir, DirHandle& out) {
    if (!chain_.empty() && chain_.back().dir == dir) {
      out = chain_.back().handle;
      return 0;
    }
    path_.clear();
    for (std::uint64_t d = dir; d != TreeLayout::kNone; d = layout_.parent(d)) path_.push_back(d);
    std::reverse(path_.begin(), path_.end());
    std::size_t shared = 0;
    while (shared < chain_.size() && shared < path_.size() && chain_[shared].dir == path_[shared]) {
      ++shared;
    }
    closeFrom(shared);
    for (std::size_t level = shared; level < path_.size(); ++level) {
      const DirHandle parent = level == 0 ? base_ : chain_[level - 1].handle;
      const std::string name = treeDirName(sharing_, owner_, path_[level]);
      DirHandle opened;
      if (const int err = backend_.openDir(parent, name.c_str(), opened); err != 0) return err;
      chain_.push_back({path_[level], opened});
    }
    out = chain_.back().handle;
    return 0;
  }

  // The directory the tree's roots are in (the iteration directory).
  DirHandle base() const { return base_; }

  // The directory that holds tree directory `dir` (the iteration directory for a tree root: every directory
  // loop's root sits there).
  int openParentOf(std::uint64_t dir, DirHandle& out) {
    const std::uint64_t parent = layout_.parent(dir);
    if (parent == TreeLayout::kNone) {
      closeFrom(0);
      out = base_;
      return 0;
    }
    return open(parent, out);
  }

 private:
  struct Entry {
    std::uint64_t dir;
    DirHandle handle;
  };
  void closeFrom(std::size_t level) {
    while (chain_.size() > level) {
      // A failed close of a directory we only read cannot lose data; nothing to report.
      (void)backend_.closeDir(chain_.back().handle);
      chain_.pop_back();
    }
  }

  Backend& backend_;
  DirHandle base_;
  const TreeLayout& layout_;
  TreeSharing sharing_;
  std::uint32_t owner_;
  std::vector<Entry> chain_;
  std::vector<std::uint64_t> path_;
};

}  // namespace mdbench
