#!/usr/bin/env bash
# The test suite: install what is missing, build, run every test (unit, MPI at 1/2/4 ranks, end-to-end on
# tmpfs and disk, faults, signals, bad input, formatting). MDBENCH_SANITIZE=1 then also runs the suite built
# with ASan/UBSan (scripts/sanitize.sh) and the fuzz targets for a bounded time (scripts/fuzz.sh): about 15
# more minutes on 2 cores, which CI's 20-minute budget does not hold yet.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
(cd "${MDBENCH_BUILD_DIR:-build}" && ctest --output-on-failure -j 2 "$@")
if [ -n "${MDBENCH_SANITIZE:-}" ]; then
  scripts/sanitize.sh
  scripts/fuzz.sh
fi
