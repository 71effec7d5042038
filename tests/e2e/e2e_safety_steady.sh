#!/usr/bin/env bash
# --steady never touches a name it did not make: an object or a dataset directory a user plants in the run's
# directory before precreate makes it is a failed create, and no rank stats, reads, deletes or enters it
# afterwards (the mix and the cleanup included). Plants race the real run, as a user would, and are retried
# until one lands first.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" "${1:-shm}"

# plant_race WHAT NAME...: runs a 2-rank steady run on $BASE/t and plants the names (paths relative to the
# iteration directory; a trailing / makes a directory) as soon as their parent exists. Tries until a plant
# landed before mdbench made the name; PLANTED says whether one did.
plant_race() {
  local what=$1
  shift
  PLANTED=no
  for _try in $(seq 20); do
    rm -rf "$BASE/t"
    mkdir "$BASE/t"
    "$MPIEXEC" -n 2 "$MDBENCH" -d "$BASE/t" --steady 3 --datasets 1 -n 60000 -o "$BASE/s.h5" --force \
      >"$OUT" 2>"$ERR" &
    local pid=$! name
    for name in "$@"; do
      # A busy loop (no process per try): the plant lands microseconds after its parent appears.
      /usr/bin/python3 - "$BASE/t/mdbench.iter.0/$name" <<'PY'
import os, sys, time
path = sys.argv[1]
is_dir = path.endswith("/")
path = path.rstrip("/")
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    try:
        if is_dir:
            os.mkdir(path)
            with open(os.path.join(path, "keep.txt"), "w") as f:
                f.write("user dir\n")
            # Dated in the past: an entry mdbench made or removed in it later would move its mtime to now.
            os.utime(path, (946684800, 946684800))
        else:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            os.write(fd, b"user data\n")
            os.close(fd)
        break
    except FileNotFoundError:
        continue
    except FileExistsError:
        break
PY
    done
    wait "$pid"
    RC=$?
    if grep -q "EEXIST" "$OUT" "$ERR"; then
      PLANTED=yes
      return
    fi
  done
  fail "$what: no plant landed before mdbench made the name in 20 tries"
}

# An object of rank 1's dataset, near the end of precreate: the mix and the cleanup must leave it.
plant_race "object" "steady.mdbench.1.0/obj.mdbench.1.0.59999"
if [ "$PLANTED" = yes ]; then
  expect_rc 1 "planted object: the run fails"
  planted=$BASE/t/mdbench.iter.0/steady.mdbench.1.0/obj.mdbench.1.0.59999
  expect_eq "$(cat "$planted" 2>/dev/null)" "user data" "planted object: kept, unchanged"
  expect_eq "$(find "$BASE/t" -mindepth 1 -name 'obj.mdbench.*' | wc -l)" 1 "planted object: only it is left"
fi

# A dataset directory of rank 0: nothing is created in it, nothing removed from it, it stays.
plant_race "dataset" "steady.mdbench.0.0/"
if [ "$PLANTED" = yes ]; then
  expect_rc 1 "planted dataset: the run fails"
  expect_eq "$(cat "$BASE/t/mdbench.iter.0/steady.mdbench.0.0/keep.txt" 2>/dev/null)" "user dir" \
    "planted dataset: kept with its file"
  expect_eq "$(find "$BASE/t/mdbench.iter.0/steady.mdbench.0.0" -mindepth 1 | wc -l)" 1 \
    "planted dataset: nothing is left in it"
  expect_eq "$(stat -c %y "$BASE/t/mdbench.iter.0/steady.mdbench.0.0" | cut -c1-4)" 2000 \
    "planted dataset: never written into (its mtime is the user's)"
  expect_absent "$BASE/t/mdbench.iter.0/steady.mdbench.1.0" "planted dataset: the other dataset was removed"
fi

finish
