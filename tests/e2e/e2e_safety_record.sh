#!/usr/bin/env bash
# A later job of a split workload acts only on what the create job made, by the record beside the mark
# (.mdbench-taken): more items than were made (-n, a stonewalled create, a create stopped by a signal, -c,
# several targets) leaves the user's files planted under the names beyond the record alone, counted failed
# as "not made by the create job"; another layout (-z, -b, -u, ranks) is refused before any phase with
# exit 2; a damaged or edited record, or one copied from another run's directory, makes the job refuse the
# directory and `clean` leave everything. A rerun of a --file-rename job keeps the record's renamed names
# (clean removes them and says nothing was taken), and items whose create failed for another reason than
# EEXIST are "not created (ENOSPC)" in later jobs, never EEXIST.
# After each case `mdbench clean` removes what the run made and leaves the user's files byte for byte (after
# a remove job, whose removals freed the names, it leaves the tree directory that holds them).
source "$(dirname "$0")/lib.sh" "$@"

RUNS=0
# job NP ARGS...: one job of the workload, with a results file of its own.
job() {
  local np=$1
  shift
  RUNS=$((RUNS + 1))
  run "$np" -o "$BASE/r$RUNS.h5" "$@"
}
ITER=mdbench.iter.0
# plant PATH: a user's file with a generated name, and its checksum (kept outside the tree) to compare after.
mkdir "$BASE/sums"
sum_of() { echo "$BASE/sums/${1//\//_}"; }
plant() {
  mkdir -p "$(dirname "$1")"
  echo "the user's data at $1" >"$1"
  md5sum "$1" >"$(sum_of "$1")"
}
kept() {  # kept PATH WHAT: the planted file is there, byte for byte
  if md5sum -c --quiet "$(sum_of "$1")" >/dev/null 2>&1; then pass; else fail "$2: $1 changed or gone"; fi
}
# clean_leaves TARGET PLANTED WHAT [LISTED]: clean removes the run's names, lists the planted one (or the
# directory LISTED holding it) and keeps it (exit 1).
clean_leaves() {
  local t=$1 planted=$2 what=$3 listed=${4:-$2}
  run 0 clean "$t"
  expect_rc 1 "$what: clean"
  expect_in "$OUT" "$listed:" "$what: clean lists the planted name"
  kept "$planted" "$what: after clean"
  local f ours=0
  while IFS= read -r f; do
    [ -e "$(sum_of "$f")" ] || ours=$((ours + 1))  # not one the test planted
  done < <(find "$t" -name 'file.mdbench.*' -o -name 'dir.mdbench.*')
  expect_eq "$ours" 0 "$what: clean removed every name the run made"
}
made_count() {  # made_count TARGET KIND SLOT: the record's count
  awk -v k="$2" -v s="$3" '$1 == "made" && $2 == k { print $(3 + s) }' "$1/$ITER/.mdbench-taken"
}

for np in 1 2 4; do
  # ---- -n 100, then -n 200 (one directory: the items beyond the record are not the run's).
  t=$BASE/more.$np
  job "$np" -d "$t" -n 100 -F -C
  expect_rc 0 "more np=$np: create"
  p=$t/$ITER/mdbench_tree.0/file.mdbench.0.150
  plant "$p"
  job "$np" -d "$t" -n 200 -F -T -E
  expect_rc 1 "more np=$np: stat and read of 200"
  expect_eq "$(column file-stat last)" $((100 * np)) "more np=$np: file-stat failures"
  expect_in "$OUT" "not made by the create job" "more np=$np: the reason"
  expect_not_in "$OUT" "EEXIST" "more np=$np: not called taken"
  job "$np" -d "$t" -n 200 -F -r
  expect_rc 1 "more np=$np: remove of 200"
  expect_eq "$(column file-remove last)" $((100 * np)) "more np=$np: file-remove failures"
  kept "$p" "more np=$np: the user's file.mdbench.0.150"
  # The remove job freed the names it removed: one the user takes afterwards is not the run's either.
  p2=$t/$ITER/mdbench_tree.0/file.mdbench.0.5
  plant "$p2"
  # The remove job's tree-remove could not remove the tree directory holding the user's files: it stays the
  # run's, so clean goes in, lists each of the user's files and keeps them (and the directory around them).
  clean_leaves "$t" "$p" "more np=$np"
  expect_in "$OUT" "$p2:" "more np=$np: clean lists file.mdbench.0.5 too"
  kept "$p2" "more np=$np: the user's file.mdbench.0.5, taken after the remove job"
  # Once the user takes the files back, clean finishes what tree-remove could not: the directories go.
  mv "$p" "$p2" "$BASE/"
  run 0 clean "$t"
  expect_rc 0 "more np=$np: clean once the user's files are moved away"
  expect_absent "$t" "more np=$np: the run's tree, iteration directory and target are gone"
  rm -f "$BASE/file.mdbench.0.150" "$BASE/file.mdbench.0.5"

  # ---- another layout: refused before any phase, exit 2, naming the option.
  t=$BASE/layout.$np
  job "$np" -d "$t" -n 6 -z 1 -b 2 -C
  expect_rc 0 "layout np=$np: create"
  p=$t/$ITER/mdbench_tree.0/mdbench_tree.1/mdbench_tree.3/file.mdbench.0.0
  plant "$p"
  before=$(fingerprint "$t")
  job "$np" -d "$t" -n 6 -z 2 -b 2 -r
  expect_rc 2 "layout np=$np: -z 2"
  expect_in "$ERR" "-z 2 differs from the create job's -z 1" "layout np=$np: -z named"
  expect_not_in "$OUT" "tree-remove" "layout np=$np: no phase ran"
  job "$np" -d "$t" -n 6 -z 1 -b 3 -T
  expect_rc 2 "layout np=$np: -b 3"
  expect_in "$ERR" "-b 3 differs from the create job's -b 2" "layout np=$np: -b named"
  job "$np" -d "$t" -n 6 -z 1 -b 2 -u -r
  expect_rc 2 "layout np=$np: -u"
  expect_in "$ERR" "-u given differs from the create job's -u not given" "layout np=$np: -u named"
  job "$np" -d "$t" -n 12 -z 1 -b 2 -r
  expect_rc 2 "layout np=$np: -n 12 over 3 directories"
  expect_in "$ERR" "-n 12 differs from the create job's -n 6" "layout np=$np: -n named"
  other=$((np == 4 ? 2 : np * 2))
  job "$other" -d "$t" -n 6 -z 1 -b 2 -r
  expect_rc 2 "layout np=$np: $other ranks"
  expect_in "$ERR" "$other ranks differ from the create job's $np" "layout np=$np: ranks named"
  expect_eq "$(fingerprint "$t")" "$before" "layout np=$np: nothing touched by the refused jobs"
  clean_leaves "$t" "$p" "layout np=$np" "$(dirname "$p")"

  # ---- a stonewalled create, then -r without -x: only what the create reached is removed.
  t=$BASE/wall.$np
  job "$np" -d "$t" -n 200000 -F -C -W 0.05
  expect_rc 0 "wall np=$np: create"
  made=$(made_count "$t" f 0)
  if [ -n "$made" ] && [ "$made" -lt 199990 ]; then pass; else fail "wall np=$np: the stonewall did not stop the create ($made)"; fi
  p=$t/$ITER/mdbench_tree.0/file.mdbench.0.$((made + 3))
  plant "$p"
  job "$np" -d "$t" -n 200000 -F -r
  expect_rc 1 "wall np=$np: remove without -x"
  expect_eq "$(column file-remove last)" $(((200000 - made) * np)) "wall np=$np: the items beyond the stonewall"
  kept "$p" "wall np=$np: the user's file beyond the stonewall"
  clean_leaves "$t" "$p" "wall np=$np"
done

# ---- -c: rank 0 made every rank's items; a later job on every rank with more items.
t=$BASE/collective
job 2 -d "$t" -n 10 -F -C -c
expect_rc 0 "-c: create"
expect_eq "$(awk '$1 == "made" && $2 == "f"' "$t/$ITER/.mdbench-taken")" "made f 10 10" "-c: the record holds both ranks' items"
p=$t/$ITER/mdbench_tree.0/file.mdbench.1.15
plant "$p"
job 2 -d "$t" -n 20 -F -r
expect_rc 1 "-c: remove of 20"
kept "$p" "-c: the user's file.mdbench.1.15"
clean_leaves "$t" "$p" "-c"

# ---- several targets: each target's record holds what was made there.
a=$BASE/ta b=$BASE/tb
job 2 -d "$a@$b" -u -n 10 -F -C
expect_rc 0 "targets: create"
expect_eq "$(awk '$1 == "made" && $2 == "f"' "$b/$ITER/.mdbench-taken")" "made f 0 10" "targets: B's record holds rank 1's items"
p=$b/$ITER/mdbench_tree.1.0/file.mdbench.1.15
plant "$p"
job 2 -d "$a@$b" -u -n 20 -F -r
expect_rc 1 "targets: remove of 20"
kept "$p" "targets: the user's file in B"
expect_absent "$a" "targets: A, all the run's, is gone"
clean_leaves "$b" "$p" "targets"

# ---- a create stopped by SIGTERM, with --keep: the record holds what it reached.
t=$BASE/stopped
RUNS=$((RUNS + 1))
# mpiexec itself, not under timeout: timeout would signal the whole process group, and a rank that gets
# SIGTERM twice (from timeout and from Hydra) exits at once, without recording what it made.
"$MPIEXEC" -n 2 "$MDBENCH" -d "$t" -n 400000 -F -C --keep -o "$BASE/r$RUNS.h5" >"$OUT" 2>"$ERR" &
pid=$!
for _ in $(seq 1 300); do
  [ "$(find "$t/$ITER/mdbench_tree.0" -maxdepth 1 -name 'file.mdbench.0.*' 2>/dev/null | head -3000 | wc -l)" -ge 3000 ] && break
  sleep 0.02
done
kill -TERM "$pid"
wait "$pid"
# Hydra's mpiexec sometimes exits 0 after a signal (docs/safety.md): the ranks' status line says what they did.
expect_in "$ERR" "mdbench: exit status 143" "stopped: the create job's exit status"
made=$(made_count "$t" f 0)
if [ -n "$made" ] && [ "$made" -lt 400000 ]; then pass; else fail "stopped: the record says $made of 400000"; fi
expect_eq "$(find "$t/$ITER/mdbench_tree.0" -name 'file.mdbench.0.*' | wc -l)" "$made" "stopped: rank 0's count is what is there"
p=$t/$ITER/mdbench_tree.0/file.mdbench.0.$((made + 1))
plant "$p"
job 2 -d "$t" -n 400000 -F -r
expect_rc 1 "stopped: remove"
kept "$p" "stopped: the user's file beyond the stop"
clean_leaves "$t" "$p" "stopped"

# ---- a damaged or edited record: the later job refuses the directory, clean leaves everything in it.
# copy: the intact record of another run's directory with the same layout and more items, copied in by
# hand (its checksum holds; the directory's inode it names does not).
for damage in truncate edit remove copy; do
  t=$BASE/damaged.$damage
  job 2 -d "$t" -n 10 -F -C
  r=$t/$ITER/.mdbench-taken
  case $damage in
    truncate) truncate -s 60 "$r" ;;
    edit) sed -i 's/^made f 10 10$/made f 20 20/' "$r" ;;
    remove) rm "$r" ;;
    copy)
      job 2 -d "$t.src" -n 20 -F -C
      expect_rc 0 "copy: the other run"
      cp "$t.src/$ITER/.mdbench-taken" "$r"
      ;;
  esac
  p=$t/$ITER/mdbench_tree.0/file.mdbench.0.15
  plant "$p"
  before=$(fingerprint "$t")
  job 2 -d "$t" -n 20 -F -r
  expect_rc 1 "$damage: remove refused"
  expect_in "$ERR" "the directory is not used" "$damage: the message"
  expect_eq "$(fingerprint "$t")" "$before" "$damage: nothing touched by the job"
  run 0 clean "$t"
  expect_rc 1 "$damage: clean"
  expect_eq "$(fingerprint "$t")" "$before" "$damage: nothing removed by clean"
  kept "$p" "$damage: the user's file"
done

# ---- item 10: a --file-rename job run twice. The rerun finds every item renamed already; the record keeps
# the renamed names as the run's: clean removes them and never says the run found them taken.
for how in clean remove; do
  t=$BASE/rerun.$how
  job 2 -d "$t" -n 16 -F -C
  job 2 -d "$t" -n 16 -F -U --file-rename
  expect_rc 0 "rerun $how: the first --file-rename"
  job 2 -d "$t" -n 16 -F -U --file-rename
  expect_rc 1 "rerun $how: the second --file-rename"
  expect_in "$OUT" "already renamed by an earlier job" "rerun $how: the reason"
  expect_eq "$(find "$t" -name 'file.mdbench.*.renamed' | wc -l)" 32 "rerun $how: every item still renamed"
  if [ "$how" = clean ]; then
    run 0 clean "$t"
    expect_rc 0 "rerun: clean"
    expect_not_in "$OUT" "taken" "rerun: clean does not say taken"
  else
    job 2 -d "$t" -n 16 -F -r --renamed
    expect_rc 0 "rerun: -r --renamed"
    expect_eq "$(column file-remove last)" 0 "rerun: -r --renamed failures"
  fi
  expect_absent "$t" "rerun $how: everything removed"
done

# A rename that found its new name taken keeps the item under its original name, and says so; once the
# user's name is gone a later --file-rename renames it, and clean then removes it (nothing is called taken).
t=$BASE/retry
job 2 -d "$t" -n 4 -F -C
p=$t/$ITER/mdbench_tree.0/file.mdbench.1.2.renamed
plant "$p"
job 2 -d "$t" -n 4 -F -U --file-rename
expect_rc 1 "retry: the rename that finds its name taken"
expect_in "$OUT" "EEXIST" "retry: EEXIST"
run 0 clean --dry-run "$t"
expect_in "$OUT" "$p: the run's rename found this name taken" "retry: clean says the rename found it taken"
kept "$p" "retry: the user's .renamed name"
rm "$p"
job 2 -d "$t" -n 4 -F -U --file-rename
expect_rc 1 "retry: the second --file-rename (the others are renamed already)"
expect_eq "$(find "$t" -name 'file.mdbench.*.renamed' | wc -l)" 8 "retry: every item renamed now"
run 0 clean "$t"
expect_rc 0 "retry: clean"
expect_absent "$t" "retry: clean removed everything"

# ---- the directory rename (mdtest's rotation) keeps every name the record holds: a -U job run twice
# succeeds twice, a later -r finds every directory, and clean after -U removes the run's names only. A -U
# job asked for more items than the create made skips the names beyond the record (the user's there stay).
for how in clean remove; do
  t=$BASE/rotate.$how
  job 2 -d "$t" -n 12 -D -C
  mkdir "$t/$ITER/mdbench_tree.0/dir.mdbench.0.12" "$t/$ITER/mdbench_tree.0/dir.mdbench.1.13"
  job 2 -d "$t" -n 14 -D -U
  expect_rc 1 "rotate $how: -U beyond the record"
  expect_eq "$(column dir-rename last)" 4 "rotate $how: the names beyond the record counted failed"
  expect_in "$OUT" "not made by the create job" "rotate $how: the reason"
  job 2 -d "$t" -n 12 -D -U
  expect_rc 0 "rotate $how: the second -U"
  expect_eq "$(find "$t" -name '*.renamed' | wc -l)" 0 "rotate $how: no temporary name left"
  if [ "$how" = clean ]; then
    run 0 clean "$t"
    expect_rc 1 "rotate: clean leaves the user's directories"
    expect_not_in "$OUT" "found this name taken" "rotate: clean says nothing was taken by a rename"
  else
    job 2 -d "$t" -n 12 -D -r
    expect_rc 1 "rotate: -r after -U (its tree-remove meets the user's directories)"
    expect_eq "$(column dir-remove last)" 0 "rotate: -r finds every directory"
  fi
  expect_eq "$(find "$t" -name 'dir.mdbench.*' | sed 's|.*/||' | sort | tr '\n' ' ')" \
    "dir.mdbench.0.12 dir.mdbench.1.13 " "rotate $how: only the user's directories are left"
done

# ---- item 11: creates that fail with ENOSPC (a tmpfs of few inodes): later jobs say "not created
# (ENOSPC)", not EEXIST. Mounting needs root; without it this part fails rather than passing silently.
if [ "$(id -u)" != 0 ]; then
  fail "the ENOSPC case mounts a small tmpfs, which needs root"
else
  # shellcheck source=mounts.sh
  source "$E2E_DIR/mounts.sh"
  mount_fs small size=1m,nr_inodes=40
  t=$BASE/small/t
  job 2 -d "$t" -n 40 -F -C
  expect_rc 1 "ENOSPC: create"
  expect_in "$OUT" "ENOSPC" "ENOSPC: the create says it"
  job 2 -d "$t" -n 40 -F -T
  expect_rc 1 "ENOSPC: stat"
  expect_in "$OUT" "not created (ENOSPC: No space left on device)" "ENOSPC: stat says not created (ENOSPC)"
  expect_not_in "$OUT" "EEXIST" "ENOSPC: never EEXIST"
  run 0 clean "$t"
  expect_rc 0 "ENOSPC: clean"
  expect_absent "$t" "ENOSPC: clean removed it all"
fi

finish
