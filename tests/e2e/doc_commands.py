#!/usr/bin/python3
"""Every command the documentation shows, found and run as written.

The pages are README.md, docs/*.md and jobscripts/README.md (their code blocks, indented or fenced) and the
job scripts' headers (their `#   ... sbatch|qsub ...` lines). Each block carries, on the line before it, a
comment saying where it runs:

    <!-- doc-test: ENV [;; FROM => TO]... [;; before: CMD] [;; after: CMD] -->
    (in a job script: `# doc-test: ENV ...`)

ENV is one of
    tmpfs, disk   run by e2e_docs: the block, whole, from a directory laid out as the top of the repository
                  (build/mdbench the binary under test), on /dev/shm or on disk
    testbed       run by tb_docs on the test bed (its environment evaluated, the jobs waited for)
    source        run by e2e_docs in the source tree itself (the quick start; builds nothing new)
    suite         the README's test command: .ci/run must run it (it is the suite itself)
    package       run by scripts/package-test.sh (installs, as root, into a private mount namespace)
    listing       not commands: a file layout, a syntax
and each `FROM => TO` is a substitution the test makes in that block before it runs (a site's scale brought
to this machine's: ranks, items; a site's file by one of the repository's); each must match. `before:` makes
what the block needs (a run to clean up), `after:` puts back what it took (the test bed it took down); their
failures fail the block too. `exit: N`: every command of the block must exit N (a gate shown failing). Every environment also replaces the sites' example
directories (SITE_DIRS below) by a scratch directory of its own. A block without the comment fails the
check: a new command cannot go untested.

Usage: doc_commands.py check SRC
       doc_commands.py run SRC ENV WORKDIR TARGET [--only FILE | --except FILE] [--scale]
       doc_commands.py blocks SRC ENV          (the blocks of ENV after substitution, for the package test)
"""
import glob
import os
import re
import subprocess
import sys
import time

ENVS = ("tmpfs", "disk", "testbed", "source", "suite", "package", "listing")
# The sites' example directories, each replaced by a directory under the environment's scratch target.
SITE_DIRS = ("/lustre/scratch/io500", "/lustre/scratch/md", "/gpfs/md", "/cephfs/bench")
ANNOTATION = re.compile(r"^\s*(?:<!--|#)\s*doc-test:\s*(.*?)\s*(?:-->)?\s*$")
BLOCK_TIMEOUT_S = 420
# --scale (the test bed): a site's batch resources brought to the test bed's two nodes of two CPUs and its
# item counts to a few dozen, wherever they appear (each block's own substitutions come first); a job
# submitted with the scripts' defaults gets a few dozen items too (the IO500 scripts' mdtest-easy and -hard
# as well, with a 2 s stonewall instead of IO500's 300 s: their runs end before it, which their scores then
# say; tb_jobs_io500 runs them with a million items cut by the stonewall): given to every sbatch (which
# exports the environment) and qsub (-v); an sbatch without -N gets the test bed's two nodes.
TESTBED_JOB_ENV = "MDBENCH_ITEMS=40,MDBENCH_EASY_ITEMS=40,MDBENCH_HARD_ITEMS=40,MDBENCH_STONEWALL=2"
SCALE = (
    (r"(^|[\s;&|(])sbatch ", r"\1" + TESTBED_JOB_ENV.replace(",", " ") + " sbatch "),
    # A script's own #SBATCH default (one node of 4 CPUs) can never run on a node of 2.
    (r"(^|[\s;&|(])sbatch (?!(?:[^\n]*\s)?-N\s)", r"\1sbatch -N 2 --ntasks-per-node=2 "),
    (r"\bqsub\b(?![^\n]*\s-v\s)", "qsub -v " + TESTBED_JOB_ENV),
    (r"(\bqsub\b[^\n]*?\s-v )(?!" + TESTBED_JOB_ENV + r"\s)", r"\1" + TESTBED_JOB_ENV + ","),
    (r"(\bsbatch\b[^\n]*?)-N \d+(?![^\n]*--ntasks-per-node)", r"\1-N 2 --ntasks-per-node=2"),
    (r"(\bsbatch\b[^\n]*?)-N \d+", r"\1-N 2"),
    (r"(\bsbatch\b[^\n]*?)-t \d+", r"\1-t 15"),
    (r"walltime=\d\d:\d\d:\d\d", "walltime=00:15:00"),
    (r"--ntasks-per-node=\d+", "--ntasks-per-node=2"),
    (r"select=\d+:ncpus=\d+:mpiprocs=\d+", "select=2:ncpus=2:mpiprocs=2"),
    (r"MDBENCH_ITEMS=\d+", "MDBENCH_ITEMS=40"),
)


class Block:
    def __init__(self, path, line, text, note):
        self.path, self.line, self.text, self.note = path, line, text, note
        self.env, self.subs, self.before, self.after, self.exit = None, [], "", "", None
        if note is not None:
            parts = [p.strip() for p in note.split(";;")]
            self.env = parts[0]
            for p in parts[1:]:
                if p.startswith("before:"):
                    self.before = p[len("before:"):].strip()
                    continue
                if p.startswith("after:"):
                    self.after = p[len("after:"):].strip()
                    continue
                if p.startswith("exit:"):
                    self.exit = int(p[len("exit:"):].strip())
                    continue
                if "=>" not in p:
                    raise ValueError(f"{self.where()}: substitution '{p}' is not FROM => TO")
                a, b = p.split("=>", 1)
                self.subs.append((a.strip(), b.strip()))

    def where(self):
        return f"{self.path}:{self.line}"

    def substituted(self, target, scale=False):
        text = self.text
        problems = []
        for a, b in self.subs:
            if a not in text:
                problems.append(f"{self.where()}: the substitution '{a} => {b}' matches nothing")
            text = text.replace(a, b)
        for d in SITE_DIRS:
            text = text.replace(d, f"{target}/{os.path.basename(d)}")
        if scale:
            for pattern, replacement in SCALE:
                text = re.sub(pattern, replacement, text)
        return text, problems


def markdown_blocks(path, rel):
    lines = open(path).read().split("\n")
    out, i, prev_blank, note = [], 0, True, None
    while i < len(lines):
        line = lines[i]
        m = ANNOTATION.match(line)
        if m and line.lstrip().startswith("<!--"):
            note, i = m.group(1), i + 1
            continue
        if line.strip().startswith("```"):
            indent = len(line) - len(line.lstrip())
            j, body = i + 1, []
            while j < len(lines) and not lines[j].strip().startswith("```"):
                body.append(lines[j][indent:])
                j += 1
            out.append(Block(rel, i + 1, "\n".join(body), note))
            note, i, prev_blank = None, j + 1, False
            continue
        m = re.match(r"^( {4,})\S", line)
        # An indented code block: after a blank line, indented past the paragraph it follows (a list item's
        # code is indented by more than the item's text).
        if m and prev_blank and not re.match(r"^ *([-*]|\d+\.) ", line):
            indent, j, body = len(m.group(1)), i, []
            while j < len(lines) and (lines[j].startswith(" " * indent) or lines[j].strip() == ""):
                body.append(lines[j][indent:])
                j += 1
            while body and body[-1].strip() == "":
                body.pop()
            out.append(Block(rel, i + 1, "\n".join(body), note))
            note, i, prev_blank = None, i + len(body), False
            continue
        if line.strip():
            note = None if not m else note
        prev_blank = line.strip() == ""
        i += 1
    return out


def script_blocks(path, rel):
    """A job script's header: its `#   ... sbatch|qsub ...` lines, each with the `# doc-test:` line above."""
    out, note = [], None
    for n, line in enumerate(open(path).read().split("\n"), 1):
        if not line.startswith("#"):
            break
        m = ANNOTATION.match(line)
        if m:
            note = m.group(1)
            continue
        body = line[1:].strip()
        if line.startswith("#   ") and re.search(r"(^|\s)(sbatch|qsub)\s", body):
            out.append(Block(rel, n, body, note))
            note = None
    return out


def shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def is_script(path):
    return path.startswith("jobscripts/") and not path.endswith(".md")


def all_blocks(src):
    pages = ["README.md", "jobscripts/README.md"] + sorted(
        os.path.relpath(p, src) for p in glob.glob(os.path.join(src, "docs", "*.md")))
    blocks = []
    for rel in pages:
        blocks += markdown_blocks(os.path.join(src, rel), rel)
    for p in sorted(glob.glob(os.path.join(src, "jobscripts", "*", "*"))):
        blocks += script_blocks(p, os.path.relpath(p, src))
    return blocks


def check(src):
    problems = []
    blocks = all_blocks(src)
    for b in blocks:
        if b.env is None:
            first = b.text.split("\n", 1)[0]
            problems.append(f"{b.where()}: a code block without a `doc-test:` comment before it: {first}")
        elif b.env not in ENVS:
            problems.append(f"{b.where()}: doc-test environment '{b.env}' is none of {', '.join(ENVS)}")
        elif b.env == "suite":
            ci = open(os.path.join(src, ".ci", "run")).read()
            for cmd in command_lines(b.text):
                if cmd.split()[0] not in ci:
                    problems.append(f"{b.where()}: '{cmd}' is the suite, but .ci/run does not run it")
    counts = {e: sum(1 for b in blocks if b.env == e) for e in ENVS}
    print("doc commands: " + ", ".join(f"{n} {e}" for e, n in counts.items() if n) + f" ({len(blocks)} blocks)")
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


def command_lines(text):
    """The block's commands, continuation lines joined, comments and blank lines left out."""
    out, cmd = [], ""
    for line in text.split("\n"):
        s = line.strip()
        if not s or (s.startswith("#") and not cmd):
            continue
        cmd += s
        if cmd.endswith("\\"):
            cmd = cmd[:-1] + " "
            continue
        out.append(cmd)
        cmd = ""
    return out


# Pending for a reason that never clears: the job asks what the test bed cannot give.
NEVER_RUNS = ("PartitionTimeLimit", "PartitionConfig", "PartitionNodeLimit", "BadConstraints",
              "ReqNodeNotAvail", "DependencyNeverSatisfied")


def wait_for_jobs(deadline):
    """The test bed's queue empty (the block's jobs and those they depend on ended), or the deadline, or a job
    that can never run (then every queued job is cancelled): "" or what went wrong."""
    while time.time() < deadline:
        q = subprocess.run(["squeue", "-h", "-o", "%i %T %r"], capture_output=True, text=True)
        if q.returncode == 0 and not q.stdout.strip():
            return ""
        stuck = [l for l in q.stdout.splitlines() if any(r in l for r in NEVER_RUNS)]
        if stuck:
            ids = [l.split()[0] for l in q.stdout.splitlines()]
            subprocess.run(["scancel"] + ids, capture_output=True)
            return "a job can never run on the test bed (cancelled): " + "; ".join(stuck)
        # A few tenths: the block's time is measured from its start, and a job ends at any moment.
        time.sleep(0.2)
    return subprocess.run(["squeue"], capture_output=True, text=True).stdout


def job_results(workdir):
    """exit-status of every job script's per-job directory under WORKDIR (mdbench-results/<job id>/)."""
    out = {}
    for p in glob.glob(os.path.join(workdir, "mdbench-results", "*", "exit-status")):
        out[os.path.dirname(p)] = open(p).read().strip()
    return out


def page_workdir(workdir, page):
    path = os.path.join(workdir, ".pages", page.replace("/", "_"))
    if not os.path.isdir(path):
        os.makedirs(path)
        for name in os.listdir(workdir):
            if name != ".pages":
                os.symlink(os.path.realpath(os.path.join(workdir, name)) if os.path.islink(
                    os.path.join(workdir, name)) else os.path.join(workdir, name), os.path.join(path, name))
    return path


def run(src, env, workdir, target, only, but, scale):
    blocks = [b for b in all_blocks(src)
              if b.env == env and (only is None or b.path == only) and (but is None or b.path != but)]
    if not blocks:
        print(f"FAIL: no block of the documentation runs in '{env}'")
        return 1
    failures, submitted = 0, {}
    for b in blocks:
        # Each page from a directory of its own, as a reader follows one page: a copy of WORKDIR's entries
        # (links into the tree), so that one page's outputs (report/, acceptance.xml) are not another's.
        page_dir = workdir if env == "source" else page_workdir(workdir, b.path)
        text, problems = b.substituted(target, scale)
        for p in problems:
            print("FAIL: " + p)
            failures += 1
        # Each block in a shell of its own, from the top of the tree, stopping at the first failing command.
        # A job script's header names the script from its own directory: here it is named from the top.
        if is_script(b.path):
            name = os.path.basename(b.path)
            text = re.sub(r"(?<![\w/.-])" + re.escape(name) + r"\b", b.path, text)
        cwd = page_dir
        before = job_results(page_dir)
        t0 = time.time()
        # The README's reader has not installed mdbench (build/mdbench); the docs' pages assume it is.
        environ = dict(os.environ, DOC_TARGET=target)
        if b.path != "README.md":
            environ["PATH"] = os.path.join(page_dir, ".installed") + os.pathsep + environ["PATH"]
        # A job submission shown on several pages (and in its script's header) is submitted once.
        body_lines = []
        for line in text.split("\n"):
            key = re.sub(r"\s+#.*$", "", line).strip()
            if re.match(r"^(\w+=(?:'[^']*'|\S+) )*(sbatch|qsub) [^$`]*$", key):
                if key in submitted:
                    body_lines.append(f": submitted already at {submitted[key]}")
                    continue
                submitted[key] = b.where()
            body_lines.append(line)
        text = "\n".join(body_lines)
        body = text
        if b.exit is not None:
            body = "set +e\n" + "\n".join(
                f"{{ {c}\n}}; rc=$?; [ $rc = {b.exit} ] || {{ echo \"exit $rc, expected {b.exit}: \"{shell_quote(c)} >&2; exit 1; }}"
                for c in command_lines(text)) + "\nset -e"
        script = "\n".join(s for s in (b.before, body, b.after) if s)
        proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=cwd, capture_output=True,
                              text=True, stdin=subprocess.DEVNULL, timeout=BLOCK_TIMEOUT_S, env=environ)
        why = f"exit {proc.returncode}" if proc.returncode != 0 else ""
        if not why and env == "testbed":
            queue = wait_for_jobs(t0 + BLOCK_TIMEOUT_S)
            if queue:
                why = "jobs not done: " + queue
        if not why:
            # Every job script submitted left its results directory, with exit status 0.
            jobs = {k: v for k, v in job_results(page_dir).items() if k not in before}
            wanted = sum(1 for c in command_lines(text)
                         if re.search(r"(sbatch|qsub)\b.*\S+\.(sbatch|pbs)\b", c) and not c.startswith(":"))
            if len(jobs) < wanted:
                why = f"{wanted} job script(s) submitted, {len(jobs)} left an exit-status"
            bad = {k: v for k, v in jobs.items() if v != "0"}
            if not why and bad:
                why = "jobs exited non-zero: " + ", ".join(f"{k}: {v}" for k, v in sorted(bad.items()))
        first = command_lines(text)[0] if command_lines(text) else text
        if why:
            failures += 1
            print(f"FAIL: {b.where()} ({time.time() - t0:.1f} s): {why}\n  block:\n    "
                  + text.replace("\n", "\n    "))
            print("  stdout (end):\n    " + "\n    ".join(proc.stdout.splitlines()[-15:]))
            print("  stderr (end):\n    " + "\n    ".join(proc.stderr.splitlines()[-15:]), flush=True)
        else:
            print(f"ok: {b.where()} ({time.time() - t0:.1f} s): {first}", flush=True)
    print(f"doc commands in '{env}': {len(blocks) - failures} of {len(blocks)} blocks ran as written")
    return 1 if failures else 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "check":
        return check(argv[1])
    if len(argv) == 3 and argv[0] == "blocks":
        for b in all_blocks(argv[1]):
            if b.env == argv[2]:
                text, problems = b.substituted("/nonexistent")
                if problems:
                    print("\n".join(problems), file=sys.stderr)
                    return 1
                print(text + "\0", end="")
        return 0
    if len(argv) >= 5 and argv[0] == "run":
        only = argv[argv.index("--only") + 1] if "--only" in argv else None
        but = argv[argv.index("--except") + 1] if "--except" in argv else None
        return run(argv[1], argv[2], argv[3], argv[4], only, but, "--scale" in argv)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
