"""Tuning the rollout policy's weights (solver/search/rollout_policy.py reads them;
data/rollout_policy.json):

    python -m solver.train.rollout_weights [--games-of vanguard,lobo] [--difficulties ...] [--seed 101]
        [--iterations 30] [--deals 16]

The weights (kernel.policy_score) are tuned per game and difficulty by the cross-entropy method:
the objective is the mean value for the game (the same evaluator the search reads) of the round's
ends the policy reaches, from decisions of simulated games (greedy's, or with --policy hint the
hint's own: the positions the search meets when it plays), every candidate played on the
same deals; they are then checked against the greedy rule on decisions of other games, and the
file records those figures and the layout the weights were tuned for (rollout_policy.LAYOUT),
which the search checks on load.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from solver.core import kernel
from solver.core.cards import DIFFICULTIES
from solver.core.games import LOBO, VANGUARD
from solver.core.rules import State
from solver.play.driver import PLAY, Setup
from solver.play.simulate import replay_record, simulate
from solver.search import rollout_policy
from solver.search.engine import Search
from solver.search.estimate import orders_of, paired
from solver.search.rollout_policy import GREEDY, LAYOUT, stale

Decision = tuple[State, tuple[int, int]]  # a round at a decision, and lobo's scores before it

# The hint's games are played at a state budget, so that a seeded tuning meets the same decisions on
# any machine; lobo's hint plays at 256 deals a play as at its clock (bench/README.md, session 30).
HINT_BUDGETS: dict[str, Any] = {"max_states": 3000, "samples": 256}


def decisions(
    name: str, difficulty: str, games: int, seed: int, most: int | None = None, policy: str = "greedy"
) -> list[Decision]:
    """Every decision of a regular round (not final, the Wolf's hand not empty) met in `games`
    games of the policy (greedy, or the hint at the seeded budgets HINT_BUDGETS), seed `seed`, in
    game order, with the race's scores (lobo); at most `most` of them, evenly spaced (a lobo game
    has many rounds)."""
    records: list[Any] = []
    if policy == "hint":  # on every core: a hint game takes a second where a greedy one takes a millisecond
        simulate(Setup(name, difficulty), policy, games, seed, on_record=records.append, **HINT_BUDGETS)
    else:
        simulate(Setup(name, difficulty), policy, games, seed, workers=1, on_record=records.append)
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
    ap.add_argument("--games", type=int, default=None, help="games a difficulty (vanguard 400, lobo 80)")
    ap.add_argument("--policy", default="greedy", choices=("greedy", "hint"), help="whose games give the decisions")
    ap.add_argument("--seed", type=int, default=101, help="their seed; the check plays games of seed + 1")
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--deals", type=int, default=16, help="deals of the unknown cards per decision")
    ap.add_argument("--games-of", default="vanguard,lobo", help="the games to tune for")
    ap.add_argument("--difficulties", default="standard,easy,hard", help="tuned in this order")
    ap.add_argument("--start", default="standard", help="start the others from this difficulty's tuned weights")
    ap.add_argument("--out", default=str(rollout_policy.DATA))
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
    why = stale(raw.get("stamp"))
    if why is not None:
        # Weights of another layout can be neither kept nor started from: all are tuned again.
        others = {(g, d) for g in GAMES_OF for d in DIFFICULTIES} - {(g, d) for g in names for d in wanted}
        if raw.get("weights") and others:
            ap.error(
                f"{args.out} was tuned for another layout ({why}), so its other weights cannot be kept:"
                " tune every game and difficulty (the default --games-of and --difficulties)"
            )
        raw["weights"], raw["made"] = {}, {}
        # The bench's searches read the shipped weights when made (engine.Search) and refuse
        # stale ones: written now, empty and stamped, they give it the greedy rule meanwhile.
        _write(Path(args.out), raw)
        rollout_policy.shipped.cache_clear()
    for g in names:
        games = args.games or GAMES_OF[g]
        tuned = raw["weights"].setdefault(g, {})
        for d in wanted:
            train = Bench(decisions(g, d, games, args.seed, MOST, args.policy), args.deals, seed=1)
            start = tuned.get(args.start) if d != args.start else None
            w = tune(train, args.iterations, start)
            test = Bench(decisions(g, d, games, args.seed + 1, MOST, args.policy), 2 * args.deals, seed=2)
            figures = check(test, w)
            print(f"{g} {d}: {figures}", file=sys.stderr)
            tuned[d] = list(w)
            raw["made"][f"{g} {d}"] = {
                "games": games, "policy": args.policy, "seed": args.seed, "deals": args.deals, "iterations": args.iterations,
                "population": POPULATION, "elite": ELITE, "tuner seed": 0,
                "decisions": len(train.items), "started from": args.start if start is not None else "greedy",
                "check": {"games seed": args.seed + 1, "deals": 2 * args.deals, **figures},
            }  # fmt: skip
            _write(Path(args.out), raw)


def _write(out: Path, raw: dict[str, Any]) -> None:
    raw["stamp"] = LAYOUT
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(raw, indent=1) + "\n", encoding="utf-8")
    tmp.replace(out)


if __name__ == "__main__":
    main()
