// The reference program: bench/reference.hpp's loops (the system calls mdbench's POSIX backend makes for
// -u, a directory per rank, with no harness around them) as a program of its own. mdbench's rates are
// quoted as ratios against it, run side by side (bench/compare.sh).
//
//   mpiexec -n P mdbench_ref DIR ITEMS [dirs|files|all]        (default: all)
// makes DIR/ref.<rank>/, then per phase, in mdbench's order (the directory phases, then the file phases):
// barrier, time, the loop, barrier; prints "<phase> <ops/s> failed <n>" with ops/s = P * ITEMS / the
// slowest rank's barrier-to-barrier time (mdbench's definition), and removes it all.
#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "reference.hpp"

namespace {

using mdbench::bench::RefPhase;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One phase between two barriers; rank 0 prints its rate and the failures of all ranks.
void phase(RefPhase p, int dfd, int rank, int ranks, unsigned long items) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = now();
  const unsigned long failed = mdbench::bench::referenceLoop(p, dfd, rank, items);
  MPI_Barrier(MPI_COMM_WORLD);
  const double elapsed = now() - t0;
  double slowest = 0;
  unsigned long failures = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&failed, &failures, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("%s %.1f failed %lu\n", std::string(mdbench::bench::refPhaseName(p)).c_str(),
                static_cast<double>(ranks * items) / slowest, failures);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::string kinds = argc == 4 ? argv[3] : "all";
  if ((argc != 3 && argc != 4) || (kinds != "all" && kinds != "dirs" && kinds != "files")) {
    if (rank == 0) std::fprintf(stderr, "usage: mdbench_ref DIR ITEMS [dirs|files|all]\n");
    MPI_Finalize();
    return 2;
  }
  const std::string dir = std::string(argv[1]) + "/ref." + std::to_string(rank);
  const unsigned long items = std::strtoul(argv[2], nullptr, 10);
  if (mkdir(dir.c_str(), 0777) != 0) {
    std::perror(dir.c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  for (const RefPhase p : mdbench::bench::kRefPhases) {
    if (mdbench::bench::isDirPhase(p) ? kinds != "files" : kinds != "dirs") phase(p, dfd, rank, ranks, items);
  }
  close(dfd);
  rmdir(dir.c_str());
  MPI_Finalize();
  return 0;
}
