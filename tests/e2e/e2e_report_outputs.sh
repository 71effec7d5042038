#!/usr/bin/env bash
# What mdbench report writes, as a new user meets it (issue 29 item 7, issue 33 item 3): two configurations
# of identical values both visible in every chart (check_svg --visible); `report -d DIR` into a DIR that
# holds a report fails before it prints or writes anything, with one message naming every existing file
# and no "//" whatever DIR's trailing slashes; the Markdown report has the server-counter section the text
# has; -Y's header names the call made (sync(2) as mdtest, syncfs(2) with --sync-call syncfs).
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3
SVG="$py $E2E_DIR/check_svg.py"
target=$BASE/target
mkdir -p "$target"

svg_ok() {  # svg_ok WHAT FILE CHECKS...
  local what=$1
  shift
  if $SVG "$@" >"$BASE/svg.txt" 2>&1; then pass; else fail "$what: $(cat "$BASE/svg.txt")"; fi
}

# ---- -Y: the header says what is called ----
# 20000 files per rank: long enough for the file phases' rates to be charted below.
files_src="cmd:printf 'files %s\n' \$(find $target -type f | wc -l)"
run 2 -d "$target" -n 20000 -F -u -Y --server-stats "$files_src" -o "$BASE/a.h5"
expect_rc 0 "run with -Y and --server-stats"
expect_in "$OUT" "sync(2) of every file system of the node at the end of each item phase" "-Y header: sync(2)"
expect_not_in "$OUT" "syncfs" "-Y header: no syncfs when sync is called"
run 1 -d "$target" -n 10 -F -u -Y --sync-call syncfs -o "$BASE/syncfs.h5"
expect_rc 0 "run with -Y --sync-call syncfs"
expect_in "$OUT" "syncfs(2) of the target's file system at the end of each item phase" "-Y header: syncfs(2)"

# ---- Two configurations of identical values: both drawn, neither hidden ----
cp "$BASE/a.h5" "$BASE/b.h5"
run 0 report A="$BASE/a.h5" B="$BASE/b.h5" -d "$BASE/out/"
expect_rc 0 "report of two identical configurations"
cp "$OUT" "$BASE/report.txt"
expect_in "$OUT" "wrote $BASE/out/report.md and" "the report's path is joined cleanly"
expect_not_in "$OUT" "//" "no double slash in the output"
svg_ok "overview: both configurations visible" "$BASE/out/overview.svg" --series A --series B --visible
svg_ok "file-create: both configurations visible" "$BASE/out/file-create.svg" --series A --series B --visible

# ---- The Markdown has every section of the text, and every line in them, the server counters too ----
expect_in "$BASE/report.txt" "Metadata server counters (--server-stats; first iteration of each run):" \
  "text: server section"
expect_in "$BASE/out/report.md" "## Metadata server counters (--server-stats; first iteration of each run)" \
  "Markdown: server section"
expect_in "$BASE/out/report.md" "  server cmd:printf" "Markdown: the create phase's counters"
if "$py" - "$BASE/report.txt" "$BASE/out/report.md" <<'PY' >"$BASE/check.txt" 2>&1; then pass; else fail "sections: $(cat "$BASE/check.txt")"; fi
import re
import sys
text = open(sys.argv[1]).read().splitlines()
md = open(sys.argv[2]).read()
# The text's section headings: lines at the margin, before the notes.
headings = [l for l in text if l and not l.startswith((" ", "note")) and not l.startswith("wrote ")]
assert len(headings) >= 4, headings
for h in headings:
    title = h.rstrip(":")
    if title.startswith("First-done"):
        title = "Throughput over time"
    assert f"\n## {title}\n" in md, f"no Markdown section for {h!r}"
# Every line under them (tables, lists, run titles, server counters) is in the Markdown too: its words,
# in order, in one line (a table row's cells between pipes, an escaped character unescaped).
md_lines = [re.sub(r"\\([|*_`\[\]<>])", r"\1", l).replace("|", " ").split() for l in md.splitlines()]
def within(words, line):
    return any(line[i:i + len(words)] == words for i in range(len(line) - len(words) + 1))
body = [l for l in text if l.startswith(" ")]
assert len(body) >= 20, body
for l in body:
    assert any(within(l.replace("|", " ").split(), m) for m in md_lines), f"no Markdown line for {l!r}"
PY

# ---- report -d into a directory holding a report: one message, nothing printed or written ----
before=$(fingerprint "$BASE/out")
for dir in "$BASE/out" "$BASE/out/" "$BASE/out//"; do
  run 0 report A="$BASE/a.h5" B="$BASE/b.h5" -d "$dir"
  expect_rc 2 "report -d $dir holding a report"
  expect_eq "$(wc -c <"$OUT")" 0 "report -d $dir: nothing printed before the error"
  expect_in "$ERR" "report files exist in $BASE/out: report.md, " "report -d $dir: the existing paths named"
  expect_in "$ERR" "overview.svg" "report -d $dir: the charts named too"
  expect_not_in "$ERR" "//" "report -d $dir: no double slash"
  expect_eq "$(grep -c . "$ERR")" 2 "report -d $dir: one message (and the --help hint)"
done
expect_eq "$(fingerprint "$BASE/out")" "$before" "nothing in the directory touched"

# Without report.md, the charts that are there are all named, in one message, before anything is printed.
rm "$BASE/out/report.md"
before=$(fingerprint "$BASE/out")
run 0 report A="$BASE/a.h5" B="$BASE/b.h5" -d "$BASE/out/"
expect_rc 2 "report -d over existing charts"
expect_eq "$(wc -c <"$OUT")" 0 "existing charts: nothing printed"
expect_in "$ERR" "report files exist in $BASE/out: file-create.svg, " "existing charts: one message for them all"
expect_in "$ERR" ", overview.svg, " "existing charts: overview.svg named"
expect_not_in "$ERR" "//" "existing charts: no double slash"
expect_eq "$(fingerprint "$BASE/out")" "$before" "existing charts: nothing touched"

# --force replaces them, and the path is still joined cleanly.
run 0 report A="$BASE/a.h5" B="$BASE/b.h5" -d "$BASE/out//" --force
expect_rc 0 "report --force"
expect_in "$OUT" "wrote $BASE/out/report.md and" "--force: clean path"

# A link given with a trailing slash is still a link: nothing is written through it.
mkdir "$BASE/real"
ln -s "$BASE/real" "$BASE/link"
run 0 report A="$BASE/a.h5" -d "$BASE/link/"
expect_rc 2 "report -d LINK/"
expect_in "$ERR" "is a symbolic link" "report -d LINK/: refused as a link"
expect_empty_dir "$BASE/real" "report -d LINK/: nothing written through the link"

# A DIR that cannot be made is refused before anything is printed; one with missing parents is made.
touch "$BASE/afile"
run 0 report A="$BASE/a.h5" -d "$BASE/afile/sub/"
expect_rc 2 "report -d under a file"
expect_eq "$(wc -c <"$OUT")" 0 "report -d under a file: nothing printed"
expect_in "$ERR" "--out-dir $BASE/afile/sub: " "report -d under a file: the directory named, without its slash"
run 0 report A="$BASE/a.h5" -d "$BASE/new/a/b//"
expect_rc 0 "report -d with missing parents"
expect_in "$OUT" "wrote $BASE/new/a/b/report.md and" "missing parents: made, and the path joined cleanly"

# The same joins elsewhere: clean names what it removes in DIR by one slash, however DIR was given.
run 1 -d "$target" -n 5 -F -u --keep
expect_rc 0 "a kept run"
run 0 clean --dry-run "$target//"
expect_rc 0 "clean --dry-run DIR//"
expect_in "$OUT" "would remove $target/mdbench.iter.0 (" "clean DIR//: the run directory named"
expect_not_in "$OUT" "//" "clean DIR//: no double slash"
run 0 clean "$target/"
expect_rc 0 "clean DIR/"
expect_in "$OUT" "removed $target/mdbench.iter.0 (" "clean DIR/: removed, named by one slash"

finish
