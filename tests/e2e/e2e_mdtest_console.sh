#!/usr/bin/env bash
# Issue 30 items 9 and 13: --output mdtest prints every line a real mdtest 4.1 prints, in its order, for -v
# (the option dump and mdtest's other -v lines), -N, -R, the phase commands, -W and -x, against consoles a
# real mdtest printed (fixtures/mdtest-console, made by make_fixture.sh there; normalize.sh says what may
# differ). Rank 0's lines must come in mdtest's order; the other ranks' -v lines (whose place in mdtest's
# stream is wherever MPI forwards them) must all be there. Nothing follows "-- finished at": mdbench's own
# lines are on standard error. mdtest is not needed to run the test.
source "$(dirname "$0")/lib.sh" "$@"
fx=$E2E_DIR/fixtures/mdtest-console

rank0() { grep -Ev '^V-[0-9]: Rank +[1-9]' "$1"; }
others() { grep -E '^V-[0-9]: Rank +[1-9]' "$1" | sort; }

n=0
t=
while IFS=$'\t' read -r -u 3 name args; do  # fd 3: mpiexec reads stdin
  [[ $name == \#* ]] && continue
  n=$((n + 1))
  if [[ $args == "+ "* ]]; then args=${args#+ }; else t=$BASE/$name && mkdir -p "$t"; fi
  read -r -a words <<<"${args//T\//$t/}"
  cd "$t" || exit 1
  run 2 -d "$t/x" "${words[@]}" --output mdtest
  cd "$BASE" || exit 1
  expect_rc 0 "$name: '$args'"
  "$fx/normalize.sh" "$t" <"$OUT" >"$BASE/$name.got"
  if diff <(rank0 "$fx/$name.out") <(rank0 "$BASE/$name.got") >"$BASE/diff"; then pass; else
    fail "$name: '$args': rank 0's lines differ from mdtest's (< mdtest, > mdbench): $(cat "$BASE/diff")"
  fi
  expect_eq "$(others "$BASE/$name.got" | tr '\n' '|')" "$(others "$fx/$name.out" | tr '\n' '|')" \
    "$name: the other ranks' -v lines"
  expect_eq "$(sed -n '/^-- finished at/,$p' "$OUT" | sed 1d | tr -d '\n')" "" "$name: nothing after '-- finished at'"
  expect_in "$ERR" "mdbench: exit status 0" "$name: mdbench's status line on standard error"
done 3<"$fx/lines.tsv"
if [ "$n" -ge 10 ]; then pass; else fail "lines.tsv: only $n lines read"; fi

# Item 9: each argument quoted as mdtest quotes it, a space or a quote inside one included.
run 2 -d "$BASE/q" -F -n 2 -C -r --run-cmd-before-phase="echo a  b" --output mdtest
expect_rc 0 "an argument with spaces"
expect_in "$OUT" "Command line used: $MDBENCH '-d' '$BASE/q' '-F' '-n' '2' '-C' '-r' '--run-cmd-before-phase=echo a  b' '--output' 'mdtest'" \
  "the command line as mdtest prints it"
finish
