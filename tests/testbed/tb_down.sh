#!/usr/bin/env bash
# scripts/testbed.sh down while a job runs whose tasks ignore SIGTERM (issue 29: down took 20 s where the docs
# said 2-8: 50 squeue tries for the job, 5 s for each slurmd in turn, munged's SIGTERM, zombies counted as
# running): down within 12 s, exit 0, nothing left (no daemon, node, mount or task), then up again, so that
# the tests after this one find the test bed as they expect. About 26 s.
set -u
here=$(cd "$(dirname "$0")" && pwd)
script=${MDBENCH_TESTBED_SCRIPT:-$here/../../scripts/testbed.sh}  # another tree's, to compare
failed=0
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
die() { echo "FAIL: $*" >&2; exit 1; }

"$script" status >/dev/null 2>&1 || die "the test bed is not up (as root: scripts/testbed.sh up)"
eval "$("$script" env)" || die "scripts/testbed.sh env failed"
for v in $(compgen -v SLURM_); do [ "$v" = SLURM_CONF ] || unset "$v"; done
out=$(mktemp /tmp/mdbench-tb-down.XXXXXX) || exit 1
trap 'rm -f "$out"' EXIT

# sleep 317: a name no other process has, so that a task left behind can be found.
id=$(timeout 30 sbatch --parsable -N 2 --ntasks-per-node=2 -o /dev/null \
  --wrap "trap '' TERM; srun sh -c 'trap \"\" TERM; exec sleep 317'") || die "sbatch failed: $id"
for _ in $(seq 100); do
  [ "$(pgrep -xc -f 'sleep 317')" -ge 4 ] && break
  sleep 0.2
done
[ "$(pgrep -xc -f 'sleep 317')" -ge 4 ] || die "job $id: its 4 tasks did not start"

t0=${EPOCHREALTIME/./}
rc=0
"$script" down >"$out" 2>&1 || rc=$?
ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
cat "$out"
[ "$rc" = 0 ] || fail "down: exit $rc"
[ "$ms" -lt 12000 ] || fail "down took $ms ms with a job ignoring SIGTERM (bound 12 s)"
grep -q "down in .* (jobs .* s, unmount .* s, daemons .* s, munge and nodes .* s;" "$out" ||
  fail "down does not say where its time went"
if "$script" status >/dev/null 2>&1; then fail "status says up after down"; fi
[ "$(pgrep -xc -f 'sleep 317')" = 0 ] || fail "tasks left: $(pgrep -xa -f 'sleep 317')"
if findmnt -rn --mountpoint "$MDBENCH_TESTBED_CEPHFS" >/dev/null; then fail "$MDBENCH_TESTBED_CEPHFS still mounted"; fi
# This test bed's namespaces only: another test bed (another MDBENCH_TESTBED_DIR) may be up beside it.
ns=${MDBENCH_TESTBED_NETNS:?scripts/testbed.sh env names no MDBENCH_TESTBED_NETNS}
[ ! -e "/run/netns/$ns-node1" ] || fail "node1 left"
# The NFS gateway (issue 32): no daemon of its pid files, no namespace, no mount of its /run.
for f in ganesha rpcbind dbus; do
  p=$(cat "$MDBENCH_TESTBED_DIR/nfs/$f.pid" 2>/dev/null) || continue
  if [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then fail "$f (pid $p) left after down"; fi
done
if [ -e "/run/netns/$ns-nfs" ] && [ "$(ip netns pids "$ns-nfs" 2>/dev/null | wc -l)" != 0 ]; then
  fail "processes left in $ns-nfs"
fi
! findmnt -rn | grep -q "$MDBENCH_TESTBED_DIR/nfs" || fail "a mount of $MDBENCH_TESTBED_DIR/nfs left"

# Up again under a real flock (issue 32: munged kept the caller's descriptors, so the lock stayed held by the
# test bed's daemons until down): once up has returned the lock is free.
# From a directory removed as soon as up returns, as a test's temporary directory is (ceph-mgr, still loading
# its Python modules then, aborted when the directory it had been started in went away): no process of the
# test bed works in it, and every daemon still runs once the mgr has had the time to load its modules.
lock=$(mktemp /tmp/mdbench-tb-lock.XXXXXX) || exit 1
wd=$(mktemp -d /tmp/mdbench-tb-cwd.XXXXXX) || exit 1
(cd "$wd" && flock "$lock" "$script" up) >"$out" 2>&1 || { cat "$out" >&2; rm -f "$lock"; die "up after down failed"; }
if flock -n "$lock" true; then echo "ok: the lock is free once up returned"; else
  fail "flock LOCK testbed.sh up: LOCK still held after up returned (a daemon kept the descriptor)"; fi
rm -f "$lock"
for p in /proc/[0-9]*; do
  case $(readlink "$p/cwd" 2>/dev/null) in
    "$wd" | "$wd"/*) fail "pid ${p#/proc/} ($(cat "$p/comm" 2>/dev/null)) works in up's caller's directory" ;;
  esac
done
rmdir "$wd"
sleep 6
"$script" status >/dev/null 2>&1 || { "$script" status >&2; fail "status 6 s after up (its caller's directory removed)"; }
grep -q "^ganesha nfs: running" <("$script" status 2>&1) || fail "status shows no ganesha after up"
echo "tb_down: down in $ms ms; $failed failure(s)"
[ "$failed" = 0 ]
