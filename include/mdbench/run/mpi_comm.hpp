// Comm over an MPI communicator (MPI_COMM_WORLD, or one split from it), and the RAII owner of MPI_Init /
// MPI_Finalize.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>

#include "mdbench/run/comm.hpp"

namespace mdbench {

// Whether a process manager started this process (Hydra's mpiexec, srun, a PMIx launcher): its
// environment names the process's rank. A process started without one is an MPI singleton of its own.
bool startedByLauncher();

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

// Whether an MpiComm frees its communicator (MPI_Comm_free) when destroyed.
enum class CommOwnership : std::uint8_t { kBorrowed, kOwned };

class MpiComm final : public Comm {
 public:
  MpiComm();  // MPI_COMM_WORLD, borrowed
  MpiComm(MPI_Comm comm, CommOwnership ownership);
  ~MpiComm() override;
  MpiComm(const MpiComm&) = delete;
  MpiComm& operator=(const MpiComm&) = delete;
  std::uint32_t rank() const override { return rank_; }
  std::uint32_t size() const override { return size_; }
  void barrier() override;
  void gatherBytes(std::span<const std::byte> send, std::vector<std::byte>& recv) override;
  void reduceSumToRoot(std::span<std::uint64_t> values) override;
  std::uint64_t allreduceMax(std::uint64_t value) override;
  std::uint64_t allreduceSum(std::uint64_t value) override;
  void allreduceMaxEach(std::span<std::uint64_t> values) override;
  void broadcast(std::string& text) override;
  std::string hostName() const override;
  // The new communicator is owned by the returned MpiComm.
  std::unique_ptr<Comm> split(std::optional<std::uint32_t> color, std::uint32_t key) override;
  void idleBarrier() override;
  void barrierPolling(const std::function<void()>& poll) override;

 private:
  MPI_Comm comm_ = MPI_COMM_WORLD;
  CommOwnership ownership_ = CommOwnership::kBorrowed;
  std::uint32_t rank_ = 0;
  std::uint32_t size_ = 1;
};

}  // namespace mdbench
