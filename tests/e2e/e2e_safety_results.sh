#!/usr/bin/env bash
# The results file the user already had: --force and --append leave it exactly as it was until the run's
# first phase (a run that fails at setup or at claiming its directory changes nothing), --force replaces it
# by renaming a new file over it (the old inode is never written), --append refuses a damaged file and
# names a file another process is writing, and a results file removed during the run is an error.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" "${1:-shm}"
py=/usr/bin/python3  # the Debian interpreter, which has python3-h5py

# A valid results file with one run, and its checksum.
mkdir "$BASE/ok"
run 2 -d "$BASE/ok" -n 5 -F -o "$BASE/old.h5"
expect_rc 0 "the old results"
old_sum=$(md5sum <"$BASE/old.h5")
unchanged() {  # unchanged WHAT: old.h5 is byte for byte what it was, and still valid
  expect_eq "$(md5sum <"$BASE/old.h5")" "$old_sum" "$1: old.h5 unchanged"
}

# Failures before the first phase, with --force and with --append: the target's parent is missing, the
# iteration directory exists (claiming it fails), the target is a file.
mkdir -p "$BASE/busy/mdbench.iter.0"
touch "$BASE/afile"
for mode in --force --append; do
  for np in 1 2; do
    run "$np" -d "$BASE/missing/parent/t" -n 5 -o "$BASE/old.h5" "$mode"
    expect_rc 1 "$mode, $np ranks, target parent missing"
    unchanged "$mode, $np ranks, target parent missing"
    run "$np" -d "$BASE/busy" -n 5 -o "$BASE/old.h5" "$mode"
    expect_rc 1 "$mode, $np ranks, iteration directory taken"
    unchanged "$mode, $np ranks, iteration directory taken"
    expect_in "$OUT" "old.h5 is as it was" "$mode, $np ranks: says the file was left"
    run "$np" -d "$BASE/afile" -n 5 -o "$BASE/old.h5" "$mode"
    expect_rc 2 "$mode, $np ranks, target is a file (a usage error)"
    unchanged "$mode, $np ranks, target is a file"
  done
done
expect_absent "$BASE/missing" "nothing made for the missing target"
expect_eq "$(find "$BASE" -maxdepth 1 -name '.old.h5*' | wc -l)" 0 "no temporary left beside old.h5"

# --force that runs: the new file replaces the old by rename; a hard link to the old keeps the old bytes.
ln "$BASE/old.h5" "$BASE/old-link.h5"
run 2 -d "$BASE/ok" -n 7 -F -o "$BASE/old.h5" --force
expect_rc 0 "--force that runs"
expect_eq "$(md5sum <"$BASE/old-link.h5")" "$old_sum" "--force never writes into the old inode"
expect_eq "$($py -c 'import h5py,sys; f=h5py.File(sys.argv[1],"r"); print(len(f["runs"]), f["runs/run-0000/config"].attrs["items"])' "$BASE/old.h5")" \
  "1 7" "--force: one run, the new one"
run 0 validate "$BASE/old.h5"
expect_rc 0 "--force: the new file validates"
expect_eq "$(find "$BASE" -maxdepth 1 -name '.old.h5*' | wc -l)" 0 "--force: no temporary left"

# A signal in the first phase still replaces: the run began.
cp "$BASE/old-link.h5" "$BASE/sig.h5"
"$MPIEXEC" -n 2 "$MDBENCH" -d "$BASE/ok" -n 2000000 -F -C -o "$BASE/sig.h5" --force >"$OUT" 2>"$ERR" &
pid=$!
for _ in $(seq 100); do [ -d "$BASE/ok/mdbench.iter.0" ] && break; sleep 0.05; done
sleep 0.3
kill -TERM "$pid"
wait "$pid"  # Hydra's own status after a SIGTERM is racy (e2e_signals.sh): the message says what happened
expect_in "$ERR" "stopped by SIGTERM after file-create" "--force stopped in its first phase"
expect_eq "$($py -c 'import h5py,sys; print(h5py.File(sys.argv[1],"r")["runs/run-0000"].attrs["status"])' "$BASE/sig.h5")" \
  interrupted "--force stopped in its first phase: the file holds the interrupted run"
rm -rf "$BASE/ok/mdbench.iter.0"

# --append onto a damaged results file (a rate that does not match its counts) is refused, unchanged.
cp "$BASE/old-link.h5" "$BASE/bad.h5"
$py -c 'import h5py,sys; h5py.File(sys.argv[1],"r+")["runs/run-0000/iterations/iter-0000/file-create"].attrs["ops_per_s"] = 1.0' "$BASE/bad.h5"
bad_sum=$(md5sum <"$BASE/bad.h5")
run 2 -d "$BASE/ok" -n 5 -F -o "$BASE/bad.h5" --append
expect_rc 1 "--append onto an invalid file"
expect_in "$ERR" "is not a valid results file" "--append onto an invalid file: why"
expect_eq "$(md5sum <"$BASE/bad.h5")" "$bad_sum" "--append onto an invalid file: unchanged"
expect_empty_dir "$BASE/ok" "--append onto an invalid file: nothing run"

# --append while another process has the file open for writing: "in use", not HDF5's lock message.
cp "$BASE/old-link.h5" "$BASE/busy.h5"
$py -c '
import h5py, sys, time
f = h5py.File(sys.argv[1], "r+")
open(sys.argv[2], "w").close()
time.sleep(30)' "$BASE/busy.h5" "$BASE/.held" &
holder=$!
for _ in $(seq 100); do [ -e "$BASE/.held" ] && break; sleep 0.05; done
run 2 -d "$BASE/ok" -n 5 -F -o "$BASE/busy.h5" --append
expect_rc 1 "--append onto a file in use"
expect_in "$ERR" "busy.h5 is in use" "--append onto a file in use: says so"
expect_not_in "$ERR" "Resource temporarily unavailable" "--append onto a file in use: not HDF5's words"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null

# The results directory removed during the run: exit 1, and the message says the results are gone.
mkdir "$BASE/resdir"
"$MPIEXEC" -n 2 "$MDBENCH" -d "$BASE/ok" -n 5 -F -p 1 -o "$BASE/resdir/r.h5" >"$OUT" 2>"$ERR" &
pid=$!
for _ in $(seq 100); do [ -e "$BASE/resdir/r.h5" ] && break; sleep 0.02; done
rm -rf "$BASE/resdir"
wait "$pid"
RC=$?
expect_rc 1 "results directory removed during the run"
expect_in "$ERR" "the results file is gone" "results directory removed: says so"
expect_not_in "$OUT" "results:  $BASE/resdir/r.h5" "results directory removed: no results line for a file that is gone"
expect_empty_dir "$BASE/ok" "results directory removed: the run still cleaned up"

finish
