#!/usr/bin/env bash
# -a CEPHFS (libcephfs) against mdtest 4.1's -a CEPHFS, and both against -a POSIX through the nodes' ceph-fuse
# mounts, on the test bed (issue 31 §3). Each round runs the four (mdtest and mdbench, CEPHFS and POSIX) with
# the same `-F -u -n FILES` once, the order rotating from round to round; mdbench with --output mdtest, so
# that one parser reads both SUMMARY tables (the Max column of one iteration). Prints per phase and layout
# the median ops/s of each and the medians of the per-round ratios mdbench/mdtest (per API) and
# libcephfs/ceph-fuse (per tool). Layouts: 2 ranks on one node, and one rank on each of two nodes.
#   MDTEST=/path/to/mdtest bench/cephfs_api_compare.sh [-r ROUNDS] [--files N]     (defaults: 5, 1000)
# The test bed must be up (scripts/testbed.sh up); mdtest built outside the repository with CEPHFS
# (hpc/ior: ./configure --with-cephfs CPPFLAGS="-include sys/time.h"). Exit 1 if a run failed.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=5 files=1000
while [ $# -gt 0 ]; do
  case $1 in
    -r) rounds=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    *) echo "usage: MDTEST=... $0 [-r ROUNDS] [--files N]" >&2; exit 2 ;;
  esac
done
mdtest=${MDTEST:?set MDTEST to an mdtest binary built with CEPHFS}
mdbench=$PWD/build/mdbench
eval "$(scripts/testbed.sh env)"
read -r node_a _ <<<"$MDBENCH_TESTBED_NODES"
work=$(mktemp -d "$MDBENCH_TESTBED_CEPHFS/apicmp.XXXXXX")
rates=$(mktemp)
trap 'rm -rf "$work" "$rates"' EXIT
cephfs=(-a CEPHFS "--cephfs.user=$MDBENCH_TESTBED_CEPHFS_USER" "--cephfs.conf=$CEPH_CONF"
  "--cephfs.prefix=$MDBENCH_TESTBED_CEPHFS")
status=0

one() {  # one LAYOUT ROUND TOOL API: a run; appends "LAYOUT TOOL API PHASE RATE" lines to $rates
  local layout=$1 round=$2 tool=$3 api=$4 dir launch=() args=() out
  dir=$work/$layout.$round.$tool.$api
  mkdir "$dir"
  if [ "$layout" = 1node ]; then launch=(-n 2 -hosts "$node_a"); else launch=(-n 2 -ppn 1); fi
  [ "$api" = CEPHFS ] && args=("${cephfs[@]}")
  if [ "$tool" = mdtest ]; then
    out=$(scripts/testbed.sh mpiexec "${launch[@]}" "$mdtest" "${args[@]}" -F -u -n "$files" -d "$dir" 2>&1) ||
      { echo "mdtest $layout $api failed: $out" >&2; status=1; }
  else
    out=$(scripts/testbed.sh mpiexec "${launch[@]}" "$mdbench" "${args[@]}" -F -u -n "$files" -d "$dir" \
      --output mdtest -o "$work/$layout.$round.$api.h5" 2>/dev/null) ||
      { echo "mdbench $layout $api failed: $out" >&2; status=1; }
  fi
  rmdir "$dir" 2>/dev/null || true
  awk -v l="$layout" -v t="$tool" -v a="$api" '
    /SUMMARY rate/ { on = 1 }
    on && /File creation/ { print l, t, a, "file-create", $4 }
    on && /File stat/ { print l, t, a, "file-stat", $4 }
    on && /File read/ { print l, t, a, "file-read", $4 }
    on && /File removal/ { print l, t, a, "file-remove", $4; on = 0 }' <<<"$out" >>"$rates"
}

runs=("mdtest POSIX" "mdbench POSIX" "mdtest CEPHFS" "mdbench CEPHFS")
for layout in 1node 2nodes; do
  for ((r = 0; r < rounds; r++)); do
    for ((k = 0; k < ${#runs[@]}; k++)); do
      # shellcheck disable=SC2086
      one "$layout" "$r" ${runs[$(((k + r) % ${#runs[@]}))]}
    done
  done
done

python3 - "$rates" "$files" "$rounds" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    layout, tool, api, phase, rate = line.split()
    rows[(layout, tool, api, phase)].append(float(rate))
med = lambda v: statistics.median(v) if v else float("nan")
def ratio(a, b):
    return med([x / y for x, y in zip(a, b) if y > 0])
for layout in ("1node", "2nodes"):
    print(f"\n-F -u -n {sys.argv[2]}, 2 ranks ({'one node' if layout == '1node' else 'one per node'}), "
          f"{sys.argv[3]} rounds: median ops/s; ratios: medians of the per-round ratios")
    print(f"{'phase':12} {'mdtest fuse':>12} {'mdbench fuse':>12} {'mdtest lib':>11} {'mdbench lib':>11}"
          f" {'mdb/mdt fuse':>12} {'mdb/mdt lib':>11} {'lib/fuse mdt':>12} {'lib/fuse mdb':>12}")
    for phase in ("file-create", "file-stat", "file-read", "file-remove"):
        g = lambda t, a: rows[(layout, t, a, phase)]
        print(f"{phase:12} {med(g('mdtest','POSIX')):12.0f} {med(g('mdbench','POSIX')):12.0f}"
              f" {med(g('mdtest','CEPHFS')):11.0f} {med(g('mdbench','CEPHFS')):11.0f}"
              f" {ratio(g('mdbench','POSIX'), g('mdtest','POSIX')):12.3f}"
              f" {ratio(g('mdbench','CEPHFS'), g('mdtest','CEPHFS')):11.3f}"
              f" {ratio(g('mdtest','CEPHFS'), g('mdtest','POSIX')):12.3f}"
              f" {ratio(g('mdbench','CEPHFS'), g('mdbench','POSIX')):12.3f}")
PY
exit "$status"
