#!/usr/bin/env bash
# mdtest's run options through the real binary, spelled as mdtest spells them: -B (no barriers: the results
# file says the phases were not barrier-timed), -c (rank 0 makes and removes every item), the phase commands
# (every rank, the phase in the environment, a failure reported once and exit 1) and --savePerOpDataCSV
# (one file per rank, a row per op, never over an existing file).
source "$(dirname "$0")/lib.sh" "$@"

PY=/usr/bin/python3  # the one with h5py

# h5attr FILE OBJECT NAME: an attribute of the results file.
h5attr() { "$PY" -c 'import h5py,sys; v=h5py.File(sys.argv[1])[sys.argv[2]].attrs[sys.argv[3]]; print(v.decode() if isinstance(v, bytes) else v)' "$@"; }

# -B: exact counts, every rank's t_global_end = t_local_end, barrier_timed 0, the file valid.
t=$BASE/nobar
run 2 -d "$t" -n 50 -F -u -B -o "$BASE/nobar.h5"
expect_rc 0 "-B run"
expect_eq "$(column file-create 2)" 100 "-B file creates"
expect_eq "$(h5attr "$BASE/nobar.h5" /runs/run-0000 barrier_timed)" 0 "-B: barrier_timed 0"
expect_eq "$("$PY" -c 'import h5py,sys
f = h5py.File(sys.argv[1]); it = f["/runs/run-0000/iterations/iter-0000"]
print(all((p["ranks"]["t_global_end"] == p["ranks"]["t_local_end"]).all() for p in it.values()))' "$BASE/nobar.h5")" \
  True "-B: t_global_end = t_local_end on every rank"
"$MDBENCH" validate "$BASE/nobar.h5" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "-B file validates"
expect_absent "$t" "-B leaves nothing"
run 2 -d "$t" -n 50 -F -u -o "$BASE/bar.h5"
expect_eq "$(h5attr "$BASE/bar.h5" /runs/run-0000 barrier_timed)" 1 "default: barrier_timed 1"
expect_in <(h5attr "$BASE/bar.h5" /runs/run-0000 path_style) "full" "default path style recorded"
expect_in <(h5attr "$BASE/bar.h5" /runs/run-0000 api) "POSIX" "default api recorded"

# -c: rank 0 did every create and remove; stats are each rank's.
t=$BASE/coll
run 2 -d "$t" -n 30 -u -c -o "$BASE/coll.h5"
expect_rc 0 "-c run"
expect_eq "$("$PY" -c 'import h5py,sys
it = h5py.File(sys.argv[1])["/runs/run-0000/iterations/iter-0000"]
print(*(list(it[p]["ranks"]["ok"]) for p in ("file-create", "file-stat", "dir-remove")))' "$BASE/coll.h5")" \
  "[60, 0] [30, 30] [60, 0]" "-c: rank 0 makes and removes everything"
"$MDBENCH" validate "$BASE/coll.h5" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "-c file validates"
expect_absent "$t" "-c leaves nothing"

# The phase commands: every rank, every item phase (as mdtest's prologue and epilogue: none around the tree
# phases), the phase in the environment; a failing one: exit 1, reported once per phase.
t=$BASE/cmds
run 2 -d "$t" -n 5 -F -C -T -E -r "--run-cmd-before-phase=echo \$MDBENCH_PHASE \$MDBENCH_ITERATION >> $BASE/log.\$MDBENCH_RANK" \
  "--run-cmd-after-phase=[ \$MDBENCH_RANK = 0 ] || exit 7"
expect_rc 1 "a failing after-phase command"
expect_eq "$(cat "$BASE/log.0")" "$(printf 'file-create 0\nfile-stat 0\nfile-read 0\nfile-remove 0')" \
  "before-phase command on rank 0"
expect_eq "$(cat "$BASE/log.1")" "$(cat "$BASE/log.0")" "before-phase command on rank 1"
expect_eq "$(grep -c 'exit status 7' "$OUT" "$ERR" | awk -F: '{s += $2} END {print s}')" 4 "reported once per phase"
expect_in "$OUT" "file-remove" "the run went on"
expect_absent "$t" "commands: nothing left"

# --savePerOpDataCSV: each rank's file, a row per op; a second run with the files there does not start.
t=$BASE/perop
run 2 -d "$t" -n 40 -F -u -C -T -r --savePerOpDataCSV="$BASE/ops"
expect_rc 0 "per-op run"
for rank in 00000 00001; do
  f=$BASE/ops-$rank.csv
  expect_eq "$(head -1 "$f")" "phase,iteration,rank,op,start_s,duration_s" "per-op header $rank"
  expect_eq "$(grep -c '^file-create,0,' "$f")" 40 "per-op create rows $rank"
  expect_eq "$(grep -c '^file-stat,0,' "$f")" 40 "per-op stat rows $rank"
  expect_eq "$(grep -c '^file-remove,0,' "$f")" 40 "per-op remove rows $rank"
done
before=$(md5sum "$BASE"/ops-*.csv)
run 2 -d "$t" -n 40 -F -u --savePerOpDataCSV="$BASE/ops"
expect_rc 2 "per-op files there: refused before anything is made (a usage error)"
expect_in "$ERR" "exists" "per-op refusal says why"
expect_eq "$(md5sum "$BASE"/ops-*.csv)" "$before" "per-op files untouched"
expect_absent "$t" "per-op refusal: nothing made"

# --output mdtest: the command line as mdtest prints it (the program as started, each argument quoted), the
# "Continue stonewall hit" line of a stonewalled create (-W 1 against 2 x 2M files cannot finish: 1 s), and
# nothing on standard output after "-- finished at": mdbench's own lines go to standard error.
run 2 -d "$t" -n 2000000 -F -C -W 1 -o "$BASE/w.h5" --output mdtest
expect_rc 0 "-W 1 create"
expect_in "$OUT" "Command line used: $MDBENCH '-d' '$t' '-n' '2000000' '-F' '-C' '-W' '1' '-o' '$BASE/w.h5' '--output' 'mdtest'" "mdtest's command line"
if grep -Eq '^Continue stonewall hit min: [0-9]+ max: [0-9]+ avg: [0-9]+\.[0-9] $' "$OUT"; then pass
else fail "the Continue stonewall hit line"; fi
expect_eq "$(sed -n '/^-- finished at/,$p' "$OUT" | sed 1d | tr -d '\n')" "" "nothing after -- finished at on stdout"
expect_in "$ERR" "results:  $BASE/w.h5" "the results line on stderr"
expect_in "$ERR" "kept:     $t" "the kept line on stderr"
"$MDBENCH" clean "$t" >/dev/null 2>&1 && rmdir "$t" 2>/dev/null
expect_absent "$t" "the stonewalled create cleaned up"

finish
