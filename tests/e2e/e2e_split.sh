#!/usr/bin/env bash
# One workload split across jobs: create in one, stat and read in the next, remove in a third.
source "$(dirname "$0")/lib.sh" "$@"

for np in 1 2 4; do
  for sharing in unique shared; do
    t=$BASE/split.$np.$sharing
    if [ "$sharing" = unique ]; then
      flags=(-u -z 1 -b 2)
      tree_dirs=$((3 * np))
    else
      flags=(-z 2 -b 2 -L)
      tree_dirs=7
    fi
    what="split np=$np $sharing"

    run "$np" -d "$t" -n 50 -w 100 "${flags[@]}" -C
    expect_rc 0 "$what: create"
    expect_not_in "$OUT" "file-stat" "$what: create-only runs no stat"
    # The iteration directory, the tree(s), and 50 files and 50 directories per rank.
    expect_eq "$(entries "$t")" $((1 + tree_dirs + 100 * np)) "$what: entries on disk"
    expect_eq "$(find "$t" -type f -size 100c | wc -l)" $((50 * np)) "$what: files of 100 bytes"

    run "$np" -d "$t" -n 50 -e 100 "${flags[@]}" -T -E
    expect_rc 0 "$what: stat and read"
    expect_eq "$(column dir-stat last)" 0 "$what: dir-stat failures"
    expect_eq "$(column file-stat last)" 0 "$what: file-stat failures"
    expect_eq "$(column file-read 2)" $((50 * np)) "$what: file reads"
    expect_eq "$(column file-read last)" 0 "$what: file-read failures"
    expect_not_in "$OUT" "tree-create" "$what: stat-only builds no tree"

    run "$np" -d "$t" -n 50 "${flags[@]}" -r
    expect_rc 0 "$what: remove"
    expect_eq "$(column tree-remove 2)" "$tree_dirs" "$what: tree directories removed"
    expect_empty_dir "$t" "$what: remove-only leaves the target empty"
  done
done

finish
