"""Whole-game simulation speed: games per second per policy, game and difficulty, on one process
and on two (the ratio), on the same seeded games in the same run.

    python bench/simulate.py [--games 200] [--best-games 60] [--seed 7] [--policies best] [--games-kinds vanguard]
    python bench/simulate.py --goal      # 2,000 standard vanguard games with best on 2 processes
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.play.driver import Setup
from solver.play.simulate import simulate, summarize


def timed(setup: Setup, policy: str, games: int, seed: int, workers: int) -> tuple[float, float]:
    """(games per second, win rate)."""
    t = time.perf_counter()
    records = simulate(setup, policy, games, seed, workers=workers)
    seconds = time.perf_counter() - t
    return games / seconds, summarize(records).win_rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per row for random and greedy")
    ap.add_argument("--best-games", type=int, default=60, help="games per row for best")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--games-kinds", default="vanguard,lobo")
    ap.add_argument("--policies", default="random,greedy,best")
    ap.add_argument("--difficulties", default="easy,standard,hard")
    ap.add_argument("--goal", action="store_true", help="only the goal: 2,000 standard vanguard games with best")
    args = ap.parse_args()
    if args.goal:
        t = time.perf_counter()
        records = simulate(Setup("vanguard", "standard"), "best", 2000, args.seed, workers=2)
        seconds = time.perf_counter() - t
        s = summarize(records)
        verdict = "met" if seconds < 600 else "NOT met"
        print(f"2000 standard vanguard games, best, 2 processes: {seconds:.0f} s (goal 600 s: {verdict}); "
              f"won {100 * s.win_rate:.1f}% (95% {100 * s.interval[0]:.1f}-{100 * s.interval[1]:.1f}%)")  # fmt: skip
        return
    print("| game | difficulty | policy | games | games/s, 1 process | games/s, 2 processes | ratio | won |")
    print("|---|---|---|---|---|---|---|---|")
    for game in args.games_kinds.split(","):
        for difficulty in args.difficulties.split(","):
            for policy in args.policies.split(","):
                n = args.best_games if policy == "best" else args.games
                setup = Setup(game, difficulty)
                one, won = timed(setup, policy, n, args.seed, 1)
                two, _ = timed(setup, policy, n, args.seed, 2)
                print(f"| {game} | {difficulty} | {policy} | {n} | {one:.1f} | {two:.1f} | {two / one:.2f} | "
                      f"{100 * won:.1f}% |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
