#!/usr/bin/env bash
# The default run, exact counts at 1, 2 and 4 ranks, user files surviving, --keep.
source "$(dirname "$0")/lib.sh" "$@"

# The default workload, as a singleton and under mpiexec: runs, reports every phase (mdtest's, its directory
# rename included, and no file rename: mdtest has none), leaves nothing.
for np in 0 4; do
  cwd=$BASE/default.$np
  mkdir "$cwd"
  (cd "$cwd" && run "$np"; echo "$RC" >"$BASE/.rc")
  RC=$(cat "$BASE/.rc")
  expect_rc 0 "default run np=$np"
  for phase in tree-create dir-create dir-stat dir-rename dir-remove file-create file-stat file-read \
    file-remove tree-remove; do
    expect_in "$OUT" "$phase " "default run np=$np reports $phase"
  done
  expect_not_in "$OUT" "file-rename" "default run np=$np has no file rename (mdtest's phases)"
  ranks=$([ "$np" = 0 ] && echo 1 || echo "$np")
  expect_eq "$(column file-create 2)" $((1000 * ranks)) "default run np=$np file creates"
  # Nothing but the results file, named by date: mdbench-YYYYmmdd-HHMMSS.h5.
  expect_eq "$(cd "$cwd" && find . -mindepth 1 | sed 's/[0-9]/N/g')" "./mdbench-NNNNNNNN-NNNNNN.hN" \
    "default run np=$np leaves only its results file"
done

# Exact counts where the tree does not divide -n: 4 directories, 1001 items (and mdbench's file rename).
for np in 1 2 4; do
  t=$BASE/exact.$np
  run "$np" -d "$t" -n 1001 -z 1 -b 3 -u -w 10 -e 10 --file-rename
  expect_rc 0 "exact np=$np"
  expect_eq "$(column tree-create 2)" $((4 * np)) "exact np=$np: every rank's tree counted"
  expect_eq "$(column dir-create 2)" $((1001 * np)) "exact np=$np dir creates"
  expect_eq "$(column file-read 2)" $((1001 * np)) "exact np=$np file reads"
  expect_eq "$(column dir-rename 2)" $((1001 * np)) "exact np=$np dir renames"
  expect_eq "$(column file-rename 2)" $((1001 * np)) "exact np=$np file renames"
  expect_eq "$(column file-remove last)" 0 "exact np=$np no failures"
  expect_absent "$t" "exact np=$np: the target it made is gone again"
done

# A target holding the user's own files: they stay, byte for byte, and nothing else is left.
t=$BASE/userfiles
mkdir -p "$t/data/sub"
echo "precious" >"$t/notes.txt"
head -c 4096 /dev/urandom >"$t/data/sub/blob"
ln -s notes.txt "$t/link"
before=$(fingerprint "$t")
run 2 -d "$t" -n 200 -z 2 -b 2
expect_rc 0 "user files run"
expect_eq "$(fingerprint "$t")" "$before" "user files untouched and nothing left"

# A name of ours already taken by a user file: refused, the file untouched.
t=$BASE/taken
mkdir "$t"
echo "mine" >"$t/mdbench.iter.0"
before=$(fingerprint "$t")
run 2 -d "$t" -n 10
expect_rc 1 "iteration directory name taken"
expect_in "$ERR" "cannot create $t/mdbench.iter.0" "taken name reported"
expect_in "$ERR" "EEXIST" "taken name errno"
expect_eq "$(fingerprint "$t")" "$before" "taken name: user file untouched"

# --keep leaves the tree; a later remove-only run takes it away.
t=$BASE/keep
run 2 -d "$t" -n 30 -F --keep
expect_rc 0 "keep run"
expect_not_in "$OUT" "file-remove" "keep runs no remove phase"
expect_not_in "$OUT" "file-rename" "keep runs no rename phase"
expect_in "$OUT" "kept:" "keep says what it kept"
expect_eq "$(find "$t" -type f -name 'file.mdbench.*' | wc -l)" 60 "keep leaves 2 x 30 files"
expect_eq "$(find "$t" -name "*.renamed" | wc -l)" 0 "keep renames nothing"
expect_eq "$(head -c 8 "$t/mdbench.iter.0/.mdbench-run")" "mdbench " "keep leaves the run's mark"
run 2 -d "$t" -n 30 -F -r
expect_rc 0 "remove after keep"
expect_absent "$t" "remove after keep: the target the keep run made is gone too"

finish
