#!/usr/bin/env bash
# mdbench and mdtest 4.1 on the test bed's CephFS (scripts/testbed.sh: nodes with their own ceph-fuse
# clients, two active MDS), launched across the nodes by the test bed's mpiexec. Two comparisons, each over
# ROUNDS rounds whose order alternates so that the machine's drift hits both sides alike:
#   1. mdtest ARGS against mdbench --path-style full ARGS (ARGS: -F -u -n FILES -C -T -E -r), 2 nodes x 1 rank and
#      2 nodes x 2 ranks: per phase the median ops/s of each side and the median of the per-round ratios.
#   2. mdbench alone, 2 ranks: both on node1 against one on each node (one client against two), and, on
#      2 nodes, no shift against -N 1 (each rank stats, reads and removes what the rank on the other node
#      created, through the other node's client): create, stat and remove rates, medians and ratios.
#   MDTEST=/tmp/ior/src/mdtest bench/cephfs_compare.sh [-r ROUNDS] [--files N]     (defaults: 3, 500)
# The test bed must be up (as root: scripts/testbed.sh up). mdtest is built outside the repository (hpc/ior,
# see "mdbench against mdtest 4.1" in bench/README.md); its rates are read from its SUMMARY table, mdbench's
# from its results file (mdbench export, phase_ops_per_s). Exit 1 if a run failed.
set -euo pipefail
rounds=3
files=500
while [ $# -gt 0 ]; do
  case $1 in
    -r) rounds=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    *) echo "cephfs_compare.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "cephfs_compare.sh: -r: '$rounds' is not a positive count" >&2; exit 2; }
[[ $files =~ ^[1-9][0-9]*$ ]] || { echo "cephfs_compare.sh: --files: '$files' is not a positive count" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
testbed=$here/../scripts/testbed.sh
mdbench=${MDBENCH:-${MDBENCH_BUILD_DIR:-$here/../build}/mdbench}
mdtest=${MDTEST:-$(command -v mdtest || true)}
[ -x "$mdtest" ] || { echo "cephfs_compare.sh: set MDTEST to an mdtest binary (hpc/ior, built elsewhere)" >&2; exit 2; }
[ -x "$mdbench" ] || { echo "cephfs_compare.sh: no mdbench at '$mdbench' (MDBENCH or MDBENCH_BUILD_DIR)" >&2; exit 2; }
"$testbed" status >/dev/null 2>&1 || { echo "cephfs_compare.sh: the test bed is not up (scripts/testbed.sh up)" >&2; exit 1; }
eval "$("$testbed" env)"
unset HYDRA_LAUNCHER HYDRA_RMK HYDRA_LAUNCHER_EXEC HYDRA_HOST_FILE
work=$(mktemp -d /tmp/cephfs-compare.XXXXXX)
fs=$(mktemp -d "$MDBENCH_TESTBED_CEPHFS/cephfs-compare.XXXXXX")
trap 'rm -rf "$work" "$fs"' EXIT
rates=$work/rates
status=0

# Each side appends "<side> <round> <phase> <ops/s>" lines to $rates; a failed run sets status.
mdtest_side() {  # mdtest_side HOSTS RANKS ROUND ARGS...
  local hosts=$1 ranks=$2 round=$3 log=$work/mdtest.log
  shift 3
  if ! $MDBENCH_TESTBED_MPIEXEC -hosts "$hosts" -n "$ranks" "$mdtest" "$@" -d "$fs/mdtest" </dev/null >"$log" 2>&1; then
    echo "round $round: mdtest $* failed:" >&2; tail -n 5 "$log" >&2; status=1; return
  fi
  rm -rf "$fs/mdtest"
  awk -v r="$round" '
    /^SUMMARY rate/ { on = 1; next }
    on && NF == 0 { on = 0 }
    on && $1 ~ /^(File|Directory)$/ && $2 ~ /^(creation|stat|read|removal)$/ {
      kind = ($1 == "File") ? "file" : "dir"
      op = ($2 == "creation") ? "create" : ($2 == "removal") ? "remove" : $2
      print "mdtest", r, kind "-" op, $3
    }' "$log" >>"$rates"
}
mdbench_side() {  # mdbench_side SIDE HOSTS RANKS ROUND ARGS...
  local side=$1 hosts=$2 ranks=$3 round=$4 log=$work/mdbench.log
  shift 4
  if ! $MDBENCH_TESTBED_MPIEXEC -hosts "$hosts" -n "$ranks" "$mdbench" "$@" -d "$fs/mdbench" -o "$work/r.h5" \
    --force </dev/null >"$log" 2>&1; then
    echo "round $round: mdbench $* failed:" >&2; tail -n 5 "$log" >&2; status=1; return
  fi
  "$mdbench" export "$work/r.h5" --format csv | awk -F, -v s="$side" -v r="$round" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["phase"] ~ /^(dir|file)-(create|stat|read|remove)$/ && !seen[$col["phase"]]++ {
      print s, r, $col["phase"], $col["phase_ops_per_s"]
    }' >>"$rates" || { echo "round $round: mdbench export failed" >&2; status=1; }
}
# summary TITLE A B: per phase the medians of sides A and B and the median of the per-round ratios B / A.
summary() {
  /usr/bin/python3 - "$rates" "$@" <<'PY' || status=1
import statistics, sys
path, title, a, b = sys.argv[1:5]
rate = {}
for line in open(path):
    side, rnd, phase, value = line.split()
    rate[(side, int(rnd), phase)] = float(value)
print(f"\n{title} (ops/s: medians over rounds; ratio: median, min and max of the per-round ratios)")
print(f"{'phase':<12} {a:>14} {b:>14} {b + '/' + a:>20} {'min':>7} {'max':>7}")
for phase in ["file-create", "file-stat", "file-read", "file-remove"]:
    rounds = sorted(r for (s, r, p) in rate if s == a and p == phase and (b, r, p) in rate)
    x = [rate[(a, r, phase)] for r in rounds]
    y = [rate[(b, r, phase)] for r in rounds]
    if not rounds or min(x) <= 0:
        continue
    ratios = [v / u for u, v in zip(x, y)]
    print(f"{phase:<12} {statistics.median(x):>14.0f} {statistics.median(y):>14.0f} "
          f"{statistics.median(ratios):>20.3f} {min(ratios):>7.3f} {max(ratios):>7.3f}")
PY
}

args=(-F -u -n "$files" -C -T -E -r)  # no rename: mdtest 4.1 renames only with -U
echo "mdtest: $mdtest; mdbench: $mdbench; $rounds rounds, ${args[*]}, CephFS at $MDBENCH_TESTBED_CEPHFS"
for layout in "node1,node2 2" "node1:2,node2:2 4"; do
  read -r hosts ranks <<<"$layout"
  : >"$rates"
  for round in $(seq "$rounds"); do
    if [ $((round % 2)) = 1 ]; then
      mdtest_side "$hosts" "$ranks" "$round" "${args[@]}"
      mdbench_side full "$hosts" "$ranks" "$round" --path-style full "${args[@]}"
    else
      mdbench_side full "$hosts" "$ranks" "$round" --path-style full "${args[@]}"
      mdtest_side "$hosts" "$ranks" "$round" "${args[@]}"
    fi
  done
  summary "mdtest against mdbench --path-style full, ${args[*]}, $ranks ranks on -hosts $hosts" mdtest full
done

: >"$rates"
for round in $(seq "$rounds"); do
  sides=("1node node1:2" "2nodes node1,node2" "shift node1,node2 -N 1")
  for k in 0 1 2; do
    read -r side hosts extra <<<"${sides[$(((round + k) % 3))]}"
    read -r -a more <<<"${extra:-}"
    mdbench_side "$side" "$hosts" 2 "$round" "${args[@]}" "${more[@]}"
  done
done
summary "mdbench, 2 ranks, ${args[*]}: both on node1 against one on each node" 1node 2nodes
summary "mdbench, 2 ranks, one on each node, ${args[*]}: no shift against -N 1" 2nodes shift
exit "$status"
