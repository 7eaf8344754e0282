"""The installed script's first module. It imports nothing heavy itself, so that a Ctrl-C while
the rest of the program is still being imported (a few tenths of a second, longer on a first run)
ends in one line and status 130 like any other Ctrl-C, not in a traceback from the middle of an
import."""

from __future__ import annotations

import os
import sys

_STREAMS = ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w"))


def open_closed_streams() -> list[str]:
    """Give a standard stream the process was started without (`>&-`, a daemon's closed stdin)
    /dev/null, at its own descriptor: Python leaves sys.stdout None there, a traceback at the first
    print, and the next file opened would take the descriptor (a batch's results file read as the
    output). Returns the names of those that were closed."""
    closed = []
    for fd, name, mode in _STREAMS:
        try:
            os.fstat(fd)
        except OSError:
            new = os.open(os.devnull, os.O_RDONLY if mode == "r" else os.O_WRONLY)
            if new != fd:
                os.dup2(new, fd)
                os.close(new)
            closed.append(name)
        if getattr(sys, name) is None:
            stream = open(fd, mode, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's own
            setattr(sys, name, stream)
            setattr(sys, f"__{name}__", stream)
    return closed


def run() -> None:
    closed = open_closed_streams()
    if "stdout" in closed:
        sys.stderr.write("lobo-hint: the standard output is closed: what is printed there goes nowhere\n")
    try:
        from cli.main import run as run_main
    except KeyboardInterrupt:
        sys.stderr.write("lobo-hint: interrupted\n")
        raise SystemExit(130) from None
    run_main()
