#!/usr/bin/env bash
# Node-aware -N and --sweep-placement with the test bed's real host names (MPI_Get_processor_name in each
# node's UTS namespace; no MDBENCH_FAKE_HOSTS): the results file's hosts, node_of_rank, nodes, ranks per node
# and shift_used say where the ranks sat and what the plan made of it.
source "$(dirname "$0")/lib_tw.sh"
[ -z "${MDBENCH_FAKE_HOSTS:-}" ] || tw_die "MDBENCH_FAKE_HOSTS is set: this test needs the real host names"

n1=$TW_NODE1 n2=$TW_NODE2
block=(-n 4 -ppn 2 -hosts "$n1,$n2")

# -N 1 with ranks in blocks of 2 per node: rank r + 1 is on the same node for ranks 0 and 2, so the plan
# takes shift 2 (the next node) and says so.
t=$TW_FS/block
tw_run shift.block "${block[@]}" -- -F -u -n 20 -N 1 --file-rename -d "$t"
tw_expect_rc 0 "-N 1, ranks in blocks"
tw_results shift.block ranks=4 nodes=2 ranks_per_node_min=2 ranks_per_node_max=2 hosts="$n1,$n1,$n2,$n2" \
  node_of_rank=0,0,1,1 config.shift=1 config.shift_used=2 file-create=80 file-stat=80 file-read=80 \
  file-rename=80 file-remove=80
tw_expect_in "$TW_TMP/shift.block.out" "using shift 2" "the console says -N 1 became shift 2"
tw_expect_in "$TW_TMP/shift.block.out" "rank shift 2 (-N)" "the console header names the shift used"
tw_expect_absent "$t" "-N 1, ranks in blocks: nothing left"

# -N 1 with ranks round-robin (node1, node2, node1, node2): rank r + 1 is already on the other node.
t=$TW_FS/rr
tw_run shift.rr -n 4 -- -F -u -n 20 -N 1 -d "$t"
tw_expect_rc 0 "-N 1, ranks round-robin"
tw_results shift.rr nodes=2 hosts="$n1,$n2,$n1,$n2" node_of_rank=0,1,0,1 config.shift=1 config.shift_used=1 \
  file-stat=80
if grep -q "would leave ranks" "$TW_TMP/shift.rr.out"; then tw_fail "-N 1 round-robin: a shift note"; else tw_ok; fi
tw_expect_absent "$t" "-N 1, ranks round-robin: nothing left"

# A sweep of 1, 2 and 4 ranks over ranks in blocks: spread takes the step of 2 from both nodes (ranks 0
# and 2), block from the first node (ranks 0 and 1). One run group per step.
for placement in spread block; do
  t=$TW_FS/sweep.$placement
  tw_run sweep.$placement "${block[@]}" -- -F -u -n 10 --sweep 1,2,4 --sweep-placement $placement -d "$t"
  tw_expect_rc 0 "--sweep 1,2,4 --sweep-placement $placement"
  if [ $placement = spread ]; then two="nodes=2 hosts=$n1,$n2"; else two="nodes=1 hosts=$n1,$n1"; fi
  tw_results sweep.$placement run=0 ranks=1 nodes=1 hosts="$n1" sweep_step=1 sweep_placement=$placement \
    job_ranks=4 file-create=10
  # shellcheck disable=SC2086 # two holds two KEY=VALUE words
  tw_results sweep.$placement run=1 ranks=2 $two sweep_step=2 sweep_placement=$placement job_ranks=4 \
    file-create=20 file-remove=20
  tw_results sweep.$placement run=2 ranks=4 nodes=2 hosts="$n1,$n1,$n2,$n2" sweep_step=3 \
    sweep_placement=$placement file-create=40 file-remove=40
  tw_expect_eq "$(/usr/bin/python3 -c 'import h5py, sys; print(len(h5py.File(sys.argv[1])["runs"]))' \
    "$TW_TMP/sweep.$placement.h5")" 3 "--sweep-placement $placement: one run group per step"
  tw_expect_absent "$t" "--sweep-placement $placement: nothing left"
done

tw_finish
