// The backend a configuration asks for: make_backend.hpp.
#include "mdbench/backend/make_backend.hpp"

#include <cerrno>
#include <new>

#include "mdbench/backend/null_backend.hpp"
#include "mdbench/backend/posix_backend.hpp"

namespace mdbench {

std::unique_ptr<Backend> makeBackend(const Config& config, const std::string& root_path, std::uint32_t rank,
                                     int& err) {
  if (config.api == Api::kDummy) {
    std::unique_ptr<Backend> backend(new (std::nothrow) NullBackend(config.dummy, rank));
    err = backend ? 0 : ENOMEM;
    return backend;
  }
  const PosixOptions options{.style = config.path_style,
                             .sync = config.sync_call,
                             .make_node = config.make_node,
                             .verify_write = config.verify_write,
                             .odirect = config.posix.odirect,
                             .rangelocks = config.posix.rangelocks};
  return PosixBackend::open(root_path, options, err);
}

}  // namespace mdbench
