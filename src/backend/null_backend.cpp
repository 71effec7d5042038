// The null backend (-a DUMMY): null_backend.hpp.
#include "mdbench/backend/null_backend.hpp"

#include <cerrno>
#include <cstring>
#include <string_view>

#include "mdbench/model/layout.hpp"
#include "mdbench/model/ownership.hpp"

namespace mdbench {

NullBackend::NullBackend() = default;

int NullBackend::openDir(DirHandle parent, const char*, DirHandle& out) {
  out = DirHandle{};
  if (!parent.valid()) return EBADF;
  out = DirHandle{1};  // any open directory: nothing is kept per directory
  return 0;
}

int NullBackend::closeDir(DirHandle dir) { return dir.valid() && dir.value != 0 ? 0 : EBADF; }

int NullBackend::createFile(DirHandle parent, const char*, std::span<const std::byte>,
                            CreateOptions options) {
  if (!parent.valid()) return EBADF;
  if (options.made != nullptr) *options.made = true;
  return 0;
}

// No ownership record is kept (storesNothing): reading one finds none.
int NullBackend::readFile(DirHandle parent, const char* name, std::span<std::byte>) {
  if (!parent.valid()) return EBADF;
  return std::string_view(name) == kTakenName ? ENOENT : 0;
}

int NullBackend::countEntries(DirHandle, std::span<const std::string_view> prefixes,
                              std::span<std::uint64_t> counts, std::uint64_t& total) {
  total = 0;
  if (counts.size() != prefixes.size()) return EINVAL;
  for (std::uint64_t& c : counts) c = 0;
  return ENOTSUP;
}

int NullBackend::removeGenerated(DirHandle, const CleanOptions&, CleanTally&) { return 0; }

}  // namespace mdbench
