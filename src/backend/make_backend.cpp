// The storage and the backend a configuration asks for: storage.hpp, make_backend.hpp.
#include "mdbench/backend/make_backend.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <string>
#include <string_view>
#include <utility>

#include "mdbench/backend/storage.hpp"
#include "null_storage.hpp"
#include "posix_storage.hpp"
#ifdef MDBENCH_HAVE_CEPHFS
#include "cephfs_storage.hpp"
#endif
#ifdef MDBENCH_HAVE_LIBNFS
#include "libnfs_storage.hpp"
#endif

namespace mdbench {
namespace {

// A backend this build lacks: -a names it (its row is there), and the run says so before anything is made.
class UnbuiltStorage final : public NullStorage {
 public:
  UnbuiltStorage(const Config& config, std::string problem)
      : NullStorage(config), problem_(std::move(problem)) {}
  std::string reachProblem() override { return problem_; }
  std::unique_ptr<Backend> open(const std::string& /*root*/, std::uint32_t /*rank*/, int& err) override {
    err = ENOTSUP;
    return nullptr;
  }
  CleanSummary clean(const std::string& dir, bool /*dry_run*/, std::vector<std::string>& /*log*/) override {
    CleanSummary summary;
    summary.error = dir + ": " + problem_;
    summary.usage = true;
    return summary;
  }

 private:
  std::string problem_;
};

// Why a backend is not built in, and what to install for it.
[[maybe_unused]] std::unique_ptr<Storage> unbuilt(const Config& config, std::string_view api,
                                                  std::string_view library, std::string_view package) {
  return std::make_unique<UnbuiltStorage>(
      config,
      fmt::format("-a {}: not built in (this mdbench was built without {}: install {} and build again)", api,
                  library, package));
}

}  // namespace

// One case per row of kBackendRows (config/backends.hpp).
std::unique_ptr<Storage> makeStorage(const Config& config) {
  switch (config.api) {
    case Api::kDummy:
      return std::make_unique<NullStorage>(config);
    case Api::kCephfs:
#ifdef MDBENCH_HAVE_CEPHFS
      return std::make_unique<CephfsStorage>(config);
#else
      return unbuilt(config, "CEPHFS", "libcephfs", "libcephfs-dev");
#endif
    case Api::kLibnfs:
#ifdef MDBENCH_HAVE_LIBNFS
      return std::make_unique<LibnfsStorage>(config);
#else
      return unbuilt(config, "LIBNFS", "libnfs", "libnfs-dev");
#endif
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
