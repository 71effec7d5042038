#!/usr/bin/env bash
# The steady state (--steady) in the HDF5 results file: the real binary on 2 ranks, the file read back with
# h5py (every op's count from the config, the agreed rounds on every rank, each histogram adding up to its
# op's successful count), then validated, exported and reported.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3

np=2
rounds=20
datasets=4
items=160
f=$BASE/steady.h5
run "$np" --steady "$rounds" --datasets "$datasets" -n "$items" -d "$BASE/t" -o "$f"
expect_rc 0 "steady run"

if "$py" - "$f" "$np" "$rounds" "$datasets" "$items" <<'PY' >"$BASE/check.txt" 2>&1; then
import sys, h5py
path, ranks, rounds, datasets, items = sys.argv[1], *map(int, sys.argv[2:])
run = h5py.File(path, "r")["runs/run-0000"]
assert run.attrs["status"] == "complete", run.attrs["status"]
config = run["config"].attrs
assert int(config["steady_rounds"]) == rounds and int(config["datasets"]) == datasets
iterations = list(run["iterations"].values())
assert len(iterations) == 1, len(iterations)
assert list(iterations[0].keys()) == ["steady"], list(iterations[0].keys())
steady = iterations[0]["steady"]
assert int(steady.attrs["rounds"]) == rounds
assert sorted(steady.keys()) == ["cleanup", "mix", "precreate"], list(steady.keys())
want = {
    "precreate": {"mkdir": datasets, "create": items},
    "mix": {op: rounds * datasets for op in ("stat", "read", "delete", "create")},
    "cleanup": {"delete": items, "rmdir": datasets},
}
for name, ops in want.items():
    g = steady[name]
    rows = g["ranks"][:]
    assert len(rows) == ranks, (name, len(rows))
    assert g.attrs["failed"] == 0, (name, g.attrs["failed"])
    assert "errors" not in g, name
    for op, per_rank in ops.items():
        assert list(rows[op + "_ok"]) == [per_rank] * ranks, (name, op, rows[op + "_ok"])
        assert int(g.attrs[op + "_ok"]) == per_rank * ranks, (name, op)
        assert int(g["latency_" + op][:].sum()) == per_rank * ranks, (name, op)
        assert g.attrs[op + "_ops_per_s"] > 0, (name, op)
    for op in {"mkdir", "stat", "read", "delete", "create", "rmdir"} - set(ops):
        assert "latency_" + op not in g, (name, op)
        assert rows[op + "_ok"].sum() == 0 and rows[op + "_failed"].sum() == 0, (name, op)
    assert (rows["t_start"] <= rows["t_local_end"]).all() and (rows["t_local_end"] <= rows["t_global_end"]).all()
mix = steady["mix"]
assert list(mix["ranks"][:]["rounds"]) == [rounds] * ranks
assert int(mix.attrs["rounds"]) == rounds and mix.attrs["rounds_per_s"] > 0 and mix.attrs["objects_per_s"] > 0
assert mix.attrs["stonewalled"] == 0
PY
  pass
else
  fail "steady results read with h5py: $(cat "$BASE/check.txt")"
fi

run 0 validate "$f"
expect_rc 0 "validate"
expect_in "$OUT" "$f: valid" "validate says valid"

# Damage: one more stat in the mix's histogram than rank 0's stat_ok says.
cp "$f" "$BASE/damaged.h5"
"$py" - "$BASE/damaged.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    d = f["runs/run-0000/iterations/iter-0000/steady/mix/latency_stat"]
    counts = d[:]
    counts[100] += 1
    d[:] = counts
PY
run 0 validate "$BASE/damaged.h5"
expect_rc 1 "validate a damaged histogram"
expect_in "$OUT" "steady/mix/latency_stat: sum of counts" "validate names the histogram"

run 0 export "$f" --format json
expect_rc 0 "export json"
if "$py" - "$OUT" "$rounds" <<'PY' >"$BASE/check.txt" 2>&1; then
import sys, json
doc = json.load(open(sys.argv[1]))
steady = doc["runs"][0]["steady"]
assert len(steady) == 1 and steady[0]["rounds"] == int(sys.argv[2]), steady
phases = {p["phase"]: p for p in steady[0]["phases"]}
assert sorted(phases) == ["cleanup", "mix", "precreate"], list(phases)
assert phases["mix"]["rounds_per_s"] > 0 and phases["mix"]["ops"]["stat"]["ops_per_s"] > 0
PY
  pass
else
  fail "export json: $(cat "$BASE/check.txt")"
fi

run 0 export "$f" --format csv
expect_rc 0 "export csv"
expect_in "$OUT" "run,iteration,phase,op," "export csv: the steady header"
# One row per iteration, phase and op: 2 + 4 + 2.
expect_eq "$(grep -c '^/runs/run-0000,0,' "$OUT")" 8 "export csv: rows"

run 0 report "$f" -d "$BASE/report"
expect_rc 0 "report"
expect_in "$BASE/report/report.md" "## Steady state" "report has the steady section"
expect_in "$BASE/report/report.md" "rounds/s" "report shows rounds/s"

# A job killed in the mix (its time limit's SIGKILL) keeps the precreate it finished: each steady phase is
# written and flushed as it is done, as the selected phases are. 10 creates of 20 ms, then a mix of 20 s.
killed=$BASE/killed.h5
"$MDBENCH" -a DUMMY --dummy.delay-create 20000 --steady 1000 --datasets 1 -n 10 -d "$BASE/killed" \
  -o "$killed" >"$BASE/killed.out" 2>&1 &
pid=$!
sleep 3
kill -KILL "$pid"
wait "$pid" 2>/dev/null
run 0 validate "$killed"
expect_rc 0 "a steady run killed in its mix: its file valid"
if "$py" - "$killed" <<'PY' >"$BASE/check.txt" 2>&1; then
import sys, h5py
run = h5py.File(sys.argv[1], "r")["runs/run-0000"]
assert run.attrs["status"] == "running", run.attrs["status"]
steady = run["iterations/iter-0000/steady"]
assert list(steady.keys()) == ["precreate"], list(steady.keys())
assert int(steady.attrs["rounds"]) == 0, steady.attrs["rounds"]
assert int(steady["precreate"]["ranks"]["create_ok"][0]) == 10
PY
  pass
else
  fail "a steady run killed in its mix keeps its precreate: $(cat "$BASE/check.txt")"
fi
run 0 export "$killed" --format json
expect_rc 0 "the killed run's file exported"
expect_in "$OUT" '"phase": "precreate"' "the export has the precreate"

finish
