#!/usr/bin/env bash
# Issue 30 items 3, 4, 5, 10 and 15, against what a real mdtest 4.1 did (fixtures/mdtest-round2, made from
# real runs; README.md there says how): a switch or option given twice, -b 0 -z 0, -N not less than the
# ranks (whose items each rank stats, reads and removes), a create job run twice, and the -a names mdbench
# lacks. mdtest is not needed to run the test.
# Usage: e2e_mdtest_round2.sh [shm]
#        MDTEST=/path/to/mdtest e2e_mdtest_round2.sh [shm]   also checks accept.tsv against that mdtest, side by
#                                                           side (built outside the repository; CI has none)
source "$(dirname "$0")/lib.sh" "$@"
fx=$E2E_DIR/fixtures/mdtest-round2

# Side by side, when a real mdtest is at hand: it still does what accept.tsv says.
if [ -n "${MDTEST:-}" ]; then
  m=0
  while IFS=$'\t' read -r -u 3 args status items iterations error; do
    [[ $args == \#* ]] && continue
    m=$((m + 1))
    t=$BASE/mdtest.$m
    mkdir -p "$t"
    read -r -a words <<<"${args//\{T\}/$t}"
    (cd "$t" && timeout 120 "$MPIEXEC" -n 2 "$MDTEST" -d "$t/t" "${words[@]}" >"$OUT" 2>&1 </dev/null)
    RC=$?
    expect_rc "$status" "mdtest '$args'"
    got=$(sed -n 's/^2 tasks, //p' "$OUT")
    expect_eq "${got:--}" "$items" "mdtest '$args': item count"
  done 3<"$fx/accept.tsv"
fi

# Items 4 and 5: every line of accept.tsv on 2 ranks, "-d DIR/t" first as mdtest ran it (a line's own -d
# wins). Where mdtest ran: exit 0, its item count and iteration count (--output mdtest prints the same
# lines). Where it refused: exit 2, the same problem named, nothing made. One line differs on purpose.
declare -A DIFFERS=(
  ["-n 4 -u -u -F -d {T}/a@{T}/b"]="mdtest's check reads -u as 'given once'; mdbench runs it as -u"
)
# Item 11: -n not a multiple of the tree's directories (13 for -z 2 -b 3). mdtest rounds each rank's count
# down to a multiple (252 of 256 here, printed 494 for 2 ranks); mdbench makes exactly -n and prints the
# count it made.
declare -A COUNT=(
  ["-n 256 -z 2 -b 3 -F"]="512 files"
)
declare -A REFUSAL=(
  ["branch factor must be greater than or equal to zero"]="-b/--branching: must be at least 1 for a tree of -z/--depth 1, got 0"
)
n=0
while IFS=$'\t' read -r -u 3 args status items iterations error; do  # fd 3: mpiexec reads stdin
  [[ $args == \#* ]] && continue
  n=$((n + 1))
  t=$BASE/accept.$n
  mkdir -p "$t"
  read -r -a words <<<"${args//\{T\}/$t}"
  cd "$t" || exit 1
  run 2 -d "$t/t" "${words[@]}" --output mdtest
  cd "$BASE" || exit 1
  if [ -n "${DIFFERS[$args]:-}" ]; then  # what mdtest made of the line with one -u (the next line)
    items="8 files" iterations=1
  fi
  if [ "$status" = 0 ] || [ -n "${DIFFERS[$args]:-}" ]; then
    expect_rc 0 "'$args': runs, as in mdtest${DIFFERS[$args]:+ (${DIFFERS[$args]})}"
    if [ -n "${COUNT[$args]:-}" ]; then
      expect_eq "$(sed -n 's/^2 tasks, //p' "$OUT")" "${COUNT[$args]}" \
        "'$args': the count made, exactly -n (mdtest rounded down to $items)"
      expect_eq "$(find "$t/t" -name 'file.mdbench.*' 2>/dev/null | wc -l)" 0 "'$args': removed again"
    else
      expect_eq "$(sed -n 's/^2 tasks, //p' "$OUT")" "$items" "'$args': mdtest's item count"
    fi
    expect_eq "$(sed -n 's/^SUMMARY rate.*(of \([0-9]*\) iterations).*/\1/p' "$OUT")" "$iterations" \
      "'$args': mdtest's iterations"
  else
    expect_rc 2 "'$args': refused, as mdtest ('$error')"
    expect_in "$ERR" "${REFUSAL[$error]:-$error}" "'$args': the problem named"
    expect_absent "$t/t" "'$args': nothing made"
  fi
done 3<"$fx/accept.tsv"
if [ "$n" -ge 20 ]; then pass; else fail "accept.tsv: only $n lines read"; fi

# Item 3: -N S >= P is S mod P, as mdtest. Each rank's item 0 removed after the create job, so each later
# phase's first error on rank r names the owner whose items r works on; shift.tsv has mdtest's owners.
owners() {  # owners PHASE-NAME: "rank=owner ..." from the console's first error per rank
  sed -n "s|^ *rank \([0-9]*\): $1 (iteration 0): [a-z]* .*/file\.mdbench\.\([0-9]*\)\.0: .*|\1=\2|p" "$OUT" |
    sort -n | tr '\n' ' '
}
declare -A WANT=()
while IFS=$'\t' read -r np shift phase rank owner; do
  [[ $np == \#* ]] && continue
  WANT["$np $shift $phase"]+="$rank=$owner "
done <"$fx/shift.tsv"
for np_shift in "2 2" "2 3" "4 4" "4 6" "4 9"; do
  read -r np shift <<<"$np_shift"
  t=$BASE/shift.$np.$shift
  run "$np" -d "$t" -F -n 2 -w 1 -C
  expect_rc 0 "-N $shift np=$np: create"
  find "$t" -name 'file.mdbench.*.0' -delete
  for pair in "stat T file-stat" "read E file-read" "remove r file-remove"; do
    read -r phase letter name <<<"$pair"
    run "$np" -d "$t" -F -n 2 -e 1 "-$letter" -N "$shift"
    expect_rc 1 "-N $shift np=$np $phase: accepted, runs (item 0 of each rank is missing)"
    expect_eq "$(owners "$name")" "${WANT["$np $shift $phase"]}" "-N $shift np=$np $phase: mdtest's owners"
  done
  if [ $((shift % np)) = 0 ]; then
    expect_in "$OUT" "-N $shift with $np ranks wraps to no shift ($shift mod $np, as mdtest)" \
      "-N $shift np=$np: the console says it wraps to no shift"
  else
    expect_in "$OUT" "wraps to shift $((shift % np)) ($shift mod $np, as mdtest): all ranks are on one node" \
      "-N $shift np=$np: the console says where it lands"
  fi
done
run 2 -d "$BASE/shift.mdtest" -F -n 2 -N 2 --output mdtest
expect_rc 0 "-N 2 np=2 --output mdtest"
expect_in "$ERR" "mdbench: note: -N 2 with 2 ranks wraps to no shift" "--output mdtest: the note on standard error"
expect_not_in "$OUT" "wraps to" "--output mdtest: the mdtest stream is mdtest's"

# Item 10: a create job run twice exits 1, touches nothing, and says what to do; both ways it names work.
for finish in "-r" "clean"; do
  t=$BASE/twice.${finish#-}
  run 2 -d "$t" -C -F -n 4
  before=$(fingerprint "$t")
  run 2 -d "$t" -C -F -n 4
  expect_rc 1 "create job run twice"
  expect_in "$ERR" "an earlier run left it; a -r job (with the create job's options) removes its items, 'mdbench clean $t' removes what any run left, or choose another -d" \
    "create job run twice: what to do"
  expect_eq "$(fingerprint "$t")" "$before" "create job run twice: nothing touched"
  if [ "$finish" = -r ]; then run 2 -d "$t" -r -F -n 4; else run 0 clean "$t"; fi
  expect_rc 0 "create job run twice: '$finish' as the message says"
  expect_absent "$t/mdbench.iter.0" "'$finish' as the message says: the items gone"
done

# Item 15: the -a names mdtest knows and mdbench lacks, each named for what it is; nothing made.
for api_message in "DFS|DFS is an ior backend of mdtest's that mdbench lacks" \
  "Gfarm|Gfarm is an ior backend of mdtest's that mdbench lacks" \
  "MPIIO|MPIIO is an ior backend that mdtest cannot run either" "NOPE|unknown API 'NOPE'"; do
  api=${api_message%%|*}
  run 2 -a "$api" -d "$BASE/api" -n 4
  expect_rc 2 "-a $api refused"
  expect_in "$ERR" "-a/--api: ${api_message#*|} (mdbench supports POSIX, DUMMY, CEPHFS and LIBNFS)" "-a $api: what it is"
  expect_absent "$BASE/api" "-a $api: nothing made"
done
# -a LIBNFS (built in here) without its URL, or with one that names no export directory: a usage error
# before anything is made, and no server is asked.
run 2 -a LIBNFS -d "$BASE/api" -n 4
expect_rc 2 "-a LIBNFS without --libnfs.url refused"
expect_in "$ERR" "-a LIBNFS needs --libnfs.url=nfs://SERVER/EXPORT/" "-a LIBNFS without a URL: what is missing"
run 2 -a LIBNFS --libnfs.url=nfs://127.0.0.1/export -d "$BASE/api" -n 4
expect_rc 2 "-a LIBNFS with a URL without the trailing '/' refused"
expect_in "$ERR" "--libnfs.url nfs://127.0.0.1/export: the export path must end with '/'" \
  "-a LIBNFS: the URL's missing '/' named"
expect_absent "$BASE/api" "-a LIBNFS refused: nothing made"
finish
