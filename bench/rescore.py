"""The same decisions valued again by the tables this checkout ships (issue 23, session 32):

    python bench/rescore.py GAMES.jsonl --out VALUES.json [--tables game_values.json] [--games 500]
        [--every 2] [--max-states 3000 --samples 256]
    python bench/rescore.py --compare A.json B.json [C.json ...]

The first form replays the first `--games` records of `simulate --policy hint --games-out` and asks
the hint, at the given budgets, every `--every`-th decision again; the value it now gives the play
that was made is kept with the game's outcome. `--tables F` reads the evaluator's tables from F
instead of the shipped file (another checkout's solver/search/data/game_values.json), so two
tables are scored on the very same decisions, which two simulations cannot: their games part ways.
With the budgets and tables the records were played with, it gives back each `predicted`.

`--compare` prints, for each file, the calibration table of `bench/estimates.py calibration` (the
mean predicted − won, the Brier score, every band of prediction), and for each file after the
first the Brier difference against the first, paired by game (games are the independent units),
with its 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, NoReturn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from estimates import print_calibration

from solver.parallel.run import run_parallel
from solver.play.driver import Move
from solver.play.hint_policy import HintPolicy
from solver.play.registry import make_policy
from solver.play.simulate import GameRecord, replay_record
from solver.search import evaluator

Row = tuple[int, int, float | None, bool]  # game, decision, the made play's value, the game won


def valued(lines: list[str], every: int, max_states: int, samples: int, tables: str | None) -> list[Row]:
    """Worker: the made play's value at every `every`-th decision of some records."""
    if tables is not None and Path(tables) != evaluator.DATA:
        evaluator.DATA = Path(tables)  # before this process's first search reads them
        evaluator.table.cache_clear()
    policy = make_policy("hint", samples, None, max_states)
    assert isinstance(policy, HintPolicy)
    rows: list[Row] = []
    for line in lines:
        record = GameRecord.from_json(json.loads(line))
        game = replay_record(record)
        decision = 0
        for table, step in zip(game.tables, game.steps, strict=False):
            if not isinstance(step, Move):
                continue
            if decision % every == 0:
                answer = policy.answer(table)
                value = next((m.value for m in answer.moves if m.play == step.play), None)
                rows.append((record.index, decision, value, record.won))
            decision += 1
    return rows


def _scored(rows: list[Any]) -> list[tuple[int, float, bool]]:
    return [(int(g), float(v), bool(w)) for g, _, v, w in rows if v is not None]


def _fail(message: str) -> NoReturn:
    print(f"rescore: {message}", file=sys.stderr)
    sys.exit(2)


def compare(paths: list[str]) -> None:
    files = []
    for path in paths:
        try:
            files.append(json.loads(Path(path).read_text(encoding="utf-8")))
        except (OSError, ValueError) as e:
            _fail(f"{path}: not a file of values ({e})")
    keys = [(g, d) for g, d, _, _ in files[0]]
    for path, rows in zip(paths, files, strict=True):
        if [(g, d) for g, d, _, _ in rows] != keys:
            _fail(f"{path} holds other decisions than {paths[0]}")
        print(f"## {path}")
        print_calibration([(v, w) for _, v, w in _scored(rows)], [], f"{len({g for g, _ in keys})} games")
        print()
    for path, rows in zip(paths[1:], files[1:], strict=True):
        per: dict[int, float] = defaultdict(float)
        for a, b in zip(rows, files[0], strict=True):
            if a[2] is not None and b[2] is not None:
                per[int(a[0])] += (a[2] - a[3]) ** 2 - (b[2] - b[3]) ** 2
        d = list(per.values())
        n, g = len(rows), len(d)
        mean = math.fsum(d) / g
        sd = math.sqrt(math.fsum((x - mean) ** 2 for x in d) / max(1, g - 1))
        half = 1.96 * sd / math.sqrt(g)
        print(
            f"{path} − {paths[0]}: Brier {g * mean / n:+.5f} a decision "
            f"(95% {g * (mean - half) / n:+.5f} to {g * (mean + half) / n:+.5f}), {g} games"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", nargs="?", help="records of `simulate --policy hint --games-out`")
    ap.add_argument("--out", help="where to keep the values (JSON)")
    ap.add_argument("--tables", default=None, help="the evaluator's tables to read (default: the shipped ones)")
    ap.add_argument("--games", type=int, default=500, help="the first N records")
    ap.add_argument("--every", type=int, default=2, help="every N-th decision")
    ap.add_argument("--max-states", type=int, default=3000)
    ap.add_argument("--samples", type=int, default=256)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--compare", nargs="+", metavar="VALUES", help="score kept values against each other")
    args = ap.parse_args()
    if args.compare:
        compare(args.compare)
        return
    if not args.records or not args.out:
        ap.error("name the records and --out (or --compare VALUES...)")
    for flag, given in (("--games", args.games), ("--every", args.every), ("--max-states", args.max_states),
                        ("--samples", args.samples)):  # fmt: skip
        if given < 1:
            ap.error(f"{flag}: more than 0, not {given}")
    try:
        lines = Path(args.records).read_text(encoding="utf-8").splitlines()[: args.games]
    except OSError as e:
        ap.error(f"{args.records}: {e.strerror or e}")
    rows: list[Row] = []
    tasks = (
        (lines[i : i + 10], args.every, args.max_states, args.samples, args.tables) for i in range(0, len(lines), 10)
    )
    run_parallel(valued, tasks, emit=rows.extend, workers=args.jobs, ordered=True)
    Path(args.out).write_text(json.dumps(rows) + "\n", encoding="utf-8")
    print(f"{len(rows)} decisions of {len(lines)} games valued: {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
