#!/usr/bin/env bash
# Configures and builds mdbench into ./build (or $MDBENCH_BUILD_DIR): by default everything, with the unit
# and MPI tests and bench/. Settings, each kept by the build directory once given:
#   MDBENCH_BUILD_TYPE   CMake's build type (RelWithDebInfo)
#   MDBENCH_DEBUG_INFO   full (-g) or lines (-g1: line tables only, files and lines in backtraces; a fifth
#                        less build time)
#   MDBENCH_UNIT_TESTS   ON, or OFF to leave out the unit and MPI tests (GoogleTest)
#   MDBENCH_BENCH        ON, or OFF to leave out bench/
# A setting not given keeps what an existing build directory has (its default on the first configure), so
# that the quick start on a directory test.sh built (or the other way round) builds nothing again.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${MDBENCH_BUILD_DIR:-build}
first=$([ -e "$build/CMakeCache.txt" ] && echo no || echo yes)
args=()
given() { [ -n "${!1:-}" ] || [ "$first" = yes ]; }
if given MDBENCH_BUILD_TYPE; then args+=(-DCMAKE_BUILD_TYPE="${MDBENCH_BUILD_TYPE:-RelWithDebInfo}"); fi
if given MDBENCH_DEBUG_INFO; then
  case ${MDBENCH_DEBUG_INFO:-full} in
    full) debug=-g ;;
    lines) debug=-g1 ;;
    *) echo "build.sh: MDBENCH_DEBUG_INFO='$MDBENCH_DEBUG_INFO': full or lines" >&2; exit 2 ;;
  esac
  args+=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 $debug -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 $debug -DNDEBUG")
fi
if given MDBENCH_UNIT_TESTS; then args+=(-DMDBENCH_UNIT_TESTS="${MDBENCH_UNIT_TESTS:-ON}"); fi
if given MDBENCH_BENCH; then args+=(-DMDBENCH_BENCH="${MDBENCH_BENCH:-ON}"); fi
cmake -S . -B "$build" "${args[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)"
