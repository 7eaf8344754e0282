"""The installed script's first module. It imports nothing heavy itself, so that a Ctrl-C while
the rest of the program is still being imported (a few tenths of a second, longer on a first run)
ends in one line and status 130 like any other Ctrl-C, not in a traceback from the middle of an
import."""

from __future__ import annotations

import sys


def run() -> None:
    try:
        from cli.main import run as run_main
    except KeyboardInterrupt:
        sys.stderr.write("lobo-hint: interrupted\n")
        raise SystemExit(130) from None
    run_main()
