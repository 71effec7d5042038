// mdbench: an MPI metadata benchmark. main() owns MPI; everything else lives in the library.
#include <exception>
#include <optional>
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
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (argc > 0) mdbench::setInvokedAs(argv[0]);
  // The offline tools, --help, --version and usage errors need no MPI: a process no launcher started
  // answers them before MPI_Init (MPICH's singleton start costs more than most of them).
  if (!mdbench::startedByLauncher()) {
    try {
      if (const std::optional<int> status = mdbench::runWithoutMpi(args)) return *status;
    } catch (const std::exception& e) {
      mdbench::printInternalError(0, e.what());
      return mdbench::kExitFailed;
    }
  }
  mdbench::MpiSession mpi(&argc, &argv);
  mdbench::MpiComm comm;
  try {
    return mdbench::runApp(args, comm);
  } catch (const std::exception& e) {
    // A bug or resource exhaustion: other ranks may be waiting in a collective, so end the whole job.
    mdbench::printInternalError(comm.rank(), e.what());
    mdbench::MpiSession::abort(mdbench::kExitFailed);
  }
}
