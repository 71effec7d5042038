#!/usr/bin/env bash
# mdbench import and mdbench report end to end: a real sweep and real split runs as two configurations,
# IOR, IOzone and mdtest output imported beside them, the tables checked against the HDF5 files read with
# h5py, the SVG charts parsed for their series, points and labels, the throughput over time against the
# files' series, a file of schema version 4, PNGs checked, and the usage errors. Nothing the user had is
# ever overwritten.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3
FIX=$E2E_DIR/../fixtures/import
SVG="$py $E2E_DIR/check_svg.py"
target=$BASE/target
mkdir -p "$target"

svg_ok() {  # svg_ok WHAT FILE CHECKS...
  local what=$1
  shift
  if $SVG "$@" >"$BASE/svg.txt" 2>&1; then pass; else fail "$what: $(cat "$BASE/svg.txt")"; fi
}

# ---- Two configurations from real runs: a sweep in one file, and the same steps as two jobs ----
# 20000 items per rank: the file phases last long enough for a rate to be charted (10 ms), even a stat phase
# at 1M ops/s on a quiet tmpfs; the tree phases (1 directory per rank) never do.
run 2 -d "$target" -n 20000 -F -u -i 2 --file-rename --sweep 1,2 --series-interval 0.001 -o "$BASE/sweep.h5"
expect_rc 0 "sweep 1,2"
run 1 -d "$target" -n 20000 -F -u -i 2 --file-rename -o "$BASE/job1.h5"
expect_rc 0 "job at 1 rank"
run 2 -d "$target" -n 20000 -F -u -i 2 --file-rename -o "$BASE/job2.h5"
expect_rc 0 "job at 2 ranks"

run 0 report sweep="$BASE/sweep.h5" jobs="$BASE/job1.h5,$BASE/job2.h5" --baseline sweep -d "$BASE/out" --png
expect_rc 0 "report with a baseline"
expect_in "$OUT" "file-create: ops/s against ranks" "a table per phase"
expect_in "$OUT" "/ sweep" "ratio column to the baseline"
expect_in "$OUT" "wrote $BASE/out/report.md and" "the report says where it went"

# The table's means are the means over iterations of the files' aggregate rates (pooled over the two jobs).
if "$py" - "$BASE" "$OUT" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "table values: $(cat "$BASE/check.txt")"; fi
import re, sys, h5py, statistics
base, out = sys.argv[1], open(sys.argv[2]).read().splitlines()
def rates(files, phase):
    by_ranks = {}
    for path in files:
        f = h5py.File(path, "r")
        for run in f["runs"].values():
            for it in run["iterations"].values():
                if phase in it:
                    by_ranks.setdefault(int(run.attrs["ranks"]), []).append(float(it[phase].attrs["ops_per_s"]))
    return by_ranks
start = out.index("file-create: ops/s against ranks")
cells = lambda line: re.split(r"\s{2,}", line.strip())  # a latency cell is "3.46 us"
rows = [cells(out[start + 2]), cells(out[start + 3])]
sweep = rates([f"{base}/sweep.h5"], "file-create")
jobs = rates([f"{base}/job1.h5", f"{base}/job2.h5"], "file-create")
for row in rows:
    ranks = int(row[0])
    want_sweep = round(statistics.mean(sweep[ranks]))
    want_jobs = round(statistics.mean(jobs[ranks]))
    got_sweep, got_jobs = int(row[1].replace(",", "")), int(row[7].replace(",", ""))
    assert abs(got_sweep - want_sweep) <= 1, (ranks, got_sweep, want_sweep)
    assert abs(got_jobs - want_jobs) <= 1, (ranks, got_jobs, want_jobs)
    assert row[5] == "2" and row[11] == "2", row  # iterations: 2 per rank count in each configuration
    ratio = float(row[13])
    assert abs(ratio - want_jobs / want_sweep) < 0.006, (ratio, want_jobs / want_sweep)
print("ok")
PY

# Which counts are charted: those with 10 ops per rank or more and 10 ms or more from t_start to the slowest
# rank's last op (means over iterations, from the files), as the report says; the others are tabled only.
# Prints "PHASE SWEEP JOBS RELATIVE"; timeline.txt: per run, the phases of its first iteration so charted.
"$py" - "$BASE" >"$BASE/charted.txt" <<'PY'
import sys, h5py, statistics
base = sys.argv[1]
def size(group):
    a, rows = group.attrs, group["ranks"][:]
    times = [r["t_local_end"] - r["t_start"] for r in rows if r["planned"] > 0]
    return (max(times) if times else float(a["time_s"]), int(a["ops_ok"]) / max(int(a["active_ranks"]), 1))
def timed(t, o):
    return not ((0 < o < 10) or (0 < t < 0.01))
def charted(files, phase):
    by_ranks = {}
    for path in files:
        for run in h5py.File(path, "r")["runs"].values():
            for it in run["iterations"].values():
                if phase in it:
                    by_ranks.setdefault(int(run.attrs["ranks"]), []).append(size(it[phase]))
    ok = set()
    for ranks, samples in by_ranks.items():
        time = statistics.mean(t for t, _ in samples)
        ops = statistics.mean(o for _, o in samples)
        if timed(time, ops):
            ok.add(ranks)
    return ok
with open(f"{base}/timeline.txt", "w") as out:
    for name, path in [("sweep", "sweep.h5"), ("jobs-1", "job1.h5"), ("jobs-2", "job2.h5")]:
        for group, run in h5py.File(f"{base}/{path}", "r")["runs"].items():
            it = run["iterations"]["iter-0000"]
            n = sum(1 for p in it.values() if isinstance(p, h5py.Group) and "ranks" in p and timed(*size(p)))
            print(f"timeline-{name}-{group}", n, file=out)
for phase in ["tree-create", "file-create", "file-stat", "file-read", "file-rename", "file-remove", "tree-remove"]:
    s, j = charted([f"{base}/sweep.h5"], phase), charted([f"{base}/job1.h5", f"{base}/job2.h5"], phase)
    print(phase, len(s), len(j), len(s & j))
PY
panels=0
while read -r phase n_sweep n_jobs n_rel; do
  if ((n_sweep + n_jobs == 0)); then
    expect_absent "$BASE/out/$phase.svg" "$phase: too few ops for a rate, not charted"
    expect_in "$OUT" "too few for a rate; tabled, not charted" "$phase: the table says why"
    continue
  fi
  panels=$((panels + 1))
  # Two counts: no peak or saturation marks on a curve that short.
  svg_ok "$phase chart" "$BASE/out/$phase.svg" --points sweep="$n_sweep" --points jobs="$n_jobs" \
    --text "ranks" --text "$phase (ops/s)" --text "$phase: ops/s against ranks" --no-text "saturates at" \
    --no-text "peak "
  if ((n_rel > 0)); then
    svg_ok "$phase relative chart" "$BASE/out/$phase-relative.svg" --series jobs --points jobs="$n_rel" \
      --reference --text "baseline sweep" --text "$phase / baseline"
  fi
  if [ "$(head -c 8 "$BASE/out/$phase.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then pass; else
    fail "$phase.png is not a PNG"; fi
done <"$BASE/charted.txt"
if ((panels >= 4)); then pass; else fail "only $panels phases charted: $(cat "$BASE/charted.txt")"; fi
svg_ok "overview" "$BASE/out/overview.svg" --panels "$panels" --series sweep --series jobs
# One configuration, one colour and marker, in every chart of the report.
svg_ok "same looks in every chart" "$BASE"/out/*.svg --same-looks

# Throughput over time: one figure per run (the sweep's two steps; each job's file), a panel per phase (no
# phase letter: mdtest's phases, with --file-rename's).
# A phase too short to time (the tree phases' one mkdir) has no panel; the done table says so.
expect_in "$OUT" ", not charted)" "the done table: tree-create not charted over time"
for stem in timeline-sweep-run-0000 timeline-sweep-run-0001 timeline-jobs-1-run-0000 timeline-jobs-2-run-0000; do
  n_panels=$(awk -v s="$stem" '$1 == s { print $2 }' "$BASE/timeline.txt")
  if ((n_panels >= 3)); then pass; else fail "$stem: only '$n_panels' phases long enough to chart"; fi
  svg_ok "$stem" "$BASE/out/$stem.svg" --panels "$n_panels" --series "all ranks" --series "rank 0" \
    --text "since the phase started" --text "ops/s over time, iteration 0"
  expect_in "$BASE/out/report.md" "![$stem]($stem.svg)" "Markdown embeds $stem"
  if [ -s "$BASE/out/$stem.png" ]; then pass; else fail "$stem.png missing"; fi
done
svg_ok "2-rank step has a line per rank" "$BASE/out/timeline-sweep-run-0001.svg" --series "rank 1"
expect_in "$BASE/out/report.md" "## Throughput over time" "Markdown: the section"
expect_in "$OUT" "First-done and last-done rates (first iteration of each run):" "console: the done rates"
# The summed line is the sum of the rank lines at every moment (a finished rank adds nothing), and over
# time it adds up to the ops of the phase that the file holds.
for stem in timeline-sweep-run-0000 timeline-sweep-run-0001 timeline-jobs-1-run-0000 timeline-jobs-2-run-0000; do
  svg_ok "$stem: sum line" "$BASE/out/$stem.svg" --sum-of-ranks
done
"$py" - "$BASE/out/timeline-sweep-run-0001.svg" "$BASE/tampered.svg" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
at = svg.index('data-values="', svg.index('data-series="all ranks"')) + len('data-values="')
first = re.match(r"([^,]+),([^ ]+) ([^,]+),([^ ]+)", svg[at:])
wrong = float(first.group(2)) * 1.5 + 1000
svg = svg[:at] + f"{first.group(1)},{wrong} {first.group(3)},{wrong}" + svg[at + first.end():]
open(sys.argv[2], "w").write(svg)
PY
if $SVG "$BASE/tampered.svg" --sum-of-ranks >/dev/null 2>&1; then fail "a wrong sum line passes"; else pass; fi
if "$py" - "$BASE" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "timeline values: $(cat "$BASE/check.txt")"; fi
import sys, h5py
import xml.etree.ElementTree as ET
base = sys.argv[1]
ns = "{http://www.w3.org/2000/svg}"
phase = h5py.File(f"{base}/sweep.h5", "r")["runs/run-0001/iterations/iter-0000/file-create"]
total = sum(int(x) for x in phase["ops_per_interval_total"])
root = ET.parse(f"{base}/out/timeline-sweep-run-0001.svg").getroot()
panel = [g for g in root.iter(ns + "g") if g.get("class") == "panel" and g.get("data-title") == "file-create"][0]
line = [g for g in panel.iter(ns + "g") if g.get("data-series") == "all ranks"][0]
values = [tuple(map(float, v.split(","))) for v in line.find(ns + "polyline").get("data-values").split()]
unit = {"s": 1.0, "ms": 1e-3, "us": 1e-6}[[t.text for t in panel.iter(ns + "text") if "since the phase" in (t.text or "")][0].split()[0]]
ops = sum((values[i + 1][0] - values[i][0]) * unit * values[i][1] for i in range(0, len(values), 2))
assert abs(ops - total) <= 1e-6 * total, (ops, total)
assert total == int(phase.attrs["ops_ok"]), (total, phase.attrs["ops_ok"])
print("ok", total, "ops")
PY

# A file of schema version 4 (docs/example-report/, before throughput over time): the tables as before, a
# sentence instead of the charts.
run 0 report old="$E2E_DIR/../../docs/example-report/mdbench-tmpfs.h5" -d "$BASE/out-v4"
expect_rc 0 "report on a version 4 file"
expect_in "$OUT" "file-create: ops/s against ranks" "version 4: the tables"
expect_in "$OUT" "written before results schema version 5: no throughput over time was stored" "version 4: why no charts"
expect_in "$BASE/out-v4/report.md" "written before results schema version 5" "version 4: the sentence in Markdown"
if compgen -G "$BASE/out-v4/timeline-*" >/dev/null; then fail "version 4: a timeline chart was written"; else pass; fi
expect_in "$BASE/out/report.md" "![file-create](file-create.svg)" "Markdown embeds the charts"
expect_in "$BASE/out/report.md" "| ranks |" "Markdown tables"
expect_in "$BASE/out/report.md" "Ratios are to the baseline **sweep**" "Markdown names the baseline"

# Never overwritten without --force; with --force, replaced.
before=$(fingerprint "$BASE/out")
run 0 report "$BASE/sweep.h5" -d "$BASE/out"
expect_rc 2 "report into a directory with a report"
expect_in "$ERR" "report files exist in $BASE/out: report.md, file-create.svg," "names every file there, in one message"
expect_in "$ERR" ": use --force to replace them" "says why"
expect_eq "$(fingerprint "$BASE/out")" "$before" "existing report untouched"
run 0 report "$BASE/sweep.h5" -d "$BASE/out" --force
expect_rc 0 "report --force"
expect_absent "$BASE/out/sweep" "no stray files"

# ---- Imports beside the runs: IOR and IOzone (MiB/s against clients), mdtest (ops/s against ranks) ----
cp "$BASE/sweep.h5" "$BASE/combined.h5"
run 0 import "$FIX/ior-4.1-real-n1.json" "$FIX/ior-4.1-real-n2.json" "$FIX/iozone-3.471-real-l1-u2.txt" \
  -o "$BASE/combined.h5" --append
expect_rc 0 "import IOR and IOzone into the sweep's file"
expect_in "$OUT" "ior-4.1-real-n2.json: ior" "import says what it read"
expect_in "$OUT" "/datapath/import-0002" "three import groups"
run 0 import "$FIX/mdtest-4.1-real-plain-n2.txt" "$FIX/ior-4.1-real-n1.json" -o "$BASE/mdtest.h5"
expect_rc 0 "import mdtest (and IOR) into a new file"
expect_in "$OUT" "mdtest-4.1-real-plain-n2.txt: mdtest 4.1.0+dev, 10 rows: Directory creation" "mdtest line"
expect_in "$OUT" "-> $BASE/mdtest.h5 /metadata-imports/import-0000" "each input named with its own group"
expect_in "$OUT" "ior-4.1-real-n1.json: ior 4.1.0+dev, 2 rows: read, write at 1 -> $BASE/mdtest.h5 /datapath/import-0000" \
  "the IOR input with its group"
run 0 validate "$BASE/combined.h5" "$BASE/mdtest.h5"
expect_rc 0 "imported files validate"

run 0 report mdbench="$BASE/combined.h5" mdtest="$BASE/mdtest.h5" -d "$BASE/out2"
expect_rc 0 "report with imports"
expect_in "$OUT" "ior:write: MiB/s against clients" "IOR table"
expect_in "$OUT" "iozone:initial-write: MiB/s against clients" "IOzone table"
# The IOR import is labelled "mdbench" when pooled with the runs, "mdbench (ior)" when kept apart.
svg_ok "IOR write chart" "$BASE/out2/ior-write.svg" --series "mdbench*" --points "mdbench*=2" --text clients \
  --text "ior:write (GiB/s)" --no-text "k<"
svg_ok "mdtest beside mdbench" "$BASE/out2/file-create.svg" --series mdbench --series mdtest --points mdtest=1
svg_ok "same looks with imports" "$BASE"/out2/*.svg --same-looks
if "$py" - "$FIX/ior-4.1-real-n2.json" "$OUT" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "IOR value: $(cat "$BASE/check.txt")"; fi
import sys, json
doc = json.load(open(sys.argv[1]))
write = [s for s in doc["summary"] if s["operation"] == "write"][0]
out = open(sys.argv[2]).read().splitlines()
start = out.index("ior:write: MiB/s against clients")
row = [r.split() for r in out[start + 2:start + 4] if r.split()[0] == str(write["numTasks"])][0]
assert abs(float(row[1].replace(",", "")) - write["bwMeanMIB"]) < 0.051, (row, write["bwMeanMIB"])
print("ok")
PY
# The IOR import under the label "mdbench" is a configuration of its own unless --pool says otherwise.
run 0 report mdbench="$BASE/combined.h5"
expect_rc 0 "report of runs and imports under one label"
expect_in "$OUT" "mdbench (ior)" "the IOR import apart"
run 0 report mdbench="$BASE/combined.h5" --pool
expect_rc 0 "report --pool"
expect_not_in "$OUT" "mdbench (ior)" "--pool: one configuration"

# ---- Bad input: a clear message and a non-zero exit, nothing written ----
printf 'not a tool output\n' >"$BASE/garbage.txt"
run 0 import "$BASE/garbage.txt" -o "$BASE/never.h5"
expect_rc 1 "unrecognised input"
expect_in "$ERR" "garbage.txt: not recognised" "names the file"
expect_absent "$BASE/never.h5" "nothing written for a bad input"
head -c 700 "$FIX/ior-4.1-real-n2.json" >"$BASE/cut.json"
run 0 import --format ior "$BASE/cut.json" -o "$BASE/never.h5"
expect_rc 1 "truncated IOR JSON"
expect_in "$ERR" "cut.json:" "names the file and line"
expect_absent "$BASE/never.h5" "nothing written for a truncated input"
before=$(md5sum "$BASE/mdtest.h5")
run 0 import "$FIX/mdtest-4.1-real-plain-n2.txt" -o "$BASE/mdtest.h5"
expect_rc 2 "import onto an existing file without --append"
expect_eq "$(md5sum "$BASE/mdtest.h5")" "$before" "existing file untouched"
run 0 import "$FIX/mdtest-4.1-real-plain-n2.txt" "$BASE/garbage.txt" -o "$BASE/mdtest.h5" --append
expect_rc 1 "one bad input among good ones"
expect_eq "$(md5sum "$BASE/mdtest.h5")" "$before" "nothing appended when any input is bad"
run 0 import --format nope "$FIX/mdtest-4.1-real-plain-n2.txt" -o "$BASE/x.h5"
expect_rc 2 "unknown --format"

run 0 report "$BASE/missing.h5"
expect_rc 1 "report on a missing file"
expect_in "$ERR" "missing.h5" "names the file"
run 0 report "$BASE/garbage.txt"
expect_rc 1 "report on a file that is not a results file"
run 0 report a="$BASE/sweep.h5" a="$BASE/job1.h5"
expect_rc 2 "two configurations with one label"
run 0 report "$BASE/sweep.h5" --png
expect_rc 2 "--png without --out-dir"
run 0 report "$BASE/sweep.h5" --error-bars wide
expect_rc 2 "bad --error-bars"
touch "$BASE/afile"
run 0 report "$BASE/sweep.h5" -d "$BASE/afile"
expect_rc 2 "--out-dir onto a file"
run 2 report "$BASE/sweep.h5"
expect_rc 0 "report under mpiexec: rank 0 reports, the others wait"

finish
