"""Batch throughput: one process against two, and a Dask LocalCluster against the local pool, on
the same generated puzzles in the same run.

    python bench/batch.py [--count 120] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.batch.generate import generate
from solver.batch.runner import Job, run_batch


def timed(jobs: list[Job], **kw: Any) -> float:
    t = time.perf_counter()
    summary = run_batch(jobs, **kw)
    assert summary.total == len(jobs) and summary.errors == 0
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    per_kind = args.count // 3
    jobs = [
        Job(p.id, "generated", None, p.to_json())
        for kind in ("finish", "hint", "known-pile")
        for p in generate(kind, "standard", per_kind, args.seed)
    ]
    one = timed(jobs, workers=1)
    two = timed(jobs, workers=2)
    print(
        f"{len(jobs)} puzzles: --jobs 1 {len(jobs) / one:.1f}/s, --jobs 2 {len(jobs) / two:.1f}/s, "
        f"ratio {one / two:.2f}"
    )
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        timed(jobs[:4], cluster=client)  # warm the workers' imports
        dask = timed(jobs, cluster=client)
    print(
        f"Dask LocalCluster (2 processes): {len(jobs) / dask:.1f}/s, overhead against the local pool "
        f"{dask / two:.2f}x the time"
    )


if __name__ == "__main__":
    main()
