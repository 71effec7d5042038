#!/usr/bin/env bash
# SIGINT and SIGTERM (Slurm's time limit) during real runs under mpiexec: every rank stops the phase it is in,
# the finished phases and the stopped one are in a valid results file (status interrupted), what the run made
# is removed (kept with --keep), the exit status is 128 + the signal, and a second signal exits at once.
# Nothing else in the target is touched.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3

# shellcheck source=ranks.sh
source "$E2E_DIR/ranks.sh"

# check_file FILE STATUS EXIT LAST_PHASE: the results file validates, with that status and exit status, and
# its last phase is LAST_PHASE, stopped short (fewer ops than planned by the config) or complete.
check_file() {
  if "$py" - "$@" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "check_file $*: $(cat "$BASE/check.txt")"; fi
import sys, h5py
path, status, exit_status, last = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
f = h5py.File(path, "r")
text = lambda v: v.decode() if isinstance(v, bytes) else v
run = f["runs/run-0000"]
assert text(run.attrs["status"]) == status, text(run.attrs["status"])
assert int(run.attrs["exit_status"]) == exit_status, int(run.attrs["exit_status"])
phases = sorted(run["iterations/iter-0000"].items(), key=lambda kv: int(kv[1].attrs["order"]))
assert phases[-1][0] == last, [p for p, _ in phases]
rows = phases[-1][1]["ranks"][()]
assert all(int(r["ok"]) + int(r["failed"]) == int(r["planned"]) for r in rows), rows
print("ok")
PY
}

# ---- SIGTERM to mpiexec during file-create: everything stops, is recorded and cleaned up ----
start_run term -n 2000000 -F -u -o "$BASE/term.h5"
wait_for_files 1000 || fail "SIGTERM: the create phase never started"
kill -TERM "$PID"
finish_run
ranks_exited 143 "SIGTERM (128 + 15)"
if [ "$SECONDS_TAKEN" -le 10 ]; then pass; else fail "SIGTERM: took ${SECONDS_TAKEN}s to stop"; fi
expect_in "$ERR" "mdbench: stopped by SIGTERM after file-create (iteration 0)" "says what stopped it and where"
expect_in "$ERR" "what the run made was removed" "says it cleaned up"
check_file "$BASE/term.h5" interrupted 143 file-create
run 0 validate "$BASE/term.h5"
expect_rc 0 "the interrupted run's file validates"
expect_eq "$(find "$T" -mindepth 1)" "$T/precious.txt" "SIGTERM: only the user's file is left"
expect_eq "$(cat "$T/precious.txt")" "user data" "SIGTERM: user data untouched"

# ---- SIGINT (Ctrl-C) during file-stat ----
start_run int -n 150000 -F -u -i 3 -o "$BASE/int.h5"
wait_for_files 1 || fail "SIGINT: the create phase never started"
# Let the creates finish, so the signal lands in a later phase.
for _ in $(seq 100); do grep -q "file-create" "$OUT" && break; sleep 0.1; done
kill -INT "$PID"
finish_run
ranks_exited 130 "SIGINT (128 + 2)"
expect_in "$ERR" "mdbench: stopped by SIGINT after" "SIGINT reported"
run 0 validate "$BASE/int.h5"
expect_rc 0 "SIGINT: file validates"
expect_eq "$(find "$T" -mindepth 1)" "$T/precious.txt" "SIGINT: only the user's file is left"

# ---- --keep: the trees stay (with the run's mark) for mdbench clean ----
start_run keep -n 2000000 -F -u --keep -o "$BASE/keep.h5"
wait_for_files 1000 || fail "keep: the create phase never started"
kill -TERM "$PID"
finish_run
ranks_exited 143 "keep"
expect_in "$ERR" "the trees are kept" "keep: says so"
if [ "$(find "$T" -name 'file.mdbench.*' | wc -l)" -ge 1000 ]; then pass; else fail "keep: the files were removed"; fi
expect_eq "$(head -c 8 "$T/mdbench.iter.0/.mdbench-run")" "mdbench " "keep: the run directory is marked"
run 0 clean "$T"
expect_rc 0 "keep: mdbench clean removes what the stopped run kept"
expect_eq "$(find "$T" -mindepth 1)" "$T/precious.txt" "keep: after clean only the user's file is left"

# ---- A signal to one rank only: the others finish the phase, then all stop ----
start_run one -n 400000 -F -u -o "$BASE/one.h5"
wait_for_files 1000 || fail "one rank: the create phase never started"
kill -TERM "$(ranks | tail -n 1)"
finish_run
ranks_exited 143 "one rank signalled: the job still stops with 128 + 15"
check_file "$BASE/one.h5" interrupted 143 file-create
expect_eq "$(find "$T" -mindepth 1)" "$T/precious.txt" "one rank: cleaned up"

# ---- A second signal exits at once, without cleaning up ----
start_run twice -n 2000000 -F -u -o "$BASE/twice.h5"
wait_for_files 200000 || fail "twice: the create phase never started"
# The first signal starts the cleanup of ~200,000 files; the second arrives during it. (Two signals sent at
# once could merge into one: the kernel keeps one pending signal of a kind.)
for pid in $(ranks); do kill -TERM "$pid"; done
sleep 0.2
for pid in $(ranks); do kill -TERM "$pid"; done
finish_run
ranks_exited 143 "twice: the second signal's 128 + 15, at once"
if [ "$SECONDS_TAKEN" -le 5 ]; then pass; else fail "twice: took ${SECONDS_TAKEN}s"; fi
expect_in "$ERR" "second signal: exiting now" "twice: says it exits at once"
expect_eq "$(cat "$T/precious.txt")" "user data" "twice: user data untouched"
run 0 clean "$T"
expect_rc 0 "twice: mdbench clean removes the leftovers"
expect_eq "$(find "$T" -mindepth 1)" "$T/precious.txt" "twice: after clean only the user's file is left"

# ---- A sweep stops at the step the signal arrives in ----
start_run sweep -n 1000000 -F -u --sweep 1,2 -o "$BASE/sweep.h5"
wait_for_files 1000 || fail "sweep: the create phase never started"
kill -TERM "$PID"
finish_run
ranks_exited 143 "sweep"
expect_in "$OUT" "sweep stopped after step 1: steps of 2 ranks not run" "sweep: later steps not run"
run 0 validate "$BASE/sweep.h5"
expect_rc 0 "sweep: file validates"
expect_eq "$(find "$T" -mindepth 1)" "$T/precious.txt" "sweep: cleaned up"

# check_steady FILE EXIT ROUNDS_TEST: a stopped --steady run's file: status interrupted with that exit
# status, one steady group with all three phases, and `rounds` as ROUNDS_TEST says ("some": 0 < rounds <
# steady_rounds; "none": 0), cleanup having removed what precreate made.
check_steady() {
  if "$py" - "$@" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "check_steady $*: $(cat "$BASE/check.txt")"; fi
import sys, h5py
path, exit_status, how = sys.argv[1], int(sys.argv[2]), sys.argv[3]
f = h5py.File(path, "r")
text = lambda v: v.decode() if isinstance(v, bytes) else v
run = f["runs/run-0000"]
assert text(run.attrs["status"]) == "interrupted", text(run.attrs["status"])
assert int(run.attrs["exit_status"]) == exit_status, int(run.attrs["exit_status"])
steady = run["iterations/iter-0000/steady"]
rounds, planned = int(steady.attrs["rounds"]), int(run["config"].attrs["steady_rounds"])
assert (0 < rounds < planned) if how == "some" else rounds == 0, (rounds, planned)
assert sorted(steady.keys()) == ["cleanup", "mix", "precreate"], list(steady.keys())
made = int(steady["precreate"]["ranks"]["create_ok"].sum())
assert made > 0 and int(steady["cleanup"]["ranks"]["delete_ok"].sum()) == made, made
assert int(steady["mix"]["ranks"]["read_ok"].sum()) == rounds * 2 * 2, rounds
print("ok")
PY
}

# ---- --steady: SIGTERM in the mix stops it after the round in progress; cleanup removes the working set ----
start_run steady -n 2000 --steady 100000000 --datasets 2 -o "$BASE/steady.h5"
wait_for_files 1000 'obj.mdbench.*' || fail "steady: precreate never started"
# The mix has begun once round 0 has deleted object 0 of rank 0's first dataset.
for _ in $(seq 200); do
  [ -e "$T/mdbench.iter.0/steady.mdbench.0.0" ] && [ ! -e "$T/mdbench.iter.0/steady.mdbench.0.0/obj.mdbench.0.0.0" ] &&
    break
  sleep 0.1
done
kill -TERM "$PID"
finish_run
ranks_exited 143 "steady mix: 128 + 15"
if [ "$SECONDS_TAKEN" -le 10 ]; then pass; else fail "steady mix: took ${SECONDS_TAKEN}s to stop"; fi
expect_in "$ERR" "mdbench: stopped by SIGTERM in the steady mix of iteration 0 after" "steady mix: says where"
expect_in "$ERR" "what the run made was removed" "steady mix: says it cleaned up"
check_steady "$BASE/steady.h5" 143 some
run 0 validate "$BASE/steady.h5"
expect_rc 0 "steady mix: the interrupted run's file validates"
expect_eq "$(find "$T" -mindepth 1)" "$T/precious.txt" "steady mix: only the user's file is left"

# ---- --steady: SIGINT in precreate stops it between objects; no mix round; cleanup removes what it made ----
start_run steadypre -n 600000 --steady 10 --datasets 2 -o "$BASE/steadypre.h5"
wait_for_files 1000 'obj.mdbench.*' || fail "steady precreate: never started"
kill -INT "$PID"
finish_run
ranks_exited 130 "steady precreate: 128 + 2"
if [ "$SECONDS_TAKEN" -le 10 ]; then pass; else fail "steady precreate: took ${SECONDS_TAKEN}s to stop"; fi
expect_in "$ERR" "mdbench: stopped by SIGINT in the steady precreate of iteration 0 (no mix rounds)" \
  "steady precreate: says where"
check_steady "$BASE/steadypre.h5" 130 none
run 0 validate "$BASE/steadypre.h5"
expect_rc 0 "steady precreate: the interrupted run's file validates"
expect_eq "$(find "$T" -mindepth 1)" "$T/precious.txt" "steady precreate: only the user's file is left"

finish
