"""The chance the hint printed, against the chance its own later play gives (issue 23, session 34):

    python bench/playouts.py GAMES.jsonl --low 0.3 --high 0.9 [--per-game 2] [--positions 300]
        [--playouts 40] [--seed 424242] [--pick-seed 34] [--jobs 2] --out ROWS.jsonl
    python bench/playouts.py --summary ROWS.jsonl [ROWS.jsonl ...]

Issue 23 defines the chance printed for a play as the chance to win when every later choice
follows lobo-hint's advice. Its calibration over games (bench/estimates.py `calibration`) needs
many games where the chances are high and few games reach them (lobo hard: some 50 to 100 games
of 2,000), and a game's decisions rise and fall together. This measures the same thing directly:
decisions of `simulate --policy hint --games-out` records whose predicted chance lies in [low,
high] (at most --per-game a game, then --positions of them at random), each played on to the
game's end --playouts times by the hint at the simulator's state budget (3,000 states, 256 deals a
play), the unseen cards shuffled afresh each time (seeded). The share won is an unbiased estimate
of the decision's true chance under the hint's play. Each playout's first answer is the decision
asked again, so `first` must equal the record's `predicted`: a check that the budgets and tables are
the ones the games were played with.

--summary prints, by band of prediction, the mean predicted chance, the mean share of playouts
won, the share of the games won, and predicted − playouts with a 95% interval over positions
(rows of the same position in several files are pooled).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.parallel.run import run_parallel
from solver.play.driver import Table
from solver.play.registry import make_policy
from solver.play.simulate import GameRecord, play_game, replay_record

BANDS = ((0.0, 0.05), (0.05, 0.1), (0.1, 0.2), (0.2, 0.3), (0.3, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.0001))
MAX_STATES, SAMPLES = 3000, 256  # the budgets the games of sessions 31-33 were played with


def played_on(index: int, table: Table, playouts: int, seed: int) -> tuple[int, int, float | None, float]:
    """Worker: games won of `playouts` played on from `table` by the hint; its first answer's chance."""
    policy = make_policy("hint", SAMPLES, None, MAX_STATES)
    # The deck's first shuffle is then this table's pile (a lobo table after a reshuffle says which).
    start = dataclasses.replace(table, reshuffles=0)
    t0 = time.perf_counter()
    won, first = 0, None
    for j in range(playouts):
        record = play_game(start.setup, policy, seed, index * 1000 + j, start=start)
        won += record.won
        if j == 0 and record.predicted:
            first = record.predicted[0][1]
    return index, won, first, time.perf_counter() - t0


def measure(args: argparse.Namespace) -> None:
    rng = random.Random(args.pick_seed)
    picks: list[tuple[int, int, float, Table, bool]] = []
    with open(args.games, encoding="utf-8") as f:
        for line in f:
            record = GameRecord.from_json(json.loads(line))
            asked = [(i, p) for i, p in record.predicted if args.low <= p <= args.high]
            if not asked:
                continue
            game = replay_record(record)
            for i, p in rng.sample(asked, min(args.per_game, len(asked))):
                picks.append((record.index, i, p, game.tables[i], record.won))
    rng.shuffle(picks)
    picks = picks[: args.positions]
    print(f"{len(picks)} decisions, {args.playouts} playouts each", file=sys.stderr)
    with open(args.out, "w", encoding="utf-8") as out:

        def emit(result: tuple[int, int, float | None, float]) -> None:
            n, won, first, seconds = result
            game, step, predicted, _, game_won = picks[n]
            row = {"game": game, "step": step, "predicted": predicted, "wins": won, "k": args.playouts,
                   "first": first, "won": game_won, "seconds": round(seconds, 1)}  # fmt: skip
            out.write(json.dumps(row) + "\n")
            out.flush()

        tasks = ((n, table, args.playouts, args.seed) for n, (_, _, _, table, _) in enumerate(picks))
        run_parallel(played_on, tasks, emit=emit, workers=args.jobs)


def summary(paths: list[str]) -> None:
    pooled: dict[tuple[int, int], dict[str, Any]] = {}
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["first"] is not None and abs(row["first"] - row["predicted"]) > 1e-5:
                sys.exit(f"{path}: game {row['game']} step {row['step']} asked again gives {row['first']}, "
                         f"the record {row['predicted']}: other budgets or tables")  # fmt: skip
            key = (row["game"], row["step"])
            if key in pooled:
                pooled[key]["wins"] += row["wins"]
                pooled[key]["k"] += row["k"]
            else:
                pooled[key] = dict(row)
    rows = list(pooled.values())
    print(f"{len(rows)} decisions of {len({r['game'] for r in rows})} games")
    print(
        "| predicted | decisions | playouts | mean predicted | playouts won | games won | predicted − playouts (95%) |"
    )
    print("|---|---|---|---|---|---|---|")
    for low, high in BANDS:
        band = [r for r in rows if low <= r["predicted"] < high]
        if len(band) < 2:
            continue
        n = len(band)
        gaps = [r["predicted"] - r["wins"] / r["k"] for r in band]
        mean = sum(gaps) / n
        half = 1.96 * math.sqrt(sum((g - mean) ** 2 for g in gaps) / (n - 1) / n)
        print(
            f"| {low:.0%}–{min(high, 1):.0%} | {n} | {sum(r['k'] for r in band)} "
            f"| {100 * sum(r['predicted'] for r in band) / n:.1f}% | {100 * sum(r['wins'] / r['k'] for r in band) / n:.1f}% "
            f"| {100 * sum(r['won'] for r in band) / n:.1f}% | {100 * mean:+.1f} ({100 * (mean - half):+.1f} to {100 * (mean + half):+.1f}) |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="?", help="simulate --policy hint --games-out records")
    parser.add_argument("--low", type=float, default=0.3)
    parser.add_argument("--high", type=float, default=0.9)
    parser.add_argument("--per-game", type=int, default=2)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--playouts", type=int, default=40)
    parser.add_argument("--seed", type=int, default=424242, help="the playouts' decks")
    parser.add_argument("--pick-seed", type=int, default=34, help="which decisions are chosen")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", help="the rows, one line a decision")
    parser.add_argument("--summary", nargs="+", metavar="ROWS", help="the table of rows written before")
    args = parser.parse_args()
    if args.summary:
        summary(args.summary)
    elif args.games and args.out:
        measure(args)
    else:
        parser.error("give GAMES.jsonl and --out, or --summary ROWS.jsonl")


if __name__ == "__main__":
    main()
