#!/usr/bin/env bash
# The test suite: install what is missing, build, run every test (unit, MPI at 1/2/4 ranks, end-to-end on
# tmpfs and disk, faults, signals, bad input, formatting, and the test bed's: 2 nodes, Slurm and CephFS with
# two MDS) and the package test; then the unit, MPI and some end-to-end tests again built with ASan and
# UBSan, and the fuzz targets for a bounded time, from one clang build (scripts/sanitize.sh; about 8 more
# minutes on 2 cores). MDBENCH_SANITIZE=0 leaves that second part out, for a quicker local run.
# The test bed (scripts/testbed.sh) comes up while the project builds, unless one is up already, and goes
# down once its tests have run (only if this script brought it up). Needs root, as the test bed does.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh

build=${MDBENCH_BUILD_DIR:-build}
mkdir -p "$build"
testbed_log=$build/testbed-up.log
started_testbed=no
if ! scripts/testbed.sh status >/dev/null 2>&1; then
  started_testbed=yes
  scripts/testbed.sh up >"$testbed_log" 2>&1 &
  testbed_pid=$!
fi
testbed_down() {
  if [ "$started_testbed" = yes ]; then
    started_testbed=no
    wait "$testbed_pid" 2>/dev/null || true  # an `up` still under way finishes first (the build failed)
    scripts/testbed.sh down >>"$testbed_log" 2>&1 || echo "test: testbed.sh down failed: see $testbed_log" >&2
  fi
}
trap testbed_down EXIT

scripts/build.sh
if [ "$started_testbed" = yes ] && ! wait "$testbed_pid"; then
  # Its tests fail below, naming it; the rest of the suite still runs.
  echo "test: the test bed did not come up: $testbed_log says:" >&2
  tail -n 20 "$testbed_log" >&2
fi
(cd "$build" && ctest --output-on-failure -j 2 "$@")
testbed_down
# The install test: cmake --install's layout, the .deb (dependencies, unpacked into a fresh directory and
# run there: --version, a 2-rank workload, validate), the man page and the bash completion.
scripts/package-test.sh
if [ "${MDBENCH_SANITIZE:-1}" != 0 ]; then
  scripts/sanitize.sh
fi
