#!/usr/bin/env bash
# The files the tools write and read for the user: export -o, check --junit and --rules, report -d (report.md,
# SVG, PNG), import -o (with --append) and the run's -x. Each output that is a FIFO, a link to a precious
# file or a directory is refused at once (no hang), naming what it is, with and without --force/--append;
# the precious file stays byte for byte and the FIFO a FIFO. A good --force replaces by a new file (a new
# inode, complete); a failed import --append leaves the original as it was; -x and --rules of 2 GiB are not
# read (exit 2, "not a stonewall file" / "not a rules file"), at 1 and 2 ranks.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3
FIX=$E2E_DIR/../fixtures/import
IOR=$FIX/ior-4.1-real-two-tests.json
r=$BASE/r.h5
precious=$BASE/precious
printf 'precious: not to be written\n' >"$precious"
PRECIOUS_SUM=$(md5sum <"$precious")

# Each phase over 10 ms (inside the timed region), so that the report has charts (a phase too short to time has
# none) and check's rate rules are judged.
run 1 -d "$BASE/t" -n 20 -F -u --run-cmd-after-phase 'sleep 0.02' -o "$r"
expect_rc 0 "a results file to work on"

# quick ARGS...: a tool on one process, stopped after 10 seconds (124: it hung). Sets RC.
quick() {
  timeout 10 "$MDBENCH" "$@" >"$OUT" 2>"$ERR" </dev/null
  RC=$?
}

# plant KIND PATH: puts a FIFO, a link to the precious file, or a directory at PATH (and the precious
# file back as it was, so that each case is judged alone).
plant() {
  printf 'precious: not to be written\n' >"$precious"
  case "$1" in
    fifo) mkfifo "$2" ;;
    link) ln -s "$precious" "$2" ;;
    dir) mkdir "$2" ;;
  esac
}
kind_text() {
  case "$1" in
    fifo) echo "a FIFO" ;;
    link) echo "a symbolic link" ;;
    dir) echo "a directory" ;;
  esac
}

# refused WHAT KIND PATH: the last tool did not hang, failed, named the kind, and left everything alone.
refused() {
  local what=$1 kind=$2 path=$3
  if [ "$RC" = 124 ]; then fail "$what: hung (killed after 10 s)"; return; fi
  if [ "$RC" != 0 ]; then pass; else fail "$what: exit status 0"; fi
  expect_in "$ERR" "$(kind_text "$kind")" "$what: names the kind"
  expect_eq "$(md5sum <"$precious")" "$PRECIOUS_SUM" "$what: the precious file is unchanged"
  case "$kind" in
    fifo) if [ -p "$path" ]; then pass; else fail "$what: $path is no longer a FIFO"; fi ;;
    link) if [ -L "$path" ]; then pass; else fail "$what: $path is no longer a link"; fi ;;
    dir) if [ -d "$path" ] && [ -z "$(ls -A "$path")" ]; then pass; else fail "$what: $path changed"; fi ;;
  esac
  local left
  left=$(find "$(dirname "$path")" -name '*mdbench-tmp*' | head -3)
  expect_eq "$left" "" "$what: no temporary left"
}

# ---- Every tool x every bad output kind, without and with --force / --append ----
n=0
for kind in fifo link dir; do
  for force in "" --force; do
    n=$((n + 1))
    c=$BASE/case$n
    mkdir "$c"
    plant "$kind" "$c/out"
    quick export "$r" --format json -o "$c/out" ${force:+"$force"}
    refused "export -o $kind $force" "$kind" "$c/out"
    quick check "$r" --require "file-create >= 1" --junit "$c/out" ${force:+"$force"}
    refused "check --junit $kind $force" "$kind" "$c/out"
    mkdir "$c/d"
    plant "$kind" "$c/d/report.md"
    quick report "$r" -d "$c/d" ${force:+"$force"}
    refused "report -d with report.md $kind $force" "$kind" "$c/d/report.md"
  done
  for append in "" --append; do
    n=$((n + 1))
    c=$BASE/case$n
    mkdir "$c"
    plant "$kind" "$c/out.h5"
    quick import "$IOR" -o "$c/out.h5" ${append:+"$append"}
    refused "import -o $kind $append" "$kind" "$c/out.h5"
  done
done

# report --png: the PNG beside a chart is a link to the precious file (rsvg-convert must not write there).
quick report "$r" -d "$BASE/good" --png
expect_rc 0 "report --png into a new directory"
chart=$(cd "$BASE/good" && find . -name '*.svg' | sort | head -1)
chart=${chart#./}
for kind in fifo link; do
  c=$BASE/png-$kind
  mkdir "$c"
  plant "$kind" "$c/${chart%.svg}.png"
  quick report "$r" -d "$c" --png --force
  refused "report --png --force with a PNG $kind" "$kind" "$c/${chart%.svg}.png"
done

# ---- A good --force / --append: a new file renamed into place, complete ----
inode() { stat -c %i "$1"; }
printf 'old\n' >"$BASE/e.json"
before=$(inode "$BASE/e.json")
quick export "$r" --format json -o "$BASE/e.json" --force
expect_rc 0 "export --force over a file"
if [ "$(inode "$BASE/e.json")" != "$before" ] && "$py" -c 'import json,sys; json.load(open(sys.argv[1]))' "$BASE/e.json"; then
  pass
else
  fail "export --force: not a new, complete file"
fi
printf 'old\n' >"$BASE/j.xml"
before=$(inode "$BASE/j.xml")
quick check "$r" --require "file-create >= 1" --junit "$BASE/j.xml" --force
expect_rc 0 "check --junit --force over a file"
if [ "$(inode "$BASE/j.xml")" != "$before" ] && grep -q '</testsuites>' "$BASE/j.xml"; then pass; else fail "check --junit --force: not a new, complete file"; fi
before=$(inode "$BASE/good/report.md")
quick report "$r" -d "$BASE/good" --png --force
expect_rc 0 "report --force over a report"
if [ "$(inode "$BASE/good/report.md")" != "$before" ]; then pass; else fail "report --force: report.md rewritten in place"; fi
quick import "$IOR" -o "$BASE/i.h5"
expect_rc 0 "import into a new file"
before=$(inode "$BASE/i.h5")
quick import "$IOR" -o "$BASE/i.h5" --append
expect_rc 0 "import --append"
if [ "$(inode "$BASE/i.h5")" != "$before" ]; then pass; else fail "import --append: written in place"; fi
quick validate "$BASE/i.h5"
expect_rc 0 "import --append: the file is valid"
expect_eq "$(find "$BASE" -maxdepth 2 -name '*mdbench-tmp*' | head -3)" "" "good writes: no temporary left"

# ---- A failed import --append (the file size limit is reached halfway) leaves the original as it was ----
cp "$BASE/i.h5" "$BASE/full.h5"
sum=$(md5sum <"$BASE/full.h5")
size=$(stat -c %s "$BASE/full.h5")
# UCX (MPICH's transport here) maps a few MiB of shared memory through a file at MPI_Init: not over TCP.
(
  ulimit -f $(((size + 1023) / 1024))
  UCX_TLS=self,tcp timeout 10 "$MDBENCH" import "$IOR" -o "$BASE/full.h5" --append >"$OUT" 2>"$ERR" </dev/null
)
RC=$?
expect_rc 1 "import --append past the size limit"
expect_in "$ERR" "EFBIG" "import --append past the size limit: says why"
expect_eq "$(md5sum <"$BASE/full.h5")" "$sum" "import --append past the size limit: the original is unchanged"
expect_eq "$(find "$BASE" -maxdepth 1 -name '*mdbench-tmp*' | head -3)" "" "import --append past the size limit: no temporary left"

# ---- -x and --rules: 2 GiB (sparse) is not read; a FIFO is refused at once; at 1 and 2 ranks ----
truncate -s 2G "$BASE/big"
mkfifo "$BASE/fifo"
# at NP ARGS...: mdbench under mpiexec, stopped after 20 seconds (reading 2 GiB takes longer). Sets RC.
at() {
  local np=$1
  shift
  timeout 20 "$MPIEXEC" -n "$np" "$MDBENCH" "$@" >"$OUT" 2>"$ERR" </dev/null
  RC=$?
}
for np in 1 2; do
  SECONDS=0
  at "$np" -d "$BASE/t" -n 20 -F -T -x "$BASE/big"
  expect_rc 2 "-x of 2 GiB at $np ranks"
  expect_in "$ERR" "not a stonewall file" "-x of 2 GiB at $np ranks: message"
  expect_not_in "$ERR" "internal error" "-x of 2 GiB at $np ranks: no internal error"
  at "$np" check "$r" --rules "$BASE/big"
  expect_rc 2 "--rules of 2 GiB at $np ranks"
  expect_in "$ERR" "not a rules file" "--rules of 2 GiB at $np ranks: message"
  expect_not_in "$ERR" "internal error" "--rules of 2 GiB at $np ranks: no internal error"
  at "$np" -d "$BASE/t" -n 20 -F -T -x "$BASE/fifo"
  expect_rc 2 "-x FIFO at $np ranks"
  at "$np" check "$r" --rules "$BASE/fifo"
  expect_rc 2 "--rules FIFO at $np ranks"
  if [ "$SECONDS" -lt 20 ]; then pass; else fail "-x/--rules at $np ranks took $SECONDS s"; fi
done

finish
