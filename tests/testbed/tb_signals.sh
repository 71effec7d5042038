#!/usr/bin/env bash
# Stopping a running job on the test bed: jobscripts/slurm/mdbench.sbatch, sbatch -N 2 --ntasks-per-node=2
# (srun --mpi=pmi2 --kill-on-bad-exit=1), creating files on CephFS in a directory that holds a user's file.
#   tb_signals.sh term  scancel the job: every rank gets SIGTERM, stops, records the phase, removes what the
#                       run made. The job is CANCELLED, its batch shell killed with it (no exit-status file:
#                       jobscripts/README.md), the results file says interrupted with exit status 143 (128 +
#                       15), nothing of the run is left and no rank runs, within TERM_BOUND_S of the scancel.
#   tb_signals.sh kill  kill -9 one rank on node2 (its pid found in node2's namespace): srun ends the step
#                       (SIGTERM, then SIGKILL after Slurm's KillWait, as the other ranks wait for the dead
#                       one), the job FAILED with 137 (128 + 9) in its exit-status file, the results file
#                       valid and still "running" (README: SIGKILL cannot be survived), the marked tree left,
#                       and `mdbench clean` removes all of it: within KillWait + KILL_SLACK_S, clean within
#                       CLEAN_BOUND_S.
# The user's file is untouched in both.
# shellcheck source=tests/testbed/lib_tj.sh
source "$(dirname "$0")/lib_tj.sh"
case=${1:-}
# Measured on the 2-core test machine under load (other tests running): scancel to job gone 6.5 s; kill -9 to
# job gone 32 s with KillWait 30 (the test bed now sets 10); mdbench clean of ~2200 files 11 s. The bounds
# leave room for a busy machine.
TERM_BOUND_S=20
KILL_SLACK_S=15
CLEAN_BOUND_S=40

# start NAME: submits a long create run (-F -u, 100000 files per rank) on $TJ_FS/NAME/t, beside the user's
# file $TJ_FS/NAME/precious.txt, and waits until 200 of its files exist (seen through the head's client).
start() {
  local name=$1 _
  D=$TJ_FS/$name
  mkdir "$D" && echo "user data" >"$D/precious.txt"
  tj_submit "$name" env MDBENCH_TARGET="$D/t" MDBENCH_ITEMS=100000 MDBENCH_ARGS="-F -u" \
    sbatch --parsable -N 2 --ntasks-per-node=2 "$TJ_REPO/jobscripts/slurm/mdbench.sbatch"
  for _ in $(seq 300); do
    [ "$(find "$D/t" -name 'file.mdbench.*' 2>/dev/null | head -n 200 | wc -l)" -ge 200 ] && return 0
    sleep 0.2
  done
  fail "$name: the job's create phase did not start within 60 s: $(timeout 10 squeue 2>&1)"
  return 1
}

# results NAME: the job's results directory.
results() { echo "$TJ_TMP/mdbench-results/${JOB[$1]}"; }

check_left() {  # check_left NAME: the user's file as it was, and no rank of the job running anywhere
  expect_eq "$(cat "$D/precious.txt" 2>&1)" "user data" "$1: the user's file"
  expect_eq "$(tj_ranks "$D/t" | tr '\n' ' ')" "" "$1: no rank left running"
}

case $case in
  term)
    if start term; then
      t0=$SECONDS
      timeout 10 scancel "${JOB[term]}" || fail "scancel ${JOB[term]}"
      TJ_LIMIT=60 tj_wait term
      took=$((SECONDS - t0))
      echo "scancel to job gone: $took s"
      if [ "$took" -le "$TERM_BOUND_S" ]; then pass; else fail "term: took $took s, bound $TERM_BOUND_S s"; fi
      expect_eq "${JOB_END[term]%% *}" CANCELLED "term: job state"
      r=$(results term)
      tj_check_runs "term: results file" "$r/mdbench.h5" 4 interrupted 143 "${JOB[term]}" -- \
        run0=node1,node1,node2,node2
      if "$MDBENCH" validate "$r/mdbench.h5" >/dev/null 2>&1; then pass; else fail "term: results file invalid"; fi
      if "$PY" -c 'import h5py, sys; it = h5py.File(sys.argv[1])["runs/run-0000/iterations/iter-0000"]
sys.exit(0 if "file-create" in it and "file-stat" not in it else 1)' "$r/mdbench.h5" 2>/dev/null; then pass; else
        fail "term: file-create is not the phase the signal stopped"; fi
      expect_absent "$D/t" "term: the run removed its target"
      check_left term
      rm -f "$D/precious.txt" && rmdir "$D"
    fi
    ;;
  kill)
    killwait=$(timeout 10 scontrol show config | awk '$1 == "KillWait" { print $3 }')
    [[ $killwait =~ ^[0-9]+$ ]] || tj_die "cannot read KillWait from scontrol show config"
    if start kill; then
      mapfile -t all < <(tj_ranks "$D/t")
      victim=$(tj_pids_in node2 "${all[@]}" | head -n 1)
      expect_eq "${#all[@]} $(tj_pids_in node1 "${all[@]}" | wc -l)" "4 2" "kill: 4 ranks, 2 of them on node1"
      if [ -n "$victim" ]; then
        t0=$SECONDS
        kill -KILL "$victim"
        TJ_LIMIT=$((killwait + 60)) tj_wait kill
        took=$((SECONDS - t0))
        echo "kill -9 of rank pid $victim on node2 to job gone: $took s (KillWait $killwait s)"
        if [ "$took" -le $((killwait + KILL_SLACK_S)) ]; then pass; else
          fail "kill: took $took s, bound KillWait + $KILL_SLACK_S = $((killwait + KILL_SLACK_S)) s"; fi
        expect_eq "${JOB_END[kill]}" "FAILED 137:0" "kill: job state and exit code"
        r=$(results kill)
        expect_eq "$(cat "$r/exit-status" 2>&1)" 137 "kill: exit-status"
        tj_check_runs "kill: results file" "$r/mdbench.h5" 4 running -1 "${JOB[kill]}" -- run0=node1,node1,node2,node2
        if "$MDBENCH" validate "$r/mdbench.h5" >/dev/null 2>&1; then pass; else fail "kill: results file invalid"; fi
        check_left kill
        if [ -e "$D/t/.mdbench-run" ]; then pass; else fail "kill: the tree is not left, marked"; fi
        t0=$SECONDS
        if "$MDBENCH" clean "$D" >"$TJ_TMP/clean.txt" 2>&1; then pass; else fail "kill: clean: $(cat "$TJ_TMP/clean.txt")"; fi
        took=$((SECONDS - t0))
        echo "mdbench clean: $took s: $(tr '\n' ' ' <"$TJ_TMP/clean.txt")"
        if [ "$took" -le "$CLEAN_BOUND_S" ]; then pass; else fail "kill: clean took $took s, bound $CLEAN_BOUND_S s"; fi
        expect_eq "$(cd "$D" && find . -mindepth 1)" ./precious.txt "kill: after clean only the user's file"
      else
        fail "kill: no rank of the job in node2's namespace (ranks: ${all[*]})"
      fi
      rm -f "$D/precious.txt" && rmdir "$D"
    fi
    ;;
  *)
    echo "usage: $0 term|kill" >&2
    exit 2
    ;;
esac
tj_finish
