#!/usr/bin/env bash
# Issue 30 item 12: a file-remove phase checks the items' types by one listing of each directory, taken
# before the phase and shared by the ranks that remove there (at any rank count), not by a stat before each
# unlink: under strace (every rank) the ranks list each tree directory once between them, stat no item that
# is a regular file, and still leave a symlink and a FIFO planted under item names (counted failed).
source "$(dirname "$0")/lib.sh" "$@"
command -v strace >/dev/null || { echo "strace is needed" >&2; exit 1; }

for np in 1 2 4 12; do
  t=$BASE/shared.$np
  n=$((48 / np))
  run "$np" -d "$t" -F -C -n "$n" -z 1 -b 2 -o "$BASE/create.$np.h5"
  expect_rc 0 "$np ranks: create job"
  # Two items of the last rank replaced: a symlink to a file of the user's, a FIFO.
  last=$((np - 1))
  victim=$(find "$t" -name "file.mdbench.$last.*" | sort | head -2)
  read -r -d '' link fifo <<<"$victim"
  echo "the user's" >"$BASE/user.$np"
  rm "$link" "$fifo" && ln -s "$BASE/user.$np" "$link" && mkfifo "$fifo"
  # shellcheck disable=SC2086
  timeout 120 strace -f -qq -o "$BASE/trace.$np" -e trace=newfstatat,getdents64,unlink,openat \
    "$MPIEXEC" -n "$np" "$MDBENCH" -d "$t" -F -r -n "$n" -z 1 -b 2 -o "$BASE/remove.$np.h5" >"$OUT" 2>"$ERR"
  RC=$?
  expect_rc 1 "$np ranks: remove job with two planted items"
  expect_eq "$(find "$t" -name 'file.mdbench.*' | sort | tr '\n' ' ')" "$(printf '%s\n' "$link" "$fifo" | sort | tr '\n' ' ')" \
    "$np ranks: everything but the planted items removed"
  if [ -L "$link" ] && [ -p "$fifo" ]; then pass; else fail "$np ranks: the symlink and FIFO are left"; fi
  expect_eq "$(cat "$BASE/user.$np")" "the user's" "$np ranks: the user's file untouched"
  # The checks: a stat of the two planted names only (by the rank whose items they are), no other item.
  expect_eq "$(grep -c 'newfstatat(.*"file\.mdbench\.' "$BASE/trace.$np")" 2 "$np ranks: stat of the two suspects only"
  expect_eq "$(grep -c 'unlink(.*file\.mdbench\.' "$BASE/trace.$np")" $((48 - 2)) "$np ranks: one unlink per item"
  # One listing per tree directory with items (3: the root and its two children), whatever the ranks: the
  # directories opened for listing ("." of a tree directory's descriptor) are counted by their getdents64
  # ending (a 0 return closes each listing).
  lists=$(grep -c 'openat([0-9]*, "\.", O_RDONLY|O_CLOEXEC|O_DIRECTORY' "$BASE/trace.$np")
  expect_eq "$lists" 3 "$np ranks: one listing per directory and phase"
done
finish
