# shellcheck shell=bash
# Shared helpers for the tests on the test bed (scripts/testbed.sh): real nodes, Slurm and CephFS.
# Usage: source lib.sh. Needs MDBENCH in the environment (CTest sets it) and a test bed that is up: a test
# that cannot get its test bed FAILS (exit 1), it never skips.
set -u

TB_TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TB_SCRIPT=$TB_TESTS/../../scripts/testbed.sh
: "${MDBENCH:?set MDBENCH to the mdbench binary}"

tb_die() { echo "FAIL: $*" >&2; exit 1; }

# The test bed's environment: SLURM_CONF, MDBENCH_TESTBED_CEPHFS, MDBENCH_TESTBED_NODES, ...
if ! "$TB_SCRIPT" status >/dev/null 2>&1; then
  "$TB_SCRIPT" status >&2
  tb_die "the test bed is not up (sudo scripts/testbed.sh up; MDBENCH_TESTBED_DIR=${MDBENCH_TESTBED_DIR:-default})"
fi
eval "$("$TB_SCRIPT" env)" || tb_die "scripts/testbed.sh env failed"
# ctest's other tests run mpiexec with the fork launcher; the test bed's mpiexec and Slurm jobs must not.
unset HYDRA_LAUNCHER HYDRA_RMK HYDRA_LAUNCHER_EXEC HYDRA_HOST_FILE

# Local scratch (results files, job scripts, outputs): /tmp is the same file system in every node. The
# directory the runs work in is on CephFS, made through the head's client (client.head), which runs no rank.
TB_TMP=$(mktemp -d /tmp/mdbench-tb.XXXXXX) || exit 1
TB_FS=$(mktemp -d "$MDBENCH_TESTBED_CEPHFS/tb.XXXXXX") || tb_die "cannot create a directory in $MDBENCH_TESTBED_CEPHFS"
tb_cleanup() {
  rm -rf "$TB_TMP"
  # Only what the test made; a non-empty directory means a run left something: the test already failed.
  # Gone altogether after a down and up (tb_docs: the file system is in memory): nothing to remove.
  [ -e "$TB_FS" ] || return 0
  rmdir "$TB_FS" 2>/dev/null || echo "note: $TB_FS kept (not empty)" >&2
}
trap tb_cleanup EXIT
cd "$TB_TMP" || exit 1

TB_FAILED=0
tb_fail() { TB_FAILED=$((TB_FAILED + 1)); echo "FAIL: $*" >&2; }
tb_ok() { echo "ok ($SECONDS s): $*"; }

# tb_entries DIR: how many entries DIR holds, counted through the head's client.
tb_entries() { find "$1" -mindepth 1 2>/dev/null | wc -l; }

# tb_strays: processes in the nodes that are not the test bed's daemons (slurmd, ceph-fuse), one per line.
tb_strays() {
  local node pid comm
  for node in $MDBENCH_TESTBED_NODES; do
    for pid in $("$TB_SCRIPT" pids "$node"); do
      comm=$(cat "/proc/$pid/comm" 2>/dev/null) || continue
      case $comm in slurmd | ceph-fuse | fuse | ceph-fuse*) ;; *) echo "$node: $pid $comm" ;; esac
    done
  done
}

# tb_check_hosts FILE.h5 RANKS NODES...: the last run in FILE is complete, with RANKS ranks spread evenly
# over exactly NODES (host names), read back with h5py.
tb_check_hosts() {
  /usr/bin/python3 - "$@" <<'EOF'
import collections, sys
import h5py
path, ranks, nodes = sys.argv[1], int(sys.argv[2]), sorted(sys.argv[3:])
with h5py.File(path, "r") as f:
    run = f["runs"][sorted(f["runs"].keys())[-1]]
    a = run.attrs
    hosts = [h.decode() if isinstance(h, bytes) else str(h) for h in run["hosts"][()]]
    problems = []
    if a["status"] != "complete" or a["exit_status"] != 0:
        problems.append(f"status {a['status']} exit {a['exit_status']}")
    if a["ranks"] != ranks or len(hosts) != ranks:
        problems.append(f"ranks {a['ranks']}, {len(hosts)} hosts, not {ranks}")
    if a["nodes"] != len(nodes):
        problems.append(f"nodes {a['nodes']}, not {len(nodes)}")
    count = collections.Counter(hosts)
    if sorted(count) != nodes or len(set(count.values())) != 1:
        problems.append(f"hosts {dict(count)}, not {ranks // len(nodes)} ranks on each of {nodes}")
for p in problems:
    print(f"{path}: {p}")
sys.exit(1 if problems else 0)
EOF
}
