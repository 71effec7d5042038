// -a DUMMY's storage (private to backend): no target is made, checked, described or removed.
#pragma once

#include <cerrno>

#include "mdbench/backend/storage.hpp"

namespace mdbench {

class NullStorage : public Storage {
 public:
  explicit NullStorage(const Config& config) : delays_(config.dummy) {}

  int kindOf(const std::string& path, StorageKind& kind) override;
  int resolve(const std::string& /*path*/, std::string& /*out*/) override { return ENOTSUP; }
  std::string resolveLinks(const std::string& absolute) override { return absolute; }
  int identify(const std::string& /*path*/, StorageId& /*id*/) override { return ENOTSUP; }
  StorageIdChain identityChain(const std::string& /*absolute*/) override { return {}; }
  int makeDir(const std::string& /*path*/) override { return ENOTSUP; }
  int removeDir(const std::string& /*path*/) override { return ENOTSUP; }
  int writeMark(const std::string& /*path*/) override { return ENOTSUP; }
  MarkKind readMark(const std::string& /*path*/) override { return MarkKind::kNone; }
  int removeMarkedDir(const std::string& /*path*/, const StorageId* /*expect*/) override { return ENOTSUP; }
  std::optional<FsInfo> describe(const std::string& /*path*/) override { return std::nullopt; }
  std::unique_ptr<Backend> open(const std::string& root, std::uint32_t rank, int& err) override;
  CleanSummary clean(const std::string& dir, bool dry_run, std::vector<std::string>& log) override;

 private:
  DummyBackendOptions delays_;
};

}  // namespace mdbench
