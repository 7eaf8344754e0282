"""Independent tasks run in parallel, on local processes or a Dask cluster (run.py), by workers
that end with the command that started them and leave Ctrl-C to it (workers.py). Below the play
and batch layers, which both use it: it imports only the standard library, and Dask when a
cluster is used."""

from solver.parallel.cluster import WAIT_EVERY, ClusterError, connect
from solver.parallel.run import WorkerCrashed, run_parallel
from solver.parallel.workers import end_with_parent, stop_workers, worker_pool

__all__ = [
    "WAIT_EVERY",
    "ClusterError",
    "WorkerCrashed",
    "connect",
    "end_with_parent",
    "run_parallel",
    "stop_workers",
    "worker_pool",
]
