# shellcheck shell=bash
# For the tests that mount small file systems below BASE (root only), sourced after lib.sh: mount_fs, and an
# exit trap that kills a leftover background job (JOB), unmounts in reverse order and removes BASE.
MOUNTS=()
JOB=""
cleanup() {
  [ -z "$JOB" ] || kill -9 "$JOB" 2>/dev/null
  local i
  for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
    umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}" || echo "cannot unmount ${MOUNTS[i]}" >&2
  done
  rm -rf "$BASE"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# mount_fs NAME OPTIONS: a fresh tmpfs at BASE/NAME, unmounted at exit. A mount that fails fails the test.
mount_fs() {
  mkdir "$BASE/$1" || exit 1
  if ! mount -t tmpfs -o "$2" tmpfs "$BASE/$1"; then
    fail "cannot mount a tmpfs at $BASE/$1 (needs root)"
    finish
    exit 1
  fi
  MOUNTS+=("$BASE/$1")
}
