// The alternative mdbench measured and did not take: every rank writes its own row of each phase into one
// file opened with the MPI-IO driver (collective parallel HDF5). It writes the same phase groups as
// Hdf5Sink (attributes, `ranks` table, `latency` histogram; no `errors`: see README) so that the two can be
// timed against each other and their files compared.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mdbench/model/phase.hpp"
#include "mdbench/model/result.hpp"
#include "mdbench/model/stats.hpp"

namespace mdbench::bench {

// How HDF5 does metadata I/O under the MPI-IO driver: independently (HDF5's default), or collectively
// (H5Pset_all_coll_metadata_ops and H5Pset_coll_metadata_write).
enum class MetadataIo : std::uint8_t { kIndependent, kCollective };

// Whether each phase ends with H5Fflush. Crash safety needs it; kNever exists only to show what it costs.
enum class PhaseFlush : std::uint8_t { kEveryPhase, kNever };

struct CollectiveOptions {
  MetadataIo metadata = MetadataIo::kIndependent;
  PhaseFlush flush = PhaseFlush::kEveryPhase;
};

struct PhaseSlot {
  std::uint32_t iteration = 0;
  Phase phase = Phase::kTreeCreate;
  std::uint32_t order = 0;  // position in the run's execution order
};

class CollectivePhaseFile {
 public:
  // Collective over `comm`: creates (or truncates) `path` and the group /runs/run-0000/iterations.
  CollectivePhaseFile(const std::string& path, MPI_Comm comm, CollectiveOptions options);
  ~CollectivePhaseFile();
  CollectivePhaseFile(const CollectivePhaseFile&) = delete;
  CollectivePhaseFile& operator=(const CollectivePhaseFile&) = delete;

  // Collective. Reduces what the attributes need to every rank (they must be written with identical values
  // everywhere), creates the phase group, writes this rank's row of `ranks` and rank 0's merged `latency`,
  // and flushes the file, as crash safety needs after every phase (unless PhaseFlush::kNever).
  void writePhase(const PhaseSlot& slot, const RankPhaseRecord& mine, std::uint32_t node,
                  const LatencyHistogram& mine_latency);
  // Collective. Closes the file; throws if HDF5 reports a failure.
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Rank 0, after both files are closed: compares the phase groups (every attribute, `ranks` and `latency`
// byte for byte) of two files, read with the default driver. Returns "" when equal, else the first
// difference. Numeric attributes may differ by 1e-12 relative (a mean summed in another order).
std::string comparePhaseGroups(const std::string& a, const std::string& b,
                               const std::vector<std::string>& groups);

}  // namespace mdbench::bench
