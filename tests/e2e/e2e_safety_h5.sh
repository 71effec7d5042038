#!/usr/bin/env bash
# Nothing in or around a results file leads mdbench into another file (issue 28, items 2, 3, 5, 7): HDF5
# external links (to another results file, to a FIFO), soft links and second names are refused by validate,
# export, check, report, import --append and a run's --append, naming the link, within seconds (no hang),
# the other file byte for byte as it was; a symbolic link or another file swapped in for the results file
# during -p is never written (--append, --force); a run stopped by SIGTERM and then SIGKILLed, or SIGKILLed
# mid-phase, leaves a valid file that --append, check and report accept, while a file validate rejects is
# refused by every reader. Also: report -d through a link, a FIFO as a --savePerOpDataCSV file, deeply
# nested JSON.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" "${1:-shm}"
py=/usr/bin/python3  # the Debian interpreter, which has python3-h5py

mkdir "$BASE/t"
run 1 -d "$BASE/t" -n 5 -F -o "$BASE/good.h5"
expect_rc 0 "a valid results file"
cp "$BASE/good.h5" "$BASE/victim.h5"
mkfifo "$BASE/fifo"
victim_sum=$(md5sum <"$BASE/victim.h5")
victim_kept() { expect_eq "$(md5sum <"$BASE/victim.h5")" "$victim_sum" "$1: victim.h5 byte for byte"; }

# linked NAME KIND TARGET: a copy of good.h5 whose /runs is a link of KIND (external, soft, hard).
linked() {
  "$py" - "$BASE/good.h5" "$BASE/$1.h5" "$2" "$3" <<'PY'
import shutil, sys, h5py
good, out, kind, target = sys.argv[1:]
shutil.copy(good, out)
with h5py.File(out, "r+") as f:
    if kind == "external":
        del f["runs"]
        f["runs"] = h5py.ExternalLink(target, "/runs")
    elif kind == "deep":
        f["runs/run-0000/iterations/extra"] = h5py.ExternalLink(target, "/")
    elif kind == "soft":
        f.move("runs", "elsewhere")
        f["runs"] = h5py.SoftLink("/elsewhere")
    else:
        f["runs/run-0001"] = f["runs/run-0000"]
PY
}
linked ext external "$BASE/victim.h5"
linked extfifo external "$BASE/fifo"
linked deepfifo deep "$BASE/fifo"
linked soft soft ""
linked hard hard ""

# tool ARGS...: a tool under timeout 20 (a hang is exit 124; SIGKILL 5 s later if SIGTERM does not end it); RC and the output as run() keeps them.
tool() {
  timeout -k 5 20 "$MDBENCH" "$@" >"$OUT" 2>"$ERR"
  RC=$?
}
refused() {  # refused WHAT TEXT: non-zero, not a timeout, TEXT in the message
  if [ "$RC" != 0 ] && [ "$RC" != 124 ]; then pass; else fail "$1: exit status $RC"; fi
  cat "$OUT" "$ERR" >"$BASE/said"
  expect_in "$BASE/said" "$2" "$1: names the link"
}
mdtest_output=$E2E_DIR/../fixtures/import/mdtest-4.0-new.txt

for name in ext extfifo deepfifo soft hard; do
  f=$BASE/$name.h5
  case $name in
    ext) said="/runs is an external link to $BASE/victim.h5:/runs" ;;
    extfifo) said="/runs is an external link to $BASE/fifo" ;;
    deepfifo) said="/runs/run-0000/iterations/extra is an external link to $BASE/fifo" ;;
    soft) said="/runs is a soft link to /elsewhere" ;;
    hard) said="is one of 2 names of one object" ;;
  esac
  sum=$(md5sum <"$f")
  tool validate "$f"
  refused "validate $name" "$said"
  tool export -f json "$f"
  refused "export $name" "$said"
  tool check -r 'file-create.rate > 0' "$f"
  refused "check $name" "$said"
  tool report "$f"
  refused "report $name" "$said"
  tool import --append -o "$f" "$mdtest_output"
  refused "import --append $name" "$said"
  mkdir -p "$BASE/t.$name"
  timeout -k 5 20 "$MPIEXEC" -n 2 "$MDBENCH" -d "$BASE/t.$name" -n 5 -F --append -o "$f" >"$OUT" 2>"$ERR"
  RC=$?
  # A rank left blocked opening the FIFO (mdbench before this check) is let go: a writer opens it.
  exec 3<>"$BASE/fifo"
  exec 3>&-
  refused "run --append $name" "$said"
  expect_eq "$(md5sum <"$f")" "$sum" "$name: the linked file itself unchanged"
  victim_kept "$name"
done

# ---- Item 3: a link or another file swapped in for the results file during -p ----
# swap MODE HOW: a run with MODE on r.h5, whose name is swapped during -p 4 (HOW: symlink to victim.h5, or a
# hard link to it: another regular file); the run must not write victim.h5.
swap() {
  cp "$BASE/good.h5" "$BASE/r.h5"
  mkdir -p "$BASE/ts"
  timeout -k 5 60 "$MPIEXEC" -n 2 "$MDBENCH" -d "$BASE/ts" -n 5 -F -p 4 "$1" -o "$BASE/r.h5" >"$OUT" 2>"$ERR" &
  local pid=$!
  # The file is checked at start, well within this; the pre-delay (-p 4) keeps the run from writing until after.
  sleep 1.5
  mv "$BASE/r.h5" "$BASE/r.orig.h5"
  if [ "$2" = symlink ]; then ln -s "$BASE/victim.h5" "$BASE/r.h5"; else ln "$BASE/victim.h5" "$BASE/r.h5"; fi
  wait "$pid"
  RC=$?
  if [ "$RC" != 0 ] && [ "$RC" != 124 ]; then pass; else fail "$1 swapped for a $2: exit status $RC"; fi
  victim_kept "$1 swapped for a $2"
  if [ "$2" = symlink ]; then
    if [ -L "$BASE/r.h5" ]; then pass; else fail "$1 swapped for a symlink: the link was replaced"; fi
  else
    expect_eq "$(stat -c %i "$BASE/r.h5")" "$(stat -c %i "$BASE/victim.h5")" "$1 hard link: still the victim"
  fi
  rm -f "$BASE/r.h5" "$BASE/r.orig.h5"
  expect_eq "$(find "$BASE" -maxdepth 1 -name '.r.h5*' | wc -l)" 0 "$1 $2: no temporary left"
}
for mode in --append --force; do
  for how in symlink hardlink; do swap "$mode" "$how"; done
done

# ---- Item 7: stopped-then-killed and killed runs are valid; what validate rejects, every reader refuses ----
# killed NAME SIGNAL: a 2-rank run on many files, sent SIGNAL mid file-create once 30000 files are there;
# after a SIGTERM, SIGKILL as soon as the stopped phase is shown (it is on disk first), during the cleanup.
killed() {
  local name=$1 pid _ ranks
  mkdir -p "$BASE/k.$name"
  "$MPIEXEC" -n 2 "$MDBENCH" -d "$BASE/k.$name" -n 400000 -F -o "$BASE/$name.h5" >"$OUT" 2>"$ERR" &
  pid=$!
  for _ in $(seq 200); do [ "$(find "$BASE/k.$name" -name 'file.mdbench.*' | head -n 30000 | wc -l)" -ge 30000 ] && break; sleep 0.1; done
  ranks=$(pgrep -f "^$MDBENCH -d $BASE/k.$name ")
  # shellcheck disable=SC2086
  kill -"$2" $ranks 2>/dev/null
  if [ "$2" = TERM ]; then
    for _ in $(seq 1000); do grep -q "done: iteration 0 file-create" "$OUT" && break; sleep 0.01; done
    # shellcheck disable=SC2086
    kill -KILL $ranks 2>/dev/null
  fi
  wait "$pid"
  "$MDBENCH" clean "$BASE/k.$name" >/dev/null 2>&1
}
killed stopkill TERM
killed kill KILL
for name in stopkill kill; do
  f=$BASE/$name.h5
  tool validate "$f"
  expect_rc 0 "$name: validate accepts the killed job's file"
  expect_in "$OUT" "valid (" "$name: valid"
  tool check --allow-short -r 'tree-create.rate > 0' "$f"
  expect_rc 0 "$name: check reads it"
  tool report "$f"
  expect_rc 0 "$name: report reads it"
  mkdir -p "$BASE/ta.$name"
  run 2 -d "$BASE/ta.$name" -n 5 -F --append -o "$f"
  expect_rc 0 "$name: --append adds to it"
  tool validate "$f"
  expect_rc 0 "$name: still valid after --append"
done
if "$py" - "$BASE/stopkill.h5" <<'PY' >"$BASE/status.txt" 2>&1; then pass; else fail "stopkill status: $(cat "$BASE/status.txt")"; fi
import sys, h5py
run = h5py.File(sys.argv[1], "r")["runs/run-0000"]
text = lambda v: v.decode() if isinstance(v, bytes) else v
assert (text(run.attrs["status"]), int(run.attrs["exit_status"])) == ("interrupted", -1), dict(run.attrs)
PY

# A file validate rejects (a planned count changed): export, check and report refuse it with its problem.
cp "$BASE/good.h5" "$BASE/bad.h5"
"$py" - "$BASE/bad.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    d = f["runs/run-0000/iterations/iter-0000/file-create/ranks"]
    rows = d[...]
    rows[0]["planned"] += 1
    d[...] = rows
PY
tool validate "$BASE/bad.h5"
expect_rc 1 "validate rejects bad.h5"
for t in "export -f csv" "check -r file-create.rate>0" report; do
  # shellcheck disable=SC2086
  tool $t "$BASE/bad.h5"
  refused "$t on a file validate rejects" "rejects the file: nothing is read from it"
done

# ---- Weak points ----
# report -d through a symbolic link to a directory: refused, nothing written into the directory.
mkdir "$BASE/realdir"
echo "the user's report" >"$BASE/realdir/report.md"
ln -s "$BASE/realdir" "$BASE/linkdir"
tool report -d "$BASE/linkdir" --force "$BASE/good.h5"
expect_rc 2 "report -d LINK --force"
expect_in "$ERR" "is a symbolic link" "report -d LINK: says why"
expect_eq "$(cat "$BASE/realdir/report.md")" "the user's report" "report -d LINK: report.md kept"
expect_eq "$(find "$BASE/realdir" -mindepth 1 | wc -l)" 1 "report -d LINK: nothing added"

# A FIFO among the --savePerOpDataCSV files: a usage error before the results file is made.
mkfifo "$BASE/perop-00001.csv"
mkdir -p "$BASE/tp"
run 2 -d "$BASE/tp" -n 5 -F --savePerOpDataCSV="$BASE/perop" -o "$BASE/perop.h5"
expect_rc 2 "--savePerOpDataCSV with a FIFO"
expect_in "$ERR" "perop-00001.csv is a FIFO" "--savePerOpDataCSV FIFO: names it"
expect_absent "$BASE/perop.h5" "--savePerOpDataCSV FIFO: no results file made"
expect_absent "$BASE/perop-00000.csv" "--savePerOpDataCSV FIFO: no per-op file made"

# Deeply nested JSON: refused at once, in little memory (a 4 MiB input; 1 GiB of address space).
"$py" -c 'import sys; sys.stdout.write("{\"summary\": " + "[" * 4000000 + "]" * 4000000 + "}\n")' >"$BASE/deep.json"
(ulimit -v 1048576; exec timeout -k 5 20 "$MDBENCH" import -f ior -o "$BASE/deep.h5" "$BASE/deep.json") >"$OUT" 2>"$ERR"
RC=$?
expect_rc 1 "import of deeply nested JSON"
expect_in "$ERR" "nested deeper than 64 levels" "nested JSON: says why"
expect_absent "$BASE/deep.h5" "nested JSON: no results file"

finish
