#!/usr/bin/env bash
# The test suite: install what is missing, build, run every test (end-to-end on tmpfs and disk, faults,
# signals, bad input, formatting, and the test bed's: 2 nodes, Slurm and CephFS with two MDS) and the
# package test; then, from one clang build with ASan and UBSan (scripts/sanitize.sh; built while the first
# tests run), the unit and MPI tests (at 1, 2 and 4 ranks), some end-to-end tests again, and the fuzz targets
# for a bounded time. MDBENCH_SANITIZE=0 leaves the clang build out and runs the unit and MPI tests in the
# first build instead.
# The test bed (scripts/testbed.sh) comes up while the project builds, unless one is up already, and goes
# down once its tests have run (only if this script brought it up). Needs root, as the test bed does.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's time, so that a slow CI says where its time went.
stage_start=$SECONDS
stage_done() {
  echo "test: $1 took $((SECONDS - stage_start)) s (total $SECONDS s)"
  stage_start=$SECONDS
}
scripts/deps.sh
stage_done "installing the packages"

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
sanitize_pid=
package_pid=
stop_background() {
  if [ -n "$sanitize_pid" ]; then kill -- "-$sanitize_pid" 2>/dev/null || true; fi
  if [ -n "$package_pid" ]; then kill -- "-$package_pid" 2>/dev/null || true; fi
  testbed_down
}
trap stop_background EXIT

# With the sanitized build (below), the unit and MPI tests and bench/ are built and run there only, under
# ASan and UBSan: built once, not twice (they were half of this build's time), and run once.
# Line tables only (-g1): backtraces keep their files and lines, and the build takes a fifth less
# (2026-12-07, src/report/report.cpp: 13.1 s against 16.2 s with -g).
if [ "${MDBENCH_SANITIZE:-1}" != 0 ]; then
  MDBENCH_DEBUG_INFO=lines MDBENCH_UNIT_TESTS=OFF MDBENCH_BENCH=OFF scripts/build.sh
else
  MDBENCH_DEBUG_INFO=lines MDBENCH_UNIT_TESTS=ON MDBENCH_BENCH=ON scripts/build.sh
fi
stage_done "the build"
if [ "$started_testbed" = yes ] && ! wait "$testbed_pid"; then
  # Its tests fail below, naming it; the rest of the suite still runs.
  echo "test: the test bed did not come up: $testbed_log says:" >&2
  tail -n 20 "$testbed_log" >&2
fi
# The sanitized build (scripts/sanitize.sh, below) compiles meanwhile at the lowest priority, on what the
# tests leave of the CPU (they wait on barriers, sleeps and the test bed): the tests keep their speed.
sanitize_build=${MDBENCH_SANITIZE_BUILD_DIR:-build-sanitize}
sanitize_log=$build/sanitized-build.log
if [ "${MDBENCH_SANITIZE:-1}" != 0 ]; then
  # Its own session, so that a failure below can stop the whole build (compilers included). A new session is
  # a scheduling group of its own where the kernel groups by session (sched_autogroup_enabled, on in
  # Debian's kernels): the group shares the CPU with the tests' as an equal, whatever its processes' nice
  # value, so the group itself gets nice 19 (/proc/self/autogroup), and the compilers only the CPU the tests
  # leave. (2026-12-07: with nice alone the compilers took 30% of the CPU beside 4 busy ranks.)
  setsid bash -c 'if [ -w /proc/self/autogroup ]; then echo 19 >/proc/self/autogroup || true; fi
    exec nice -n 19 scripts/sanitized-build.sh "$@"' sanitized-build "$sanitize_build" all >"$sanitize_log" 2>&1 &
  sanitize_pid=$!
fi
# The tests without the test bed first, then the test bed's (label testbed), one after the other: run side
# by side on 2 cores they took longer than in turn (2026-12-06: 1627 s together against 493 s + 7xx s
# apart), as MPICH's ranks busy-poll in their barriers and each side's ranks then wait for the other's.
# The tests without the test bed run on this host only: UCX (MPICH's transport) is kept to shared memory for them. At
# MPI_Init it otherwise opens every network device, and a device the test bed removes between the listing
# and the opening aborts MPI_Init ("init_worker No such device"). Tests that want another transport set
# UCX_TLS themselves.
stage_done "waiting for the test bed"
status=0
(cd "$build" && UCX_TLS=${UCX_TLS:-self,sm} ctest --output-on-failure -j 2 -LE testbed "$@") || status=$?
stage_done "the tests without the test bed"
# The install test: cmake --install's layout, the .deb (dependencies, unpacked into a fresh directory and
# run there: --version, a 2-rank workload, validate), the man page and the bash completion. It runs beside
# the test bed's tests, which leave about a third of the CPU idle while they wait on Slurm and Ceph, in a
# session of its own (stopped with the script); its ranks stay on this host, as the tests' above.
package_log=$build/package-test.log
UCX_TLS=${UCX_TLS:-self,sm} setsid scripts/package-test.sh >"$package_log" 2>&1 &
package_pid=$!
testbed_status=0
(cd "$build" && ctest --output-on-failure -L testbed "$@") || testbed_status=$?
stage_done "the test bed's tests"
testbed_down
stage_done "taking the test bed down"
package_status=0
wait "$package_pid" || package_status=$?
package_pid=
if [ "$package_status" != 0 ]; then
  echo "test: the package test failed: $package_log says:" >&2
  tail -n 30 "$package_log" >&2
fi
stage_done "waiting for the package test"
if [ "$status" != 0 ] || [ "$testbed_status" != 0 ] || [ "$package_status" != 0 ]; then
  echo "test: failed: the tests without the test bed exited $status, the test bed's $testbed_status," \
    "the package test $package_status" >&2
  exit 1
fi
if [ -n "$sanitize_pid" ]; then
  # A failed background build is built again (and its errors shown) by sanitize.sh.
  wait "$sanitize_pid" || echo "test: the sanitized build in the background failed ($sanitize_log); again:" >&2
  sanitize_pid=
  stage_done "waiting for the sanitized build"
  scripts/sanitize.sh "$sanitize_build"
  stage_done "the sanitized tests and fuzzing"
fi
