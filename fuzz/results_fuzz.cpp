// libFuzzer target: the results-file reader and validator on arbitrary bytes written to a file in /dev/shm
// (or $MDBENCH_FUZZ_TMPDIR).
#include <dlfcn.h>
#include <hdf5.h>
#include <sanitizer/lsan_interface.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "fuzz_entry.hpp"

namespace {

// One file per fuzzing process (libFuzzer -jobs/-fork run several), removed at exit.
const std::string& inputPath() {
  static const std::string path = [] {
    const char* dir = std::getenv("MDBENCH_FUZZ_TMPDIR");
    std::string p = std::string(dir != nullptr ? dir : "/dev/shm") + "/mdbench-results-fuzz." +
                    std::to_string(::getpid()) + ".h5";
    std::atexit([] { std::remove(inputPath().c_str()); });
    return p;
  }();
  return path;
}

}  // namespace

// HDF5 1.10.8 leaks its own memory when it opens a file whose root group object header is damaged
// (H5F_open -> H5G_mkroot -> H5O_protect drops the cache entry it was decoding), and no caller can free it.
// This H5Fopen, which the readers' calls resolve to, opens with leak detection off for the allocations made
// inside the open only; everything the readers do with the file afterwards, crashes and memory errors
// included, is checked as usual. See fuzz/README.md.
extern "C" hid_t H5Fopen(const char* name, unsigned flags, hid_t access) {
  using Open = hid_t (*)(const char*, unsigned, hid_t);
  static const auto real = reinterpret_cast<Open>(dlsym(RTLD_NEXT, "H5Fopen"));
  if (real == nullptr) std::abort();
  __lsan::ScopedDisabler no_leak_check;
  return real(name, flags, access);
}

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // no HDF5 error stacks on stderr: the readers report
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = inputPath();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) std::abort();  // cannot write the input: not a finding in the reader
  }
  mdbench::fuzz::fuzzResultsFile(path);
  return 0;
}
