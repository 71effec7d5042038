#!/usr/bin/env bash
# mdbench against the bare syscall loop (bench/ref_loop.cpp), interleaved A B A B so that the machine's
# drift hits both alike. Prints, per phase, the median ops/s of each and the median of the pair ratios.
#   bench/compare.sh [RANKS] [ITEMS] [PAIRS] [DIR]     (defaults: 1 200000 5 /dev/shm)
set -euo pipefail
ranks=${1:-1}
items=${2:-200000}
pairs=${3:-5}
parent=${4:-/dev/shm}
build=${MDBENCH_BUILD_DIR:-$(dirname "$0")/../build}
work=$(mktemp -d "$parent/mdbench-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT
results=$work/results
mkdir "$work/t"
for pair in $(seq "$pairs"); do
  mpiexec -n "$ranks" "$build/mdbench" -F -u -n "$items" -d "$work/t" -o "$work/mdbench.$pair.h5" |
    awk -v p="$pair" '$1 ~ /^file-/ && !seen[$1]++ { print "mdbench", p, $1, $3 }' >>"$results"
  mpiexec -n "$ranks" "$build/bench/mdbench_ref" "$work/t" "$items" |
    awk -v p="$pair" '{ print "ref", p, $1, $2 }' >>"$results"
done
python3 - "$results" "$ranks" "$items" "$pairs" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
rate = {(tool, int(pair), phase): float(v) for tool, pair, phase, v in rows}
print(f"ranks={sys.argv[2]} items/rank={sys.argv[3]} pairs={sys.argv[4]} (ops/s, medians)")
print(f"{'phase':<12} {'mdbench':>12} {'reference':>12} {'ratio':>7}")
for phase in ["file-create", "file-stat", "file-read", "file-remove"]:
    pairs = sorted({p for (_, p, ph) in rate if ph == phase})
    md = [rate[("mdbench", p, phase)] for p in pairs]
    ref = [rate[("ref", p, phase)] for p in pairs]
    ratio = statistics.median(m / r for m, r in zip(md, ref))
    print(f"{phase:<12} {statistics.median(md):>12.0f} {statistics.median(ref):>12.0f} {ratio:>7.3f}")
PY
