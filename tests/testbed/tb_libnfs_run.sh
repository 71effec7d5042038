#!/usr/bin/env bash
# -a LIBNFS end to end on the test bed (issue 32 §2, §4): mdbench's ranks as libnfs clients of their own of the
# test bed's NFS-Ganesha gateway.
#  1. 2 nodes x 2 ranks, NFSv4, the CephFS export, unique and shared trees: exit 0, every op ok; the MDS served
#     one create per file created and one unlink per file removed, ganesha one v4 OPEN per file created and,
#     with Debian's libnfs, no SETATTR (the create is mdtest's call); the run's tree is gone as the head's
#     ceph-fuse mount sees it.
#  2. NFSv3 to the VFS export, 1 rank, every phase (renames too, files and directories): exit 0, nothing left
#     in the exported directory.
#  3. What the run did not make survives (NFSv4 removes a directory by unlink and a file by rmdir without an
#     error, so the type is checked): a file planted under a name the run creates; a directory swapped in for
#     one of the run's files before file-remove; a file swapped in for one of its directories before
#     dir-remove; a symlink, a directory and a FIFO swapped in for files before file-read; each op counted
#     failed (exit 1), each thing planted kept.
#  4. A URL without the trailing '/', an export the server lacks and a server that is not there: exit 2 with
#     the reason, within a bound, nothing made.
#  5. A Slurm job across both nodes with jobscripts/slurm/mdbench.sbatch and the backend in MDBENCH_ARGS.
# Fails when the test bed is not up (lib.sh).
# shellcheck source=/dev/null
source "$(dirname "$0")/lib.sh"
read -r node_a node_b _ <<<"$MDBENCH_TESTBED_NODES"
[ -n "$node_b" ] || tb_die "the test bed has fewer than 2 nodes ($MDBENCH_TESTBED_NODES)"
for v in MDBENCH_TESTBED_NFS MDBENCH_TESTBED_NFS_VFS_V3 MDBENCH_TESTBED_NFS_VFS_DIR; do
  [ -n "${!v:-}" ] || tb_die "$v is not in scripts/testbed.sh env"
done
ITEMS=20
rel=${TB_FS#"$MDBENCH_TESTBED_CEPHFS"}  # the CephFS export's root is the CephFS root
chmod 755 "$TB_FS"

run() {  # run NAME URL MPIEXEC-ARGS -- MDBENCH-ARGS...: exit status in $rc, output in $TB_TMP/NAME.out
  local name=$1 url=$2 launch=()
  shift 2
  while [ "$1" != -- ]; do launch+=("$1"); shift; done
  shift
  rc=0
  timeout 300 "$TB_SCRIPT" mpiexec "${launch[@]}" "$MDBENCH" -a LIBNFS "--libnfs.url=$url" "$@" \
    >"$TB_TMP/$name.out" 2>&1 || rc=$?
}
counts_ok() {  # counts_ok NAME H5 OPS PHASE...: every listed phase has OPS ok and none failed
  local name=$1 h5=$2 ops=$3
  shift 3
  "$MDBENCH" export "$h5" --format json -o "$TB_TMP/$name.json" || { tb_fail "$name: export"; return; }
  if python3 - "$TB_TMP/$name.json" "$ops" "$MDBENCH_URL" "$@" <<'PY'; then tb_ok "$name: api, URL and counts"; else
import json, sys
doc = json.load(open(sys.argv[1]))
ops, url, phases = int(sys.argv[2]), sys.argv[3], sys.argv[4:]
run = doc["runs"][0]
assert run["attributes"]["api"] == "LIBNFS", run["attributes"]["api"]
assert run["config"]["libnfs.url"] == url, run["config"]
seen = {p["phase"]: p for p in run["phases"]}
for name in phases:
    p = seen[name]
    assert p["ops_ok"] == ops and p["ops_failed"] == 0, (name, p["ops_ok"], p["ops_failed"])
PY
    tb_fail "$name: the results file's api, URL or counts"
  fi
}

# 1. NFSv4 through the CephFS export, 2 nodes, with the MDS's and ganesha's counters.
MDBENCH_URL=$MDBENCH_TESTBED_NFS
for layout in unique shared; do
  extra=()
  [ "$layout" = unique ] && extra=(-u -N 1)
  # shellcheck disable=SC2086  # its words are options, as the README uses it
  run "$layout" "$MDBENCH_URL" -n 4 -ppn 2 -- -F -n $ITEMS -d "$rel/$layout" -o "$TB_TMP/$layout.h5" \
    $MDBENCH_TESTBED_SERVER_STATS "${extra[@]}"
  if [ "$rc" = 0 ]; then tb_ok "$layout: exit 0"; else tb_fail "$layout: exit $rc"; cat "$TB_TMP/$layout.out" >&2; fi
  grep -q '^api: *LIBNFS (-a)' "$TB_TMP/$layout.out" || tb_fail "$layout: the console names no -a LIBNFS"
  grep -q '^target: .*NFSv4 (libnfs)' "$TB_TMP/$layout.out" || tb_fail "$layout: the target line names no NFSv4"
  if [ -e "$TB_FS/$layout" ]; then tb_fail "$layout: $TB_FS/$layout is left"; find "$TB_FS/$layout" | head >&2; else
    tb_ok "$layout: the run's directory is gone, as the head's ceph-fuse mount sees it"; fi
  counts_ok "$layout" "$TB_TMP/$layout.h5" $((4 * ITEMS)) file-create file-stat file-read file-remove
  if "$MDBENCH" check "$TB_TMP/$layout.h5" \
    --require 'file-create.server(mds_server.req_create_latency.avgcount)==ops' \
    --require 'file-remove.server(mds_server.req_unlink_latency.avgcount)==ops' \
    --require 'file-create.server(v4.OPEN)==ops' >"$TB_TMP/$layout.check" 2>&1; then
    tb_ok "$layout: one MDS create and one v4 OPEN per file created, one MDS unlink per file removed"
  else
    tb_fail "$layout: the server counters: $(cat "$TB_TMP/$layout.check")"
  fi
  # The v4 create is mdtest's call (O_CREAT alone) where libnfs makes that exclusive (<= 5.0.3: every v4
  # O_CREAT is EXCLUSIVE4): no SETATTR of the mode after it; with a later libnfs, O_EXCL and one SETATTR
  # per file (docs/libnfs.md). The probe's OPEN on the mark comes before the phase's counters.
  setattrs=0
  if pkg-config --atleast-version=5.0.4 libnfs 2>/dev/null; then setattrs=$((4 * ITEMS)); fi
  if /usr/bin/python3 - "$TB_TMP/$layout.h5" "$((4 * ITEMS))" "$setattrs" <<'PY'; then
import sys, h5py
f = h5py.File(sys.argv[1], "r")
ops, setattrs = int(sys.argv[2]), int(sys.argv[3])
for name, g in f["runs/run-0000/iterations/iter-0000/file-create/server_stats"].items():
    kind = g.attrs["kind"].decode() if isinstance(g.attrs["kind"], bytes) else g.attrs["kind"]
    if kind != "ganesha":
        continue
    rows = {r["name"].decode(): r["delta"] for r in g["counters"][()]}
    print(f"file-create: v4.OPEN {rows.get('v4.OPEN', 0):.0f}, v4.SETATTR {rows.get('v4.SETATTR', 0):.0f}")
    sys.exit(0 if rows.get("v4.OPEN", 0) == ops and rows.get("v4.SETATTR", 0) == setattrs else 1)
sys.exit(1)
PY
    tb_ok "$layout: one v4 OPEN and $((setattrs / (4 * ITEMS))) SETATTR per file created, as libnfs's plain create allows"
  else
    tb_fail "$layout: the v4 create's compounds (above)"
  fi
done

# 2. NFSv3 to the VFS export, every phase.
MDBENCH_URL=$MDBENCH_TESTBED_NFS_VFS_V3
vfs_dir=tb-libnfs-$$
run v3 "$MDBENCH_URL" -n 1 -hosts "$node_a" -- -n 10 -d "/$vfs_dir" -o "$TB_TMP/v3.h5" --file-rename
if [ "$rc" = 0 ]; then tb_ok "v3: exit 0"; else tb_fail "v3: exit $rc"; cat "$TB_TMP/v3.out" >&2; fi
grep -q '^target: .*NFSv3 (libnfs)' "$TB_TMP/v3.out" || tb_fail "v3: the target line names no NFSv3"
counts_ok v3 "$TB_TMP/v3.h5" 10 dir-create dir-stat dir-rename dir-remove file-create file-stat file-read \
  file-rename file-remove
[ ! -e "$MDBENCH_TESTBED_NFS_VFS_DIR/$vfs_dir" ] || tb_fail "v3: $MDBENCH_TESTBED_NFS_VFS_DIR/$vfs_dir is left"

# 2b. --verify-write over v4 and v3: each file read back through the handle that wrote it, every create ok.
for url in "$MDBENCH_TESTBED_NFS" "$MDBENCH_TESTBED_NFS_VFS_V3"; do
  MDBENCH_URL=$url
  name=verify-${url##*version=}
  run "$name" "$url" -n 1 -hosts "$node_a" -- -F -C -r --verify-write -w 3000 -n $ITEMS -d "/$name-$$" \
    -o "$TB_TMP/$name.h5"
  if [ "$rc" = 0 ]; then tb_ok "$name: --verify-write -w 3000, exit 0"; else tb_fail "$name: exit $rc"; cat "$TB_TMP/$name.out" >&2; fi
  counts_ok "$name" "$TB_TMP/$name.h5" $ITEMS file-create file-remove
done

# 3. What the run did not make, planted through the head's ceph-fuse mount while it runs (v4, CephFS).
MDBENCH_URL=$MDBENCH_TESTBED_NFS
tree=mdbench.iter.0/mdbench_tree.0
plant() {  # plant NAME PHASE SHELL-CODE: one rank, -n 4, SHELL-CODE run just before PHASE
  run "$1" "$MDBENCH_URL" -n 1 -hosts "$node_a" -- -n 4 -d "$rel/$1" -o "$TB_TMP/$1.h5" \
    "--run-cmd-before-phase=[ \"\$MDBENCH_PHASE\" != $2 ] || { $3; }"
}
plant planted file-create "echo the-users > $TB_FS/planted/$tree/file.mdbench.0.2"
if [ "$rc" = 1 ] && [ "$(cat "$TB_FS/planted/$tree/file.mdbench.0.2" 2>/dev/null)" = the-users ]; then
  tb_ok "a file planted under a name the run creates: exit 1, kept with its bytes"
else
  tb_fail "planted file: exit $rc, $(cat "$TB_FS/planted/$tree/file.mdbench.0.2" 2>&1)"; cat "$TB_TMP/planted.out" >&2
fi
victim=$TB_FS/swapdir/$tree/file.mdbench.0.1
# An empty one: NFS's REMOVE of an empty directory succeeds over v4.
plant swapdir file-remove "rm $victim && mkdir $victim"
if [ "$rc" = 1 ] && [ -d "$victim" ]; then
  tb_ok "an empty directory swapped in for a file before file-remove: exit 1, kept"
else
  tb_fail "swapped directory: exit $rc, $(ls -la "$victim" 2>&1)"; cat "$TB_TMP/swapdir.out" >&2
fi
victim=$TB_FS/swapfile/$tree/dir.mdbench.0.1
plant swapfile dir-remove "rmdir $victim && echo the-users > $victim"
if [ "$rc" = 1 ] && [ "$(cat "$victim" 2>/dev/null)" = the-users ]; then
  tb_ok "a file swapped in for a directory before dir-remove: exit 1, kept"
else
  tb_fail "swapped file: exit $rc, $(ls -la "$victim" 2>&1)"; cat "$TB_TMP/swapfile.out" >&2
fi
# Before file-read: a symlink to a user's file, a directory and a FIFO in place of three of the run's files:
# each read fails at once (v4's OPEN refuses them; nothing followed, no FIFO opened), all kept.
echo the-users >"$TB_TMP/users-file"
tree_rd=$TB_FS/swapread/$tree
plant swapread file-read "rm $tree_rd/file.mdbench.0.1 $tree_rd/file.mdbench.0.2 $tree_rd/file.mdbench.0.3 &&
  ln -s $TB_TMP/users-file $tree_rd/file.mdbench.0.1 && mkdir $tree_rd/file.mdbench.0.2 && mkfifo $tree_rd/file.mdbench.0.3"
if [ "$rc" = 1 ] && grep -Eq '^ *done: iteration 0 file-read +4 ops .* 3 failed' "$TB_TMP/swapread.out" &&
  [ -L "$tree_rd/file.mdbench.0.1" ] && [ -d "$tree_rd/file.mdbench.0.2" ] && [ -p "$tree_rd/file.mdbench.0.3" ] &&
  [ "$(cat "$TB_TMP/users-file")" = the-users ]; then
  tb_ok "a symlink, a directory and a FIFO swapped in before file-read: 3 reads failed, all kept"
else
  tb_fail "swapped before read: exit $rc"; cat "$TB_TMP/swapread.out" >&2
fi
# mdbench clean -a LIBNFS on what those runs left (DIR as their -d), through libnfs: everything planted or
# swapped in stays (exit 1); once the test takes its things back, the rest goes (exit 0).
clean_nfs() {  # clean_nfs NAME DIR...
  local name=$1
  shift
  rc=0
  timeout 120 "$MDBENCH" clean -a LIBNFS "--libnfs.url=$MDBENCH_TESTBED_NFS" "$@" >"$TB_TMP/$name.out" 2>&1 || rc=$?
}
clean_nfs clean-kept "$rel/planted" "$rel/swapdir" "$rel/swapfile" "$rel/swapread"
if [ "$rc" = 1 ] && [ "$(cat "$TB_FS/planted/$tree/file.mdbench.0.2" 2>/dev/null)" = the-users ] &&
  [ -d "$TB_FS/swapdir/$tree/file.mdbench.0.1" ] && [ "$(cat "$TB_FS/swapfile/$tree/dir.mdbench.0.1")" = the-users ] &&
  [ -L "$tree_rd/file.mdbench.0.1" ] && [ -d "$tree_rd/file.mdbench.0.2" ] && [ -p "$tree_rd/file.mdbench.0.3" ] &&
  [ "$(cat "$TB_TMP/users-file")" = the-users ]; then
  tb_ok "clean -a LIBNFS: exit 1, every planted and swapped-in entry kept"
else
  tb_fail "clean -a LIBNFS with planted entries: exit $rc"; cat "$TB_TMP/clean-kept.out" >&2
fi
rm -rf "$TB_FS/planted/$tree/file.mdbench.0.2" "$TB_FS/swapdir/$tree/file.mdbench.0.1" \
  "$TB_FS/swapfile/$tree/dir.mdbench.0.1" "$tree_rd/file.mdbench.0.1" "$tree_rd/file.mdbench.0.2" \
  "$tree_rd/file.mdbench.0.3" || tb_fail "cannot take the planted entries back"
clean_nfs clean "$rel/planted" "$rel/swapdir" "$rel/swapfile" "$rel/swapread"
if [ "$rc" = 0 ] && [ ! -e "$TB_FS/planted" ] && [ ! -e "$TB_FS/swapdir" ] && [ ! -e "$TB_FS/swapfile" ] &&
  [ ! -e "$TB_FS/swapread" ]; then
  tb_ok "clean -a LIBNFS: exit 0 once they are taken back, the 4 runs' directories removed"
else
  tb_fail "clean -a LIBNFS: exit $rc"; cat "$TB_TMP/clean.out" >&2
fi
rm -rf "$TB_FS/planted" "$TB_FS/swapdir" "$TB_FS/swapfile" "$TB_FS/swapread" || tb_fail "cannot tidy the planted cases"

# 4. Refused before anything is made, within a bound.
refused() {  # refused WHAT URL MESSAGE
  local t0=$SECONDS
  rc=0
  timeout 120 "$MDBENCH" -a LIBNFS "--libnfs.url=$2" -F -n 2 -d "$rel/refused" >"$TB_TMP/refused.out" 2>&1 || rc=$?
  if [ "$rc" = 2 ] && grep -qF -- "$3" "$TB_TMP/refused.out" && [ ! -e "$TB_FS/refused" ]; then
    tb_ok "$1: exit 2 after $((SECONDS - t0)) s, says why, nothing made"
  else
    tb_fail "$1: exit $rc after $((SECONDS - t0)) s: $(cat "$TB_TMP/refused.out")"
  fi
}
server=${MDBENCH_TESTBED_NFS#nfs://}
server=${server%%/*}
refused "no trailing '/'" "nfs://$server/cephfs?version=4" "the export path must end with '/'"
refused "an export the server lacks" "nfs://$server/nosuch/?version=4" "-a LIBNFS: cannot mount /nosuch from $server"
refused "no server there" "nfs://${server%.*}.250/cephfs/?version=4" "-a LIBNFS: cannot mount /cephfs from ${server%.*}.250"

# 5. In a Slurm job across both nodes: jobscripts/slurm/mdbench.sbatch with the backend in MDBENCH_ARGS (the
# script passes the target to mdbench and makes no call on it itself).
for v in $(compgen -v SLURM_); do [ "$v" = SLURM_CONF ] || unset "$v"; done
unset HYDRA_LAUNCHER HYDRA_RMK HYDRA_LAUNCHER_EXEC HYDRA_HOST_FILE
rc=0
(cd "$TB_TMP" && MDBENCH_BIN=$MDBENCH MDBENCH_TARGET=$rel/job MDBENCH_ITEMS=10 MDBENCH_PROGRESS=0 \
  MDBENCH_ARGS="-a LIBNFS --libnfs.url=$MDBENCH_TESTBED_NFS -F -u" timeout 300 sbatch --wait -N 2 \
  --ntasks-per-node=1 -o "$TB_TMP/job.out" "$TB_TESTS/../../jobscripts/slurm/mdbench.sbatch" >/dev/null) || rc=$?
if [ "$rc" = 0 ] && grep -q '^api: *LIBNFS (-a)' "$TB_TMP/job.out" && grep -q 'exit status 0' "$TB_TMP/job.out" &&
  [ ! -e "$TB_FS/job" ]; then
  tb_ok "a Slurm job (mdbench.sbatch, MDBENCH_ARGS=-a LIBNFS ...): exit 0 on 2 nodes, nothing left"
else
  tb_fail "Slurm job: exit $rc: $(tail -n 20 "$TB_TMP/job.out" 2>&1)"
fi

[ "$(tb_entries "$TB_FS")" = 0 ] || tb_fail "entries left in $TB_FS: $(ls -A "$TB_FS")"
[ "$TB_FAILED" = 0 ] || { echo "tb_libnfs_run: $TB_FAILED failure(s)" >&2; exit 1; }
tb_ok "-a LIBNFS on the test bed"
