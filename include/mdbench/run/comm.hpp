// Communication between ranks, injected so the runner runs under MPI or as a single process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mdbench {

// Collective operations must be called by every rank in the same order. Rank 0 is the root of
// gathers, reductions and broadcasts.
class Comm {
 public:
  virtual ~Comm() = default;
  virtual std::uint32_t rank() const = 0;
  virtual std::uint32_t size() const = 0;
  virtual void barrier() = 0;
  // Rank 0 receives size() * send.size() bytes in `recv` (resized there; untouched elsewhere).
  virtual void gatherBytes(std::span<const std::byte> send, std::vector<std::byte>& recv) = 0;
  // Element-wise sum of `values` across ranks, result on rank 0 (in place there).
  virtual void reduceSumToRoot(std::span<std::uint64_t> values) = 0;
  virtual std::uint64_t allreduceMax(std::uint64_t value) = 0;
  virtual std::uint64_t allreduceSum(std::uint64_t value) = 0;
  // Element-wise maximum of `values` across ranks, on every rank (in place): several agreements in one.
  virtual void allreduceMaxEach(std::span<std::uint64_t> values) = 0;
  // Rank 0's value of `text` on every rank.
  virtual void broadcast(std::string& text) = 0;
  // This process's host name (MPI_Get_processor_name under MPI).
  virtual std::string hostName() const = 0;
  // Collective: the ranks passing the same color form a new communicator, ranked by `key` (ties by their
  // rank here), as MPI_Comm_split does. A rank passing no color (kNotInSplit) gets nullptr.
  virtual std::unique_ptr<Comm> split(std::optional<std::uint32_t> color, std::uint32_t key) = 0;
  // A barrier that sleeps while it waits (MPI_Ibarrier, tested every millisecond), for ranks that sit out
  // a sweep step: a rank spinning in MPI_Barrier would take a core from the ranks being measured.
  virtual void idleBarrier() = 0;
  // A barrier during which this rank calls `poll` over and over until every rank has arrived (MPI_Ibarrier
  // and MPI_Test; with an empty `poll`, MPI_Wait). Rank 0 prints live progress from it while it waits for
  // slower ranks. Every rank of a collective must use this or barrier() alike.
  virtual void barrierPolling(const std::function<void()>& poll) = 0;
};

inline constexpr std::optional<std::uint32_t> kNotInSplit = std::nullopt;

// One process: every collective is the identity.
class SelfComm final : public Comm {
 public:
  std::uint32_t rank() const override { return 0; }
  std::uint32_t size() const override { return 1; }
  void barrier() override {}
  void gatherBytes(std::span<const std::byte> send, std::vector<std::byte>& recv) override;
  void reduceSumToRoot(std::span<std::uint64_t>) override {}
  std::uint64_t allreduceMax(std::uint64_t value) override { return value; }
  std::uint64_t allreduceSum(std::uint64_t value) override { return value; }
  void allreduceMaxEach(std::span<std::uint64_t>) override {}
  void broadcast(std::string&) override {}
  std::string hostName() const override;
  std::unique_ptr<Comm> split(std::optional<std::uint32_t> color, std::uint32_t key) override;
  void idleBarrier() override {}
  void barrierPolling(const std::function<void()>&) override {}
};

// Gathers every rank's host name to rank 0 (fixed-width records) and counts distinct ones.
struct NodeMap {
  std::vector<std::string> host_of_rank;  // rank 0 only
  std::uint32_t nodes = 1;                // rank 0 only
};
NodeMap gatherNodeMap(Comm& comm);

// Collective: every rank reports its own problem with a setup step ("" when it succeeded), so that all
// ranks learn whether any failed and none is left waiting in a barrier. Returns "" when all succeeded, else
// (on every rank) the first failing rank's own text followed by " (rank R[ and N more])".
std::string agreeOnProblem(Comm& comm, const std::string& problem);
// Every rank's `text`, concatenated in rank order, on every rank (collective).
std::string gatherToAll(Comm& comm, const std::string& text);

// agreeOnProblem with "<what>: <errno>" from each failing rank (0: success); `what` names the rank's own
// path.
std::string agreeOnSetup(Comm& comm, int err, const std::string& what);

}  // namespace mdbench
