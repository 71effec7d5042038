// The in-memory test double. It mirrors what Linux returns for the same sequence of calls on a real file
// system (see tests/backend/posix_backend_test.cpp for the real thing), so the runner can be tested without
// I/O.
#include "mdbench/backend/fake_backend.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <utility>

#include "mdbench/model/layout.hpp"
#include "mdbench/util/clock.hpp"

namespace mdbench {
namespace {

// A freed handle slot. Real paths never start with '/' (they are relative to the root).
constexpr std::string_view kClosedSlot = "/";

std::size_t opIndex(FakeOp op) { return static_cast<std::size_t>(op); }

void busyWait(std::chrono::nanoseconds latency) {
  // Spin rather than sleep: sleeping overshoots by the scheduler's granularity (tens of microseconds),
  // which would swamp the microsecond latencies metadata tests inject.
  const auto until = std::chrono::steady_clock::now() + latency;
  while (std::chrono::steady_clock::now() < until) {
  }
}

// Names are single path components; anything else is a caller bug a real file system would also reject.
int checkName(const char* name) {
  if (name == nullptr || *name == '\0') return ENOENT;
  if (std::strchr(name, '/') != nullptr || std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) {
    return EINVAL;
  }
  return 0;
}

// Checks that `parent` is an open directory: EBADF for a handle that is not open, ENOENT (as for the
// descriptor of a removed directory) if its directory is gone. A template only because Node is private.
template <class NodeMap>
int parentDir(const std::vector<std::string>& handles, const NodeMap& nodes, DirHandle parent) {
  if (parent.value < 0 || static_cast<std::size_t>(parent.value) >= handles.size()) return EBADF;
  const std::string& dir = handles[static_cast<std::size_t>(parent.value)];
  if (dir == kClosedSlot) return EBADF;
  const auto it = nodes.find(dir);
  if (it == nodes.end() || !it->second.is_dir) return ENOENT;
  return 0;
}

// The POSIX backend's answer for an entry of the wrong type (posix_backend.cpp typeError).
int typeError(bool is_dir, bool symlink, EntryType want) {
  if (want == EntryType::kDir) return is_dir ? 0 : ENOTDIR;
  if (is_dir) return EISDIR;
  return symlink ? EINVAL : 0;
}

}  // namespace

FakeBackend::FakeBackend(ManualClock* clock) : clock_(clock) {
  nodes_.emplace("", Node{.is_dir = true, .size = 0});
  handles_.emplace_back("");  // root() is handle 0
}

void FakeBackend::setLatency(FakeOp op, std::chrono::nanoseconds latency) { latency_[opIndex(op)] = latency; }

void FakeBackend::addFault(FakeFault fault) { faults_.push_back(fault); }

void FakeBackend::plant(const std::string& path, FakePlant what, std::uint64_t size) {
  Node node;
  node.symlink = what == FakePlant::kSymlink;
  node.links = what == FakePlant::kHardLink ? 2 : 1;
  node.size = size;
  nodes_[path] = node;
}

std::vector<std::string> FakeBackend::listAll() const {
  std::vector<std::string> out;
  for (const auto& [path, node] : nodes_) {
    if (path.empty()) continue;  // the root itself
    out.push_back(node.is_dir ? path + "/" : path);
  }
  // Map order is by path without the '/', which differs (e.g. "a-b" vs "a/"): sort the final strings.
  std::sort(out.begin(), out.end());
  return out;
}

std::uint64_t FakeBackend::calls(FakeOp op) const { return calls_[opIndex(op)]; }

DirHandle FakeBackend::root() const { return DirHandle{0}; }

int FakeBackend::enter(FakeOp op) {
  const std::size_t i = opIndex(op);
  const std::uint64_t call = ++calls_[i];
  // Failed calls take as long as successful ones: a real file system spends the round trip either way.
  if (clock_ != nullptr) {
    clock_->advance(latency_[i].count());
  } else if (latency_[i].count() > 0) {
    busyWait(latency_[i]);
  }
  for (const FakeFault& fault : faults_) {
    if (fault.op == op && fault.every != 0 && call % fault.every == 0) return fault.err;
  }
  return 0;
}

std::string FakeBackend::childPath(DirHandle parent, const char* name) const {
  const std::string& dir = handles_[static_cast<std::size_t>(parent.value)];
  return dir.empty() ? std::string(name) : dir + "/" + name;
}

void FakeBackend::prepareCreates(DirHandle marked_dir) {
  const bool open = parentDir(handles_, nodes_, marked_dir) == 0;
  const auto mark = open ? nodes_.find(childPath(marked_dir, std::string(kMarkName).c_str())) : nodes_.end();
  ++(mark != nodes_.end() && !mark->second.is_dir ? prepared_marked_ : prepared_unmarked_);
}

int FakeBackend::listTypes(DirHandle /*dir*/, EntryType /*type*/, std::string& /*out*/) {
  ++list_types_calls_;
  return 0;
}

bool FakeBackend::checksTypesByListing(CheckedCall call) const {
  return Backend::checksTypesByListing(call) ||
         std::find(listed_calls_.begin(), listed_calls_.end(), call) != listed_calls_.end();
}

// Every operation: count the call and spend its latency, then the injected fault (which changes nothing),
// then the handle and name checks, then the operation itself.
int FakeBackend::openDir(DirHandle parent, const char* name, DirHandle& out) {
  out = DirHandle{};
  if (const int err = enter(FakeOp::kOpenDir); err != 0) return err;
  if (const int err = parentDir(handles_, nodes_, parent); err != 0) return err;
  if (const int err = checkName(name); err != 0) return err;
  std::string path = childPath(parent, name);
  const auto it = nodes_.find(path);
  if (it == nodes_.end()) return ENOENT;
  if (!it->second.is_dir) return it->second.symlink ? ELOOP : ENOTDIR;
  if (free_handles_.empty()) {
    out = DirHandle{static_cast<std::int64_t>(handles_.size())};
    handles_.push_back(std::move(path));
  } else {
    out = DirHandle{free_handles_.back()};
    free_handles_.pop_back();
    handles_[static_cast<std::size_t>(out.value)] = std::move(path);
  }
  return 0;
}

int FakeBackend::closeDir(DirHandle dir) {
  // The root belongs to the backend, as the root descriptor does in the POSIX backend.
  if (dir.value <= 0 || static_cast<std::size_t>(dir.value) >= handles_.size()) return EBADF;
  std::string& slot = handles_[static_cast<std::size_t>(dir.value)];
  if (slot == kClosedSlot) return EBADF;
  slot = std::string(kClosedSlot);  // (assigning the literal trips a GCC 12 -Wrestrict false positive)
  free_handles_.push_back(dir.value);
  return 0;
}

int FakeBackend::makeDir(DirHandle parent, const char* name) {
  if (const int err = enter(FakeOp::kMakeDir); err != 0) return err;
  if (const int err = parentDir(handles_, nodes_, parent); err != 0) return err;
  if (const int err = checkName(name); err != 0) return err;
  const bool inserted = nodes_.emplace(childPath(parent, name), Node{.is_dir = true, .size = 0}).second;
  return inserted ? 0 : EEXIST;
}

int FakeBackend::removeDir(DirHandle parent, const char* name) {
  if (const int err = enter(FakeOp::kRemoveDir); err != 0) return err;
  if (const int err = parentDir(handles_, nodes_, parent); err != 0) return err;
  if (const int err = checkName(name); err != 0) return err;
  const std::string path = childPath(parent, name);
  const auto it = nodes_.find(path);
  if (it == nodes_.end()) return ENOENT;
  if (!it->second.is_dir) return ENOTDIR;  // also a symlink, as unlinkat(AT_REMOVEDIR) answers
  // Children sort right after "path/" (and nothing else starts with that prefix).
  const std::string prefix = path + "/";
  const auto child = nodes_.lower_bound(prefix);
  if (child != nodes_.end() && child->first.starts_with(prefix)) return ENOTEMPTY;
  nodes_.erase(it);
  return 0;
}

int FakeBackend::createFile(DirHandle parent, const char* name, std::span<const std::byte> data,
                            CreateOptions options) {
  if (const int err = enter(FakeOp::kCreateFile); err != 0) return err;
  if (const int err = parentDir(handles_, nodes_, parent); err != 0) return err;
  if (const int err = checkName(name); err != 0) return err;
  const std::string path = childPath(parent, name);
  if (options.mode == CreateMode::kExclusive) {
    const Node file{.is_dir = false, .size = data.size()};
    if (!nodes_.emplace(path, file).second) return EEXIST;
    if (options.made != nullptr) *options.made = true;
    return 0;
  }
  // -S's open of a name another rank created: never creates; refuses what that rank cannot have made.
  const auto it = nodes_.find(path);
  if (it == nodes_.end()) return ENOENT;
  if (it->second.is_dir) return EISDIR;
  if (it->second.symlink) return ELOOP;
  if (it->second.links != 1) return EMLINK;
  if (it->second.size != data.size()) return EBADMSG;
  if (options.made != nullptr) *options.made = true;
  return 0;
}

int FakeBackend::statEntry(DirHandle parent, const char* name, bool is_dir) {
  if (const int err = enter(FakeOp::kStat); err != 0) return err;
  if (const int err = parentDir(handles_, nodes_, parent); err != 0) return err;
  if (const int err = checkName(name); err != 0) return err;
  const auto it = nodes_.find(childPath(parent, name));
  if (it == nodes_.end()) return ENOENT;
  return typeError(it->second.is_dir, it->second.symlink, is_dir ? EntryType::kDir : EntryType::kFile);
}

int FakeBackend::readFile(DirHandle parent, const char* name, std::span<std::byte> buf) {
  if (const int err = enter(FakeOp::kReadFile); err != 0) return err;
  if (const int err = parentDir(handles_, nodes_, parent); err != 0) return err;
  if (const int err = checkName(name); err != 0) return err;
  const auto it = nodes_.find(childPath(parent, name));
  if (it == nodes_.end()) return ENOENT;
  if (it->second.symlink) return ELOOP;  // O_NOFOLLOW
  // The POSIX backend checks the type of what it opened: a directory is refused, also for an empty read.
  if (it->second.is_dir) return EISDIR;
  // Contents are not stored, so buf is left as it is.
  return it->second.size < buf.size() ? ENODATA : 0;
}

int FakeBackend::unlinkFile(DirHandle parent, const char* name) {
  if (const int err = enter(FakeOp::kUnlink); err != 0) return err;
  if (const int err = parentDir(handles_, nodes_, parent); err != 0) return err;
  if (const int err = checkName(name); err != 0) return err;
  const auto it = nodes_.find(childPath(parent, name));
  if (it == nodes_.end()) return ENOENT;
  if (const int err = typeError(it->second.is_dir, it->second.symlink, EntryType::kFile); err != 0)
    return err;
  nodes_.erase(it);
  return 0;
}

int FakeBackend::moveEntry(DirHandle from_dir, const char* from, DirHandle to_dir, const char* to,
                           EntryType type) {
  if (const int err = enter(FakeOp::kRename); err != 0) return err;
  if (const int err = parentDir(handles_, nodes_, from_dir); err != 0) return err;
  if (const int err = parentDir(handles_, nodes_, to_dir); err != 0) return err;
  if (const int err = checkName(from); err != 0) return err;
  if (const int err = checkName(to); err != 0) return err;
  const std::string from_path = childPath(from_dir, from);
  const std::string to_path = childPath(to_dir, to);
  const auto it = nodes_.find(from_path);
  if (it == nodes_.end()) return ENOENT;
  if (const int err = typeError(it->second.is_dir, it->second.symlink, type); err != 0) return err;
  if (nodes_.contains(to_path)) return EEXIST;  // RENAME_NOREPLACE (also when from == to, as Linux does)
  const Node node = it->second;
  nodes_.erase(it);
  nodes_.emplace(to_path, node);
  if (!node.is_dir) return 0;
  // Move the subtree: every path under "from/" becomes the same path under "to/".
  const std::string from_prefix = from_path + "/";
  std::vector<std::pair<std::string, Node>> moved;
  for (auto child = nodes_.lower_bound(from_prefix);
       child != nodes_.end() && child->first.starts_with(from_prefix);) {
    moved.emplace_back(to_path + "/" + child->first.substr(from_prefix.size()), child->second);
    child = nodes_.erase(child);
  }
  for (auto& entry : moved) nodes_.insert(std::move(entry));
  // Open handles follow the directory they refer to, as descriptors do.
  for (std::string& handle : handles_) {
    if (handle == from_path) {
      handle = to_path;
    } else if (handle.starts_with(from_prefix)) {
      handle = to_path + "/" + handle.substr(from_prefix.size());
    }
  }
  return 0;
}

int FakeBackend::countEntries(DirHandle dir, std::span<const std::string_view> prefixes,
                              std::span<std::uint64_t> counts, std::uint64_t& total) {
  total = 0;
  if (const int err = enter(FakeOp::kReaddir); err != 0) return err;
  if (counts.size() != prefixes.size()) return EINVAL;
  std::fill(counts.begin(), counts.end(), 0);
  if (const int err = parentDir(handles_, nodes_, dir); err != 0) return err;
  const std::string& dir_path = handles_[static_cast<std::size_t>(dir.value)];
  const std::string prefix = dir_path.empty() ? std::string() : dir_path + "/";
  // Direct children only: the rest of the path after "dir/" contains no '/'.
  for (auto it = nodes_.lower_bound(prefix); it != nodes_.end() && it->first.starts_with(prefix); ++it) {
    const std::string_view name = std::string_view(it->first).substr(prefix.size());
    if (name.empty() || name.find('/') != std::string_view::npos) continue;  // the root itself, or deeper
    ++total;
    for (std::size_t k = 0; k < prefixes.size(); ++k) {
      if (name.starts_with(prefixes[k])) ++counts[k];
    }
  }
  return 0;
}

int FakeBackend::syncFileSystem() { return enter(FakeOp::kSync); }

}  // namespace mdbench
