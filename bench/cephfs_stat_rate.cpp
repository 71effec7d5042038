// Stat rate through the backends on the test bed's CephFS: CephfsBackend (libcephfs) against PosixBackend
// on the head's ceph-fuse mount, interleaved round by round (bench/README.md, "libcephfs against
// ceph-fuse"). FILES files are made by one libcephfs client (A); each round stats them all through A
// (same client: its caps answer), through a second libcephfs client B (a client that did not make them),
// and through ceph-fuse (PosixBackend, full path style: mdtest's lstat per file). Then A removes them.
//   eval "$(scripts/testbed.sh env)"
//   build/bench/mdbench_cephfs_stat_rate DIR [FILES] [ROUNDS]     (DIR: a new name below
//   $MDBENCH_TESTBED_CEPHFS)
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "mdbench/backend/cephfs_backend.hpp"
#include "mdbench/backend/posix_backend.hpp"

namespace {

using mdbench::Backend;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

// Stats every name; returns ops/s, or -1 when a stat failed.
double statRate(Backend& backend, const std::vector<std::string>& names) {
  const auto t0 = std::chrono::steady_clock::now();
  for (const std::string& name : names) {
    if (backend.statEntry(backend.root(), name.c_str(), false) != 0) return -1;
  }
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
  return static_cast<double>(names.size()) / took.count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: mdbench_cephfs_stat_rate DIR [FILES] [ROUNDS] (test bed env set)\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int files = argc > 2 ? std::atoi(argv[2]) : 1000;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 5;
  mdbench::CephfsOptions options;
  options.user = env("MDBENCH_TESTBED_CEPHFS_USER");
  options.conf = env("CEPH_CONF");
  options.prefix = env("MDBENCH_TESTBED_CEPHFS");
  std::string parent = dir.substr(0, dir.rfind('/'));
  const std::string leaf = dir.substr(dir.rfind('/') + 1);
  mdbench::CephfsOpenError error;
  auto top = mdbench::CephfsBackend::open(parent, options, error);
  if (!top || top->makeDir(top->root(), leaf.c_str()) != 0) {
    fmt::print(stderr, "cannot make {}: {}\n", dir, error.message);
    return 1;
  }
  auto a = mdbench::CephfsBackend::open(dir, options, error);
  auto b = mdbench::CephfsBackend::open(dir, options, error);
  int err = 0;
  auto fuse = mdbench::PosixBackend::open(dir, err);
  if (!a || !b || !fuse) {
    fmt::print(stderr, "cannot open {}: {} {}\n", dir, error.message, err);
    return 1;
  }
  std::vector<std::string> names;
  for (int i = 0; i < files; ++i) {
    names.push_back(fmt::format("file.mdbench.0.{}", i));
    if (a->createFile(a->root(), names.back().c_str(), {}, {}) != 0) return 1;
  }
  std::vector<double> same, other, viafuse;
  for (int r = 0; r < rounds; ++r) {
    // The order alternates, so that drift hits all three alike.
    const std::vector<std::pair<Backend*, std::vector<double>*>> order =
        r % 2 == 0 ? std::vector<std::pair<Backend*, std::vector<double>*>>{{a.get(), &same},
                                                                            {b.get(), &other},
                                                                            {fuse.get(), &viafuse}}
                   : std::vector<std::pair<Backend*, std::vector<double>*>>{
                         {fuse.get(), &viafuse}, {b.get(), &other}, {a.get(), &same}};
    for (const auto& [backend, rates] : order) rates->push_back(statRate(*backend, names));
  }
  for (const std::string& name : names) (void)a->unlinkFile(a->root(), name.c_str());
  a.reset();
  b.reset();
  fuse.reset();
  (void)top->removeDir(top->root(), leaf.c_str());
  fmt::print(
      "{} files, {} rounds, median stats/s: libcephfs same client {:.0f}, libcephfs other client {:.0f}, "
      "ceph-fuse {:.0f}; other client / ceph-fuse {:.2f}, same client / ceph-fuse {:.2f}\n",
      files, rounds, median(same), median(other), median(viafuse), median(other) / median(viafuse),
      median(same) / median(viafuse));
  return 0;
}
