"""Memory and time of the searches that used to grow without bound, as real processes.

    python bench/memory.py [--limit 10] [--cap 3G] [--max-memory 2G]

Each case runs the installed `lobo-hint` in a child process, under an address-space cap (`ulimit
-v`, --cap; "none" for no cap), and prints its peak resident memory, its wall time against its
`--time-limit`, its exit status and whether the answer is whole. The baseline, measured in the
same run, is `lobo-hint validate` on the same position: the process's own footprint (the
interpreter and its libraries), so the ratio is what the search added.

Cases (issue 13): a round-start `graph --depth 2` (it used to run 557 s and reach 24 GB), a
round-start hint, a mid-round hint with 16 unseen cards (3.4 GB before), and an exact hint (no
time limit to speak of) of a 14-card round.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.search.memory import parse_size

START = {"player": [3, 7, 9, 1], "wolf": [6, 2, 5, 8], "final": False}
MID16 = {**START, "discard": [1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 8, 9], "draw_pile": {"size": 16}}
EXACT14 = {**START, "discard": [1, 1, 2, 2, 3, 4, 4, 5, 6, 8, 9, 1, 2, 3], "draw_pile": {"size": 14}}


def cli() -> list[str]:
    script = Path(sys.executable).with_name("lobo-hint")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from cli.main import main; main()"]


def measure(argv: list[str], cap: int | None, env: dict[str, str]) -> tuple[float, float, int, str]:
    """(wall seconds, peak resident MiB, exit status, stderr's last line) of one child process."""

    def limit() -> None:
        if cap is not None:
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    t0 = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as errors:
        child = subprocess.Popen(argv, stdout=out, stderr=errors, text=True, preexec_fn=limit, env=env)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own peak, not the largest so far
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t0
        errors.seek(0)
        stderr = errors.read()
    peak = usage.ru_maxrss / 1024
    err = stderr.strip().splitlines()
    return wall, peak, child.returncode, (err[-1] if err else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=float, default=10.0, help="--time-limit of each case (s)")
    ap.add_argument("--cap", default="3G", help='address-space cap of each process, or "none"')
    ap.add_argument("--max-memory", default=None, help="--max-memory for the searches (default: theirs)")
    args = ap.parse_args()
    cap = None if args.cap == "none" else parse_size(args.cap)
    env = dict(os.environ)
    if args.max_memory:
        env["LOBO_HINT_MAX_MEMORY"] = args.max_memory
    tmp = Path(tempfile.mkdtemp())
    files = {}
    for name, pos in (("start", START), ("mid16", MID16), ("exact14", EXACT14)):
        files[name] = tmp / f"{name}.json"
        files[name].write_text(json.dumps(pos))
    t = str(args.limit)
    cases = [
        ("baseline: validate", [*cli(), "validate", str(files["start"])], None),
        ("graph --depth 2, round start", [*cli(), "graph", str(files["start"]), "-d", "2", "-t", t, "-o", str(tmp / "g.json")], args.limit),
        ("hint, round start", [*cli(), str(files["start"]), "--json", "-t", t], args.limit),
        ("hint, 16 unseen", [*cli(), str(files["mid16"]), "--json", "-t", t], args.limit),
        ("hint, 14 unseen, exact (-t 3600)", [*cli(), str(files["exact14"]), "--json", "-t", "3600"], None),
    ]  # fmt: skip
    print(
        f"address-space cap: {args.cap}; --max-memory: {args.max_memory or 'default (2 GiB)'}; cores: {os.cpu_count()}"
    )
    print("| case | wall s | time limit | peak MiB | × baseline | exit | last stderr line |")
    print("|---|---|---|---|---|---|---|")
    base = None
    for label, argv, limit in cases:
        wall, peak, rc, err = measure(argv, cap, env)
        base = base or peak
        print(f"| {label} | {wall:.1f} | {limit or '—'} | {peak:.0f} | {peak / base:.1f} | {rc} | {err[:60]} |")


if __name__ == "__main__":
    main()
