#!/usr/bin/env bash
# The stonewall and the steady state across the test bed's nodes: -W with its wear-out when a rank on each
# node works through its own client (every rank ends with the agreed count, carried by -x to a remove job on
# the other nodes), and --steady, whose mix crosses clients, with and without -W. Exit 0, valid results with
# exact counts, nothing left on CephFS (through the head's client).
source "$(dirname "$0")/lib_tw.sh"

n1=$TW_NODE1 n2=$TW_NODE2
one_each=(-n 2 -hosts "$n1,$n2")

# 1. -W 1 over creates and stats, one rank on each node; then the remove job with the ranks swapped.
t=$TW_FS/stonewall
sw=$TW_TMP/sw.count
tw_run stonewall "${one_each[@]}" -- -F -u -n 1000000 -W 1 -C -T -x "$sw" -d "$t"
tw_expect_rc 0 "-W 1 -C -T across two nodes"
tw_expect_in "$TW_TMP/stonewall.out" "stonewall:" "the stonewall reported on the console"
count=$(sed -n 's/^files //p' "$sw")
if [[ $count =~ ^[0-9]+$ ]] && [ "$count" -gt 0 ] && [ "$count" -lt 1000000 ]; then tw_ok; else
  tw_fail "stonewall file $sw: files '$count'"; fi
echo "stonewall: $count files per rank in 1 s (ranks on $n1 and $n2)"
tw_results stonewall hosts="$n1,$n2" config.stonewall_s=1.0 wearout=file-create same=file-create,file-stat \
  file-create=$((2 * count)) file-create.rank="$count,$count"
for r in 0 1; do
  tw_expect_eq "$(tw_count "$t" f "file.mdbench.$r.*")" "$count" "rank $r's files on disk: the agreed count"
done
tw_run stonewall-r -n 2 -hosts "$n2,$n1" -- -F -u -n 1000000 -r -x "$sw" -d "$t"
tw_expect_rc 0 "the remove job reads the count (ranks on $n2 and $n1)"
tw_results stonewall-r hosts="$n2,$n1" file-remove=$((2 * count)) tree-remove=2
tw_expect_absent "$t" "-W: the remove job removes what the stonewalled create made"

# 2. --steady: 10 rounds over 2 datasets of 10 objects per rank, 2 ranks per node round-robin (the ring offset
# -N 1 puts dataset 0's partner on the other node).
t=$TW_FS/steady
tw_run steady -n 4 -- --steady 10 --datasets 2 -n 20 -w 100 -d "$t"
tw_expect_rc 0 "--steady 10 across two nodes"
tw_results steady hosts="$n1,$n2,$n1,$n2" steady.mix.rounds=10 mix=2 steady.precreate.mkdir_ok=8 \
  steady.precreate.create_ok=80 steady.cleanup.delete_ok=80 steady.cleanup.rmdir_ok=8 steady.mix.bytes=16000
tw_expect_absent "$t" "--steady: nothing left"

# 3. --steady with -W 1: the mix stops after 1 s on the round count every rank agrees on; 100 objects per
# dataset keep the ranks' drift from reaching an object not made yet.
t=$TW_FS/steady-w
tw_run steady-w "${one_each[@]}" -- --steady 1000000 --datasets 2 -n 200 -W 1 -d "$t"
tw_expect_rc 0 "--steady -W 1 across two nodes"
tw_results steady-w hosts="$n1,$n2" steady.mix.stonewalled=1 mix=2 steady.precreate.create_ok=400 \
  steady.cleanup.delete_ok=400 steady.cleanup.rmdir_ok=4
tw_expect_absent "$t" "--steady -W 1: nothing left"

tw_finish
