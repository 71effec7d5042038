// -a DUMMY's storage: the targets are names only (the row's local_paths is false), nothing is stored, so
// nothing is made, described or cleaned; the backend is the null one (null_backend.hpp).
#include "null_storage.hpp"

#include <cerrno>
#include <new>

#include "mdbench/backend/null_backend.hpp"

namespace mdbench {

int NullStorage::kindOf(const std::string& /*path*/, StorageKind& kind) {
  kind = StorageKind::kMissing;
  return ENOTSUP;
}

std::unique_ptr<Backend> NullStorage::open(const std::string& /*root*/, std::uint32_t rank, int& err) {
  std::unique_ptr<Backend> backend(new (std::nothrow) NullBackend(delays_, rank));
  err = backend ? 0 : ENOMEM;
  return backend;
}

CleanSummary NullStorage::clean(const std::string& dir, bool /*dry_run*/, std::vector<std::string>& log) {
  log.push_back(dir + ": -a DUMMY stores nothing: nothing to clean");
  return {};
}

}  // namespace mdbench
