#!/usr/bin/env bash
# The scaling sweep (--sweep, mdtest's -f/-l/-s): one results file with a run group per step, each on
# exactly the step's ranks (host names faked per rank so that the placements differ on one machine), exact
# counts, valid files, and the usage errors that must stop it before anything is touched.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3

# check_sweep FILE STEPS PLACEMENT HOSTS ITEMS: the file holds one complete run per step (STEPS: "1 2 4"),
# run-0000 ... in order, each with `ranks` = its step, the job's 4 ranks, its 1-based index and PLACEMENT,
# the hosts of exactly the ranks that took part (HOSTS: one comma-separated list per step, separated by
# spaces; "-" to skip), and per phase every rank's planned = ok = ITEMS (tree phases: the shared tree's
# one directory, by rank 0).
check_sweep() {
  if "$py" - "$@" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "check_sweep $*: $(cat "$BASE/check.txt")"; fi
import sys, h5py
path, steps, placement, hosts, items = sys.argv[1], [int(s) for s in sys.argv[2].split()], sys.argv[3], sys.argv[4].split(), int(sys.argv[5])
f = h5py.File(path, "r")
assert f.attrs["schema_version"] == 10, f.attrs["schema_version"]
runs = sorted(f["runs"].keys())
assert runs == [f"run-{i:04}" for i in range(len(steps))], runs
text = lambda v: v.decode() if isinstance(v, bytes) else v
for i, (name, k) in enumerate(zip(runs, steps)):
    run = f["runs"][name]
    a = run.attrs
    got = (int(a["ranks"]), int(a["job_ranks"]), int(a["sweep_step"]), text(a["sweep_placement"]), text(a["status"]))
    assert got == (k, int(sys.argv[6]) if len(sys.argv) > 6 else 4, i + 1, placement, "complete"), (name, got)
    if hosts[i] != "-":
        got_hosts = ",".join(text(h) for h in run["hosts"][()])
        assert got_hosts == hosts[i], (name, got_hosts, hosts[i])
        assert int(a["nodes"]) == len(set(hosts[i].split(","))), (name, int(a["nodes"]))
    phases = 0
    for it in run["iterations"].values():
        for pname, phase in it.items():
            phases += 1
            rows = phase["ranks"][()]
            assert len(rows) == k, (name, pname, len(rows))
            for r, row in enumerate(rows):
                want = (1 if r == 0 else 0) if pname.startswith("tree-") else items
                assert (int(row["rank"]), int(row["planned"]), int(row["ok"]), int(row["failed"])) == (r, want, want, 0), (name, pname, r, row)
            total = 1 if pname.startswith("tree-") else k * items
            assert int(phase.attrs["ops_ok"]) == total, (name, pname, int(phase.attrs["ops_ok"]), total)
    assert phases > 0, name
print("ok")
PY
}

# table_row PHASE STEP: the sweep table's row "phase step ranks nodes mean per-rank efficiency failed".
table_row() { awk -v p="$1" -v s="$2" '$1 == p && $2 == s && NF == 8 { print $2, $3, $4, $8 }' "$OUT"; }

# Both placements, with host names faked so that ranks 0-2 share a node and rank 3 has one of its own:
# block takes ranks 0,1 for the step of 2 (one node), spread takes 0 and 3 (two nodes).
for placement in block spread; do
  what="sweep 1,2,4 $placement"
  f=$BASE/$placement.h5
  MDBENCH_FAKE_HOSTS=n0,n0,n0,n1 run 4 --sweep 1,2,4 --sweep-placement "$placement" -F -n 300 -d "$BASE/t" -o "$f"
  expect_rc 0 "$what"
  if [ "$placement" = block ]; then hosts="n0 n0,n0 n0,n0,n0,n1"; else hosts="n0 n0,n1 n0,n0,n0,n1"; fi
  check_sweep "$f" "1 2 4" "$placement" "$hosts" 300
  run 0 validate "$f"
  expect_rc 0 "$what: validate"
  expect_in "$OUT" "$f: valid (mdbench-results schema version 10)" "$what: validate says valid"
  MDBENCH_FAKE_HOSTS=n0,n0,n0,n1 run 4 --sweep 1,2,4 --sweep-placement "$placement" -F -n 300 -d "$BASE/t" -o "$f.again"
  expect_in "$OUT" "sweep:    3 steps (1, 2, 4 ranks) of the job's 4 ranks, placement $placement" "$what: header"
  for i in 0 1 2; do expect_in "$OUT" "results:  $f.again (/runs/run-000$i)" "$what: run-000$i printed"; done
  expect_in "$OUT" "sweep: 3 steps of the job's 4 ranks, placement $placement" "$what: table title"
  nodes2=$([ "$placement" = block ] && echo 1 || echo 2)
  expect_eq "$(table_row file-create 1)" "1 1 1 0" "$what: table row step 1"
  expect_eq "$(table_row file-create 2)" "2 2 $nodes2 0" "$what: table row step 2"
  expect_eq "$(table_row file-remove 3)" "3 4 2 0" "$what: table row step 3"
  expect_in "$OUT" "efficiency: ops/s per rank / the first step's (100% = linear scaling); -: this step's or" \
    "$what: units explained"
  expect_eq "$(grep -c '^sweep:    step ' "$OUT")" 3 "$what: each step says which it is"
  expect_absent "$BASE/t" "$what: the target it made is gone again"
done

# Real host names (one node): both placements pick the same ranks, all on this host.
host=$(hostname)
for placement in block spread; do
  f=$BASE/real.$placement.h5
  run 4 --sweep 1,2,4 --sweep-placement "$placement" -D -n 50 -d "$BASE/t" -o "$f"
  expect_rc 0 "one node, $placement"
  check_sweep "$f" "1 2 4" "$placement" "- - -" 50
  run 0 validate "$f"
  expect_rc 0 "one node, $placement: validate"
done
expect_eq "$("$py" -c 'import h5py,sys; print(set(h.decode() for h in h5py.File(sys.argv[1],"r")["runs/run-0002/hosts"]))' "$BASE/real.spread.h5")" "{'$host'}" "one node: the real host name"

# --steady: a step per rank count, each with its steady phases; the sweep table has their rows (it had none).
# -N 2 keeps each rank in its own datasets (an offset of a multiple of the ranks): nothing can fail.
run 2 --sweep 1,2 --steady 3 -n 20 --datasets 2 -N 2 -d "$BASE/t" -o "$BASE/steady.h5"
expect_rc 0 "steady sweep 1,2"
for phase in precreate mix cleanup; do
  expect_eq "$(table_row "$phase" 1)" "1 1 1 0" "steady sweep: $phase row of step 1"
  expect_eq "$(table_row "$phase" 2)" "2 2 1 0" "steady sweep: $phase row of step 2"
done
run 0 validate "$BASE/steady.h5"
expect_rc 0 "steady sweep: validate"
expect_absent "$BASE/t" "steady sweep: the target it made is gone again"

# pow2 ends with the job size; mdtest's -f/-l/-s give the arithmetic list; the default placement is block.
run 3 --sweep pow2 -F -n 40 -d "$BASE/t" -o "$BASE/pow2.h5"
expect_rc 0 "pow2 on 3 ranks"
check_sweep "$BASE/pow2.h5" "1 2 3" block "- - -" 40 3
run 4 -f 1 -l 4 -s 1 -F -n 40 -d "$BASE/t" -o "$BASE/fls.h5"
expect_rc 0 "-f 1 -l 4 -s 1"
check_sweep "$BASE/fls.h5" "1 2 3 4" block "- - - -" 40
run 4 -f 1 -l 4 -s 2 -F -n 40 -d "$BASE/t" -o "$BASE/fls2.h5"
expect_rc 0 "-f 1 -l 4 -s 2"
check_sweep "$BASE/fls2.h5" "1 3" block "- -" 40
run 0 validate "$BASE/pow2.h5" "$BASE/fls.h5" "$BASE/fls2.h5"
expect_rc 0 "pow2 and -f/-l/-s files validate"
# --append continues after the steps already in the file.
run 2 --sweep 1,2 -F -n 40 -d "$BASE/t" -o "$BASE/fls2.h5" --append
expect_rc 0 "sweep appended"
expect_in "$OUT" "results:  $BASE/fls2.h5 (/runs/run-0003)" "appended steps follow the file's runs"
# -f and -s without -l: accepted and ignored, as mdtest does (IO500 passes the same options to every job):
# one run on every rank, not a sweep.
run 2 -f 1 -s 1 -F -n 40 -d "$BASE/t" -o "$BASE/nolast.h5"
expect_rc 0 "-f 1 -s 1 without -l"
expect_not_in "$OUT" "sweep:" "-f/-s without -l: no sweep"
expect_eq "$("$py" -c '
import h5py, sys
runs = h5py.File(sys.argv[1], "r")["runs"]
a = runs["run-0000"].attrs
print(len(runs), a["ranks"], a["job_ranks"], a["sweep_step"], a["sweep_placement"], a["status"],
      runs["run-0000/iterations/iter-0000/file-create"].attrs["ops_ok"])' "$BASE/nolast.h5")" \
  "1 2 2 0 none complete 80" "-f/-s without -l: one run of every rank"
expect_absent "$BASE/t" "after pow2 and -f/-l/-s: nothing left"

# Usage errors found before anything is touched: exit 2, no target, no results file.
cwd=$BASE/usage
mkdir "$cwd"
check_usage() {  # check_usage NP TEXT ARGS...
  local np=$1 text=$2
  shift 2
  (cd "$cwd" && run "$np" "$@"; echo "$RC" >"$BASE/.rc")
  RC=$(cat "$BASE/.rc")
  expect_rc 2 "usage: $*"
  expect_in "$ERR" "$text" "usage message for: $*"
  expect_empty_dir "$cwd" "usage: nothing created for: $*"
}
t=$cwd/t
check_usage 4 "--sweep: a step of 8 ranks in a job of 4 ranks" --sweep 1,2,8 -d "$t"
check_usage 4 "--sweep: a step of 5 ranks in a job of 4 ranks" -f 1 -l 5 -d "$t"
check_usage 0 "--sweep: a step of 2 ranks in a job of 1 rank" --sweep 1,2 -d "$t"
check_usage 4 "--sweep: every step creates and removes its items: not with --keep" --sweep 1,2 --keep -d "$t"
check_usage 4 "--sweep: every step creates and removes its items: the phases must include" --sweep 1,2 -T -d "$t"
check_usage 2 "-f/--sweep-first 3 is more than -l/--sweep-last 2" -f 3 -l 2 -d "$t"
check_usage 2 "--sweep-placement: unknown placement 'round'" --sweep 1,2 --sweep-placement round -d "$t"
check_usage 4 "--sweep: a step of 1 rank for 2 targets" --sweep 1,2 -u -d "$cwd/a@$cwd/b"
MDBENCH_FAKE_HOSTS=n0,n1 check_usage 4 "MDBENCH_FAKE_HOSTS (a test hook): 'n0,n1' does not give 4 host names" \
  --sweep 1,2 -d "$t"
# Messages come once, from rank 0.
expect_eq "$(grep -c 'MDBENCH_FAKE_HOSTS' "$ERR")" 1 "one message, not one per rank"

# A step with a problem that leaves nothing behind fails (exit 1) and the sweep goes on: here the -x file
# cannot be written, and a --run-cmd-after-phase command fails.
runs_of() {  # runs_of FILE: "<run groups> <status and exit status of each>"
  "$py" -c 'import h5py,sys; r=h5py.File(sys.argv[1],"r")["runs"]; print(len(r), *("%s:%s" % (r[n].attrs["status"], r[n].attrs["exit_status"]) for n in sorted(r)))' "$1"
}
run 4 --sweep 1,2,4 -F -n 20 -x /proc/mdbench-no-such-file -d "$BASE/t" -o "$BASE/fail.h5"
expect_rc 1 "failing -x"
expect_not_in "$OUT" "sweep stopped" "failing -x: the sweep went on"
expect_eq "$(runs_of "$BASE/fail.h5")" "3 failed:1 failed:1 failed:1" "failing -x: every step ran, each failed"
expect_eq "$(grep -c '^problem: cannot write stonewall file' "$OUT")" 3 "failing -x: each step says so"
run 0 validate "$BASE/fail.h5"
expect_rc 0 "failing -x: file still valid"
expect_absent "$BASE/t" "failing -x: the trees were removed, so the target it made is gone too"
run 2 --sweep 1,2 -F -n 20 --run-cmd-after-phase 'exit 3' -d "$BASE/t" -o "$BASE/cmd.h5"
expect_rc 1 "failing command"
expect_not_in "$OUT" "sweep stopped" "failing command: the sweep went on"
expect_eq "$(runs_of "$BASE/cmd.h5")" "2 failed:1 failed:1" "failing command: both steps ran, each failed"
expect_in "$OUT" "problem: --run-cmd-after-phase='exit 3' at the end of file-create (iteration 0)" \
  "failing command: said"
expect_absent "$BASE/t" "failing command: nothing left"

# A step that leaves something behind (here a file planted in its iteration directory, which then cannot be
# removed) ends the sweep: the next step's create would run into it. It says which steps did not run.
cat >"$BASE/plant.sh" <<'EOF2'
[ "$MDBENCH_PHASE" = file-remove ] && [ "$MDBENCH_RANK" = 0 ] || exit 0
touch "$(find "$PLANT_DIR" -type d -name 'mdbench.iter.*' | head -1)/planted"
EOF2
PLANT_DIR=$BASE/t run 2 --sweep 1,2 -F -n 20 --run-cmd-after-phase "sh $BASE/plant.sh" -d "$BASE/t" -o "$BASE/left.h5"
expect_rc 1 "left behind"
expect_in "$OUT" "sweep stopped after step 1: steps of 2 ranks not run" "left behind: what did not run"
expect_in "$OUT" "cleanup: " "left behind: what stayed is said"
expect_eq "$(runs_of "$BASE/left.h5")" "1 failed:1" "left behind: its run group says so"
expect_eq "$(find "$BASE/t" -name planted | wc -l)" 1 "left behind: the planted file is kept"
rm -rf "$BASE/t"

finish
