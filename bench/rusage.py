#!/usr/bin/env python3
"""Runs one MPI rank's command and records what it cost: `mpiexec -n P bench/rusage.py OUT CMD ARGS...`.

Appends "<rank> <peak resident KiB> <wall s>" to OUT.<rank> once the command exits (the rank from Hydra's
PMI_RANK, 0 without it), and exits with the command's status. The peak is the child's ru_maxrss (wait4).
Linux keeps the high-water mark of the process image the child replaced at exec, so the forked copy of this
Python (6-10 MiB resident, depending on the interpreter) is a floor under the figure: a command smaller than
that reads as that. mdbench is above it (about 25 MiB for `mdbench --version`). The wall time runs from
before the fork to the end of the wait.
"""
import os
import sys
import time


def main() -> int:
    if len(sys.argv) < 3:
        print("usage: rusage.py OUT CMD [ARGS...]", file=sys.stderr)
        return 2
    out, cmd = sys.argv[1], sys.argv[2:]
    rank = os.environ.get("PMI_RANK", "0")
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(cmd[0], cmd)
        except OSError as e:
            print(f"rusage.py: {cmd[0]}: {e.strerror}", file=sys.stderr)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - started
    with open(f"{out}.{rank}", "a", encoding="ascii") as f:
        f.write(f"{rank} {usage.ru_maxrss} {wall:.6f}\n")
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


if __name__ == "__main__":
    sys.exit(main())
