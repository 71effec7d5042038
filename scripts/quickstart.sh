#!/usr/bin/env bash
# Quick start: install what is missing, build, and run the default benchmark with 2 ranks in a temporary
# directory that is removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
mdbench=$PWD/${MDBENCH_BUILD_DIR:-build}/mdbench
scratch=$(mktemp -d "${TMPDIR:-/tmp}/mdbench-quickstart.XXXXXX")
trap 'rmdir "$scratch" 2>/dev/null || echo "left in place: $scratch" >&2' EXIT
cd "$scratch"
mpiexec -n "${MDBENCH_RANKS:-2}" "$mdbench" "$@"
