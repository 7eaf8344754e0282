"""Start-up time of the `lobo-hint` commands, as real processes, against two baselines in the same run.

    python bench/startup.py [--runs 15] [--position puzzles/examples/midround.json]

Each command is started `--runs` times (round robin over all of them, so that a burst of load on
the machine hits every command alike) and its median wall time is printed with its ratio to the
bare interpreter (`python -c pass`) and to `python -c "import typer"` (the floor of any Typer
app), the goal of issue 13 and whether the median meets it. Commands run as the venv's installed
`lobo-hint` script (or `python -c "from cli.main import main; main()"` when there is none), with
stdout and stderr to a pipe: no terminal, so no progress bar. The hint on the mid-round position
is answered by the pure-Python search (its pile is small).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POSITION = ROOT / "puzzles" / "examples" / "midround.json"


def cli_prefix() -> list[str]:
    script = Path(sys.executable).with_name("lobo-hint")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from cli.main import main; main()"]


def commands(position: str) -> list[tuple[str, list[str], float | None]]:
    """(label, argv, goal in seconds); the baselines have no goal."""
    py = sys.executable
    cli = cli_prefix()
    name = Path(position).name
    runs: list[tuple[str, list[str], float | None]] = [
        ("python -c pass", [py, "-c", "pass"], None),
        ("python -c 'import typer'", [py, "-c", "import typer"], None),
    ]
    for words, goal in (
        (["--help"], 0.3),
        (["--version"], 0.3),
        (["validate", position], 0.3),
        (["moves", position], 0.3),
        (["rules"], 0.3),
        (["schema"], 0.3),
        ([position], 0.6),
        ([position, "--json"], 0.6),
    ):
        label = "lobo-hint " + " ".join(name if w == position else w for w in words)
        runs.append((label, [*cli, *words], goal))
    return runs


def run(argv: list[str]) -> float:
    t = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, check=False)
    elapsed = time.perf_counter() - t
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}: {done.stderr.decode()[-400:]}")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--position", default=str(POSITION))
    args = ap.parse_args()
    cmds = commands(args.position)
    times: dict[str, list[float]] = {label: [] for label, _, _ in cmds}
    load_before = os.getloadavg()[0]
    for _, argv, _ in cmds:
        run(argv)  # once untimed: byte-code caches written, files in the page cache, errors caught
    for _ in range(args.runs):
        for label, argv, _ in cmds:
            times[label].append(run(argv))
    median = {label: statistics.median(ts) for label, ts in times.items()}
    bare, typer = median[cmds[0][0]], median[cmds[1][0]]
    print(f"{args.runs} runs each, median wall seconds; `lobo-hint` = {' '.join(cli_prefix())}")
    # The goals are wall seconds on a quiet machine; the ratios are what survives a loaded one.
    print(f"load average before / after: {load_before:.1f} / {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| command | median s | min s | × python | × import typer | goal | met |")
    print("|---|---|---|---|---|---|---|")
    failed = 0
    for label, _, goal in cmds:
        met = "" if goal is None else ("yes" if median[label] < goal else "**no**")
        failed += met == "**no**"
        print(
            f"| {label} | {median[label]:.3f} | {min(times[label]):.3f} | {median[label] / bare:.1f} "
            f"| {median[label] / typer:.1f} | {'' if goal is None else f'< {goal} s'} | {met} |"
        )
    print(f"goals met: {sum(g is not None for _, _, g in cmds) - failed} of {sum(g is not None for _, _, g in cmds)}")


if __name__ == "__main__":
    main()
