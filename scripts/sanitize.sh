#!/usr/bin/env bash
# One clang build serves the sanitizer suite and the fuzzers: the whole project and its tests built with
# AddressSanitizer and UndefinedBehaviorSanitizer, plus the libFuzzer targets, into build-sanitize (or $1).
# Runs the unit and MPI tests and a set of end-to-end scripts there (any memory error, leak or undefined
# behaviour fails its test), then each fuzz target for a bounded time (scripts/fuzz.sh on the same build).
# Leaks inside MPICH's and HDF5's own libraries are suppressed by scripts/lsan.supp.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${1:-build-sanitize}

started=$SECONDS
scripts/sanitized-build.sh "$build" all
echo "sanitize: built in $((SECONDS - started)) s"

# Inherited by every test and, through mpiexec (Hydra passes the whole environment on), by every rank.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# What runs here: every unit and MPI test, and the end-to-end scripts that drive the most C++ code per second
# (the full workload with its results file and console, mdtest's console, the steady state). The other end-to-end scripts ran in the normal build just before: they add minutes
# under the sanitizers and little code they have not reached (bad usage is fuzzed below, on this build);
# the test bed's tests (label testbed) need its daemons, and lint and layers read the sources, not the build.
e2e_here=(e2e_basic.shm e2e_mdtest_run e2e_steady)
echo "sanitize: end-to-end scripts run here: ${e2e_here[*]}"
# One ctest run for all of them, so that two always run at once: every test without the label testbed but
# lint, layers and the end-to-end scripts, and those named above, by their exact names.
mapfile -t names < <(cd "$build" && ctest -N -LE testbed | sed -n 's/^ *Test *#[0-9]*: //p' |
  grep -vE '^(lint|layers|e2e_.*)$')
names+=("${e2e_here[@]}")
regex="^($(printf '%s|' "${names[@]}" | sed 's/[.]/[.]/g; s/|$//'))\$"

started=$SECONDS
(cd "$build" && ctest -j2 --output-on-failure -LE testbed -R "$regex")
echo "sanitize: ${#names[@]} tests passed in $((SECONDS - started)) s"

# Each fuzz target for about 6 s of inputs here (CI time); scripts/fuzz.sh alone defaults to 15.
MDBENCH_FUZZ_SECONDS=${MDBENCH_FUZZ_SECONDS:-6} scripts/fuzz.sh "$build"
