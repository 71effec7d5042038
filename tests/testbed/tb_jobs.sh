#!/usr/bin/env bash
# The batch job scripts in jobscripts/ on the test bed: 2 nodes x 2 ranks, the benchmark on CephFS.
#   tb_jobs.sh slurm  sbatch -N 2 --ntasks-per-node=2: mdbench.sbatch under both launchers (srun --mpi=pmi2,
#                     MPICH's mpiexec taking the allocation from Slurm) and mdbench-sweep.sbatch with
#                     --sweep-placement spread; the default workload (MDBENCH_ARGS unset) within the script's
#                     time limit; progress lines (MDBENCH_PROGRESS); submitted together (--oversubscribe: 2
#                     CPUs per node)
#   tb_jobs.sh pbs    mdbench.pbs and mdbench-sweep.pbs through a real qsub (Debian's Torque wrappers over the
#                     same Slurm), -l nodes=2:ppn=2, -l select=2:ncpus=2:mpiprocs=2 and no -l at all (one
#                     rank), settings through qsub -v
#   tb_jobs.sh io500  io500-md.sbatch (sbatch, srun) and io500-md.pbs (qsub, mpiexec): seven runs each, one
#                     ending before its stonewall (marked [INVALID]), one cut by it
# Each job: its state and exit code, the exit-status file and the console log in the results directory named
# after the job id, the results file (valid, recording the job, status complete, exact counts, the hosts node1
# and node2 as each run's ranks ran on them), and the target on CephFS removed (seen through the head's client).
# shellcheck source=tests/testbed/lib_tj.sh
source "$(dirname "$0")/lib_tj.sh"
group=${1:-}
items=12
all4=run0=node1,node1,node2,node2

# check_job NAME RESULTS_DIR RANKS_PER_RUN TARGET CHECK...: a job of one mdbench run (or one sweep).
check_job() {
  local name=$1 dir=$2 ranks=$3 target=$4
  shift 4
  expect_eq "${JOB_END[$name]}" "COMPLETED 0:0" "$name: job state and exit code"
  expect_eq "$(cat "$dir/exit-status" 2>&1)" 0 "$name: exit-status in the results directory"
  expect_in "$dir/mdbench.log" "mdbench: exit status 0 (every operation succeeded)" "$name: console log"
  if "$MDBENCH" validate "$dir/mdbench.h5" >"$TJ_TMP/validate.txt" 2>&1; then pass; else
    fail "$name: validate: $(cat "$TJ_TMP/validate.txt")"; fi
  tj_check_runs "$name: results file" "$dir/mdbench.h5" "$ranks" complete 0 "${JOB[$name]}" -- "$@"
  expect_absent "$target" "$name: the target the run made"
}

# check_io500 NAME RESULTS_DIR TARGET WALL: the seven runs, each on both nodes, and the scores; WALL "early" when
# the write runs ended before their stonewall (then they and the score are marked [INVALID], as IO500 marks
# such a run), "reached" when it fired.
check_io500() {
  local name=$1 dir=$2 target=$3 wall=$4 phase files=()
  expect_eq "${JOB_END[$name]}" "COMPLETED 0:0" "$name: job state and exit code"
  expect_eq "$(cat "$dir/exit-status" 2>&1)" 0 "$name: exit-status"
  for phase in mdtest-easy-write mdtest-hard-write mdtest-easy-stat mdtest-hard-stat mdtest-easy-delete \
    mdtest-hard-read mdtest-hard-delete; do
    expect_in "$dir/$phase.log" "mdbench: exit status 0" "$name: $phase"
    files+=("$dir/$phase.h5")
  done
  tj_check_runs "$name: the runs' results files" "$(IFS=,; echo "${files[*]}")" 4 complete 0 "${JOB[$name]}" -- "$all4"
  expect_in "$dir/scores.txt" "[SCORE ] mdtest" "$name: the score"
  if grep -q "invalid (exit status" "$dir/scores.txt" 2>/dev/null; then fail "$name: $(cat "$dir/scores.txt")"; else pass; fi
  expect_in "$dir/mdtest-easy-write.log" " --progress 60 " "$name: a progress line a minute"
  local marked
  marked=$(grep -c '^\[RESULT\] mdtest-[a-z]*-write .* kIOPS \[INVALID\] (done in [0-9.]* s, before the [0-9]* s stonewall)$' \
    "$dir/scores.txt")
  if [ "$wall" = early ]; then
    expect_eq "$marked" 2 "$name: both write runs ended before the stonewall, marked [INVALID]"
    expect_in "$dir/scores.txt" "kIOPS [INVALID] (ended before the stonewall: mdtest-easy-write mdtest-hard-write;" \
      "$name: the score marked [INVALID]"
  else
    expect_eq "$(grep -c INVALID "$dir/scores.txt")" 0 "$name: the stonewall fired: nothing marked [INVALID]"
  fi
  expect_absent "$target" "$name: the target the job made"
}

# Small counts that end before a 5 s stonewall (marked [INVALID]), and IO500's million files per rank cut by a
# 1 s stonewall (valid).
io500_env=(MDBENCH_EASY_ITEMS=8 MDBENCH_HARD_ITEMS=6 MDBENCH_STONEWALL=5)
io500_walled=(MDBENCH_EASY_ITEMS=1000000 MDBENCH_HARD_ITEMS=1000000 MDBENCH_STONEWALL=1)
# dir NAME: a PBS job's results directory, named after PBS_JOBID (<id>.<the head's host name>).
dir() { find "$TJ_TMP/mdbench-results" -maxdepth 1 -name "${JOB[$1]}.*" -print -quit 2>/dev/null; }
t0=$SECONDS
case $group in
  slurm)
    sb=(-N 2 --ntasks-per-node=2 --oversubscribe)
    export MDBENCH_ITEMS=$items
    MDBENCH_TARGET=$TJ_FS/srun MDBENCH_ARGS="-z 1 -b 2" tj_submit srun sbatch --parsable "${sb[@]}" \
      "$TJ_JOBSCRIPTS/slurm/mdbench.sbatch"
    MDBENCH_TARGET=$TJ_FS/mpiexec MDBENCH_ARGS="-F -u" MDBENCH_LAUNCHER=mpiexec \
      MDBENCH_RESULTS_DIR=$TJ_TMP/results-mpiexec tj_submit mpiexec sbatch --parsable "${sb[@]}" \
      "$TJ_JOBSCRIPTS/slurm/mdbench.sbatch"
    MDBENCH_TARGET=$TJ_FS/sweep MDBENCH_ARGS=-F MDBENCH_SWEEP=pow2 MDBENCH_PLACEMENT=spread \
      tj_submit sweep sbatch --parsable "${sb[@]}" "$TJ_JOBSCRIPTS/slurm/mdbench-sweep.sbatch"
    # The default workload (MDBENCH_ARGS unset; fewer items): a directory per rank, done in seconds (issue 29:
    # one shared tree crawled in dir-rename at 3 renames/s from the two clients, 400 renames here). And the
    # progress lines in the log: a line a minute by default, every second with MDBENCH_PROGRESS=1 through a
    # create phase that lasts its 2 s stonewall.
    tj_submit default env -u MDBENCH_ARGS -u MDBENCH_PROGRESS MDBENCH_ITEMS=100 MDBENCH_TARGET="$TJ_FS/default" \
      MDBENCH_RESULTS_DIR="$TJ_TMP/results-default" sbatch --parsable "${sb[@]}" "$TJ_JOBSCRIPTS/slurm/mdbench.sbatch"
    # (Read now: slurmctld forgets an ended job after MinJobAge, 4 s.)
    default_limit=$(timeout 10 scontrol -o show job "${JOB[default]}" | grep -o 'TimeLimit=[^ ]*')
    MDBENCH_PROGRESS=1 MDBENCH_ITEMS=100000 MDBENCH_ARGS="-F -u -W 2" MDBENCH_TARGET=$TJ_FS/progress \
      MDBENCH_RESULTS_DIR=$TJ_TMP/results-progress tj_submit progress sbatch --parsable "${sb[@]}" \
      "$TJ_JOBSCRIPTS/slurm/mdbench.sbatch"
    TJ_LIMIT=120 tj_wait srun mpiexec sweep default progress
    echo "jobs done after $((SECONDS - t0)) s"

    check_job srun "$TJ_TMP/mdbench-results/${JOB[srun]}" 4 "$TJ_FS/srun" "$all4" "items=$items"
    expect_in "$TJ_TMP/mdbench-results/${JOB[srun]}/mdbench.log" "srun --mpi=pmi2" "srun: launched by srun"
    expect_in "$TJ_TMP/mdbench-${JOB[srun]}.out" "exit status 0" "srun: #SBATCH --output"
    check_job default "$TJ_TMP/results-default/${JOB[default]}" 4 "$TJ_FS/default" "$all4" items=100
    expect_in "$TJ_TMP/results-default/${JOB[default]}/mdbench.log" "-n 100 --progress 60 -u -o " \
      "default: a directory per rank, a progress line a minute"
    expect_eq "$default_limit" TimeLimit=00:10:00 "default: the script's time limit"
    check_job progress "$TJ_TMP/results-progress/${JOB[progress]}" 4 "$TJ_FS/progress" "$all4"
    expect_in "$TJ_TMP/results-progress/${JOB[progress]}/mdbench.log" "--progress 1 -F -u -W 2" \
      "progress: MDBENCH_PROGRESS=1"
    expect_in "$TJ_TMP/results-progress/${JOB[progress]}/mdbench.log" "progress: file-create  rank 0: " \
      "progress: lines in the log during the 2 s create"
    check_job mpiexec "$TJ_TMP/results-mpiexec/${JOB[mpiexec]}" 4 "$TJ_FS/mpiexec" "$all4" "items=$items"
    expect_in "$TJ_TMP/results-mpiexec/${JOB[mpiexec]}/mdbench.log" ": mpiexec $MDBENCH" \
      "mpiexec: launched by MPICH's mpiexec"
    # pow2 over 4 tasks: steps of 1, 2 and 4 ranks; spread: step 2 takes one rank on each node.
    check_job sweep "$TJ_TMP/mdbench-results/${JOB[sweep]}" 1,2,4 "$TJ_FS/sweep" run0=node1 run1=node1,node2 \
      run2=node1,node1,node2,node2 "items=$items"
    ;;
  pbs)
    # qsub -v passes only the variables listed (sbatch --export=none,...); the job's PBS_* come from the test
    # bed's TaskProlog, PBS_JOBID as <id>.<head's host name>.
    # The scripts take the resources they are given, in either form (issue 29: Torque's nodes=2:ppn=2, as
    # docs/testbed.md writes it, failed beside the script's own ncpus=4), or none: one rank.
    q=(-l select=2:ncpus=2:mpiprocs=2 -j oe)
    v=MDBENCH_BIN=$MDBENCH,MDBENCH_ITEMS=$items
    tj_submit pbs qsub -l nodes=2:ppn=2 -j oe -o "$TJ_TMP/pbs.out" -v "$v,MDBENCH_TARGET=$TJ_FS/pbs,MDBENCH_ARGS=-u" \
      "$TJ_JOBSCRIPTS/pbs/mdbench.pbs"
    tj_submit pbs-one qsub -j oe -o "$TJ_TMP/pbs-one.out" -v "$v,MDBENCH_TARGET=$TJ_FS/pbs-one" \
      "$TJ_JOBSCRIPTS/pbs/mdbench.pbs"
    tj_submit pbs-sweep qsub "${q[@]}" -o "$TJ_TMP/pbs-sweep.out" \
      -v "$v,MDBENCH_TARGET=$TJ_FS/pbs-sweep,MDBENCH_ARGS=-uD,MDBENCH_SWEEP=pow2,MDBENCH_PLACEMENT=spread" \
      "$TJ_JOBSCRIPTS/pbs/mdbench-sweep.pbs"
    TJ_LIMIT=120 tj_wait pbs pbs-sweep pbs-one
    echo "jobs done after $((SECONDS - t0)) s"

    check_job pbs "$(dir pbs)" 4 "$TJ_FS/pbs" "$all4" "items=$items"
    expect_in "$(dir pbs)/mdbench.log" "mpiexec -n 4 $MDBENCH" "pbs: 4 ranks from PBS_NP"
    expect_in "$TJ_TMP/pbs.out" "exit status 0" "pbs: qsub -o"
    check_job pbs-one "$(dir pbs-one)" 1 "$TJ_FS/pbs-one" run0=node1 "items=$items"
    expect_in "$(dir pbs-one)/mdbench.log" "mpiexec -n 1 $MDBENCH" "pbs-one: no -l, one rank"
    check_job pbs-sweep "$(dir pbs-sweep)" 1,2,4 "$TJ_FS/pbs-sweep" run0=node1 run1=node1,node2 \
      run2=node1,node1,node2,node2 "items=$items"
    ;;
  io500)
    # Seven mdbench runs each: IO500's phases in IO500's order.
    tj_submit io500 env "${io500_env[@]}" MDBENCH_TARGET="$TJ_FS/io500" sbatch --parsable -N 2 \
      --ntasks-per-node=2 "$TJ_JOBSCRIPTS/slurm/io500-md.sbatch"
    tj_submit io500-pbs qsub -l select=2:ncpus=2:mpiprocs=2 -j oe -o "$TJ_TMP/io500-pbs.out" \
      -v "MDBENCH_BIN=$MDBENCH,$(IFS=,; echo "${io500_walled[*]}"),MDBENCH_TARGET=$TJ_FS/io500-pbs" \
      "$TJ_JOBSCRIPTS/pbs/io500-md.pbs"
    TJ_LIMIT=240 tj_wait io500 io500-pbs
    echo "jobs done after $((SECONDS - t0)) s"
    check_io500 io500 "$TJ_TMP/mdbench-results/${JOB[io500]}" "$TJ_FS/io500" early
    check_io500 io500-pbs "$(dir io500-pbs)" "$TJ_FS/io500-pbs" reached
    ;;
  *)
    echo "usage: $0 slurm|pbs|io500" >&2
    exit 2
    ;;
esac
echo "tb_jobs $group: $((SECONDS - t0)) s"
tj_finish
