#!/usr/bin/env bash
# The batch job scripts in jobscripts/, submitted for real to a single-node Slurm cluster started here
# (scripts/slurm-cluster.sh): the Slurm scripts as they are, the PBS scripts through sbatch, which honours
# #PBS directives, with a TaskProlog giving them the PBS_* variables. Checks each job's exit status, its
# results directory named after the job id, the HDF5 file (valid, recording the job, exact counts), and that
# a failed benchmark fails its job. Needs the packages slurm-wlm and munge (scripts/deps.sh), and root
# (exit 77, skipped, without).
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3
repo=$(cd "$E2E_DIR/../.." && pwd)
cluster=$repo/scripts/slurm-cluster.sh
host=$(hostname -s)
limit_s=120

# Jobs must see this cluster and nothing else: no HYDRA settings meant for tests outside a job, no variables
# of a job this test may itself run in.
unset HYDRA_LAUNCHER HYDRA_RMK
for v in $(compgen -v SLURM_) $(compgen -v PBS_); do unset "$v"; done
export MDBENCH_SLURM_DIR=$BASE/slurm SLURM_CONF=$BASE/slurm/slurm.conf MDBENCH_BIN=$MDBENCH
chmod 711 "$BASE"  # munged (user munge) must reach its socket below BASE

if [ "$(id -u)" != 0 ]; then
  echo "SKIPPED: the Slurm daemons need root" >&2
  exit 77  # CTest reports it as skipped (SKIP_RETURN_CODE)
fi
for exe in sbatch squeue scontrol /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged; do
  command -v "$exe" >/dev/null || { echo "$exe missing: install slurm-wlm and munge (scripts/deps.sh)" >&2; exit 1; }
done

cleanup() {
  [ -z "${started:-}" ] || "$cluster" stop >"$BASE/.stop" 2>&1 || cat "$BASE/.stop" >&2
  rm -rf "$BASE"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

t0=$SECONDS
started=1
if "$cluster" start >"$OUT" 2>"$ERR"; then pass; else fail "cluster start"; exit 1; fi
daemons=$(cat "$BASE/slurm/run/slurmctld.pid" "$BASE/slurm/run/slurmd.pid" "$BASE/slurm/munge/munged.pid")
expect_eq "$(wc -w <<<"$daemons")" 3 "three daemons running"

WORK=$BASE/work
mkdir -p "$WORK"
declare -A JOB
# submit NAME SCRIPT [VAR=value...]: sbatch SCRIPT in WORK with these variables; JOB[NAME] = its id.
submit() {
  local name=$1 script=$repo/jobscripts/$2 id
  shift 2
  if id=$(cd "$WORK" && env "$@" timeout 30 sbatch --parsable "$script" 2>"$ERR"); then
    JOB[$name]=${id%%;*}
    pass
  else
    JOB[$name]=none  # so that its checks fail rather than stop the test
    fail "submit $name"
  fi
}

echo "not a directory" >"$BASE/afile"
mkdir "$BASE/t.pbs" "$BASE/t.preset"
submit slurm slurm/mdbench.sbatch MDBENCH_ITEMS=40 "MDBENCH_ARGS=-z 1 -b 2"
submit slurm-mpiexec slurm/mdbench.sbatch MDBENCH_LAUNCHER=mpiexec MDBENCH_PRESET=io500-easy MDBENCH_ITEMS=30 \
  MDBENCH_TARGET="$BASE/t.preset" MDBENCH_RESULTS_DIR="$BASE/results"
submit pbs pbs/mdbench.pbs MDBENCH_ITEMS=25 MDBENCH_ARGS=-F MDBENCH_TARGET="$BASE/t.pbs"
submit slurm-fail slurm/mdbench.sbatch MDBENCH_ITEMS=10 MDBENCH_TARGET="$BASE/afile"
submit pbs-fail pbs/mdbench.pbs MDBENCH_ITEMS=10 MDBENCH_TARGET="$BASE/afile"
submit no-binary slurm/mdbench.sbatch MDBENCH_BIN="$BASE/no-such-mdbench"
submit slurm-sweep slurm/mdbench-sweep.sbatch MDBENCH_ITEMS=20 MDBENCH_SWEEP=pow2
submit pbs-sweep pbs/mdbench-sweep.pbs MDBENCH_ITEMS=20 MDBENCH_SWEEP=1,2,4 MDBENCH_PLACEMENT=spread

# squeue lists a job until it has ended; bounded, so that a stuck job fails the test instead of hanging it.
# (Every client call has a timeout too: they retry for long when the controller does not answer.)
queued() { timeout 10 squeue -h -o %i 2>&1; }
deadline=$((SECONDS + limit_s))
while [ -n "$(queued)" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.25; done
if [ -z "$(queued)" ]; then
  pass
else
  fail "jobs still queued after $limit_s s: $(timeout 10 squeue 2>&1)"
fi
echo "jobs done after $((SECONDS - t0)) s"

# job_end NAME: "STATE EXIT" as slurmctld knows it (no accounting here; it keeps ended jobs for MinJobAge).
job_end() {
  timeout 10 scontrol -o show job "${JOB[$1]}" | tr ' ' '\n' | awk -F= '$1 == "JobState" { s = $2 } $1 == "ExitCode" { e = $2 } END { print s, e }'
}
# results NAME: the job's results directory.
results() {
  case $1 in
    slurm-mpiexec) echo "$BASE/results/${JOB[$1]}" ;;
    pbs*) echo "$WORK/mdbench-results/${JOB[$1]}.$host" ;;  # PBS_JOBID, as a PBS server would give it
    *) echo "$WORK/mdbench-results/${JOB[$1]}" ;;
  esac
}

# job_output NAME: the job's stdout and stderr (#SBATCH --output; the PBS scripts leave Slurm's default).
job_output() {
  case $1 in
    pbs*) echo "$WORK/slurm-${JOB[$1]}.out" ;;
    *) echo "$WORK/mdbench-${JOB[$1]}.out" ;;
  esac
}

# check_h5 WHAT FILE JOB_ID JOB_NAME RANKS ITEMS TREE_DIRS UNIQUE(0|1) KINDS(both|files) PRESET [PLACEMENT]:
# the file's runs (one per entry of the comma list RANKS, in order) record the Slurm job and its exact counts;
# with PLACEMENT, they are the steps of a sweep over the job's largest rank count.
check_h5() {
  local what=$1
  shift
  if "$py" - "$@" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "$what: $(cat "$BASE/check.txt")"; fi
import sys
import h5py

path, job_id, job_name, ranks_list, items, tree_dirs, unique, kinds, preset = sys.argv[1:10]
placement = sys.argv[10] if len(sys.argv) > 10 else None
ranks_list = [int(r) for r in ranks_list.split(",")]
items, tree_dirs, unique = int(items), int(tree_dirs), unique == "1"
problems = []


def check(cond, what):
    if not cond:
        problems.append(what)


f = h5py.File(path, "r")
runs = [f["runs"][k] for k in sorted(f["runs"])]
check(len(runs) == len(ranks_list), f"{len(runs)} runs, expected {len(ranks_list)}")
phases = {"tree-create", "tree-remove"}
if kinds != "files":
    phases |= {"dir-create", "dir-stat", "dir-remove"}
if kinds != "dirs":
    phases |= {"file-create", "file-stat", "file-read", "file-remove"}
for step, (run, ranks) in enumerate(zip(runs, ranks_list), 1):
    a, c, n = run.attrs, run["config"].attrs, run.name
    if placement:
        got = (int(a["sweep_step"]), int(a["job_ranks"]), a["sweep_placement"])
        check(got == (step, max(ranks_list), placement), f"{n}: sweep step, job ranks, placement {got}")
    check(a["scheduler"] == "slurm", f"{n}: scheduler '{a['scheduler']}'")
    check(a["job_id"] == job_id, f"{n}: job_id '{a['job_id']}', expected '{job_id}'")
    check(a["job_name"] == job_name, f"{n}: job_name '{a['job_name']}', expected '{job_name}'")
    check(a["ranks"] == ranks, f"{n}: ranks {a['ranks']}, expected {ranks}")
    check(a["status"] == "complete" and a["exit_status"] == 0, f"{n}: status {a['status']} {a['exit_status']}")
    check(c["items"] == items and c["kinds"] == kinds and c["preset"] == preset,
          f"{n}: config items {c['items']} kinds {c['kinds']} preset '{c['preset']}'")
    check(c["sharing"] == ("unique" if unique else "shared"), f"{n}: sharing {c['sharing']}")
    check(len(run["iterations"]) == 1, f"{n}: {len(run['iterations'])} iterations")
    for it in run["iterations"].values():
        check(set(it) == phases, f"{n}: phases {sorted(it)}")
        for name, phase in it.items():
            want = tree_dirs * (ranks if unique else 1) if name.startswith("tree-") else items * ranks
            got = (int(phase.attrs["ops_ok"]), int(phase.attrs["ops_failed"]))
            check(got == (want, 0), f"{n}/{name}: ok, failed {got}, expected ({want}, 0)")
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY
}

# check_ok NAME JOB_NAME RANKS ITEMS TREE_DIRS UNIQUE KINDS PRESET [PLACEMENT]: the job succeeded and left
# its results.
check_ok() {
  local name=$1 dir
  dir=$(results "$name")
  expect_eq "$(job_end "$name")" "COMPLETED 0:0" "$name: job state and exit code"
  expect_eq "$(cat "$dir/exit-status" 2>&1)" 0 "$name: exit-status in $dir"
  expect_in "$dir/mdbench.log" "results:  $dir/mdbench.h5" "$name: console log in the results directory"
  run 0 validate "$dir/mdbench.h5"
  expect_rc 0 "$name: validate"
  check_h5 "$name: results file" "$dir/mdbench.h5" "${JOB[$name]}" "${@:2}"
}

# check_failed NAME EXIT TEXT: the job failed with EXIT, and its log says why.
check_failed() {
  local name=$1 dir
  dir=$(results "$name")
  expect_eq "$(job_end "$name")" "FAILED $2:0" "$name: job state and exit code"
  expect_in "$(job_output "$name")" "$3" "$name: job output says why"
  [ "$name" = no-binary ] || expect_eq "$(cat "$dir/exit-status" 2>&1)" "$2" "$name: exit-status in $dir"
}

check_ok slurm mdbench 4 40 3 0 both ""
expect_in "$(results slurm)/mdbench.log" "srun --mpi=pmi2" "slurm: launched by srun"
expect_absent "$WORK/mdbench-target.${JOB[slurm]}" "slurm: default target removed"
expect_in "$(job_output slurm)" "exit status 0" "slurm: #SBATCH --output honoured"

check_ok slurm-mpiexec mdbench 4 30 1 1 files io500-easy
expect_in "$(results slurm-mpiexec)/mdbench.log" ": mpiexec $MDBENCH" "slurm-mpiexec: launched by mpiexec"
expect_empty_dir "$BASE/t.preset" "slurm-mpiexec: target left empty"

# Under sbatch SLURM_JOB_ID is set for the PBS script too, and mdbench prefers it: the file records the
# Slurm job; the results directory is named after PBS_JOBID (<id>.<host>, from the TaskProlog).
check_ok pbs mdbench 4 25 1 0 files ""
expect_in "$(results pbs)/mdbench.log" "mpiexec -n 4 $MDBENCH" "pbs: 4 ranks from PBS_NP (#PBS -l select)"
expect_empty_dir "$BASE/t.pbs" "pbs: target left empty"
expect_in "$(job_output pbs)" "exit status 0" "pbs: job output"

check_failed slurm-fail 1 "is not a directory"
check_failed pbs-fail 1 "is not a directory"
expect_eq "$(cat "$BASE/afile")" "not a directory" "failed jobs left the file alone"
check_failed no-binary 2 "no mdbench binary at '$BASE/no-such-mdbench'"

if "$MDBENCH" --help | grep -q -- --sweep; then
  check_ok slurm-sweep mdbench-sweep 1,2,4 20 1 0 both "" block  # pow2 of 4 tasks; mdbench's default placement
  check_ok pbs-sweep mdbench-sweep 1,2,4 20 1 0 both "" spread
else
  # Until mdbench has --sweep, the sweep scripts must fail their jobs with mdbench's usage error.
  echo "NOTE: $MDBENCH has no --sweep yet: checking only that the sweep jobs fail with exit status 2"
  check_failed slurm-sweep 2 "unknown option '--sweep'"
  check_failed pbs-sweep 2 "unknown option '--sweep'"
fi

# Stopping leaves no daemon behind.
started=
if "$cluster" stop >"$OUT" 2>"$ERR"; then pass; else fail "cluster stop"; fi
for pid in $daemons; do
  if kill -0 "$pid" 2>/dev/null; then fail "daemon $pid still running after stop"; else pass; fi
done
echo "e2e_jobs: $((SECONDS - t0)) s with cluster start and stop"
finish
