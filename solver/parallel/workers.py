"""Worker processes (for solver/parallel/run.py and web/hints.py): a pool whose workers end with
the command that started them and leave Ctrl-C to it.

* A worker ends when its parent dies, even by SIGKILL, so orphans never keep solving (and
  competing for the cores with a resumed batch): Linux is asked to kill it (prctl), and where
  that is not possible a watchdog thread ends it once it has been handed to another parent.
* A terminal's Ctrl-C goes to the whole process group. The parent catches it, stops its workers
  and says so in one line; a worker that caught it too would print a traceback of its own, so
  workers ignore it.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def usable_cores() -> int:
    """The cores this process may run on: a container's or a taskset's share, not the host's."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def end_with_parent(parent: int | None) -> None:
    """A worker's start (the pool's initializer; web/hints.py's hint worker calls it too): the
    worker ignores Ctrl-C and ends when the process that started it dies, even by SIGKILL, so
    orphans never keep solving (and competing for the cores with a resumed batch). `parent` is the
    starter's pid, or None when a fork server started the worker (the server ends with the batch)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held while worker_pool forked it
    watched = os.getppid() if parent is None else parent
    if not _death_signal():
        threading.Thread(target=_watch_parent, args=(watched,), name="watch-parent", daemon=True).start()
    if os.getppid() != watched:  # the parent died before the death signal was asked for
        os._exit(1)


def _death_signal() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; False where that is not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int, every: float = 1.0, end: Callable[[int], Any] = os._exit) -> None:
    """The portable fallback: end the process once it has been handed to another parent."""
    while os.getppid() == parent:
        time.sleep(every)
    end(1)


# A thread that imports while a pool forks leaves the import lock held in the children, which then
# hang at their first import (found by a review: the companion's analyse, asked the moment it
# started, waited forever). Such a thread (the engine's warm-up) takes this name, and a pool waits
# for it before it forks.
IMPORTING = "lobo-hint-importing"


def worker_pool(n: int) -> ProcessPoolExecutor:
    context = multiprocessing.get_context()
    if context.get_start_method() == "fork":
        for t in threading.enumerate():
            if t.name == IMPORTING and t is not threading.current_thread():
                t.join()
    parent = None if context.get_start_method() == "forkserver" else os.getpid()
    pool = ProcessPoolExecutor(max_workers=n, mp_context=context, initializer=end_with_parent, initargs=(parent,))
    if context.get_start_method() == "fork" and hasattr(signal, "pthread_sigmask"):
        # The workers are forked at the first task, each fork followed by Python's after-fork
        # callbacks in the parent, and a Ctrl-C that lands in one of those is swallowed there
        # (exceptions in them are only printed): the batch would not stop. So they are forked now,
        # with Ctrl-C held, and a Ctrl-C that came meanwhile is taken when it is let go.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        stopped = False
        try:
            pool.submit(int).result()
            if signal.SIGINT in signal.sigpending():
                # The caller never gets this pool, so stop it here, before the Ctrl-C is raised and
                # while a second one is still held: left to the garbage collector, its manager
                # thread would close its wake-up pipe while the interpreter's exit hook writes to it
                # (EBADF, a traceback after the one-line message).
                _stop(pool)
                stopped = True
        finally:
            try:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)  # runs the handler of a held Ctrl-C
            except BaseException:
                if not stopped:  # a Ctrl-C that came after the check
                    stop_workers(pool)
                raise
    return pool


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop the pool now, busy workers included (Ctrl-C), and shut it down. A Ctrl-C that comes
    meanwhile (a second press, or a worker's) is held until every worker is stopped, then raised:
    left to interrupt the stop, it would leave the rest of the workers running."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hasattr(signal, "pthread_sigmask") else None
    try:
        _stop(pool)
    finally:
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # runs the handler of a held Ctrl-C


def _stop(pool: ProcessPoolExecutor) -> None:
    stop = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if callable(stop):
        stop()
    else:
        # Before 3.14 there is no public way to stop busy workers: end the processes themselves.
        processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
        for proc in list(processes.values()):
            proc.terminate()
        # Wait for the pool's manager thread to see the dead workers and close its wake-up pipe;
        # otherwise the interpreter's exit hook may write to that pipe while it is being closed
        # (EBADF, printed as a traceback after our one-line message).
        manager = getattr(pool, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(timeout=5)
    pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["IMPORTING", "end_with_parent", "stop_workers", "worker_pool"]
