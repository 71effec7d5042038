// The null backend (-a DUMMY): null_backend.hpp.
#include "mdbench/backend/null_backend.hpp"

#include <time.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "mdbench/model/layout.hpp"
#include "mdbench/model/ownership.hpp"

namespace mdbench {

NullBackend::NullBackend() = default;

NullBackend::NullBackend(const DummyBackendOptions& delays, std::uint32_t rank) : delays_(delays) {
  if (delays.delay_only_rank0 && rank != 0) delays_ = DummyBackendOptions{};
}

void NullBackend::delay(std::uint64_t us) const {
  if (us == 0) return;
  timespec wait{static_cast<time_t>(us / 1'000'000), static_cast<long>(us % 1'000'000) * 1000};
  while (::nanosleep(&wait, &wait) != 0 && errno == EINTR) {
  }
}

int NullBackend::syncFileSystem() {
  delay(delays_.delay_sync_us);
  return 0;
}

int NullBackend::openDir(DirHandle parent, const char*, DirHandle& out) {
  out = DirHandle{};
  if (!parent.valid()) return EBADF;
  out = DirHandle{1};  // any open directory: nothing is kept per directory
  return 0;
}

int NullBackend::closeDir(DirHandle dir) { return dir.valid() && dir.value != 0 ? 0 : EBADF; }

int NullBackend::createFile(DirHandle parent, const char*, std::span<const std::byte> data,
                            CreateOptions options) {
  if (!parent.valid()) return EBADF;
  delay(delays_.delay_create_us);
  if (options.made != nullptr) *options.made = true;
  if (!data.empty()) delay(delays_.delay_xfer_us);
  delay(delays_.delay_close_us);
  return 0;
}

// No ownership record is kept (storesNothing): reading one finds none.
int NullBackend::readFile(DirHandle parent, const char* name, std::span<std::byte> buf) {
  if (!parent.valid()) return EBADF;
  if (std::string_view(name) == kTakenName) return ENOENT;
  if (!buf.empty()) delay(delays_.delay_xfer_us);
  delay(delays_.delay_close_us);
  return 0;
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
