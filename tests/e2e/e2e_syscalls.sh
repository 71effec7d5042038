#!/usr/bin/env bash
# --path-style full (the default) makes, per operation, the system calls mdtest 4.1's POSIX backend makes:
# one mdbench rank under strace, a few items per phase, its calls per item operation normalised (call, flags,
# mode; paths reduced to the item's role, descriptors to FD or DIRFD) and compared with mdtest's, recorded
# from a real mdtest run in fixtures/mdtest_syscalls.txt. The only differences allowed are the safety
# additions docs/path-style.md lists, each undone below by one named rule before the comparison;
# anything else (another call, flag or mode, a descriptor-relative call other than rule 4's type check)
# fails. mdtest is not needed to run the test.
# Usage: e2e_syscalls.sh [shm]               the test
#        IOR_COMMIT=<hpc/ior commit> e2e_syscalls.sh --record MDTEST
#                                             remake the fixture from a real mdtest binary (built outside
#                                             the repository from that commit), then review the diff
set -u
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIXTURE=$E2E_DIR/fixtures/mdtest_syscalls.txt

# The cases: name | mdtest's arguments | mdbench's (the same phases: mdtest's default, its directory rename
# included, is mdbench's) | the safety additions mdbench's trace must show (so that the rules below are not
# vacuous).
CASES=(
  "files|-F -n 3 -w 5 -e 5 -y|-F -n 3 -w 5 -e 5 -y|O_EXCL,AT_SYMLINK_NOFOLLOW,O_NOFOLLOW"
  "dirs|-D -n 3|-D -n 3|AT_SYMLINK_NOFOLLOW,RENAME_NOREPLACE"
)

# normalise TRACE: the item operations of an strace log, one line per run of identical operations:
# "<count> <call>; <call>; ...". An operation is the calls on one item's path plus those on the descriptor
# an open of it returned, until its close.
normalise() {
  python3 - "$1" <<'PY'
import re
import sys

ITEM = re.compile(r"^(file|dir)\.(mdtest|mdbench)\.[0-9a-z]+\.[0-9]+(-XX|\.renamed)?$")
LINE = re.compile(r"^(?:\d+\s+)?(\w+)\((.*)\)\s+=\s+(.*)$")


def split_args(text):
    out, depth, cur, quoted, i = [], 0, "", False, 0
    while i < len(text):
        c = text[i]
        if quoted:
            cur += c
            if c == "\\":
                cur += text[i + 1]
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted, cur = True, cur + c
        elif c in "{[":
            depth, cur = depth + 1, cur + c
        elif c in "}]":
            depth, cur = depth - 1, cur + c
        elif c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


def item_of(arg):
    if not (arg.startswith('"') and arg.endswith('"')):
        return None
    path = arg[1:-1].rstrip("/")
    return path if ITEM.match(path.rsplit("/", 1)[-1]) else None


ops, cur, key, fds = [], None, None, set()
for raw in open(sys.argv[1], errors="replace"):
    m = LINE.match(raw.strip())
    if not m:
        continue
    name, args, ret = m.group(1), split_args(m.group(2)), m.group(3).split(" (")[0].strip()
    paths = [item_of(a) for a in args]
    items = [p for p in paths if p]
    if items:
        norm = []
        for k, (a, p) in enumerate(zip(args, paths)):
            if p:
                norm.append("ITEM" if not any(x == "ITEM" for x in norm) else "ITEM2")
            elif k == 0 and a.isdigit():  # a directory's descriptor: its number says nothing
                norm.append("DIRFD")
            elif not a.startswith("{"):  # a stat buffer's contents are no flag
                norm.append(a)
        if name in ("open", "openat", "creat") and ret.isdigit():
            fds.add(ret)
            ret = "FD"
        # One operation: the consecutive calls on one item, named by its path or (the type check of rule 4)
        # by its name in its directory's descriptor.
        if items[0].rsplit("/", 1)[-1] != key:
            cur, key = [], items[0].rsplit("/", 1)[-1]
            ops.append(cur)
        cur.append(f"{name}({', '.join(norm)}) = {ret}")
    elif args and args[0] in fds and cur is not None:
        norm = ["FD"] + [a for a in args[1:] if not a.startswith(("{", '"'))]
        cur.append(f"{name}({', '.join(norm)}) = {ret}")
        if name == "close":
            fds.discard(args[0])

runs = []
for op in ops:
    line = "; ".join(op)
    if runs and runs[-1][1] == line:
        runs[-1][0] += 1
    else:
        runs.append([1, line])
for count, line in runs:
    print(count, line)
PY
}

# undo_safety: mdbench's normalised operations with docs/path-style.md's safety additions taken out, rule by rule.
undo_safety() {
  python3 -c '
import re
import sys

def flags(call, drop):
    return re.sub(r"(\(AT_FDCWD, ITEM, )([A-Z_|]+)", lambda m: m.group(1) + "|".join(f for f in m.group(2).split("|") if f not in drop), call)

for line in sys.stdin:
    count, _, ops = line.rstrip("\n").partition(" ")
    calls = ops.split("; ")
    lstat = "newfstatat(AT_FDCWD, ITEM, AT_SYMLINK_NOFOLLOW) = 0"
    # 4. unlink or rename outside the listing of a remove or rename phase (more than 8 ranks in a shared tree, no
    # types from the file system): the type check before the call, by the name in the descriptor of the
    # directory the backend holds open (no walk of the full path). A remove or rename phase lists each
    # directory once instead (getdents64 on a descriptor of no item: not an operation here).
    check = "newfstatat(DIRFD, ITEM, AT_SYMLINK_NOFOLLOW) = 0"
    if len(calls) > 1 and calls[0] == check and re.match(r"(unlink|renameat2)\(", calls[1]):
        calls = calls[1:]
    # 2. stat: lstat semantics (the type is checked in memory).
    calls = ["newfstatat(AT_FDCWD, ITEM, 0) = 0" if c == lstat else c for c in calls]
    out = []
    for c in calls:
        if c.startswith("openat(") and "O_CREAT" in c:
            c = flags(c, {"O_EXCL"})  # 1. create: O_EXCL
        elif c.startswith("openat("):
            c = flags(c, {"O_NOFOLLOW", "O_NONBLOCK"})  # 3. read: O_NOFOLLOW, O_NONBLOCK (nothing more)
        # 5. rename: renameat2 with RENAME_NOREPLACE
        c = c.replace("renameat2(AT_FDCWD, ITEM, AT_FDCWD, ITEM2, RENAME_NOREPLACE)", "rename(ITEM, ITEM2)")
        out.append(c)
    print(count, "; ".join(out))
'
}

# section NAME: a case's lines of the fixture.
section() { awk -v s="[$1]" '$0 == s {on = 1; next} /^\[/ {on = 0} on && !/^#/ && NF' "$FIXTURE"; }

if [ "${1:-}" = --record ]; then
  mdtest=${2:?usage: e2e_syscalls.sh --record MDTEST}
  work=$(mktemp -d /dev/shm/mdbench-syscalls-record.XXXXXX) || exit 1
  trap 'rm -rf "$work"' EXIT
  {
    echo "# mdtest's system calls per item operation, for tests/e2e/e2e_syscalls.sh (normalised by it)."
    echo "# Made by: IOR_COMMIT=... tests/e2e/e2e_syscalls.sh --record MDTEST, from real runs of mdtest built"
    echo "# from hpc/ior commit ${IOR_COMMIT:-unknown}, 1 rank (singleton), on tmpfs."
    for entry in "${CASES[@]}"; do
      IFS='|' read -r name mdtest_args _ <<<"$entry"
      # shellcheck disable=SC2086 # the arguments split on purpose
      (cd "$work" && strace -qq -o "$work/$name.trace" "$mdtest" $mdtest_args -d "$work/$name" >"$work/$name.out" 2>&1) ||
        { echo "mdtest $mdtest_args failed" >&2; exit 1; }
      echo "[$name]"
      echo "# $(grep -o 'mdtest-[^ ]* was launched' "$work/$name.out" | cut -d' ' -f1)"
      echo "# mdtest $mdtest_args -d DIR"
      normalise "$work/$name.trace"
    done
  } >"$FIXTURE.new" && mv "$FIXTURE.new" "$FIXTURE"
  echo "wrote $FIXTURE"
  exit 0
fi

# shellcheck source=lib.sh
source "$E2E_DIR/lib.sh" "$@"
command -v strace >/dev/null || { echo "strace is needed" >&2; exit 1; }
[ -s "$FIXTURE" ] || { echo "no fixture $FIXTURE" >&2; exit 1; }

for entry in "${CASES[@]}"; do
  IFS='|' read -r name _ mdbench_args markers <<<"$entry"
  # LeakSanitizer cannot run under ptrace (the sanitized suite's build): leaks are checked everywhere else.
  # shellcheck disable=SC2086 # the arguments split on purpose
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    timeout 120 strace -qq -o "$BASE/$name.trace" "$MDBENCH" $mdbench_args -d "$BASE/$name" -o "$BASE/$name.h5" \
    >"$OUT" 2>"$ERR"
  RC=$?
  expect_rc 0 "$name: mdbench $mdbench_args under strace"
  normalise "$BASE/$name.trace" >"$BASE/$name.mdbench"
  # The safety additions are there ...
  for marker in ${markers//,/ }; do expect_in "$BASE/$name.mdbench" "$marker" "$name: the safety flag"; done
  # A file-remove phase checks the types by one listing per directory: each remove is mdtest's unlink alone.
  if [ "$name" = files ]; then
    expect_in "$BASE/$name.mdbench" " unlink(ITEM) = 0" "files: the removes traced"
    expect_not_in "$BASE/$name.mdbench" "AT_SYMLINK_NOFOLLOW) = 0; unlink(" "files: no type check per remove"
  fi
  # ... and, once they are taken out, what is left is mdtest's, call for call.
  undo_safety <"$BASE/$name.mdbench" | sort >"$BASE/$name.got"
  section "$name" | sort >"$BASE/$name.want"
  if [ -s "$BASE/$name.want" ] && cmp -s "$BASE/$name.want" "$BASE/$name.got"; then
    pass
  else
    fail "$name: per-operation calls differ from mdtest's (fixture < > mdbench):
$(diff "$BASE/$name.want" "$BASE/$name.got")
mdbench as traced:
$(cat "$BASE/$name.mdbench")"
  fi
  expect_absent "$BASE/$name/mdbench.iter.0" "$name: the run removed its tree"
done

finish
