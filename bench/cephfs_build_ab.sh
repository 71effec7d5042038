#!/usr/bin/env bash
# Two mdbench builds against mdtest on the test bed's CephFS through libcephfs (-a CEPHFS), interleaved: each
# round runs mdtest, build A and build B once with the same `-F -u -n FILES` (one rank on each of two nodes),
# the order rotating from round to round; mdbench with --output mdtest, so that one parser reads the three
# SUMMARY tables. Prints each round's rates and, per phase, the medians of the per-round ratios A/mdtest and
# B/mdtest: a change to one phase measured beside the build before it, on the same MDS at the same time.
#   MDTEST=/path/to/mdtest bench/cephfs_build_ab.sh A B [-r ROUNDS] [--files N] [-- MDBENCH-ARGS...]
# A and B: mdbench binaries (e.g. a worktree's build/mdbench at the commit before). Defaults: 8 rounds, 3000
# files. The test bed must be up; mdtest built with CEPHFS (bench/README.md). Exit 1 if a run failed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: MDTEST=... $0 A B [-r ROUNDS] [--files N] [-- MDBENCH-ARGS...]" >&2; exit 2; }
build_a=$1 build_b=$2
shift 2
rounds=8 files=3000 extra=()
while [ $# -gt 0 ]; do
  case $1 in
    -r) rounds=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "usage: MDTEST=... $0 A B [-r ROUNDS] [--files N] [-- MDBENCH-ARGS...]" >&2; exit 2 ;;
  esac
done
mdtest=${MDTEST:?set MDTEST to an mdtest binary built with CEPHFS}
eval "$(scripts/testbed.sh env)"
work=$(mktemp -d "$MDBENCH_TESTBED_CEPHFS/buildab.XXXXXX")
rates=$(mktemp)
trap 'rm -rf "$work" "$rates"' EXIT
cephfs=(-a CEPHFS "--cephfs.user=$MDBENCH_TESTBED_CEPHFS_USER" "--cephfs.conf=$CEPH_CONF"
  "--cephfs.prefix=$MDBENCH_TESTBED_CEPHFS")
status=0

one() {  # one ROUND NAME: a run; appends "ROUND NAME CREATE STAT READ REMOVE" to $rates
  local round=$1 name=$2 dir=$work/$1.$2 out
  mkdir "$dir"
  case $name in
    mdtest) out=$(scripts/testbed.sh mpiexec -n 2 -ppn 1 "$mdtest" "${cephfs[@]}" -F -u -n "$files" -d "$dir" 2>&1) ||
      { echo "mdtest failed: $out" >&2; status=1; } ;;
    A | B)
      local bin=$build_a
      [ "$name" = B ] && bin=$build_b
      out=$(scripts/testbed.sh mpiexec -n 2 -ppn 1 "$bin" "${cephfs[@]}" -F -u -n "$files" -d "$dir" \
        "${extra[@]}" --output mdtest -o "$work/$round.$name.h5" 2>&1) || { echo "$name failed: $out" >&2; status=1; } ;;
  esac
  rmdir "$dir" 2>/dev/null || true
  awk -v r="$round" -v n="$name" '/SUMMARY rate/ { on = 1 } on && /File creation/ { c = $4 }
    on && /File stat/ { s = $4 } on && /File read/ { d = $4 }
    on && /File removal/ { print r, n, c, s, d, $4; on = 0 }' <<<"$out" | tee -a "$rates"
}

names=(mdtest A B)
for ((r = 0; r < rounds; r++)); do
  for ((k = 0; k < 3; k++)); do one "$r" "${names[$(((k + r) % 3))]}"; done
done

python3 - "$rates" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    r, name, *rates = line.split()
    runs[r][name] = [float(x) for x in rates]
print(f"{'phase':12} {'A/mdtest':>9} {'B/mdtest':>9}   medians of the per-round ratios, {len(runs)} rounds")
for k, phase in enumerate(("file-create", "file-stat", "file-read", "file-remove")):
    ratio = lambda n: statistics.median(x[n][k] / x["mdtest"][k] for x in runs.values()
                                        if len(x) == 3 and x["mdtest"][k] > 0)
    print(f"{phase:12} {ratio('A'):9.3f} {ratio('B'):9.3f}")
PY
exit "$status"
