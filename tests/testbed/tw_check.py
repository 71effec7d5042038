#!/usr/bin/python3
"""Checks one run of an mdbench results file from the test bed against expectations given as KEY=VALUE.

usage: tw_check.py FILE.h5 [run=INDEX] [KEY=VALUE ...]
  run=I               the I-th run group in name order (default: the last; negative counts from the end)
  ranks= nodes= status= exit_status= ...   a run attribute (any name; `attr.NAME=` spells it explicitly)
  hosts=a,b,..        the host of each rank, in rank order;  node_of_rank=0,0,1,1 likewise
  config.NAME=V       a config attribute
  phases=a,b,..       exactly these phase groups in every iteration
  PHASE=N             the phase's ops_ok summed over the iterations (tree-create, file-stat, ...)
  PHASE.rank=N,N,..   each rank's ok in the phase, in rank order (iteration 0)
  wearout=PHASE       every rank's ok is the same and some rank's stonewall fired (iteration 0)
  same=PHASE,PHASE2   both phases' ops_ok are equal (iteration 0), e.g. what a stonewalled create made and
                      what the remove removed
  steady.PART.NAME=V  an attribute of iterations/iter-0000/steady/PART (precreate, mix, cleanup)
  mix=DATASETS        the mix's stats, reads, deletes and creates each rounds x DATASETS x ranks
Always: no failed operation in any phase or steady part. Prints one line per problem and exits 1 if there
was any; otherwise one line with every phase's ops/s (iteration 0) for the test's log.
"""
import sys

import h5py


def text(v):
    if isinstance(v, bytes):
        return v.decode()
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, bytes):
        return v.decode()
    return str(v)


def main(argv):
    path, want = argv[1], [a.split("=", 1) for a in argv[2:]]
    problems = []
    f = h5py.File(path, "r")
    names = sorted(f["runs"].keys())
    pick = dict(want).get("run")
    run = f["runs"][names[int(pick) if pick is not None else -1]]
    iters = [run["iterations"][k] for k in sorted(run["iterations"].keys())]

    def expect(got, value, what):
        if text(got) != value:
            problems.append(f"{what}: {text(got)}, expected {value}")

    for it in iters:
        for name, g in it.items():
            if name == "steady":
                for part, p in g.items():
                    if p.attrs["failed"] != 0:
                        problems.append(f"{it.name}/steady/{part}: {p.attrs['failed']} failed ops")
            elif g.attrs["ops_failed"] != 0:
                problems.append(f"{it.name}/{name}: {g.attrs['ops_failed']} failed ops")
    first = iters[0]
    for key, value in want:
        if key == "run":
            continue
        if key in ("hosts", "node_of_rank"):
            expect(",".join(text(h) for h in run[key][()]), value, key)
        elif key.startswith("config."):
            expect(run["config"].attrs[key[7:]], value, key)
        elif key == "phases":
            for it in iters:
                expect(",".join(sorted(it.keys())), ",".join(sorted(value.split(","))), f"{it.name} phases")
        elif key == "wearout":
            oks = [int(r["ok"]) for r in first[value]["ranks"][()]]
            fired = [float(r["t_stonewall"]) > 0 for r in first[value]["ranks"][()]]
            if len(set(oks)) != 1 or not any(fired):
                problems.append(f"{value}: ranks' ok {oks}, stonewall fired {fired}: no wear-out to one count")
        elif key == "same":
            a, b = value.split(",")
            expect(first[b].attrs["ops_ok"], text(first[a].attrs["ops_ok"]), f"{b} ops_ok against {a}'s")
        elif key == "mix":
            m = first["steady"]["mix"].attrs
            want = int(m["rounds"]) * int(value) * int(run.attrs["ranks"])
            for op in ("stat", "read", "delete", "create"):
                expect(m[f"{op}_ok"], str(want), f"mix {op}_ok ({m['rounds']} rounds)")
        elif key.startswith("steady."):
            part, attr = key[7:].split(".", 1)
            expect(first["steady"][part].attrs[attr], value, key)
        elif key.endswith(".rank"):
            expect(",".join(text(r["ok"]) for r in first[key[:-5]]["ranks"][()]), value, key)
        elif key.count("-") == 1 and key.split("-")[0] in ("tree", "dir", "file"):
            got = [it[key].attrs["ops_ok"] for it in iters if key in it]
            if len(got) != len(iters):
                problems.append(f"{key}: in {len(got)} of {len(iters)} iterations")
            expect(sum(int(g) for g in got), value, f"{key} ops_ok")
        else:
            expect(run.attrs[key[5:] if key.startswith("attr.") else key], value, key)
    for p in problems:
        print(f"{path} ({run.name}): {p}")
    if not problems:
        phases = sorted((g.attrs["order"], n, g) for n, g in first.items() if n != "steady")
        rates = [f"{n} {g.attrs['ops_per_s']:.0f}" for _, n, g in phases]
        rates += [f"{n} {g.attrs['ok_per_s']:.0f}" for n, g in first.get("steady", {}).items()]
        print(f"{run.name} ops/s: " + ", ".join(rates))
    return 1 if problems else 0


sys.exit(main(sys.argv))
