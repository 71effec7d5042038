# shellcheck shell=bash
# Shared helpers for the end-to-end tests: the real mdbench binary under mpiexec on real directories.
# Usage: source lib.sh <shm|disk>. Needs MDBENCH and MPIEXEC in the environment (CTest sets them).
set -u

# This folder, found before the scripts change directory.
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export E2E_DIR

: "${MDBENCH:?set MDBENCH to the mdbench binary}"
: "${MPIEXEC:=mpiexec}"
FS_KIND=${1:-shm}
case "$FS_KIND" in
  shm) BASE_PARENT=/dev/shm ;;
  disk) BASE_PARENT=${MDBENCH_DISK_DIR:-/var/tmp} ;;
  *) echo "unknown file system kind '$FS_KIND' (shm or disk)" >&2; exit 2 ;;
esac
BASE=$(mktemp -d "$BASE_PARENT/mdbench-e2e.XXXXXX") || exit 1
trap 'rm -rf "$BASE"' EXIT
# Runs write their results file into the current directory by default: keep it inside BASE.
cd "$BASE" || exit 1

PASSED=0
FAILED=0
OUT=$BASE/.out
ERR=$BASE/.err
RC=0

pass() { PASSED=$((PASSED + 1)); }
fail() {
  FAILED=$((FAILED + 1))
  echo "FAIL: $*" >&2
  echo "--- stdout of the last run:" >&2; cat "$OUT" >&2 2>/dev/null
  echo "--- stderr of the last run:" >&2; cat "$ERR" >&2 2>/dev/null
}

# run NP ARGS...: mdbench under mpiexec with NP ranks (NP=0: a singleton, no mpiexec). Sets RC.
run() {
  local np=$1
  shift
  if [ "$np" = 0 ]; then
    timeout 120 "$MDBENCH" "$@" >"$OUT" 2>"$ERR"
  else
    timeout 120 "$MPIEXEC" -n "$np" "$MDBENCH" "$@" >"$OUT" 2>"$ERR"
  fi
  RC=$?
}

expect_rc() {  # expect_rc WANT WHAT
  if [ "$RC" = "$1" ]; then pass; else fail "$2: exit status $RC, expected $1"; fi
}
expect_eq() {  # expect_eq ACTUAL EXPECTED WHAT
  if [ "$1" = "$2" ]; then pass; else fail "$3: got '$1', expected '$2'"; fi
}
expect_in() {  # expect_in FILE TEXT WHAT
  if grep -qF -- "$2" "$1"; then pass; else fail "$3: '$2' not in $(basename "$1")"; fi
}
expect_not_in() {
  if grep -qF -- "$2" "$1"; then fail "$3: '$2' unexpectedly in $(basename "$1")"; else pass; fi
}
expect_empty_dir() {  # expect_empty_dir DIR WHAT
  local left
  if [ ! -d "$1" ]; then fail "$2: $1 is not a directory"; return; fi
  left=$(find "$1" -mindepth 1 | head -5)
  if [ -z "$left" ]; then pass; else fail "$2: $1 not empty: $left"; fi
}

expect_absent() {  # expect_absent PATH WHAT
  if [ ! -e "$1" ] && [ ! -L "$1" ]; then pass; else fail "$2: $1 still exists: $(find "$1" | head -5)"; fi
}

# column PHASE N: field N of the summary row of PHASE (1: name, 2: ops/iter, ..., last: failed).
column() { awk -v p="$1" -v n="$2" '$1 == p { print (n == "last" ? $NF : $n); exit }' "$OUT"; }
entries() { find "$1" -mindepth 1 | wc -l; }
# fingerprint DIR: names, types and contents of everything below DIR.
fingerprint() { (cd "$1" && find . -printf '%p %y %s\n' | sort && find . -type f -exec md5sum {} + | sort); }

finish() {
  echo "$(basename "$0") [$FS_KIND]: $PASSED passed, $FAILED failed"
  [ "$FAILED" = 0 ] && [ "$PASSED" -gt 0 ]
}
