// The fake backend's share of the cleanup after a signal (fake_backend.hpp): the same rules as the POSIX
// walk in cleanup.cpp, on the in-memory tree, so the runner's cleanup can be tested without a file system.
#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "mdbench/backend/fake_backend.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/ownership.hpp"

namespace mdbench {

int FakeBackend::removeGenerated(DirHandle dir, const CleanOptions& options, CleanTally& tally) {
  if (dir.value < 0 || static_cast<std::size_t>(dir.value) >= handles_.size()) return EBADF;
  const std::string base = handles_[static_cast<std::size_t>(dir.value)];
  const std::string prefix = base.empty() ? std::string() : base + "/";
  // Every entry below, deepest first, so a directory comes after what it holds.
  std::vector<std::string> below;
  for (const auto& [path, node] : nodes_) {
    if (path.size() <= prefix.size() || !path.starts_with(prefix)) continue;
    const std::string rel = path.substr(prefix.size());
    const std::string top = rel.substr(0, rel.find('/'));
    // The caller removes the mark and the ownership record last.
    if (rel == top && (top == kMarkName || top == kTakenName || top == kTakenTempName)) continue;
    if (options.parts > 1 && cleanPartOf(top, options.parts) != options.part) continue;
    below.push_back(path);
  }
  std::sort(below.begin(), below.end(), [](const std::string& a, const std::string& b) {
    const auto depth = [](const std::string& p) { return std::count(p.begin(), p.end(), '/'); };
    return depth(a) != depth(b) ? depth(a) > depth(b) : a < b;
  });
  for (const std::string& path : below) {
    const auto it = nodes_.find(path);
    const std::string name = path.substr(path.rfind('/') + 1);
    const GeneratedName kind = classifyName(name);
    if (options.leave != nullptr && options.leave->leavesName(name)) {
      tally.keep(path, "the run found this name taken; left alone");
    } else if (kind == GeneratedName::kGeneratedFile && !it->second.is_dir && !it->second.symlink) {
      nodes_.erase(it);
      ++tally.files;
    } else if (kind == GeneratedName::kGeneratedDir && it->second.is_dir) {
      const auto next = std::next(it);
      const bool empty = next == nodes_.end() || !next->first.starts_with(path + "/");
      if (empty) {
        nodes_.erase(it);
        ++tally.dirs;
      }
    } else {
      tally.keep(path, "not made by mdbench; left alone");
    }
  }
  return 0;
}

}  // namespace mdbench
