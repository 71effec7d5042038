#!/usr/bin/env bash
# Failover on the test bed (issue 34 §3): an active MDS is failed over while mdbench's ranks create files on
# two nodes, through the nodes' ceph-fuse mounts (-a POSIX) and, given `cephfs`, through libcephfs
# (-a CEPHFS). A fault command run by rank 0 three seconds into the create phase (`ceph mds fail 0`, from
# rank 0's node with the job's environment) hands rank 0 to the standby MDS; the run must end with exit 0,
# every file made exactly once (created without a failure, each removed again, none left), the stall
# recorded, after the fault and within the MDS's beacon grace plus a margin, the fault's record (injected, exit status 0) and
# another daemon instance holding rank 0 afterwards; `mdbench check` gates on the stall (a limit above it passes, one
# below it fails with exit 3). Then (d) the steady mix failed over, (c) the NFS gateway restarted mid-stat
# over libnfs, and (e) the create again with standby-replay on. Fails when the test bed is not up (lib.sh).
#   tb_failover.sh [cephfs] [libnfs]   (the backends built in; CMake passes them)
# shellcheck source=/dev/null
source "$(dirname "$0")/lib.sh"
read -r _ node_b _ <<<"$MDBENCH_TESTBED_NODES"
[ -n "$node_b" ] || tb_die "the test bed has fewer than 2 nodes ($MDBENCH_TESTBED_NODES)"
FAULT_AT=3
STONEWALL=12  # the stall (4-6 s from 3 s in) and a whole second of recovery fit
GRACE=15  # mds_beacon_grace, Ceph 16.2's default (the test bed does not change it)
MARGIN=15 # for the replay, reconnect and rejoin of the new rank 0 on a busy 2-core machine

# The MDS map: "RANK DAEMON GID" for each active rank, "replay DAEMON GID RANK" for a standby-replay daemon
# (the one following RANK's journal), then "standby DAEMON GID" for each standby. A daemon failed over
# respawns with a new gid (it may take its rank back as the standby's replacement).
mds_map() {
  ceph fs dump --format json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
for fs in d["filesystems"]:
    for info in fs["mdsmap"]["info"].values():
        if info["state"] == "up:active":
            print(info["rank"], info["name"], info["gid"])
        elif info["state"] == "up:standby-replay":
            print("replay", info["name"], info["gid"], info["rank"])
for info in d["standbys"]:
    print("standby", info["name"], info["gid"])'
}

# wait_healthy SECONDS [KIND]: two active ranks and one daemon waiting as KIND (standby, the default, or
# replay) again: the failed daemon respawns as that.
wait_healthy() {
  local deadline=$((SECONDS + $1)) map="" kind=${2:-standby}
  while [ $SECONDS -lt $deadline ]; do
    map=$(mds_map)
    if [ "$(grep -c '^[01] ' <<<"$map")" = 2 ] && [ "$(grep -c "^$kind " <<<"$map")" = 1 ] &&
      [ "$(grep -c '^\(standby\|replay\) ' <<<"$map")" = 1 ]; then return 0; fi
    sleep 1
  done
  echo "MDS map after $1 s: $map" >&2
  return 1
}

# check.py JSON GRACE MARGIN: the create and remove phases of an exported run; prints the create's stall.
cat >"$TB_TMP/check.py" <<'PY'
import json, sys
grace, margin = float(sys.argv[2]), float(sys.argv[3])
phases = {p["phase"]: p for p in json.load(open(sys.argv[1]))["runs"][0]["phases"]}
create, remove = phases["file-create"], phases["file-remove"]
try:
    assert create["ops_failed"] == 0 and remove["ops_failed"] == 0, ("failed ops", create["ops_failed"],
                                                                      remove["ops_failed"])
    assert create["ops_ok"] > 0 and remove["ops_ok"] == create["ops_ok"], ("made once, removed once",
                                                                          create["ops_ok"], remove["ops_ok"])
    stall = create["stall_s"]
    assert 0.2 <= stall <= grace + margin, f"stall {stall} s, {create['stall_t_start']}-{create['stall_t_end']}"
    faults = create["faults"]
    assert len(faults) == 1 and faults[0]["injected"] and faults[0]["exit_status"] == 0, faults
    assert not remove.get("faults"), ("a fault in the remove phase", remove.get("faults"))
    assert create["stall_t_start"] >= faults[0]["t_start"] - 0.1, ("the stall began before the fault",
                                                                 create["stall_t_start"], faults[0]["t_start"])
except AssertionError as e:
    print(e)
    sys.exit(1)
print(f"{stall:.3f}")
print(f"created {create['ops_ok']}, stall {stall:.3f} s ({create['stall_t_start']:.3f}-"
      f"{create['stall_t_end']:.3f} s), fault started at {faults[0]['t_start']:.3f} s, recovery "
      f"{faults[0]['recovery_s']} s", file=sys.stderr)
PY

wait_healthy 60 || tb_die "the test bed has no standby MDS beside its two active ones (ceph fs dump)"
tb_ok "two active MDS and a standby: $(mds_map | tr '\n' ' ')"

# failover NAME BACKEND-OPTIONS...: 2 nodes, 1 rank each, a directory per rank, a failover 3 s into the create.
failover() {
  local name=$1 before after stall rc=0 dir=$TB_FS/$1 limit=$((GRACE + MARGIN))
  shift
  before=$(mds_map | awk '$1 == 0 { print "mds." $2 " (gid " $3 ")" }')
  timeout 400 "$TB_SCRIPT" mpiexec -n 2 -ppn 1 "$MDBENCH" "$@" -F -C -r -u -n 1000000 -W $STONEWALL \
    -d "$dir" --series-interval 0.05 --fault-phase file-create --fault-at $FAULT_AT \
    --fault-cmd 'ceph mds fail 0' -o "$TB_TMP/$name.h5" >"$TB_TMP/$name.out" 2>&1 || rc=$?
  if [ "$rc" = 0 ]; then tb_ok "$name: exit 0 through the failover"; else
    tb_fail "$name: exit $rc"; tail -n 30 "$TB_TMP/$name.out" >&2; fi
  wait_healthy 90 "${WAITING:-standby}" || tb_fail "$name: the MDS map did not come back to two active and a ${WAITING:-standby}"
  after=$(mds_map | awk '$1 == 0 { print "mds." $2 " (gid " $3 ")" }')
  if [ -n "$before" ] && [ -n "$after" ] && [ "$before" != "$after" ]; then
    tb_ok "$name: rank 0 went from $before to $after"
  else
    tb_fail "$name: rank 0 was $before before and $after after: no failover"
  fi
  if [ -e "$dir" ]; then tb_fail "$name: $dir is left (head's ceph-fuse)"; else
    tb_ok "$name: nothing left, as the head's ceph-fuse mount sees it"; fi
  "$MDBENCH" export "$TB_TMP/$name.h5" --format json -o "$TB_TMP/$name.json" || tb_fail "$name: export"
  if stall=$(python3 "$TB_TMP/check.py" "$TB_TMP/$name.json" "$GRACE" "$MARGIN"); then
    tb_ok "$name: no op failed, every file made and removed once, a stall of $stall s"
  else
    tb_fail "$name: the results file: $stall"
  fi
  if "$MDBENCH" check "$TB_TMP/$name.h5" --require "file-create.stall<=${limit}s" >"$TB_TMP/$name.pass" 2>&1; then
    tb_ok "$name: check file-create.stall<=${limit}s passes"
  else
    tb_fail "$name: check file-create.stall<=${limit}s: $(cat "$TB_TMP/$name.pass")"
  fi
  rc=0
  "$MDBENCH" check "$TB_TMP/$name.h5" --require 'file-create.stall<=0.1s' >"$TB_TMP/$name.fail" 2>&1 || rc=$?
  if [ "$rc" = 3 ]; then tb_ok "$name: check file-create.stall<=0.1s fails with exit 3"; else
    tb_fail "$name: check file-create.stall<=0.1s: exit $rc: $(cat "$TB_TMP/$name.fail")"; fi
}

failover fuse -a POSIX
if [[ " $* " == *" cephfs "* ]]; then  # mdbench built with libcephfs (CMake passes it)
  failover cephfs -a CEPHFS "--cephfs.conf=$CEPH_CONF" "--cephfs.user=$MDBENCH_TESTBED_CEPHFS_USER" \
    "--cephfs.prefix=$MDBENCH_TESTBED_CEPHFS"
fi

# (d) The steady state (--steady, schema version 10) through libcephfs where built, else ceph-fuse: the
# same failover 3 s into the mix (the faults' default phase there): exit 0, no op failed in any steady phase,
# the mix's stall recorded after the fault and within the grace plus the margin, the fault's record, and
# `mdbench check`'s steady rules on it. Each rank in its own datasets (-N 2 on 2 ranks: the ring's distance
# is 0): with the ranks of two nodes reading and deleting each other's objects, a ceph-fuse client (Ceph
# 16.2) was left waiting for caps after the failover, with no request at the MDS or the OSD, and the job hung
# (2026-12-07, docs/failover.md).
cat >"$TB_TMP/check_steady.py" <<'PY'
import json, sys
grace, margin = float(sys.argv[2]), float(sys.argv[3])
phases = {p["phase"]: p for p in json.load(open(sys.argv[1]))["runs"][0]["steady"][0]["phases"]}
mix = phases["mix"]
try:
    for name, p in phases.items():
        assert p["failed"] == 0, (name, "failed ops", p["failed"])
        assert name == "mix" or not p.get("faults"), ("a fault outside the mix", name, p.get("faults"))
    stall = mix["stall_s"]
    assert 0.2 <= stall <= grace + margin, f"stall {stall} s, {mix['stall_t_start']}-{mix['stall_t_end']}"
    faults = mix["faults"]
    assert len(faults) == 1 and faults[0]["injected"] and faults[0]["exit_status"] == 0, faults
    assert mix["stall_t_start"] >= faults[0]["t_start"] - 0.1, ("the stall began before the fault",
                                                              mix["stall_t_start"], faults[0]["t_start"])
except (AssertionError, KeyError) as e:
    print(repr(e))
    sys.exit(1)
print(f"{stall:.3f}")
print(f"mix: {mix['rounds']} rounds, {mix['ok_per_s']:.1f} ops/s, stall {stall:.3f} s "
      f"({mix['stall_t_start']:.3f}-{mix['stall_t_end']:.3f} s), fault started at {faults[0]['t_start']:.3f} s, "
      f"recovery {faults[0]['recovery_s']} s", file=sys.stderr)
PY
steady_options=(-a POSIX)
if [[ " $* " == *" cephfs "* ]]; then
  steady_options=(-a CEPHFS "--cephfs.conf=$CEPH_CONF" "--cephfs.user=$MDBENCH_TESTBED_CEPHFS_USER"
    "--cephfs.prefix=$MDBENCH_TESTBED_CEPHFS")
fi
before=$(mds_map | awk '$1 == 0 { print "mds." $2 " (gid " $3 ")" }')
rc=0
timeout 400 "$TB_SCRIPT" mpiexec -n 2 -ppn 1 "$MDBENCH" "${steady_options[@]}" --steady 1000000000 -n 500 \
  --datasets 5 -N 2 -W 10 -d "$TB_FS/steady" --series-interval 0.05 --fault-at $FAULT_AT --fault-cmd 'ceph mds fail 0' \
  -o "$TB_TMP/steady.h5" >"$TB_TMP/steady.out" 2>&1 || rc=$?
if [ "$rc" = 0 ]; then tb_ok "steady: exit 0 through the failover"; else
  tb_fail "steady: exit $rc"; tail -n 30 "$TB_TMP/steady.out" >&2; fi
wait_healthy 90 || tb_fail "steady: the MDS map did not come back to two active and a standby"
after=$(mds_map | awk '$1 == 0 { print "mds." $2 " (gid " $3 ")" }')
if [ -z "$before" ] || [ "$before" = "$after" ]; then tb_fail "steady: rank 0 was $before before and $after after"; fi
if [ -e "$TB_FS/steady" ]; then tb_fail "steady: $TB_FS/steady is left"; else tb_ok "steady: nothing left"; fi
"$MDBENCH" export "$TB_TMP/steady.h5" --format json -o "$TB_TMP/steady.json" || tb_fail "steady: export"
if stall=$(python3 "$TB_TMP/check_steady.py" "$TB_TMP/steady.json" "$GRACE" "$MARGIN"); then
  tb_ok "steady (${steady_options[1]}): no op failed, a stall of $stall s in the mix"
else
  tb_fail "steady: the results file: $stall"
fi
limit=$((GRACE + MARGIN))
if "$MDBENCH" check "$TB_TMP/steady.h5" --require "steady.stall<=${limit}s" --require 'steady.failed==0' \
  >"$TB_TMP/steady.pass" 2>&1; then
  tb_ok "steady: check steady.stall<=${limit}s and steady.failed==0 pass"
else
  tb_fail "steady: check steady.stall<=${limit}s: $(cat "$TB_TMP/steady.pass")"
fi
rc=0
"$MDBENCH" check "$TB_TMP/steady.h5" --require 'steady.stall<=0.1s' >"$TB_TMP/steady.fail" 2>&1 || rc=$?
if [ "$rc" = 3 ]; then tb_ok "steady: check steady.stall<=0.1s fails with exit 3"; else
  tb_fail "steady: check steady.stall<=0.1s: exit $rc: $(cat "$TB_TMP/steady.fail")"; fi

# (c) The NFS server restarted mid-stat (`scripts/testbed.sh nfs-restart`: ganesha killed and started again,
# about a second away), -a LIBNFS over v4 to the VFS export, one rank on the head: never a hang, every stat
# counted, the few the restart cut off failed (EIO), the rest waiting for the server (a stall) and the
# files all removed once it is back.
if [[ " $* " == *" libnfs "* ]]; then
  nfs_dir=tb-failover-$$
  rc=0
  timeout 240 "$MDBENCH" -a LIBNFS "--libnfs.url=$MDBENCH_TESTBED_NFS_VFS" -F -C -T -r -n 8000 -d "/$nfs_dir" \
    --series-interval 0.05 --fault-phase file-stat --fault-at 1 --fault-cmd "$TB_SCRIPT nfs-restart" \
    -o "$TB_TMP/nfs.h5" >"$TB_TMP/nfs.out" 2>&1 || rc=$?
  if [ "$rc" = 0 ] || [ "$rc" = 1 ]; then tb_ok "nfs: exit $rc through the restart, no hang"; else
    tb_fail "nfs: exit $rc"; tail -n 30 "$TB_TMP/nfs.out" >&2; fi
  "$MDBENCH" export "$TB_TMP/nfs.h5" --format json -o "$TB_TMP/nfs.json" || tb_fail "nfs: export"
  if python3 - "$TB_TMP/nfs.json" <<'PY'; then tb_ok "nfs: every stat counted, the restart recorded"; else
import json, sys
phases = {p["phase"]: p for p in json.load(open(sys.argv[1]))["runs"][0]["phases"]}
stat, remove = phases["file-stat"], phases["file-remove"]
print(f"file-stat: {stat['ops_ok']} ok, {stat['ops_failed']} failed, stall {stat['stall_s']:.3f} s, "
      f"fault {stat['faults']}", file=sys.stderr)
assert stat["ops_ok"] + stat["ops_failed"] == 8000, "every stat counted"
# The calls the restart cut off fail (EIO, at most kMaxTimeouts in a row); then the client is made anew
# once the server is back and the rest succeed: a stall, not a run of failures.
assert stat["ops_failed"] <= 3, "more than the calls the restart cut off failed"
assert stat["stall_s"] >= 0.3, "no stall"
assert len(stat["faults"]) == 1 and stat["faults"][0]["injected"] and stat["faults"][0]["exit_status"] == 0
assert "away for" in stat["faults"][0]["output"], stat["faults"][0]["output"]
assert remove["ops_ok"] == 8000 and remove["ops_failed"] == 0, (remove["ops_ok"], remove["ops_failed"])
PY
    tb_fail "nfs: the results file (above)"
  fi
  [ ! -e "$MDBENCH_TESTBED_NFS_VFS_DIR/$nfs_dir" ] || tb_fail "nfs: $MDBENCH_TESTBED_NFS_VFS_DIR/$nfs_dir is left"
  grep -E '^ *(stall|fault 1)' "$TB_TMP/nfs.out" | sed 's/^ */nfs: /'
fi

# (e) Standby-replay (allow_standby_replay: the standby follows rank 0's journal, `ceph fs dump` lists it as
# up:standby-replay): the same failover through ceph-fuse, the follower taking rank 0; then the file
# system's setting back to a plain standby (what the other tests expect).
replay_map() { mds_map | awk '$1 == "replay" && $4 == 0 { print "mds." $2 " (gid " $3 ")" }'; }
fs=$(ceph fs ls --format json 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["name"])')
if ceph fs set "$fs" allow_standby_replay true >/dev/null 2>&1 && wait_healthy 60 replay &&
  follower=$(replay_map) && [ -n "$follower" ]; then
  tb_ok "standby-replay: $follower follows rank 0 ($(mds_map | tr '\n' ' '))"
  WAITING=replay failover replay -a POSIX
  now=$(mds_map | awk '$1 == 0 { print "mds." $2 }')
  if [ "${follower%% *}" = "$now" ]; then tb_ok "standby-replay: the follower, $now, took rank 0"; else
    tb_fail "standby-replay: rank 0 went to $now, not to its follower $follower"; fi
else
  tb_fail "standby-replay: no daemon follows rank 0 after allow_standby_replay true: $(mds_map | tr '\n' ' ')"
fi
ceph fs set "$fs" allow_standby_replay false >/dev/null 2>&1 || tb_fail "allow_standby_replay false"
wait_healthy 60 || tb_fail "standby-replay off: no plain standby again"

[ "$(tb_entries "$TB_FS")" = 0 ] || tb_fail "entries left in $TB_FS: $(ls -A "$TB_FS")"
# The failovers can leave the NFS gateway's CephFS client evicted, 30-35 s later (docs/testbed.md): its
# CephFS export then fails, or ganesha ends. A fresh gateway (its old sessions evicted now) for the tests
# after this one, as the plain standby above.
if note=$("$TB_SCRIPT" nfs-restart 2>&1); then echo "nfs gateway after the failovers: $note"; else
  tb_fail "nfs-restart after the failovers: $note"; fi
[ "$TB_FAILED" = 0 ] && tb_ok "MDS failover measured on the test bed"
