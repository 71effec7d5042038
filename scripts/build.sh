#!/usr/bin/env bash
# Configures and builds mdbench into ./build (or $MDBENCH_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${MDBENCH_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE="${MDBENCH_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
cmake --build "$build" -j "$(nproc)"
