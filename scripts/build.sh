#!/usr/bin/env bash
# Configures and builds mdbench into ./build (or $MDBENCH_BUILD_DIR), with its tests and bench/.
# MDBENCH_UNIT_TESTS=OFF leaves out the unit and MPI tests (GoogleTest), MDBENCH_BENCH=OFF bench/:
# scripts/test.sh does, where the sanitized build builds and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${MDBENCH_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE="${MDBENCH_BUILD_TYPE:-RelWithDebInfo}" \
  -DMDBENCH_UNIT_TESTS="${MDBENCH_UNIT_TESTS:-ON}" -DMDBENCH_BENCH="${MDBENCH_BENCH:-ON}" >/dev/null
cmake --build "$build" -j "$(nproc)"
