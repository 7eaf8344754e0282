"""A list of independent tasks run in parallel: fn(*task) for each, on local processes or a Dask
cluster, each result handed on as it comes (or in the tasks' order), with a bounded number of
tasks in flight so that a huge stream of tasks is never all queued.

On local processes:

* A worker that dies (a crash, the kernel's OOM killer) breaks the whole pool and every task in
  flight fails with it. Those tasks are run again one by one, each in a process of its own, so
  only a task that crashes its process even alone is lost; `on_crash` says what it gives instead.
* Ctrl-C (KeyboardInterrupt, or any other exception) stops every worker at once, busy ones too,
  and only then propagates: nothing is left running, and no traceback follows the caller's one
  line (solver/parallel/workers.py says why each step is needed).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sized
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Generic, TypeVar

from solver.parallel.cluster import WAIT_EVERY, run_on_dask
from solver.parallel.workers import stop_workers, worker_pool

R = TypeVar("R")
Task = tuple[Any, ...]


class WorkerCrashed(RuntimeError):
    """A task whose process crashed, in the pool and again alone, and no on_crash to stand in."""


def run_parallel(
    fn: Callable[..., R],
    tasks: Iterable[Task],
    *,
    emit: Callable[[R], None],
    workers: int | None = None,
    cluster: Any = None,
    ordered: bool = False,
    on_crash: Callable[[Task], R] | None = None,
    on_wait: Callable[[str], None] | None = None,
    wait_every: float = WAIT_EVERY,
) -> None:
    """fn(*task) for every task; emit sees each result as it comes, or in the tasks' order when
    `ordered` (emit and on_crash run in this process; fn, a module-level function, in the workers).

    workers: processes (default, and at most: every core, and no more than the tasks); 1 runs the tasks in this process, one after another.
    cluster: a Dask scheduler's address or a distributed.Client, instead of local processes;
    on_wait hears every `wait_every` seconds while it has no worker.
    on_crash(task): the result of a task whose process crashed even when run alone; without it
    WorkerCrashed is raised. Tasks are read from `tasks` lazily, at most 2 × workers in flight."""
    cores = os.cpu_count() or 1
    n = workers or cores
    put = _InOrder(emit) if ordered else _AsTheyCome(emit)
    if cluster is not None:
        run_on_dask(fn, tasks, cluster, n, put, on_wait=on_wait, wait_every=wait_every)
    elif n <= 1:
        for i, task in enumerate(tasks):
            put(i, fn(*task))
    else:
        # Processes past the cores (or the tasks) only cost memory: 1,000 asked are the cores.
        _run_pool(
            fn, enumerate(tasks), max(1, min(n, cores, len(tasks) if isinstance(tasks, Sized) else n)), put, on_crash
        )


class _AsTheyCome(Generic[R]):
    def __init__(self, emit: Callable[[R], None]) -> None:
        self.emit = emit

    def __call__(self, _place: int, result: R) -> None:
        self.emit(result)


class _InOrder(Generic[R]):
    """Results held back until every earlier task's result has been handed on."""

    def __init__(self, emit: Callable[[R], None]) -> None:
        self.emit = emit
        self.next = 0
        self.waiting: dict[int, R] = {}

    def __call__(self, place: int, result: R) -> None:
        self.waiting[place] = result
        while self.next in self.waiting:
            result = self.waiting.pop(self.next)
            self.next += 1
            self.emit(result)


def _run_pool(
    fn: Callable[..., R],
    tasks: Iterator[tuple[int, Task]],
    n: int,
    put: Callable[[int, R], None],
    on_crash: Callable[[Task], R] | None,
) -> None:
    running: dict[Future[R], tuple[int, Task]] = {}
    pool: ProcessPoolExecutor

    def recover(broken: list[tuple[int, Task]]) -> None:
        nonlocal pool
        # A dead worker breaks the whole pool: every task in flight fails with it (those that
        # finished just before keep their results). Run the others again one by one in their own
        # process, so only the guilty one is lost.
        for fut, item in running.items():
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                put(item[0], fut.result())
            else:
                broken.append(item)
        running.clear()
        pool.shutdown(wait=False, cancel_futures=True)
        for place, task in sorted(broken, key=lambda item: item[0]):
            put(place, _isolated(fn, task, on_crash))
        pool = worker_pool(n)

    def drain(until: int) -> None:
        while len(running) > until:
            done = wait(running, return_when=FIRST_COMPLETED).done
            broken = []
            for fut in done:
                item = running.pop(fut)
                try:
                    result = fut.result()
                except BrokenProcessPool:
                    broken.append(item)
                    continue
                put(item[0], result)
            if broken:
                recover(broken)

    pool = worker_pool(n)
    try:  # at once: a Ctrl-C between the two would leave the workers running
        for item in tasks:
            drain(2 * n - 1)
            try:
                running[pool.submit(fn, *item[1])] = item
            except BrokenProcessPool:  # a worker died since the last wait, between tasks
                recover([item])
        drain(0)
    except BaseException:
        # Ctrl-C: stop now rather than after the tasks in flight.
        stop_workers(pool)
        raise
    # Wait for the pool's manager thread to close its wake-up pipe now: closing it while the
    # interpreter's exit hook writes to it prints a traceback (see stop_workers).
    pool.shutdown(wait=True)


def _isolated(fn: Callable[..., R], task: Task, on_crash: Callable[[Task], R] | None) -> R:
    with worker_pool(1) as alone:
        try:
            return alone.submit(fn, *task).result()
        except BrokenProcessPool:
            if on_crash is None:
                raise WorkerCrashed("a worker process crashed, and again when its task was run alone") from None
            return on_crash(task)
        except BaseException:
            stop_workers(alone)  # Ctrl-C: now, not after this task's time
            raise


__all__ = ["WorkerCrashed", "run_parallel"]
