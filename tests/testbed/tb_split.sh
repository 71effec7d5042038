#!/usr/bin/env bash
# One workload split across jobs whose ranks sit differently (2 nodes x 2 ranks in blocks), so that every
# stat, read and remove goes through another node's ceph-fuse client than the create did:
#   1. hosts in the other order: create with ranks 0,1 on node1 and 2,3 on node2, then stat, read and remove
#      with ranks 0,1 on node2 and 2,3 on node1 (a tree per rank: each rank works on the tree it "made");
#   2. -N 1 in the same placement (a shared tree): node-aware, the shift becomes 2, the next node's ranks.
# Exact counts in each job's results file and on disk through the head's client; nothing left.
source "$(dirname "$0")/lib_tw.sh"

there=(-n 4 -ppn 2 -hosts "$TW_NODE1,$TW_NODE2")
back=(-n 4 -ppn 2 -hosts "$TW_NODE2,$TW_NODE1")
hosts_there=$TW_NODE1,$TW_NODE1,$TW_NODE2,$TW_NODE2
hosts_back=$TW_NODE2,$TW_NODE2,$TW_NODE1,$TW_NODE1

# 1. A tree per rank, 3 directories, 30 files and 30 directories per rank; files of 64 bytes.
t=$TW_FS/order
wl=(-u -z 1 -b 2 -n 30 -d "$t")
tw_run create.order "${there[@]}" -- "${wl[@]}" -C -w 64
tw_expect_rc 0 "create on $hosts_there"
tw_results create.order hosts="$hosts_there" node_of_rank=0,0,1,1 tree-create=12 dir-create=120 file-create=120
tw_expect_tree "$t" 12 120 120 "create on $hosts_there"
tw_expect_eq "$(find "$t" -type f -name 'file.mdbench.*' -size 64c | wc -l)" 120 "files of 64 bytes"
# The same ranks' stats first (their own clients made the items), for the figures, then the other order's.
# Each stat through a client that never saw the item is at least one request to an MDS (its lookup); the
# creating clients answer from their caches. Counted over both MDS, a lower bound (other clients add).
mds0=$(tw_mds_requests)
tw_run stat-same.order "${there[@]}" -- "${wl[@]}" -T
mds1=$(tw_mds_requests)
tw_expect_rc 0 "stat on $hosts_there (the creating clients)"
tw_results stat-same.order hosts="$hosts_there" dir-stat=120 file-stat=120 config.shift_used=0
tw_run stat.order "${back[@]}" -- "${wl[@]}" -T
mds2=$(tw_mds_requests)
echo "MDS client requests: $((mds1 - mds0)) for 240 stats by the creating clients, $((mds2 - mds1)) by the others"
if [ $((mds2 - mds1)) -ge 240 ]; then tw_ok; else
  tw_fail "stats through the other nodes' clients: $((mds2 - mds1)) MDS requests, fewer than the 240 stats"; fi
tw_expect_rc 0 "stat on $hosts_back"
tw_results stat.order hosts="$hosts_back" node_of_rank=0,0,1,1 phases=dir-stat,file-stat dir-stat=120 \
  file-stat=120 config.shift_used=0
tw_run read.order "${back[@]}" -- "${wl[@]}" -E -e 64
tw_expect_rc 0 "read on $hosts_back"
tw_results read.order hosts="$hosts_back" phases=file-read file-read=120 file-read.rank=30,30,30,30
tw_run remove.order "${back[@]}" -- "${wl[@]}" -r
tw_expect_rc 0 "remove on $hosts_back"
tw_results remove.order hosts="$hosts_back" dir-remove=120 file-remove=120 tree-remove=12
tw_expect_absent "$t" "hosts in the other order: the remove job removes what the create job made"

# 2. A shared tree, 7 directories; -N 1 with ranks in blocks of 2 per node is moved to 2 (the next node).
t=$TW_FS/shift
wl=(-z 2 -b 2 -n 28 -d "$t")
tw_run create.shift "${there[@]}" -- "${wl[@]}" -C
tw_expect_rc 0 "create for -N"
tw_results create.shift hosts="$hosts_there" tree-create=7 dir-create=112 file-create=112
tw_expect_tree "$t" 7 112 112 "create for -N"
tw_run stat.shift "${there[@]}" -- "${wl[@]}" -T -E -N 1
tw_expect_rc 0 "stat and read with -N 1"
tw_results stat.shift hosts="$hosts_there" config.shift=1 config.shift_used=2 dir-stat=112 file-stat=112 \
  file-read=112
tw_expect_in "$TW_TMP/stat.shift.out" "-N 1 would leave ranks on their own node's items (ranks placed in blocks of 2 per node); using shift 2" \
  "the console says the shift moved to the next node"
tw_run remove.shift "${there[@]}" -- "${wl[@]}" -r -N 1
tw_expect_rc 0 "remove with -N 1"
tw_results remove.shift hosts="$hosts_there" config.shift_used=2 dir-remove=112 file-remove=112 tree-remove=7
tw_expect_absent "$t" "-N 1: the remove job removes what the create job made"

tw_finish
