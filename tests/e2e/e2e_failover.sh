#!/usr/bin/env bash
# Issue 34: --fault-at/--fault-cmd and the stall. A fault command that freezes the only rank (SIGSTOP to
# its parent, rank 0, for 0.5 s) gives a stall of 0.5 s within tolerance, and `mdbench report` shades it
# and draws the fault at its start in the throughput over time, and tables it; a failing fault command is
# recorded and the run's exit status is 1; a fault beyond the phase is "not injected"; a run without faults
# has no marks and no table; bad pairs, a negative time and -B are usage errors (exit 2). The results file
# is read back with h5py (the HDF5 C API), the charts with check_svg.py.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3
SVG="$py $E2E_DIR/check_svg.py"

# faults FILE PHASE: each fault row of the phase as "injected exit_status recovery_s output", then the stall.
faults() {
  "$py" - "$1" "$2" <<'PYEOF'
import h5py, sys
g = h5py.File(sys.argv[1], "r")["runs/run-0000/iterations/iter-0000/" + sys.argv[2]]
for row in (g["faults"][()] if "faults" in g else []):
    out = row["output"].decode() if isinstance(row["output"], bytes) else row["output"]
    print(int(row["injected"]), int(row["exit_status"]), row["recovery_s"], out.strip())
print("stall %.3f" % g.attrs["stall_s"])
PYEOF
}

# A freeze of 0.5 s into a create phase that lasts about 3 s: the stall is 0.5 s (+- 0.1 s).
mkdir -p "$BASE/freeze"
# shellcheck disable=SC2016  # $PPID is the fault shell's own: its parent, rank 0
run 1 -a DUMMY --dummy.delay-create 200 -F -C -n 10000 -d "$BASE/freeze" --series-interval 0.05 \
  --fault-at 1.2 --fault-cmd 'kill -STOP $PPID; sleep 0.5; kill -CONT $PPID' -o "$BASE/freeze.h5"
expect_rc 0 "a freeze of rank 0"
expect_in "$OUT" "fault 1 at 1.2 s: started at" "the console's fault line"
stall=$(faults "$BASE/freeze.h5" file-create | awk '/^stall/ { print $2 }')
if awk -v s="$stall" 'BEGIN { exit !(s >= 0.45 && s <= 0.6) }'; then pass; else fail "stall $stall, expected 0.5 s"; fi
"$MDBENCH" validate "$BASE/freeze.h5" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "validate of the freeze's file"

# The report: in the throughput over time the stall shaded from about 1.2 s to 1.7 s and the fault's line at
# about 1.2 s (the freeze starts with the fault: 0.15 s allows for the fault's start and a loaded machine,
# as the stall's 0.45-0.6 s above), each drawn where the panel's own axis puts those times; the failover
# table in the text and the Markdown.
run 0 report "$BASE/freeze.h5" -d "$BASE/freeze-report"
expect_rc 0 "report on the freeze's file"
chart=$BASE/freeze-report/timeline-freeze-run-0000.svg
# shellcheck disable=SC2086  # $SVG is the interpreter and the script
if $SVG "$chart" --band 1.2,1.7,0.15 --mark 1.2,0.15 --text "fault 1" --text "stall " >"$BASE/svg.txt"; then
  pass
else
  fail "the stall and the fault in $chart: $(cat "$BASE/svg.txt")"
fi
expect_in "$OUT" "Failover (--fault-at):" "the text's failover section"
if grep -qE '^  file-create +0\.[0-9]{3} s \(1\.[0-9]{3}-1\.[0-9]{3} s into the phase\) +started at 1\.[0-9]{3} s, exit status 0 .+ 0 +[0-9.]+ ms$' "$OUT"; then
  pass
else
  fail "the text's file-create row: $(grep '^  file-create' "$OUT")"
fi
md=$BASE/freeze-report/report.md
expect_in "$md" "## Failover (--fault-at)" "the Markdown's failover section"
expect_in "$md" "| phase | stall | faults | recovery | failed ops | latency max |" "the Markdown's table"
if grep -qE '^\| file-create \| 0\.[0-9]{3} s \(1\.[0-9]{3}-1\.[0-9]{3} s into the phase\) \| started at 1\.[0-9]{3} s, exit status 0 \| [^|]+ \| 0 \| [0-9.]+ ms \|$' "$md"; then
  pass
else
  fail "the Markdown's file-create row: $(grep '^| file-create' "$md")"
fi
# shellcheck disable=SC2016  # the command as given, $PPID and all
expect_in "$md" '- fault 1 at 1.2 s into each phase: kill -STOP $PPID; sleep 0.5; kill -CONT $PPID' "the fault's command"

# check gates on the recorded stall: one that passes, one that fails (exit 3); the recovery (one whole second
# before the fault gives the median); NO-DATA for a recovery where no fault was injected (tree-create).
"$MDBENCH" check "$BASE/freeze.h5" --require 'file-create.stall<=30s' --require 'file-create.failed==0' \
  >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "a stall gate that passes"
"$MDBENCH" check "$BASE/freeze.h5" --require 'file-create.stall<=100ms' >"$OUT" 2>"$ERR"
RC=$?
expect_rc 3 "a stall gate that fails"
expect_in "$OUT" "FAIL  [freeze] file-create stall at 1 rank" "the failing gate's line"
"$MDBENCH" check "$BASE/freeze.h5" --require 'file-create.recovery<=60s' >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "a recovery gate"
"$MDBENCH" check "$BASE/freeze.h5" --require 'tree-create.recovery<=60s' >"$OUT" 2>"$ERR"
RC=$?
expect_in "$OUT" "NO-DATA" "a recovery where the fault was not injected"

# A failing command: recorded with its output, exit status 1; a fault after the phase: not injected.
mkdir -p "$BASE/failing"
run 2 -a DUMMY --dummy.delay-create 1000 -F -C -n 1500 -d "$BASE/failing" \
  --fault-at 0.3 --fault-cmd 'echo broken; exit 3' --fault-at 100 --fault-cmd true -o "$BASE/failing.h5"
expect_rc 1 "a failing fault command"
expect_in "$OUT" "exit status 3" "the failing command's status on the console"
expect_in "$OUT" "fault 2 at 100 s: the fault was not injected" "a fault beyond the phase"
rows=$(faults "$BASE/failing.h5" file-create)
expect_eq "$(echo "$rows" | sed -n 1p | awk '{ print $1, $2, $4 }')" "1 3 broken" "the failing fault's row"
expect_eq "$(echo "$rows" | sed -n 2p | awk '{ print $1, $2 }')" "0 -1" "the fault not injected"
run 0 report "$BASE/failing.h5"
expect_rc 0 "report on the failing command's file"
expect_in "$OUT" "fault 1: started at 0." "the report's failing fault"
expect_in "$OUT" "exit status 3; fault 2: the fault was not injected (the phase ended first)" "the report's faults"

# Without --fault-at: no band, no line, no table (the stall is stored, but shown only with faults).
mkdir -p "$BASE/calm"
run 1 -a DUMMY --dummy.delay-create 200 -F -C -n 2000 -d "$BASE/calm" --series-interval 0.05 -o "$BASE/calm.h5"
expect_rc 0 "a run without faults"
run 0 report "$BASE/calm.h5" -d "$BASE/calm-report"
expect_rc 0 "report on the run without faults"
# shellcheck disable=SC2086
if $SVG "$BASE/calm-report/timeline-calm-run-0000.svg" --no-marks >"$BASE/svg.txt"; then
  pass
else
  fail "marks without faults: $(cat "$BASE/svg.txt")"
fi
expect_not_in "$OUT" "Failover" "no failover section in the text"
expect_not_in "$BASE/calm-report/report.md" "Failover" "no failover section in the Markdown"

# --fault-phase: the faults go into the phases named, and the others get no fault and no record.
mkdir -p "$BASE/phased"
run 1 -a DUMMY --dummy.delay-create 1000 -F -C -T -n 1000 -d "$BASE/phased" --fault-phase file-create \
  --fault-at 0.2 --fault-cmd 'echo injected' -o "$BASE/phased.h5"
expect_rc 0 "a fault in the create phase alone"
expect_eq "$(faults "$BASE/phased.h5" file-create | sed -n 1p | awk '{ print $1, $2, $4 }')" "1 0 injected" \
  "the create phase's fault"
expect_eq "$(faults "$BASE/phased.h5" file-stat | grep -vc '^stall')" 0 "no fault in the stat phase"
expect_eq "$(grep -c '^ *fault 1 at' "$OUT")" 1 "one fault line on the console"

# A fault command holds none of mdbench's descriptors (a daemon it starts would keep the results file open):
# its shell has 0, 1 and 2 alone. The shell's ls runs in a subshell that writes to a file, and is not the
# last command: the shell itself then holds no pipe to it (a pipeline's end, until the shell closes it: a
# race), no descriptor saved across a redirection (dash's 10), and does not become ls (whose own listing
# holds the directory it reads).
mkdir -p "$BASE/fds"
run 1 -a DUMMY --dummy.delay-create 1000 -F -C -n 1000 -d "$BASE/fds" --fault-at 0.1 \
  --fault-cmd "( ls /proc/\$\$/fd >$BASE/fds.list ); true" -o "$BASE/fds.h5"
expect_rc 0 "a fault command that lists its descriptors"
expect_eq "$(tr '\n' ' ' <"$BASE/fds.list")" "0 1 2 " "the fault command's descriptors"

# --steady (schema version 10): the same freeze in the steady mix, the faults' default phase there, gives
# the same stall and fault rows in steady/mix; precreate and cleanup get none; validate checks them.
mkdir -p "$BASE/steady"
# shellcheck disable=SC2016  # $PPID is the fault shell's own: its parent, rank 0
run 1 -a DUMMY --dummy.delay-create 200 --steady 5000 -n 200 --datasets 2 -d "$BASE/steady" \
  --series-interval 0.05 --fault-at 1 --fault-cmd 'kill -STOP $PPID; sleep 0.5; kill -CONT $PPID' \
  -o "$BASE/steady.h5"
expect_rc 0 "a freeze of rank 0 in the steady mix"
expect_in "$OUT" "mix: fault 1 at 1 s: started at" "the console's steady fault line"
expect_in "$OUT" "mix: stall 0." "the console's steady stall line"
stall=$(faults "$BASE/steady.h5" steady/mix | awk '/^stall/ { print $2 }')
if awk -v s="$stall" 'BEGIN { exit !(s >= 0.45 && s <= 0.6) }'; then pass; else fail "steady stall $stall, expected 0.5 s"; fi
expect_eq "$(faults "$BASE/steady.h5" steady/mix | sed -n 1p | awk '{ print $1, $2 }')" "1 0" "the mix's fault row"
expect_eq "$(faults "$BASE/steady.h5" steady/precreate | grep -vc '^stall')" 0 "no fault in precreate"
expect_eq "$(faults "$BASE/steady.h5" steady/cleanup | grep -vc '^stall')" 0 "no fault in cleanup"
"$MDBENCH" validate "$BASE/steady.h5" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "validate of the steady freeze's file"
# --fault-phase names the steady phases there; a selected phase's name is refused with --steady.
run 1 -a DUMMY --dummy.delay-create 1000 --steady 10 -n 400 --datasets 2 -d "$BASE/steady" \
  --fault-phase precreate --fault-at 0.05 --fault-cmd 'echo injected' -o "$BASE/steady-precreate.h5"
expect_rc 0 "a fault in the steady precreate"
expect_eq "$(faults "$BASE/steady-precreate.h5" steady/precreate | sed -n 1p | awk '{ print $1, $2, $4 }')" \
  "1 0 injected" "the precreate's fault"
expect_eq "$(faults "$BASE/steady-precreate.h5" steady/mix | grep -vc '^stall')" 0 "no fault in the mix"
run 0 --steady 10 -n 20 -d "$BASE/steady" --fault-at 1 --fault-cmd true --fault-phase file-create
expect_rc 2 "--fault-phase file-create with --steady"
expect_in "$ERR" "--fault-phase file-create: --steady's phases are precreate, mix" "the steady phases' message"

# Bad input: exit 2, nothing made.
mkdir -p "$BASE/bad"
run 0 -F -C -n 10 -d "$BASE/bad" --fault-at 1
expect_rc 2 "--fault-at without --fault-cmd"
expect_in "$ERR" "go in pairs" "the unmatched pair's message"
run 0 -F -C -n 10 -d "$BASE/bad" --fault-at=-1 --fault-cmd true
expect_rc 2 "a negative fault time"
expect_in "$ERR" "negative" "the negative time's message"
run 0 -F -C -n 10 -d "$BASE/bad" -B --fault-at 1 --fault-cmd true
expect_rc 2 "a fault with -B"
expect_in "$ERR" "exclude each other" "the -B message"
run 0 -F -C -n 10 -d "$BASE/bad" --fault-at 1 --fault-cmd true --fault-phase file-craete
expect_rc 2 "--fault-phase with no such phase"
expect_in "$ERR" "--fault-phase file-craete: no such phase" "the unknown phase's message"
run 0 -F -C -n 10 -d "$BASE/bad" --fault-phase file-create
expect_rc 2 "--fault-phase without a fault"
expect_in "$ERR" "no fault to place" "the lone --fault-phase's message"
# A phase the job does not run (a create job's stat; a selection without files): its fault would never be
# injected, and a failover gate would pass without the failover. Refused, in any spelling of the selection.
run 0 -F -C -n 10 -d "$BASE/bad" --fault-at 1 --fault-cmd true --fault-phase file-stat
expect_rc 2 "--fault-phase of a phase the create job does not run"
expect_in "$ERR" "--fault-phase file-stat: this run has no file-stat phase, so its fault would never be injected (the run's phases: tree-create, file-create)" \
  "the missing phase's message names the run's phases"
run 0 -D -n 10 -d "$BASE/bad" --fault-at 1 --fault-cmd true --fault-phase file-create --fault-phase dir-stat
expect_rc 2 "--fault-phase file-create with -D"
expect_in "$ERR" "this run has no file-create phase" "-D's runs have no file phases"
expect_absent "$BASE/bad/mdbench.iter.0" "the refused runs made nothing"
finish
