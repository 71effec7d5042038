#!/usr/bin/env bash
# -a CEPHFS end to end on the test bed (issue 31 §3): mdbench's ranks as libcephfs clients of their own, on
# 1 and 2 nodes, shared and unique trees, -N 1; the MDS's own counters see one create request per file
# created and one unlink per file removed; the run's tree is gone as the head's ceph-fuse mount sees it; a
# file planted (through ceph-fuse) under a name the run makes survives, its create counted failed; a client
# that cannot mount is a usage error before anything is made; `mdbench clean -a CEPHFS` removes what a run
# left and nothing planted. Fails when the test bed is not up (lib.sh).
# shellcheck source=/dev/null
source "$(dirname "$0")/lib.sh"
read -r node_a node_b _ <<<"$MDBENCH_TESTBED_NODES"
[ -n "$node_b" ] || tb_die "the test bed has fewer than 2 nodes ($MDBENCH_TESTBED_NODES)"
[ -n "${MDBENCH_TESTBED_CEPHFS_USER:-}" ] || tb_die "MDBENCH_TESTBED_CEPHFS_USER is not set (scripts/testbed.sh env)"
ITEMS=20
cephfs=(-a CEPHFS "--cephfs.conf=$CEPH_CONF" "--cephfs.user=$MDBENCH_TESTBED_CEPHFS_USER"
  "--cephfs.prefix=$MDBENCH_TESTBED_CEPHFS")
mds_stats=()
# shellcheck disable=SC2086
for arg in $MDBENCH_TESTBED_SERVER_STATS; do [[ $arg == --server-stats=ceph-mds:* ]] && mds_stats+=("$arg"); done
[ "${#mds_stats[@]}" -ge 1 ] || tb_die "no ceph-mds source in MDBENCH_TESTBED_SERVER_STATS"

run() {  # run NAME MPIEXEC-ARGS -- MDBENCH-ARGS...: exit status in $rc, output in $TB_TMP/NAME.out
  local name=$1 launch=()
  shift
  while [ "$1" != -- ]; do launch+=("$1"); shift; done
  shift
  rc=0
  timeout 300 "$TB_SCRIPT" mpiexec "${launch[@]}" "$MDBENCH" "${cephfs[@]}" "$@" >"$TB_TMP/$name.out" 2>&1 || rc=$?
}

# 1. 2 nodes x 2 ranks, unique and shared trees, -N 1, with the MDS counters; the rules on them hold.
for layout in unique shared; do
  extra=()
  [ "$layout" = unique ] && extra=(-u -N 1)
  dir=$TB_FS/$layout
  run "$layout" -n 4 -ppn 2 -- -F -n $ITEMS -d "$dir" -o "$TB_TMP/$layout.h5" "${mds_stats[@]}" "${extra[@]}"
  if [ "$rc" = 0 ]; then tb_ok "$layout: exit 0"; else tb_fail "$layout: exit $rc"; cat "$TB_TMP/$layout.out" >&2; fi
  grep -q '^api: *CEPHFS (-a)' "$TB_TMP/$layout.out" || tb_fail "$layout: the console names no -a CEPHFS"
  if [ -d "$dir" ]; then tb_fail "$layout: $dir is left (head's ceph-fuse)"; find "$dir" | head >&2; else
    tb_ok "$layout: the run's directory is gone, as the head's ceph-fuse mount sees it"; fi
  "$MDBENCH" export "$TB_TMP/$layout.h5" --format json -o "$TB_TMP/$layout.json" ||
    tb_fail "$layout: export"
  python3 - "$TB_TMP/$layout.json" "$node_a" "$node_b" "$ITEMS" "$MDBENCH_TESTBED_CEPHFS_USER" <<'PY' ||
import json, sys
doc = json.load(open(sys.argv[1]))
nodes, items, user = sys.argv[2:4], int(sys.argv[4]), sys.argv[5]
run = doc["runs"][0]
assert run["attributes"]["api"] == "CEPHFS", run["attributes"]["api"]
assert run["config"]["cephfs.user"] == user, run["config"]
assert sorted(set(run["hosts"])) == sorted(nodes), run["hosts"]
for p in run["phases"]:
    if p["phase"] in ("file-create", "file-stat", "file-read", "file-remove"):
        assert p["ops_ok"] == 4 * items and p["ops_failed"] == 0, (p["phase"], p["ops_ok"], p["ops_failed"])
PY
    tb_fail "$layout: the results file's api, options, hosts or counts"
  if "$MDBENCH" check "$TB_TMP/$layout.h5" --require 'file-create.server(mds_server.req_create_latency.avgcount)==ops' \
    --require 'file-remove.server(mds_server.req_unlink_latency.avgcount)==ops' >"$TB_TMP/$layout.check" 2>&1; then
    tb_ok "$layout: the MDS served one create request per file created and one unlink per file removed"
  else
    tb_fail "$layout: the MDS counters: $(cat "$TB_TMP/$layout.check")"
  fi
done

# 2. One rank on one node: a file planted through the head's ceph-fuse, just before the create phase, under
# a name the run makes, survives with its bytes; that create is counted failed (exit 1); the rest is gone.
dir=$TB_FS/planted
victim=$dir/mdbench.iter.0/mdbench_tree.0/file.mdbench.0.2
hook="[ \"\$MDBENCH_PHASE\" != file-create ] || echo the-users > $victim"
run planted -n 1 -hosts "$node_a" -- -F -n 4 -d "$dir" -o "$TB_TMP/planted.h5" "--run-cmd-before-phase=$hook"
if [ "$rc" = 1 ] && [ "$(cat "$victim" 2>/dev/null)" = the-users ]; then
  tb_ok "planted: exit 1, the planted file kept its bytes"
else
  tb_fail "planted: exit $rc, $victim: $(cat "$victim" 2>&1)"; cat "$TB_TMP/planted.out" >&2
fi
# Left, as with -a POSIX: the directories holding the planted file, with the marks and the record that let
# `mdbench clean` (or a -r job) finish once the file is moved away.
left=$(cd "$dir" && find . -mindepth 1 | sort | tr '\n' ' ')
expected="./.mdbench-run ./mdbench.iter.0 ./mdbench.iter.0/.mdbench-run ./mdbench.iter.0/.mdbench-taken \
./mdbench.iter.0/mdbench_tree.0 ./mdbench.iter.0/mdbench_tree.0/file.mdbench.0.2 "
[ "$left" = "$expected" ] || tb_fail "planted: left '$left', expected '$expected'"

# 2b. mdbench clean -a CEPHFS on what that run left, through libcephfs with the run's options, DIR as its -d:
# the planted file keeps its directories (exit 1, listed); once it is moved away, clean removes the rest.
clean_cephfs() {  # clean_cephfs NAME ARGS...: exit status in $rc, output in $TB_TMP/NAME.out
  local name=$1
  shift
  rc=0
  timeout 120 "$MDBENCH" clean "${cephfs[@]}" "$@" >"$TB_TMP/$name.out" 2>&1 || rc=$?
}
clean_cephfs clean-dry --dry-run "$dir"
if [ "$rc" = 1 ] && [ "$(cd "$dir" && find . -mindepth 1 | sort | tr '\n' ' ')" = "$expected" ]; then
  tb_ok "clean -a CEPHFS --dry-run: exit 1 (the planted file stays), nothing removed"
else
  tb_fail "clean -a CEPHFS --dry-run: exit $rc"; cat "$TB_TMP/clean-dry.out" >&2
fi
clean_cephfs clean-kept "$dir"
if [ "$rc" = 1 ] && [ "$(cat "$victim" 2>/dev/null)" = the-users ] &&
  grep -q "left: .*file.mdbench.0.2" "$TB_TMP/clean-kept.out"; then
  tb_ok "clean -a CEPHFS: exit 1, the planted file kept and listed"
else
  tb_fail "clean -a CEPHFS with the planted file: exit $rc, $victim: $(cat "$victim" 2>&1)"
  cat "$TB_TMP/clean-kept.out" >&2
fi
mv "$victim" "$TB_TMP/planted-file" || tb_fail "planted: cannot move the planted file away"
clean_cephfs clean "$dir"
if [ "$rc" = 0 ] && grep -q "^removed $dir/mdbench.iter.0 " "$TB_TMP/clean.out" && [ ! -e "$dir" ]; then
  tb_ok "clean -a CEPHFS: exit 0, the run's directories gone (head's ceph-fuse)"
else
  tb_fail "clean -a CEPHFS: exit $rc, left: $(find "$dir" 2>&1 | head)"; cat "$TB_TMP/clean.out" >&2
fi
rc=0
"$MDBENCH" clean -a CEPHFS "--libnfs.url=nfs://x/y/" "$TB_FS" >"$TB_TMP/clean-wrong.out" 2>&1 || rc=$?
if [ "$rc" = 2 ] && grep -q -- '--libnfs.url is an option of -a LIBNFS' "$TB_TMP/clean-wrong.out"; then
  tb_ok "clean -a CEPHFS --libnfs.url: exit 2, names the option's backend"
else
  tb_fail "clean with another backend's option: exit $rc: $(cat "$TB_TMP/clean-wrong.out")"
fi
rc=0
timeout 120 "$MDBENCH" clean -a CEPHFS "--cephfs.conf=$CEPH_CONF" --cephfs.user=nosuchuser \
  "--cephfs.prefix=$MDBENCH_TESTBED_CEPHFS" "$TB_FS" >"$TB_TMP/clean-refused.out" 2>&1 || rc=$?
if [ "$rc" = 2 ] && grep -q -- 'client.nosuchuser' "$TB_TMP/clean-refused.out"; then
  tb_ok "clean -a CEPHFS as a wrong --cephfs.user: exit 2, says why"
else
  tb_fail "clean as a wrong user: exit $rc: $(cat "$TB_TMP/clean-refused.out")"
fi

# 2c. -k: every file made by ceph_mknod (the MDS counts one mknod request per file created);
# --verify-write: each file read back through the descriptor that wrote it, every create counted ok.
run mknod -n 2 -ppn 1 -- -F -C -r -k -n $ITEMS -d "$TB_FS/mknod" -o "$TB_TMP/mknod.h5" "${mds_stats[@]}"
if [ "$rc" = 0 ] && "$MDBENCH" check "$TB_TMP/mknod.h5" \
  --require 'file-create.server(mds_server.req_mknod_latency.avgcount)==ops' >"$TB_TMP/mknod.check" 2>&1 &&
  [ ! -e "$TB_FS/mknod" ]; then
  tb_ok "-k: exit 0, one MDS mknod request per file created, nothing left"
else
  tb_fail "-k: exit $rc: $(cat "$TB_TMP/mknod.check" 2>&1)"; cat "$TB_TMP/mknod.out" >&2
fi
run verify -n 2 -ppn 1 -- -F -C -r --verify-write -w 3000 -n $ITEMS -d "$TB_FS/verify" -o "$TB_TMP/verify.h5"
if [ "$rc" = 0 ] && grep -Eq "^ *done: iteration 0 file-create +$((2 * ITEMS)) ops" "$TB_TMP/verify.out" &&
  [ ! -e "$TB_FS/verify" ]; then
  tb_ok "--verify-write -w 3000: exit 0, every create verified, nothing left"
else
  tb_fail "--verify-write: exit $rc"; cat "$TB_TMP/verify.out" >&2
fi

# 3. A client that cannot mount: exit 2 with libcephfs's reason, nothing made.
rc=0
"$MDBENCH" -a CEPHFS "--cephfs.conf=$CEPH_CONF" --cephfs.user=nosuchuser "--cephfs.prefix=$MDBENCH_TESTBED_CEPHFS" \
  -F -n 2 -d "$TB_FS/refused" >"$TB_TMP/refused.out" 2>&1 || rc=$?
if [ "$rc" = 2 ] && grep -q -- '-a CEPHFS: cannot mount / of the CephFS as client.nosuchuser' "$TB_TMP/refused.out" &&
  [ ! -e "$TB_FS/refused" ]; then
  tb_ok "a wrong --cephfs.user: exit 2, says why, nothing made"
else
  tb_fail "a wrong --cephfs.user: exit $rc: $(cat "$TB_TMP/refused.out")"
fi
# 4. In a Slurm job across both nodes: jobscripts/slurm/mdbench.sbatch with the backend and its options in
# MDBENCH_ARGS (the job's ranks reach the monitors with the conf and keyring the test bed gives every node).
for v in $(compgen -v SLURM_); do [ "$v" = SLURM_CONF ] || unset "$v"; done
unset HYDRA_LAUNCHER HYDRA_RMK HYDRA_LAUNCHER_EXEC HYDRA_HOST_FILE
rc=0
(cd "$TB_TMP" && MDBENCH_BIN=$MDBENCH MDBENCH_TARGET=$TB_FS/job MDBENCH_ITEMS=10 MDBENCH_PROGRESS=0 \
  MDBENCH_ARGS="${cephfs[*]} -F -u" timeout 300 sbatch --wait -N 2 --ntasks-per-node=1 -o "$TB_TMP/job.out" \
  "$TB_TESTS/../../jobscripts/slurm/mdbench.sbatch" >/dev/null) || rc=$?
if [ "$rc" = 0 ] && grep -q '^api: *CEPHFS (-a)' "$TB_TMP/job.out" && grep -q 'exit status 0' "$TB_TMP/job.out" &&
  [ ! -e "$TB_FS/job" ]; then
  tb_ok "a Slurm job (mdbench.sbatch, MDBENCH_ARGS=-a CEPHFS ...): exit 0 on 2 nodes, nothing left"
else
  tb_fail "Slurm job: exit $rc: $(tail -n 20 "$TB_TMP/job.out" 2>&1)"
fi

[ "$(tb_entries "$TB_FS")" = 0 ] || tb_fail "entries left in $TB_FS: $(ls -A "$TB_FS")"
[ "$TB_FAILED" = 0 ] && tb_ok "-a CEPHFS on the test bed"
