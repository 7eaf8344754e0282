"""An upper bound on what any player who does not see the deck's order can win: the clairvoyant,
charged for what it could not have known (issue 23; an information relaxation, Brown, Smith and
Sun, Operations Research 58(4), 2010).

    python bench/relaxation.py [--games 200] [--seed 4242] [--difficulty standard]
                               [--scale 100] [--samples 64] [--jobs 2] [--check]

For each seeded deal (game i of a seed is the simulator's game i), the clairvoyant searches the
whole game for the line worth most, a line being worth 1 if it wins the game, minus a penalty at
every draw and every deal: V(the state the cards made) − E[V(the state they make)], V being what
the value network (scaled by --scale percent; 0: no penalty) says a player at the table would
expect (bench/relaxation_core.py says exactly how). Every penalty has mean zero for a player who
does not see the order, so the mean over deals of the best penalised line, plus the mean of V
over first deals, bounds the chance to win of every such player, lobo-hint's advice included;
how tight it is depends on how close V is to the true values. Printed with its 95% interval.
--scale 0 is the plain clairvoyant: its win rate.

--check also plays the greedy rule (rewards by the best W) on the same deals and prints the mean
of the penalties its line paid: 0 within its interval, or the penalties are wrong.

Measured: bench/README.md, "Session 28".
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
import relaxation_core as rc  # bench/, on the path above

from solver.core.cards import DIFFICULTIES
from solver.core.games import game
from solver.core.intervals import Z95
from solver.play.driver import SeededDeck, Setup, new_table
from solver.search import hashtable, value_net

FIRST_DEALS = 200_000  # deals averaged for the mean of V over first deals (its error is printed)
STATE_CAP = 50_000_000  # decision states one deal may solve (a deal past it is reported, not counted)


def before_first_deal(setup: Setup) -> Any:
    """The kernel's vector of a vanguard game before its first deal: every card in the pile."""
    k = rc.K
    st = np.zeros(k.STATE, np.int64)
    for v, count in enumerate(setup.deck, 1):  # the deck as counts by value
        st[k.UNSEEN + v - 1] = count
    st[k.PILE] = sum(setup.deck)
    st[k.PARTY] = (1 << k.PARTY_SIZE) - 1
    st[k.TOPV] = setup.top
    st[k.RULESET] = game(setup.game).ruleset
    st[k.HAND_SIZE] = setup.rules.hand_size
    st[k.FINAL_THRESHOLD] = setup.rules.final_threshold
    return st


def _tabs() -> tuple[Any, ...]:
    mk, mv = hashtable.new_table(1 << 18, 2)
    dk, dv = hashtable.new_table(1 << 16, 3)
    return mk, mv, dk, dv, np.zeros(2 * rc.X.EV_SIZE), np.zeros(rc.X.COUNTERS, np.int64)


def deals(task: tuple[str, int, list[int], int, int, bool]) -> list[tuple[float, float, int, float, float]]:
    """Worker: for each deal, (best penalised line, V of the first deal, states, and with --check
    the greedy line's outcome and penalties; NaN without)."""
    difficulty, seed, indices, scale, samples, check = task
    setup = Setup("vanguard", difficulty)
    e0 = before_first_deal(setup)
    net = value_net._array("vanguard", difficulty)
    tabs = _tabs()
    out = []
    for i in indices:
        deck = np.array(SeededDeck.for_table(new_table(setup), seed, i).order(0), np.int64)
        stats = np.zeros(rc.STATS, np.int64)
        # The generator of the sampled deals is seeded from the deal's number, never its order.
        c, vd = rc.bound_of_deal(e0, deck, samples, 7919 * i + 1, scale, net, tabs, stats, STATE_CAP)
        if stats[rc.S_OVER]:
            raise RuntimeError(f"deal {i}: more than {STATE_CAP} states")
        g = p = math.nan
        if check:
            g, p = rc.greedy_line(e0, deck, samples, 7919 * i + 1, net, tabs, np.zeros(rc.STATS, np.int64))
        out.append((c, vd, int(stats[rc.S_STATES]), g, p))
    return out


def first_deals_mean(difficulty: str, scale: int) -> tuple[float, float]:
    """The mean of V over first deals and its standard error (FIRST_DEALS sampled deals)."""
    setup = Setup("vanguard", difficulty)
    e0 = before_first_deal(setup)
    deck = np.array([v for v, count in enumerate(setup.deck, 1) for _ in range(count)], np.int64)
    net = value_net._array("vanguard", difficulty)
    xs = rc.first_deal_values(e0, deck, FIRST_DEALS, 104729, scale, net, _tabs())
    return float(xs.mean()), float(xs.std() / math.sqrt(len(xs)))


def mean_ci(xs: list[float]) -> tuple[float, float]:
    a = np.array(xs)
    return float(a.mean()), float(Z95 * a.std(ddof=1) / math.sqrt(len(a)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--difficulty", choices=DIFFICULTIES, default="standard")
    ap.add_argument("--scale", type=int, default=100, help="V as a percentage of the network's (0: no penalty)")
    ap.add_argument("--samples", type=int, default=64, help="deals sampled for the worth of a round's end")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--check", action="store_true", help="also the greedy line's penalties (must average 0)")
    args = ap.parse_args()
    if args.games < 2 or args.jobs < 1 or not 0 <= args.scale <= 100 or args.samples < 1:
        ap.error("--games at least 2, --jobs at least 1, --scale 0 to 100, --samples at least 1")
    t0 = time.perf_counter()
    n = max(1, min(25, args.games // (4 * args.jobs)))
    tasks = [
        (args.difficulty, args.seed, list(range(a, min(a + n, args.games))), args.scale, args.samples, args.check)
        for a in range(0, args.games, n)
    ]
    rows: list[tuple[float, float, int, float, float]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for got in pool.map(deals, tasks):
            rows.extend(got)
            print(f"\r{len(rows)}/{args.games} deals", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    w0, w0_se = first_deals_mean(args.difficulty, args.scale)
    m, h = mean_ci([c - vd for c, vd, *_ in rows])
    half = math.sqrt(h * h + (Z95 * w0_se) ** 2)
    print(f"vanguard {args.difficulty}, seed {args.seed}, {len(rows)} deals, V = {args.scale}% of the network")
    if args.scale == 0:
        print(f"plain clairvoyant: {m:.2%} of the deals won (95% ±{h:.2%})")
    else:
        print(f"mean of V over first deals: {w0:.4f} (standard error {w0_se:.4f}, {FIRST_DEALS} deals)")
        print(f"mean best penalised line minus V of the first deal: {m:.4f} (95% ±{h:.4f})")
        print(f"upper bound on any non-clairvoyant player's win rate: {w0 + m:.2%} (95% ±{half:.2%})")
    states = [s for _, _, s, _, _ in rows]
    print(f"states a deal: median {int(np.median(states))}, most {max(states)}; {time.perf_counter() - t0:.0f} s")
    if args.check:
        gm, gh = mean_ci([p for *_, p in rows])
        won = sum(g for *_, g, _ in rows)
        print(f"greedy line: {won:.0f} won; mean penalty paid {gm:+.4f} (95% ±{gh:.4f}; must hold 0)")


if __name__ == "__main__":
    main()
