#!/usr/bin/env bash
# How the time mdbench spends outside its phases grows with the rank count, on tmpfs. For each P and each
# repetition, interleaved (which goes first alternates):
#   mpiexec -n P python3 bench/rusage.py OUT mdbench -u -n 100 -d DIR -o FILE --force
#   mpiexec -n P python3 bench/rusage.py OUT mdbench --version     (MPI_Init + MPI_Finalize: the baseline)
# Rank 0's wall time comes from rusage.py; the phases' times from rank 0's row of each phase's `ranks` table
# in the results file. Per run:
#   phases   sum over the phases of t_global_end - t_start (barrier to barrier)
#   gaps     sum over consecutive phases of the next t_start - the previous t_global_end: collecting the phase
#            (gather of the 80-byte records, reduce of the histogram), rank 0's write of it, the stop-signal
#            allreduce (and shareTaken's allreduce after a create phase), the next phase's opening barrier
#   rest     wall - (phases + gaps): start-up (MPI_Init, placement, planning, opening the results file, the
#            first barriers), the last phase's collection and write, cleanup, closing the file, MPI_Finalize
#   own      rest - the median --version wall at that P: mdbench's start-up and finish beyond MPI's
#   barrier  one MPI_Barrier at P, estimated by the tree phases (one mkdir or rmdir, then the closing
#            barrier): the median of their durations
# Prints the medians per P, then `mdbench_results_bench --synthetic` (rank 0's results path at 1e3-1e5 ranks).
#   MDBENCH_BUILD_DIR=DIR bench/scale.sh [REPS] [RANKS] [DIR] [SYNTHETIC]
#   defaults: build/, 3, 1,2,4,8,16, /dev/shm, 1000,10000,100000 ("none": skip the synthetic runs)
# Reading the results needs h5py: PYTHON=..., else the first of python3 and /usr/bin/python3 that has it.
set -euo pipefail
reps=${1:-3}
ranks_list=${2:-1,2,4,8,16}
parent=${3:-/dev/shm}
synthetic=${4:-1000,10000,100000}
here=$(cd "$(dirname "$0")" && pwd)
build=${MDBENCH_BUILD_DIR:-$here/../build}
for binary in "$build/mdbench" "$build/bench/mdbench_results_bench"; do
  if [[ ! -x $binary ]]; then
    echo "scale.sh: no $binary (set MDBENCH_BUILD_DIR to a build directory)" >&2
    exit 2
  fi
done
py=${PYTHON:-}
if [[ -z $py ]]; then
  for candidate in python3 /usr/bin/python3; do
    if "$candidate" -c 'import h5py, numpy' 2>/dev/null; then
      py=$candidate
      break
    fi
  done
fi
if [[ -z $py ]]; then
  echo "scale.sh: no python3 with h5py and numpy (set PYTHON)" >&2
  exit 2
fi
work=$(mktemp -d "$parent/mdbench-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
export HYDRA_LAUNCHER=${HYDRA_LAUNCHER:-fork} HYDRA_RMK=${HYDRA_RMK:-user}

launch() {  # launch RANKS LOG CMD...: a failing run ends the script with its output
  local ranks=$1 log=$2
  shift 2
  mpiexec -n "$ranks" python3 "$here/rusage.py" "$@" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
}
version() {  # version P REP
  launch "$1" "$work/log" "$work/ver-$1-$2" "$build/mdbench" --version
}
bench() {  # bench P REP
  launch "$1" "$work/log" "$work/run-$1-$2" "$build/mdbench" -u -n 100 -d "$work/t" -o "$work/run-$1-$2.h5" \
    --force
}

mkdir "$work/t"
IFS=, read -r -a ranks <<<"$ranks_list"
for p in "${ranks[@]}"; do
  for ((rep = 1; rep <= reps; rep++)); do
    if ((rep % 2 == 1)); then
      version "$p" "$rep"
      bench "$p" "$rep"
    else
      bench "$p" "$rep"
      version "$p" "$rep"
    fi
  done
done

"$py" - "$work" "$reps" "${ranks[@]}" <<'EOF'
import statistics
import sys

import h5py

work, reps, ranks = sys.argv[1], int(sys.argv[2]), [int(p) for p in sys.argv[3:]]
med = statistics.median


def wall(prefix):
    with open(f"{prefix}.0", encoding="ascii") as f:
        return float(f.read().split()[2])


def analyse(p, rep):
    prefix = f"{work}/run-{p}-{rep}"
    with h5py.File(f"{prefix}.h5", "r") as f:
        iteration = f["runs/run-0000/iterations/iter-0000"]
        names = sorted(iteration, key=lambda name: int(iteration[name].attrs["order"]))
        rows = {name: iteration[name]["ranks"][0] for name in names}
    start = [float(rows[n]["t_start"]) for n in names]
    end = [float(rows[n]["t_global_end"]) for n in names]
    durations = [e - s for s, e in zip(start, end)]
    gaps = [s - e for e, s in zip(end, start[1:])]
    tree = [d for n, d in zip(names, durations) if n.startswith("tree-")]
    w = wall(prefix)
    return {
        "wall": w,
        "phases": sum(durations),
        "gaps": sum(gaps),
        "per_gap": sum(gaps) / len(gaps),
        "rest": w - sum(durations) - sum(gaps),
        "barrier": med(tree),
        "count": len(names),
    }


print(f"mdbench -u -n 100 on tmpfs, rank 0, median of {reps} runs per P (times in s unless marked ms)")
header = ("P", "phases", "wall", "--version", "in phases", "outside (min-max)", "gaps", "per gap ms",
          "barrier ms", "gap / barrier", "outside / barrier", "rest", "own = rest - --version")
print("| " + " | ".join(header) + " |")
print("|" + "---:|" * len(header))
for p in ranks:
    runs = [analyse(p, rep) for rep in range(1, reps + 1)]
    base = med(wall(f"{work}/ver-{p}-{rep}") for rep in range(1, reps + 1))
    m = {key: med(r[key] for r in runs) for key in runs[0]}
    outside = [r["wall"] - r["phases"] for r in runs]
    gap_ratio = med(r["per_gap"] / r["barrier"] for r in runs)
    outside_ratio = med((r["wall"] - r["phases"]) / r["barrier"] for r in runs)
    print(f"| {p} | {m['count']} | {m['wall']:.3f} | {base:.3f} | {m['phases']:.3f} | "
          f"{med(outside):.3f} ({min(outside):.3f}-{max(outside):.3f}) | {m['gaps']:.3f} | "
          f"{m['per_gap'] * 1e3:.2f} | {m['barrier'] * 1e3:.3f} | {gap_ratio:.1f} | {outside_ratio:.0f} | "
          f"{m['rest']:.3f} | {m['rest'] - base:.3f} |")
EOF

if [[ $synthetic != none ]]; then
  echo
  "$build/bench/mdbench_results_bench" --synthetic "$synthetic" --dir "$work"
fi
