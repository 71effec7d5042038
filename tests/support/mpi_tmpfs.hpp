// A fresh directory on tmpfs for the MPI tests that run on real directories: made by rank 0, its path
// broadcast to every rank, and a POSIX backend opened on it on each.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <memory>
#include <string>

#include "mdbench/backend/posix_backend.hpp"
#include "mdbench/run/comm.hpp"

namespace mdbench::testing {

struct TmpfsDir {
  std::string path;
  std::unique_ptr<PosixBackend> backend;
};

// Collective. `name` becomes /dev/shm/mdbench-<name>-XXXXXX. Call it inside ASSERT_NO_FATAL_FAILURE: it fails
// the test when the directory cannot be made or opened.
inline void makeTmpfsDir(Comm& comm, const std::string& name, TmpfsDir& out) {
  if (comm.rank() == 0) {
    std::string templ = "/dev/shm/mdbench-" + name + "-XXXXXX";
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    out.path = templ;
  }
  comm.broadcast(out.path);
  int err = 0;
  out.backend = PosixBackend::open(out.path, err);
  ASSERT_NE(out.backend, nullptr) << out.path << ": errno " << err;
}

}  // namespace mdbench::testing
