#!/usr/bin/env bash
# Issue 29 items 5 and 7: a phase too short to time (fewer than 10 ops per rank or under 10 ms: model's
# rate_timing.hpp) is marked wherever its rate is shown, on the real binary under mpiexec with 2 ranks:
# - the console's phase lines end with "too short: N ops (P per rank) in T"; its summary and first/last-done
#   tables keep their rows' fields and have the mark on the line under the row; one legend line; a phase
#   long enough has no mark;
# - the sweep table: no efficiency ("-") for a step too short to time, a percentage otherwise, the mark under;
# - the mdtest console: its output line for line, then one note naming the rows too short to time;
# - export: phase_too_short (CSV, last column) and too_short (JSON, per phase and summary row);
# - check: a rate rule on such a phase is NO-DATA ("too short to time: ..."; JUnit type no-data), judged
#   with --allow-short; a latency rule on it is judged; a rule on a timed phase is judged;
# - report: the timeline charts leave such a phase out; the first/last-done table marks it "not charted";
#   the server counters' section marks the rate beside the counters.
# Counts are chosen so that "too short" never depends on the machine's speed: -z 1 -b 3 -I 2 is 4 tree
# directories and 8 items per rank (under 10 per rank), and --run-cmd-after-phase 'sleep 0.03' (inside the
# timed region) makes a phase of 20 items per rank last over 10 ms.
# Usage: e2e_short_phases.sh [shm|disk]  (needs MDBENCH and MPIEXEC).
source "$(dirname "$0")/lib.sh" "$@"

LEGEND="too short: fewer than 10 ops per rank or under 10 ms: such a rate is mostly the cost of one call"
# line_of PHASE: the phase's "done:" line (iteration 0); row_of PHASE: its summary row (the first table's);
# under_row PHASE: the line under that row; under_done PHASE: the line under its first/last-done row.
line_of() { grep -m1 "done: iteration 0 $1 " "$OUT"; }
row_of() { awk -v p="$1" '$1 == p && $2 ~ /^[0-9]+$/ { print; exit }' "$OUT"; }
under_row() { awk -v p="$1" 'f { print; exit } $1 == p && $2 ~ /^[0-9]+$/ { f = 1 }' "$OUT"; }
under_done() { awk -v p="$1" 'f { print; exit } /first done s/ { d = 1 } d && $1 == p { f = 1 }' "$OUT"; }
MARK="^             too short: "
expect_match() {  # expect_match TEXT REGEX WHAT
  if [[ $1 =~ $2 ]]; then pass; else fail "$3: '$1' does not match '$2'"; fi
}
expect_no_match() {
  if [[ $1 =~ $2 ]]; then fail "$3: '$1' matches '$2'"; else pass; fi
}

# --- A run of few items per rank: every phase too short to time, by its count.
run 2 -d "$BASE/few" -z 1 -b 3 -I 2 -o few.h5
expect_rc 0 "few items"
expect_match "$(line_of tree-create)" "   too short: 4 ops in [0-9.]+ (us|ms|s)$" "tree-create's line (rank 0 alone)"
expect_match "$(line_of dir-stat)" "   too short: 16 ops \(8 per rank\) in [0-9.]+ (us|ms|s)$" "dir-stat's line"
expect_match "$(row_of dir-stat)" " 0$" "dir-stat's summary row keeps its fields, the failed count last"
expect_match "$(under_row dir-stat)" "${MARK}16 ops \(8 per rank\) in [0-9.]+ (us|ms|s)$" "under dir-stat's summary row"
expect_match "$(under_done file-read)" "${MARK}16 ops \(8 per rank\) in " "under file-read's first/last-done row"
expect_eq "$(grep -c "^too short: " "$OUT")" 1 "one legend line"
expect_in "$OUT" "$LEGEND" "the legend"

# Export: every phase of this run is too short.
run 0 export few.h5 --format csv -o few.csv
expect_rc 0 "export csv"
expect_eq "$(head -1 few.csv | awk -F, '{ print $NF }')" phase_too_short "CSV header's last column"
expect_eq "$(tail -n +2 few.csv | awk -F, '{ print $NF }' | sort -u | tr '\n' ' ')" "1 " "CSV: every row marked"
run 0 export few.h5 --format json -o few.json
expect_rc 0 "export json"
expect_eq "$(python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
print(sorted({p["too_short"] for p in run["phases"]}), sorted({s["too_short"] for s in run["summary"]}))
' few.json)" "[True] [True]" "JSON: every phase and summary row marked"

# Check: rates are no data unless --allow-short; the latency of the same phase is judged.
run 0 check few.h5 --require 'dir-stat>=1' --require 'dir-stat.p99<=10s' --junit few-junit.xml
expect_rc 3 "check on a phase too short to time"
expect_in "$OUT" "NO-DATA  [few] dir-stat>=1: dir-stat at 2 ranks in few.h5: too short to time: 16 ops (8 per rank) in" \
  "check's NO-DATA names the counts"
expect_in "$OUT" "(fewer than 10 ops per rank or under 10 ms; --allow-short judges it)" "check says how to judge it"
expect_in "$OUT" "PASS  [few] dir-stat p99 at 2 ranks:" "a latency rule is judged"
expect_in "$OUT" "1 of 2 checks passed (1 without data)" "check's summary"
expect_in few-junit.xml 'type="no-data"' "JUnit: no-data"
run 0 check few.h5 --allow-short --require 'dir-stat>=1'
expect_rc 0 "check --allow-short"
expect_in "$OUT" "(too short to time: 16 ops (8 per rank) in" "--allow-short still says so"
expect_in "$OUT" "; judged by --allow-short)" "--allow-short's verdict names the option"
run 0 check --help
expect_in "$OUT" "--allow-short" "check --help lists --allow-short"

# --- The issue's command (-z 2 -b 3 -I 10): 13 tree directories, 130 items per rank, all in a few ms.
run 2 -d "$BASE/issue" -z 2 -b 3 -I 10 -o issue.h5
expect_rc 0 "the issue's command"
expect_match "$(under_row tree-create)" "${MARK}13 ops in [0-9.]+ (us|ms)$" "under tree-create's summary row"

# --- The default run: its tree-create is one mkdir.
run 2 -d "$BASE/default" -o default.h5
expect_rc 0 "the default run"
expect_match "$(under_row tree-create)" "${MARK}1 op in [0-9.]+ (us|ms|s)$" "under the default tree-create's row"
expect_match "$(line_of tree-create)" "   too short: 1 op in " "default tree-create's line"

# --- Phases long enough: 20 files per rank, each phase over 30 ms; the one-mkdir tree phases stay marked.
run 2 -d "$BASE/timed" -n 20 -F --run-cmd-after-phase='sleep 0.03' -o timed.h5
expect_rc 0 "timed run"
expect_no_match "$(line_of file-create)" "too short" "file-create's line is not marked"
expect_no_match "$(under_row file-stat)" "too short" "file-stat's summary row is not marked"
expect_match "$(under_row tree-remove)" "${MARK}1 op in " "under tree-remove's summary row"
run 0 export timed.h5 --format csv -o timed.csv
expect_eq "$(awk -F, '$3 == "file-create" { print $NF }' timed.csv | sort -u | tr '\n' ' ')" "0 " "CSV: file-create timed"
expect_eq "$(awk -F, '$3 == "tree-create" { print $NF }' timed.csv | sort -u | tr '\n' ' ')" "1 " "CSV: tree-create marked"
run 0 check timed.h5 --require 'file-create>=1' --require 'tree-create>=1'
expect_rc 3 "check on the timed run"
expect_in "$OUT" "PASS  [timed] file-create at 2 ranks:" "a timed phase is judged"
expect_in "$OUT" "NO-DATA  [timed] tree-create>=1: tree-create at 2 ranks in timed.h5: too short to time: 1 op in" \
  "the one-mkdir phase is no data"

# Report: the timeline leaves the tree phases out; the first/last-done table says so.
run 0 report timed.h5 -d rep
expect_rc 0 "report"
timeline=$(find rep -name 'timeline-*.svg' | head -1)
if [ -n "$timeline" ]; then pass; else fail "no timeline chart in rep/"; fi
expect_in "$timeline" ">file-create<" "the timeline charts file-create"
expect_not_in "$timeline" ">tree-create<" "the timeline leaves tree-create out"
expect_in "$OUT" "(too short: 1 op in" "report's done table marks tree-create"
expect_in "$OUT" ", not charted)" "report's done table says it is not charted"

# The report's server counters (a command source): the counters stand, the rate beside them is marked.
run 2 -d "$BASE/server" -n 20 -F --server-stats 'cmd:echo mds.req 5' -o server.h5
expect_rc 0 "a run with --server-stats"
run 0 report server.h5
expect_rc 0 "report with server counters"
expect_match "$(awk '/^Metadata server counters/ { f = 1 } f && $1 == "tree-create" { print; exit }' "$OUT")" \
  " ops/s +1 ops   too short: 1 op in " "the server section marks tree-create's rate"

# --- The steady state: each phase's "all" row has the mark under it when the phase was too short.
run 2 --steady 5 --datasets 2 -n 20 -w 100 -d "$BASE/steady" -o steady.h5
expect_rc 0 "steady state"
expect_match "$(awk 'f { print; exit } $1 == "mix" && $2 == "all" { f = 1 }' "$OUT")" "${MARK}80 ops \(40 per rank\) in " \
  "steady: the mark under the mix's all row"
expect_in "$OUT" "$LEGEND" "steady: the legend"
# The export marks the steady phases as it marks the others: the steady CSV table's last column, the JSON's
# too_short in each steady phase (the mix here is too short: 40 ops per rank, far under 10 ms or not).
run 0 export steady.h5 --format csv -o steady.csv
expect_rc 0 "steady export csv"
expect_eq "$(head -1 steady.csv | awk -F, '{ print $NF }')" phase_too_short "steady CSV header's last column"
expect_eq "$(awk -F, '$3 == "mix" { print $NF }' steady.csv | sort -u)" 1 "steady CSV: the mix's rows marked"
run 0 export steady.h5 --format json -o steady.json
expect_rc 0 "steady export json"
expect_eq "$(python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
marks = {p["phase"]: p["too_short"] for it in run["steady"] for p in it["phases"]}
print(sorted(marks), marks["mix"], all(isinstance(m, bool) for m in marks.values()))' steady.json)" \
  "['cleanup', 'mix', 'precreate'] True True" "steady JSON: too_short in every phase, the mix's true"

# --- The mdtest console: mdtest's lines unchanged, then mdbench's note.
run 2 --output mdtest -d "$BASE/mdtest" -z 1 -b 3 -I 2 -o mdtest.h5
expect_rc 0 "mdtest console"
expect_match "$(grep -m1 '^   Tree creation' "$OUT")" "^   Tree creation +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$" \
  "mdtest's Tree creation row is as mdtest prints it"
expect_not_in "$OUT" "   Directory stat      too short" "no mark inside mdtest's rows"
# mdtest's stream (stdout) ends at '-- finished at'; the note is one of mdbench's own lines (stderr).
expect_eq "$(sed -n '/^-- finished at/,$p' "$OUT" | sed 1d | tr -d '\n')" "" "nothing after -- finished at on stdout"
expect_in "$ERR" "note:     rates of phases too short to time" "the note on standard error"
expect_in "$ERR" "Directory stat (too short: 16 ops (8 per rank) in" "the note names Directory stat"
expect_in "$ERR" "; Tree creation (too short: 4 ops in" "the note names Tree creation"

# --- The sweep table: a step too short to time has no efficiency; a timed phase has one.
run 2 --sweep 1,2 -d "$BASE/sweep" -n 20 -F --run-cmd-after-phase='sleep 0.03' -o sweep.h5
expect_rc 0 "sweep"
# sweep_row PHASE STEP [1]: the sweep table's row (with 1: the line under it).
sweep_row() {
  awk -v p="$1" -v s="$2" -v u="${3:-0}" 'g { print; exit } f && $1 == p && $2 == s { if (u) g = 1; else { print; exit } }
    /^sweep: 2 steps/ { f = 1 }' "$OUT"
}
expect_match "$(sweep_row tree-create 2 1)" "${MARK}1 op in " "sweep: the mark under tree-create's row"
expect_match "$(sweep_row tree-create 2)" "^tree-create +2 +2 +1 +[0-9.]+ +[0-9.]+ +- +0$" \
  "sweep: tree-create has no efficiency"
expect_match "$(sweep_row file-create 2)" "^file-create +2 +2 +1 +[0-9.]+ +[0-9.]+ +[0-9.]+% +0$" \
  "sweep: file-create has its efficiency"
expect_in "$OUT" "-: this step's or the first step's phase was too short to time" "sweep's footnote"

finish
