// -a LIBNFS's storage (private to backend): the targets are directories inside an NFS export, reached
// through a libnfs client of rank 0's own, by their paths inside the export (-d, as mdtest).
#pragma once

#include <chrono>
#include <string>

#include "mdbench/backend/libnfs_backend.hpp"
#include "mdbench/backend/storage.hpp"

struct nfs_context;

namespace mdbench {

class LibnfsStorage final : public Storage {
 public:
  explicit LibnfsStorage(const Config& config);
  ~LibnfsStorage() override;
  LibnfsStorage(const LibnfsStorage&) = delete;
  LibnfsStorage& operator=(const LibnfsStorage&) = delete;

  std::string reachProblem() override;
  std::string lastProblem() const override { return last_problem_; }
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
  std::unique_ptr<Backend> open(const std::string& root, std::uint32_t rank, int& err) override;

 private:
  // The client, mounted at the first call that needs it; nullptr (and last_problem_ set) when it cannot be.
  nfs_context* mount(int& err);

  LibnfsOptions options_;
  nfs_context* nfs_ = nullptr;
  std::chrono::steady_clock::time_point last_call_ = std::chrono::steady_clock::now();
  int mount_err_ = 0;
  std::string refusal_;  // an option libnfs cannot serve (-k, --path-style dirfd, --verify-write, -Y)
  std::string last_problem_;
};

}  // namespace mdbench
