#!/usr/bin/env bash
# Peak resident memory of every mdbench rank (bench/rusage.py: the rank's own ru_maxrss) against the item
# count, on tmpfs: `mdbench -u -n N` with N = 1e4 and 1e6 items per rank, plain and with random order and
# verification (-R 7 -w 64 -e 64 -X), at 1 and 2 ranks; then rank 0 against the rank count (-n 1000 at 1,
# 2, 4, 8, 16 ranks). First a baseline: `mdbench --version` (MPI and HDF5 loaded, no run) at 1 rank.
# Prints one line per run: the largest peak over the ranks and rank 0's, in MiB, and rank 0's wall time.
#   MDBENCH_BUILD_DIR=DIR bench/memory.sh [BIG_ITEMS] [DIR]     (defaults: build/, 1000000, /dev/shm)
# DIR must have room for BIG_ITEMS x 2 inodes at once (the items of one kind of both ranks).
set -euo pipefail
big=${1:-1000000}
parent=${2:-/dev/shm}
here=$(cd "$(dirname "$0")" && pwd)
build=${MDBENCH_BUILD_DIR:-$here/../build}
if [[ ! -x $build/mdbench ]]; then
  echo "memory.sh: no $build/mdbench (set MDBENCH_BUILD_DIR to a build directory)" >&2
  exit 2
fi
work=$(mktemp -d "$parent/mdbench-memory.XXXXXX")
trap 'rm -rf "$work"' EXIT
export HYDRA_LAUNCHER=${HYDRA_LAUNCHER:-fork} HYDRA_RMK=${HYDRA_RMK:-user}

report() {  # report RANKS ITEMS LABEL: one line from the rss.* files of the ranks
  cat "$work"/rss.* | awk -v r="$1" -v n="$2" -v l="$3" '
    { if ($2 > max) max = $2; if ($1 == 0) { zero = $2; wall = $3 } }
    END { printf "%-14s ranks %2d  items/rank %8d  peak RSS MiB: max %6.1f  rank 0 %6.1f  wall s %7.2f\n",
                 l, r, n, max / 1024, zero / 1024, wall }'
}

run() {  # run RANKS ITEMS LABEL MDBENCH-OPTIONS...
  local ranks=$1 items=$2 label=$3
  shift 3
  rm -f "$work"/rss.*
  mpiexec -n "$ranks" python3 "$here/rusage.py" "$work/rss" "$build/mdbench" -u -n "$items" -d "$work/t" \
    -o "$work/r.h5" --force "$@" >"$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
  rm -f "$work/r.h5"
  report "$ranks" "$items" "$label"
}

mkdir "$work/t"
rm -f "$work"/rss.*
python3 "$here/rusage.py" "$work/rss" "$build/mdbench" --version >/dev/null
report 1 0 "--version"
for ranks in 1 2; do
  for items in 10000 "$big"; do
    run "$ranks" "$items" plain
    run "$ranks" "$items" "random+verify" -R 7 -w 64 -e 64 -X
  done
done
for ranks in 1 2 4 8 16; do
  run "$ranks" 1000 "rank count"
done
