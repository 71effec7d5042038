// Counts the MPI calls this process makes that synchronise ranks, through the MPI profiling interface
// (PMPI): the collectives HDF5 and mdbench call and the collective MPI-IO calls. Calls made inside the MPI
// library itself (ROMIO's two-phase I/O) are not seen. For the --compare benchmark only.
#pragma once

#include <cstdint>

namespace mdbench::bench {

struct MpiCallCounts {
  std::uint64_t collectives = 0;       // Barrier, Bcast, (All)reduce, (All)gather(v), Scatterv
  std::uint64_t file_collectives = 0;  // MPI_File_ open, close, sync, set_view, set_size, read/write_at_all
  std::uint64_t file_independent = 0;  // MPI_File_ read_at, write_at, get_size
};

// Totals since the process started.
MpiCallCounts mpiCallCounts();

}  // namespace mdbench::bench
