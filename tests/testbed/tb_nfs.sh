#!/usr/bin/env bash
# The test bed's NFS gateway (issue 32): NFS-Ganesha in its own namespaces with the CephFS (FSAL CEPH) and a
# local directory (FSAL VFS) exported over NFSv3 and v4.
#  1. status shows ganesha, rpcbind and the private bus; nfs-ls answers on both exports, v3 and v4;
#  2. a file copied in through the CephFS export (v4 and v3) is the same file through the head's ceph-fuse
#     mount, at the same path; one through the VFS export is in the exported directory;
#  3. --server-stats ganesha:ADDRESS: a run whose file-create phase also makes 10 files through the export
#     over v4 and 10 over v3 (--run-cmd-after-phase, inside the phase): ganesha's v4.OPEN and v3.CREATE moved
#     by exactly 10 each, both MDS together took exactly 5 + 20 creates, and the console shows the NFS and
#     the MDS requests by operation;
#  4. the real mdtest -a LIBNFS (a reference build of hpc/ior, $MDTEST_REF or /opt/ior-src/src/mdtest) from
#     2 nodes to the CephFS export (v4) and from 1 to the VFS export (v3): exit 0, nothing left. mdtest is in
#     no Debian package: on a machine without that build, this part says so and is not counted (1-3 are).
# shellcheck source=/dev/null
source "$(dirname "$0")/lib.sh"
MDTEST=${MDTEST_REF:-/opt/ior-src/src/mdtest}
for v in MDBENCH_TESTBED_NFS MDBENCH_TESTBED_NFS_V3 MDBENCH_TESTBED_NFS_VFS MDBENCH_TESTBED_NFS_VFS_V3 \
  MDBENCH_TESTBED_NFS_VFS_DIR MDBENCH_TESTBED_NFS_BUS; do
  [ -n "${!v:-}" ] || tb_die "$v is not in scripts/testbed.sh env"
done
command -v nfs-cp >/dev/null || tb_die "nfs-cp missing (libnfs-utils, scripts/deps.sh)"

# 1. Up, answering.
status=$("$TB_SCRIPT" status 2>&1)
for d in "ganesha nfs" "rpcbind nfs" "dbus-daemon nfs"; do
  if grep -q "^$d: running (pid" <<<"$status"; then tb_ok "status: $d running"; else tb_fail "status: no '$d: running'"; fi
done
for url in "$MDBENCH_TESTBED_NFS" "$MDBENCH_TESTBED_NFS_V3" "$MDBENCH_TESTBED_NFS_VFS" "$MDBENCH_TESTBED_NFS_VFS_V3"; do
  if timeout 30 nfs-ls "$url" >/dev/null 2>"$TB_TMP/ls.err"; then tb_ok "nfs-ls $url"; else
    tb_fail "nfs-ls $url: $(cat "$TB_TMP/ls.err")"; fi
done

# 2. The same files through NFS and through ceph-fuse.
rel=${TB_FS#"$MDBENCH_TESTBED_CEPHFS"}  # from the root of CephFS: the export's root
cephfs_base=${MDBENCH_TESTBED_NFS%/\?version=4}
vfs_base=${MDBENCH_TESTBED_NFS_VFS%/\?version=4}
head -c 3000 /dev/urandom >"$TB_TMP/data"
for v in 3 4; do
  timeout 30 nfs-cp "$TB_TMP/data" "$cephfs_base$rel/v$v?version=$v" >/dev/null || tb_fail "nfs-cp v$v to the CephFS export"
  if cmp -s "$TB_TMP/data" "$TB_FS/v$v"; then tb_ok "v$v: the file made through NFS is in CephFS at $TB_FS/v$v"; else
    tb_fail "v$v: $TB_FS/v$v differs or is missing through ceph-fuse"; fi
  rm -f "$TB_FS/v$v"
  name=tb-nfs-$$-v$v
  timeout 30 nfs-cp "$TB_TMP/data" "$vfs_base/$name?version=$v" >/dev/null || tb_fail "nfs-cp v$v to the VFS export"
  if cmp -s "$TB_TMP/data" "$MDBENCH_TESTBED_NFS_VFS_DIR/$name"; then tb_ok "v$v: the VFS export's file is on disk"; else
    tb_fail "v$v: $MDBENCH_TESTBED_NFS_VFS_DIR/$name differs or is missing"; fi
  rm -f "$MDBENCH_TESTBED_NFS_VFS_DIR/$name"
done

# 3. Ganesha's counters per phase, beside the MDS's.
# libnfs's v3 MOUNT of a subdirectory needs its parents searchable by others (mktemp made TB_FS 0700).
chmod 755 "$TB_FS"
mkdir -m 777 "$TB_FS/nfs4" "$TB_FS/nfs3"
cat >"$TB_TMP/nfs-creates.sh" <<SH
n=\$(date +%s%N)
for i in 1 2 3 4 5 6 7 8 9 10; do
  nfs-cp "$TB_TMP/data" "$cephfs_base$rel/nfs4/f\$n.\$i?version=4" >/dev/null || exit 1
  nfs-cp "$TB_TMP/data" "$cephfs_base$rel/nfs3/f\$n.\$i?version=3" >/dev/null || exit 1
done
SH
rc=0
# shellcheck disable=SC2086  # the README's form, as written
timeout 300 "$MDBENCH" $MDBENCH_TESTBED_SERVER_STATS -F -C -n 5 -d "$TB_FS/run" -o "$TB_TMP/nfs.h5" \
  --run-cmd-after-phase "sh $TB_TMP/nfs-creates.sh" >"$TB_TMP/run.out" 2>&1 || rc=$?
cat "$TB_TMP/run.out"
if [ "$rc" = 0 ]; then tb_ok "server stats run: exit 0"; else tb_fail "server stats run: exit $rc"; fi
for line in "server ganesha:$MDBENCH_TESTBED_NFS_BUS \[ok\]: " "v4.OPEN +10 " "v3.CREATE +10 " "create +2[0-9] "; do
  if grep -Eq "^ +$line" "$TB_TMP/run.out"; then tb_ok "console: '$line'"; else tb_fail "console: no line '$line'"; fi
done
if grep -q "msgr_send_bytes\|mempool" "$TB_TMP/run.out"; then tb_fail "console shows messenger or memory counters"; fi
if /usr/bin/python3 - "$TB_TMP/nfs.h5" <<'PY'; then tb_ok "file-create: NFS and MDS counts exact"; else tb_fail "counts"; fi
import sys, h5py
f = h5py.File(sys.argv[1], "r")
ph = f["runs/run-0000/iterations/iter-0000/file-create/server_stats"]
kinds, mds_creates, nfs = {}, 0.0, {}
for name, g in ph.items():
    rows = {r["name"].decode(): r["delta"] for r in g["counters"][()]}
    kind = g.attrs["kind"].decode() if isinstance(g.attrs["kind"], bytes) else g.attrs["kind"]
    if kind == "ceph-mds":
        mds_creates += rows.get("mds_server.req_create_latency.avgcount", 0.0)
    elif kind == "ganesha":
        nfs = rows
print(f"MDS creates {mds_creates:.0f}; ganesha v4.OPEN {nfs.get('v4.OPEN')}, v3.CREATE {nfs.get('v3.CREATE')}")
ok = mds_creates == 25 and nfs.get("v4.OPEN") == 10 and nfs.get("v3.CREATE") == 10
sys.exit(0 if ok else 1)
PY
"$MDBENCH" validate "$TB_TMP/nfs.h5" >/dev/null 2>&1 || tb_fail "validate nfs.h5"
# The command ran after file-create only, as mdtest's epilogue (none after tree-create): 10 files.
[ "$(tb_entries "$TB_FS/nfs3")" = 10 ] || tb_fail "nfs3: $(tb_entries "$TB_FS/nfs3") entries through ceph-fuse, expected 10"
[ "$(tb_entries "$TB_FS/nfs4")" = 10 ] || tb_fail "nfs4: $(tb_entries "$TB_FS/nfs4") entries through ceph-fuse, expected 10"
rm -rf "$TB_FS/nfs4" "$TB_FS/nfs3" "$TB_FS/run"

# 4. The reference mdtest's LIBNFS backend as a client.
mdt() {  # mdt WHAT URL ARGS...
  local what=$1 url=$2
  shift 2
  if timeout 300 "$TB_SCRIPT" mpiexec "$@" "$MDTEST" -a LIBNFS --libnfs.url="$url" -d "/tb-nfs-$$" -n 20 -F \
    >"$TB_TMP/mdt.out" 2>&1; then tb_ok "mdtest -a LIBNFS $what"; else
    tb_fail "mdtest -a LIBNFS $what"; tail -20 "$TB_TMP/mdt.out" >&2; fi
}
if [ -x "$MDTEST" ]; then
  mdt "v4, CephFS, 2 nodes" "$MDBENCH_TESTBED_NFS" -n 2 -ppn 1
  [ ! -e "$MDBENCH_TESTBED_CEPHFS/tb-nfs-$$" ] || tb_fail "mdtest left $MDBENCH_TESTBED_CEPHFS/tb-nfs-$$"
  mdt "v3, VFS, 1 node" "$MDBENCH_TESTBED_NFS_VFS_V3" -n 1 -hosts node1
  [ ! -e "$MDBENCH_TESTBED_NFS_VFS_DIR/tb-nfs-$$" ] || tb_fail "mdtest left $MDBENCH_TESTBED_NFS_VFS_DIR/tb-nfs-$$"
else
  echo "note: no reference mdtest at $MDTEST (MDTEST_REF): its -a LIBNFS against the gateway not run"
fi

[ "$TB_FAILED" = 0 ] || { echo "tb_nfs: $TB_FAILED failure(s)" >&2; exit 1; }
echo "tb_nfs: passed"
