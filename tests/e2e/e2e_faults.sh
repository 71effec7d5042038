#!/usr/bin/env bash
# Faults, on small file systems made for the test (tmpfs mounts below BASE): no space, no inodes, a
# read-only target, items removed between jobs, a full or read-only directory for the results file, a rank
# killed mid-phase, and targets that are not directories. Each: the message, the exit status, the results
# file read back, and the user data beside the target untouched. Needs root for mount (exit 77, skipped,
# without).
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3

if [ "$(id -u)" != 0 ]; then
  echo "SKIPPED: the test mounts small file systems, which needs root" >&2
  exit 77  # CTest reports it as skipped (SKIP_RETURN_CODE)
fi

# shellcheck source=mounts.sh
source "$E2E_DIR/mounts.sh"

CASES=0
begin_case() { CASES=$((CASES + 1)); echo "case $CASES: $*"; }

# User data that no run may touch: DIR/user-data/ (a file and a directory), its fingerprint in DIR.fp.
plant() {
  mkdir -p "$1/user-data/photos"
  head -c 3000 /dev/urandom >"$1/user-data/notes.bin"
  echo "holiday" >"$1/user-data/photos/list.txt"
  fingerprint "$1" >"$1.fp"
}
# untouched DIR WHAT: everything in DIR as plant() left it (the user data, and nothing of ours left).
untouched() {
  if fingerprint "$1" | cmp -s - "$1.fp"; then pass; else fail "$2: $1 changed: $(fingerprint "$1" | diff "$1.fp" - | head -5)"; fi
}

# q FILE EXPR: a Python expression on the last run group of a results file (helpers below).
cat >"$BASE/q.py" <<'PY'
import sys
import h5py

f = h5py.File(sys.argv[1], "r")
names = sorted(f["runs"])
run = f["runs"][names[-1]] if names else None


def it(i=0):
    return run["iterations"][f"iter-{i:04d}"]


def phases(i=0):
    """The phases in the file, in the order they ran."""
    if f"iter-{i:04d}" not in run["iterations"]:
        return ""
    return " ".join(sorted(it(i), key=lambda p: int(it(i)[p].attrs["order"])))


def a(phase, key, i=0):
    return it(i)[phase].attrs[key]


def errs(phase, i=0):
    """rank:ERRNO:path of each rank's first error."""
    if "errors" not in it(i)[phase]:
        return ""
    return " ".join(f"{e['rank']}:{e['errno_name'].decode()}:{e['path'].decode()}" for e in it(i)[phase]["errors"][()])


print(eval(sys.argv[2]))
PY
q() { "$py" "$BASE/q.py" "$@" 2>&1; }

valid() {  # valid FILE WHAT
  if "$MDBENCH" validate "$1" >"$BASE/.validate" 2>&1; then pass; else fail "$2: $(cat "$BASE/.validate")"; fi
}

# ---- 1. No space left (by size): file-create fails partway, later phases count their own failures.
begin_case "ENOSPC: a 256 KiB tmpfs, 4 KiB files"
mount_fs space size=256k
plant "$BASE/space"
t=$BASE/space/t
f=$BASE/space.h5
run 2 -d "$t" -n 50 -F -u -w 4096 -e 4096 --file-rename -o "$f"
expect_rc 1 "ENOSPC"
expect_in "$OUT" "/mdbench.iter.0/mdbench_tree." "ENOSPC: first error names its path"
expect_in "$OUT" ": ENOSPC (No space left on device)" "ENOSPC: first error names the errno"
expect_eq "$(q "$f" 'run.attrs["status"], int(run.attrs["exit_status"])')" "('failed', 1)" "ENOSPC: run status"
expect_eq "$(q "$f" 'phases()')" "tree-create file-create file-stat file-read file-rename file-remove tree-remove" \
  "ENOSPC: every phase (mdtest's, and --file-rename's) ran and is in the file"
# As many creates succeed as the space allows (less what the run itself takes): the rest fail.
fits=$(q "$f" 'a("file-create","ops_ok")')
expect_eq "$(q "$f" '0 < a("file-create","ops_ok") < 100, int(a("file-create","ops_failed"))')" "(True, $((100 - fits)))" \
  "ENOSPC: creates that fit succeeded, the rest failed"
errors=$(q "$f" 'errs("file-create")')
case "$errors" in
  *:ENOSPC:"$t"/mdbench.iter.0/mdbench_tree.*/file.mdbench.*) pass ;;
  *) fail "ENOSPC: file-create's first errors: $errors" ;;
esac
# A create whose write failed leaves an empty file: stat finds it, reading 4 KiB from it fails.
expect_eq "$(q "$f" 'a("file-stat","ops_failed"), a("file-read","ops_failed")')" "(0, $((100 - fits)))" \
  "ENOSPC: stat and read failures"
case "$(q "$f" 'errs("file-read")')" in *:ENODATA:*) pass ;; *) fail "ENOSPC: file-read errors: $(q "$f" 'errs("file-read")')" ;; esac
expect_eq "$(q "$f" 'a("file-rename","ops_ok"), a("file-rename","ops_failed")')" "(100, 0)" "ENOSPC: every file renamed"
expect_eq "$(q "$f" 'a("file-remove","ops_failed"), a("tree-remove","ops_failed")')" "(0, 0)" "ENOSPC: cleanup ops"
expect_eq "$(q "$f" '"summary" in run')" True "ENOSPC: summary written"
valid "$f" "ENOSPC: results file"
untouched "$BASE/space" "ENOSPC: nothing of ours left, user data untouched"

# ---- 2. No inodes left: creates fail with ENOSPC; every later item phase fails on the same items (ENOENT).
begin_case "inode exhaustion: a tmpfs of 60 inodes"
mount_fs inodes size=1m,nr_inodes=60
plant "$BASE/inodes"
t=$BASE/inodes/t
f=$BASE/inodes.h5
run 2 -d "$t" -n 100 -F -u --file-rename -o "$f"
expect_rc 1 "inodes"
expect_in "$OUT" ": ENOSPC (No space left on device)" "inodes: first error names ENOSPC"
expect_eq "$(q "$f" 'run.attrs["status"]')" failed "inodes: run status"
fits=$(q "$f" 'a("file-create","ops_ok")')
expect_eq "$(q "$f" '0 < a("file-create","ops_ok") < 60, int(a("file-create","ops_failed"))')" "(True, $((200 - fits)))" \
  "inodes: creates"
case "$(q "$f" 'errs("file-create")')" in *:ENOSPC:"$t"/*) pass ;; *) fail "inodes: create errors: $(q "$f" 'errs("file-create")')" ;; esac
# A name the create never made is not the run's (a user may take it later): the later phases leave it alone
# and count it failed, saying why: not created, with the create's errno (not EEXIST: nothing was taken).
for phase in file-stat file-read file-rename file-remove; do
  expect_eq "$(q "$f" "a('$phase','ops_ok'), a('$phase','ops_failed')")" "($fits, $((200 - fits)))" "inodes: $phase"
  case "$(q "$f" "errs('$phase')")" in *":not created (ENOSPC):$t"/*) pass ;; *) fail "inodes: $phase errors: $(q "$f" "errs('$phase')")" ;; esac
done
expect_eq "$(q "$f" 'a("tree-remove","ops_failed")')" 0 "inodes: trees removed"
valid "$f" "inodes: results file"
untouched "$BASE/inodes" "inodes: nothing of ours left, user data untouched"

# ---- 3. A read-only file system as the target: a setup error, no hang; the results file (elsewhere) says
# failed and holds no phase. A target that would have to be made there: no run, no results file.
begin_case "EROFS: a read-only tmpfs as the target"
mount_fs ro size=1m
plant "$BASE/ro"
mkdir "$BASE/ro/t"
fingerprint "$BASE/ro" >"$BASE/ro.fp"
mount -o remount,ro "$BASE/ro"
f=$BASE/ro.h5
run 2 -d "$BASE/ro/t" -n 10 -o "$f"
expect_rc 1 "EROFS"
expect_in "$ERR" "cannot create $BASE/ro/t/mdbench.iter.0: EROFS (Read-only file system)" "EROFS: message"
expect_in "$OUT" "no phase ran" "EROFS: console says no phase ran"
expect_eq "$(q "$f" 'run.attrs["status"], int(run.attrs["exit_status"]), phases()')" "('failed', 1, '')" \
  "EROFS: results file: failed, no phase"
valid "$f" "EROFS: results file"
run 2 -d "$BASE/ro/new" -n 10 -o "$BASE/ro-new.h5"
expect_rc 1 "EROFS, target to be made"
expect_in "$ERR" "cannot create target directory $BASE/ro/new: EROFS (Read-only file system)" "EROFS: mkdir message"
expect_absent "$BASE/ro-new.h5" "EROFS: no results file for a run that never began"
untouched "$BASE/ro" "EROFS: read-only file system unchanged"

# ---- 4. Items removed behind the benchmark's back between jobs: failed ops with ENOENT, exact counts.
begin_case "ENOENT: files removed between a create job and the stat and remove jobs"
mount_fs gone size=4m
plant "$BASE/gone"
t=$BASE/gone/t
run 2 -d "$t" -n 50 -F -u -C
expect_rc 0 "ENOENT: create job"
tree0=$t/mdbench.iter.0/mdbench_tree.0.0
tree1=$t/mdbench.iter.0/mdbench_tree.1.0
rm "$tree0/file.mdbench.0.17" "$tree0/file.mdbench.0.5" "$tree1/file.mdbench.1.0" "$tree1/file.mdbench.1.33" \
  "$tree1/file.mdbench.1.49"
f=$BASE/gone-stat.h5
run 2 -d "$t" -n 50 -F -u -T -o "$f"
expect_rc 1 "ENOENT: stat job"
expect_in "$OUT" "rank 1: file-stat (iteration 0): stat $tree1/file.mdbench.1.0: ENOENT (No such file or directory)" \
  "ENOENT: rank 1's first error"
expect_eq "$(q "$f" 'phases(), a("file-stat","ops_ok"), a("file-stat","ops_failed")')" "('file-stat', 95, 5)" \
  "ENOENT: stat counts"
expect_eq "$(q "$f" 'errs("file-stat")')" "0:ENOENT:$tree0/file.mdbench.0.5 1:ENOENT:$tree1/file.mdbench.1.0" \
  "ENOENT: first errors in the file"
f=$BASE/gone-remove.h5
run 2 -d "$t" -n 50 -F -u -r -o "$f"
expect_rc 1 "ENOENT: remove job"
expect_eq "$(q "$f" 'a("file-remove","ops_ok"), a("file-remove","ops_failed"), a("tree-remove","ops_failed")')" \
  "(95, 5, 0)" "ENOENT: remove counts"
expect_eq "$(q "$f" 'run.attrs["status"]')" failed "ENOENT: run status"
valid "$f" "ENOENT: results file"
# Nothing left but the target directory job 1 made (and its run mark, when the run leaves one).
expect_eq "$(find "$t" -mindepth 1 ! -name .mdbench-run)" "" "ENOENT: target empty after the remove job"
rm -r "$t"
untouched "$BASE/gone" "ENOENT: user data untouched"

# ---- 5. The results file's directory full: nothing runs when the file cannot be created; when it fills up
# later, the benchmark still runs and cleans up, the file keeps the phases written before, the message
# says results could not be written, and the exit status is 1.
begin_case "results directory full"
mount_fs full size=64k
plant "$BASE/full"
head -c $((64 * 1024)) /dev/zero >"$BASE/full/filler" 2>/dev/null  # fills it: stops at ENOSPC
fingerprint "$BASE/full" >"$BASE/full.fp"
run 2 -d "$BASE/t5" -n 10 -o "$BASE/full/r.h5"
expect_rc 1 "full: results file cannot be created"
expect_in "$ERR" "cannot create $BASE/full/r.h5: ENOSPC (No space left on device)" "full: message"
expect_absent "$BASE/t5" "full: the target was never touched"
untouched "$BASE/full" "full: no results file left, user data untouched"

mount_fs nearly size=256k
plant "$BASE/nearly"
avail=$(df -k --output=avail "$BASE/nearly" | tail -1)
head -c $(((avail - 112) * 1024)) /dev/zero >"$BASE/nearly/filler"  # room for the header and a few phases
fingerprint "$BASE/nearly" >"$BASE/nearly.fp"
f=$BASE/nearly/r.h5
run 2 -d "$BASE/t5" -n 10 -o "$f"
expect_rc 1 "nearly full: exit status"
expect_in "$ERR" "results could not be written: $f: no room for iteration 0 " "nearly full: message"
expect_in "$ERR" "ENOSPC (No space left on device)" "nearly full: message names ENOSPC"
# HDF5 cannot close a file after a failed write; its own "HDF5: infinite loop closing library" stays unsaid.
expect_not_in "$ERR" "HDF5" "nearly full: no message of HDF5's own"
expect_eq "$(grep -c "done: iteration 0" "$OUT")" 10 "nearly full: every phase (mdtest's 10, its dir rename included) still ran"
expect_absent "$BASE/t5" "nearly full: the target cleaned up"
valid "$f" "nearly full: the file is still valid"
missing=$(sed -n 's/.*no room for iteration 0 \([a-z-]*\): .*/\1/p' "$ERR" | head -1)
ran=$(awk '$1 == "done:" { printf "%s%s", sep, $4; sep = " " }' "$OUT")
kept=$(q "$f" 'phases()')
# The file holds exactly the phases that ran before the one that found no room, each complete.
expect_eq "$kept" "${ran%% "$missing"*}" "nearly full: the phases before '$missing' are in the file"
case "$kept" in tree-create*) pass ;; *) fail "nearly full: no phase kept: '$kept'" ;; esac
expect_eq "$(q "$f" 'run.attrs["status"], "summary" in run')" "('running', False)" "nearly full: status"
expect_eq "$(q "$f" 'sum(int(a(p,"ops_failed")) for p in phases().split())')" 0 "nearly full: no op failed"
# Everything but the results file (and the directory's size, which it changes) as it was.
mine() { grep -v -e '/r\.h5\( \|$\)' -e '^\. d ' "$@"; }
if fingerprint "$BASE/nearly" | mine | cmp -s - <(mine "$BASE/nearly.fp"); then pass; else
  fail "nearly full: user data changed: $(fingerprint "$BASE/nearly" | diff "$BASE/nearly.fp" - | head -5)"
fi

# ---- 6. The results file's directory read-only: refused before the target is touched.
begin_case "results directory read-only"
mount_fs rores size=1m
plant "$BASE/rores"
run 2 -d "$BASE/t6" -n 10 -o "$BASE/rores/kept.h5"
expect_rc 0 "read-only results: an earlier run's file"
fingerprint "$BASE/rores" >"$BASE/rores.fp"
mount -o remount,ro "$BASE/rores"
run 2 -d "$BASE/t6" -n 10 -o "$BASE/rores/r.h5"
expect_rc 1 "read-only results: exit status"
expect_in "$ERR" "cannot create $BASE/rores/r.h5: EROFS (Read-only file system)" "read-only results: message"
expect_absent "$BASE/t6" "read-only results: the target was never touched"
run 2 -d "$BASE/t6" -n 10 -o "$BASE/rores/kept.h5" --append
expect_rc 1 "read-only results: append"
expect_in "$ERR" "cannot open $BASE/rores/kept.h5" "read-only results: append message names the file"
expect_in "$ERR" "Read-only file system" "read-only results: append message names the cause"
expect_absent "$BASE/t6" "read-only results: append never touched the target"
untouched "$BASE/rores" "read-only results: nothing changed"

# ---- 7. One rank killed (SIGKILL) mid-phase: the job ends within seconds, non-zero; the results file is
# valid, status "running", with the phases finished before. Items left in the target are expected.
begin_case "one rank SIGKILLed mid-phase"
mount_fs kill size=64m,nr_inodes=400000
plant "$BASE/kill"
for np in 2 4; do
  f=$BASE/kill-$np.h5
  t=$BASE/kill/t$np
  timeout 60 "$MPIEXEC" -n "$np" "$MDBENCH" -d "$t" -n 1000000 -F -u -W 20 -o "$f" >"$OUT" 2>"$ERR" &
  JOB=$!
  for _ in $(seq 200); do
    grep -q "done: iteration 0 tree-create" "$OUT" && break
    sleep 0.05
  done
  sleep 0.3
  # The last rank of this job: an mdbench process writing to this file, with PMI_RANK = np - 1.
  victim=""
  for pid in $(pgrep -x mdbench); do
    if tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF "$f" &&
      tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "PMI_RANK=$((np - 1))"; then
      victim=$pid
    fi
  done
  expect_eq "$([ -n "$victim" ] && echo found)" found "kill np=$np: rank $((np - 1))'s process found"
  t0=$(date +%s%N)
  [ -z "$victim" ] || kill -9 "$victim"
  wait "$JOB"
  RC=$?
  JOB=""
  elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
  echo "  np=$np: rank $((np - 1)) killed, the job ended $elapsed_ms ms later with status $RC"
  if [ "$RC" != 0 ] && [ "$RC" != 124 ]; then pass; else fail "kill np=$np: exit status $RC"; fi
  if [ "$elapsed_ms" -lt 10000 ]; then pass; else fail "kill np=$np: the job took $elapsed_ms ms to end"; fi
  expect_not_in "$OUT" "done: iteration 0 file-create" "kill np=$np: killed during file-create"
  expect_eq "$(pgrep -x mdbench | while read -r p; do tr '\0' '\n' <"/proc/$p/cmdline" 2>/dev/null | grep -xF "$f"; done)" "" \
    "kill np=$np: no process of the job left"
  valid "$f" "kill np=$np: results file"
  expect_eq "$(q "$f" 'run.attrs["status"], phases(), "summary" in run')" "('running', 'tree-create', False)" \
    "kill np=$np: status and finished phases"
  rm -rf "$t"  # the job died: its items stay, as expected; made room for the next
done
untouched "$BASE/kill" "kill: user data untouched"

# ---- 8. Targets that are not directories: exit 1 (the target cannot be used), nothing behind them touched,
# no results file.
begin_case "targets that are a symlink, a file, a FIFO, a dangling symlink"
mkdir -p "$BASE/kinds/real"
plant "$BASE/kinds/real"
ln -s real "$BASE/kinds/link"
ln -s nowhere "$BASE/kinds/dangling"
echo "a file" >"$BASE/kinds/file"
mkfifo "$BASE/kinds/fifo"
fingerprint "$BASE/kinds" >"$BASE/kinds.fp"
for kind in link:"is a symbolic link; mdbench never follows links" dangling:"is a symbolic link" \
  file:"exists and is not a directory" fifo:"exists and is not a directory"; do
  name=${kind%%:*}
  run 2 -d "$BASE/kinds/$name" -n 5 -o "$BASE/kinds-$name.h5"
  expect_rc 2 "target $name (a usage error: nothing touched)"
  expect_in "$ERR" "target $BASE/kinds/$name ${kind#*:}" "target $name: message"
  expect_absent "$BASE/kinds-$name.h5" "target $name: no results file"
done
untouched "$BASE/kinds" "targets: the link's directory, the file and the FIFO untouched"
untouched "$BASE/kinds/real" "targets: the directory behind the link untouched"

echo "$(basename "$0"): $CASES cases, $((PASSED + FAILED)) checks"
finish
