// Comm over MPI_COMM_WORLD, and the RAII owner of MPI_Init / MPI_Finalize.
#pragma once

#include <string>

#include "mdbench/comm.hpp"

namespace mdbench {

class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  // "MPICH Version: 4.0.2 ..." first line of MPI_Get_library_version.
  static std::string libraryVersion();
  // Ends every rank of the job at once; only the top level calls it.
  [[noreturn]] static void abort(int code);
};

class MpiComm final : public Comm {
 public:
  MpiComm();
  std::uint32_t rank() const override { return rank_; }
  std::uint32_t size() const override { return size_; }
  void barrier() override;
  void gatherBytes(std::span<const std::byte> send, std::vector<std::byte>& recv) override;
  void reduceSumToRoot(std::span<std::uint64_t> values) override;
  std::uint64_t allreduceMax(std::uint64_t value) override;
  std::uint64_t allreduceSum(std::uint64_t value) override;
  void broadcast(std::string& text) override;
  std::string hostName() const override;

 private:
  std::uint32_t rank_ = 0;
  std::uint32_t size_ = 1;
};

}  // namespace mdbench
