#!/usr/bin/env bash
# mdbench against the bare syscall loop (bench/ref_loop.cpp), interleaved A B A B so that the machine's
# drift hits both alike: `mdbench -u -n ITEMS` (directories, then files, a directory per rank; latency
# histograms on, as always) against `mdbench_ref DIR ITEMS` (the same system calls, no harness). For each
# rank count, prints per phase the median ops/s of each side, the median of the pair ratios
# mdbench / reference and their interquartile range. Exit 1 if any operation failed on either side.
#   bench/compare.sh [RANKS...] [-n ITEMS] [-p PAIRS] [-d DIR] [--self]
#     defaults: ranks 1 2, 200000 items per rank, 11 pairs, /dev/shm
#     --self: the reference against itself (A A A A): the noise floor of the method on this machine
set -euo pipefail
ranks_list=()
items=200000
pairs=11
parent=/dev/shm
self=0
while [ $# -gt 0 ]; do
  case $1 in
    -n) items=$2; shift 2 ;;
    -p) pairs=$2; shift 2 ;;
    -d) parent=$2; shift 2 ;;
    --self) self=1; shift ;;
    [0-9]*) ranks_list+=("$1"); shift ;;
    *) echo "compare.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ "${#ranks_list[@]}" -gt 0 ] || ranks_list=(1 2)
here=$(cd "$(dirname "$0")" && pwd)
build=${MDBENCH_BUILD_DIR:-$here/../build}
export HYDRA_LAUNCHER=${HYDRA_LAUNCHER:-fork} HYDRA_RMK=${HYDRA_RMK:-user}
work=$(mktemp -d "$parent/mdbench-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/t"

# Each side appends "<side> <pair> <phase> <ops/s> <failed>" lines.
mdbench_side() {  # mdbench_side RANKS PAIR
  mpiexec -n "$1" "$build/mdbench" -u -n "$items" -d "$work/t" -o "$work/mdbench.h5" --force |
    awk -v p="$2" '$1 == "done:" && $4 ~ /^(dir|file)-/ { print "A", p, $4, $7, $11 }'
}
reference_side() {  # reference_side RANKS PAIR SIDE
  mpiexec -n "$1" "$build/bench/mdbench_ref" "$work/t" "$items" | awk -v p="$2" -v s="$3" '{ print s, p, $1, $2, $4 }'
}

status=0
for ranks in "${ranks_list[@]}"; do
  results=$work/results.$ranks
  : >"$results"
  for pair in $(seq "$pairs"); do
    if [ "$self" -eq 1 ]; then reference_side "$ranks" "$pair" A >>"$results"; else mdbench_side "$ranks" "$pair" >>"$results"; fi
    reference_side "$ranks" "$pair" B >>"$results"
  done
  python3 - "$results" "$ranks" "$items" "$pairs" "$self" <<'PY' || status=1
import statistics, sys
path, ranks, items, pairs, self_test = sys.argv[1:6]
rows = [line.split() for line in open(path)]
rate = {(side, int(pair), phase): float(v) for side, pair, phase, v, _ in rows}
failed = [row for row in rows if int(row[4]) != 0]
for side, pair, phase, _, n in failed:
    print(f"side {side} pair {pair}: {phase}: {n} operations failed", file=sys.stderr)
a_name = "reference" if self_test == "1" else "mdbench"
print(f"\nranks={ranks} items/rank={items} pairs={pairs}: {a_name} / reference (ops/s: medians)")
print(f"{'phase':<12} {a_name:>12} {'reference':>12} {'ratio':>7}   {'IQR of the pair ratios':>22}")
for phase in ["dir-create", "dir-stat", "dir-remove", "file-create", "file-stat", "file-read", "file-remove"]:
    numbers = sorted({p for (_, p, ph) in rate if ph == phase})
    a = [rate[("A", p, phase)] for p in numbers]
    b = [rate[("B", p, phase)] for p in numbers]
    ratios = [x / y for x, y in zip(a, b)]
    q1, _, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (ratios[0],) * 3
    print(f"{phase:<12} {statistics.median(a):>12.0f} {statistics.median(b):>12.0f} "
          f"{statistics.median(ratios):>7.3f}   {q1:>10.3f} - {q3:.3f}")
sys.exit(1 if failed else 0)
PY
done
exit "$status"
