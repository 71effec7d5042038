#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test (unit, MPI at 1/2/4 ranks,
# end-to-end on tmpfs and disk, formatting), then the same suite under ASan/UBSan (scripts/sanitize.sh) and
# the fuzz targets for a bounded time (scripts/fuzz.sh). MDBENCH_QUICK_TEST=1 skips those two.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
(cd "${MDBENCH_BUILD_DIR:-build}" && ctest --output-on-failure -j 2 "$@")
if [ -z "${MDBENCH_QUICK_TEST:-}" ]; then
  scripts/sanitize.sh
  scripts/fuzz.sh
fi
