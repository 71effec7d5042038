#!/usr/bin/env bash
# Issue 30 item 6 and issue 31's backend rows: mdtest 4.1's --posix.* and --dummy.* options on real runs.
# --posix.odirect's opens carry O_DIRECT and the data moves (strace of one rank); a file system or a -w it
# cannot take is a usage error before anything is made; --posix.rangelocks locks each transfer as mdtest's
# POSIX_Xfer does (the same fcntl calls as a real mdtest, checked side by side when MDTEST is set);
# --dummy.delay-* sleep where mdtest's DUMMY sleeps; the options are in the results file's config group.
# Usage: e2e_backend_options.sh disk   (O_DIRECT needs a disk file system; tmpfs has it from Linux 6.6 only)
#        MDTEST=/path/to/mdtest e2e_backend_options.sh disk   also runs the real mdtest's lines
source "$(dirname "$0")/lib.sh" "$@"
command -v strace >/dev/null || { echo "strace is needed" >&2; exit 1; }
py=/usr/bin/python3

# attr FILE NAME: the config group's attribute NAME of the file's first run ("absent" when it has none).
attr() {
  "$py" - "$1" "$2" <<'EOF'
import h5py, sys
config = h5py.File(sys.argv[1], "r")["runs/run-0000/config"]
print(int(config.attrs[sys.argv[2]]) if sys.argv[2] in config.attrs else "absent")
EOF
}
# traced NAME CALLS ARGS...: one rank under strace (CALLS traced into NAME.trace), -d NAME, -o NAME.h5.
traced() {
  local name=$1 calls=$2
  shift 2
  timeout 120 strace -qq -f -e trace="$calls" -o "$BASE/$name.trace" "$MDBENCH" "$@" -d "$BASE/$name" \
    -o "$BASE/$name.h5" >"$OUT" 2>"$ERR"
  RC=$?
}
# item_opens TRACE FLAG: the opens of items (file.mdbench / file.mdtest) that carry FLAG.
item_opens() { grep -E 'open(at)?\(.*file\.md(bench|test)\.' "$1" | grep -c -- "$2"; }

# O_DIRECT: every create and read open of the 6 files carries it; the run succeeds, the tree is gone.
traced od open,openat -n 6 -F -w 4096 -e 4096 --posix.odirect
expect_rc 0 "--posix.odirect -w 4096 -e 4096"
expect_eq "$(item_opens "$BASE/od.trace" O_DIRECT)" 12 "--posix.odirect: 6 creates and 6 reads open with O_DIRECT"
expect_eq "$(attr "$BASE/od.h5" posix.odirect)" 1 "results: config posix.odirect"
expect_eq "$(attr "$BASE/od.h5" posix.rangelocks)" 0 "results: config posix.rangelocks"
expect_eq "$(attr "$BASE/od.h5" dummy.delay-create)" absent "results: no DUMMY option in a POSIX run"
expect_absent "$BASE/od" "--posix.odirect: the run's directory is removed"
"$MDBENCH" validate "$BASE/od.h5" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "validate: a POSIX run with its options"
"$MDBENCH" export "$BASE/od.h5" --format json >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "export"
expect_in "$OUT" '"posix.odirect": 1' "export: the option read back from the file"
# Without it, no O_DIRECT.
traced plain open,openat -n 6 -F -w 4096 -e 4096
expect_rc 0 "-w 4096 without --posix.odirect"
expect_eq "$(item_opens "$BASE/plain.trace" O_DIRECT)" 0 "no O_DIRECT without --posix.odirect"

# A size O_DIRECT cannot move: a usage error naming the alignment, before anything is made (2 ranks).
run 2 -n 6 -F -w 3 --posix.odirect -d "$BASE/odd"
expect_rc 2 "--posix.odirect -w 3"
expect_in "$ERR" "--posix.odirect: -w/--write-bytes 3 is not a multiple of" "-w 3: the alignment named"
expect_absent "$BASE/odd" "--posix.odirect -w 3: nothing made"

# Range locks: a write lock per written file and a read lock per read one, each released.
traced rl fcntl -n 4 -F -w 100 -e 100 --posix.rangelocks
expect_rc 0 "--posix.rangelocks"
expect_eq "$(grep -c 'F_SETLKW, {l_type=F_WRLCK' "$BASE/rl.trace")" 4 "--posix.rangelocks: 4 write locks"
expect_eq "$(grep -c 'F_SETLKW, {l_type=F_RDLCK' "$BASE/rl.trace")" 4 "--posix.rangelocks: 4 read locks"
expect_eq "$(grep -c 'F_SETLK, {l_type=F_UNLCK' "$BASE/rl.trace")" 8 "--posix.rangelocks: 8 unlocks"
expect_eq "$(attr "$BASE/rl.h5" posix.rangelocks)" 1 "results: config posix.rangelocks"

# DUMMY's delays: 10 creates of 20 ms on each of 2 ranks take at least 0.2 s; rank 0 only: the same bound.
for only in "" --dummy.delay-only-rank0; do
  start=$(date +%s%N)
  run 2 -a DUMMY -n 10 -F -C --dummy.delay-create=20000 $only -d "$BASE/dummy" -o "$BASE/dummy$only.h5"
  elapsed_ms=$((($(date +%s%N) - start) / 1000000))
  expect_rc 0 "-a DUMMY --dummy.delay-create=20000 $only"
  if [ "$elapsed_ms" -ge 200 ]; then pass; else fail "--dummy.delay-create $only: $elapsed_ms ms, expected >= 200"; fi
  expect_eq "$(attr "$BASE/dummy$only.h5" dummy.delay-create)" 20000 "results: config dummy.delay-create"
  expect_eq "$(attr "$BASE/dummy$only.h5" posix.odirect)" absent "results: no POSIX option in a DUMMY run"
done
expect_absent "$BASE/dummy" "-a DUMMY: -d is a name only"

# The real mdtest, side by side: its range locks are the same calls; its --posix.odirect (4.1 5fcf0ba as
# built on Debian 12) warns "cannot use O_DIRECT" at every open and opens without it (docs/mdtest.md).
if [ -n "${MDTEST:-}" ]; then
  mkdir -p "$BASE/mdtest"
  (cd "$BASE/mdtest" && timeout 120 strace -qq -f -e trace=fcntl,open,openat -o "$BASE/mdtest.trace" "$MDTEST" \
    -n 4 -F -w 4096 -e 4096 --posix.rangelocks --posix.odirect -d "$BASE/mdtest/t" >"$OUT" 2>&1)
  RC=$?
  expect_rc 0 "mdtest --posix.rangelocks --posix.odirect"
  expect_eq "$(grep -c 'F_SETLKW, {l_type=F_WRLCK' "$BASE/mdtest.trace")" 4 "mdtest: 4 write locks"
  expect_eq "$(grep -c 'F_SETLKW, {l_type=F_RDLCK' "$BASE/mdtest.trace")" 4 "mdtest: 4 read locks"
  expect_in "$OUT" "cannot use O_DIRECT" "mdtest: its O_DIRECT warning"
fi

finish
