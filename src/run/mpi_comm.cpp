#include "mdbench/run/mpi_comm.hpp"

#include <mpi.h>
#include <sched.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace mdbench {

bool startedByLauncher() {
  // PMI-1/2 (Hydra, srun --mpi=pmi2), PMIx, and Slurm's own task id (srun whatever its PMI plugin).
  for (const char* name : {"PMI_RANK", "PMI_FD", "PMI_SIZE", "PMIX_RANK", "SLURM_PROCID"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

MpiSession::MpiSession(int* argc, char*** argv) {
  // FUNNELED: the process has other threads (rank 0's fault injector, libcephfs's and libnfs's own), none
  // of which calls MPI; only this thread does. MPICH provides it everywhere.
  int provided = MPI_THREAD_SINGLE;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    throw std::runtime_error("MPI_Init_thread failed");
  }
  if (provided < MPI_THREAD_FUNNELED) {
    MPI_Finalize();
    throw std::runtime_error("the MPI library gives no MPI_THREAD_FUNNELED, which mdbench's threads need");
  }
  // Errors in collectives are bugs or dead peers; let MPI end the job rather than hang it.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

std::string MpiSession::libraryVersion() {
  std::array<char, MPI_MAX_LIBRARY_VERSION_STRING> text{};
  int len = 0;
  MPI_Get_library_version(text.data(), &len);
  std::string version(text.data(), static_cast<std::size_t>(len));
  if (auto eol = version.find('\n'); eol != std::string::npos) version.resize(eol);
  // "MPICH Version:\t4.0.2" -> "MPICH Version: 4.0.2"
  for (char& c : version) {
    if (c == '\t') c = ' ';
  }
  while (!version.empty() && version.back() == ' ') version.pop_back();
  return version;
}

void MpiSession::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

MpiComm::MpiComm() : MpiComm(MPI_COMM_WORLD, CommOwnership::kBorrowed) {}

MpiComm::MpiComm(MPI_Comm comm, CommOwnership ownership) : comm_(comm), ownership_(ownership) {
  if (comm == MPI_COMM_NULL) throw std::invalid_argument("MpiComm: MPI_COMM_NULL");
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm_, &rank);
  MPI_Comm_size(comm_, &size);
  rank_ = static_cast<std::uint32_t>(rank);
  size_ = static_cast<std::uint32_t>(size);
}

MpiComm::~MpiComm() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (ownership_ == CommOwnership::kOwned && !finalized) MPI_Comm_free(&comm_);
}

namespace {

// Waits for a nonblocking collective, giving the CPU away between tests. MPICH's blocking collectives spin:
// with more ranks on a node than it has CPUs, a spinning rank holds a core until its time slice ends
// while the rank it waits for cannot run, and each step of a barrier then costs milliseconds (4 ranks on 2
// cores: 0.8 s per iteration of 12 short phases, against 0.02 s with 2 ranks). sched_yield returns at
// once when nothing else wants the CPU, so a node with a core per rank waits as MPI_Wait would. Spinning
// 50 us before the first yield (for a busy node: a yield hands the core to any runnable process) measured
// no better with two nice-19 loops beside 2 ranks, and 1.2x slower at 4 ranks on 2 cores (bench/README.md).
void yieldingWait(MPI_Request& request) {
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    sched_yield();
  }
}

}  // namespace

void MpiComm::barrier() {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(comm_, &request);
  yieldingWait(request);
}

std::unique_ptr<Comm> MpiComm::split(std::optional<std::uint32_t> color, std::uint32_t key) {
  MPI_Comm part = MPI_COMM_NULL;
  // Colors and keys are non-negative ints in MPI; ours fit (a color is a step, a key a rank).
  MPI_Comm_split(comm_, color ? static_cast<int>(*color) : MPI_UNDEFINED, static_cast<int>(key), &part);
  if (part == MPI_COMM_NULL) return nullptr;
  return std::make_unique<MpiComm>(part, CommOwnership::kOwned);
}

void MpiComm::idleBarrier() {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(comm_, &request);
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void MpiComm::barrierPolling(const std::function<void()>& poll) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(comm_, &request);
  if (!poll) {
    yieldingWait(request);
    return;
  }
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    poll();
  }
}

void MpiComm::gatherBytes(std::span<const std::byte> send, std::vector<std::byte>& recv) {
  if (rank_ == 0) recv.resize(send.size() * size_);
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Igather(send.data(), static_cast<int>(send.size()), MPI_BYTE, rank_ == 0 ? recv.data() : nullptr,
              static_cast<int>(send.size()), MPI_BYTE, 0, comm_, &request);
  yieldingWait(request);
}

void MpiComm::reduceSumToRoot(std::span<std::uint64_t> values) {
  const int count = static_cast<int>(values.size());
  MPI_Request request = MPI_REQUEST_NULL;
  if (rank_ == 0) {
    MPI_Ireduce(MPI_IN_PLACE, values.data(), count, MPI_UINT64_T, MPI_SUM, 0, comm_, &request);
  } else {
    MPI_Ireduce(values.data(), nullptr, count, MPI_UINT64_T, MPI_SUM, 0, comm_, &request);
  }
  yieldingWait(request);
}

std::uint64_t MpiComm::allreduceMax(std::uint64_t value) {
  std::uint64_t result = 0;
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Iallreduce(&value, &result, 1, MPI_UINT64_T, MPI_MAX, comm_, &request);
  yieldingWait(request);
  return result;
}

void MpiComm::allreduceMaxEach(std::span<std::uint64_t> values) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Iallreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UINT64_T, MPI_MAX, comm_,
                 &request);
  yieldingWait(request);
}

std::uint64_t MpiComm::allreduceSum(std::uint64_t value) {
  std::uint64_t result = 0;
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Iallreduce(&value, &result, 1, MPI_UINT64_T, MPI_SUM, comm_, &request);
  yieldingWait(request);
  return result;
}

void MpiComm::broadcast(std::string& text) {
  std::uint64_t length = text.size();
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibcast(&length, 1, MPI_UINT64_T, 0, comm_, &request);
  yieldingWait(request);
  text.resize(length);
  MPI_Ibcast(text.data(), static_cast<int>(length), MPI_CHAR, 0, comm_, &request);
  yieldingWait(request);
}

std::string MpiComm::hostName() const {
  std::array<char, MPI_MAX_PROCESSOR_NAME> name{};
  int len = 0;
  MPI_Get_processor_name(name.data(), &len);
  return std::string(name.data(), static_cast<std::size_t>(len));
}

}  // namespace mdbench
