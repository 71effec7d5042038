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
    # The marks of the target (made by this job) and of the iteration directory, its ownership record, the iteration directory,
    # the tree(s), and 50 files and 50 directories per rank.
    expect_eq "$(entries "$t")" $((4 + tree_dirs + 100 * np)) "$what: entries on disk"
    expect_eq "$(find "$t" -name .mdbench-run | sort | tr '\n' ' ')" "$t/.mdbench-run $t/mdbench.iter.0/.mdbench-run " \
      "$what: the marks"
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
    expect_absent "$t" "$what: the remove-only job removes the target the create job made"
  done
done

# A later job works only in a directory that carries the create job's mark: a look-alike that mdbench did
# not make (a user's directory, or one whose mark was removed) is refused, and nothing in it is touched.
t=$BASE/lookalike
mkdir -p "$t/mdbench.iter.0/mdbench_tree.0.0"
echo "user data" >"$t/mdbench.iter.0/mdbench_tree.0.0/file.mdbench.0.0"
before=$(fingerprint "$t")
for phases in "-T" "-r"; do
  run 2 -d "$t" -n 1 -u -z 0 -F "$phases"
  expect_rc 1 "look-alike iteration directory ($phases)"
  expect_in "$ERR" "$t/mdbench.iter.0 has no .mdbench-run mark: mdbench did not make it" "look-alike refused ($phases)"
  expect_eq "$(fingerprint "$t")" "$before" "look-alike untouched ($phases)"
done

finish
