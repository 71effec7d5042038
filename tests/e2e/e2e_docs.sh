#!/usr/bin/env bash
# Every command the documentation shows, run as written (tests/e2e/doc_commands.py says how a block says where
# it runs, and which substitutions bring a site's scale to this machine's). Usage: e2e_docs.sh MODE, MODE:
#   check    every code block of README.md, docs/, jobscripts/ and the job scripts' headers says where it runs
#   tmpfs    the blocks marked tmpfs (docs/acceptance.md's are e2e_acceptance's), from a directory laid out as
#            the top of the repository; the sites' directories (-d /lustre/...) on /dev/shm
#   disk     the blocks marked disk, the same way, on disk
#   source   the blocks marked source (the quick start), in the source tree itself, with this build
# The directories the blocks name as written (-d /dev/shm/md) must be free before and are free after.
mode=${1:?usage: e2e_docs.sh check|tmpfs|disk|source}
fs=shm
[ "$mode" = disk ] && fs=disk
source "$(dirname "$0")/lib.sh" "$fs"
src=$(cd "$E2E_DIR/../.." && pwd)
docs=(/usr/bin/python3 "$E2E_DIR/doc_commands.py")

if [ "$mode" = check ]; then
  RC=0
  "${docs[@]}" check "$src" >"$OUT" 2>"$ERR" || RC=$?
  cat "$OUT"
  expect_rc 0 "every documented code block says where it runs"
  finish
  exit
fi

if [ "$mode" = source ]; then
  # The quick start, as written, from the top of the source tree: it finds this build (MDBENCH_BUILD_DIR,
  # relative to the tree, as the script takes it), so it builds nothing and runs the default benchmark.
  build=$(dirname "$MDBENCH")
  unset MDBENCH_FORCE_APT
  export MDBENCH_BUILD_DIR
  MDBENCH_BUILD_DIR=$(realpath --relative-to="$src" "$build")
  results=$build/quickstart-results.h5
  had_results=$([ -e "$results" ] && echo yes || echo no)
  RC=0
  "${docs[@]}" run "$src" source "$src" "$BASE" >"$OUT" 2>"$ERR" || RC=$?
  cat "$OUT"
  expect_rc 0 "the quick start as written"
  if "$MDBENCH" validate "$results" >/dev/null 2>&1; then pass; else fail "the quick start left no valid $results"; fi
  [ "$had_results" = no ] && rm -f "$results"
  finish
  exit
fi

# A directory laid out as the top of the repository: build/mdbench is the binary under test, the rest the
# sources'; .installed/ is mdbench on PATH for the pages that assume it is installed.
top=$BASE/top
mkdir -p "$top/build" "$top/.installed" "$BASE/target"
ln -s "$MDBENCH" "$top/build/mdbench"
ln -s "$MDBENCH" "$top/.installed/mdbench"
for d in docs tests jobscripts scripts results-schema; do ln -s "$src/$d" "$top/$d"; done
# The page's mpiexec is the launcher under test (MPIEXEC may be plain mpiexec: found before it is shadowed).
launcher=$(command -v "$MPIEXEC") || { echo "FAIL: no launcher '$MPIEXEC'" >&2; exit 1; }
mpiexec_dir=$BASE/launcher
mkdir -p "$mpiexec_dir"
printf '#!/bin/sh\nexec %q "$@"\n' "$launcher" >"$mpiexec_dir/mpiexec"
chmod +x "$mpiexec_dir/mpiexec"
export PATH=$mpiexec_dir:$PATH

# The directories the blocks name as written: free before, free after.
mapfile -t named < <("${docs[@]}" blocks "$src" "$mode" | tr '\0' '\n' | grep -o -- '-d /dev/shm/[^ ]*' | cut -d' ' -f2 | sort -u)
for d in "${named[@]}"; do
  if [ -e "$d" ]; then fail "$d, named by a documented command, is in use already"; fi
done

only=()
[ "$mode" = tmpfs ] && only=(--except docs/acceptance.md)
RC=0
"${docs[@]}" run "$src" "$mode" "$top" "$BASE/target" "${only[@]}" >"$OUT" 2>"$ERR" || RC=$?
cat "$OUT"
expect_rc 0 "the documented commands (environment $mode) as written"
for d in "${named[@]}"; do expect_absent "$d" "the documented run removed what it made in $d"; done
if [ -z "$(ls -A "$BASE/target")" ]; then pass
else fail "the sites' directories hold what a documented run left: $(find "$BASE/target" -mindepth 1 | head -n 5)"; fi
finish
