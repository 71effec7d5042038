#!/usr/bin/env bash
# The test bed's smoke test: mdbench on CephFS, 2 nodes x 2 ranks, launched both ways (MPICH's mpiexec over
# the nodes, and a Slurm batch job with srun --mpi=pmi2): exit 0, the results file names both nodes as hosts
# of two ranks each, the run's directory empty afterwards through a third client, no process left behind.
source "$(dirname "$0")/lib.sh"
read -r node_a node_b _ <<<"$MDBENCH_TESTBED_NODES"
[ -n "$node_b" ] || tb_die "the test bed has fewer than 2 nodes ($MDBENCH_TESTBED_NODES)"
ITEMS=50

check_run() {  # check_run HOW RC DIR H5: the run's exit status, its results file, what it left
  local how=$1 rc=$2 dir=$3 h5=$4 left
  if [ "$rc" = 0 ]; then tb_ok "$how: exit 0"; else tb_fail "$how: exit $rc (see $TB_TMP/$how.out)"; cat "$TB_TMP/$how.out" >&2; fi
  if [ -s "$h5" ] && tb_check_hosts "$h5" 4 "$node_a" "$node_b"; then
    tb_ok "$how: results name $node_a and $node_b, 2 ranks each"
  else
    tb_fail "$how: results file $h5"
  fi
  left=$(tb_entries "$dir")
  if [ "$left" = 0 ]; then tb_ok "$how: nothing left in $dir (head client)"; else
    tb_fail "$how: $left entries left in $dir"; find "$dir" | head >&2; fi
}

# 1. mpiexec across the nodes (Hydra's ssh launcher replaced by the test bed's namespace launcher).
mkdir "$TB_FS/mpiexec"
rc=0
timeout 120 "$TB_SCRIPT" mpiexec -n 4 -ppn 2 "$MDBENCH" -F -u -n $ITEMS -d "$TB_FS/mpiexec" \
  -o "$TB_TMP/mpiexec.h5" >"$TB_TMP/mpiexec.out" 2>&1 || rc=$?
check_run mpiexec $rc "$TB_FS/mpiexec" "$TB_TMP/mpiexec.h5"
rmdir "$TB_FS/mpiexec"

# 2. A Slurm batch job over both nodes; its tasks started by srun through PMI2.
mkdir "$TB_FS/slurm"
cat >"$TB_TMP/job.sh" <<JOB
#!/bin/bash
srun --mpi=pmi2 "$MDBENCH" -F -u -n $ITEMS -d "$TB_FS/slurm" -o "$TB_TMP/slurm.h5"
JOB
rc=0
timeout 180 sbatch -N 2 --ntasks-per-node=2 --wait -o "$TB_TMP/slurm.out" -J tb_smoke "$TB_TMP/job.sh" \
  >/dev/null || rc=$?
check_run slurm $rc "$TB_FS/slurm" "$TB_TMP/slurm.h5"
rmdir "$TB_FS/slurm"

strays=$(tb_strays)
if [ -z "$strays" ]; then tb_ok "no process left in the nodes"; else tb_fail "processes left: $strays"; fi
[ "$TB_FAILED" = 0 ] || { echo "tb_smoke: $TB_FAILED failure(s)" >&2; exit 1; }
echo "tb_smoke: passed"
