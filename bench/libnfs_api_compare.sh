#!/usr/bin/env bash
# -a LIBNFS against mdtest 4.1's -a LIBNFS on the test bed's NFS-Ganesha gateway (issue 32 §4). Each round runs
# the two with the same `-F -u -n FILES` once per export and version (the CephFS export over v4, the local
# directory export, each over v4 and v3), the order alternating from round to round; mdbench with --output mdtest,
# so that one parser reads both SUMMARY tables (the Max column of one iteration). Prints per export and
# phase the median ops/s of each and the median of the per-round ratios mdbench/mdtest. 2 ranks on one node.
#   MDTEST=/path/to/mdtest bench/libnfs_api_compare.sh [-r ROUNDS] [--files N]     (defaults: 5, 1000)
# MDBENCH=/path/to/mdbench compares another build (default: build/mdbench).
# The test bed must be up (scripts/testbed.sh up); mdtest built outside the repository with libnfs
# (hpc/ior: ./configure --with-libnfs). Exit 1 if a run failed.
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
mdtest=${MDTEST:?set MDTEST to an mdtest binary built with libnfs}
mdbench=${MDBENCH:-$PWD/build/mdbench}
eval "$(scripts/testbed.sh env)"
read -r node_a _ <<<"$MDBENCH_TESTBED_NODES"
rates=$(mktemp)
name=nfscmp.$$
trap 'rm -rf "$rates" "$MDBENCH_TESTBED_CEPHFS/$name" "$MDBENCH_TESTBED_NFS_VFS_DIR/$name"' EXIT
mkdir -m 777 "$MDBENCH_TESTBED_CEPHFS/$name" "$MDBENCH_TESTBED_NFS_VFS_DIR/$name"
status=0

one() {  # one EXPORT URL ROUND TOOL: a run; appends "EXPORT TOOL PHASE RATE" lines to $rates
  local export=$1 url=$2 round=$3 tool=$4 dir out
  dir=/$name/$round.$tool
  if [ "$tool" = mdtest ]; then
    out=$(scripts/testbed.sh mpiexec -n 2 -hosts "$node_a" "$mdtest" -a LIBNFS "--libnfs.url=$url" -F -u \
      -n "$files" -d "$dir" 2>&1) || { echo "mdtest $export failed: $out" >&2; status=1; }
  else
    out=$(scripts/testbed.sh mpiexec -n 2 -hosts "$node_a" "$mdbench" -a LIBNFS "--libnfs.url=$url" -F -u \
      -n "$files" -d "$dir" --output mdtest -o "$(dirname "$rates")/$name.$round.h5" 2>/dev/null) ||
      { echo "mdbench $export failed: $out" >&2; status=1; }
    rm -f "$(dirname "$rates")/$name.$round.h5"
  fi
  awk -v e="$export" -v t="$tool" '
    /SUMMARY rate/ { on = 1 }
    on && /File creation/ { print e, t, "file-create", $4 }
    on && /File stat/ { print e, t, "file-stat", $4 }
    on && /File read/ { print e, t, "file-read", $4 }
    on && /File removal/ { print e, t, "file-remove", $4; on = 0 }' <<<"$out" >>"$rates"
}

exports=("cephfs-v4 $MDBENCH_TESTBED_NFS" "cephfs-v3 $MDBENCH_TESTBED_NFS_V3" "vfs-v4 $MDBENCH_TESTBED_NFS_VFS"
  "vfs-v3 $MDBENCH_TESTBED_NFS_VFS_V3")
tools=(mdtest mdbench)
for ((r = 0; r < rounds; r++)); do
  for e in "${exports[@]}"; do
    for ((k = 0; k < 2; k++)); do
      # shellcheck disable=SC2086
      one $e "$r" "${tools[$(((k + r) % 2))]}"
    done
  done
done

python3 - "$rates" "$files" "$rounds" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    export, tool, phase, rate = line.split()
    rows[(export, tool, phase)].append(float(rate))
med = lambda v: statistics.median(v) if v else float("nan")
print(f"-F -u -n {sys.argv[2]}, 2 ranks on one node, {sys.argv[3]} rounds: median ops/s; mdbench/mdtest: "
      "the median of the per-round ratios")
print(f"{'export':10} {'phase':12} {'mdtest':>9} {'mdbench':>9} {'mdb/mdt':>8}")
for export in ("cephfs-v4", "cephfs-v3", "vfs-v4", "vfs-v3"):
    for phase in ("file-create", "file-stat", "file-read", "file-remove"):
        a, b = rows[(export, "mdbench", phase)], rows[(export, "mdtest", phase)]
        ratio = med([x / y for x, y in zip(a, b) if y > 0])
        print(f"{export:10} {phase:12} {med(b):9.0f} {med(a):9.0f} {ratio:8.3f}")
PY
exit "$status"
