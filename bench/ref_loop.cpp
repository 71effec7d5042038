// The reference: the same system calls mdbench's POSIX backend makes for -u (a directory per rank), with
// no harness around them (no histogram, no per-op clock reads, no backend interface). mdbench's rates are
// quoted as ratios against this program, run side by side.
//
//   mpiexec -n P mdbench_ref DIR ITEMS [dirs|files|all]        (default: all)
// makes DIR/ref.<rank>/, then per phase, in mdbench's order (the directory phases, then the file phases):
// barrier, time, the loop, barrier; prints "<phase> <ops/s> failed <n>" with ops/s = P * ITEMS / the
// slowest rank's barrier-to-barrier time (mdbench's definition), and removes it all.
#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "ref_namer.hpp"

namespace {

using Namer = mdbench::bench::RefNamer;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Runs loop (which returns its failed count) between two barriers; rank 0 prints the phase's rate.
template <class Loop>
void phase(const char* name, int ranks, unsigned long items, Loop loop) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = now();
  const unsigned long failed = loop();
  MPI_Barrier(MPI_COMM_WORLD);
  const double elapsed = now() - t0;
  double slowest = 0;
  unsigned long failures = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&failed, &failures, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    std::printf("%s %.1f failed %lu\n", name, static_cast<double>(ranks * items) / slowest, failures);
}

void dirPhases(int rank, int ranks, unsigned long items, int dfd) {
  Namer name("dir", rank);
  phase("dir-create", ranks, items, [&] {
    unsigned long failed = 0;
    for (unsigned long i = 0; i < items; ++i) {
      if (mkdirat(dfd, name(i), 0777) != 0) ++failed;
    }
    return failed;
  });
  phase("dir-stat", ranks, items, [&] {
    unsigned long failed = 0;
    struct stat st;
    for (unsigned long i = 0; i < items; ++i) {
      if (fstatat(dfd, name(i), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode)) ++failed;
    }
    return failed;
  });
  phase("dir-remove", ranks, items, [&] {
    unsigned long failed = 0;
    for (unsigned long i = 0; i < items; ++i) {
      if (unlinkat(dfd, name(i), AT_REMOVEDIR) != 0) ++failed;
    }
    return failed;
  });
}

void filePhases(int rank, int ranks, unsigned long items, int dfd) {
  Namer name("file", rank);
  phase("file-create", ranks, items, [&] {
    unsigned long failed = 0;
    for (unsigned long i = 0; i < items; ++i) {
      const int fd = openat(dfd, name(i), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      if (fd < 0 || close(fd) != 0) ++failed;
    }
    return failed;
  });
  phase("file-stat", ranks, items, [&] {
    unsigned long failed = 0;
    struct stat st;
    for (unsigned long i = 0; i < items; ++i) {
      if (fstatat(dfd, name(i), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) ++failed;
    }
    return failed;
  });
  phase("file-read", ranks, items, [&] {
    unsigned long failed = 0;
    for (unsigned long i = 0; i < items; ++i) {
      const int fd = openat(dfd, name(i), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0 || close(fd) != 0) ++failed;
    }
    return failed;
  });
  phase("file-remove", ranks, items, [&] {
    unsigned long failed = 0;
    for (unsigned long i = 0; i < items; ++i) {
      if (unlinkat(dfd, name(i), 0) != 0) ++failed;
    }
    return failed;
  });
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
  if (kinds != "files") dirPhases(rank, ranks, items, dfd);
  if (kinds != "dirs") filePhases(rank, ranks, items, dfd);
  close(dfd);
  rmdir(dir.c_str());
  MPI_Finalize();
  return 0;
}
