#!/usr/bin/env bash
# Setup failures, targets and marks: duplicate or nested targets are a usage error before anything is
# touched; every setup failure (a rank's iteration directory taken, no inode for the mark, a working
# directory deeper than PATH_MAX, a file system gone read-only) removes what the run made and names the
# failing rank's own path and errno; a mark counts only when mdbench wrote it for that very directory.
# Mounts small tmpfs file systems (needs root: without it the test fails, it is never skipped).
source "$(dirname "$0")/lib.sh" "$@"

# shellcheck source=mounts.sh
source "$E2E_DIR/mounts.sh"
# The names a run generates, anywhere below DIR (iteration directories and default targets).
ours_below() { find "$1" \( -name 'mdbench.iter.*' -o -name 'mdbench.2*' -o -name .mdbench-run \) 2>/dev/null; }

# ---- 1. Duplicate and nested targets: exit 2, both paths named, no results file, nothing made ----
: >"$OUT"
: >"$ERR"
X=$BASE/x
ln -s "$X" "$BASE/link-to-x"
for exists in no yes; do
  for spec in "$X@$X" "$X@$X/." "$X@$BASE/./x" "$X@$X/sub" "$X/sub@$X" "$X@$BASE/link-to-x" "$X@$BASE/x/../x"; do
    for np in 1 2; do
      rm -rf "$X" "$BASE/r.h5"
      [ "$exists" = no ] || { mkdir -p "$X/keep" && echo data >"$X/keep/file"; }
      before=$(fingerprint "$BASE" 2>/dev/null | grep -v '\.out\|\.err')
      run "$np" -d "$spec" -n 2 -F -u -o "$BASE/r.h5"
      what="nested targets $spec (exists: $exists, $np ranks)"
      expect_rc 2 "$what"
      first=${spec%@*}
      second=${spec#*@}
      expect_in "$ERR" "'$first'" "$what: message names the first"
      expect_in "$ERR" "'$second'" "$what: message names the second"
      expect_absent "$BASE/r.h5" "$what: no results file"
      expect_eq "$(fingerprint "$BASE" 2>/dev/null | grep -v '\.out\|\.err')" "$before" "$what: nothing touched"
    done
  done
done
rm -rf "$X"
# Relative spellings of one directory, from the working directory.
mkdir "$BASE/rel"
for spec in "rel@./rel" "rel@$BASE/rel" "rel@rel/" "new@new/x"; do
  run 2 -d "$spec" -n 2 -F -u -o "$BASE/r.h5"
  expect_rc 2 "relative nested targets $spec"
  expect_in "$ERR" "-d/--dir: '" "relative nested $spec: a -d message"
  expect_absent "$BASE/new" "relative nested $spec: nothing made"
  expect_absent "$BASE/r.h5" "relative nested $spec: no results file"
done

# ---- 2. -d A@B with B/mdbench.iter.0 the user's: exit 1, B named, A as it was, B's directory untouched ----
for a_exists in yes no; do
  A=$BASE/a
  B=$BASE/b
  rm -rf "$A" "$B"
  mkdir -p "$B/mdbench.iter.0"
  echo "user data" >"$B/mdbench.iter.0/notes"
  [ "$a_exists" = no ] || { mkdir "$A" && echo mine >"$A/own"; }
  a_before=$(fingerprint "$A" 2>/dev/null)
  b_before=$(fingerprint "$B")
  run 2 -d "$A@$B" -n 2 -F -u -o "$BASE/ab.h5"
  what="A@B, B/mdbench.iter.0 the user's (A exists: $a_exists)"
  expect_rc 1 "$what"
  expect_in "$ERR" "cannot create $B/mdbench.iter.0: EEXIST" "$what: the message names B's directory"
  expect_not_in "$ERR" "$A/mdbench.iter.0" "$what: not A's"
  expect_eq "$(fingerprint "$B")" "$b_before" "$what: B untouched"
  if [ "$a_exists" = yes ]; then
    expect_eq "$(fingerprint "$A")" "$a_before" "$what: A exactly as before"
  else
    expect_absent "$A" "$what: A, made by the run, removed"
  fi
  rm -f "$BASE/ab.h5"
done

# ---- 3. Too few inodes to mark: exit 1, no unmarked mdbench.iter.0 and no target left ----
# tmpfs counts its root: nr_inodes=2 leaves one inode (the iteration directory, no mark); 3 and 4 with a
# target to be made run out at the iteration directory and at its mark.
for spec in "2:" "3:/new" "4:/new"; do
  inodes=${spec%%:*}
  sub=${spec#*:}
  for np in 1 2; do
    name=ino$inodes$np${sub//\//_}
    mount_fs "$name" "size=1m,nr_inodes=$inodes"
    M=$BASE/$name
    run "$np" -d "$M$sub" -n 2 -F -o "$BASE/$name.h5"
    what="$inodes inodes, target $M$sub, $np ranks"
    expect_rc 1 "$what"
    expect_in "$ERR" "ENOSPC" "$what: the message says ENOSPC"
    expect_eq "$(find "$M" -mindepth 1)" "" "$what: nothing left"
  done
done

# ---- 4. A working directory deeper than PATH_MAX: exit 1, a clear message, nothing left ----
DEEP=$BASE/deep
mkdir "$DEEP"
component=$(printf 'd%.0s' $(seq 1 200))
for np in 1 2; do
  for target in default relative; do
    args=(-n 2 -F -o "$BASE/deep.h5")
    [ "$target" = default ] || args+=(-d rel)
    # Hydra's mpiexec cannot start in such a directory, so each rank gets there itself, as a job script would.
    # shellcheck disable=SC2016
    timeout 60 "$MPIEXEC" -n "$np" bash -c 'cd "$1" || exit 9; shift
      for _ in $(seq 1 24); do mkdir -p "$1" && cd "$1" || exit 9; done; shift
      exec "$@"' deep "$DEEP" "$component" "$MDBENCH" "${args[@]}" >"$OUT" 2>"$ERR"
    echo $? >"$BASE/deep.rc"
    RC=$(cat "$BASE/deep.rc")
    what="working directory deeper than PATH_MAX ($target target, $np ranks)"
    expect_rc 1 "$what"
    expect_in "$ERR" "File name too long" "$what: the message says why"
    expect_in "$ERR" "PATH_MAX" "$what: the message says what to do"
    expect_eq "$(find "$DEEP" \( -name 'mdbench.*' -o -name rel -o -name .mdbench-run \) | wc -l)" 0 "$what: nothing left"
    rm -rf "$DEEP" "$BASE/deep.h5"
    mkdir "$DEEP"
  done
done

# ---- 5. Marks that mdbench did not write: -r and clean refuse and remove nothing ----
# plant_lookalike DIR MARK-TEXT: a hand-made DIR/mdbench.iter.0 with generated-looking names and a mark file.
plant_lookalike() {
  rm -rf "$1"
  mkdir -p "$1/mdbench.iter.0/mdbench_tree.0.0"
  echo "user data" >"$1/mdbench.iter.0/mdbench_tree.0.0/file.mdbench.0.0"
  echo "user data" >"$1/mdbench.iter.0/file.mdbench.0.1"
  printf '%s' "$2" >"$1/mdbench.iter.0/.mdbench-run"
}
# A real run's marks, to copy.
R=$BASE/real
run 2 -d "$R" -n 2 -F -C -o "$BASE/real.h5"
expect_rc 0 "a real create run"
real_mark=$(cat "$R/mdbench.iter.0/.mdbench-run")
real_target_mark=$(cat "$R/.mdbench-run")
L=$BASE/lookalike
for kind in empty user old copied copied-target; do
  case $kind in
    empty) text="" ;;
    user) text=$'my notes\n' ;;
    old) text=$'mdbench 0.1.0 run started 2025-01-01T00:00:00Z on 2 ranks\n' ;;
    copied) text=$real_mark$'\n' ;;
    copied-target) text=$real_target_mark$'\n' ;;
  esac
  plant_lookalike "$L" "$text"
  before=$(fingerprint "$L")
  run 2 -d "$L" -n 2 -F -r -o "$BASE/l.h5"
  expect_rc 1 "-r in a look-alike with a $kind mark"
  expect_in "$ERR" "$L/mdbench.iter.0" "-r, $kind mark: names the directory"
  expect_eq "$(fingerprint "$L")" "$before" "-r, $kind mark: nothing removed"
  [ "$kind" != old ] || expect_in "$ERR" "remove it by hand" "-r, old mark: says how to remove it"
  rm -f "$BASE/l.h5"
  for dir in "$L" "$L/mdbench.iter.0"; do
    run 0 clean "$dir"
    expect_eq "$(fingerprint "$L")" "$before" "clean $dir, $kind mark: nothing removed"
    expect_not_in "$OUT" "removed $L/mdbench.iter.0" "clean $dir, $kind mark: not reported removed"
  done
done
# The real run's own marks still count: its later job removes everything.
run 2 -d "$R" -n 2 -F -r -o "$BASE/real-r.h5"
expect_rc 0 "the real run's remove job"
expect_absent "$R" "the real run's target removed by its remove job"

# ---- 6. A file system gone read-only during a run: the cleanup message says EROFS ----
mount_fs rofs size=1m
T=$BASE/rofs/new
run_bg_ro() {  # the run sleeps 3 s (-p) after making its target; the file system goes read-only meanwhile
  timeout 60 "$MPIEXEC" -n "$1" "$MDBENCH" -d "$T" -n 2 -F -p 3 -o "$BASE/rofs$1.h5" >"$OUT" 2>"$ERR" &
  JOB=$!
  for _ in $(seq 1 200); do [ -e "$T/.mdbench-run" ] && break; sleep 0.02; done
  mount -o remount,ro "$BASE/rofs"
  wait "$JOB"
  RC=$?
  JOB=""
  mount -o remount,rw "$BASE/rofs"
}
for np in 1 2; do
  run_bg_ro "$np"
  expect_rc 1 "read-only remount mid-run ($np ranks)"
  expect_in "$ERR" "EROFS" "read-only mid-run ($np ranks): the setup error says EROFS"
  expect_in "$OUT" "$T not removed: EROFS (Read-only file system)" "read-only mid-run ($np ranks): the cleanup says EROFS"
  expect_not_in "$OUT" "EEXIST" "read-only mid-run ($np ranks): no EEXIST"
  rm -rf "$T"
done

finish
