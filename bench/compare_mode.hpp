// --compare: gather to rank 0 + serial HDF5 (what mdbench does) against collective parallel HDF5, per phase.
#pragma once

#include <cstdint>
#include <string>

#include "collective_writer.hpp"

namespace mdbench::bench {

// Initialises MPI, writes `writes` phases both ways into files in `dir` (a fresh /dev/shm directory if
// empty), interleaved and timed barrier to barrier, checks that both files hold the same phase groups,
// and prints the medians on rank 0. Returns the exit status.
int runCompare(int argc, char** argv, std::uint32_t writes, CollectiveOptions collective,
               const std::string& dir);

}  // namespace mdbench::bench
