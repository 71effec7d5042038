#!/usr/bin/env bash
# mdbench import of every output a site has (real runs of the tools, tests/fixtures/import/README.md):
# IOR's text output, md-workbench, an IO500 result directory, mdtest -Z and --showRankStatistics; the file
# validated, read back with h5py, and exported to CSV (an import-only file: its rows) and JSON.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3
FIX=$E2E_DIR/../fixtures/import
f=$BASE/imports.h5

run 0 import "$FIX/ior-4.1-real-text-n2.txt" "$FIX/md-workbench-4.1-real-n2.txt" "$FIX/io500-real-logs-dir" \
  "$FIX/mdtest-4.1-real-Z-files-n2.txt" "$FIX/mdtest-4.1-real-rankstats-n2.txt" "$FIX/mdtest-4.1-real-sweep-n4.txt" \
  -o "$f"
expect_rc 0 "import every kind of output"
expect_in "$OUT" "ior-4.1-real-text-n2.txt: ior 4.1.0+dev, 2 rows: read, write at 2" "IOR text"
expect_in "$OUT" "md-workbench-4.1-real-n2.txt: md-workbench 4.1.0+dev, 7 rows" "md-workbench"
expect_in "$OUT" "io500-real-logs-dir/result_summary.txt: io500 io500-sc24_v1 (standard), 2 rows" "IO500 bandwidth"
expect_in "$OUT" "io500-real-logs-dir/mdtest-easy-stat.txt: mdtest 4.1.0+dev, 1 rows: File stat at 2" "IO500 log"
expect_in "$OUT" "mdtest-4.1-real-Z-files-n2.txt: mdtest 4.1.0+dev, 4 rows" "mdtest -Z"
run 0 validate "$f"
expect_rc 0 "the imports validate"

# The file read back with h5py: the optional tables and every import's tool and command line.
"$py" - "$f" >"$BASE/h5.txt" 2>&1 <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    for kind in ("datapath", "metadata-imports"):
        for name, g in f[kind].items():
            print(kind, name, g.attrs["tool"], g.attrs["source"].split("/")[-1], len(g["results"]),
                  "command_line" if g.attrs["command_line"] else "-")
            for table in ("rank_statistics", "latency"):
                if table in g:
                    rows = g[table][()]
                    results = g["results"][()]
                    for r in rows:
                        op = results[r["row"]]["operation"].decode()
                        values = [round(float(r[n]), 3) for n in r.dtype.names[1:]]
                        print(table, op, *values)
PY
h5=$BASE/h5.txt
expect_in "$h5" "rank_statistics Directory creation 194541.002 162632.959 175589.492" "per-rank columns stored"
expect_in "$h5" "rank_statistics File read 502311.856 23256.468 314981.145" "per-rank columns of each row"
expect_in "$h5" "latency precreate 10967.0 15020.0 66042.0 66042.0" "md-workbench latency in ns"
expect_in "$h5" "latency benchmark stat 3099.4 4053.1 51975.0 51975.0" "the larger of two iterations"
expect_in "$h5" "metadata-imports import-0001 io500 result_summary.txt 3 command_line" "IO500 kIOPS phases"
expect_in "$h5" "datapath import-0003 ior ior-easy-read.txt 1 command_line" "IO500's ior logs"
expect_eq "$(grep -c ' command_line$' "$h5")" "$(grep -c '^datapath\|^metadata' "$h5")" "every import keeps its command line"

# CSV of an import-only file: the header and one row per imported row.
run 0 export "$f" --format csv -o "$BASE/i.csv"
expect_rc 0 "export csv"
"$py" - "$BASE/i.csv" >"$BASE/csv.txt" 2>&1 <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print("rows", len(rows))
for r in rows:
    print("|".join(r[k] for k in ("tool", "operation", "ranks", "sweep_step", "ops_per_s_mean", "mib_per_s_mean",
                                  "per_rank_ops_per_s_max", "p99_ns")))
PY
c=$BASE/csv.txt
# 2 IOR + 7 md-workbench + 2 + 3 IO500 + 2 + 5 rows of its logs + 4 -Z + 10 ranks + 40 sweep
expect_in "$c" "rows 75" "one CSV row per imported row"
expect_in "$c" "ior|write|2||4873.68|304.61||" "IOR text row, empty where unknown"
expect_in "$c" "md-workbench|cleanup|2||272694.7|||32902" "md-workbench row with its p99"
expect_in "$c" "mdtest|Directory creation|2||340984.477||194541.002|" "per-rank max exported"
expect_in "$c" "mdtest|File creation|3|3|" "sweep step of the 3-rank block"
expect_in "$c" "io500|ior-easy-write [INVALID]|2|||137.090048||" "IO500's verdict kept"
expect_not_in "$c" "|0||" "no rate of 0"

run 0 export "$f" --format json -o "$BASE/i.json"
expect_rc 0 "export json"
expect_in "$BASE/i.json" '"per_rank_ops_per_s_mean": 175589.492' "JSON: rank statistics"
expect_in "$BASE/i.json" '"p50_ns": 10967' "JSON: latency"

# Refused, with the reason, nothing written.
run 0 import "$FIX/mdtest-4.1-real-Z-n1.txt" -o "$BASE/z.h5"
expect_rc 1 "-Z with times of 0.000"
expect_in "$ERR" "every time 0.000 (phases under 0.5 ms or not run): rates cannot be derived" "says why"
expect_absent "$BASE/z.h5" "nothing written"
run 0 import "$FIX/ior-4.1-real-text-n2.txt" --format io500 -o "$BASE/x.h5"
expect_rc 1 "--format io500 on a file"
expect_in "$ERR" "not a directory holding result_summary.txt" "names what is missing"
# A result_summary.txt that is a link is not followed: the directory is not an IO500 result directory.
mkdir "$BASE/linked"
ln -s "$FIX/io500-real-logs-dir/result_summary.txt" "$BASE/linked/result_summary.txt"
run 0 import "$BASE/linked" -o "$BASE/l.h5"
expect_rc 1 "summary through a link"
expect_in "$ERR" "linked: a directory, and not an IO500 result directory (no regular file result_summary.txt in it)" \
  "the directory refused"
expect_absent "$BASE/l.h5" "nothing written"
# Any other directory is named as one, with what an IO500 directory needs.
mkdir "$BASE/empty"
run 0 import "$BASE/empty" -o "$BASE/e.h5"
expect_rc 1 "an empty directory"
expect_in "$ERR" "empty: a directory, and not an IO500 result directory" "says what it is"
expect_absent "$BASE/e.h5" "nothing written"
finish
