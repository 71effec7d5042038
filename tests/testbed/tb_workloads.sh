#!/usr/bin/env bash
# The workloads on CephFS across the test bed's nodes (2 nodes x 2 ranks, round-robin): the full default
# workload, and the tree workloads (-z 2 -b 3; -L with -I) made with --keep, then removed by a remove-only
# job; unique (-u) and shared trees. Exact counts in the results file and on disk,
# through the head's client (a third client, which ran no rank); nothing left after the remove.
source "$(dirname "$0")/lib_tw.sh"

hosts=$TW_NODE1,$TW_NODE2,$TW_NODE1,$TW_NODE2
all_phases="tree-create,dir-create,dir-stat,dir-rename,dir-remove,file-create,file-stat,file-read,file-rename"
all_phases+=",file-remove,tree-remove"
create_phases="tree-create,dir-create,file-create"
for sharing in unique shared; do
  if [ $sharing = unique ]; then u=(-u) trees=4 n=20; else u=() trees=1 n=10; fi

  # The full default workload and mdbench's file rename: every phase, 20 files and 20 directories per rank
  # (10 in the shared tree, where renames by two clients in one directory crawl: 3 to 11 per second here,
  # against 170 with -u).
  t=$TW_FS/full.$sharing
  tw_run full.$sharing -- -n $n "${u[@]}" --file-rename -d "$t"
  tw_expect_rc 0 "full workload, $sharing"
  tw_results full.$sharing ranks=4 nodes=2 hosts="$hosts" phases=$all_phases tree-create=$trees \
    tree-remove=$trees dir-create=$((4 * n)) dir-stat=$((4 * n)) dir-rename=$((4 * n)) dir-remove=$((4 * n)) \
    file-create=$((4 * n)) file-stat=$((4 * n)) file-read=$((4 * n)) file-rename=$((4 * n)) file-remove=$((4 * n))
  tw_expect_absent "$t" "full workload, $sharing: the target the run made"

  # The tree workloads, kept, counted on disk, then removed by a remove-only job. -z 2 -b 3 is 13 directories
  # per tree. Unique: -n 30 spread over them (the first 4 get 3 of each kind, the other 9 get 2). Shared: -L
  # and mdtest's -n/-I loops: -n 4 -I 2 is 2 whole trees with 2 items of each kind in each of their 9 leaves.
  # Files per depth below the target: mdbench.iter.0/mdbench_tree.0/file is 3 deep, a leaf's 5.
  t=$TW_FS/tree.$sharing
  if [ $sharing = unique ]; then
    tree=(-z 2 -b 3 -n 30) tdirs=52 items=120 depths="12 36 72"
  else
    tree=(-z 2 -b 3 -L -I 2 -n 4) tdirs=26 items=144 depths="0 0 144"
  fi
  tw_run tree.$sharing -- "${tree[@]}" "${u[@]}" --keep -d "$t"
  tw_expect_rc 0 "${tree[*]} --keep, $sharing"
  # --keep keeps mdtest's directory rename: it rotates the names, so every directory is still there after it.
  tw_results tree.$sharing hosts="$hosts" phases=$create_phases,dir-stat,dir-rename,file-stat,file-read \
    tree-create=$tdirs dir-create=$items file-create=$items dir-stat=$items dir-rename=$items file-stat=$items \
    file-read=$items
  tw_expect_tree "$t" $tdirs $items $items "${tree[*]} $sharing"
  got=$(for d in 3 4 5; do find "$t" -mindepth $d -maxdepth $d -name 'file.mdbench.*' | wc -l; done | xargs)
  tw_expect_eq "$got" "$depths" "${tree[*]} $sharing: files 3, 4 and 5 deep (the levels of the tree)"
  tw_run tree-r.$sharing -- "${tree[@]}" "${u[@]}" -r -d "$t"
  tw_expect_rc 0 "${tree[*]} -r, $sharing"
  tw_results tree-r.$sharing hosts="$hosts" phases=dir-remove,file-remove,tree-remove dir-remove=$items \
    file-remove=$items tree-remove=$tdirs
  tw_expect_absent "$t" "${tree[*]} $sharing: the remove job removes the target the create job made"
done

tw_finish
