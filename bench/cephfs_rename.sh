#!/usr/bin/env bash
# Directory rename on the test bed's CephFS (issue 30 item 14): mdtest 4.1 and mdbench (--output mdtest, the
# same options) in the same layout, interleaved: 2 ranks on one node (one ceph-fuse client) and on two nodes
# (two clients), one shared directory and -u, ROUNDS rounds whose order alternates. Each run is
# `-D -n ITEMS` (directory create, stat, rename, remove: mdtest's default directory phases) plus the layout
# option; the "Directory rename" row (and "Directory creation" for scale) of each SUMMARY is printed.
#   MDTEST=/opt/ior-src/src/mdtest bench/cephfs_rename.sh [-r ROUNDS] [-n ITEMS]     (defaults: 2, 50)
# The test bed must be up (scripts/testbed.sh up). Exit 1 if a run failed.
set -euo pipefail
rounds=2
items=50
while [ $# -gt 0 ]; do
  case $1 in
    -r) rounds=$2; shift 2 ;;
    -n) items=$2; shift 2 ;;
    *) echo "cephfs_rename.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "cephfs_rename.sh: -r: '$rounds' is not a positive count" >&2; exit 2; }
[[ $items =~ ^[1-9][0-9]*$ ]] || { echo "cephfs_rename.sh: -n: '$items' is not a positive count" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
testbed=$here/../scripts/testbed.sh
mdbench=${MDBENCH:-${MDBENCH_BUILD_DIR:-$here/../build}/mdbench}
mdtest=${MDTEST:-$(command -v mdtest || true)}
[ -x "$mdtest" ] || { echo "cephfs_rename.sh: set MDTEST to an mdtest binary (hpc/ior, built elsewhere)" >&2; exit 2; }
[ -x "$mdbench" ] || { echo "cephfs_rename.sh: no mdbench at '$mdbench' (MDBENCH or MDBENCH_BUILD_DIR)" >&2; exit 2; }
"$testbed" status >/dev/null 2>&1 || { echo "cephfs_rename.sh: the test bed is not up (scripts/testbed.sh up)" >&2; exit 1; }
eval "$("$testbed" env)"
unset HYDRA_LAUNCHER HYDRA_RMK HYDRA_LAUNCHER_EXEC HYDRA_HOST_FILE
work=$(mktemp -d /tmp/cephfs-rename.XXXXXX)
fs=$(mktemp -d "$MDBENCH_TESTBED_CEPHFS/cephfs-rename.XXXXXX")
trap 'rm -rf "$work" "$fs"' EXIT
status=0

run() {  # run TOOL HOSTS LAYOUT ROUND: one run, one output line
  local tool=$1 hosts=$2 layout=$3 round=$4 log=$work/log cmd
  local opt=()
  [ "$layout" = "-u" ] && opt=(-u)
  if [ "$tool" = mdtest ]; then
    cmd=("$mdtest" -D -n "$items" "${opt[@]}" -d "$fs/mdtest")
  else
    cmd=("$mdbench" --output mdtest -o "$work/r.h5" --force -D -n "$items" "${opt[@]}" -d "$fs/mdbench")
  fi
  if ! $MDBENCH_TESTBED_MPIEXEC -hosts "$hosts" -n 2 "${cmd[@]}" </dev/null >"$log" 2>&1; then
    echo "round $round: $tool on $hosts $layout failed:" >&2; tail -n 5 "$log" >&2; status=1; return
  fi
  rm -rf "$fs/mdtest" "$fs/mdbench"
  awk -v t="$tool" -v h="$hosts" -v l="$layout" -v r="$round" '
    /Directory creation/ && !c { c = $3 }
    /Directory rename/ && !n { n = $3 }
    END { printf "%-8s %-12s %-7s round %s  create %9.1f/s  rename %9.1f/s\n", t, h, l, r, c, n }' "$log"
}

for ((round = 1; round <= rounds; round++)); do
  for hosts in node1 node1,node2; do
    for layout in shared -u; do
      if ((round % 2)); then order="mdtest mdbench"; else order="mdbench mdtest"; fi
      for tool in $order; do run "$tool" "$hosts" "$layout" "$round"; done
    done
  done
done
exit $status
