#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test (unit, MPI at 1/2/4 ranks,
# end-to-end on tmpfs and disk, formatting).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
cd "${MDBENCH_BUILD_DIR:-build}"
ctest --output-on-failure -j 2 "$@"
