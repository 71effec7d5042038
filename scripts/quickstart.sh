#!/usr/bin/env bash
# Quick start: install what is missing, build, and run the default benchmark with 2 ranks in a temporary
# directory that is removed afterwards; the results file goes to build/quickstart-results.h5.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
# A new build directory gets the program only, as scripts/test.sh builds it (the tests are built by the
# sanitized build there): half the build of everything, and test.sh afterwards finds it built. An existing
# one keeps its configuration (scripts/build.sh): a build test.sh made is not built again.
if [ -e "${MDBENCH_BUILD_DIR:-build}/CMakeCache.txt" ]; then
  scripts/build.sh
else
  MDBENCH_DEBUG_INFO=lines MDBENCH_UNIT_TESTS=OFF MDBENCH_BENCH=OFF scripts/build.sh
fi
mdbench=$PWD/${MDBENCH_BUILD_DIR:-build}/mdbench
# The results file stays in the build directory (replaced by the next quick start); the rest goes.
results=$PWD/${MDBENCH_BUILD_DIR:-build}/quickstart-results.h5
scratch=$(mktemp -d "${TMPDIR:-/tmp}/mdbench-quickstart.XXXXXX")
trap 'rmdir "$scratch" 2>/dev/null || echo "left in place: $scratch" >&2' EXIT
cd "$scratch"
mpiexec -n "${MDBENCH_RANKS:-2}" "$mdbench" -o "$results" --force "$@"
