#!/usr/bin/env bash
# Stop requests beyond SIGINT/SIGTERM, and the status a job records: a signal during -p ends the wait at once
# and the iteration makes nothing; SIGQUIT and SIGHUP mid-phase stop, clean up and record the run as
# interrupted; a console that goes away (`mdbench | head -1`, a closed or full stdout) never kills the run
# or skips its cleanup; the job scripts take mdbench's own status when the launcher says 0.
# MDBENCH_JOBSCRIPTS (default: this tree's jobscripts/) names the job scripts under test.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3
repo=$(cd "$E2E_DIR/../.." && pwd)
jobscripts=${MDBENCH_JOBSCRIPTS:-$repo/jobscripts}

# shellcheck source=ranks.sh
source "$E2E_DIR/ranks.sh"
only_precious() { expect_eq "$(find "$T" -mindepth 1)" "$T/precious.txt" "$1: only the user's file is left"; }

# check_file WHAT FILE STATUS EXIT PHASES: the run group's status and exit status, and its number of phases
# recorded (any: at least one).
check_file() {
  local what=$1
  shift
  if "$py" - "$@" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "$what: $(cat "$BASE/check.txt")"; fi
import sys, h5py
path, status, exit_status, phases = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
run = h5py.File(path, "r")["runs/run-0000"]
text = lambda v: v.decode() if isinstance(v, bytes) else v
got = (text(run.attrs["status"]), int(run.attrs["exit_status"]))
assert got == (status, exit_status), got
n = sum(len(it) for it in run["iterations"].values()) if "iterations" in run else 0
assert (n > 0) if phases == "any" else n == int(phases), f"{n} phases recorded"
print("ok")
PY
}

# ---- SIGINT during -p 40: stops within a slice, nothing made, no phase, nothing recorded ----
start_run delay -n 10 -p 40 -o "$BASE/delay.h5"
sleep 1.5
kill -INT "$PID"
finish_run
ranks_exited 130 "-p SIGINT: 128 + 2"
if [ "$SECONDS_TAKEN" -le 2 ]; then pass; else fail "-p SIGINT: took ${SECONDS_TAKEN}s to stop"; fi
expect_in "$ERR" "mdbench: stopped by SIGINT during the pre-delay (-p) of iteration 0" "-p SIGINT: says where"
expect_absent "$BASE/delay.h5" "-p SIGINT: no results file (no phase ran)"
only_precious "-p SIGINT"

# ---- SIGTERM to one rank during the pre-delay of iteration 1: both ranks agree at once ----
start_run delay1 -n 10 -i 2 -p 3 -o "$BASE/delay1.h5"
for _ in $(seq 100); do grep -q "done: iteration 0 tree-remove" "$OUT" && break; sleep 0.1; done
sleep 0.5
kill -TERM "$(ranks | tail -n 1)"
finish_run
ranks_exited 143 "-p, one rank signalled: 128 + 15"
if [ "$SECONDS_TAKEN" -le 1 ]; then pass; else fail "-p one rank: took ${SECONDS_TAKEN}s to stop"; fi
expect_in "$ERR" "during the pre-delay (-p) of iteration 1" "-p one rank: says where"
expect_not_in "$OUT" "done: iteration 1" "-p one rank: iteration 1 ran nothing"
only_precious "-p one rank"

# ---- SIGQUIT to mpiexec mid file-create (Hydra passes it on) ----
start_run quit -n 2000000 -F -u -o "$BASE/quit.h5"
wait_for_files 1000 || fail "SIGQUIT: the create phase never started"
kill -QUIT "$PID"
finish_run
ranks_exited 131 "SIGQUIT: 128 + 3"
expect_in "$ERR" "mdbench: stopped by SIGQUIT after file-create (iteration 0)" "SIGQUIT: says where"
check_file "SIGQUIT: results file" "$BASE/quit.h5" interrupted 131 any
only_precious "SIGQUIT"

# ---- SIGHUP to every rank mid file-create (Hydra's mpiexec dies of its own SIGHUP: the ranks get it) ----
start_run hup -n 2000000 -F -u -o "$BASE/hup.h5"
wait_for_files 1000 || fail "SIGHUP: the create phase never started"
for pid in $(ranks); do kill -HUP "$pid"; done
finish_run
ranks_exited 129 "SIGHUP: 128 + 1"
expect_in "$ERR" "mdbench: stopped by SIGHUP after file-create (iteration 0)" "SIGHUP: says where"
check_file "SIGHUP: results file" "$BASE/hup.h5" interrupted 129 any
only_precious "SIGHUP"

# ---- stdout closed early: mdbench | head -1 ----
T=$BASE/pipe
mkdir -p "$T" && echo "user data" >"$T/precious.txt"
timeout 120 "$MDBENCH" -d "$T" -n 300000 -F -u -o "$BASE/pipe.h5" 2>"$ERR" | head -n 1 >"$OUT"
expect_eq "${PIPESTATUS[0]}" 141 "| head -1: 128 + SIGPIPE"
expect_in "$ERR" "mdbench: stopped by SIGPIPE" "| head -1: says why it stopped"
# The pipe breaks at the first write after the header: before the first phase (then nothing is recorded) or
# after it, as the writes fall.
if [ -e "$BASE/pipe.h5" ]; then
  check_file "| head -1: results file" "$BASE/pipe.h5" interrupted 141 any
else
  expect_in "$ERR" "before the first phase: nothing was recorded" "| head -1: stopped before the first phase"
fi
only_precious "| head -1"

# ---- 2 ranks, rank 0's stdout closed early: it stops, the other finishes the phase, all clean up ----
piped=$BASE/piped-wrapper.sh
cat >"$piped" <<'EOF'
#!/usr/bin/env bash
"$MDBENCH" "$@" | head -n 1
echo "${PIPESTATUS[0]}" >"$STATUS_DIR/rank.$PMI_RANK"
EOF
chmod +x "$piped"
T=$BASE/piped
mkdir -p "$T" && echo "user data" >"$T/precious.txt"
STATUS_DIR=$BASE/status.piped
mkdir -p "$STATUS_DIR"
timeout 120 "$MPIEXEC" -n 2 "$piped" -d "$T" -n 200000 -F -u -o "$BASE/piped.h5" >"$OUT" 2>"$ERR"
ranks_exited 141 "2 ranks, stdout closed"
if [ -e "$BASE/piped.h5" ]; then  # as with | head -1: stopped before the first phase, or after one
  check_file "2 ranks, stdout closed: results file" "$BASE/piped.h5" interrupted 141 any
else
  expect_in "$ERR" "before the first phase: nothing was recorded" "2 ranks, stdout closed: before the first phase"
fi
only_precious "2 ranks, stdout closed"

# ---- a rank's stdout closed (>&-) or full (/dev/full): the run goes on, complete, its file intact ----
# (Per rank: Hydra's mpiexec with such a stdout fails by itself and takes the ranks down with SIGKILL.)
console=$BASE/console-wrapper.sh
cat >"$console" <<'EOF'
#!/usr/bin/env bash
if [ "$HOW" = closed ]; then "$MDBENCH" "$@" >&-; else "$MDBENCH" "$@" >/dev/full; fi
echo "$?" >"$STATUS_DIR/rank.$PMI_RANK"
EOF
chmod +x "$console"
for how in closed full; do
  T=$BASE/$how
  mkdir -p "$T" && echo "user data" >"$T/precious.txt"
  STATUS_DIR=$BASE/status.$how
  mkdir -p "$STATUS_DIR"
  HOW=$how timeout 120 "$MPIEXEC" -n 2 "$console" -d "$T" -n 2000 -u -o "$BASE/$how.h5" >"$OUT" 2>"$ERR"
  ranks_exited 0 "stdout $how: the run completes"
  check_file "stdout $how: results file" "$BASE/$how.h5" complete 0 any
  run 0 validate "$BASE/$how.h5"
  expect_rc 0 "stdout $how: the results file validates"
  only_precious "stdout $how"
done

# ---- The job scripts with a launcher that exits 0 whatever the ranks did ----
real_mpiexec=$(command -v "$MPIEXEC")
fakebin=$BASE/fakebin
mkdir -p "$fakebin"
# Slurm scripts (MDBENCH_LAUNCHER=mpiexec, found on PATH): the ranks from FAKE_RANKS; FAKE_RUN=none runs
# nothing. PBS scripts get the same program as MDBENCH_MPIEXEC (they add -n PBS_NP).
cat >"$fakebin/mpiexec" <<EOF
#!/usr/bin/env bash
[ "\${FAKE_RUN:-}" = none ] || "$real_mpiexec" \${FAKE_RANKS:+-n \$FAKE_RANKS} "\$@"
exit 0
EOF
chmod +x "$fakebin/mpiexec"
JOBS=$BASE/jobs
mkdir -p "$JOBS"
echo "not a directory" >"$BASE/afile"
# job NAME SCRIPT VAR=value...: runs the job script as the scheduler would (in JOBS, with a job id); RC its
# status, JOB_DIR its results directory.
job() {
  local name=$1 script=$jobscripts/$2
  shift 2
  (cd "$JOBS" && env PATH="$fakebin:$PATH" SLURM_JOB_ID="$name" PBS_JOBID="$name" PBS_O_WORKDIR="$JOBS" \
    PBS_NP=2 FAKE_RANKS=2 MDBENCH_LAUNCHER=mpiexec MDBENCH_MPIEXEC="$fakebin/mpiexec" MDBENCH_BIN="$MDBENCH" \
    MDBENCH_ITEMS=20 "$@" timeout 120 bash "$script" >"$OUT" 2>"$ERR")
  RC=$?
  JOB_DIR=$JOBS/mdbench-results/$name
  return "$RC"
}
job_status() {  # job_status WANT WHAT: the job's status and its exit-status file
  expect_rc "$1" "$2: the job's exit status"
  expect_eq "$(cat "$JOB_DIR/exit-status" 2>&1)" "$1" "$2: exit-status"
}

job ok slurm/mdbench.sbatch
job_status 0 "job, success"
expect_in "$JOB_DIR/mdbench.log" "mdbench: exit status 0 (every operation succeeded)" "job: the status line"
job fail slurm/mdbench.sbatch MDBENCH_TARGET="$BASE/afile"
job_status 2 "slurm job, failed run, launcher says 0"
job pbsfail pbs/mdbench.pbs MDBENCH_TARGET="$BASE/afile" FAKE_RANKS=
job_status 2 "pbs job, failed run, launcher says 0"
job sweepfail slurm/mdbench-sweep.sbatch MDBENCH_TARGET="$BASE/afile"
job_status 2 "slurm sweep job, failed run, launcher says 0"
job pbssweepfail pbs/mdbench-sweep.pbs MDBENCH_TARGET="$BASE/afile" FAKE_RANKS=
job_status 2 "pbs sweep job, failed run, launcher says 0"
job none slurm/mdbench.sbatch FAKE_RUN=none
job_status 1 "job, nothing ran, launcher says 0"
expect_in "$ERR" "reported no exit status" "job, nothing ran: says why it failed"
# SIGTERM to the ranks (Slurm at the time limit) during -p: mdbench says 143, the launcher 0.
mkdir -p "$BASE/tterm"
job term slurm/mdbench.sbatch MDBENCH_TARGET="$BASE/tterm" "MDBENCH_ARGS=-p 10" &
jpid=$!
for _ in $(seq 100); do [ "$(pgrep -f "^$MDBENCH .*-d $BASE/tterm " | wc -l)" -ge 2 ] && break; sleep 0.1; done
sleep 0.5
for pid in $(pgrep -f "^$MDBENCH .*-d $BASE/tterm "); do kill -TERM "$pid"; done
wait "$jpid"
RC=$?
JOB_DIR=$JOBS/mdbench-results/term
job_status 143 "job, SIGTERM, launcher says 0"
expect_empty_dir "$BASE/tterm" "job, SIGTERM: target left empty"

finish
