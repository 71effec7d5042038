#!/usr/bin/env bash
# The HDF5 results file: read back with h5py against the console, the throughput over time against the
# per-rank rows, validated, exported, appended, never overwritten, a version 4 file still read, and still
# valid after the job is killed mid-run.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3

for np in 1 2 4; do
  for sharing in unique shared; do
    what="results np=$np $sharing"
    f=$BASE/r.$np.$sharing.h5
    if [ "$sharing" = unique ]; then flags=(-u); unique=1; else flags=(); unique=0; fi
    run "$np" -d "$BASE/t" -n 100 -z 1 -b 2 -i 2 -w 8 -e 8 "${flags[@]}" -o "$f"
    expect_rc 0 "$what: run"
    expect_in "$OUT" "results:  $f (/runs/run-0000)" "$what: results path printed"
    expect_in "$OUT" "paths:    full (--path-style)" "$what: the default path style in the header"
    cp "$OUT" "$BASE/stdout.txt"
    if "$py" "$E2E_DIR/check_results.py" "$f" "$BASE/stdout.txt" "$np" 100 3 "$unique" 2 >"$BASE/check.txt" 2>&1; then
      pass
    else
      fail "$what: file against console: $(cat "$BASE/check.txt")"
    fi
    run 0 validate "$f"
    expect_rc 0 "$what: validate"
    expect_in "$OUT" "$f: valid" "$what: validate says valid"
  done
done

# Throughput over time (schema version 5), read with h5py: every rank's counts add up to its ok and end
# with it, the totals are the column sums, the first/last-done rates are there and plausible, and the
# configured interval is recorded (the runs above left --series-interval at its default, 0.1 s). No phase
# letter: mdtest's phases, its directory rename included (10 per iteration: tree, dir and file create, stat
# and remove, dir rename, file read).
for f in "$BASE/r.2.unique.h5" "$BASE/r.4.shared.h5"; do
  if "$py" - "$f" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "series in $f: $(cat "$BASE/check.txt")"; fi
import sys, h5py
run = h5py.File(sys.argv[1], "r")["runs/run-0000"]
assert float(run["config"].attrs["series_interval_s"]) == 0.1
ranks = int(run.attrs["ranks"])
phases = [p for it in run["iterations"].values() for p in it.values()]
assert len(phases) == 2 * 10, len(phases)
for p in phases:
    counts, total, rows = p["ops_per_interval"], p["ops_per_interval_total"][:], p["ranks"][:]
    assert counts.dtype == "uint32" and total.dtype == "uint64", (counts.dtype, total.dtype)
    assert counts.shape == (ranks, len(total)), (p.name, counts.shape, len(total))
    interval = float(counts.attrs["interval_s"])
    assert interval >= 0.1, (p.name, interval)  # 0.1 s, doubled for a long phase
    c = counts[:]
    for r in range(ranks):
        assert int(c[r].sum()) == int(rows["ok"][r]), (p.name, r, c[r].sum(), rows["ok"][r])
        used = [k for k in range(len(total)) if c[r][k] > 0]
        elapsed = rows["t_local_end"][r] - rows["t_start"][r]
        assert not used or used[-1] * interval <= elapsed + 1e-6, (p.name, r, used, elapsed)
    assert [int(x) for x in c.sum(axis=0)] == [int(x) for x in total], (p.name, c.sum(axis=0), total)
    a = p.attrs
    ok = int(a["ops_ok"])
    assert 0 <= a["first_done_time_s"] <= a["last_done_time_s"], p.name
    assert int(a["first_done_ops"]) <= ok, p.name
    active = [rows["t_local_end"][r] - rows["t_start"][r] for r in range(ranks) if rows["planned"][r] > 0]
    assert abs(a["last_done_time_s"] - max(active)) < 1e-12, p.name
    assert abs(a["first_done_time_s"] - min(active)) < 1e-12, p.name
    assert abs(a["last_done_ops_per_s"] - ok / a["last_done_time_s"]) <= 1e-9 * ok / a["last_done_time_s"]
PY
done
f=$BASE/series.h5
run 2 -d "$BASE/t" -n 2000 -F -C -r --series-interval 0.002 -o "$f"
expect_rc 0 "a run with --series-interval 0.002"
expect_eq "$("$py" -c '
import h5py, sys
run = h5py.File(sys.argv[1], "r")["runs/run-0000"]
print(run["config"].attrs["series_interval_s"], run["iterations/iter-0000/file-create/ops_per_interval"].attrs["interval_s"] >= 0.002)' "$f")" \
  "0.002 True" "the interval given is recorded"
run 0 validate "$f"
expect_rc 0 "--series-interval file validates"

# Export: JSON parses and holds the file's numbers; CSV has one row per run, iteration, phase and rank.
f=$BASE/r.2.unique.h5
run 0 export "$f" --format json -o "$BASE/r.json"
expect_rc 0 "export json"
if "$py" - "$f" "$BASE/r.json" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "json matches the file: $(cat "$BASE/check.txt")"; fi
import json, sys, h5py
f, doc = h5py.File(sys.argv[1], "r"), json.load(open(sys.argv[2]))
run = f["runs/run-0000"]
rates = sorted(float(p.attrs["ops_per_s"]) for it in run["iterations"].values() for p in it.values())
exported = sorted(p["ops_per_s"] for p in doc["runs"][0]["phases"])
assert rates == exported, (rates, exported)
assert doc["runs"][0]["attributes"]["ranks"] == 2
assert doc["runs"][0]["config"]["series_interval_s"] == 0.1
for p in doc["runs"][0]["phases"]:
    group = f[p["group"]]
    for name in ("first_done_time_s", "first_done_ops", "first_done_ops_per_s", "last_done_time_s",
                 "last_done_ops_per_s"):
        assert p[name] == group.attrs[name], (p["group"], name, p[name], group.attrs[name])
    assert p["interval_s"] == group["ops_per_interval"].attrs["interval_s"]
    assert p["ops_per_interval_total"] == [int(x) for x in group["ops_per_interval_total"]], p["group"]
PY
run 0 export "$f" --format csv -o "$BASE/r.csv"
expect_rc 0 "export csv"
# 2 iterations x 10 phases x 2 ranks, plus the header.
expect_eq "$(wc -l <"$BASE/r.csv")" $((2 * 10 * 2 + 1)) "csv rows"
expect_eq "$(head -1 "$BASE/r.csv" | tr ',' '\n' | tail -13 | tr '\n' ' ')" \
  "phase_first_done_time_s phase_first_done_ops phase_first_done_ops_per_s phase_last_done_time_s phase_last_done_ops_per_s ranks sweep_step latency_p50_ns latency_p90_ns latency_p99_ns latency_p999_ns latency_max_ns phase_too_short " \
  "csv: the first/last-done columns, then ranks, sweep step, latencies and too short, last"
# Every row carries the run's rank count, the sweep step (0: not a sweep) and the phase's latency percentiles
# as the results file holds them.
if "$py" - "$f" "$BASE/r.csv" <<'PY' >"$BASE/csvcheck.txt" 2>&1; then pass; else fail "csv ranks and latencies: $(cat "$BASE/csvcheck.txt")"; fi
import csv, sys, h5py
f = h5py.File(sys.argv[1], "r")
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
assert rows, "no rows"
for row in rows:
    run = f[row["run"]]
    assert int(row["ranks"]) == int(run.attrs["ranks"]), row
    assert row["sweep_step"] == "0", row
    phase = run["iterations"][f"iter-{int(row['iteration']):04d}"][row["phase"]]
    for p in ("latency_p50_ns", "latency_p90_ns", "latency_p99_ns", "latency_p999_ns", "latency_max_ns"):
        assert int(row[p]) == int(phase.attrs[p]), (p, row[p], phase.attrs[p])
print("ok")
PY
run 0 export "$f" --format csv -o "$BASE/r.csv"
expect_rc 2 "export refuses to overwrite"

# Never overwritten without --force; --append adds a run group; --force replaces.
f=$BASE/keep.h5
run 2 -d "$BASE/t" -n 10 -F -o "$f"
expect_rc 0 "first run"
before=$(md5sum <"$f")
run 2 -d "$BASE/t" -n 10 -F -o "$f"
expect_rc 2 "existing results file refused"
expect_in "$ERR" "use --append" "existing file: message"
expect_eq "$(md5sum <"$f")" "$before" "existing results file untouched"
expect_absent "$BASE/t" "refused before the target was touched"
run 2 -d "$BASE/t" -n 10 -F -o "$f" --append
expect_rc 0 "append"
expect_in "$OUT" "(/runs/run-0001)" "appended as run-0001"
run 0 validate "$f"
expect_rc 0 "appended file validates"
expect_eq "$("$py" -c 'import h5py,sys; print(len(h5py.File(sys.argv[1],"r")["runs"]))' "$f")" 2 "two runs"
run 2 -d "$BASE/t" -n 10 -F -o "$f" --force
expect_rc 0 "force"
expect_eq "$("$py" -c 'import h5py,sys; print(len(h5py.File(sys.argv[1],"r")["runs"]))' "$f")" 1 "force replaced"
echo "not hdf5" >"$BASE/text.h5"
run 1 -d "$BASE/t" -n 10 -o "$BASE/text.h5" --append
expect_rc 1 "append to a non-results file"
expect_eq "$(cat "$BASE/text.h5")" "not hdf5" "non-results file untouched"
# --append onto a file that is not there yet makes it (every job of a series can give --append).
run 1 -d "$BASE/t" -n 10 -F -o "$BASE/first.h5" --append
expect_rc 0 "append to an absent file"
expect_in "$OUT" "(/runs/run-0000)" "absent file: made with run-0000"
run 0 validate "$BASE/first.h5"
expect_rc 0 "the file --append made validates"

# A file of schema version 4 (a real run, docs/example-report/, made before throughput over time) is read,
# validated and exported as it is (the new CSV columns empty), but never appended to.
v4=$BASE/v4.h5
cp "$E2E_DIR/../../docs/example-report/mdbench-tmpfs.h5" "$v4"
run 0 validate "$v4"
expect_rc 0 "version 4 file validates"
expect_in "$OUT" "schema version 4" "validate names version 4"
run 0 export "$v4" --format csv -o "$BASE/v4.csv"
expect_rc 0 "version 4 file exports"
expect_eq "$(sed -n 2p "$BASE/v4.csv" | awk -F, '{ print NF, $22 $23 $24 $25 $26 }')" "34 " "version 4: the first/last-done columns empty"
before=$(md5sum <"$v4")
run 1 -d "$BASE/t" -n 10 -F -o "$v4" --append
expect_rc 1 "append to a version 4 file"
expect_in "$ERR" "has schema version 4, this mdbench writes 10: cannot append to it" "version 4: why not"
expect_eq "$(md5sum <"$v4")" "$before" "version 4 file untouched"

# Validation failures are exit 1 and name the problem.
cp "$BASE/keep.h5" "$BASE/bad.h5"
"$py" -c 'import h5py,sys; f=h5py.File(sys.argv[1],"r+"); f["runs/run-0000"].attrs["ranks"]=__import__("numpy").uint32(7)' "$BASE/bad.h5"
run 0 validate "$BASE/bad.h5"
expect_rc 1 "corrupted file rejected"
expect_in "$OUT" "INVALID" "corrupted file: message"
cp "$BASE/keep.h5" "$BASE/bad.h5"
"$py" -c 'import h5py,sys; f=h5py.File(sys.argv[1],"r+"); d=f["runs/run-0000/iterations/iter-0000/file-create/ops_per_interval_total"]; d[0]=d[0]+1' "$BASE/bad.h5"
run 0 validate "$BASE/bad.h5"
expect_rc 1 "damaged series rejected"
expect_in "$OUT" "ops_per_interval_total: element 0: expected" "damaged series: message"

# A job killed mid-run (SIGKILL, as at a time limit after the grace period) leaves a valid file with every
# finished phase.
f=$BASE/killed.h5
setsid "$MPIEXEC" -n 2 "$MDBENCH" -d "$BASE/k" -n 150000 -F -u -o "$f" >"$BASE/killed.out" 2>&1 &
job=$!
for _ in $(seq 600); do
  grep -q "done: iteration 0 file-create" "$BASE/killed.out" && break
  sleep 0.1
done
kill -9 -- "-$job" 2>/dev/null
pkill -9 -f -- "-o $f" 2>/dev/null
wait "$job" 2>/dev/null
# The ranks are not mpiexec's to reap once it is killed: a SIGKILLed rank holds the file (and HDF5's lock on
# it) until the kernel has torn it down, which on a loaded machine outlasts mpiexec's end (validate then said
# "in use" in CI). Wait until none is left (zombies hold nothing and no longer match).
for _ in $(seq 300); do pgrep -f -- "-o $f" >/dev/null || break; sleep 0.1; done
expect_in "$BASE/killed.out" "done: iteration 0 file-create" "killed run got past file-create"
run 0 validate "$f"
expect_rc 0 "killed run's file validates"
got=$("$py" -c '
import h5py, sys
run = h5py.File(sys.argv[1], "r")["runs/run-0000"]
print(run.attrs["status"], " ".join(run["iterations/iter-0000"].keys()), "summary" in run)' "$f")
case "$got" in
  "running "*file-create*tree-create*" False") pass ;;
  *) fail "killed run's file: got '$got'" ;;
esac

finish
