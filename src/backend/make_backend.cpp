// The storage and the backend a configuration asks for: storage.hpp, make_backend.hpp.
#include "mdbench/backend/make_backend.hpp"

#include "mdbench/backend/storage.hpp"
#include "null_storage.hpp"
#include "posix_storage.hpp"

namespace mdbench {

// One case per row of kBackendRows (config/backends.hpp).
std::unique_ptr<Storage> makeStorage(const Config& config) {
  switch (config.api) {
    case Api::kDummy:
      return std::make_unique<NullStorage>(config);
    case Api::kPosix:
      break;
  }
  return std::make_unique<PosixStorage>(config);
}

std::unique_ptr<Backend> makeBackend(const Config& config, const std::string& root_path, std::uint32_t rank,
                                     int& err) {
  return makeStorage(config)->open(root_path, rank, err);
}

}  // namespace mdbench
