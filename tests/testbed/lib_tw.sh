# shellcheck shell=bash
# Helpers for the workload tests on the test bed (scripts/testbed.sh: nodes node1.., Slurm, CephFS with two
# active MDS, each node's own ceph-fuse client at one path). Usage: source lib_tw.sh. Needs MDBENCH (CTest sets
# it). A test bed that is not up is a failure (exit 1), never a skip.
set -u

TW_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TW_TESTBED=$TW_DIR/../../scripts/testbed.sh
TW_NAME=$(basename "$0" .sh)
: "${MDBENCH:?set MDBENCH to the mdbench binary}"

tw_die() { echo "FAIL: $TW_NAME: $*" >&2; exit 1; }

if ! "$TW_TESTBED" status >/dev/null 2>&1; then
  "$TW_TESTBED" status >&2
  tw_die "the test bed is not up (scripts/testbed.sh up as root; MDBENCH_TESTBED_DIR=${MDBENCH_TESTBED_DIR:-default})"
fi
eval "$("$TW_TESTBED" env)" || tw_die "scripts/testbed.sh env failed"
# The e2e tests' fork launcher must not leak into the test bed's mpiexec.
unset HYDRA_LAUNCHER HYDRA_RMK HYDRA_LAUNCHER_EXEC HYDRA_HOST_FILE
# shellcheck disable=SC2034 # used by the tests that source this file
read -r TW_NODE1 TW_NODE2 _ <<<"$MDBENCH_TESTBED_NODES"
[ -n "${TW_NODE2:-}" ] || tw_die "the test bed has fewer than 2 nodes ($MDBENCH_TESTBED_NODES)"

# Results files and outputs in local scratch (/tmp is the same in every node); the runs' directories in a
# directory of this test's own on CephFS. The root namespace is the head, whose ceph-fuse client runs no rank:
# every count on disk below is made through it, a third client.
TW_TMP=$(mktemp -d /tmp/mdbench-tw.XXXXXX) || exit 1
TW_FS=$(mktemp -d "$MDBENCH_TESTBED_CEPHFS/tw.XXXXXX") || tw_die "cannot make a directory in $MDBENCH_TESTBED_CEPHFS"
# Whatever a failed run left is in TW_FS, which the test made: removed so the shared test bed stays clean.
trap 'rm -rf "$TW_TMP" "$TW_FS"' EXIT
cd "$TW_TMP" || exit 1

TW_PASSED=0
TW_FAILED=0
TW_LAST=''
RC=0
tw_ok() { TW_PASSED=$((TW_PASSED + 1)); }
tw_fail() {
  TW_FAILED=$((TW_FAILED + 1))
  echo "FAIL: $*" >&2
  if [ -n "$TW_LAST" ]; then
    echo "--- $TW_LAST: stdout (tail) and stderr" >&2
    tail -15 "$TW_TMP/$TW_LAST.out" >&2 2>/dev/null
    cat "$TW_TMP/$TW_LAST.err" >&2 2>/dev/null
  fi
}

# tw_run NAME [MPIEXEC OPTIONS...] -- MDBENCH ARGS...: mdbench across the nodes through the test bed's mpiexec
# (4 ranks unless the options say: -n 4 alone places them round-robin node1, node2, node1, node2; -ppn 2 in
# blocks). Results in $TW_TMP/NAME.h5, output in NAME.out/.err, exit status in RC, seconds in TW_SECONDS.
tw_run() {
  local name=$1 mpi=()
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do mpi+=("$1"); shift; done
  shift
  [ "${#mpi[@]}" -gt 0 ] || mpi=(-n 4)
  TW_LAST=$name
  local t0=$SECONDS
  timeout -k 10 120 "$TW_TESTBED" mpiexec "${mpi[@]}" "$MDBENCH" "$@" -o "$TW_TMP/$name.h5" \
    >"$TW_TMP/$name.out" 2>"$TW_TMP/$name.err"
  RC=$?
  TW_SECONDS=$((SECONDS - t0))
  echo "$name: exit $RC in ${TW_SECONDS} s: mdbench $*"
}

tw_expect_rc() {  # tw_expect_rc WANT WHAT
  if [ "$RC" = "$1" ]; then tw_ok; else tw_fail "$2: exit status $RC, expected $1"; fi
}
tw_expect_eq() {  # tw_expect_eq ACTUAL EXPECTED WHAT
  if [ "$1" = "$2" ]; then tw_ok; else tw_fail "$3: got '$1', expected '$2'"; fi
}
tw_expect_in() {  # tw_expect_in FILE TEXT WHAT
  if grep -qF -- "$2" "$1"; then tw_ok; else tw_fail "$3: '$2' not in $(basename "$1")"; fi
}

# tw_results NAME KEY=VALUE...: the last run's results file is valid (mdbench validate) and, read back with
# h5py (tw_check.py), complete, with no failed operation and every expectation met.
tw_results() {
  local name=$1 h5=$TW_TMP/$1.h5
  shift
  if "$MDBENCH" validate "$h5" >"$TW_TMP/$name.validate" 2>&1; then tw_ok; else
    tw_fail "$name: mdbench validate: $(cat "$TW_TMP/$name.validate")"
  fi
  if /usr/bin/python3 "$TW_DIR/tw_check.py" "$h5" status=complete exit_status=0 "$@" >"$TW_TMP/$name.check" 2>&1; then
    tw_ok
    sed "s/^/$name: /" "$TW_TMP/$name.check"
  else
    tw_fail "$name: results file: $(cat "$TW_TMP/$name.check")"
  fi
}

# tw_count DIR TYPE NAME-PATTERN: entries below DIR seen through the head's client.
tw_count() { find "$1" -mindepth 1 -type "$2" -name "$3" 2>/dev/null | wc -l; }
tw_entries() { find "$1" -mindepth 1 2>/dev/null | wc -l; }

# tw_expect_tree DIR TREE_DIRS ITEM_DIRS FILES WHAT: exactly these counts on disk below the run's target DIR
# (its marks, .mdbench-*, the iteration directory and nothing else besides), through the head's client.
tw_expect_tree() {
  local dir=$1 trees=$2 dirs=$3 files=$4 what=$5 got
  got="$(tw_count "$dir" d 'mdbench_tree.*') $(tw_count "$dir" d 'dir.mdbench.*') $(tw_count "$dir" f 'file.mdbench.*')"
  tw_expect_eq "$got" "$trees $dirs $files" "$what: tree directories, item directories, files on disk (head's client)"
  tw_expect_eq "$(tw_entries "$dir")" $((trees + dirs + files + $(tw_count "$dir" f '.mdbench-*') + 1)) \
    "$what: nothing on disk but the tree, the items, the marks and the iteration directory"
}

tw_expect_absent() {  # tw_expect_absent PATH WHAT: gone, as seen through the head's client
  if [ ! -e "$1" ] && [ ! -L "$1" ]; then tw_ok; else tw_fail "$2: $1 left behind: $(find "$1" | head -5)"; fi
}

# tw_mds_requests: client requests the metadata servers have handled so far (mds_server.handle_client_request
# summed over the MDS admin sockets in MDBENCH_TESTBED_MDS_SOCKETS; a standby has no mds_server section: 0).
# Other clients add to it: compare only with a lower bound.
tw_mds_requests() {
  local s total=0 n
  for s in $MDBENCH_TESTBED_MDS_SOCKETS; do
    n=$(ceph --admin-daemon "$s" perf dump 2>/dev/null |
      /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin).get("mds_server", {}).get("handle_client_request", 0))') ||
      tw_die "cannot read the MDS counters at $s"
    total=$((total + n))
  done
  echo "$total"
}

tw_finish() {
  echo "$TW_NAME: $TW_PASSED passed, $TW_FAILED failed"
  [ "$TW_FAILED" = 0 ] && [ "$TW_PASSED" -gt 0 ]
}
