#!/usr/bin/env bash
# Two mdbench builds side by side, interleaved, with more ranks than cores (the MPI waits' cost):
#   bench/oversubscribed.sh A B [-r ROUNDS] [-n RANKS] [-- MDBENCH OPTIONS]
# A and B are mdbench binaries. Each round runs each once on a tmpfs directory (default: 4 ranks, 20 files
# and directories per rank, 10 iterations: about 120 short phases, so the barriers and reductions between
# them dominate) and prints the wall time of each and B's time over A's; the last line is the median ratio.
set -euo pipefail
usage() { echo "usage: $0 A B [-r ROUNDS] [-n RANKS] [-- MDBENCH OPTIONS]" >&2; exit 2; }
[ $# -ge 2 ] || usage
a=$1 b=$2
shift 2
rounds=5 ranks=4
while [ $# -gt 0 ]; do
  case $1 in
    -r) rounds=$2; shift 2 ;;
    -n) ranks=$2; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
for bin in "$a" "$b"; do [ -x "$bin" ] || { echo "$0: not an executable: $bin" >&2; exit 2; }; done
options=("$@")
[ ${#options[@]} -gt 0 ] || options=(-n 20 -i 10)
work=$(mktemp -d /dev/shm/mdbench-oversub.XXXXXX)
trap 'rm -rf "$work"' EXIT
wall() {  # seconds one run of binary $1 takes
  local start end
  start=$(date +%s.%N)
  UCX_TLS=${UCX_TLS:-self,sm} mpiexec -n "$ranks" "$1" "${options[@]}" -d "$work/tree" -o "$work/r.h5" >/dev/null 2>&1
  end=$(date +%s.%N)
  rm -f "$work/r.h5"
  echo "$end - $start" | bc
}
ratios=()
for ((r = 1; r <= rounds; r++)); do
  ta=$(wall "$a")
  tb=$(wall "$b")
  ratio=$(echo "scale=4; $tb / $ta" | bc)
  ratios+=("$ratio")
  echo "round $r: A $ta s, B $tb s, B/A $ratio"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; print "median B/A " m}'
