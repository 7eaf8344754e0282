"""Greedy rollouts' speed: the bulk rollouts compiled (solver/search/playouts.py, what the hint's
estimates use) against the same rollouts run one by one through the rules' Python API
(solver/search/rollout.py, the plain kernel), measured in the same run on the same deals.

    python bench/rollouts.py [--count 20] [--deals 200] [--objective win] [--seed 5]

Round-start positions of vanguard standard (4 v 4 dealt from a full deck); every legal play's
child is played out on the same --deals orders of the pile. Prints deals a second for each and
their ratio (compiled / plain: above 1, the compiled rollouts are faster), and checks that both
give the same values.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core.cards import values_of
from solver.core.position import parse_position
from solver.core.rules import apply, initial_state, legal_plays
from solver.search.engine import Search, prepare
from solver.search.rollout import rollout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--deals", type=int, default=200)
    # Not `game`: there the bulk rollouts deal a next round that is surely final from the rest of
    # the order (playouts.dealt_end), which the rules' one-by-one rollout does not do
    # (tests/test_greedy.py replays that through the rules).
    ap.add_argument("--objective", default="win", choices=["win", "party"])
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    plain_s = fast_s = 0.0
    rollouts = 0
    for _ in range(args.count):
        deck = [v for v in range(1, 10) for _ in range(4)]
        rng.shuffle(deck)
        pos = parse_position(
            {
                "player": deck[:4],
                "wolf": deck[4:8],
                "draw_pile": {"size": 28},
                "final": False,
                "objective": args.objective,
            }
        )
        root = initial_state(pos)
        prepare(root, args.objective)
        pool = list(values_of(root.unseen))
        orders = [tuple(rng.sample(pool, root.pile_size)) for _ in range(args.deals)]
        children = [apply(root, p) for p in legal_plays(root)]
        judge = Search(root, args.objective)
        t0 = time.perf_counter()
        want = [
            [
                judge.terminal(e) if e.outcome is not None else judge.final_value(e)
                for e in (rollout(c, list(o)) for o in orders)
            ]
            for c in children
        ]
        plain_s += time.perf_counter() - t0
        t0 = time.perf_counter()
        got, _ = judge.rollouts(children, orders)
        fast_s += time.perf_counter() - t0
        assert got == want, "the bulk rollouts disagree with the one-by-one rollouts"
        rollouts += len(children) * len(orders)
    print(
        f"{rollouts} rollouts (objective {args.objective}, {args.count} round starts): one by one "
        f"{rollouts / plain_s:,.0f} a second, in bulk ({judge.mode}) {rollouts / fast_s:,.0f} a second: "
        f"ratio {plain_s / fast_s:.1f}"
    )


if __name__ == "__main__":
    main()
