#!/usr/bin/env bash
# mdbench check: acceptance gates on real results files (a 2-rank run and a 1,2 sweep), their exit
# statuses and messages, and the JUnit report validated against tests/fixtures/junit.xsd and read back.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3
xsd=$E2E_DIR/../fixtures/junit.xsd

# valid_junit FILE WHAT: FILE validates against our JUnit schema.
valid_junit() {
  if xmllint --noout --schema "$xsd" "$1" >"$BASE/xmllint.txt" 2>&1; then pass; else fail "$2: $(cat "$BASE/xmllint.txt")"; fi
}
# junit_counts FILE: tests, failures and errors of <testsuites> and <testsuite>, the testcases, and the
# testcases holding a <failure>.
junit_counts() {
  "$py" - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suite = root.find("testsuite")
cases = suite.findall("testcase")
print(root.get("tests"), root.get("failures"), root.get("errors"), suite.get("tests"), suite.get("failures"),
      suite.get("errors"), len(cases), sum(c.find("failure") is not None for c in cases))
PY
}
# junit_type FILE NAME: the failure type of the testcase NAME ("none" without a failure).
junit_type() {
  "$py" - "$1" "$2" <<'PY'
import sys, xml.etree.ElementTree as ET
cases = [c for c in ET.parse(sys.argv[1]).getroot().iter("testcase") if c.get("name") == sys.argv[2]]
f = cases[0].find("failure") if cases else None
print("absent" if not cases else "none" if f is None else f.get("type"))
PY
}
# junit_case FILE NAME: "pass" or "fail: MESSAGE" for the testcase NAME, "absent" without one.
junit_case() {
  "$py" - "$1" "$2" <<'PY'
import sys, xml.etree.ElementTree as ET
cases = [c for c in ET.parse(sys.argv[1]).getroot().iter("testcase") if c.get("name") == sys.argv[2]]
if not cases:
    print("absent")
else:
    f = cases[0].find("failure")
    print("pass" if f is None else "fail: " + f.get("message"))
PY
}

r=$BASE/r.h5
s=$BASE/s.h5
# Each phase made to last over 10 ms (the command runs inside the timed region): a rate rule on a phase too
# short to time is NO-DATA (e2e_short_phases), and these tests are about the rules, not the timing.
long=(--run-cmd-after-phase 'sleep 0.02')
run 2 -d "$BASE/t" -n 200 -F -u -i 2 "${long[@]}" -o "$r"
expect_rc 0 "benchmark on 2 ranks"
run 2 -d "$BASE/t" --sweep 1,2 -n 200 -F -u -i 2 "${long[@]}" -o "$s"
expect_rc 0 "sweep 1,2 on 2 ranks"

# A rule set that holds: every metric kind, units, a rank count; one testcase each (one rank count).
pass_rules=("file-create >= 1" "file-stat.rate-min > 0" "file-read.rate-max >= 0.001k ops/s"
  "file-remove@2 >= 1" "file-create.failed == 0" "file-stat.p99 < 10s" "file-create.latency-max <= 60000 ms"
  "tree-create.p50 > 0ns")
args=()
for rule in "${pass_rules[@]}"; do args+=(--require "$rule"); done
run 0 check "$r" "${args[@]}" --junit "$BASE/pass.xml"
expect_rc 0 "passing rules"
expect_in "$OUT" "8 of 8 checks passed" "passing rules: summary"
expect_not_in "$OUT" "FAIL" "passing rules: no FAIL line"
expect_in "$OUT" "PASS  [r] file-create at 2 ranks: " "passing rules: PASS line (the file's name labels it)"
valid_junit "$BASE/pass.xml" "passing rules: JUnit"
expect_eq "$(junit_counts "$BASE/pass.xml")" "8 0 0 8 0 0 8 0" "passing rules: JUnit counts"
for rule in "${pass_rules[@]}"; do
  expect_eq "$(junit_case "$BASE/pass.xml" "$rule @ 2 ranks [r]")" pass "passing rules: testcase '$rule'"
done

# The rate is the mean over iterations of the file's per-iteration aggregate rates: a limit just below
# holds, just above does not.
mean=$("$py" -c '
import h5py, sys
its = h5py.File(sys.argv[1], "r")["runs/run-0000/iterations"].values()
rates = [float(it["file-create"].attrs["ops_per_s"]) for it in its]
print(repr(sum(rates) / len(rates)))' "$r")
below=$("$py" -c "print(repr($mean * (1 - 1e-9)))")
above=$("$py" -c "print(repr($mean * (1 + 1e-9)))")
run 0 check "$r" --require "file-create >= $below" --require "file-create <= $above"
expect_rc 0 "the mean rate of the file (mean $mean)"
run 0 check "$r" --require "file-create > $above"
expect_rc 3 "just above the mean rate fails"

# A rule set that fails: exit 3, the failing testcase has a <failure> naming value and limit.
run 0 check "$r" --require "file-create >= 1G" --require "file-stat >= 1" --junit "$BASE/fail.xml"
expect_rc 3 "failing rule"
expect_in "$OUT" "FAIL  [r] file-create at 2 ranks: " "failing rule: FAIL line"
expect_in "$OUT" "ops/s, required >= 1,000,000,000 ops/s" "failing rule: value and limit"
expect_in "$OUT" "PASS  [r] file-stat at 2 ranks: " "failing rule: the other still passes"
expect_in "$OUT" "1 of 2 checks passed" "failing rule: summary"
valid_junit "$BASE/fail.xml" "failing rule: JUnit"
expect_eq "$(junit_counts "$BASE/fail.xml")" "2 1 0 2 1 0 2 1" "failing rule: JUnit counts"
expect_eq "$(junit_type "$BASE/fail.xml" "file-create >= 1G @ 2 ranks [r]")" threshold "failing rule: a threshold miss"
case "$(junit_case "$BASE/fail.xml" "file-create >= 1G @ 2 ranks [r]")" in
  "fail: [r] file-create at 2 ranks: "*", required >= 1,000,000,000 ops/s") pass ;;
  *) fail "failing rule: testcase has no <failure>: $(junit_case "$BASE/fail.xml" "file-create >= 1G @ 2 ranks [r]")" ;;
esac
expect_eq "$(junit_case "$BASE/fail.xml" "file-stat >= 1 @ 2 ranks [r]")" pass "failing rule: passing testcase"

# The sweep: without @RANKS a rule is checked at every step; @RANKS picks one; a count it lacks fails.
run 0 check "$s" --require "file-create >= 1" --require "file-stat@1 >= 1" --require "file-create@4 >= 1" \
  --junit "$BASE/sweep.xml"
expect_rc 3 "sweep: a missing step fails"
expect_in "$OUT" "PASS  [s] file-create at 1 rank: " "sweep: step 1"
expect_in "$OUT" "PASS  [s] file-create at 2 ranks: " "sweep: step 2"
expect_in "$OUT" "PASS  [s] file-stat at 1 rank: " "sweep: @1"
expect_not_in "$OUT" "file-stat at 2 ranks" "sweep: @1 checks step 1 only"
expect_in "$OUT" "NO-DATA  [s] file-create@4 >= 1: no file-create results at 4 ranks in $s (file-create has 1, 2 ranks)" \
  "sweep: missing step message"
expect_in "$OUT" "3 of 4 checks passed (1 without data)" "sweep: summary"
valid_junit "$BASE/sweep.xml" "sweep: JUnit"
expect_eq "$(junit_counts "$BASE/sweep.xml")" "4 1 0 4 1 0 4 1" "sweep: JUnit counts"
expect_eq "$(junit_type "$BASE/sweep.xml" "file-create@4 >= 1 @ 4 ranks [s]")" no-data "sweep: missing step is no-data"
expect_eq "$(junit_case "$BASE/sweep.xml" "file-stat@1 >= 1 @ 1 ranks [s]")" pass "sweep: @1 testcase"
expect_eq "$(junit_case "$BASE/sweep.xml" "file-create >= 1 @ 2 ranks [s]")" pass "sweep: step 2 testcase"

# Several files are several configurations (a gate never passes on the mean of two systems): r at 2 ranks,
# s at 1 and 2, each verdict named by its file.
run 0 check "$r" "$s" --require "file-create >= 1" --junit "$BASE/both.xml"
expect_rc 0 "two files"
expect_in "$OUT" "3 of 3 checks passed" "two files: one outcome per file and rank count"
expect_in "$OUT" "PASS  [r] file-create at 2 ranks: " "two files: the first named"
expect_in "$OUT" "PASS  [s] file-create at 2 ranks: " "two files: the second named"
expect_eq "$("$py" -c '
import sys, xml.etree.ElementTree as ET
print(" ".join(p.get("value") for p in ET.parse(sys.argv[1]).getroot().iter("property") if p.get("name") == "file"))' \
  "$BASE/both.xml")" "$r $s" "two files: properties"

# Latency: in the rule's unit, failing below any real latency.
run 0 check "$r" --require "file-stat.p99 < 1ns" --require "file-stat.p50 <= 10 s"
expect_rc 3 "latency rule"
expect_in "$OUT" "FAIL  [r] file-stat p99 at 2 ranks: " "latency rule: FAIL line"
expect_in "$OUT" " ns, required < 1 ns" "latency rule: in ns"
expect_in "$OUT" "PASS  [r] file-stat p50 at 2 ranks: " "latency rule: p50 passes"

# No data: a phase the run did not have, and a metric an import lacks (mdtest's output has no latencies):
# NO-DATA naming series, metric and file; the JUnit failure type is no-data, beside a real miss's threshold.
m=$BASE/mdtest.h5
"$MDBENCH" import "$E2E_DIR/../fixtures/import/mdtest-4.1-real-F-n1.txt" -o "$m" >/dev/null 2>&1 ||
  fail "import of a real mdtest output"
run 0 check "$r" "$m" --require "dir-create >= 1" --require "file-create >= 1G" --junit "$BASE/nodata.xml"
expect_rc 3 "no data"
expect_in "$OUT" "NO-DATA  dir-create >= 1: no dir-create results in $r, $m" "no data: missing phase named"
expect_in "$OUT" "0 of 3 checks passed (1 without data)" "no data: summary"
valid_junit "$BASE/nodata.xml" "no data: JUnit"
expect_eq "$(junit_type "$BASE/nodata.xml" "dir-create >= 1")" no-data "no data: JUnit type"
expect_eq "$(junit_type "$BASE/nodata.xml" "file-create >= 1G @ 2 ranks [r]")" threshold \
  "no data: the miss beside it"
expect_eq "$(junit_type "$BASE/nodata.xml" "file-create >= 1G @ 1 ranks [mdtest]")" threshold \
  "no data: the import's miss, named apart"

run 0 check "$m" --require "file-stat.p99 < 1s"
expect_rc 3 "no data: imported latency"
expect_in "$OUT" "NO-DATA  [mdtest] file-stat.p99 < 1s: no file-stat p99 at 1 rank in $m: imported results have no latencies" \
  "no data: imported latency named"

# mdbench runs and an imported mdtest run are two configurations: each verdict names its own, the notes say
# which is which. --pool pools them into one configuration, as before.
run 0 check "$r" "$m" --require "file-create >= 1"
expect_rc 0 "apart: both pass"
expect_in "$OUT" "PASS  [r] file-create at 2 ranks: " "apart: the runs named"
expect_in "$OUT" "PASS  [mdtest] file-create at 1 rank: " "apart: the import named"
expect_in "$OUT" "2 of 2 checks passed" "apart: summary"
run 0 check "$r" "$m" --pool --require "file-create >= 1"
expect_rc 0 "pooled"
expect_in "$OUT" "PASS  [pooled: 2 files] file-create at 1 rank: " "pooled: said, with the count"
expect_not_in "$OUT" "[r]" "pooled: one configuration"

# A gate never passes a failing system: two real mdtest runs at 1 rank, 72,440 and 68,422 creates/s, against
# 70k. Each file is its own configuration (LABEL=FILE names it), the slower fails the gate; only --pool
# takes their mean (70,432), and every pooled verdict says so with its count.
fast=$BASE/fast.h5
slow=$BASE/slow.h5
"$MDBENCH" import "$E2E_DIR/../fixtures/import/mdtest-4.1-real-C-n1.txt" -o "$fast" >/dev/null 2>&1 ||
  fail "import of mdtest -C"
"$MDBENCH" import "$E2E_DIR/../fixtures/import/mdtest-4.1-real-F-n1.txt" -o "$slow" >/dev/null 2>&1 ||
  fail "import of mdtest -F"
run 0 check "$fast" "$slow" --require "file-create >= 70k"
expect_rc 3 "gate: the slower file fails"
expect_in "$OUT" "PASS  [fast] file-create at 1 rank: 72,440 ops/s" "gate: the faster passes, named"
expect_in "$OUT" "FAIL  [slow] file-create at 1 rank: 68,42" "gate: the slower fails, named"
expect_in "$OUT" "1 of 2 checks passed" "gate: summary"
run 0 check tmpfs="$fast" ext4="$slow" --require "file-create >= 70k"
expect_rc 3 "gate: LABEL=FILE"
expect_in "$OUT" "FAIL  [ext4] file-create at 1 rank: " "gate: the label named"
# One label, two files: still two mdtest command lines (-C, -F), so two configurations, as in report.
run 0 check both="$fast,$slow" --require "file-create >= 70k"
expect_rc 3 "gate: LABEL=FILE,FILE of two command lines"
expect_in "$OUT" "PASS  [both] file-create at 1 rank: " "gate: the first command line named"
expect_in "$OUT" "FAIL  [both (mdtest 2)] file-create at 1 rank: " "gate: the second command line named"
run 0 check "$fast" "$slow" --pool --require "file-create >= 70k"
expect_rc 0 "gate: --pool"
expect_in "$OUT" "PASS  [pooled: 2 files] file-create at 1 rank: 70,43" "gate: pooled, said with its count"
run 0 check a="$fast" a="$slow" --require "file-create >= 1"
expect_rc 2 "gate: two configurations with one label"
expect_in "$ERR" "two configurations are labelled 'a'" "gate: the label named"

# Units as tools print them: MB/s (10^6 B/s) beside MiB/s (2^20 B/s), on an imported IOR run whose rate
# rate X MiB/s is 1.048576 X MB/s: a limit of 1.02 X holds in MB/s and fails in MiB/s (and GB/s, IOR's
# "MB/sec" spelling, parse the same way).
i=$BASE/ior.h5
"$MDBENCH" import "$E2E_DIR/../fixtures/import/ior-4.1-real-n1.json" -o "$i" >/dev/null 2>&1 ||
  fail "import of a real IOR output"
run 0 check "$i" --require "ior:write >= 0"
expect_rc 0 "IOR: any rate"
x=$(sed -n 's/^PASS  \[ior\] ior:write at 1 client: \([0-9,.]*\) MiB\/s.*/\1/p' "$OUT" | tr -d ,)
limit=$("$py" -c "print(round($x * 1.02, 6))")
gb=$("$py" -c "print(round($x * 1.02 / 1e3, 9))")
run 0 check "$i" --require "ior:write >= $limit MB/s" --require "ior:write>=${gb}GB/s" \
  --require "ior:write >= $limit MB/sec"
expect_rc 0 "IOR: $limit MB/s holds at $x MiB/s"
expect_in "$OUT" "3 of 3 checks passed" "IOR: MB/s, GB/s, MB/sec"
expect_in "$OUT" "MB/s, required >= " "IOR: shown in MB/s"
run 0 check "$i" --require "ior:write >= $limit MiB/s"
expect_rc 3 "IOR: $limit MiB/s does not hold at $x MiB/s"
run 0 check "$i" --require "ior:write >= 1 kB/s"
expect_rc 2 "IOR: kB/s is ambiguous"
expect_in "$ERR" "'kB/s' is ambiguous" "IOR: kB/s message"

# The README's check example runs as written, from the top of the repository, against the files it names:
# the command is read from README.md (its continuation lines joined), the .h5 files it names must exist in
# the repository and are copied to the same relative paths under a scratch directory, where it runs with
# `mdbench` being the binary under test; every rule holds and the JUnit report it names is valid.
src=$E2E_DIR/../..
# check_example FILE: the one `mdbench check docs/...` command of a Markdown file, continuation lines joined
# (the README, whose reader has not installed mdbench yet, calls it build/mdbench: the same command).
check_example() {
  "$py" - "$1" <<'PY'
import re, sys
lines = [re.sub(r"^    build/mdbench ", "    mdbench ", l) for l in open(sys.argv[1]).read().split("\n")]
start = [i for i, l in enumerate(lines) if l.startswith("    mdbench check docs/")]
if len(start) != 1:
    sys.exit("%s: %d check examples on docs/ files, expected 1" % (sys.argv[1], len(start)))
cmd, i = "", start[0]
while True:
    cmd += lines[i].strip()
    if not cmd.endswith("\\"):
        break
    cmd, i = cmd[:-1] + " ", i + 1
print(cmd)
PY
}
readme_cmd=$(check_example "$src/README.md")
expect_eq "$(check_example "$src/docs/report.md")" "$readme_cmd" "docs/report.md shows the README's check example"
[ -n "$readme_cmd" ] || fail "README: no check example found"
mkdir -p "$BASE/readme"
mapfile -t named < <(grep -o '[^ ]*\.h5' <<<"$readme_cmd")
[ "${#named[@]}" -ge 1 ] || fail "README check example names no results file: $readme_cmd"
for f in "${named[@]}"; do
  if [ -f "$src/$f" ]; then
    mkdir -p "$BASE/readme/$(dirname "$f")" && cp "$src/$f" "$BASE/readme/$f" && pass
  else
    fail "README check example names $f, which is not in the repository"
  fi
done
mdbench() { "$MDBENCH" "$@"; }
rc=0
(cd "$BASE/readme" && eval "$readme_cmd") >"$BASE/readme.out" 2>&1 || rc=$?
expect_eq "$rc" 0 "README check example: exit status ($(cat "$BASE/readme.out"))"
n=$(grep -c '^PASS  ' "$BASE/readme.out")
expect_in "$BASE/readme.out" "$n of $n checks passed" "README check example: summary"
expect_not_in "$BASE/readme.out" "FAIL" "README check example: no FAIL"
expect_not_in "$BASE/readme.out" "NO-DATA" "README check example: no NO-DATA"
junit=$(grep -o -- '--junit [^ ]*' <<<"$readme_cmd" | cut -d' ' -f2)
valid_junit "$BASE/readme/$junit" "README check example: JUnit"

# Bad rules: every one reported, by its text, exit 2 before any file is read (the file does not exist).
run 0 check "$BASE/absent.h5" --require "file-creat >= 1" --require "file-stat.p99 < 2" \
  --require "file-create@0 > 1" --require "file-create >= 1 MiB/s" --require "file-create >= 1" \
  --junit "$BASE/bad.xml"
expect_rc 2 "bad rules"
expect_in "$ERR" "rule 'file-creat >= 1': unknown series 'file-creat'" "bad rules: unknown series"
expect_in "$ERR" "rule 'file-stat.p99 < 2': a latency needs a unit" "bad rules: latency without unit"
expect_in "$ERR" "rule 'file-create@0 > 1': '@0' is not a rank count" "bad rules: @0"
expect_in "$ERR" "rule 'file-create >= 1 MiB/s': MiB/s does not fit file-create" "bad rules: unit"
expect_not_in "$ERR" "absent.h5" "bad rules: the results file is not read"
expect_absent "$BASE/bad.xml" "bad rules: no JUnit"

# A rules file: comments and blank lines skipped, a bad line named FILE:LINE; a good file passes.
printf '# nightly gates\n\nfile-create >= 1  # headline\nfile-stat.p99 < 2\nfile-create.failed == 0\n' \
  >"$BASE/bad.rules"
run 0 check "$r" --rules "$BASE/bad.rules"
expect_rc 2 "rules file with a bad line"
expect_in "$ERR" "$BASE/bad.rules:4: rule 'file-stat.p99 < 2': a latency needs a unit" "rules file: FILE:LINE"
expect_eq "$(grep -c "rule '" "$ERR")" 1 "rules file: only the bad line"
printf '# nightly gates\n\nfile-create >= 1  # headline\nfile-stat.p99 < 2s\n' >"$BASE/good.rules"
run 0 check "$r" --rules "$BASE/good.rules" --require "file-remove > 0"
expect_rc 0 "rules file and --require"
expect_in "$OUT" "3 of 3 checks passed" "rules file and --require: summary"
run 0 check "$r" --rules "$BASE/none.rules"
expect_rc 2 "missing rules file"
expect_in "$ERR" "$BASE/none.rules" "missing rules file: named"

# A results file that cannot be read: exit 1 naming it; the JUnit report says so as an error.
run 0 check "$r" "$BASE/absent.h5" --require "file-create >= 1" --junit "$BASE/error.xml"
expect_rc 1 "missing results file"
expect_in "$ERR" "$BASE/absent.h5" "missing results file: named"
valid_junit "$BASE/error.xml" "missing results file: JUnit"
expect_eq "$(junit_counts "$BASE/error.xml")" "1 0 1 1 0 1 1 0" "missing results file: JUnit counts"

# --junit never overwrites without --force: exit 2 naming the file, which is left as it was.
echo "the user's own file" >"$BASE/keep.xml"
run 0 check "$r" --require "file-create >= 1" --junit "$BASE/keep.xml"
expect_rc 2 "existing JUnit file"
expect_in "$ERR" "$BASE/keep.xml exists" "existing JUnit file: named"
expect_eq "$(cat "$BASE/keep.xml")" "the user's own file" "existing JUnit file: unchanged"
run 0 check "$r" --require "file-create >= 1" --junit "$BASE/keep.xml" --force
expect_rc 0 "existing JUnit file with --force"
valid_junit "$BASE/keep.xml" "--force: JUnit"
expect_eq "$(junit_counts "$BASE/keep.xml")" "1 0 0 1 0 0 1 0" "--force: JUnit counts"

finish
