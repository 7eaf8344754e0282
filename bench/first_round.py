"""How the first round of a vanguard game ends, and what that leaves the whole game (issue 23).

    python bench/first_round.py [--games 2000] [--seed 4242] [--objectives win,game,party]
                                [--difficulty standard] [--max-states 3000] [--samples 64]
                                [--games-file HINT_GAMES.jsonl ...] [--jobs 2]

Plays the first round of seeded deals (game i of a seed is the simulator's game i) by the hint
under each objective, at a state budget (the same games on any machine), and counts how the round
ended: won, or lost with 2, 1 or 0 members left. `win` is the round's own best: how often any
advice tried here wins the first round.

With --games-file (whole games of the hint policy: `lobo-hint simulate --policy hint --games-out
F` on the same difficulty; given more than once, pooled), the share of games won after each first-round ending, and the ceiling
that follows: had the first round been won as often as under `win` and every first round lost
cost one member only (the fewest a loss can cost), the games after it, played as in the file,
would win

    P(won first round, `win`) × P(game | first round won)
      + (1 − P(won first round, `win`)) × P(game | first round lost, one member down)

with a 95% interval (delta method over the three binomial shares).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core.intervals import Z95, wilson
from solver.play.driver import PLAY, REWARD, Move, SeededDeck, Setup, advance, new_table
from solver.play.game_files import GameFileError, read_games
from solver.search.hint import hint

WON = "won"
ENDINGS = (WON, "2 members left", "1 member left", "party lost")


def ending(members: int) -> str:
    return ENDINGS[3 - members]


def first_round(task: tuple[str, str, int, int, int, int]) -> str:
    """Worker: game `index` of `seed`, its first round played by the hint under `objective`."""
    objective, difficulty, seed, index, max_states, samples = task
    t = new_table(Setup("vanguard", difficulty))
    deck = SeededDeck.for_table(t, seed, index)
    while True:
        step = deck.next_step(t)
        if step is None:
            if t.phase != PLAY:
                break
            pos = dataclasses.replace(t.position(), objective=objective)
            best = hint(pos, max_states=max_states, samples=samples).best
            assert best is not None
            step = Move(best)
        t = advance(t, step)
        if t.over or t.rounds > 1 or t.phase == REWARD:
            break
    return WON if t.phase == REWARD or (t.over and t.result == "won") else ending(len(t.party))


def after_first_round(paths: list[str]) -> dict[str, tuple[int, int]]:
    """From whole games: per first-round ending, (games, games won)."""
    out: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for g in (g for path in paths for g in read_games(path)):
        if isinstance(g, GameFileError):
            raise SystemExit(str(g))
        tables = g.game.tables
        second = next((t for t in tables if t.rounds == 2), None)
        if second is None:
            key = WON if g.game.table.result == "won" else ending(0)
        elif len(second.reserve) > 0 or len(second.party) == 3:
            key = WON  # a first round won with the whole party keeps a card in the reserve
        else:
            key = ending(len(second.party))
        out[key] += 1
        won[key] += g.game.table.result == "won"
    return {k: (out[k], won[k]) for k in out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--difficulty", default="standard")
    ap.add_argument("--objectives", default="win,game,party")
    ap.add_argument("--max-states", type=int, default=3000)
    ap.add_argument("--samples", type=int, default=64)
    ap.add_argument("--games-file", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    shares: dict[str, Counter[str]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for objective in args.objectives.split(","):
            tasks = [
                (objective, args.difficulty, args.seed, i, args.max_states, args.samples) for i in range(args.games)
            ]
            got = Counter(pool.map(first_round, tasks, chunksize=20))
            shares[objective] = got
            row = ", ".join(f"{k} {100 * got[k] / args.games:.1f}%" for k in ENDINGS)
            lo, hi = wilson(got[WON], args.games)
            print(f"first round under {objective:6}: {row} (won 95% {100 * lo:.1f}–{100 * hi:.1f}%)", flush=True)
    if not args.games_file:
        return
    table = after_first_round(args.games_file)
    for k in ENDINGS:
        n, w = table.get(k, (0, 0))
        if n:
            print(f"after a first round {k:15}: {n:5} games, {100 * w / n:5.1f}% won")
    best = max(shares, key=lambda o: shares[o][WON])
    p = shares[best][WON] / args.games
    (na, wa), (nb, wb) = table[WON], table[ending(2)]
    a, b = wa / na, wb / nb
    ceiling = p * a + (1 - p) * b
    var = p * p * a * (1 - a) / na + (1 - p) ** 2 * b * (1 - b) / nb + (a - b) ** 2 * p * (1 - p) / args.games
    half = Z95 * math.sqrt(var)
    print(
        f"ceiling: won as often as under {best} ({100 * p:.1f}%), every loss one member down: "
        f"{100 * ceiling:.1f}% of games (95% {100 * (ceiling - half):.1f}–{100 * (ceiling + half):.1f}%)"
    )


if __name__ == "__main__":
    main()
