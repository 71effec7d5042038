#!/usr/bin/python3
"""Reads an mdbench results file with h5py (the HDF5 C library underneath) and checks it value by value
against what the same run printed on the console, and against the workload's exact counts.

usage: check_results.py FILE.h5 STDOUT.txt RANKS ITEMS TREE_DIRS_PER_TREE UNIQUE(0|1) ITERATIONS
Prints one line per problem and exits 1 if there was any; prints the number of checks made otherwise.
"""
import sys

import h5py

path, stdout_path = sys.argv[1], sys.argv[2]
ranks, items, tree_dirs, unique, iterations = (int(a) for a in sys.argv[3:8])
problems = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        problems.append(what)


def close(a, b, tol):
    return abs(a - b) <= tol


stdout = open(stdout_path).read().splitlines()
# "  done: iteration I PHASE OPS ops RATE ops/s TIME s FAILED failed"
done = {}
for line in stdout:
    w = line.split()
    if len(w) >= 11 and w[0] == "done:":
        done[(int(w[2]), w[3])] = (int(w[4]), float(w[6]), float(w[8]), int(w[10]))
# summary rows: phase ops/iter mean max min stddev rankmin rankmax balance failed
table = {}
for line in stdout:
    w = line.split()
    if len(w) == 10 and w[0].count("-") == 1 and w[0].split("-")[0] in ("tree", "dir", "file"):
        try:
            table[w[0]] = [float(x) for x in w[1:]]
        except ValueError:
            pass

f = h5py.File(path, "r")
check(f.attrs["schema"] == "mdbench-results", "schema name")
check(f.attrs["schema_version"] == 10, "schema version")
runs = sorted(f["runs"].keys())
run = f["runs"][runs[-1]]
a = run.attrs
check(a["ranks"] == ranks, f"ranks {a['ranks']}")
check(a["status"] == "complete" and a["exit_status"] == 0, f"status {a['status']} {a['exit_status']}")
check(len(run["hosts"]) == ranks and len(run["node_of_rank"]) == ranks, "hosts per rank")
check(a["nodes"] == 1 and a["ranks_per_node_max"] == ranks, "one node here")
check(a["end_utc"].endswith("Z") and a["start_utc"] <= a["end_utc"], "times")
check(run["config"].attrs["items"] == items, "config items")
# Schema 6: the syscall style (default full paths, as mdtest), the backend, barrier-timed phases.
check((a["path_style"], a["api"], int(a["barrier_timed"])) == ("full", "POSIX", 1),
      f"path_style/api/barrier_timed {a['path_style']} {a['api']} {a['barrier_timed']}")
c = run["config"].attrs
# No phase letter: mdtest's phases, its directory rename included (no file rename: mdtest has none).
flags = tuple(int(c[k]) for k in ("phase_create", "phase_stat", "phase_read", "phase_rename", "phase_remove",
                                  "phase_file_rename"))
check(flags == (1, 1, 1, 1, 1, 0), f"config phase flags {flags}")
default_phases = {"tree-create", "tree-remove", "file-read", "dir-rename"} | {
    f"{kind}-{op}" for kind in ("dir", "file") for op in ("create", "stat", "remove")}
check(len(run["iterations"]) == iterations, "iteration groups")

seen = 0
for it_name, it in run["iterations"].items():
    i = int(it.attrs["iteration"])
    check(set(it.keys()) == default_phases, f"{it_name} phases {sorted(it.keys())}")
    for name, phase in it.items():
        seen += 1
        pa = phase.attrs
        rows = phase["ranks"][()]
        tree = name.startswith("tree-")
        for r, row in enumerate(rows):
            if tree:
                want = tree_dirs if (unique or r == 0) else 0
            else:
                want = items
            check(row["rank"] == r, f"{name} row {r} rank")
            check(row["planned"] == want and row["ok"] == want and row["failed"] == 0,
                  f"{it_name}/{name} rank {r}: planned {row['planned']} ok {row['ok']} want {want}")
        check(pa["ops_ok"] == sum(int(x["ok"]) for x in rows), f"{name} ops_ok sum")
        check(int(phase["latency"][()].sum()) == pa["ops_ok"], f"{name} histogram count")
        t = max(x["t_global_end"] - x["t_start"] for x in rows)
        check(close(pa["time_s"], t, 1e-12), f"{name} time_s")
        check(close(pa["ops_per_s"], pa["ops_ok"] / t, 1e-6 * pa["ops_per_s"]), f"{name} ops_per_s")
        ops, rate, secs, failed = done[(i, name)]
        check(ops == pa["ops_ok"] + pa["ops_failed"], f"{name} console ops {ops}")
        check(close(rate, pa["ops_per_s"], 0.051), f"{name} console rate {rate} vs {pa['ops_per_s']}")
        check(close(secs, pa["time_s"], 0.0006), f"{name} console time {secs} vs {pa['time_s']}")
        check(failed == pa["ops_failed"], f"{name} console failed")
check(seen == len(done), f"phases in file {seen}, on console {len(done)}")

for name, s in run["summary"].items():
    sa = s.attrs
    row = table[name]
    check(sa["iterations"] == iterations, f"summary {name} iterations")
    for col, key in ((1, "ops_per_s_mean"), (2, "ops_per_s_max"), (3, "ops_per_s_min"), (4, "ops_per_s_stddev")):
        check(close(row[col], sa[key], 0.051), f"summary {name} {key}: console {row[col]} file {sa[key]}")
    check(row[8] == 0, f"summary {name} failed")
check(len(run["summary"]) == len(table), "summary rows")

for p in problems:
    print("PROBLEM:", p)
print(f"{checks} checks, {len(problems)} problems")
sys.exit(1 if problems else 0)
