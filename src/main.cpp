// mdbench: an MPI metadata benchmark. main() owns MPI; everything else lives in the library.
#include <exception>
#include <string>
#include <vector>

#include "mdbench/cli/app.hpp"
#include "mdbench/run/mpi_comm.hpp"
#include "mdbench/run/signals.hpp"
#include "mdbench/util/diagnostics.hpp"

int main(int argc, char** argv) {
  // Before anything opens a file (MPI, HDF5) or prints: no file may become descriptor 1, and no failed
  // console write may end the job without its cleanup.
  mdbench::protectConsole();
  mdbench::MpiSession mpi(&argc, &argv);
  mdbench::MpiComm comm;
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return mdbench::runApp(args, comm);
  } catch (const std::exception& e) {
    // A bug or resource exhaustion: other ranks may be waiting in a collective, so end the whole job.
    mdbench::printInternalError(comm.rank(), e.what());
    mdbench::MpiSession::abort(mdbench::kExitFailed);
  }
}
