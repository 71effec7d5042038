#!/usr/bin/env bash
# Configures and builds mdbench into ./build (or $MDBENCH_BUILD_DIR), with its tests and bench/.
# MDBENCH_UNIT_TESTS=OFF leaves out the unit and MPI tests (GoogleTest), MDBENCH_BENCH=OFF bench/:
# scripts/test.sh does, where the sanitized build builds and runs them. MDBENCH_DEBUG_INFO=lines keeps line
# tables only (-g1: file and line in backtraces, no variables): scripts/test.sh's build, a fifth shorter.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${MDBENCH_BUILD_DIR:-build}
case ${MDBENCH_DEBUG_INFO:-full} in
  full) debug=-g ;;
  lines) debug=-g1 ;;
  *) echo "build.sh: MDBENCH_DEBUG_INFO='$MDBENCH_DEBUG_INFO': full or lines" >&2; exit 2 ;;
esac
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE="${MDBENCH_BUILD_TYPE:-RelWithDebInfo}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 $debug -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 $debug -DNDEBUG" \
  -DMDBENCH_UNIT_TESTS="${MDBENCH_UNIT_TESTS:-ON}" -DMDBENCH_BENCH="${MDBENCH_BENCH:-ON}" >/dev/null
cmake --build "$build" -j "$(nproc)"
