"""Estimates for plays the exact search could not finish.

Two kinds, both averaged over random deals of the unknown part of the pile (the same deals for
every play, so that their differences are not noise of the deals):

* sampled clairvoyant play: solve each fully known deal exactly. A player who saw the pile could
  only do better, so the average leans high. Deals too big to solve in a small budget are left
  out, so far from the end of a round (a lobo opening) it may average next to nothing;
* greedy rollouts: play each deal out by the simulator's greedy rule, which never looks at the
  pile. A real strategy, so its average leans low; it is cheap at any depth.

Neither is a bound: the sound bounds stay the search's, and an estimate is clamped to them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from .cards import values_of
from .plays import Play
from .policies import rollout
from .rules import State, apply
from .search import Budget, Search

CLAIRVOYANT = "sampled clairvoyant play"
ROLLOUTS = "greedy rollouts"


@dataclass(frozen=True)
class Estimate:
    value: float
    samples: int
    method: str = CLAIRVOYANT


def _orders(root: State, seed: int) -> Iterator[tuple[int, ...]]:
    """Random orders of the pile's unknown cards, drawn from the unseen ones, one per deal."""
    rng = random.Random(seed)
    pool = list(values_of(root.unseen))
    unknown = root.pile_size - len(root.pile_top)
    while True:
        yield tuple(rng.sample(pool, unknown))


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
    orders = _orders(root, seed)
    sums = {p: 0.0 for p in plays}
    counts = {p: 0 for p in plays}
    deals = 0
    unknown = root.pile_size - len(root.pile_top)
    while time.perf_counter() < deadline and unknown > 0 and (max_deals is None or deals < max_deals):
        deals += 1
        order = next(orders)
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


def rolled_out(
    root: State,
    objective: str,
    plays: list[Play],
    *,
    deadline: float,
    seed: int = 0,
    min_deals: int = 64,
    max_deals: int = 4000,
) -> dict[Play, Estimate]:
    """Average value of each play when the rest of the round is played by the greedy rule, over
    random deals of the unknown cards, until the deadline (but at least min_deals deals: a
    rollout takes well under a millisecond, and an answer needs some)."""
    orders = _orders(root, seed)
    judge = Search(root, objective)
    children = {p: apply(root, p, check=False) for p in plays}
    sums = dict.fromkeys(plays, 0.0)
    deals = 0
    while deals < max_deals and (deals < min_deals or time.perf_counter() < deadline):
        deals += 1
        order = next(orders)
        for play, child in children.items():
            end = rollout(child, list(order))
            sums[play] += judge.terminal(end) if end.outcome is not None else judge.final_value(end)
    return {p: Estimate(sums[p] / deals, deals, ROLLOUTS) for p in plays}
