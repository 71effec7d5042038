#!/usr/bin/env bash
# Every documented command marked `doc-test: testbed` (README.md, docs/, jobscripts/ and the job scripts'
# headers; tests/e2e/doc_commands.py), run as written on the test bed from a directory laid out as the top
# of the repository, the sites' directories (/lustre/scratch/md, ...) on its CephFS, their scale brought to
# its two nodes of two CPUs (SCALE below), each block's jobs waited for and their exit statuses checked.
# docs/testbed.md's block takes the test bed down and brings it up again: it runs last.
source "$(dirname "$0")/lib.sh"
src=$(cd "$TB_TESTS/../.." && pwd)
docs=(/usr/bin/python3 "$src/tests/e2e/doc_commands.py")

top=$TB_TMP/top
mkdir -p "$top/build" "$top/.installed"
ln -s "$MDBENCH" "$top/build/mdbench"
ln -s "$MDBENCH" "$top/.installed/mdbench"
for d in docs tests jobscripts scripts results-schema; do ln -s "$src/$d" "$top/$d"; done

# sudo resets the environment: docs/testbed.md's `sudo scripts/testbed.sh up|status|down` would act on the
# default test bed (/tmp/mdbench-testbed) where MDBENCH_TESTBED_DIR names another one (a developer's beside
# it). A sudo that keeps that one variable (root may: --preserve-env); the same test bed as before in CI.
mkdir -p "$TB_TMP/bin"
printf '#!/bin/sh\nexec /usr/bin/sudo --preserve-env=MDBENCH_TESTBED_DIR "$@"\n' >"$TB_TMP/bin/sudo"
chmod 755 "$TB_TMP/bin/sudo"
export PATH=$TB_TMP/bin:$PATH

status=0
"${docs[@]}" run "$src" testbed "$top" "$TB_FS" --scale --except docs/testbed.md || status=1
"${docs[@]}" run "$src" testbed "$top" "$TB_FS" --scale --only docs/testbed.md || status=1
[ "$status" = 0 ] || tb_fail "documented commands failed on the test bed (above)"
"$TB_SCRIPT" status >/dev/null 2>&1 || tb_fail "the test bed is not up after docs/testbed.md's commands"
[ "$TB_FAILED" = 0 ] && tb_ok "every documented test-bed command ran as written"
exit "$TB_FAILED"
