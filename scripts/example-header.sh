#!/usr/bin/env bash
# results-schema/example-header.txt: `h5dump -H` of a file written by a small fixed run.
#   scripts/example-header.sh check   compare with the committed dump (the test suite runs this)
#   scripts/example-header.sh update  rewrite the committed dump after a schema change
set -euo pipefail
mode=${1:?usage: example-header.sh check|update}
repo=$(cd "$(dirname "$0")/.." && pwd)
mdbench=$(realpath "${MDBENCH:-$repo/build/mdbench}")
work=$(mktemp -d /dev/shm/mdbench-example.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
# 10 s intervals: one per phase however slow the machine, so the series' shapes do not depend on it.
"$mdbench" -F -n 10 --series-interval 10 -d "$work/target" -o example.h5 >/dev/null
h5dump -H example.h5 >dump.txt
committed=$repo/results-schema/example-header.txt
case "$mode" in
  update) cp dump.txt "$committed"; echo "updated $committed" ;;
  check)
    if diff -u "$committed" dump.txt; then
      echo "example header matches ($(wc -l <dump.txt) lines)"
    else
      echo "results-schema/example-header.txt is out of date: run scripts/example-header.sh update (and bump the schema version if the layout changed)" >&2
      exit 1
    fi ;;
  *) echo "usage: example-header.sh check|update" >&2; exit 2 ;;
esac
