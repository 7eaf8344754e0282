"""Railway LOBO partition speed: the combinatorial search against CP-SAT, in the same run.

    python bench/railway.py [--count 200] [--sizes 6,9,12,18,24] [--seed 1]

Hands of n cards (a third of them junctions, a sixth season tickets, the rest stations; every
hand dealt at random) on a random deck of 3n junctions and 3n stations, each junction listing
2..5 stations, so that junctions compete for the same stations. n = 6 and 9 are hands of the
game; the larger ones are there to show how each method grows. Both methods must agree on the
number of journeys in every hand. Prints median and p95 seconds per hand and the ratio
CP-SAT/search (above 1: the search is faster), the default `auto` (the search, handing over to
CP-SAT past 256 nodes), and the time of a whole `railway hint` on the made-up deck.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.railway import SEASON_TICKET, load_deck, parse_deck, parse_position  # noqa: E402
from solver.railway.advice import advise  # noqa: E402
from solver.railway.partition import partition, partition_cpsat, partition_search  # noqa: E402


def deck_for(rng: random.Random, n: int) -> dict[str, Any]:
    stations = [f"S{i}" for i in range(3 * n)]
    junctions = {f"J{j}": rng.sample(stations, rng.randint(2, 5)) for j in range(3 * n)}
    return {"name": f"bench {n}", "season_tickets": max(6, n // 6), "junctions": junctions, "stations": stations}


def hand_for(rng: random.Random, raw: dict[str, Any], n: int, contested: bool) -> list[str]:
    """Game-like: a third junctions, a sixth season tickets. Contested: half junctions and one
    season ticket, so that junctions fight over stations and the bound rarely ends the search."""
    tickets = 1 if contested else n // 6
    junctions = rng.sample(list(raw["junctions"]), n // 2 if contested else n // 3)
    # Stations mostly from the chosen junctions' lists: otherwise almost nothing fits together.
    listed = sorted({s for j in junctions for s in raw["junctions"][j]})
    others = [s for s in raw["stations"] if s not in listed]
    want = n - len(junctions) - tickets
    stations = rng.sample(listed, min(len(listed), want))
    stations += rng.sample(others, want - len(stations))
    return [*junctions, *stations, *[SEASON_TICKET] * tickets]


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--sizes", default="6,9,12,24,36,48")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    partition_cpsat(parse_deck(deck_for(rng, 6)), [])  # load OR-Tools before timing
    print(
        "| hands | size | journeys (mean) | search p50 | search p95 | CP-SAT p50 | CP-SAT p95 "
        "| ratio p50 | ratio p95 | auto p50 | auto p95 |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for contested in (False, True):
        for n in (int(s) for s in args.sizes.split(",")):
            table_row(rng, n, contested, args.count)
    hints(rng, max(10, args.count // 20))


def table_row(rng: random.Random, n: int, contested: bool, count: int) -> None:
    """One line of the table: `count` hands of n cards, each solved both ways."""
    fast: list[float] = []
    sat: list[float] = []
    auto: list[float] = []
    found = 0
    for _ in range(count):
        raw = deck_for(rng, n)
        deck = parse_deck(raw)
        hand = hand_for(rng, raw, n, contested)
        t0 = time.perf_counter()
        a = partition_search(deck, hand)
        t1 = time.perf_counter()
        b = partition_cpsat(deck, hand)
        t2 = time.perf_counter()
        c = partition(deck, hand, "auto")
        t3 = time.perf_counter()
        if not len(a.journeys) == len(b.journeys) == len(c.journeys):
            raise SystemExit(f"disagree on {hand}: search {len(a.journeys)}, CP-SAT {len(b.journeys)}")
        auto.append(t3 - t2)
        fast.append(t1 - t0)
        sat.append(t2 - t1)
        found += len(a.journeys)
    kind = "contested" if contested else "game-like"
    print(
        f"| {kind} | {n} | {found / count:.2f} | {pct(fast, 0.5):.6f} | {pct(fast, 0.95):.6f} | "
        f"{pct(sat, 0.5):.6f} | {pct(sat, 0.95):.6f} | {pct(sat, 0.5) / pct(fast, 0.5):.1f} | "
        f"{pct(sat, 0.95) / pct(fast, 0.95):.1f} | {pct(auto, 0.5):.6f} | {pct(auto, 0.95):.6f} |"
    )


def hints(rng: random.Random, count: int) -> None:
    """The whole hint (both sources, every discard, three turns) on the made-up deck."""
    deck = load_deck(ROOT / "puzzles" / "railway" / "made-up-deck.railway")
    cards = [name for name, n in deck.cards().items() for _ in range(n)]
    times = []
    for _ in range(count):
        rng.shuffle(cards)
        pos = parse_position({"hand": cards[:5], "top_discard": cards[5], "seen": cards[6:10]}, deck=deck)
        t0 = time.perf_counter()
        advise(pos)
        times.append(time.perf_counter() - t0)
    print(
        f"\nhint on the made-up deck (5-card hand, 26 unseen), {count} positions: "
        f"p50 {statistics.median(times):.3f} s, p95 {pct(times, 0.95):.3f} s"
    )


if __name__ == "__main__":
    main()
