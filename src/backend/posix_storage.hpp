// -a POSIX's storage (private to backend): the targets are directories of this node, reached by POSIX calls
// that never follow a link in a target's last component.
#pragma once

#include "mdbench/backend/storage.hpp"

namespace mdbench {

class PosixStorage final : public Storage {
 public:
  explicit PosixStorage(const Config& config) : config_(config) {}

  int kindOf(const std::string& path, StorageKind& kind) override;
  int resolve(const std::string& path, std::string& out) override;
  std::string resolveLinks(const std::string& absolute) override;
  int identify(const std::string& path, StorageId& id) override;
  StorageIdChain identityChain(const std::string& absolute) override;
  int makeDir(const std::string& path) override;
  int removeDir(const std::string& path) override;
  int writeMark(const std::string& path) override;
  MarkKind readMark(const std::string& path) override;
  int removeMarkedDir(const std::string& path, const StorageId* expect) override;
  std::optional<FsInfo> describe(const std::string& path) override;
  std::string optionProblem(const Config& config) override;
  std::unique_ptr<Backend> open(const std::string& root, std::uint32_t rank, int& err) override;

 private:
  Config config_;
};

}  // namespace mdbench
