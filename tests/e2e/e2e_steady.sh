#!/usr/bin/env bash
# --steady, md-workbench's mix, end to end: exact op counts at 1, 2 and 4 ranks, the working set gone after
# the run, a user's files untouched, a stonewall, bad combinations refused before anything is touched.
source "$(dirname "$0")/lib.sh" "$@"

# R rounds x D datasets per rank of each mix op; P = n / D objects per dataset made and removed. R <= P:
# every object a round reads was made in precreate, so exact counts do not depend on how far the ranks drift
# apart (4 ranks share 2 cores here).
for np in 1 2 4; do
  t=$BASE/steady.$np
  run "$np" --steady 30 --datasets 4 -n 160 -w 64 -d "$t" -o "$BASE/steady.$np.h5"
  expect_rc 0 "steady np=$np"
  expect_in "$OUT" "steady state, iteration 0" "steady np=$np announces the iteration"
  expect_in "$OUT" "mix: 30 rounds," "steady np=$np reports its rounds"
  for op in stat read delete create; do
    expect_eq "$(awk -v op="$op" '$1 == "mix" && $2 == op { print $3; exit }' "$OUT")" $((30 * 4 * np)) \
      "steady np=$np mix $op count"
  done
  expect_eq "$(awk '$1 == "precreate" && $2 == "create" { print $3; exit }' "$OUT")" $((160 * np)) \
    "steady np=$np precreate count"
  expect_eq "$(awk '$1 == "cleanup" && $2 == "delete" { print $3; exit }' "$OUT")" $((160 * np)) \
    "steady np=$np cleanup count"
  expect_eq "$(awk '$1 == "mix" && $2 == "all" { print $4; exit }' "$OUT")" 0 "steady np=$np no failures"
  expect_in "$OUT" "mix: 30 rounds," "steady np=$np summary line"
  expect_absent "$t" "steady np=$np: the target it made is gone again"
done

# In a directory holding the user's files: they stay, byte for byte, and nothing else is left.
t=$BASE/userfiles
mkdir -p "$t/sub"
echo "precious" >"$t/notes.txt"
echo "obj" >"$t/sub/obj.mdbench.0.0.0"
before=$(fingerprint "$t")
run 2 --steady 10 --datasets 2 -n 20 -d "$t" -o "$BASE/user.h5"
expect_rc 0 "steady beside user files"
expect_eq "$(fingerprint "$t")" "$before" "steady: user files untouched and nothing left"

# A stonewall of 0.2 s on a mix far too long for it: every rank stops at the same round count. 20,000
# objects per dataset: more rounds than two ranks can drift apart in 0.2 s.
t=$BASE/stonewall
run 2 --steady 100000000 --datasets 2 -n 40000 -W 0.2 -d "$t" -o "$BASE/stonewall.h5"
expect_rc 0 "steady stonewall"
expect_in "$OUT" "mix: stonewall after" "steady stonewall reported"
rounds=$(sed -n 's/^mix: \([0-9]*\) rounds,.*$/\1/p' "$OUT")
if [ -n "$rounds" ] && [ "$rounds" -gt 0 ] && [ "$rounds" -lt 100000000 ]; then
  pass
else
  fail "steady stonewall: rounds '$rounds' not cut short"
fi
expect_eq "$(awk '$1 == "mix" && $2 == "stat" { print $3; exit }' "$OUT")" $((rounds * 2 * 2)) \
  "steady stonewall: every rank did the agreed rounds"
expect_absent "$t" "steady stonewall: nothing left"

# Refused before anything is touched: exit 2, the message names the options, no target, no results file.
t=$BASE/refused
for args in "--steady 5 -C" "--steady 5 -u -z 2" "--steady 5 -n 15 --datasets 4" "--steady 0" "--datasets 3" \
  "--steady 5 --datasets 0" "--steady x"; do
  # shellcheck disable=SC2086
  run 1 $args -d "$t" -o "$BASE/refused.h5"
  expect_rc 2 "refused: $args"
  expect_in "$ERR" "--" "refused: $args names an option"
  expect_absent "$t" "refused: $args made no target"
  expect_absent "$BASE/refused.h5" "refused: $args wrote no results file"
done
expect_eq "$(run 1 --steady 5 -C -U --readdir -d "$t"; sed -n 's/.*not with //p' "$ERR")" \
  "-C/--create, -U/--rename, --readdir" "refused: every excluded option named at once"

finish
