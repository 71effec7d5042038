#!/usr/bin/env bash
# The HDF5 results file: read back with h5py against the console, validated, exported, appended, never
# overwritten, and still valid after the job is killed mid-run.
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
PY
run 0 export "$f" --format csv -o "$BASE/r.csv"
expect_rc 0 "export csv"
# 2 iterations x 9 phases x 2 ranks, plus the header.
expect_eq "$(wc -l <"$BASE/r.csv")" $((2 * 9 * 2 + 1)) "csv rows"
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

# Validation failures are exit 1 and name the problem.
cp "$BASE/keep.h5" "$BASE/bad.h5"
"$py" -c 'import h5py,sys; f=h5py.File(sys.argv[1],"r+"); f["runs/run-0000"].attrs["ranks"]=__import__("numpy").uint32(7)' "$BASE/bad.h5"
run 0 validate "$BASE/bad.h5"
expect_rc 1 "corrupted file rejected"
expect_in "$OUT" "INVALID" "corrupted file: message"

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
