#!/usr/bin/env bash
# Exit statuses: 2 for bad options (nothing touched), 1 for failed operations or an unusable target.
source "$(dirname "$0")/lib.sh" "$@"

# Bad options: every problem named, exit 2, nothing created, on every rank count.
for np in 0 2; do
  cwd=$BASE/usage.$np
  mkdir "$cwd"
  check_usage() {  # check_usage TEXT ARGS...
    local text=$1
    shift
    (cd "$cwd" && run "$np" "$@"; echo "$RC" >"$BASE/.rc")
    RC=$(cat "$BASE/.rc")
    expect_rc 2 "np=$np usage: $*"
    expect_in "$ERR" "$text" "np=$np usage message for: $*"
    expect_empty_dir "$cwd" "np=$np usage: nothing created for: $*"
  }
  check_usage "-n/--items" -n abc
  check_usage "-n/--items" -n 1e30
  check_usage "-n/--items" -n -5
  check_usage "--bogus" --bogus
  check_usage "-E/--read" -D -E
  check_usage "-z/--depth" -z 40 -b 10
  check_usage "-i/--iterations" -i 0
  # Several problems at once: all listed.
  check_usage "-b/--branching" -b 0 -z 1 -n x
  expect_in "$ERR" "-n/--items" "np=$np: both problems listed"
  # Messages come once, from rank 0.
  expect_eq "$(grep -c 'branching' "$ERR")" 1 "np=$np: one message per problem"
done

# A target that cannot be used (a file, a link): bad input, a clear message, exit 2, nothing touched.
echo "a file" >"$BASE/plainfile"
run 2 -d "$BASE/plainfile" -n 5
expect_rc 2 "target is a file"
expect_in "$ERR" "not a directory" "target is a file: message"
expect_eq "$(cat "$BASE/plainfile")" "a file" "target file untouched"

mkdir "$BASE/real"
ln -s real "$BASE/symlink"
run 2 -d "$BASE/symlink" -n 5
expect_rc 2 "target is a symlink"
expect_in "$ERR" "symbolic link" "symlink target: message"
expect_empty_dir "$BASE/real" "symlink target: the directory behind it untouched"

run 2 -d "$BASE/no/such/parent" -n 5
expect_rc 1 "target parent missing"
expect_in "$ERR" "cannot create target directory $BASE/no/such/parent: ENOENT" "missing parent: message"

# A stat-only run with nothing created before: every rank agrees and stops, no hang.
mkdir "$BASE/empty"
run 4 -d "$BASE/empty" -n 5 -T
expect_rc 1 "stat-only on an empty target"
expect_in "$ERR" "cannot open $BASE/empty/mdbench.iter.0" "stat-only on empty target: message"
expect_empty_dir "$BASE/empty" "stat-only on empty target: nothing made"

# Items removed behind the benchmark's back: counted as failed, named, exit 1, never in the rate.
t=$BASE/missing
run 2 -d "$t" -n 20 -F -C
expect_rc 0 "create for missing-items test"
rm "$t"/mdbench.iter.0/mdbench_tree.0/file.mdbench.1.3 "$t"/mdbench.iter.0/mdbench_tree.0/file.mdbench.1.7
run 2 -d "$t" -n 20 -F -T
expect_rc 1 "stat with two files missing"
expect_eq "$(column file-stat last)" 2 "two stat failures counted"
expect_in "$OUT" "rank 1: file-stat (iteration 0): stat $t/mdbench.iter.0/mdbench_tree.0/file.mdbench.1.3: ENOENT (No such file or directory)" "first error of rank 1 named with its path"
expect_not_in "$OUT" "rank 0: file-stat" "rank 0 had no error"
run 2 -d "$t" -n 20 -F -r
expect_rc 1 "remove with two files missing"
expect_eq "$(column file-remove last)" 2 "two unlink failures counted"
expect_eq "$(column tree-remove last)" 0 "the tree still removed"
expect_absent "$t" "the target the create job made is gone after the remove run"

# Exit 0 only when nothing failed.
run 1 -d "$BASE/ok" -n 10
expect_rc 0 "clean run"

finish
