"""The hint's bands where every play was searched to the round's end (issue 23, session 35):

    python bench/own_bands.py [--count 30] [--seed own-bench] [--time-limit 2]
    PYTHONPATH=OTHER_CHECKOUT python bench/own_bands.py ...   (the baseline, run alongside)

Small seeded rounds beyond the exact horizon (hands of 1 to 4, pile 17 to 22, the unseen cards the
pile), each asked of the hint in this process under the time limit. Prints the mean and largest
seconds an answer, how many plays came out exact, the summed width of the 95% bands and how many
plays were tied with the best: run it on two checkouts to compare them on the same positions.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core.position import parse_position
from solver.search.hint import hint


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--seed", default="own-bench")
    ap.add_argument("--time-limit", type=float, default=2.0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    seconds, exact, width, tied, plays = [], 0, 0.0, 0, 0
    for _ in range(args.count):
        deck = [v for v in range(1, 10) for _ in range(4)]
        rng.shuffle(deck)
        a, b, r, pile = rng.randint(1, 4), rng.randint(1, 4), rng.randint(0, 1), rng.randint(17, 22)
        mine, rest = deck[b : b + a + r], deck[b + a + r :]
        raw = {
            "player": mine[:a], "wolf": deck[:b], "reserve": mine[a:], "party": ["J", "Q", "K"],
            "draw_pile": {"size": pile}, "discard": rest[: len(rest) - pile], "final": False, "objective": "game",
        }  # fmt: skip
        t0 = time.perf_counter()
        h = hint(parse_position(raw), time_limit=args.time_limit)
        seconds.append(time.perf_counter() - t0)
        plays += len(h.moves)
        exact += sum(m.method is None and m.bounds is None for m in h.moves)
        width += sum(m.interval[1] - m.interval[0] for m in h.moves if m.interval is not None)
        tied += sum(m.tied for m in h.moves)
    print(json.dumps({
        "positions": args.count, "mean_seconds": round(sum(seconds) / len(seconds), 4),
        "max_seconds": round(max(seconds), 4), "plays": plays, "exact": exact, "band_width": round(width, 3),
        "tied": tied,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
