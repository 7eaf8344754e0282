"""Final-round finisher speed: CP-SAT against the brute-force finisher, in the same run.

    python bench/finish.py [--count 30] [--sizes 4,6,8,10,12,14,16] [--seed 1]

For each size n: n Player cards (hand and up to 2 reserve) against n Wolf cards, hard deck,
random party. Prints median and p95 seconds of each finisher and the ratio brute/CP-SAT
(above 1: CP-SAT is faster). Brute force past --brute-limit seconds on a position is stopped
and counted at the limit (marked '>').
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core.position import parse_position
from solver.core.rules import initial_state
from solver.finish.finisher import solve_finish
from solver.finish.verify import brute_finish


def position(rng: random.Random, n: int) -> dict[str, Any]:
    """Half the positions are dealt at random (mostly lost); half have Wolf cards made from groups
    of the Player's cards, so that finishes exist and the search for the best one is real work."""
    deck = [v for v in range(1, 11) for _ in range(4)]
    rng.shuffle(deck)
    reserve = rng.randint(0, 2)
    mine, rest = deck[:n], deck[n:]
    wolf = rest[:n]
    if rng.random() < 0.5:
        wolf, pool = [], list(mine)
        rng.shuffle(pool)
        while len(pool) > n // 5 and len(wolf) < n:
            group = [pool.pop()]
            while pool and rng.random() < 0.25 and sum(group) + pool[-1] <= 10:
                group.append(pool.pop())
            wolf.append(sum(group))
        small = [v for v in rest if v <= 5]
        wolf += small[: n - len(wolf)]
        wolf += rest[: n - len(wolf)]
        if any(wolf.count(v) + mine.count(v) > 4 for v in set(wolf)):
            return position(rng, n)  # more copies than the deck holds: deal again
    return {
        "game": "vanguard",
        "difficulty": "hard",
        "player": mine[: n - reserve],
        "reserve": mine[n - reserve :],
        "wolf": wolf[:n],
        "party": rng.sample(["J", "Q", "K"], rng.randint(1, 3)),
        "final": True,
    }


def _brute(raw: dict[str, Any], out: Any) -> None:
    s = initial_state(parse_position(raw))
    t = time.perf_counter()
    b = brute_finish(s.wolf, s.hand, s.reserve, s.party)
    out.put((time.perf_counter() - t, b.score))


def timed_brute(raw: dict[str, Any], limit: float) -> tuple[float, int | None, bool]:
    q: Any = mp.Queue()
    p = mp.Process(target=_brute, args=(raw, q))
    p.start()
    p.join(limit)
    if p.is_alive():
        p.terminate()
        p.join()
        return limit, None, True
    seconds, score = q.get()
    return seconds, score, False


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--sizes", default="4,6,8,10,12,14,16")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--brute-limit", type=float, default=20.0)
    args = ap.parse_args()
    print(
        f"{'size':>7} {'won':>4} {'cpsat p50':>10} {'cpsat p95':>10} {'brute p50':>10} {'brute p95':>10} "
        f"{'ratio p50':>10} {'ratio p95':>10}"
    )
    for n in (int(x) for x in args.sizes.split(",")):
        rng = random.Random(f"{args.seed}-{n}")
        cp, br, won, cut = [], [], 0, False
        for _ in range(args.count):
            raw = position(rng, n)
            s = initial_state(parse_position(raw))
            t = time.perf_counter()
            f = solve_finish(s)
            cp.append(time.perf_counter() - t)
            seconds, score, stopped = timed_brute(raw, args.brute_limit)
            br.append(seconds)
            cut |= stopped
            if not stopped:
                assert (f.score if f.status == "win" else None) == score, raw
            won += f.status == "win"
        mark = ">" if cut else " "
        print(
            f"{n:>3} v {n:<2} {won:>4} {statistics.median(cp):>10.4f} {pct(cp, 0.95):>10.4f} "
            f"{mark}{statistics.median(br):>9.4f} {mark}{pct(br, 0.95):>9.4f} "
            f"{statistics.median(br) / statistics.median(cp):>10.2f} {pct(br, 0.95) / pct(cp, 0.95):>10.2f}"
        )


if __name__ == "__main__":
    main()
