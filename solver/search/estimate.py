"""Estimates for plays the exact search could not finish.

Rollouts: each play's child played out over random deals of the unknown part of the pile (the
same deals for every play, so that their differences are not noise of the deals) by a rule that
never looks at the pile: the simulator's greedy rule, or under `game` the rollout policy tuned for
the game (solver/search/rollout_policy.py). A real strategy, so its average leans low; it is
cheap at any depth. The hint corrects the average for that lean (solver/search/bias.py, measured
against exact values) before a player reads it.

Each estimate comes with a 95% interval for what the rollouts measure in expectation (the value
of the rollouts' policy), not for the true value: see `interval95`; bias.py widens it into one for
the true value. With `win=True` the same deals also measure the win outcome (won 1, lost 0) of
the same play, for a win probability that costs no deals of its own.

Neither is a bound: the sound bounds stay the search's, and an estimate is clamped to them.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from solver.core.cards import values_of
from solver.core.intervals import Z95, wilson
from solver.core.plays import Play
from solver.core.rounds import Reward
from solver.core.rules import State, apply
from solver.search.engine import Search, value_range
from solver.search.rollout_policy import is_greedy

ROLLOUTS = "greedy rollouts"
TUNED_ROLLOUTS = "tuned-policy rollouts"
EVALUATED = "search to the round's end, evaluator beyond"
LOOKAHEAD_PLIES = 2  # the lookahead's depth in the hint: every draw and every play after it
LOOKAHEAD = f"lookahead {LOOKAHEAD_PLIES} plies, value network beyond"
NETWORK_ALONE = "value network alone: the clock ran out (interval: the sound bounds)"
LOOKAHEAD_FIRST = 8  # plays the lookahead values before it looks at a clock (then twice as many)


MIN_ROLLOUTS = 64  # a rollout takes some microseconds compiled: an answer has at least these
MAX_ROLLOUTS = 4000
FLOOR_DEALS = 8  # rollouts a play owed even when they overrun (rolled_out's `overrun`)
BATCH_SECONDS = 0.002  # a call of rollouts that took less doubles the next call's deals
MAX_BATCH = 256


@dataclass(frozen=True)
class Estimate:
    value: float  # the mean over the deals
    samples: int  # how many deals
    method: str
    interval: tuple[float, float] | None = None  # 95% interval for the rollouts' expectation
    win: float | None = None  # with win=True: the share of those deals won
    win_interval: tuple[float, float] | None = None
    reads: int = 0  # the lookahead's: how many states the value network valued


def interval95(values: Sequence[float], lo: float, hi: float) -> tuple[float, float]:
    """A 95% interval for the expectation of what was sampled, from per-deal values that all lie
    in [lo, hi] (the objective's range).

    * Values only at the two ends of the range (won 1 / lost 0): the Wilson score interval of the
      share at the top end, which stays honest near 0 and 1 where mean ± 1.96·s/√n collapses.
    * Every deal the same value c inside the range: c can only be wrong by deals unlike it, whose
      share is at most z²/(n+z²) (the Wilson upper bound at 0 of n); the interval leaves that
      share of the room to each end of the range.
    * Otherwise the normal interval mean ± 1.96·s/√n (s the sample standard deviation), cut to
      the range.
    """
    n = len(values)
    if n == 0:
        return lo, hi
    mean = math.fsum(values) / n
    if hi > lo and all(v in (lo, hi) for v in values):
        top = sum(1 for v in values if v == hi)
        a, b = wilson(top, n)
        return lo + a * (hi - lo), lo + b * (hi - lo)
    if all(v == values[0] for v in values):
        share = Z95 * Z95 / (n + Z95 * Z95)
        return mean - share * (mean - lo), mean + share * (hi - mean)
    s = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * s / math.sqrt(n)
    return max(lo, mean - half), min(hi, mean + half)


def _estimate(values: list[float], wins: list[float] | None, method: str, lo: float, hi: float) -> Estimate:
    return Estimate(
        math.fsum(values) / len(values),
        len(values),
        method,
        interval95(values, lo, hi),
        None if wins is None else math.fsum(wins) / len(wins),
        None if wins is None else interval95(wins, 0.0, 1.0),
    )


def orders_of(root: State, seed: int) -> Iterator[tuple[int, ...]]:
    """Random orders of the pile's unknown cards, drawn from the unseen ones, one per deal."""
    rng = random.Random(seed)
    pool = list(values_of(root.unseen))
    unknown = root.pile_size - len(root.pile_top)
    while True:
        yield tuple(rng.sample(pool, unknown))


def rolled_out(
    root: State,
    objective: str,
    plays: list[Play],
    *,
    deadline: float,
    seed: int = 0,
    min_deals: int = MIN_ROLLOUTS,
    max_deals: int = MAX_ROLLOUTS,
    win: bool = False,
    scores: tuple[int, int] = (0, 0),
    overrun: float | None = None,
) -> dict[Play, Estimate]:
    """Average value of each play when the rest of the round is played by the rollout policy (the
    greedy rule, or under `game` the tuned one: Search.policy), over
    random deals of the unknown cards, until the deadline (but at least min_deals deals: a
    rollout takes some microseconds compiled, and an answer needs some). With win=True each deal
    also says whether the rollout's line won. With `overrun` (seconds), the deals owed to min_deals
    after the deadline stop that long after it, at FLOOR_DEALS at least: under `game` a round's
    end can be a whole next deal's enumeration, and 64 of them would overrun a short clock."""
    orders = orders_of(root, seed)
    lo, hi = value_range(root, objective)
    judge = Search(root, objective, scores=scores)
    children = [apply(root, p, check=False) for p in plays]
    values: dict[Play, list[float]] = {p: [] for p in plays}
    wins: dict[Play, list[float]] = {p: [] for p in plays}
    deals = 0
    batch = 1  # deals a call, doubled while a call is quick: the clock is looked at between calls
    stop = math.inf if overrun is None else deadline + overrun
    owed = min(min_deals, FLOOR_DEALS)  # owed even past `stop`
    while deals < max_deals and (deals < min_deals or time.perf_counter() < deadline):
        began = time.perf_counter()
        if began > stop and deals >= owed:
            break
        # Past the deadline, only the deals still owed to min_deals.
        k = min(batch, max_deals - deals, max_deals if began < deadline else min_deals - deals)
        vs, ws = judge.rollouts(children, [next(orders) for _ in range(k)])
        for c, play in enumerate(plays):
            values[play] += vs[c]
            wins[play] += ws[c]
        deals += k
        if time.perf_counter() - began < BATCH_SECONDS:
            batch = min(2 * batch, MAX_BATCH)
    method = ROLLOUTS if is_greedy(judge.policy) else TUNED_ROLLOUTS
    return {p: _estimate(values[p], wins[p] if win else None, method, lo, hi) for p in plays}


def looked_ahead(
    root: State, objective: str, plays: list[Play], net: Any, *, win: bool = False, deadline: float | None = None
) -> dict[Play, Estimate]:
    """Each play's value by the lookahead (solver/search/lookahead.py: LOOKAHEAD_PLIES plies of
    expectimax after it, the value network `net` beyond, solver/search/value_net.py), under
    `objective` (`game` or `win`); with win=True the same for the round's win probability (the
    network's other head, the ends of the round won or lost). Nothing is sampled: the interval is
    the value itself until bias.py widens it by what the lookahead was measured to miss.

    With a deadline the plays go in batches, each twice the last or as many as the clock has room
    for at the last batch's pace, while the clock lasts: a round with a hundred plays or more takes
    the lookahead seconds. Once it has run out the rest are
    valued by the network alone at each play's child (NETWORK_ALONE), whose misses were never
    measured: the hint gives those the search's sound bounds for interval."""
    search = Search(root, objective)
    wins_search = Search(root, "win") if win and objective != "win" else None
    out: dict[Play, Estimate] = {}
    done, batch = 0, len(plays) if deadline is None else LOOKAHEAD_FIRST
    while done < len(plays):
        began = time.perf_counter()
        late = deadline is not None and done > 0 and began > deadline
        part = plays[done:] if late else plays[done : done + batch]
        depth, method = (0, NETWORK_ALONE) if late else (LOOKAHEAD_PLIES, LOOKAHEAD)
        children = [apply(root, p, check=False) for p in part]
        values, reads = search.lookahead(children, depth, net)
        wins: list[float | None] = [None] * len(part)
        if wins_search is not None:
            got, more = wins_search.lookahead(children, depth, net)
            wins, reads = list(got), reads + more
        for p, v, w in zip(part, values, wins, strict=True):
            out[p] = Estimate(v, 0, method, (v, v), w, None if w is None else (w, w), reads)
        done += len(part)
        if deadline is not None:
            # Twice as many, but no more than the clock has room for at the last batch's pace.
            each = (time.perf_counter() - began) / len(part)
            batch = max(1, int(min(2 * batch, (deadline - time.perf_counter()) / max(each, 1e-9))))  # inf: no clock
    return out


def evaluated(value: float, error: float) -> Estimate:
    """A value searched to the end of the round whose ends the evaluator valued (objective `game`
    beyond the exact horizon): nothing sampled here; its interval is ± 1.96 × `error`, the largest
    standard error of the evaluator's values it was made of (their sampling error:
    solver/search/evaluator.py). Averages and maxima of values, each within its own error, are
    within the largest of them."""
    half = Z95 * error
    return Estimate(value, 0, EVALUATED, (max(0.0, value - half), min(1.0, value + half)))


NEXT_ROUND = TUNED_ROLLOUTS + " of the next round"
NEXT_ROUND_GREEDY = ROLLOUTS + " of the next round"  # rules the weights were not tuned for
REWARD_DEALS = 1000  # next rounds played out per reward: some 0.04 s for three rewards, compiled


@dataclass(frozen=True)
class RewardEstimate:
    reward: Reward | None
    estimate: Estimate
    difference: float  # against the best reward, deal by deal (the same deals)
    difference_interval: tuple[float, float]  # its 95% interval


def rewards_rolled_out(s: State, deals: int = REWARD_DEALS, seed: int = 0) -> list[RewardEstimate]:
    """After a regular vanguard round won in s: each reward on offer (None: there is none), valued
    by `deals` deals of the next round (the same deals for every reward), each played out by the
    tuned rollout policy and its end valued for the game as the search values it; best first. Unlike the
    evaluator's table, which knows the reserve only by its size, this sees which card was kept."""
    from solver.core.cards import member_order
    from solver.core.rounds import rewards

    offered: list[Reward | None] = [*rewards(s.hand, s.party)] or [None]
    children = []
    for r in offered:
        reserve, party = s.reserve, s.party
        if r is not None and r.kind == "reserve":
            reserve = tuple(sorted((*reserve, r.value or 0)))
        elif r is not None:
            party = member_order((*party, r.member or ""))
        children.append(s._replace(hand=(), wolf=(), reserve=reserve, party=party, outcome=None, final=False))
    judge = Search(s, "game")
    orders = orders_of(s, seed)
    vs, _ = judge.rollouts(children, [next(orders) for _ in range(deals)], dealt=True)
    top = max(range(len(offered)), key=lambda k: (math.fsum(vs[k]), -k))
    method = NEXT_ROUND_GREEDY if is_greedy(judge.policy) else NEXT_ROUND
    out = []
    for k, r in enumerate(offered):
        mean, lo, hi = paired([a - b for a, b in zip(vs[k], vs[top], strict=True)])
        out.append(RewardEstimate(r, _estimate(vs[k], None, method, 0.0, 1.0), mean, (lo, hi)))
    out.sort(key=lambda e: -e.difference)
    return out


def paired(diffs: Sequence[float]) -> tuple[float, float, float]:
    """Mean of paired differences (the same deals) and its 95% normal interval (0 wide when every
    pair agrees)."""
    m = math.fsum(diffs) / len(diffs)
    if len(diffs) < 2 or all(x == diffs[0] for x in diffs):
        return m, m, m
    half = Z95 * math.sqrt(math.fsum((x - m) ** 2 for x in diffs) / (len(diffs) - 1) / len(diffs))
    return m, m - half, m + half
