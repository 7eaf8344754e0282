"""Test helpers for worker processes: a terminal's Ctrl-C, a process's children (from /proc), a
parent killed under its workers, and a task argument that crashes the worker that receives it."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

# A shell's background job starts with Ctrl-C ignored, and Python keeps that (so these tests hung
# when the suite ran in the background): the commands under test take it as a terminal's would.
CTRL_C = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
MAIN_WITH_CTRL_C = CTRL_C + "from cli.main import main; main()"


def children(pid: int) -> list[int]:
    """Processes whose parent is pid (from /proc: psutil may not be installed)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d.name))
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended, whoever reaps it


def wait_for_children(pid: int, want: int, within: float = 60) -> list[int]:
    deadline = time.time() + within
    kids: list[int] = []
    while time.time() < deadline and len(kids) < want:
        kids = children(pid)
        time.sleep(0.05)
    return kids


def still_alive(pids: list[int], within: float) -> list[int]:
    """Those of pids still running after `within` seconds; those are killed (never left running,
    whatever the test says)."""
    deadline = time.time() + within
    while time.time() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    left = [p for p in pids if alive(p)]
    for p in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, signal.SIGKILL)
    return left


def kill_parent_and_wait(proc: subprocess.Popen[bytes], want: int, within: float) -> tuple[list[int], list[int]]:
    """Wait for `want` children, SIGKILL the parent; (the children, those still alive after `within` s)."""
    kids = wait_for_children(proc.pid, want)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return kids, still_alive(kids, within)


class CrashOnArrival:
    """A task argument that kills the worker process unpickling it, as a segfault or the kernel's
    OOM killer would: every time, or only the first time when `once` names a file (created then)
    to remember it by. A worker that survives it receives `then` in its place."""

    def __init__(self, then: Any = None, once: Path | None = None) -> None:
        self.then, self.once = then, once

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return arrive, (self.then, None if self.once is None else str(self.once))


def arrive(then: Any, once: str | None) -> Any:
    if once is None or not os.path.exists(once):
        if once is not None:
            Path(once).touch()
        os._exit(1)
    return then
