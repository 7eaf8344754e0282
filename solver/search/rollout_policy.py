"""The rollout policy: how the estimates play a round out far from its end (objective `game`).

A rollout is one sample of the rest of the round, and its end is valued for the game (the
evaluator's tables, or the exact next deal: solver/search/playouts.py). The policy that plays it
decides what the sample measures: the greedy rule never folds while anything else is legal and
takes the most Wolf cards it can, so its rollouts value a play by a line that a player who wants
the game would not follow (an Over that makes the Wolf draw five cards, then a fold that costs
the whole party).

The policy here scores each legal move by a weighted sum of plain facts about it
(kernel.policy_score: whether it wins the round, the Wolf's cards it takes and leaves, the
Player's cards it spends, an Over's difference, and for Fold what it costs: vanguard's members,
lobo's points for the Wolf) and plays the best. The weights are tuned offline, per game and
difficulty, by the cross-entropy method: the objective is the mean value for the game (the same
evaluator the search reads) of the round's ends the policy reaches, from decisions of simulated
games, every candidate played on the same deals; and they are checked on decisions of other
games. They ship as package data (data/rollout_policy.json), with the figures of that
check, and are rebuilt by

    python -m solver.search.rollout_policy [--games-of vanguard,lobo] [--difficulties ...] [--seed 101]
        [--iterations 30] [--deals 16]

Objectives other than `game` (the round's win, the party, lobo's points) keep the greedy rule:
the weights were tuned for the game's values of the round's ends, not for a round's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.core import kernel
from solver.core.cards import DIFFICULTIES, DIFFICULTY_OF_TOP
from solver.core.games import LOBO, VANGUARD
from solver.core.position import Rules
from solver.core.rules import State

DATA = Path(__file__).with_name("data") / "rollout_policy.json"
GREEDY: tuple[float, ...] = kernel.GREEDY_WEIGHTS


class RolloutPolicyError(RuntimeError):
    """The shipped weights are missing or unreadable (a broken installation)."""


@lru_cache(maxsize=1)
def shipped() -> dict[tuple[str, str], tuple[float, ...]]:
    """The shipped weights by (game, difficulty)."""
    try:
        raw = json.loads(DATA.read_text(encoding="utf-8"))
        out = {(g, d): tuple(float(x) for x in w) for g, by in raw["weights"].items() for d, w in by.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise RolloutPolicyError(f"the rollout policy's weights ({DATA}) cannot be read: {e}") from None
    for (g, d), w in out.items():
        if len(w) != kernel.RP_SIZE or w[kernel.RP_ON] != 1.0:
            raise RolloutPolicyError(
                f"the rollout policy's weights ({DATA}) for {g} {d} are not {kernel.RP_SIZE} tuned weights"
            )
    return out


def weights(root: State, objective: str) -> tuple[float, ...]:
    """The weights rollouts from root play by: under `game` with the default rules, the ones tuned
    for its game and difficulty; else the greedy rule's (the weights were tuned for the game's
    values with 4-card hands and a final threshold of 8, not for a round's win or points)."""
    if objective != "game" or root.rules != Rules():
        return GREEDY
    return shipped().get((root.game, DIFFICULTY_OF_TOP.get(root.top, "")), GREEDY)


def is_greedy(w: Sequence[float]) -> bool:
    """Whether weights w are the greedy rule's (kernel.choose plays the rule itself)."""
    return w[kernel.RP_ON] == 0.0


# -- tuning ------------------------------------------------------------------------------------------

Decision = tuple[State, tuple[int, int]]  # a round at a decision, and lobo's scores before it


def decisions(name: str, difficulty: str, games: int, seed: int, most: int | None = None) -> list[Decision]:
    """Every decision of a regular round (not final, the Wolf's hand not empty) met in `games`
    games of the greedy policy, seed `seed`, in game order, with the race's scores (lobo); at
    most `most` of them, evenly spaced (a lobo game has many rounds)."""
    from solver.play.driver import PLAY, Setup
    from solver.play.simulate import replay_record, simulate

    records: list[Any] = []
    simulate(Setup(name, difficulty), "greedy", games, seed, workers=1, on_record=records.append)
    out = []
    for r in records:
        for t in replay_record(r).tables:
            s = t.round
            if t.phase == PLAY and s is not None and not s.final and s.wolf and s.outcome is None:
                out.append((s, t.points))
    if most is not None and len(out) > most:
        out = [out[i * len(out) // most] for i in range(most)]
    return out


class Bench:
    """Decisions, each with its own deals of the unknown cards, on which a weight vector is judged:
    the mean, over decisions, of the mean value for the game of the round's ends it reaches."""

    def __init__(self, found: Sequence[Decision], deals: int, seed: int) -> None:
        from solver.search.engine import Search
        from solver.search.estimate import orders_of

        self.items: list[tuple[Any, State, list[tuple[int, ...]]]] = []
        for i, (s, scores) in enumerate(found):
            orders = orders_of(s, seed * 1_000_003 + i)
            self.items.append((Search(s, "game", scores=scores), s, [next(orders) for _ in range(deals)]))

    def values(self, w: Sequence[float]) -> list[float]:
        out = []
        for search, s, orders in self.items:
            vs, _ = search.rollouts([s], orders, policy=w)
            out.append(sum(vs[0]) / len(vs[0]))
        return out

    def mean(self, w: Sequence[float]) -> float:
        v = self.values(w)
        return sum(v) / len(v)


# Where the search starts: the greedy rule as a weighted score (Perfect, Sum and Split before Over,
# Over before Fold; the most Wolf cards, the fewest of yours, the smallest difference), scaled so
# that the steps of the search move it.
START = {
    kernel.RP_TAKEN: 0.2,
    kernel.RP_MINE: -0.02,
    kernel.RP_KEPT: -0.022,
    kernel.RP_TOP: 0.0002,
    kernel.RP_OVER: -10.0,
    kernel.RP_DIFF: -0.02,
    kernel.RP_FOLD: -20.0,
}


POPULATION, ELITE = 24, 6  # the cross-entropy method's draws an iteration, and the best kept


def tune(
    bench: Bench,
    iterations: int,
    start: Sequence[float] | None = None,
    population: int = POPULATION,
    elite: int = ELITE,
    seed: int = 0,
) -> tuple[float, ...]:
    """The cross-entropy method on bench.mean: a normal distribution over the weights (all but
    RP_ON), narrowed each iteration to the best `elite` of `population` draws; its mean at the
    end. Every draw is judged on the same decisions and deals, so draws are compared paired. It
    starts from the greedy rule (START), or from `start`, tuned weights of another difficulty:
    from the greedy rule, easy's search settled on never folding, a local best that standard's
    weights beat on easy's own decisions (bench/README.md)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    n = kernel.RP_SIZE - 1
    if start is None:
        mean = np.array([START.get(i + 1, 0.0) for i in range(n)])
        std = np.maximum(np.abs(mean) * 0.5, 0.3)
    else:
        mean = np.array(start[1:], np.float64)
        std = np.maximum(np.abs(mean) * 0.25, 0.1)
    for it in range(iterations):
        began = time.perf_counter()
        draws = mean + std * rng.standard_normal((population, n))
        draws[0] = mean
        scores = np.array([bench.mean((1.0, *d.tolist())) for d in draws])
        best = draws[np.argsort(-scores)[:elite]]
        mean, std = best.mean(0), best.std(0) + 0.02
        print(
            f"iteration {it + 1}/{iterations}: the mean's value {scores[0]:.4f}, the best draw's "
            f"{scores.max():.4f} ({time.perf_counter() - began:.1f} s)",
            file=sys.stderr,
        )
    return (1.0, *(float(x) for x in mean))


def check(bench: Bench, w: Sequence[float]) -> dict[str, Any]:
    """The tuned weights against the greedy rule on other decisions: both means and their paired
    difference with its 95% interval."""
    from solver.search.estimate import paired

    tuned, greedy = bench.values(w), bench.values(GREEDY)
    d, lo, hi = paired([a - b for a, b in zip(tuned, greedy, strict=True)])
    return {
        "greedy": sum(greedy) / len(greedy),
        "tuned": sum(tuned) / len(tuned),
        "difference": d,
        "difference_95": [lo, hi],
        "decisions": len(tuned),
    }


GAMES_OF = {VANGUARD.name: 400, LOBO.name: 80}  # greedy games a difficulty: some 3,000 decisions each
MOST = 3200


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Tune the rollout policy's weights (data/rollout_policy.json).")
    ap.add_argument("--games", type=int, default=None, help="greedy games a difficulty (vanguard 400, lobo 80)")
    ap.add_argument("--seed", type=int, default=101, help="their seed; the check plays games of seed + 1")
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--deals", type=int, default=16, help="deals of the unknown cards per decision")
    ap.add_argument("--games-of", default="vanguard,lobo", help="the games to tune for")
    ap.add_argument("--difficulties", default="standard,easy,hard", help="tuned in this order")
    ap.add_argument("--start", default="standard", help="start the others from this difficulty's tuned weights")
    ap.add_argument("--out", default=str(DATA))
    args = ap.parse_args(argv)
    names, wanted = args.games_of.split(","), args.difficulties.split(",")
    for g in names:
        if g not in GAMES_OF:
            ap.error(f"--games-of: {g!r} is not one of vanguard, lobo")
    for d in wanted:
        if d not in DIFFICULTIES:
            ap.error(f"--difficulties: {d!r} is not one of easy, standard, hard")
    try:
        raw = json.loads(Path(args.out).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raw = {"weights": {}, "made": {}}
    for g in names:
        games = args.games or GAMES_OF[g]
        tuned = raw["weights"].setdefault(g, {})
        for d in wanted:
            train = Bench(decisions(g, d, games, args.seed, MOST), args.deals, seed=1)
            start = tuned.get(args.start) if d != args.start else None
            w = tune(train, args.iterations, start)
            test = Bench(decisions(g, d, games, args.seed + 1, MOST), 2 * args.deals, seed=2)
            figures = check(test, w)
            print(f"{g} {d}: {figures}", file=sys.stderr)
            tuned[d] = list(w)
            raw["made"][f"{g} {d}"] = {
                "games": games, "seed": args.seed, "deals": args.deals, "iterations": args.iterations,
                "population": POPULATION, "elite": ELITE, "tuner seed": 0,
                "decisions": len(train.items), "started from": args.start if start is not None else "greedy",
                "check": {"games seed": args.seed + 1, "deals": 2 * args.deals, **figures},
            }  # fmt: skip
            tmp = Path(args.out).with_suffix(".tmp")
            tmp.write_text(json.dumps(raw, indent=1) + "\n", encoding="utf-8")
            tmp.replace(args.out)


if __name__ == "__main__":
    main()
