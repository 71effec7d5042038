#!/usr/bin/env bash
# A run only ever touches the items it created: names a user plants under generated names while a job runs
# (or between the jobs of a split workload) are never stat'ed as ours, written into, renamed or removed;
# the jobs that meet them exit 1 and count them failed.
source "$(dirname "$0")/lib.sh" "$@"

# The last item of -n N: the plant lands long before the create reaches it. Fewer on disk, where every
# removal can cost a discard.
if [ "$FS_KIND" = shm ]; then N=20000 NS=2000; else N=1000 NS=500; fi
K=$((N - 1))
TREE=mdbench.iter.0/mdbench_tree.0

# plant_during TARGET CMD...: runs CMD in the background as soon as TARGET's tree directory appears (as a
# user would, racing the create); its pid in PLANT_PID. plant_done stops it if it is still waiting.
plant_during() {
  local t=$1
  shift
  (
    local end=$((SECONDS + 30))
    while [ "$SECONDS" -lt "$end" ]; do
      if [ -d "$t/$TREE" ]; then
        "$@"
        exit 0
      fi
    done
    exit 1
  ) >/dev/null 2>&1 &
  PLANT_PID=$!
}
plant_done() {
  kill "$PLANT_PID" 2>/dev/null
  wait "$PLANT_PID" 2>/dev/null
}

# create_racing NP TARGET PHASE_WANTED ARGS... -- PLANT...: runs the job until the plant beat the create
# (the create phase PHASE_WANTED counts failures), at most 10 times.
create_racing() {
  local np=$1 t=$2 wanted=$3
  shift 3
  local args=()
  while [ "$1" != -- ]; do args+=("$1"); shift; done
  shift
  for _ in $(seq 1 10); do
    rm -rf "$t"
    plant_during "$t" "$@"
    run "$np" -d "$t" "${args[@]}"
    plant_done
    [ "$(column "$wanted" last)" != 0 ] && [ -n "$(column "$wanted" last)" ] && return 0
  done
  return 1
}

plant_file_and_dir() {
  local t=$1
  echo "the user's file" >"$t/$TREE/file.mdbench.1.$K"
  mkdir "$t/$TREE/dir.mdbench.0.$K"
  echo "kept" >"$t/$TREE/dir.mdbench.0.$K/inside"
}

for np in 2 4; do
  # (2) A split workload: the create job finds names taken; the later jobs never touch them.
  t=$BASE/split.$np
  what="split np=$np"
  if create_racing "$np" "$t" file-create -n "$N" -C -- plant_file_and_dir "$t"; then pass; else
    fail "$what: the plant never beat the create"
  fi
  expect_rc 1 "$what: the create job meets the taken names"
  expect_eq "$(column dir-create last)" 1 "$what: dir-create failures"
  expect_eq "$(column file-create last)" 1 "$what: file-create failures"
  expect_in "$t/mdbench.iter.0/.mdbench-taken" "f 1 $K x" "$what: the record names the taken file"
  expect_in "$t/mdbench.iter.0/.mdbench-taken" "d 0 $K x" "$what: the record names the taken directory"
  user_before=$(fingerprint "$t/$TREE/dir.mdbench.0.$K"; md5sum <"$t/$TREE/file.mdbench.1.$K")

  run "$np" -d "$t" -n "$N" -T -E
  expect_rc 1 "$what: stat and read"
  expect_eq "$(column dir-stat last)" 1 "$what: dir-stat counts the taken directory failed"
  expect_eq "$(column file-stat last)" 1 "$what: file-stat counts the taken file failed"
  expect_eq "$(column file-read last)" 1 "$what: file-read counts the taken file failed"

  run "$np" -d "$t" -n "$N" -r
  expect_rc 1 "$what: remove"
  expect_eq "$(column dir-remove last)" 1 "$what: dir-remove leaves the taken directory"
  expect_eq "$(column file-remove last)" 1 "$what: file-remove leaves the taken file"
  expect_eq "$(fingerprint "$t/$TREE/dir.mdbench.0.$K"; md5sum <"$t/$TREE/file.mdbench.1.$K")" "$user_before" \
    "$what: the user's file and directory intact after -r"
  expect_eq "$(find "$t/$TREE" -mindepth 1 -maxdepth 1 | wc -l)" 2 "$what: only the user's names are left"

  # mdbench clean reads the record too: it removes the rest and leaves the user's names.
  run 0 clean "$t"
  expect_eq "$(fingerprint "$t/$TREE/dir.mdbench.0.$K"; md5sum <"$t/$TREE/file.mdbench.1.$K")" "$user_before" \
    "$what: the user's names survive mdbench clean"
done

# A damaged record is refused: the later job touches nothing.
t=$BASE/damaged
run 2 -d "$t" -n 10 -C
expect_rc 0 "damaged: create"
printf 'garbage\n' >"$t/mdbench.iter.0/.mdbench-taken"
before=$(fingerprint "$t")
run 2 -d "$t" -n 10 -r
expect_rc 1 "damaged: the remove job refuses"
expect_in "$ERR" ".mdbench-taken" "damaged: the message names the record"
expect_eq "$(fingerprint "$t")" "$before" "damaged: nothing touched"
rm -f "$t/mdbench.iter.0/.mdbench-taken"
before=$(fingerprint "$t")
run 2 -d "$t" -n 10 -r
expect_rc 1 "missing record: the remove job refuses"
expect_eq "$(fingerprint "$t")" "$before" "missing record: nothing touched"

# (3) -S: a hard link to a precious file planted under a shared name is never written into.
plant_link() { ln "$BASE/precious" "$1/$TREE/file.mdbench.shared.$((NS - 1))"; }
for np in 2 4; do
  t=$BASE/shared.$np
  what="-S np=$np"
  head -c 300 /dev/urandom >"$BASE/precious"
  precious_before=$(md5sum <"$BASE/precious")
  if create_racing "$np" "$t" file-create -n "$NS" -S -w 100 -e 100 -- plant_link "$t"; then pass; else
    fail "$what: the plant never beat the create"
  fi
  expect_rc 1 "$what: the run meets the planted link"
  expect_eq "$(md5sum <"$BASE/precious")" "$precious_before" "$what: the precious file is unchanged"
  if [ "$t/$TREE/file.mdbench.shared.$((NS - 1))" -ef "$BASE/precious" ]; then pass; else
    fail "$what: the planted link is gone"
  fi
  expect_eq "$(column file-create last)" "$np" "$what: file-create fails on every rank for it"
  expect_eq "$(column file-read last)" "$np" "$what: file-read fails on every rank for it"
  expect_eq "$(column file-remove last)" 1 "$what: file-remove (rank 0) leaves it"
  expect_eq "$(find "$t/$TREE" -mindepth 1 | wc -l)" 1 "$what: only the planted link is left"
  rm -f "$BASE/precious"
done

# (4) The renames: the user's *.renamed names survive, mdbench's originals are removed. The file rename
# (--file-rename) renames file i to file.mdbench.<rank>.<i>.renamed; the directory rename (mdtest's, in the
# default selection) rotates the names and parks rank r's first directory under dir.mdbench.<r>.0.renamed
# meanwhile: a user's entry there makes that rename fail, and the rotation goes on from the next item.
plant_renamed() {  # plant_renamed TARGET ITEM
  echo "the user's renamed" >"$1/$TREE/file.mdbench.1.$2.renamed"
  mkdir "$1/$TREE/dir.mdbench.0.0.renamed"
}
t=$BASE/rename
what="-U --file-rename"
for _ in $(seq 1 10); do
  rm -rf "$t"
  plant_during "$t" plant_renamed "$t" "$K"
  run 2 -d "$t" -n "$N" --file-rename
  plant_done
  [ "$(column file-rename last)" = 1 ] && [ "$(column dir-rename last)" = 1 ] && break
done
expect_rc 1 "$what: the rename meets the user's names"
expect_eq "$(column file-rename last)" 1 "$what: file-rename failures"
expect_eq "$(column dir-rename last)" 1 "$what: dir-rename failures"
expect_eq "$(column file-remove last)" 0 "$what: file-remove removes mdbench's original"
expect_eq "$(column dir-remove last)" 0 "$what: dir-remove removes mdbench's original"
expect_eq "$(cat "$t/$TREE/file.mdbench.1.$K.renamed" 2>&1)" "the user's renamed" "$what: the user's file survives"
if [ -d "$t/$TREE/dir.mdbench.0.0.renamed" ]; then pass; else fail "$what: the user's directory is gone"; fi
expect_absent "$t/$TREE/file.mdbench.1.$K" "$what: mdbench's original file removed"
expect_absent "$t/$TREE/dir.mdbench.0.0" "$what: mdbench's original directory removed"
expect_eq "$(find "$t/$TREE" -mindepth 1 | wc -l)" 2 "$what: only the user's names are left"

# The same across jobs: -C, then -T -U --file-rename, then --renamed -T -r; the names planted between the jobs.
t=$BASE/rename-split
run 2 -d "$t" -n 20 -C
expect_rc 0 "split -U: create"
plant_renamed "$t" 7
run 2 -d "$t" -n 20 -T -U --file-rename
expect_rc 1 "split -U: the rename job meets the user's names"
expect_eq "$(column file-rename last)" 1 "split -U: file-rename failures"
expect_eq "$(column dir-rename last)" 1 "split -U: dir-rename failures"
expect_in "$t/mdbench.iter.0/.mdbench-taken" "f 1 7 o" "split -U: the record keeps the original file name"
expect_not_in "$t/mdbench.iter.0/.mdbench-taken" "d 0 0 " "split -U: the directory kept its name: no exception recorded"
run 2 -d "$t" -n 20 --renamed -T -r
expect_rc 1 "split -U: the remove job"
expect_eq "$(column file-stat last)" 0 "split -U: file-stat finds every item (one under its original name)"
expect_eq "$(column dir-stat last)" 0 "split -U: dir-stat finds every item (one under its original name)"
expect_eq "$(column file-remove last)" 0 "split -U: file-remove removes mdbench's names"
expect_eq "$(column dir-remove last)" 0 "split -U: dir-remove removes mdbench's names"
expect_eq "$(cat "$t/$TREE/file.mdbench.1.7.renamed" 2>&1)" "the user's renamed" "split -U: the user's file survives"
if [ -d "$t/$TREE/dir.mdbench.0.0.renamed" ]; then pass; else fail "split -U: the user's directory is gone"; fi
expect_eq "$(find "$t/$TREE" -mindepth 1 | wc -l)" 2 "split -U: only the user's names are left"

# (-r symlink) A symlink planted under a generated file name between the jobs stays, and so does its target.
t=$BASE/symlink
run 2 -d "$t" -n 10 -C
expect_rc 0 "symlink: create"
echo "target data" >"$BASE/link-target"
rm "$t/$TREE/file.mdbench.0.3"
ln -s "$BASE/link-target" "$t/$TREE/file.mdbench.0.3"
run 2 -d "$t" -n 10 -r
expect_rc 1 "symlink: the remove job"
expect_eq "$(column file-remove last)" 1 "symlink: file-remove counts the link failed"
if [ -L "$t/$TREE/file.mdbench.0.3" ]; then pass; else fail "symlink: the link was removed"; fi
expect_eq "$(cat "$BASE/link-target")" "target data" "symlink: its target is intact"
# --file-rename over a symlink under a generated name: not renamed.
t=$BASE/symlink-rename
run 2 -d "$t" -n 10 -C
rm "$t/$TREE/file.mdbench.1.2"
ln -s "$BASE/link-target" "$t/$TREE/file.mdbench.1.2"
run 2 -d "$t" -n 10 --file-rename -r
expect_rc 1 "symlink --file-rename: the run"
expect_eq "$(column file-rename last)" 1 "symlink --file-rename: file-rename refuses the link"
if [ -L "$t/$TREE/file.mdbench.1.2" ]; then pass; else fail "symlink --file-rename: the link was renamed or removed"; fi
expect_absent "$t/$TREE/file.mdbench.1.2.renamed" "symlink --file-rename: no renamed link"
# -U over a symlink (to a directory) under a generated directory name: the rotation skips it, the link stays
# where it is, and every other directory keeps a name of the run's and is removed.
t=$BASE/symlink-dir-rename
mkdir -p "$BASE/link-dir"
run 2 -d "$t" -n 10 -C -D
rmdir "$t/$TREE/dir.mdbench.1.2"
ln -s "$BASE/link-dir" "$t/$TREE/dir.mdbench.1.2"
run 2 -d "$t" -n 10 -D -U -r
expect_rc 1 "symlink -U: the run"
expect_eq "$(column dir-rename last)" 1 "symlink -U: dir-rename refuses the link"
expect_eq "$(column dir-remove last)" 1 "symlink -U: dir-remove leaves the link"
if [ -L "$t/$TREE/dir.mdbench.1.2" ]; then pass; else fail "symlink -U: the link was renamed or removed"; fi
if [ -d "$BASE/link-dir" ]; then pass; else fail "symlink -U: the link's directory is gone"; fi
expect_eq "$(find "$t/$TREE" -mindepth 1 | wc -l)" 1 "symlink -U: only the link is left"

finish
