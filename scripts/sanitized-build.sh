#!/usr/bin/env bash
# sanitized-build.sh BUILD TARGET...: configures BUILD, once, as the clang build with AddressSanitizer,
# UndefinedBehaviorSanitizer, the tests and the libFuzzer targets (MDBENCH_FUZZ), then builds TARGET...
# (`all` for everything). Shared by scripts/sanitize.sh and scripts/fuzz.sh, so one build serves both.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
shift
sanitizers="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"

if ! grep -qs '^MDBENCH_FUZZ:BOOL=ON$' "$build/CMakeCache.txt"; then
  # -O1 -g1, as AddressSanitizer's manual suggests: full line tables for the reports, a shorter build than
  # -O2 -g. bench/ too, though no test runs it: scripts/test.sh's gcc build leaves it out, so it compiles here.
  cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DMDBENCH_BENCH=ON -DMDBENCH_FUZZ=ON -DMDBENCH_UNIT_TESTS=ON -DMDBENCH_TESTS_PER_BINARY=ON -DBUILD_TESTING=ON -DCMAKE_C_FLAGS="$sanitizers" -DCMAKE_CXX_FLAGS="$sanitizers" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
fi
cmake --build "$build" -j "$(nproc)" --target "$@" >/dev/null
