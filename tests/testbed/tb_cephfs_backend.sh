#!/usr/bin/env bash
# The CephFS backend's GoogleTest binary (cephfs_backend_test.cpp) against the test bed: on the head (files
# checked through the head's ceph-fuse client) and inside node1 (through node1's). Fails when the test bed
# is not up (lib.sh). Usage: tb_cephfs_backend.sh BINARY
# shellcheck source=/dev/null
source "$(dirname "$0")/lib.sh"
bin=${1:?usage: tb_cephfs_backend.sh BINARY}
export TB_FS
"$bin" || tb_fail "cephfs_backend_test on the head"
$MDBENCH_TESTBED_EXEC node1 "$bin" || tb_fail "cephfs_backend_test in node1"
[ "$(tb_entries "$TB_FS")" = 0 ] || tb_fail "the tests left entries in $TB_FS: $(ls -A "$TB_FS")"
[ "$TB_FAILED" = 0 ] && tb_ok "cephfs_backend_test on the head and in node1"
