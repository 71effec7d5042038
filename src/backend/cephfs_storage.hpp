// -a CEPHFS's storage (private to backend): the targets are directories of a CephFS, reached through a
// libcephfs client of rank 0's own, by their paths inside it (-d with --cephfs.prefix taken off, as mdtest).
#pragma once

#include <string>

#include "mdbench/backend/cephfs_backend.hpp"
#include "mdbench/backend/storage.hpp"

struct ceph_mount_info;

namespace mdbench {

class CephfsStorage final : public Storage {
 public:
  explicit CephfsStorage(const Config& config);
  ~CephfsStorage() override;
  CephfsStorage(const CephfsStorage&) = delete;
  CephfsStorage& operator=(const CephfsStorage&) = delete;

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
  ceph_mount_info* mount(int& err);
  // -d's path as a path inside the mount (CephfsBackend::mountPath).
  std::string inside(const std::string& path) const;

  CephfsOptions options_;
  ceph_mount_info* cmount_ = nullptr;
  int mount_err_ = 0;
  std::string refusal_;  // an option libcephfs cannot serve (-k, --path-style dirfd, --verify-write)
  std::string last_problem_;
};

}  // namespace mdbench
