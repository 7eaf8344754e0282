"""Hints (and reward advice) in worker processes, so the server never waits on a search.

A hint is the companion's own `ask_hint` run in a process of its own: the page polls its progress,
and a cancel terminates the process, which stops any search at once (a thread could only be
asked to stop). A warm worker waits in advance with the engine loaded (the compiled search's
machine code, the finisher), so a hint spends its time limit searching, not importing.

At most MAX_RUNNING hints run at once (the machine's cores); one per game, and a game's hint is
for its table at one revision: a step taken meanwhile makes the caller cancel it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from solver.play.companion import HintNote, Session, save_json, warm_engine
from solver.words.numbers import count_text

MAX_RUNNING = 2
CHANGED = "the table changed"  # why a hint was stopped by a step or an undo
STOP_WAIT = 1.0  # seconds a terminated worker may take before it is killed
GRACE = 30.0  # past its time limit (and MIN_DEADLINE for reward advice), a job is stopped as hung
MIN_DEADLINE = 300.0

RUNNING, DONE, CANCELLED, FAILED = "running", "done", "cancelled", "failed"
ANALYSIS = "analysis"  # a job's kind, beside "hint" and "reward": the game so far analysed
ASKED = {"hint": "a hint", "reward": "reward advice", ANALYSIS: "an analysis"}


def main(argv: list[str]) -> None:
    """A worker process (python -m web.hints FD PARENT): load the engine, say so, then run the
    hints sent through the socket FD until told to stop."""
    # A pool worker's start (solver/parallel/): ignore Ctrl-C (the server stops us) and end with the server.
    from solver.parallel.workers import end_with_parent

    fd, parent = int(argv[0]), int(argv[1])
    end_with_parent(parent)
    conn = Connection(fd)
    warm_engine()

    def say(kind: str, value: Any) -> None:
        # When it happened, on the machine's monotonic clock (one clock for every process): the
        # server reads the messages when a page polls, which may be much later.
        conn.send((kind, value, time.monotonic()))

    say("ready", None)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        saved, settings, seconds, asked, kind = job
        say("started", None)
        if kind == ANALYSIS:
            say(*_analyse(saved, settings, seconds, lambda done, total: say("progress", (done, total))))
            continue
        # The time limit counts from the request (time.time() there: another process's clock).
        say(*_run(saved, settings, seconds, time.perf_counter() - max(0.0, time.time() - asked)))


def _run(saved: dict[str, Any], settings: dict[str, Any], seconds: float, started: float) -> tuple[str, Any]:
    """The companion's hint on the game of a save file's JSON (a few bytes a step through the
    socket, where the session with every table on the way would be far more)."""
    from solver.play.companion import CompanionError, Settings, ask_hint, load_json
    from solver.search.engine import cores

    try:
        reply = ask_hint(load_json(saved, Settings(**settings)), seconds, started, threads=cores())
    except CompanionError as e:
        return FAILED, str(e)
    except Exception as e:  # pragma: no cover - a bug in the engine: said, not fatal to the server
        return FAILED, f"the engine failed: {type(e).__name__}: {e}"
    return DONE, reply.session.last_hint


def _analyse(
    saved: dict[str, Any], settings: dict[str, Any], seconds: float, progress: Callable[[int, int], None]
) -> tuple[str, Any]:
    """The companion's analysis of the game so far, in the page's form (web/analysis.py), its
    decisions one after another in this worker (the server's cores are its hints' too)."""
    from solver.play.companion import CompanionError, Settings, ask_analysis, load_json
    from web.analysis import page_analysis

    try:
        reply = ask_analysis(load_json(saved, Settings(**settings)), seconds, workers=1, progress=progress)
    except CompanionError as e:
        return FAILED, str(e)
    except Exception as e:  # pragma: no cover - a bug in the engine: said, not fatal to the server
        return FAILED, f"the engine failed: {type(e).__name__}: {e}"
    assert reply.session.analysis is not None
    return DONE, page_analysis(reply.session.analysis)


@dataclass
class Worker:
    """A worker process and the server's end of its socket. A plain subprocess (not
    multiprocessing's spawn): it starts the same whatever the server's main module is."""

    process: subprocess.Popen[bytes]
    conn: Connection
    ready: bool = False

    @staticmethod
    def start() -> Worker:
        here, there = socket.socketpair()
        fd = there.fileno()
        proc = subprocess.Popen(
            [sys.executable, "-m", "web.hints", str(fd), str(os.getpid())], pass_fds=(fd,), stdin=subprocess.DEVNULL
        )
        there.close()
        return Worker(proc, Connection(here.detach()))

    def alive(self) -> bool:
        return self.process.poll() is None

    def drain(self) -> list[tuple[str, Any, float]]:
        """The messages the worker has sent so far, each with when it was sent (never waits)."""
        out = []
        try:
            while self.conn.poll():
                out.append(self.conn.recv())
        except (EOFError, OSError):
            pass
        for kind, _, _ in out:
            if kind == "ready":
                self.ready = True
        return out

    def stop(self) -> None:
        """End the worker now: terminate, then kill if it has not ended within STOP_WAIT."""
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(STOP_WAIT)
            except subprocess.TimeoutExpired:  # pragma: no cover - stuck in native code ignoring SIGTERM
                self.process.kill()
                self.process.wait(STOP_WAIT)
        self.conn.close()


@dataclass
class HintJob:
    key: str  # the game
    revision: str  # the table the hint is for
    kind: str  # "hint" or "reward"
    seconds: float
    worker: Worker | None
    requested: float = field(default_factory=time.monotonic)
    started: float | None = None  # when the worker began (after it loaded the engine)
    ended: float | None = None
    state: str = RUNNING
    note: HintNote | None = None  # the companion's answer, when done
    analysis: dict[str, Any] | None = None  # an analysis job's answer (web/analysis.py), when done
    done: int = 0  # an analysis: the tables valued so far, of `total`
    total: int = 0
    message: str | None = None

    def to_json(self) -> dict[str, Any]:
        now = self.ended if self.ended is not None else time.monotonic()
        return {
            "state": self.state,
            "kind": self.kind,
            "seconds": self.seconds,
            "started": self.started is not None,
            "waited": round((self.started or now) - self.requested, 2),
            "elapsed": round(now - self.started, 2) if self.started is not None else 0.0,
            "message": self.message,
            **({"done": self.done, "total": self.total} if self.kind == ANALYSIS else {}),
        }


class HintService:
    """The worker processes and the jobs they run, by game."""

    def __init__(self, *, warm: bool = True, max_running: int = MAX_RUNNING) -> None:
        self._lock = threading.RLock()
        self._jobs: dict[str, HintJob] = {}
        self._idle: Worker | None = None
        self._max = max_running
        self._closed = False
        if warm:
            self._idle = self._spawn()

    def _spawn(self) -> Worker:
        return Worker.start()

    # -- state ---------------------------------------------------------------------------------

    def ready(self) -> bool:
        """Whether a warm worker waits, so a hint asked now starts at once."""
        with self._lock:
            if self._idle is not None:
                self._idle.drain()
            return self._idle is not None and self._idle.ready

    def running(self) -> int:
        with self._lock:
            return sum(1 for k in list(self._jobs) if (j := self._poll(k)) is not None and j.state == RUNNING)

    def job(self, key: str) -> HintJob | None:
        """The game's latest job, brought up to date."""
        with self._lock:
            return self._poll(key)

    def _poll(self, key: str) -> HintJob | None:
        job = self._jobs.get(key)
        if job is None or job.state != RUNNING or job.worker is None:
            return job
        w = job.worker
        for kind, value, sent in w.drain():
            at = min(max(sent, job.requested), time.monotonic())  # within what this process saw
            if kind == "started":
                job.started = at
            elif kind == "progress":
                job.done, job.total = value
            elif kind in (DONE, FAILED):
                job.state, job.ended = kind, at
                if kind == DONE and job.kind == ANALYSIS:
                    job.analysis = value
                elif kind == DONE:
                    job.note = value
                else:
                    job.message = value
                job.worker = None
                self._release(w)
                return job
        if not w.alive():
            job.state, job.ended, job.worker = FAILED, time.monotonic(), None
            job.message = f"the hint worker ended unexpectedly (exit code {w.process.returncode})"
            w.stop()
            return job
        limit = {"reward": MIN_DEADLINE, ANALYSIS: max(MIN_DEADLINE, job.seconds * max(job.total, 1) + GRACE)}.get(
            job.kind, job.seconds + GRACE
        )
        if job.started is not None and time.monotonic() - job.started > limit:
            self._end(job, FAILED, f"the engine took more than {limit:.0f} s and was stopped")
        return job

    def _release(self, w: Worker) -> None:
        """A worker whose job ended: it waits for the next one, unless one waits already."""
        if self._idle is None and not self._closed:
            self._idle = w
        else:
            w.stop()

    def _end(self, job: HintJob, state: str, message: str | None) -> None:
        w = job.worker
        job.state, job.ended, job.worker, job.message = state, time.monotonic(), None, message
        if w is not None:
            w.stop()

    # -- actions -------------------------------------------------------------------------------

    def start(self, key: str, revision: str, session: Session, seconds: float, kind: str) -> HintJob:
        """A hint for the game `key` at `revision`; the one already running for it is returned
        as it is (two pages asking at once get the same hint) unless this one may think longer:
        then it starts again with the longer time (found by a review: 3 s asked, 1 s given
        without a word). ValueError when too many run."""
        with self._lock:
            job = self._poll(key)
            if job is not None and job.state == RUNNING:
                same = job.revision == revision and job.kind == kind
                if same and seconds <= job.seconds:
                    return job
                why = "the table changed" if job.revision != revision else f"{ASKED[kind]} was asked"
                self._end(job, CANCELLED, f"{ASKED[kind]} with more time was asked" if same else why)
            busy = sum(1 for k in list(self._jobs) if k != key and (j := self._poll(k)) and j.state == RUNNING)
            if busy >= self._max:
                raise ValueError(
                    f"the engine is busy with {count_text(busy, 'hint')} for other games; try again when one ends"
                )
            w, self._idle = self._idle, None
            if w is None or not w.alive():
                if w is not None:
                    w.stop()
                w = self._spawn()
            w.conn.send((save_json(session), asdict(session.settings), seconds, time.time(), kind))
            job = HintJob(key, revision, kind, seconds, w)
            self._jobs[key] = job
            return job

    def cancel(self, key: str, why: str = "stopped") -> HintJob | None:
        """Stop the game's running job (its worker is terminated); the job, or None if none ran."""
        with self._lock:
            job = self._poll(key)
            if job is None or job.state != RUNNING:
                return None
            self._end(job, CANCELLED, why)
            if self._idle is None and not self._closed:
                self._idle = self._spawn()  # the next hint should not wait for a cold start
            return job

    def forget(self, key: str, *, say: bool = False) -> None:
        """Drop the game's job (cancelling it if it runs): its table changed or the game went.
        `say`: a job stopped so is kept as cancelled, for the page to say why its hint ended
        (found by a review: an Undo during a hint dropped it without a word)."""
        with self._lock:
            stopped = self.cancel(key, CHANGED)
            if not (say and stopped is not None):
                self._jobs.pop(key, None)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for job in self._jobs.values():
                if job.state == RUNNING:
                    self._end(job, CANCELLED, "the server stopped")
            if self._idle is not None:
                self._idle.stop()
                self._idle = None


__all__ = ["ANALYSIS", "CANCELLED", "DONE", "FAILED", "RUNNING", "HintJob", "HintService"]


if __name__ == "__main__":
    main(sys.argv[1:])
