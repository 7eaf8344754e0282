"""Estimates for plays the exact search could not finish: sampled clairvoyant play.

Deal the unknown part of the pile at random, solve that fully known round exactly, and average
over deals. A player who saw the pile could only do better, so the average estimates an upper
value (it is an estimate, not a bound: the sound bounds stay the search's). It ranks plays well
where the exact search is hopeless, at the start of a round.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .plays import Play
from .rules import State, apply
from .search import Budget, Search


@dataclass(frozen=True)
class Estimate:
    value: float
    samples: int


def sampled(
    root: State,
    objective: str,
    plays: list[Play],
    *,
    deadline: float,
    seed: int = 0,
    states_per_deal: int = 20_000,
    max_deals: int | None = None,
) -> dict[Play, Estimate]:
    """Average clairvoyant value of each play over random deals of the unknown cards, until the
    deadline (or max_deals deals). A deal too big to solve within states_per_deal is left out."""
    rng = random.Random(seed)
    pool = [v for v, n in enumerate(root.unseen, start=1) for _ in range(n)]
    unknown = root.pile_size - len(root.pile_top)
    sums = {p: 0.0 for p in plays}
    counts = {p: 0 for p in plays}
    deals = 0
    while time.perf_counter() < deadline and unknown > 0 and (max_deals is None or deals < max_deals):
        deals += 1
        order = tuple(rng.sample(pool, unknown))
        left = list(root.unseen)
        for v in order:
            left[v - 1] -= 1
        dealt = root._replace(pile_top=root.pile_top + order, unseen=tuple(left), reveal=False)
        search = Search(dealt, objective, states_per_deal, deadline)
        for play in plays:
            try:
                value = search.value(apply(dealt, play))
            except Budget:
                break
            sums[play] += value
            counts[play] += 1
    return {p: Estimate(sums[p] / counts[p], counts[p]) for p in plays if counts[p]}
