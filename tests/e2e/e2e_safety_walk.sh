#!/usr/bin/env bash
# Issue 28's walk and target items: mdbench clean on a tree deeper than the open-file limit (bounded memory
# and descriptors), -d LINK/ and clean LINK/ refused, one directory given twice through a bind mount, each
# rank's error paths naming its own target (-d A@B), an md_stats source with no counter, a directory with
# '@' in its name (-d 'a\@b'), "an input", and a tree directory or the iteration directory swapped for
# a link in the middle of the file-remove phase (dirfd: the link's target untouched; full: only items'
# look-alikes as docs/safety.md says, never the run's own mark or record, which stay where the run made
# them).
# Needs root for the bind mount.
source "$(dirname "$0")/lib.sh" "$@"

user=$BASE/user
mkdir -p "$user"
echo "user data" >"$user/precious.txt"
user_before=$(fingerprint "$user")

# ---- item 9: a -z 8000 -b 1 tree (what -C leaves), cleaned with 256 descriptors and little memory ----
t=$BASE/deep
mkdir "$t"
run 1 -C -z 8000 -b 1 -I 1 -n 1 --path-style dirfd -d "$t"
expect_rc 0 "deep create job"
made=$(find "$t/mdbench.iter.0" -name 'file.mdbench.*' | wc -l)
expect_eq "$made" 8001 "deep create job: a file per level"
(ulimit -n 256 && exec /usr/bin/time -f 'maxrss %M' "$MDBENCH" clean "$t") >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "clean a -z 8000 tree under ulimit -n 256"
expect_in "$OUT" "removed $t/mdbench.iter.0 (8001 files, 16002 directories)" "clean: every level removed"
rss=$(awk '/^maxrss/ { print $2 }' "$ERR")
if [ -n "$rss" ] && [ "$rss" -lt 200000 ]; then pass; else fail "clean's peak RSS ${rss:-?} KiB (want < 200 MB)"; fi
expect_empty_dir "$t" "clean: nothing of the deep tree left"

# ---- item 9, the run's own tree: a -z it cannot work through is a usage error, nothing made ----
run 1 -z 8000 -b 1 -I 1 -n 1 -d "$BASE/zfull"
expect_rc 2 "-z 8000 in the full path style"
expect_in "$ERR" "more than PATH_MAX" "-z 8000 full: says why"
(ulimit -n 1024 && exec "$MPIEXEC" -n 1 "$MDBENCH" -z 2000 -b 1 -I 1 -n 1 --path-style dirfd \
  -d "$BASE/zdirfd") >"$OUT" 2>"$ERR"
RC=$?
expect_rc 2 "-z 2000 in dirfd under ulimit -n 1024"
expect_in "$ERR" "open-file limit" "-z 2000 dirfd: says why"
expect_absent "$BASE/zfull" "-z refused: no target made (full)"
expect_absent "$BASE/zdirfd" "-z refused: no target made (dirfd)"

# ---- weak point (b): a link to a directory as -d, with or without a trailing slash; clean LINK/ ----
ln -s "$user" "$BASE/link"
for d in "$BASE/link" "$BASE/link/" "$BASE/link/."; do
  run 1 -n 4 -d "$d"
  expect_rc 2 "-d $d"
  expect_in "$ERR" "is a symbolic link" "-d $d: says it is a link"
  run 0 clean "$d"
  expect_rc 2 "clean $d"
  expect_in "$ERR" "is a symbolic link" "clean $d: says it is a link"
  expect_not_in "$OUT" "no mdbench run directories" "clean $d: not 'nothing there'"
done
expect_eq "$(fingerprint "$user")" "$user_before" "links: the linked directory untouched"

# ---- weak point (c): one directory twice through a bind mount, and one inside the other ----
real=$BASE/real
mkdir -p "$real/sub" "$BASE/bind"
if mount --bind "$real" "$BASE/bind"; then
  before=$(fingerprint "$real")
  run 2 -u -n 4 -d "$real@$BASE/bind"
  expect_rc 2 "-d DIR@BIND"
  expect_in "$ERR" "are the same directory" "-d DIR@BIND: says they are one"
  run 2 -u -n 4 -d "$BASE/bind@$real/sub"
  expect_rc 2 "-d BIND@DIR/sub"
  expect_in "$ERR" "is inside" "-d BIND@DIR/sub: says one holds the other"
  expect_eq "$(fingerprint "$real")" "$before" "bind mount: nothing touched"
  umount "$BASE/bind"
else
  fail "mount --bind (this test needs root)"
fi

# ---- a target the run made, swapped during the run for another directory with a valid mdbench mark: the
# run's final removal of its target compares the directory with the one it made (dev, ino) and leaves the
# other one, mark and all; the one it made stays, marked, for mdbench clean.
cat >"$BASE/retarget.sh" <<'EOF2'
#!/bin/sh
[ "$MDBENCH_PHASE" = file-remove ] || exit 0
mv "$RT" "$RT.moved" && mkdir "$RT" || exit 1
printf 'mdbench run mark 1\ninode %020d\n' "$(stat -c %i "$RT")" >"$RT/.mdbench-run"
EOF2
chmod +x "$BASE/retarget.sh"
rt=$BASE/retarget
RT=$rt run 1 -F -n 10 --path-style dirfd -d "$rt" --run-cmd-after-phase "$BASE/retarget.sh"
expect_rc 1 "a made target swapped for another marked one"
expect_in "$OUT" "$rt not removed" "swapped target: says it stays"
expect_eq "$(find "$rt" -mindepth 1)" "$rt/.mdbench-run" "swapped target: the other directory and its mark kept"
expect_eq "$(find "$rt.moved" -mindepth 1)" "$rt.moved/.mdbench-run" "swapped target: the run's own emptied, marked"

# ---- item 12: each rank's first error names its own target ----
a=$BASE/ta
b=$BASE/tb
run 2 -C -u -n 2 -d "$a@$b"
expect_rc 0 "two targets: create job"
rm "$a/mdbench.iter.0/mdbench_tree.0.0/file.mdbench.0.0" "$b/mdbench.iter.0/mdbench_tree.1.0/file.mdbench.1.0"
run 2 -r -u -n 2 -d "$a@$b"
expect_rc 1 "two targets: remove job with a file gone on each"
expect_in "$OUT" "rank 0: file-remove (iteration 0): unlink $a/mdbench.iter.0/" "rank 0's error names $a"
expect_in "$OUT" "rank 1: file-remove (iteration 0): unlink $b/mdbench.iter.0/" "rank 1's error names $b"
expect_not_in "$OUT" "$a@$b/" "no error path starts with the joined list"

# ---- weak point (d): a --server-stats source that holds no counter ----
printf 'snapshot_time             1700000000.123456 secs.usecs\n' >"$BASE/md_stats"
run 1 -n 4 -d "$BASE/ss" --server-stats "lustre-mdt:$BASE/md_stats"
expect_rc 2 "md_stats with no counter"
expect_in "$ERR" "no counter at all" "md_stats with no counter: says so"
expect_absent "$BASE/ss" "md_stats with no counter: no target made"

# ---- weak point (e): a directory with '@' in its name ----
mkdir "$BASE/at@x"
run 2 -u -n 4 -d "$BASE/at\\@x" -o "$BASE/at.h5"
expect_rc 0 "-d 'at\\@x'"
expect_in "$OUT" "target:   $BASE/at\\@x " "the header names the one directory"
expect_empty_dir "$BASE/at@x" "-d 'at\\@x': worked in at@x and cleaned up"
expect_absent "$BASE/at\\" "-d 'at\\@x': not split into 'at\\'"
expect_absent "$BASE/x" "-d 'at\\@x': not split into 'x'"
run 0 validate "$BASE/at.h5"
expect_rc 0 "-d 'at\\@x': the results file is valid"

# ---- weak point (f): "an input" ----
truncate -s 65M "$BASE/huge.txt"
run 0 import "$BASE/huge.txt" -o "$BASE/imp.h5"
expect_in "$ERR" "an input can be" "import of a huge file: 'an input'"
expect_not_in "$ERR" "a input" "import of a huge file: not 'a input'"

# ---- weak point (a): one of the run's directories swapped for a link while file-remove runs ----
# The hook starts, in the background, a swap that waits for the first removal, then moves the directory
# (the tree directory, or the iteration directory above it) away and puts a link to the victim in its place.
cat >"$BASE/swap.sh" <<'EOF2'
#!/bin/sh
[ "$MDBENCH_PHASE" = file-remove ] || exit 0
first=$SWAP_TARGET/mdbench.iter.0/mdbench_tree.0/file.mdbench.0.0
setsid sh -c "while [ -e '$first' ]; do :; done; mv '$SWAP_DIR' '$SWAP_TARGET/moved' && ln -s '$SWAP_VICTIM' '$SWAP_DIR'" \
  </dev/null >/dev/null 2>&1 &
EOF2
chmod +x "$BASE/swap.sh"
for spec in dirfd:tree full:tree dirfd:iter full:iter; do
  style=${spec%%:*}
  level=${spec#*:}
  victim=$BASE/victim.$style.$level
  # The names the file-remove phase unlinks (mdtest's default phases: no file rename before it), where the
  # swapped directory's link leads.
  files=$victim
  [ "$level" = tree ] || files=$victim/mdbench_tree.0
  mkdir -p "$files"
  for i in $(seq 29000 29999); do echo "victim" >"$files/file.mdbench.0.$i"; done
  echo "user data" >"$victim/user.txt"
  # Names of the run's own files: a run writes, renames and removes its mark and record only in the
  # directory it made (by descriptor), never through the link.
  echo "the user's mark" >"$victim/.mdbench-run"
  echo "the user's record" >"$victim/.mdbench-taken"
  before=$(fingerprint "$victim")
  t=$BASE/sw.$style.$level
  swapped=$t/mdbench.iter.0
  [ "$level" = iter ] || swapped=$swapped/mdbench_tree.0
  mkdir "$t"
  SWAP_TARGET=$t SWAP_DIR=$swapped SWAP_VICTIM=$victim run 1 -F -n 30000 --path-style "$style" -d "$t" \
    --run-cmd-before-phase "$BASE/swap.sh"
  for _ in $(seq 50); do [ -L "$swapped" ] && break; sleep 0.1; done
  expect_eq "$([ -L "$swapped" ] && echo swapped)" swapped "$style, $level: swapped during file-remove"
  if [ "$style" = dirfd ]; then
    expect_eq "$(fingerprint "$victim")" "$before" "dirfd, $level: the link's target untouched"
  else
    # docs/safety.md: an item's full path can be redirected, but only to a name mdbench generates that is a
    # regular file or an empty directory; nothing else in the link's target is ever touched or added.
    expect_eq "$(cat "$victim/user.txt" "$victim/.mdbench-run" "$victim/.mdbench-taken")" \
      "user data"$'\n'"the user's mark"$'\n'"the user's record" "full, $level: the user's files untouched"
    expect_eq "$(find "$victim" -mindepth 1 ! -name 'file.mdbench.0.*' ! -name mdbench_tree.0 | wc -l)" 3 \
      "full, $level: nothing else, nothing added"
    left=$(find "$victim" -name 'file.mdbench.0.*' | wc -l)
    echo "full style, $level swapped: $((1000 - left)) of the link target's 1000 look-alikes removed"
  fi
done

expect_eq "$(fingerprint "$user")" "$user_before" "the user's directory untouched"

# A --run-cmd-before-phase that swaps one of the run's files for a symlink to a user's file just before the
# file remove, on rank 1 and a moment late: the type check's listing (rank 0 lists the shared directory)
# comes after every rank's hook, so the link is caught: kept, its remove counted failed, the file it points
# to untouched.
hooked=$BASE/hookswap
echo "the user's file" >"$BASE/hook-target.txt"
cat >"$BASE/hookswap.sh" <<EOF
#!/bin/sh
[ "\$MDBENCH_PHASE" = file-remove ] && [ "\$MDBENCH_RANK" = 1 ] || exit 0
sleep 0.5
f=$hooked/mdbench.iter.0/mdbench_tree.0/file.mdbench.0.3
rm "\$f" && ln -s "$BASE/hook-target.txt" "\$f"
EOF
chmod +x "$BASE/hookswap.sh"
run 2 -F -n 10 -d "$hooked" --run-cmd-before-phase "$BASE/hookswap.sh" -o "$BASE/hookswap.h5"
expect_rc 1 "a symlink swapped in by a hook before the file remove"
expect_eq "$(readlink "$hooked/mdbench.iter.0/mdbench_tree.0/file.mdbench.0.3")" "$BASE/hook-target.txt" \
  "the hook's symlink kept"
expect_eq "$(cat "$BASE/hook-target.txt")" "the user's file" "the symlink's target untouched"
"$MDBENCH" export "$BASE/hookswap.h5" --format json -o "$BASE/hookswap.json" >/dev/null 2>&1
failed=$(python3 -c 'import json, sys
print([p["ops_failed"] for p in json.load(open(sys.argv[1]))["runs"][0]["phases"] if p["phase"] == "file-remove"][0])' \
  "$BASE/hookswap.json")
expect_eq "$failed" 1 "one failed remove: the symlink"
rm -rf "$hooked"
finish
