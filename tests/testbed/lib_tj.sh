# shellcheck shell=bash
# Helpers for the job and signal tests on the test bed (scripts/testbed.sh): Slurm over node1..nodeN and the
# CephFS every node mounts at one path. Usage: source lib_tj.sh. Needs MDBENCH (CTest sets it) and a test bed
# that is up: without one the test FAILS (exit 1), it never skips.
set -u

TJ_TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TJ_REPO=$(cd "$TJ_TESTS/../.." && pwd)
TJ_SCRIPT=$TJ_REPO/scripts/testbed.sh
# The job scripts under test; another tree's (TJ_JOBSCRIPTS=DIR) shows what a test finds in them.
TJ_JOBSCRIPTS=${TJ_JOBSCRIPTS:-$TJ_REPO/jobscripts}
PY=/usr/bin/python3
: "${MDBENCH:?set MDBENCH to the mdbench binary}"

tj_die() { echo "FAIL: $*" >&2; exit 1; }

if ! "$TJ_SCRIPT" status >/dev/null 2>&1; then
  "$TJ_SCRIPT" status >&2
  tj_die "the test bed is not up (as root: scripts/testbed.sh up; MDBENCH_TESTBED_DIR=${MDBENCH_TESTBED_DIR:-default})"
fi
eval "$("$TJ_SCRIPT" env)" || tj_die "scripts/testbed.sh env failed"
# Jobs must see the test bed's Slurm and nothing else: no Hydra settings of ctest's other tests, no variables
# of a job this test may itself run in.
unset HYDRA_LAUNCHER HYDRA_RMK HYDRA_LAUNCHER_EXEC HYDRA_HOST_FILE
for v in $(compgen -v SLURM_) $(compgen -v PBS_); do [ "$v" = SLURM_CONF ] || unset "$v"; done
export MDBENCH_BIN=$MDBENCH

# Job scripts, outputs and results on /tmp, which every node sees; the benchmark's directories on CephFS,
# made through the head's client, which runs no rank.
TJ_TMP=$(mktemp -d /tmp/mdbench-tj.XXXXXX) || exit 1
TJ_FS=$(mktemp -d "$MDBENCH_TESTBED_CEPHFS/tj.XXXXXX") || tj_die "cannot create a directory in $MDBENCH_TESTBED_CEPHFS"
TJ_JOBS=()  # every job this test submitted: cancelled at exit if still queued
tj_cleanup() {
  local id
  for id in "${TJ_JOBS[@]}"; do timeout 10 scancel "$id" 2>/dev/null; done
  rm -rf "$TJ_TMP"
  # Only what the test made; a run that left something has already failed the test.
  rmdir "$TJ_FS" 2>/dev/null || { echo "note: $TJ_FS kept (not empty):" >&2; find "$TJ_FS" | head -5 >&2; }
}
trap tj_cleanup EXIT
trap 'exit 1' INT TERM
cd "$TJ_TMP" || exit 1

PASSED=0
FAILED=0
pass() { PASSED=$((PASSED + 1)); }
fail() { FAILED=$((FAILED + 1)); echo "FAIL: $*" >&2; }
expect_eq() {  # expect_eq ACTUAL EXPECTED WHAT
  if [ "$1" = "$2" ]; then pass; else fail "$3: got '$1', expected '$2'"; fi
}
expect_in() {  # expect_in FILE TEXT WHAT
  if grep -qF -- "$2" "$1" 2>/dev/null; then pass; else fail "$3: '$2' not in $1"; fi
}
expect_absent() {  # expect_absent PATH WHAT (through the head's client)
  if [ ! -e "$1" ] && [ ! -L "$1" ]; then pass; else fail "$2: $1 still exists: $(find "$1" | head -3)"; fi
}
tj_finish() {
  echo "$(basename "$0"): $PASSED passed, $FAILED failed"
  [ "$FAILED" = 0 ] && [ "$PASSED" -gt 0 ]
}

# tj_submit NAME COMMAND...: submits a job (sbatch --parsable or qsub, perhaps behind env VAR=value) from
# TJ_TMP, the job's working directory, and sets JOB[NAME] to its id; a failed submission fails the test and
# leaves JOB[NAME]=none.
declare -A JOB JOB_END
tj_submit() {
  local name=$1 out id
  shift
  out=$(timeout 30 "$@" 2>&1) && id=$(tail -n 1 <<<"$out" | grep -oE '^[0-9]+')
  if [[ ${id:-} =~ ^[0-9]+$ ]]; then
    JOB[$name]=$id
    TJ_JOBS+=("$id")
    pass
  else
    JOB[$name]=none
    fail "$name: $*: $out"
  fi
}

# tj_wait NAME...: waits until the jobs have ended (at most TJ_LIMIT s, default 120) and sets JOB_END[NAME]
# to "STATE EXIT" as the test bed's job completion log has it (slurmctld writes the line as the job ends, before
# squeue stops listing it; slurmctld itself forgets a job MinJobAge after its end time, which for a cancelled
# job is the scancel, so asking it could find nothing). Fails the test for a job still queued at the deadline
# (its JOB_END: "NOT-ENDED after N s").
tj_ended() {  # tj_ended ID: "STATE EXIT" from the job completion log, or "NOT-LOGGED"
  awk -v id="$1" '$1 == "JobId=" id {
      for (k = 1; k <= NF; k++) { split($k, kv, "="); if (kv[1] == "JobState") s = kv[2]; if (kv[1] == "ExitCode") e = kv[2] }
    } END { print (s == "" ? "NOT-LOGGED" : s " " e) }' "$MDBENCH_TESTBED_DIR/slurm/jobcomp.txt" 2>/dev/null
}

tj_wait() {
  local deadline=$((SECONDS + ${TJ_LIMIT:-120})) left name id
  while :; do
    left=0
    for name in "$@"; do
      id=${JOB[$name]}
      [ -z "${JOB_END[$name]:-}" ] || continue
      [ "$id" != none ] || { JOB_END[$name]="NOT-SUBMITTED"; continue; }
      if [ -n "$(timeout 10 squeue -h -j "$id" -t PD,R,CG,S,CF -o %i 2>/dev/null)" ]; then
        left=1
        continue
      fi
      JOB_END[$name]=$(tj_ended "$id")
    done
    [ "$left" = 1 ] || return 0
    if [ "$SECONDS" -ge "$deadline" ]; then
      fail "jobs still queued after ${TJ_LIMIT:-120} s: $(timeout 10 squeue 2>&1)"
      for name in "$@"; do JOB_END[$name]=${JOB_END[$name]:-"NOT-ENDED after ${TJ_LIMIT:-120} s"}; done
      return 1
    fi
    sleep 0.5
  done
}

# tj_ranks TARGET: the pids of the ranks running mdbench on TARGET (every node: one pid namespace).
tj_ranks() { pgrep -f "^$MDBENCH -d $1( |$)"; }

# tj_pids_in NODE PID...: those of the PIDs that run in NODE's network namespace.
tj_pids_in() {
  local node=$1 ns pid
  shift
  ns=$($MDBENCH_TESTBED_EXEC "$node" readlink /proc/self/ns/net) || return 1
  for pid in "$@"; do
    [ "$(readlink "/proc/$pid/ns/net" 2>/dev/null)" != "$ns" ] || echo "$pid"
  done
}

# tj_check_runs WHAT FILES RANKS_PER_RUN STATUS EXIT JOB_ID -- [CHECK...]: the runs in each of FILES (a comma
# list of results files; in each, one run per entry of the comma list RANKS_PER_RUN) have that status, exit status and job id, and CHECKs, each "runK=h1,h2,..." (run K's
# hosts, one per rank, in any order) or "items=N" (every phase but the tree's of every run: N x ranks ok, none
# failed). Read back with h5py.
tj_check_runs() {
  local what=$1
  shift
  if "$PY" - "$@" >"$TJ_TMP/check.txt" 2>&1 <<'PY'; then pass; else fail "$what: $(cat "$TJ_TMP/check.txt")"; fi
import sys
import h5py

paths, ranks_list, status, exit_status, job_id = sys.argv[1:6]
checks = sys.argv[7:]
text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
ranks_list = [int(r) for r in ranks_list.split(",")]
problems = []


def check_file(path):
    with h5py.File(path, "r") as f:
        runs = [f["runs"][k] for k in sorted(f["runs"])]
        if len(runs) != len(ranks_list):
            problems.append(f"{path}: {len(runs)} runs, expected {len(ranks_list)}")
        for k, (run, ranks) in enumerate(zip(runs, ranks_list)):
            a = run.attrs
            got = (text(a["status"]), int(a["exit_status"]), text(a["job_id"]), int(a["ranks"]))
            if got != (status, int(exit_status), job_id, ranks):
                problems.append(f"{run.name}: status, exit, job, ranks {got}, expected {(status, int(exit_status), job_id, ranks)}")
            hosts = sorted(text(h) for h in run["hosts"][()])
            if int(a["nodes"]) != len(set(hosts)):
                problems.append(f"{run.name}: nodes {int(a['nodes'])} but hosts {hosts}")
            for c in checks:
                key, _, value = c.partition("=")
                if key.startswith("run") and int(key[3:]) == k:
                    want = sorted(value.split(","))
                    if hosts != want:
                        problems.append(f"{run.name}: hosts {hosts}, expected {want}")
                elif key == "items":
                    for it in run["iterations"].values():
                        for name, phase in it.items():
                            if name.startswith("tree-"):
                                continue
                            ok, bad = int(phase.attrs["ops_ok"]), int(phase.attrs["ops_failed"])
                            if (ok, bad) != (int(value) * ranks, 0):
                                problems.append(f"{run.name}/{name}: ok, failed {(ok, bad)}, expected {(int(value) * ranks, 0)}")


for path in paths.split(","):
    try:
        check_file(path)
    except (OSError, KeyError) as e:
        problems.append(f"{path}: {e}")
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY
}
