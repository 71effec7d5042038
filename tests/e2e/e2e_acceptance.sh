#!/usr/bin/env bash
# docs/acceptance.md's five commands, read from the page and run as written, in order, from a directory laid
# out as the top of the repository (build/mdbench is the binary under test, tests/ and docs/ the sources'):
# each exits 0, and each leaves what the page says it leaves.
source "$(dirname "$0")/lib.sh" "$@"
src=$(cd "$E2E_DIR/../.." && pwd)
page=$src/docs/acceptance.md

# The page's commands: its indented code lines under "## The five commands", continuation lines joined.
mapfile -t commands < <(/usr/bin/python3 - "$page" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
section = text.split("## The five commands", 1)[1].split("\n## ", 1)[0]
cmd = ""
for line in section.split("\n"):
    if not re.match(r"^ {7}\S", line):
        continue
    cmd += line.strip()
    if cmd.endswith("\\"):
        cmd = cmd[:-1] + " "
        continue
    print(cmd)
    cmd = ""
PY
)
expect_eq "${#commands[@]}" 5 "docs/acceptance.md has five commands"

top=$BASE/top
mkdir -p "$top/build"
ln -s "$MDBENCH" "$top/build/mdbench"
ln -s "$src/tests" "$top/tests"
ln -s "$src/docs" "$top/docs"
# The page's benchmark directory must be free, and is left as it was found: absent.
target=$(grep -o -- '-d [^ ]*' <<<"${commands[0]}" | cut -d' ' -f2)
if [ -z "$target" ] || [ -e "$target" ]; then fail "the page's -d '$target' is missing or in use already"; fi
# The page's mpiexec is the launcher under test (`command`: MPIEXEC may be plain mpiexec).
mpiexec() { command "$MPIEXEC" "$@"; }

i=0
for cmd in "${commands[@]}"; do
  i=$((i + 1))
  RC=0
  (cd "$top" && eval "$cmd") >"$OUT" 2>"$ERR" || RC=$?
  export RC
  expect_rc 0 "command $i as written: $cmd"
done

expect_absent "$target" "step 1 removed what it made"

if "$MDBENCH" validate "$top/acceptance.h5" >"$OUT" 2>&1; then pass; else fail "acceptance.h5 validates"; fi
if /usr/bin/python3 - "$top/acceptance.h5" >"$OUT" 2>&1 <<'PY'
import h5py, sys
f = h5py.File(sys.argv[1], "r")
assert len(f["runs"]) == 1, list(f["runs"])
assert len(f["datapath"]) == 2, list(f["datapath"])
PY
then pass; else fail "acceptance.h5: one 2-rank run and two IOR imports"; fi
for f in acceptance-report/report.md acceptance-report/file-create.svg acceptance-report/ior-write.svg \
  comparison/report.md comparison/file-create-relative.svg; do
  if [ -s "$top/$f" ]; then pass; else fail "step output $f missing"; fi
done
if xmllint --noout --schema "$src/tests/fixtures/junit.xsd" "$top/acceptance.xml" >"$OUT" 2>&1; then pass
else fail "acceptance.xml is valid JUnit"; fi
expect_eq "$(grep -c '<testcase' "$top/acceptance.xml")" 3 "acceptance.xml: one case per rule"
finish
