#!/usr/bin/env bash
# mdtest's own command lines run unchanged through mdbench: every mdtest line of hpc/ior's
# testing/basic-tests.sh and testing/complex-tests.sh (with the harness's "-d DIR -V=4"), and IO500's
# mdtest-easy and mdtest-hard jobs (create, stat, read, delete as separate runs sharing the -x stonewall
# file; small -n, -W 2), as listed in fixtures/mdtest-lines/lines.tsv with what a real mdtest 4.1 left on
# disk after each job (made by fixtures/mdtest-lines/make_fixture.sh; the harness's lines with no phase flag
# also run with -C, to count what their create makes, then -r).
#
# For each line, in order, on tmpfs, with the same ranks (1 or 2), the same working directory within a
# sequence (relative -x and CSV files) and the same -d:
# - the exit status is mdtest's (0 for every line);
# - what is left below -d equals what mdtest left, counted so that the names, which differ on purpose,
#   do not matter:
#     item files   regular files, but for mdbench's bookkeeping files (.mdbench-*: the run's mark)
#                  = mdtest's files (mdtest keeps no bookkeeping below -d);
#     item dirs    directories, but for the iteration directories (mdbench.iter.*; mdtest's test-dir.*, one
#                  per iteration and -I loop) and the tree directories (mdbench_tree.*; mdtest_tree.*)
#                  = mdtest's dirs - tree_dirs - iter_dirs;
#     tree dirs    mdbench_tree.* = mdtest_tree.* (both nest the tree the same way; -u: one tree per rank);
#     other        anything neither a regular file nor a directory = 0.
#   Iteration directories are not compared: mdbench makes one per iteration and mdtest one per iteration
#   and -I loop, a naming choice that changes no item count.
# - where mdtest left nothing below -d (after a full line, a -r job), mdbench leaves nothing at all below -d,
#   bookkeeping included (-d itself may remain, as mdtest's does, or be removed if mdbench created it);
# - with -a DUMMY nothing is made below the sequence's data directory: not even -d.
# Lines mdbench refuses by design (REFUSED below, with the reason; the issue allows refusing what would
# corrupt counts) must exit 2 and touch nothing.
# Usage: e2e_mdtest_lines.sh [shm]  (needs MDBENCH and MPIEXEC; tmpfs only: the fixture was made there).
source "$(dirname "$0")/lib.sh" "$@"
fixture=$E2E_DIR/fixtures/mdtest-lines/lines.tsv
failed_lines=()
# A task sweep (-f/-l) whose steps do not both create and remove: each step would meet the items of the step
# before (mdtest, creating without O_EXCL, reuses them: its 2-task step re-creates the 1-task step's file).
declare -A REFUSED=(
  [basic-5+C]="-f/-l with -C alone: a step would meet the previous step's items"
  [basic-5+r]="-f/-l with -r alone: a step would remove items another step made"
)
# mdtest's -n defaults to 0, an empty run of the tree alone; mdbench's to 1000 items of each kind per rank
# (docs/mdtest.md). A create line that gives neither -n nor -I therefore leaves mdtest's tree
# and, besides, 1000 files and 1000 directories per rank: expected item files/item dirs/tree dirs/other.
declare -A DEFAULT_N=(
  [basic-1+C]="1000/1000/1/0"
  [basic-2+C]="2000/2000/1/0"
)

# target ARGS...: the value of the last -d (as mdtest's parser, the last one wins).
target() {
  local t="" prev="" a
  for a in "$@"; do
    [ "$prev" = -d ] && t=$a
    prev=$a
  done
  echo "$t"
}
count() {  # count DIR FIND-ARGS...: entries below DIR matching FIND-ARGS (0 if DIR is absent)
  local d=$1
  shift
  if [ -d "$d" ]; then find "$d" -mindepth 1 "$@" | wc -l; else echo 0; fi
}

t0=$SECONDS
seq_now=""
while IFS=$'\t' read -r id seq ranks args files dirs tree_dirs iter_dirs status; do
  case $id in '#'* | id | '') continue ;; esac
  if [ "$seq" != "$seq_now" ]; then
    seq_now=$seq
    work=$BASE/$seq/work DIR=$BASE/$seq/data
    mkdir -p "$work" "$DIR"
  fi
  read -r -a argv <<<"${args//\$DIR/$DIR}"
  before=$FAILED
  (cd "$work" && timeout 120 "$MPIEXEC" -n "$ranks" "$MDBENCH" "${argv[@]}") </dev/null >"$OUT" 2>"$ERR"
  RC=$?
  t=$(target "${argv[@]}")
  if [ -n "${REFUSED[$id]:-}" ]; then
    expect_rc 2 "$id: refused (${REFUSED[$id]}): mpiexec -n $ranks mdbench $args"
    expect_eq "$(count "$t")" 0 "$id: refused, yet something below -d"
    expect_in "$ERR" sweep "$id: refused for the sweep, not for another option"
  elif [[ " $args " == *" -a DUMMY "* ]]; then
    expect_rc "$status" "$id: mpiexec -n $ranks mdbench $args"
    expect_eq "$(entries "$DIR")" 0 "$id: -a DUMMY made nothing on disk: $(find "$DIR" -mindepth 1 2>/dev/null | head -3)"
  elif [ "$((files + dirs))" = 0 ]; then
    expect_rc "$status" "$id: mpiexec -n $ranks mdbench $args"
    expect_eq "$(count "$t")" 0 "$id: mdtest left nothing below -d, mdbench left: $(find "$t" -mindepth 1 2>/dev/null | head -3)"
  else
    expect_rc "$status" "$id: mpiexec -n $ranks mdbench $args"
    got=$(printf '%s/%s/%s/%s' "$(count "$t" -type f ! -name '.mdbench-*')" \
      "$(count "$t" -type d ! -name 'mdbench.iter.*' ! -name 'mdbench_tree.*')" \
      "$(count "$t" -type d -name 'mdbench_tree.*')" "$(count "$t" ! -type f ! -type d)")
    expect_eq "$got" "${DEFAULT_N[$id]:-$files/$((dirs - tree_dirs - iter_dirs))/$tree_dirs/0}" \
      "$id: item files/item dirs/tree dirs/other below -d"
  fi
  [ "$FAILED" = "$before" ] || failed_lines+=("$id")
done <"$fixture"

echo "mdtest lines: $((SECONDS - t0)) s; failed: ${failed_lines[*]:-none}"
finish
