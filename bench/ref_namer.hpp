// The reference's item names ("<kind>.mdbench.<rank>.<i>", as mdbench's ItemNamer makes them), shared by
// bench/ref_loop.cpp and bench/interleave.cpp.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdio>

namespace mdbench::bench {

struct RefNamer {
  char buf[64];
  std::size_t prefix;
  RefNamer(const char* kind, int rank) {
    prefix = static_cast<std::size_t>(std::snprintf(buf, sizeof buf, "%s.mdbench.%d.", kind, rank));
  }
  const char* operator()(unsigned long i) {
    *std::to_chars(buf + prefix, buf + sizeof buf - 1, i).ptr = '\0';
    return buf;
  }
};

}  // namespace mdbench::bench
