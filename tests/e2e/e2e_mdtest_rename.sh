#!/usr/bin/env bash
# mdtest 4.1's phases and its directory rename, side by side with a real mdtest's, recorded in
# fixtures/mdtest_rename.txt:
# - the default phases: the operation rows of `--output mdtest`'s SUMMARY are mdtest's, in its order (no
#   "File rename": mdtest has none), with no phase flag and with -U alone among -C -T -r;
# - the directory rename rotates each rank's names as mdtest's does: which directory has which name after a
#   -U job (followed by inode, names normalised: mdtest_tree./mdbench_tree. -> tree., dir.mdtest./dir.mdbench.
#   -> dir.), flat and in a tree, 1 and 2 ranks, also with -N 1;
# - a split workload (-D -C -U -n 10, then -D -r -n 10) works: the later job exits 0 and leaves nothing.
# mdtest is not needed to run the test.
# Usage: e2e_mdtest_rename.sh [shm]              the test
#        IOR_COMMIT=<hpc/ior commit> e2e_mdtest_rename.sh --record MDTEST
#                                                 remake the fixture from a real mdtest binary (4.1)
set -u
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIXTURE=$E2E_DIR/fixtures/mdtest_rename.txt

# Phase cases: name | ranks | arguments (both tools).
PHASES=(
  "default|1|-n 4"
  "default-D|1|-D -n 4"
  "U-alone|1|-n 4 -C -T -U -r"
  "F-U|1|-F -n 4 -C -T -U -r"
)
# Rotation cases: name | ranks | the tree options of the create job and the -U job.
ROTATIONS=(
  "flat|1|-n 5"
  "flat-np2|2|-n 6"
  "tree-np2|2|-n 9 -z 1 -b 2"
  "shift-np2|2|-n 4 -N 1"
)

# summary_rows OUTPUT: the operation rows of mdtest's SUMMARY table, in order, each with "ran" when its
# maximum is not 0 (mdtest prints a row of zeros for a phase that did not run).
summary_rows() {
  awk '/^SUMMARY/ {on = 1; next} on && /^-- / {exit}
       on && $NF ~ /^[0-9.]+$/ && NF > 4 {max = $(NF - 3); row = $0
         sub(/[ \t]+[0-9.]+[ \t]+[0-9.]+[ \t]+[0-9.]+[ \t]+[0-9.]+[ \t]*$/, "", row); sub(/^[ \t]+/, "", row)
         print row (max + 0 > 0 ? " ran" : " 0")}' "$1"
}
# names_by_inode DIR: "inode name" of every item directory below DIR, the name normalised (first path
# component, the iteration's, dropped).
names_by_inode() {
  find "$1" -mindepth 2 -type d -name 'dir.*' -printf '%i %P\n' |
    sed -E 's|^([0-9]+) [^/]+/|\1 |; s/mdtest_tree\.|mdbench_tree\./tree./g; s/dir\.(mdtest|mdbench)\./dir./' |
    sort
}
# rotation BEFORE AFTER: "name-after <- name-before" per directory, sorted.
rotation() { join "$1" "$2" | awk '{print $3 " <- " $2}' | sort; }

# job TOOL NP ARGS...: one job of the tool under test ("mdtest" or "mdbench") in the current case.
job() {
  local tool=$1 np=$2
  shift 2
  if [ "$tool" = mdtest ]; then
    timeout 120 "$MPIEXEC" -n "$np" "$MDTEST" "$@" >"$OUT" 2>"$ERR"
  else
    timeout 120 "$MPIEXEC" -n "$np" "$MDBENCH" "$@" >"$OUT" 2>"$ERR"
  fi
  RC=$?
}

# cases TOOL: every case's normalised result, in the fixture's format.
cases() {
  local tool=$1 entry name np args
  local -a extra=()
  [ "$tool" = mdbench ] && extra=(--output mdtest -o "$BASE/r.h5" --force)
  for entry in "${PHASES[@]}"; do
    IFS='|' read -r name np args <<<"$entry"
    # shellcheck disable=SC2086 # the arguments split on purpose
    job "$tool" "$np" $args -d "$BASE/$tool.$name" "${extra[@]}"
    echo "[phases $name]"
    echo "rc $RC"
    summary_rows "$OUT"
  done
  for entry in "${ROTATIONS[@]}"; do
    IFS='|' read -r name np args <<<"$entry"
    local t=$BASE/$tool.rot.$name
    # shellcheck disable=SC2086
    job "$tool" "$np" -D -C $args -d "$t" "${extra[@]}"
    echo "[rotation $name]"
    echo "create rc $RC"
    names_by_inode "$t" >"$BASE/before"
    # shellcheck disable=SC2086
    job "$tool" "$np" -D -U $args -d "$t" "${extra[@]}"
    echo "rename rc $RC"
    names_by_inode "$t" >"$BASE/after"
    rotation "$BASE/before" "$BASE/after"
    rm -rf "$t"
  done
  local t=$BASE/$tool.split
  job "$tool" 2 -D -C -U -n 10 -d "$t" "${extra[@]}"
  echo "[split]"
  echo "create and rename rc $RC"
  job "$tool" 2 -D -r -n 10 -d "$t" "${extra[@]}"
  echo "remove rc $RC"
  echo "left $(find "$t" -mindepth 1 -name 'dir.*' 2>/dev/null | wc -l)"
}

if [ "${1:-}" = --record ]; then
  MDTEST=${2:?usage: e2e_mdtest_rename.sh --record MDTEST}
  : "${MPIEXEC:=mpiexec}"
  BASE=$(mktemp -d /dev/shm/mdbench-rename-record.XXXXXX) || exit 1
  trap 'rm -rf "$BASE"' EXIT
  OUT=$BASE/.out ERR=$BASE/.err
  {
    echo "# A real mdtest's phases and directory rename, for tests/e2e/e2e_mdtest_rename.sh (normalised by it)."
    echo "# Made by: IOR_COMMIT=... tests/e2e/e2e_mdtest_rename.sh --record MDTEST, from real runs of mdtest built"
    echo "# from hpc/ior commit ${IOR_COMMIT:-unknown} (outside the repository), on tmpfs."
    cd "$BASE" && cases mdtest
  } >"$FIXTURE.new" && mv "$FIXTURE.new" "$FIXTURE"
  echo "wrote $FIXTURE"
  exit 0
fi

# shellcheck source=lib.sh
source "$E2E_DIR/lib.sh" "$@"
[ -s "$FIXTURE" ] || { echo "no fixture $FIXTURE" >&2; exit 1; }
cases mdbench >"$BASE/got"
grep -v '^#' "$FIXTURE" >"$BASE/want"
# Each case on its own, so that a failure names it.
for section in $(grep -o '^\[[^]]*\]' "$BASE/want" | tr ' ' '_'); do
  want=$(awk -v s="${section//_/ }" '/^\[/ {on = ($0 == s); next} on' "$BASE/want")
  got=$(awk -v s="${section//_/ }" '/^\[/ {on = ($0 == s); next} on' "$BASE/got")
  if [ -n "$want" ] && [ "$want" = "$got" ]; then pass; else
    fail "$section: mdbench differs from mdtest (fixture < > mdbench):
$(diff <(echo "$want") <(echo "$got"))"
  fi
done
# The rotation's rows are not vacuous: some directory changed its name, and the split job found them all.
expect_in "$BASE/got" "tree.0/dir.0.0 <- tree.0/dir.0.1" "the rotation moved item 1 to item 0's name"
expect_in "$BASE/got" "left 0" "the split workload's remove job left nothing"
expect_not_in "$BASE/got" "File rename" "no file rename row"

finish
