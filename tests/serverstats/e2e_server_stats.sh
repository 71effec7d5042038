#!/usr/bin/env bash
# --server-stats with cmd: sources on tmpfs at 1 and 2 ranks: the deltas in the results file (read back with
# h5py) match what the phases did, validate accepts the file and rejects tampered deltas, export carries
# them, an unreadable source is a usage error (exit 2) and one failing mid-run gives exit 4 with the client
# numbers kept.
# shellcheck source=lib.sh
source "$(dirname "$0")/../e2e/lib.sh" "$@"
py=/usr/bin/python3

# Counts the regular files under the target (goes up in creates, backwards in removes) and a call counter.
mkdir -p "$BASE/t"
files_src="cmd:printf 'files %s\n' \$(find $BASE/t -type f | wc -l)"
calls_src="cmd:n=\$(cat $BASE/calls 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >$BASE/calls; echo \"{\\\"calls\\\": {\\\"n\\\": \$n}}\""

for np in 1 2; do
  what="server stats np=$np"
  f=$BASE/s.$np.h5
  rm -f "$BASE/calls"
  run "$np" -d "$BASE/t" -n 50 -u -F -C -T -r --server-stats "$files_src" --server-stats "$calls_src" -o "$f"
  expect_rc 0 "$what: run"
  expect_in "$OUT" "server cmd:printf" "$what: console names the source"
  if "$py" - "$f" "$np" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "$what: file: $(cat "$BASE/check.txt")"; fi
import sys, h5py
f = h5py.File(sys.argv[1], "r")
np_ = int(sys.argv[2])
it = f["runs/run-0000/iterations/iter-0000"]
assert f.attrs["schema_version"] >= 7, f.attrs["schema_version"]
def source(phase, i):
    g = it[phase]["server_stats"][f"source-{i:02}"]
    rows = {r["name"].decode(): (r["before"], r["after"], r["delta"]) for r in g["counters"][()]}
    return g, rows
g, rows = source("file-create", 0)
assert g.attrs["status"] == b"ok" or g.attrs["status"] == "ok", g.attrs["status"]
assert g.attrs["kind"] in (b"cmd", "cmd")
assert rows["files"][2] == 50 * np_, rows
assert rows["files"][1] - rows["files"][0] == 50 * np_, rows
assert g.attrs["t_before"] <= g.attrs["t_after"]
rank0 = it["file-create"]["ranks"][()][0]  # the sampling times are on rank 0's clock
assert g.attrs["t_before"] <= rank0["t_start"] and rank0["t_global_end"] <= g.attrs["t_after"], (g.attrs["t_before"], rank0)
_, stat_rows = source("file-stat", 0)
assert "files" not in stat_rows, stat_rows   # did not move, not primary
g, rows = source("file-remove", 0)
st = g.attrs["status"]; st = st.decode() if isinstance(st, bytes) else st
assert st == "went-backwards", st
assert rows["files"][2] == 0 and rows["files"][1] < rows["files"][0], rows
for phase in ("file-create", "file-stat", "file-remove"):
    _, calls = source(phase, 1)
    assert calls["calls.n"][2] == 1, (phase, calls)
PY
  run 0 validate "$f"
  expect_rc 0 "$what: validate"
  run 0 export --format json "$f"
  expect_rc 0 "$what: export json"
  expect_in "$OUT" '"server_stats"' "$what: json has server_stats"
  run 0 export --format csv "$f"
  expect_rc 0 "$what: export csv"
  expect_in "$OUT" "run,iteration,phase,source,kind,status,counter,before,after,delta" "$what: csv table"
  expect_in "$OUT" ",file-create,cmd:printf 'files %s\\n' \$(find $BASE/t -type f | wc -l),cmd,ok,files,2,$((2 + 50 * np)),$((50 * np))" "$what: csv row"
  # shellcheck disable=SC2016 # the command's text, not an expansion
  expect_in "$OUT" ',file-remove,"cmd:n=$(cat' "$what: csv field quoted"
done

# The report puts each phase's counters beside its rate.
run 0 report "$BASE/s.2.h5"
expect_rc 0 "report"
expect_in "$OUT" "Metadata server counters (--server-stats; first iteration of each run):" "report: section"
expect_in "$OUT" "          files                                                       100" "report: create delta"

# Tampered deltas: validate recomputes after - before.
cp "$BASE/s.2.h5" "$BASE/tampered.h5"
"$py" - "$BASE/tampered.h5" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r+")
d = f["runs/run-0000/iterations/iter-0000/file-create/server_stats/source-00/counters"]
rows = d[()]
rows["delta"][0] += 1
d[...] = rows
PY
run 0 validate "$BASE/tampered.h5"
expect_rc 1 "tampered: validate"
if grep -q "file-create/server_stats/source-00: counter files: delta 101 but after - before" "$OUT" "$ERR"; then pass; else fail "tampered: names the counter"; fi

# A source unreadable before the run: usage error naming it, nothing made.
run 2 -d "$BASE/u" -n 5 -F --server-stats "cmd:exit 7" -o "$BASE/u.h5"
expect_rc 2 "unreadable source"
expect_in "$ERR" "--server-stats 'cmd:exit 7': cannot be read: 'exit 7': exit status 7" "unreadable source: message"
if [ ! -e "$BASE/u" ] && [ ! -e "$BASE/u.h5" ]; then pass; else fail "unreadable source: something was made"; fi
run 1 -d "$BASE/u" -n 5 -F --server-stats "nfs:/x"
expect_rc 2 "bad source kind"
expect_in "$ERR" "--server-stats: 'nfs:/x': expected ceph-mds:ADMIN_SOCKET, lustre-mdt:PATH_GLOB, ganesha:DBUS_ADDRESS or cmd:COMMAND" "bad kind: message"

# A source that fails once the files exist: the phases keep their client numbers, exit status 4.
mkdir -p "$BASE/m"
run 2 -d "$BASE/m" -n 20 -u -F -C -T -r -o "$BASE/m.h5" \
  --server-stats "cmd:test \$(find $BASE/m -type f | wc -l) -lt 10 && echo ok 1"
expect_rc 4 "failing mid-run"
expect_in "$ERR" "exit status 4 (every operation succeeded; server counters incomplete (--server-stats))" "failing: status line"
expect_in "$OUT" "[failed]" "failing: console shows the failed source"
if "$py" - "$BASE/m.h5" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "failing mid-run: file: $(cat "$BASE/check.txt")"; fi
import sys, h5py
it = h5py.File(sys.argv[1], "r")["runs/run-0000/iterations/iter-0000"]
g = it["file-create/server_stats/source-00"]
st = g.attrs["status"]; st = st.decode() if isinstance(st, bytes) else st
assert st == "failed", st
assert len(g["counters"]) == 0
assert sum(it["file-create/ranks"][()]["ok"]) == 40
PY
run 0 validate "$BASE/m.h5"
expect_rc 0 "failing mid-run: validate"

echo "e2e_server_stats: $PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
