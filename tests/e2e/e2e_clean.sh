#!/usr/bin/env bash
# mdbench clean on what real runs left: every marked run directory is emptied of what mdbench generated and
# removed; user files beside and inside, look-alike names of the wrong type, symbolic links (and what they
# point to) and unmarked directories named like mdbench's stay byte for byte; a dry run changes nothing.
source "$(dirname "$0")/lib.sh" "$@"

user=$BASE/user
mkdir -p "$user"
echo "user data" >"$user/precious.txt"
user_before=$(fingerprint "$user")

# ---- A kept run (unique trees, 2 ranks, 2 iterations): clean removes all of it ----
t=$BASE/t1
mkdir -p "$t"  # the user's target: not made by mdbench, so never removed by clean
run 2 -d "$t" -n 20 -u -z 1 -b 2 -i 2 --keep
expect_rc 0 "kept run"
echo "notes" >"$t/notes.txt"
run 0 clean --dry-run "$t"
expect_rc 0 "dry run"
expect_in "$OUT" "would remove $t/mdbench.iter.0 (" "dry run names the run directory"
expect_eq "$(find "$t" -name 'file.mdbench.*' | wc -l)" 80 "dry run removes nothing"
run 0 clean "$t"
expect_rc 0 "clean a kept run"
expect_in "$OUT" "removed $t/mdbench.iter.0 (40 files, 46 directories)" "counts of iteration 0"
expect_in "$OUT" "removed $t/mdbench.iter.1 (40 files, 46 directories)" "counts of iteration 1"
expect_eq "$(find "$t" -mindepth 1)" "$t/notes.txt" "only the user's file is left"
run 0 clean "$t"
expect_rc 0 "clean again: nothing to do"
expect_in "$OUT" "$t: no mdbench run directories" "says there was nothing"

# ---- Foreign things inside a run directory stay, with their directories and the mark ----
t=$BASE/t2
mkdir -p "$t"
run 2 -d "$t" -n 10 -F --keep
expect_rc 0 "kept run 2"
tree=$t/mdbench.iter.0/mdbench_tree.0
echo "mine" >"$tree/my-results.csv"
mkdir "$tree/file.mdbench.0.999"                  # a file's name on a directory
ln -s "$user/precious.txt" "$tree/file.mdbench.1.999"  # a generated name on a link
ln -s "$user" "$tree/mdbench_tree.77"
run 0 clean "$t"
expect_rc 1 "clean with foreign entries"
expect_in "$OUT" "kept $t/mdbench.iter.0: removed 20 files" "says what it removed and kept"
expect_in "$OUT" "left: $tree/my-results.csv: a file mdbench did not make; left alone" "names the foreign file"
expect_in "$OUT" "left: $tree/file.mdbench.1.999: a symbolic link with a name mdbench gives to files" "names the link"
expect_eq "$(cat "$tree/my-results.csv")" "mine" "foreign file untouched"
expect_eq "$(find "$tree" -mindepth 1 -maxdepth 1 | sort | tr '\n' ' ')" \
  "$tree/file.mdbench.0.999 $tree/file.mdbench.1.999 $tree/mdbench_tree.77 $tree/my-results.csv " \
  "exactly the foreign entries are left"
expect_eq "$(head -c 8 "$t/mdbench.iter.0/.mdbench-run")" "mdbench " "the mark stays with what is left"
expect_eq "$(fingerprint "$user")" "$user_before" "link targets untouched"

# ---- Unmarked look-alikes are never entered ----
t=$BASE/t3
mkdir -p "$t/mdbench.iter.0/mdbench_tree.0" "$t/mdbench.20261130-120000.1/mdbench.iter.0"
echo "x" >"$t/mdbench.iter.0/mdbench_tree.0/file.mdbench.0.0"
before=$(fingerprint "$t")
run 0 clean "$t" "$t/mdbench.iter.0"
expect_rc 0 "unmarked look-alikes"
expect_in "$OUT" "left $t/mdbench.iter.0: it has no mark, so mdbench did not make it" "says why it left it"
expect_eq "$(fingerprint "$t")" "$before" "look-alikes untouched"

# ---- A default target in the working directory, given as the run directory itself ----
mkdir -p "$BASE/cwd"
(cd "$BASE/cwd" && timeout 60 "$MPIEXEC" -n 2 "$MDBENCH" -n 5 -F --keep -o "$BASE/r.h5" >"$OUT" 2>"$ERR")
made=$(find "$BASE/cwd" -mindepth 1 -maxdepth 1 -name 'mdbench.*')
expect_eq "$(head -n 1 "$made/.mdbench-run")" "mdbench run mark 1" "a made target is marked"
run 0 clean "$made/"
expect_rc 0 "clean a made target given directly"
expect_empty_dir "$BASE/cwd" "the made target is gone"

# ---- Usage ----
run 0 clean
expect_rc 2 "no directory"
run 0 clean "$BASE/missing"
expect_rc 2 "missing directory"
expect_in "$ERR" "$BASE/missing: ENOENT" "names it"
ln -s "$user" "$BASE/link"
run 0 clean "$BASE/link"
expect_rc 2 "a symlink is refused"
expect_in "$ERR" "is a symbolic link" "says so"
run 2 clean "$BASE/t1"
expect_rc 0 "clean under mpiexec: rank 0 works, the others wait"
expect_eq "$(fingerprint "$user")" "$user_before" "user directory untouched throughout"

finish
