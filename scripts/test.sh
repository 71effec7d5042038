#!/usr/bin/env bash
# The test suite: install what is missing, build, run every test (unit, MPI at 1/2/4 ranks, end-to-end on
# tmpfs and disk, faults, signals, bad input, formatting) and the package test; then the suite again built
# with ASan and UBSan, and the fuzz targets for a bounded time, from one clang build (scripts/sanitize.sh;
# about 7 more minutes on 2 cores). MDBENCH_SANITIZE=0 leaves that second part out, for a quicker local run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
(cd "${MDBENCH_BUILD_DIR:-build}" && ctest --output-on-failure -j 2 "$@")
# The install test: cmake --install's layout, the .deb (dependencies, unpacked into a fresh directory and
# run there: --version, a 2-rank workload, validate), the man page and the bash completion.
scripts/package-test.sh
if [ "${MDBENCH_SANITIZE:-1}" != 0 ]; then
  scripts/sanitize.sh
fi
