#!/usr/bin/env bash
# A stop never records what did not run and never waits for a child: SIGTERM during setup (the first
# --server-stats read, the read after the targets were made, the read right before the first phase) ends
# the run before its first phase (the old results file byte for byte with --force and --append, no new one,
# what setup made removed, exit 143 with the status line); a running --run-cmd-* hook is signalled with its
# process group and killed 2 s later when it ignores SIGTERM; a SIGTERM to a job script's whole process group
# (Slurm's time limit with MDBENCH_LAUNCHER=mpiexec, `kill -- -PGID`) leaves the ranks to clean up, the
# status line in the log, the exit-status file written and the results file interrupted and valid; the
# IO500 scripts start no run after it, and mdbench clean removes what their stopped create run kept.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3
repo=$(cd "$E2E_DIR/../.." && pwd)
jobscripts=${MDBENCH_JOBSCRIPTS:-$repo/jobscripts}
# shellcheck source=ranks.sh
source "$E2E_DIR/ranks.sh"

# A --server-stats command that counts its calls in $BASE/calls and sleeps 30 s on call $SLOW_CALL.
stats=$BASE/stats.sh
cat >"$stats" <<EOF
#!/bin/sh
n=\$((\$(cat "$BASE/calls" 2>/dev/null || echo 0) + 1))
echo "\$n" >"$BASE/calls"
[ "\$n" = "\${SLOW_CALL:-0}" ] && sleep 30
echo "ops \$n"
EOF
chmod +x "$stats"
sleeping() { pgrep -f "^sleep $1\$" 2>/dev/null | wc -l; }

# start NP ARGS...: mdbench on NP ranks in the background under the rank wrapper (ranks.sh); PID mpiexec's.
start() {
  local np=$1
  shift
  STATUS_DIR=$BASE/status.$RANDOM$RANDOM
  export STATUS_DIR
  mkdir -p "$STATUS_DIR"
  "$MPIEXEC" -n "$np" "$wrapper" "$@" >"$OUT" 2>"$ERR" &
  PID=$!
}
# wait_calls N: the stats command has been called N times (then it sleeps), at most 20 s.
wait_calls() {
  local _
  for _ in $(seq 200); do [ "$(cat "$BASE/calls" 2>/dev/null)" = "$1" ] && sleep 0.3 && return 0; sleep 0.1; done
  return 1
}

# ---- 1. SIGTERM during a --server-stats read of setup: nothing recorded, nothing left, at once ----
D=$BASE/d
mkdir -p "$D" && echo "user data" >"$D/precious.txt"
run 1 -d "$D" -n 5 -u -o "$BASE/old.h5"
expect_rc 0 "the old results file"
cp "$BASE/old.h5" "$BASE/old.copy"
# call 1: the options' check; 2: the runner's setup, after the targets were made; 3: right before tree-create.
for call in 1 2 3; do
  for mode in --append --force new; do
    what="SIGTERM during --server-stats read $call ($mode)"
    rm -f "$BASE/calls" "$BASE/new.h5"
    out=$BASE/old.h5
    extra=("$mode")
    [ "$mode" = new ] && { out=$BASE/new.h5; extra=(); }
    SLOW_CALL=$call start 2 -d "$D/a@$D/b" -u -n 5 --keep -o "$out" "${extra[@]}" --server-stats "cmd:$stats"
    wait_calls "$call" || fail "$what: the read never started"
    t0=$SECONDS
    kill -TERM "$PID"
    finish_run
    ranks_exited 143 "$what"
    if [ $((SECONDS - t0)) -le 3 ]; then pass; else fail "$what: took $((SECONDS - t0)) s (waited for the command)"; fi
    expect_in "$ERR" "mdbench: exit status 143 (stopped by SIGTERM)" "$what: the status line"
    expect_in "$ERR" "before the first phase: nothing was recorded" "$what: says nothing was recorded"
    expect_not_in "$OUT" "done: iteration 0" "$what: no phase ran"
    if cmp -s "$BASE/old.h5" "$BASE/old.copy"; then pass; else fail "$what: the old results file changed"; fi
    expect_absent "$BASE/new.h5" "$what: no new results file"
    expect_eq "$(find "$D" -mindepth 1)" "$D/precious.txt" "$what: the targets it made are gone"
    expect_eq "$(sleeping 30)" 0 "$what: the command was killed"
  done
done
run 0 validate "$BASE/old.h5"
expect_rc 0 "the old results file validates"
# A sweep whose first step is stopped in its setup: no results file either.
what="SIGTERM during the setup of a sweep's first step"
rm -f "$BASE/calls"
SLOW_CALL=2 start 2 -d "$D" -u -n 5 --sweep 1,2 -o "$BASE/sweep.h5" --server-stats "cmd:$stats"
wait_calls 2 || fail "$what: the read never started"
kill -TERM "$PID"
finish_run
ranks_exited 143 "$what"
expect_in "$ERR" "before the first phase: nothing was recorded" "$what: says nothing was recorded"
expect_absent "$BASE/sweep.h5" "$what: no results file"
expect_eq "$(find "$D" -mindepth 1)" "$D/precious.txt" "$what: nothing left"

# ---- 2. A stop during a --run-cmd-* hook: its process group gets SIGTERM, then SIGKILL after 2 s ----
for hook in "sleep 25" "trap '' TERM; sleep 26"; do
  what="SIGTERM to the ranks during the hook '$hook'"
  [ "$hook" = "sleep 25" ] && s=25 || s=26
  start 2 -d "$D" -n 5 -u -o "$BASE/hook.h5" --run-cmd-before-phase "$hook"
  for _ in $(seq 100); do [ "$(sleeping "$s")" -ge 2 ] && break; sleep 0.1; done
  expect_eq "$(sleeping "$s")" 2 "$what: each rank's hook runs"
  t0=$SECONDS
  for pid in $(pgrep -f "^$MDBENCH -d $D "); do kill -TERM "$pid"; done
  finish_run
  took=$((SECONDS - t0))
  ranks_exited 143 "$what"
  expect_in "$ERR" "mdbench: exit status 143 (stopped by SIGTERM)" "$what: the status line"
  expect_eq "$(sleeping "$s")" 0 "$what: no hook process survives"
  if [ "$s" = 25 ]; then
    if [ "$took" -le 2 ]; then pass; else fail "$what: took $took s"; fi
    expect_in "$OUT" "stopped with the run: SIGTERM to its process group; killed by SIGTERM" "$what: its fate"
  else
    if [ "$took" -ge 1 ] && [ "$took" -le 5 ]; then pass; else fail "$what: took $took s (2 s of grace)"; fi
    expect_in "$OUT" "SIGTERM to its process group, SIGKILL 2 s later; killed by SIGKILL" "$what: its fate"
  fi
  expect_eq "$(find "$D" -mindepth 1)" "$D/precious.txt" "$what: nothing left"
  rm -f "$BASE/hook.h5"
done

# A second signal ends mdbench at once, without cleaning up: the hook's group is killed first.
what="a second SIGTERM during a hook that ignores SIGTERM"
start 2 -d "$D" -n 5 -u -o "$BASE/hook2.h5" --run-cmd-before-phase "trap '' TERM; sleep 27"
for _ in $(seq 100); do [ "$(sleeping 27)" -ge 2 ] && break; sleep 0.1; done
for pid in $(pgrep -f "^$MDBENCH -d $D "); do kill -TERM "$pid"; done
sleep 0.5
for pid in $(pgrep -f "^$MDBENCH -d $D "); do kill -TERM "$pid"; done
finish_run
ranks_exited 143 "$what"
expect_in "$ERR" "second signal: exiting now" "$what: says so"
sleep 0.2
expect_eq "$(sleeping 27)" 0 "$what: no hook process survives"
"$MDBENCH" clean "$D" >/dev/null 2>&1
expect_eq "$(find "$D" -mindepth 1)" "$D/precious.txt" "$what: mdbench clean removes what was left"
rm -f "$BASE/hook2.h5"

# ---- 3. SIGTERM to a job script's whole process group mid-phase (MDBENCH_LAUNCHER=mpiexec) ----
JOBS=$BASE/jobs
mkdir -p "$JOBS"
# group_stop SCRIPT ENV...: the job script under setsid in JOBS (job id $name, target $T, mpiexec as the
# launcher, ENV added), SIGTERM to its whole process group once 2000 files are made; RC its exit status.
group_stop() {
  local script=$1 jpid pgid _
  shift
  (cd "$JOBS" && exec env SLURM_JOB_ID="$name" PBS_JOBID="$name" PBS_O_WORKDIR="$JOBS" PBS_NP=2 \
    MDBENCH_LAUNCHER=mpiexec MDBENCH_MPIEXEC="$MPIEXEC" MDBENCH_BIN="$MDBENCH" MDBENCH_TARGET="$T" "$@" \
    setsid bash "$jobscripts/$script" >"$OUT" 2>"$ERR") &
  jpid=$!
  sleep 0.5
  pgid=$(ps -o pgid= -p "$jpid" | tr -d ' ')
  wait_for_files 2000 || fail "$what: the create phase never started"
  kill -TERM -- "-$pgid"
  for _ in $(seq 600); do kill -0 "$jpid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$jpid" 2>/dev/null && { fail "$what: the job still runs after 60 s"; kill -KILL -- "-$pgid"; }
  wait "$jpid"
  RC=$?
}
for spec in slurm/mdbench.sbatch: slurm/mdbench.sbatch:--keep pbs/mdbench.pbs: slurm/mdbench-sweep.sbatch:; do
  script=${spec%%:*}
  keep=${spec#*:}
  name=job$RANDOM
  what="SIGTERM to the group of $script $keep"
  T=$BASE/$name
  mkdir -p "$T" && echo "user data" >"$T/precious.txt"
  sweep=()
  [ "$script" = slurm/mdbench-sweep.sbatch ] && sweep=(MDBENCH_SWEEP=1)
  group_stop "$script" MDBENCH_ITEMS=2000000 MDBENCH_ARGS="-F -u $keep" "${sweep[@]}"
  results=$JOBS/mdbench-results/$name
  expect_rc 143 "$what: the job's exit status"
  expect_eq "$(cat "$results/exit-status" 2>&1)" 143 "$what: exit-status file"
  expect_in "$results/mdbench.log" "mdbench: exit status 143 (stopped by SIGTERM)" "$what: the status line in the log"
  h5=$(find "$results" -name '*.h5' | head -n 1)
  expect_eq "$("$py" -c 'import h5py,sys; r=h5py.File(sys.argv[1],"r")["runs/run-0000"]; s=r.attrs["status"]; print(s.decode() if isinstance(s,bytes) else s)' "$h5" 2>&1)" \
    interrupted "$what: the results file says interrupted"
  run 0 validate "$h5"
  expect_rc 0 "$what: the results file validates"
  if [ -z "$keep" ]; then
    expect_eq "$(find "$T" -mindepth 1)" "$T/precious.txt" "$what: the tree is gone"
  else
    expect_eq "$(find "$T" -name .mdbench-run | wc -l)" 1 "$what, --keep: the tree is kept, marked"
    "$MDBENCH" clean "$T" >/dev/null 2>&1
  fi
done

# The IO500 scripts under the same signal, during mdtest-easy-write (a create job: its tree is kept, marked,
# with its record): that run stops and reports 143, no later run starts (each "not run: the job got
# SIGTERM"), the job's status and exit-status file say 143, and `mdbench clean` then removes what the create
# run made and nothing else.
for script in slurm/io500-md.sbatch pbs/io500-md.pbs; do
  name=io$RANDOM
  what="SIGTERM to the group of $script"
  T=$BASE/$name
  mkdir -p "$T" && echo "user data" >"$T/precious.txt"
  group_stop "$script" MDBENCH_EASY_ITEMS=2000000 MDBENCH_HARD_ITEMS=10 MDBENCH_STONEWALL=120
  results=$JOBS/mdbench-results/$name
  expect_rc 143 "$what: the job's exit status"
  expect_eq "$(cat "$results/exit-status" 2>&1)" 143 "$what: exit-status file"
  expect_in "$results/mdtest-easy-write.log" "mdbench: exit status 143 (stopped by SIGTERM)" \
    "$what: the status line in the write run's log"
  expect_in "$OUT" "mdtest-hard-delete: not run: the job got SIGTERM" "$what: no run after the signal"
  expect_absent "$results/mdtest-hard-write.log" "$what: mdtest-hard-write never started"
  run 0 validate "$results/mdtest-easy-write.h5"
  expect_rc 0 "$what: the write run's results file validates"
  expect_eq "$(find "$T" -name .mdbench-taken | wc -l)" 1 "$what: the kept tree has its record"
  run 0 clean "$T"
  expect_rc 0 "$what: clean"
  expect_eq "$(find "$T" -mindepth 1)" "$T/precious.txt" "$what: clean leaves the user's file alone"
done

finish
