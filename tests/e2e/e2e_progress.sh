#!/usr/bin/env bash
# Rank 0's live progress. In a batch log (--progress SECONDS): plain "progress: " lines in the documented
# format, each inside the phase it reports and at most one per interval, no carriage returns. On a terminal
# (a pseudo-terminal here, singleton runs): one line per phase redrawn with '\r' and "\x1b[K", cut to the
# terminal's width, and cleared before the phase's row. Nothing when the output is not a terminal and no
# --progress is given, nor with --progress 0; a bad value exits 2 naming --progress.
source "$(dirname "$0")/lib.sh" "$@"
py=/usr/bin/python3

# Items per rank that keep file-create and file-remove busy for about a second on tmpfs, so every phase of
# interest outlasts several intervals (a short phase prints nothing, and a test of it could not fail).
ITEMS=150000

# The checks, in one Python file: "pty" runs a command under a pseudo-terminal, "lines" and "terminal" check
# what a run printed.
CHECK=$BASE/check_progress.py
cat >"$CHECK" <<'PY'
import re, sys

DUR = r"(?:\d+\.\d s|\d+m\d\ds|\d+h\d\dm\d\ds)"
RATE = r"(?:\d+(?:\.\d+)?[kMGTP]?|\?)"
HEAD = r"(?P<phase>[a-z]+-[a-z]+)(?: (?P<iter>\d+)/(?P<iters>\d+))?  rank 0: "
WORK = (rf"(?P<done>\d+)/(?P<planned>\d+)(?: \(\d+\.\d%\))?  {RATE} ops/s  elapsed {DUR}  ETA (?:{DUR}|\?)")
WAIT = rf"done (?P<wdone>\d+) ops? in {DUR}; waiting for the other ranks  elapsed {DUR}"
LINE = re.compile(HEAD + "(?:" + WORK + "|" + WAIT + ")")
ROW = re.compile(rb"  done: iteration (\d+) ([a-z]+-[a-z]+) ")


def fail(why):
    sys.exit(why)


def run_under_pty(out_path, columns, args):
    """Runs args with stdout on a pseudo-terminal `columns` wide (stderr to out_path.err); saves the bytes."""
    import fcntl, os, pty, struct, subprocess, termios
    master, slave = pty.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.OPOST  # the bytes as written: no '\n' -> "\r\n"
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    with open(out_path + ".err", "wb") as err:
        child = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=slave, stderr=err, start_new_session=True)
    os.close(slave)
    data = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every process holding the terminal has closed it
            break
        if not chunk:
            break
        data += chunk
    rc = child.wait()
    with open(out_path, "wb") as out:
        out.write(data)
    sys.exit(rc)


def rank0_times(h5_path):
    """(iteration, phase) -> (rank 0's barrier-to-barrier seconds, its planned ops)."""
    import h5py
    times = {}
    with h5py.File(h5_path, "r") as f:
        for it_name, it in f["runs/run-0000/iterations"].items():
            for phase, group in it.items():
                rows = [r for r in group["ranks"][()] if int(r["rank"]) == 0]
                times[(int(it_name.split("-")[1]), phase)] = (
                    float(rows[0]["t_global_end"] - rows[0]["t_start"]), int(rows[0]["planned"]))
    return times


def check_lines(out_path, h5_path, interval):
    """Batch style: every progress line well formed, inside its phase, and at most one per interval."""
    data = open(out_path, "rb").read()
    if b"\r" in data or b"\x1b" in data:
        fail("a carriage return or escape sequence in a batch log")
    times = rank0_times(h5_path)
    counts, pending, total = {}, [], 0
    for raw in data.split(b"\n"):
        if raw.startswith(b"progress: "):
            text = raw[len(b"progress: "):].decode()
            m = LINE.fullmatch(text)
            if not m:
                fail(f"not in the documented format: {text!r}")
            pending.append(m)
            total += 1
            continue
        row = ROW.match(raw)
        if not row:
            if b"rank 0:" in raw:
                fail(f"progress text outside a progress line: {raw!r}")
            continue
        it, phase = int(row.group(1)), row.group(2).decode()
        planned = times[(it, phase)][1]
        last = -1
        for m in pending:
            if m["phase"] != phase or (m["iter"] is not None and int(m["iter"]) != it + 1):
                fail(f"a line of {m['phase']} {m['iter']} before the row of {phase} (iteration {it})")
            done = int(m["done"] if m["done"] is not None else m["wdone"])
            if m["planned"] is not None and int(m["planned"]) != planned:
                fail(f"{phase}: planned {m['planned']}, the results file says {planned}")
            if done < last or done > planned:
                fail(f"{phase}: done {done} after {last}, of {planned}")
            last = done
        counts[(it, phase)] = len(pending)
        pending = []
    if pending:
        fail(f"progress lines after the last phase row: {[m.group(0) for m in pending]}")
    if total == 0:
        fail("no progress lines at all")
    for key, (seconds, _) in sorted(times.items()):
        n = counts.get(key, 0)
        # The first line is due one interval after the phase starts, each next one an interval after it.
        if n > int(seconds / interval) + 1:
            fail(f"{key}: {n} lines in {seconds:.3f} s at one per {interval} s")
        if seconds >= 3 * interval and n == 0:
            fail(f"{key}: no line in {seconds:.3f} s")
    print(f"{total} lines, per phase {sorted(counts.items())}")


def check_terminal(out_path, columns):
    """Terminal style: redraws in place, nothing printed over an open line, each cleared before its row."""
    data = open(out_path, "rb").read()
    if b"progress: " in data:
        fail("plain progress lines on a terminal")
    token = re.compile(rb"\r([^\r\n\x1b]*)\x1b\[K")
    open_phase, redraws, at = None, 0, 0
    for m in token.finditer(data):
        between = data[at:m.start()]
        if between and open_phase is not None:
            fail(f"{between[:80]!r} printed over an open progress line of {open_phase}")
        text = m.group(1).decode()
        if text:
            head = re.match(HEAD, text)
            if not head:
                fail(f"redraw not in the format: {text!r}")
            if columns >= 200 and not LINE.fullmatch(text):
                fail(f"redraw not in the documented format: {text!r}")
            if columns < 200 and len(text) != columns - 1:
                fail(f"redraw of {len(text)} characters on a terminal {columns} wide: {text!r}")
            open_phase = head["phase"]
            redraws += 1
        elif open_phase is not None:
            # Cleared: what follows is that phase's row.
            row = ROW.match(data[m.end():])
            if not row or row.group(2).decode() != open_phase:
                fail(f"after clearing {open_phase}'s line: {data[m.end():m.end() + 80]!r}")
            open_phase = None
        at = m.end()
    if open_phase is not None:
        fail(f"the line of {open_phase} never cleared")
    stray = token.sub(b"", data)
    if b"\r" in stray or b"\x1b" in stray:
        fail("a carriage return or escape outside a redraw")
    if redraws == 0:
        fail("no redraws")
    print(f"{redraws} redraws")


def check_silent(out_path):
    data = open(out_path, "rb").read()
    for bad in (b"\r", b"\x1b", b"progress: ", b"rank 0:"):
        if bad in data:
            fail(f"{bad!r} in the output")


mode = sys.argv[1]
if mode == "pty":
    run_under_pty(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
elif mode == "lines":
    check_lines(sys.argv[2], sys.argv[3], float(sys.argv[4]))
elif mode == "terminal":
    check_terminal(sys.argv[2], int(sys.argv[3]))
elif mode == "silent":
    check_silent(sys.argv[2])
PY

# run_pty COLUMNS ARGS...: mdbench as a singleton, its stdout a terminal COLUMNS wide. Sets RC; stdout in OUT,
# stderr in ERR.
run_pty() {
  local columns=$1
  shift
  timeout 120 "$py" "$CHECK" pty "$OUT" "$columns" "$MDBENCH" "$@"
  RC=$?
  mv "$OUT.err" "$ERR"
}

# check MODE ARGS... WHAT: one of the checks above.
check() {
  local what=${*: -1}
  if "$py" "$CHECK" "${@:1:$#-1}" >"$BASE/check.txt" 2>&1; then pass; else fail "$what: $(cat "$BASE/check.txt")"; fi
}

# ---- Batch: plain lines every 0.2 s on 2 ranks, 2 iterations ----
mkdir "$BASE/batch"
run 2 -n "$ITEMS" -F -i 2 -d "$BASE/batch" --progress 0.2 -o "$BASE/batch.h5"
expect_rc 0 "batch run"
expect_in "$OUT" "progress: file-create 1/2  rank 0: " "batch: a line for file-create, iteration 1 of 2"
check lines "$OUT" "$BASE/batch.h5" 0.2 "batch: lines well formed, in their phases, at most one per interval"
expect_not_in "$ERR" "progress" "batch: nothing on stderr"
expect_empty_dir "$BASE/batch" "batch: cleaned up"

# ---- Terminal: one line redrawn in place, cleared before each row ----
run_pty 250 -n "$ITEMS" -F -d "$BASE/tty" -o "$BASE/tty.h5"
expect_rc 0 "terminal run"
check terminal "$OUT" 250 "terminal: redraws well formed and cleared before their rows"
# The terminal's default width: every line is longer than that, and is cut to 59 columns so '\r' redraws it.
run_pty 60 -n "$ITEMS" -F -d "$BASE/narrow" -o "$BASE/narrow.h5"
expect_rc 0 "narrow terminal run"
check terminal "$OUT" 60 "narrow terminal: redraws cut to the width"
# --progress on a terminal asks for plain lines.
run_pty 250 -n "$ITEMS" -F -d "$BASE/ttylines" --progress 0.3 -o "$BASE/ttylines.h5"
expect_rc 0 "terminal run with --progress"
check lines "$OUT" "$BASE/ttylines.h5" 0.3 "terminal with --progress: plain lines"

# ---- Silence: not a terminal without --progress, and --progress 0 on a terminal ----
run 2 -n "$ITEMS" -F -d "$BASE/quiet" -o "$BASE/quiet.h5"
expect_rc 0 "run without a terminal"
check silent "$OUT" "not a terminal, no --progress: no progress text"
check silent "$ERR" "not a terminal, no --progress: no progress text on stderr"
run_pty 250 -n "$ITEMS" -F -d "$BASE/ttyoff" --progress 0 -o "$BASE/ttyoff.h5"
expect_rc 0 "terminal run with --progress 0"
check silent "$OUT" "--progress 0 on a terminal: no progress text"

# ---- Bad values: exit 2, naming the option, nothing made ----
for value in -1 abc "" 1e400 nan; do
  run 0 -n 10 -d "$BASE/bad" --progress "$value" -o "$BASE/bad.h5"
  expect_rc 2 "--progress '$value'"
  expect_in "$ERR" "--progress" "--progress '$value': the message names the option"
  expect_absent "$BASE/bad" "--progress '$value': no target made"
  expect_absent "$BASE/bad.h5" "--progress '$value': no results file"
done

finish
