#!/usr/bin/env bash
# mdbench against mdtest 4.1 on the same command line, and mdbench's two path styles against each other:
# each round runs `mdtest ARGS`, `mdbench --path-style full ARGS` and `mdbench --path-style dirfd ARGS`
# once, the order rotating from round to round so that the machine's drift hits all three alike. ARGS is
# `-F -u -n FILES` (files) and `-D -u -n DIRS` (directories), each at every rank count (the default phases,
# the same on both: mdtest's, its directory rename included). Prints per phase the median ops/s of each side
# and the medians of the per-round ratios full / mdtest (the drop-in's promise: comparable rates) and
# dirfd / full (what the style is worth). Exit 1 if a run failed.
#   MDTEST=/path/to/ior/src/mdtest bench/mdtest_compare.sh [RANKS...] [-r ROUNDS] [-d DIR] [--files N] [--dirs N]
#     defaults: ranks 1 2, 5 rounds, /dev/shm, 200000 files and 100000 directories per rank
# mdtest is built outside the repository (hpc/ior); its rates are read from its SUMMARY table (one
# iteration: the Max column), mdbench's from its results file (`mdbench export --format csv`,
# phase_ops_per_s). Trees (one directory per rank with -u) are not compared: mdtest counts one tree however
# many ranks built one.
set -euo pipefail
ranks_list=()
rounds=5
parent=/dev/shm
files=200000
dirs=100000
while [ $# -gt 0 ]; do
  case $1 in
    -r) rounds=$2; shift 2 ;;
    -d) parent=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    --dirs) dirs=$2; shift 2 ;;
    [0-9]*) ranks_list+=("$1"); shift ;;
    *) echo "mdtest_compare.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ "${#ranks_list[@]}" -gt 0 ] || ranks_list=(1 2)
here=$(cd "$(dirname "$0")" && pwd)
mdbench=${MDBENCH:-${MDBENCH_BUILD_DIR:-$here/../build}/mdbench}
mdtest=${MDTEST:-$(command -v mdtest || true)}
[ -x "$mdtest" ] || { echo "mdtest_compare.sh: set MDTEST to an mdtest binary (hpc/ior, built elsewhere)" >&2; exit 2; }
[ -x "$mdbench" ] || { echo "mdtest_compare.sh: no mdbench at '$mdbench' (MDBENCH or MDBENCH_BUILD_DIR)" >&2; exit 2; }
export HYDRA_LAUNCHER=${HYDRA_LAUNCHER:-fork} HYDRA_RMK=${HYDRA_RMK:-user}
work=$(mktemp -d "$parent/mdtest-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Each side appends "<side> <round> <phase> <ops/s>" lines to $rates; a failed run sets status.
rates=$work/rates
status=0
mdtest_side() {  # mdtest_side RANKS ROUND ARGS...
  local ranks=$1 round=$2 log=$work/mdtest.log
  shift 2
  if ! mpiexec -n "$ranks" "$mdtest" "$@" -d "$work/mdtest" </dev/null >"$log" 2>&1; then
    echo "round $round: mdtest $* failed:" >&2; tail -n 5 "$log" >&2; status=1; return
  fi
  rm -rf "$work/mdtest"
  # SUMMARY rate (in ops/sec): "   File creation   max min mean stddev"
  awk -v r="$round" '
    /^SUMMARY rate/ { on = 1; next }
    on && NF == 0 { on = 0 }
    on && $1 ~ /^(File|Directory)$/ && $2 ~ /^(creation|stat|read|rename|removal)$/ {
      kind = ($1 == "File") ? "file" : "dir"
      op = ($2 == "creation") ? "create" : ($2 == "removal") ? "remove" : $2
      print "mdtest", r, kind "-" op, $3
    }' "$log" >>"$rates"
}
mdbench_side() {  # mdbench_side STYLE RANKS ROUND ARGS...
  local style=$1 ranks=$2 round=$3 log=$work/mdbench.log
  shift 3
  if ! mpiexec -n "$ranks" "$mdbench" --path-style "$style" "$@" -d "$work/mdbench" -o "$work/r.h5" --force \
    </dev/null >"$log" 2>&1; then
    echo "round $round: mdbench --path-style $style $* failed:" >&2; tail -n 5 "$log" >&2; status=1; return
  fi
  if ! "$mdbench" export "$work/r.h5" --format csv | awk -F, -v s="$style" -v r="$round" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["phase"] ~ /^(dir|file)-(create|stat|read|rename|remove)$/ && !seen[$col["phase"]]++ {
      print s, r, $col["phase"], $col["phase_ops_per_s"]
    }' >>"$rates"; then
    echo "round $round: mdbench export $work/r.h5 failed" >&2; status=1
  fi
}

for workload in "-F -u -n $files" "-D -u -n $dirs"; do
  read -r -a args <<<"$workload"
  for ranks in "${ranks_list[@]}"; do
    : >"$rates"
    for round in $(seq "$rounds"); do
      sides=(mdtest full dirfd)
      for k in 0 1 2; do
        side=${sides[$(((round + k) % 3))]}
        if [ "$side" = mdtest ]; then
          mdtest_side "$ranks" "$round" "${args[@]}"
        else
          mdbench_side "$side" "$ranks" "$round" "${args[@]}"
        fi
      done
    done
    python3 - "$rates" "$ranks" "$workload" "$rounds" <<'PY' || status=1
import statistics, sys
path, ranks, workload, rounds = sys.argv[1:5]
rate = {}
for line in open(path):
    side, rnd, phase, value = line.split()
    rate[(side, int(rnd), phase)] = float(value)
print(f"\n{workload}, ranks={ranks}, rounds={rounds} (ops/s: medians; ratios: medians of the per-round ratios)")
print(f"{'phase':<12} {'mdtest':>10} {'full':>10} {'dirfd':>10} {'full/mdtest':>12} {'dirfd/full':>11}")
ok = True
for phase in ["dir-create", "dir-stat", "dir-rename", "dir-remove", "file-create", "file-stat", "file-read",
              "file-remove"]:
    rounds_with = sorted(r for (s, r, p) in rate if s == "mdtest" and p == phase
                         and ("full", r, p) in rate and ("dirfd", r, p) in rate)
    if not rounds_with:
        continue
    m = [rate[("mdtest", r, phase)] for r in rounds_with]
    f = [rate[("full", r, phase)] for r in rounds_with]
    d = [rate[("dirfd", r, phase)] for r in rounds_with]
    if min(m) <= 0 or min(f) <= 0:
        print(f"{phase:<12} a rate of 0 ops/s: not compared", file=sys.stderr)
        ok = False
        continue
    print(f"{phase:<12} {statistics.median(m):>10.0f} {statistics.median(f):>10.0f} {statistics.median(d):>10.0f} "
          f"{statistics.median([x / y for x, y in zip(f, m)]):>12.3f} "
          f"{statistics.median([x / y for x, y in zip(d, f)]):>11.3f}")
sys.exit(0 if ok else 1)
PY
  done
done
exit "$status"
