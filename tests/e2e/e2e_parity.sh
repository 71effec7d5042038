#!/usr/bin/env bash
# mdtest parity and past it, end to end: stonewall with wear-out and -x, rank shift, random order, rename,
# readdir, verification, several targets, shared files, presets, -y/-Y/-p.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3
h5() { "$py" -c "import h5py,sys; f=h5py.File(sys.argv[1],'r'); print($2)" "$1"; }
count_named() { find "$1" -name "$2" | wc -l; }

# Stonewall: creates stop after 1 s, every rank wears out to the same count, later jobs use it via -x.
for np in 2 4; do
  t=$BASE/sw.$np
  f=$BASE/sw.$np.h5
  run "$np" -d "$t" -F -u -n 3000000 -W 1 -C -x "$BASE/sw.count" -o "$f"
  expect_rc 0 "np=$np stonewalled create"
  expect_in "$OUT" "stonewall:" "np=$np stonewall reported on the console"
  count=$(sed -n 's/^files //p' "$BASE/sw.count")
  expect_eq "$(head -1 "$BASE/sw.count")" "mdbench stonewall 1" "np=$np stonewall file header"
  if [ -n "$count" ] && [ "$count" -gt 0 ] && [ "$count" -lt 3000000 ]; then pass; else fail "np=$np stonewall count '$count'"; fi
  for ((r = 0; r < np; r++)); do
    expect_eq "$(count_named "$t" "file.mdbench.$r.*")" "$count" "np=$np rank $r ends with the agreed count"
  done
  phase='f["runs/run-0000/iterations/iter-0000/file-create"]'
  expect_eq "$(h5 "$f" "$phase.attrs['items']")" "$count" "np=$np file records the agreed count"
  expect_eq "$(h5 "$f" "int($phase.attrs['stonewalled'])")" 1 "np=$np file says the phase was stonewalled"
  # Stopped on time: every rank's timer fired 1 s after its start (within the time of one create).
  expect_eq "$(h5 "$f" "all(1.0 <= r['t_stonewall'] - r['t_start'] < 1.25 for r in ${phase}['ranks'][()])")" True \
    "np=$np every rank stopped 1 s after its start"
  run 0 validate "$f"
  expect_rc 0 "np=$np stonewalled file validates"
  run "$np" -d "$t" -F -u -n 3000000 -T -x "$BASE/sw.count"
  expect_rc 0 "np=$np stat job reads the count"
  expect_eq "$(column file-stat 2)" $((np * count)) "np=$np stat job works on the agreed count"
  expect_eq "$(column file-stat last)" 0 "np=$np stat job: no failures"
  run "$np" -d "$t" -F -u -n 3000000 -r -x "$BASE/sw.count"
  expect_rc 0 "np=$np remove job"
  expect_absent "$t" "np=$np stonewalled workload (and the target the create job made) removed completely"
done
run 4 -d "$BASE/sw.2" -F -u -n 3000000 -T -x "$BASE/missing.count"
expect_rc 2 "missing stonewall file: a usage error on every rank before anything is touched, no hang"
expect_in "$ERR" "cannot read stonewall file $BASE/missing.count" "missing stonewall file named"

# Rank shift: with -N 1, rank 0 stats rank 1's items, so a missing item of rank 1 is rank 0's error.
t=$BASE/shift
run 2 -d "$t" -F -u -n 20 -C
rm "$t/mdbench.iter.0/mdbench_tree.1.0/file.mdbench.1.3"
run 2 -d "$t" -F -u -n 20 -T -N 1
expect_rc 1 "shifted stat with a missing item"
expect_in "$OUT" "rank 0: file-stat (iteration 0): stat $t/mdbench.iter.0/mdbench_tree.1.0/file.mdbench.1.3" \
  "rank 0 worked on rank 1's items"
run 2 -d "$t" -F -u -n 20 -T -N 1 -R 7
expect_eq "$(column file-stat last)" 1 "random order visits the same items"
run 2 -d "$t" -F -u -n 20 -r
expect_eq "$(column file-remove last)" 1 "remove: the one missing item"

# File rename (--file-rename, mdbench's): every file renamed, none left under its old name; --renamed finishes
# the job later. Directory rename (-U, mdtest's): the names rotate, so the same names exist after it and a
# later remove job finds every directory without --renamed.
for np in 2 4; do
  t=$BASE/rename.$np.F
  run "$np" -d "$t" -F -n 25 -z 1 -b 2 -C -T --file-rename -N 1 --keep
  expect_rc 0 "np=$np rename -F"
  expect_eq "$(count_named "$t" '*mdbench.[0-9]*.renamed')" $((25 * np)) "np=$np rename -F: all files renamed"
  expect_eq "$(find "$t" -name 'file.mdbench.*' ! -name '*.renamed' | wc -l)" 0 "np=$np rename -F: no old names left"
  run "$np" -d "$t" -F -n 25 -z 1 -b 2 -r --renamed
  expect_rc 0 "np=$np remove renamed -F"
  expect_absent "$t" "np=$np remove renamed -F (and the target the create job made)"

  t=$BASE/rename.$np.D
  run "$np" -d "$t" -D -n 25 -z 1 -b 2 -C -T -U -N 1 --keep
  expect_rc 0 "np=$np rename -D"
  expect_eq "$(column dir-rename 2)" $((25 * np)) "np=$np rename -D: one rename per item (mdtest's count)"
  expect_eq "$(count_named "$t" '*.renamed')" 0 "np=$np rename -D: no temporary name left"
  expect_eq "$(find "$t" -name 'dir.mdbench.*' | sed 's|.*/||' | sort | tr '\n' ' ')" \
    "$(for r in $(seq 0 $((np - 1))); do for i in $(seq 0 24); do echo "dir.mdbench.$r.$i"; done; done | sort | tr '\n' ' ')" \
    "np=$np rename -D: the same names as before the rename"
  run "$np" -d "$t" -D -n 25 -z 1 -b 2 -r
  expect_rc 0 "np=$np remove after rename -D"
  expect_eq "$(column dir-remove last)" 0 "np=$np remove after rename -D: every directory found"
  expect_absent "$t" "np=$np remove after rename -D (and the target the create job made)"
done

# Readdir: every directory listed, counts checked; a stray entry is a failure.
t=$BASE/readdir
run 4 -d "$t" -n 30 -z 1 -b 3 --readdir
expect_rc 0 "readdir run"
expect_eq "$(column dir-readdir 2)" 4 "shared tree: each of the 4 directories listed once"
expect_eq "$(column file-readdir last)" 0 "readdir counts match"
run 2 -d "$t" -n 30 -z 1 -b 3 -u -C
touch "$t/mdbench.iter.0/mdbench_tree.1.0/mdbench_tree.1.2/file.mdbench.1.999"
run 2 -d "$t" -n 30 -z 1 -b 3 -u -T --readdir
expect_rc 1 "readdir finds the stray entry"
expect_eq "$(column file-readdir last)" 1 "one directory's count is off"
expect_in "$OUT" "EBADMSG" "readdir mismatch named"
rm "$t/mdbench.iter.0/mdbench_tree.1.0/mdbench_tree.1.2/file.mdbench.1.999"
run 2 -d "$t" -n 30 -z 1 -b 3 -u -r
expect_absent "$t" "readdir workload removed, with the target the create job made"

# Verification: a file changed between create and read is a failed read.
t=$BASE/verify
run 2 -d "$t" -F -n 10 -w 64 -C
printf 'XXXX' | dd of="$t/mdbench.iter.0/mdbench_tree.0/file.mdbench.1.4" bs=1 seek=20 conv=notrunc status=none
run 2 -d "$t" -F -n 10 -e 64 -E -X
expect_rc 1 "verification catches the change"
expect_eq "$(column file-read last)" 1 "exactly one bad file"
expect_in "$OUT" "file.mdbench.1.4: EBADMSG" "the changed file named"
run 2 -d "$t" -F -n 10 -r

# Several targets: rank r works in target r mod 2.
run 4 -d "$BASE/ta@$BASE/tb" -u -F -n 5 --keep
expect_rc 0 "two targets"
expect_eq "$(cd "$BASE/ta/mdbench.iter.0" && echo mdbench_tree.*)" "mdbench_tree.0.0 mdbench_tree.2.0" "target a: ranks 0, 2"
expect_eq "$(cd "$BASE/tb/mdbench.iter.0" && echo mdbench_tree.*)" "mdbench_tree.1.0 mdbench_tree.3.0" "target b: ranks 1, 3"
run 4 -d "$BASE/ta@$BASE/tb" -u -F -n 5 -r
expect_rc 0 "two targets: remove"
expect_absent "$BASE/ta" "target a (made by the create job) removed"
expect_absent "$BASE/tb" "target b (made by the create job) removed"

# Shared files: every rank uses the same names.
for np in 2 4; do
  t=$BASE/shared.$np
  run "$np" -d "$t" -S -n 40 -w 8 -e 8 -X --keep
  expect_rc 0 "np=$np shared files"
  expect_eq "$(count_named "$t" 'file.mdbench.shared.*')" 40 "np=$np one set of shared names"
  expect_eq "$(column file-stat 2)" $((40 * np)) "np=$np every rank stats them"
  run "$np" -d "$t" -S -n 40 -r
  expect_rc 0 "np=$np shared files: remove"
  expect_eq "$(column file-remove 2)" 40 "np=$np rank 0 alone removes the shared names"
  expect_absent "$t" "np=$np shared files removed, with the target the create job made"
done

# Presets expand to the documented IO500 parameters.
run 2 -d "$BASE/easy" --preset io500-easy -n 50 -W 30 -o "$BASE/easy.h5"
expect_rc 0 "io500-easy"
expect_eq "$(h5 "$BASE/easy.h5" '[int(f["runs/run-0000/config"].attrs[k]) for k in ("leaf_only","shift","sync_phases")] + [f["runs/run-0000/config"].attrs[k] for k in ("sharing","kinds")]')" \
  "[1, 1, 1, 'unique', 'files']" "io500-easy parameters"
run 2 -d "$BASE/hard" --preset io500-hard -n 50 -W 30 -o "$BASE/hard.h5"
expect_rc 0 "io500-hard"
expect_eq "$(h5 "$BASE/hard.h5" '[int(f["runs/run-0000/config"].attrs[k]) for k in ("write_bytes","read_bytes","shift")] + [f["runs/run-0000/config"].attrs["sharing"]]')" \
  "[3901, 3901, 1, 'shared']" "io500-hard parameters"

# -y, -Y and -p: accepted, said, and -p really waits.
start=$(date +%s.%N)
run 2 -d "$BASE/sync" -F -n 20 -w 16 -y -Y -p 0.5 -i 2
end=$(date +%s.%N)
expect_rc 0 "fsync, sync, delay"
expect_in "$OUT" "inside the timed region" "-Y says the sync is timed"
if "$py" -c "import sys; sys.exit(0 if float(sys.argv[2]) - float(sys.argv[1]) >= 1.0 else 1)" "$start" "$end"; then
  pass
else
  fail "-p 0.5 -i 2 should take at least 1 s"
fi

finish
