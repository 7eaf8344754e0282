"""Tasks on a Dask cluster: connecting to its scheduler, a bounded number of tasks in flight, and
notes while it has no worker. Dask is imported only here, and only when a cluster is used."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import CancelledError
from typing import Any, TypeVar
from urllib.parse import urlsplit

R = TypeVar("R")

WAIT_EVERY = 5.0  # seconds between "waiting for workers" notes


class ClusterError(RuntimeError):
    """A Dask scheduler that cannot be used: Dask missing, a bad address, nobody answering."""


def connect(address: str) -> Any:
    """A distributed.Client on the scheduler at `address` (a command connects before it writes
    anything, so that a wrong address costs nothing)."""
    try:
        from distributed import Client
    except ImportError as e:  # pragma: no cover - the test extra installs it
        raise ClusterError("--cluster needs Dask: pip install 'lobo-hint[cluster]'") from e
    _reachable(address)
    _quiet_dask()
    try:
        return Client(address, timeout=CONNECT_SECONDS)
    except (OSError, ValueError, TypeError) as e:
        raise ClusterError(f"--cluster: cannot use the scheduler at {address}: {e}") from None
    except MemoryError:
        # Something that is no Dask scheduler answered: its bytes read as a message of exabytes.
        raise ClusterError(f"--cluster: what answers at {address} is not a Dask scheduler") from None


def _quiet_dask() -> None:
    """Dask's client logs, tracebacks and all, what the command says in one line (a lost
    scheduler, its reconnection's attempts): its loggers silenced for the rest of the run."""
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name.split(".")[0] == "distributed":
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


CONNECT_SECONDS = 10  # Dask's own default is 30, and it retries a refused connection until then


def _reachable(address: str) -> None:
    """A TCP address where nothing listens is said at once (Dask would retry it for its timeout)."""
    where = urlsplit(address if "://" in address else f"tcp://{address}")
    if where.scheme != "tcp" or where.hostname is None:
        return
    try:
        port = where.port
    except ValueError:
        return  # Dask says what is wrong with it
    if port is None:
        return
    try:
        socket.create_connection((where.hostname, port), timeout=CONNECT_SECONDS).close()
    except OSError as e:
        raise ClusterError(f"--cluster: cannot reach the scheduler at {address}: {e.strerror or e}") from None


def _watch_workers(client: Any, address: str, say: Callable[[str], None], stop: threading.Event, every: float) -> None:
    """While the cluster has no worker, say so every `every` seconds; say so once when one joins."""
    waited = False
    while True:
        try:
            count = len(client.nthreads())
        except Exception:  # the client is closing: nothing left to watch
            return
        if count == 0:
            say(f"waiting for workers at {address}: 0 connected")
            waited = True
        elif waited:
            say(f"{count} worker{'s' if count != 1 else ''} connected at {address}: solving")
            waited = False
        if stop.wait(every):
            return


POLL = 0.05  # seconds between two looks for finished tasks (and at the client's connection)


def _finished(pending: Any, client: Any) -> list[Any]:
    """The tasks finished since the last call, at least one. A client that lost its scheduler
    stops the work at once: Dask cancels the tasks it knew of, but one submitted as the
    connection dropped waited for its reconnection's timeout (10 s, found by a test that
    sometimes took that long)."""
    while True:
        done = pending.next_batch(block=False)
        if done:
            return list(done)
        if client.status != "running":
            raise CancelledError("the connection to the scheduler was lost")
        time.sleep(POLL)


def run_on_dask(
    fn: Callable[..., R],
    tasks: Iterable[tuple[Any, ...]],
    cluster: Any,
    n: int,
    put: Callable[[int, R], None],
    *,
    on_wait: Callable[[str], None] | None = None,
    wait_every: float = WAIT_EVERY,
) -> None:
    """fn(*task) for every task on a Dask cluster (an address or a Client); put(i, result) as each
    comes, i the task's place in `tasks`. At most twice the cluster's threads (or n) in flight, so
    a huge stream is never all queued. A scheduler with no worker holds the tasks until one joins;
    on_wait hears about it meanwhile. A client made here from an address is closed here."""
    try:
        from distributed import Client, as_completed
    except ImportError as e:  # pragma: no cover - the test extra installs it
        raise ClusterError("--cluster needs Dask: pip install 'lobo-hint[cluster]'") from e
    client = cluster if isinstance(cluster, Client) else connect(cluster)
    stop = threading.Event()
    watcher = None
    if on_wait is not None:
        address = str(getattr(client.scheduler, "address", None) or cluster)
        watcher = threading.Thread(
            target=_watch_workers, args=(client, address, on_wait, stop, wait_every), name="watch-workers", daemon=True
        )
        watcher.start()
    try:
        width = max(n, sum(client.nthreads().values()) or 1) * 2
        pending = as_completed()
        place: dict[Any, int] = {}  # a future (hashed by its key) → its task's place

        def take_finished() -> None:
            for fut in _finished(pending, client):
                put(place.pop(fut), fut.result())

        for i, task in enumerate(tasks):
            if len(place) >= width:
                take_finished()
            fut = client.submit(fn, *task, pure=False)
            place[fut] = i
            pending.add(fut)
        while place:
            take_finished()
    except (CancelledError, OSError) as e:
        # The scheduler lost, or its connection (found by a review: three tracebacks and no
        # summary). The tasks' own errors are their callers', and go up as they are.
        why = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
        _quiet_dask()
        raise ClusterError(f"--cluster: the cluster stopped the work ({why})") from None
    finally:
        stop.set()
        if watcher is not None:
            watcher.join(timeout=wait_every + 5)
        if client is not cluster:
            client.close()


__all__ = ["WAIT_EVERY", "ClusterError", "connect", "run_on_dask"]
