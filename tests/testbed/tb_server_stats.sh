#!/usr/bin/env bash
# --server-stats against the test bed's real MDS (issue 20; two active and a standby): 2 nodes x 2 ranks on CephFS.
#  1. file-create: mds_server.req_create_latency.avgcount summed over the MDS equals the creates, exactly;
#  2. file-stat through the other rank's client (-N 1) makes the MDS answer more lookups and getattrs than the
#     same stat without a shift (each client stats what it created itself: mostly from its cache);
#  3. a directory pinned to MDS rank 1 (ceph.dir.pin) takes all its creates on that MDS.
# Prints the table of MDS requests per client op for each phase, with and without -N.
# shellcheck source=/dev/null
source "$(dirname "$0")/lib.sh"
read -r -a sources <<<"${MDBENCH_TESTBED_MDS_SOCKETS:-}"
[ "${#sources[@]}" = 3 ] || tb_die "MDBENCH_TESTBED_MDS_SOCKETS has ${#sources[@]} sockets, expected 3 (two active, a standby)"
ITEMS=500  # per rank: 2000 creates

# The README's form: MDBENCH_TESTBED_SERVER_STATS unquoted on the command line, as written there (issue 29: it
# held bare sources, and both this form and `--server-stats $VAR` exited 2). The runs below use it.
# shellcheck disable=SC2206
ss_args=($MDBENCH_TESTBED_SERVER_STATS)
expect=()
for s in "${sources[@]}"; do expect+=("--server-stats=ceph-mds:$s"); done
expect+=("--server-stats=ganesha:$MDBENCH_TESTBED_NFS_BUS")  # the NFS gateway's counters (issue 32)
if [ "${ss_args[*]}" = "${expect[*]}" ]; then tb_ok "README form: one --server-stats per MDS, and ganesha's"; else
  tb_fail "README form: MDBENCH_TESTBED_SERVER_STATS is '${ss_args[*]}', expected '${expect[*]}'"; fi
# The flag before the variable: exit 2, nothing made, and a message that says the flag is doubled.
rc=0
# shellcheck disable=SC2086
"$MDBENCH" -F -n 1 -d "$TB_FS/doubled" --server-stats $MDBENCH_TESTBED_SERVER_STATS >"$TB_TMP/doubled.out" 2>&1 ||
  rc=$?
if [ "$rc" = 2 ] && grep -q "is the same option: each --server-stats takes its own value" "$TB_TMP/doubled.out" &&
  [ ! -e "$TB_FS/doubled" ]; then tb_ok "--server-stats \$MDBENCH_TESTBED_SERVER_STATS: exit 2, says why"; else
  tb_fail "--server-stats \$MDBENCH_TESTBED_SERVER_STATS: exit $rc: $(cat "$TB_TMP/doubled.out")"; fi

run_mdbench() {  # run_mdbench NAME ARGS...: 4 ranks over the nodes, results in $TB_TMP/NAME.h5
  local name=$1 rc=0
  shift
  mkdir "$TB_FS/$name"
  # shellcheck disable=SC2086  # the README's form, as written
  timeout 300 "$TB_SCRIPT" mpiexec -n 4 -ppn 2 "$MDBENCH" $MDBENCH_TESTBED_SERVER_STATS -d "$TB_FS/$name" \
    -o "$TB_TMP/$name.h5" "$@" >"$TB_TMP/$name.out" 2>&1 || rc=$?
  if [ "$rc" = 0 ]; then tb_ok "$name: exit 0"; else tb_fail "$name: exit $rc"; cat "$TB_TMP/$name.out" >&2; fi
  rmdir "$TB_FS/$name" 2>/dev/null || tb_fail "$name: $TB_FS/$name not empty"
}

run_mdbench shift1 -F -u -C -T -E -e 0 -r -n $ITEMS -N 1
run_mdbench noshift -F -u -C -T -E -e 0 -r -n $ITEMS

# The MDS daemon holding rank 1, and its source's index in MDBENCH_TESTBED_SERVER_STATS.
rank1=$(timeout 30 ceph fs get mdbfs --format=json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
info = json.load(sys.stdin)["mdsmap"]["info"].values()
print([m["name"] for m in info if m["rank"] == 1][0])') || tb_die "cannot ask ceph which MDS holds rank 1"
rank1_source=-1
for i in "${!sources[@]}"; do [[ ${sources[$i]} == */mds.$rank1.asok ]] && rank1_source=$i; done
[ "$rank1_source" -ge 0 ] || tb_die "no source for mds.$rank1 in ${sources[*]}"

# A pin takes effect once the directory holds an entry (TESTBED.md: about 7 s; longer on a loaded machine):
# wait until MDS rank 1 lists /pinned among the subtrees it is the authority of (its admin socket's
# `get subtrees`), at most 120 s.
mkdir "$TB_FS/pinned"
setfattr -n ceph.dir.pin -v 1 "$TB_FS/pinned" || tb_die "setfattr ceph.dir.pin"
touch "$TB_FS/pinned/.entry"
rank1_socket=${sources[$rank1_source]}
pinned_path=${TB_FS#"$MDBENCH_TESTBED_CEPHFS"}/pinned  # as the MDS names it: from the root of CephFS
pin_deadline=$((SECONDS + 120))
until timeout 10 ceph --admin-daemon "$rank1_socket" get subtrees 2>/dev/null | /usr/bin/python3 -c '
import json, sys
sys.exit(0 if any(t["dir"]["path"] == sys.argv[1] and t.get("is_auth") and t.get("auth_first") == 1
                  for t in json.load(sys.stdin)) else 1)' "$pinned_path"; do
  [ "$SECONDS" -lt "$pin_deadline" ] || tb_die "the pin of $pinned_path to MDS rank 1 took no effect within 120 s"
  sleep 1
done
tb_ok "pinned: $pinned_path is a subtree of MDS rank 1"
mkdir "$TB_FS/pinned/run"
if timeout 300 "$TB_SCRIPT" mpiexec -n 4 -ppn 2 "$MDBENCH" "${ss_args[@]}" -d "$TB_FS/pinned/run" \
  -o "$TB_TMP/pinned.h5" -F -u -C -r -n 100 >"$TB_TMP/pinned.out" 2>&1; then
  tb_ok "pinned: exit 0"
else
  tb_fail "pinned: run failed"
  cat "$TB_TMP/pinned.out" >&2
fi
if ! { rmdir "$TB_FS/pinned/run" && rm "$TB_FS/pinned/.entry" && rmdir "$TB_FS/pinned"; }; then
  tb_fail "pinned: leftovers"
fi

/usr/bin/python3 - "$TB_TMP" "$ITEMS" "$rank1_source" <<'PY' || TB_FAILED=$((TB_FAILED + 1))
import sys
import h5py

tmp, items, rank1 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
CREATE, LOOKUP, GETATTR = ("mds_server.req_%s_latency.avgcount" % op for op in ("create", "lookup", "getattr"))

def phases(name):
    with h5py.File(f"{tmp}/{name}.h5", "r") as f:
        run = f["runs/run-0000"]
        assert run.attrs["exit_status"] == 0, run.attrs["exit_status"]
        out = {}
        for phase, g in run["iterations/iter-0000"].items():
            ops = int(g.attrs["ops_ok"]) + int(g.attrs["ops_failed"])
            per = []
            for src in sorted(g["server_stats"]):
                s = g["server_stats"][src]
                assert s.attrs["status"] in ("ok", b"ok"), (name, phase, src, s.attrs["status"], s.attrs["problem"])
                per.append({r["name"].decode(): float(r["delta"]) for r in s["counters"][()]})
            out[phase] = (ops, per)
        return out

def total(per, name):
    return sum(p.get(name, 0.0) for p in per)

failed = []
runs = {"-N 1": phases("shift1"), "no shift": phases("noshift")}
print("MDS requests per client op (CephFS, 2 MDS, ceph-fuse, 2 nodes x 2 ranks, %d files per rank)" % items)
print(f"{'run':<9} {'phase':<12} {'ops':>6} {'mds.request a/b':>16} {'req/op':>7} {'create':>7} {'lookup':>7} {'getattr':>8} {'forward':>8}")
for run, ph in runs.items():
    for phase, (ops, per) in ph.items():
        req = [p.get("mds.request", 0.0) for p in per]
        print(f"{run:<9} {phase:<12} {ops:>6} {'/'.join('%.0f' % r for r in req):>16} {sum(req) / max(ops, 1):>7.3f} "
              f"{total(per, CREATE):>7.0f} {total(per, LOOKUP):>7.0f} {total(per, GETATTR):>8.0f} {total(per, 'mds.forward'):>8.0f}")
for run, ph in runs.items():
    ops, per = ph["file-create"]
    if total(per, CREATE) != ops or ops != 4 * items:
        failed.append(f"{run}: file-create: {total(per, CREATE)} creates on the MDS for {ops} client creates")
stat_n1 = total(runs["-N 1"]["file-stat"][1], LOOKUP) + total(runs["-N 1"]["file-stat"][1], GETATTR)
stat_own = total(runs["no shift"]["file-stat"][1], LOOKUP) + total(runs["no shift"]["file-stat"][1], GETATTR)
print(f"file-stat lookups+getattrs: -N 1 {stat_n1:.0f}, no shift {stat_own:.0f}")
if not stat_n1 > stat_own:
    failed.append(f"file-stat: -N 1 made {stat_n1} lookups+getattrs, not more than without shift ({stat_own})")
ops, per = phases("pinned")["file-create"]
on_rank1, elsewhere = per[rank1].get(CREATE, 0.0), total(per, CREATE) - per[rank1].get(CREATE, 0.0)
print(f"pinned to MDS rank 1 (source {rank1}): {on_rank1:.0f} creates there, {elsewhere:.0f} elsewhere, {ops} client creates")
if on_rank1 != ops or elsewhere != 0:
    failed.append(f"pinned: {on_rank1} creates on MDS rank 1 and {elsewhere} elsewhere for {ops}")
for f in failed:
    print("FAIL:", f, file=sys.stderr)
sys.exit(1 if failed else 0)
PY
[ "$TB_FAILED" = 0 ] || { echo "tb_server_stats: $TB_FAILED failure(s)" >&2; exit 1; }
echo "tb_server_stats: passed"
