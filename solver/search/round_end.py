"""What the end of a round is worth for the whole game (objective `game`, RULES.md §7), for Python
callers: the reward advice, the simulator's hint policy, the companion.

The values are the search's own (solver/search/expectimax.py: vanguard_game, next_deal,
lobo_game), run plain: exact where the next deal is surely the final round, the evaluator's
estimate beyond (solver/search/evaluator.py), and each says which.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from solver.core import kernel
from solver.core.cover import counts, min_sacrifices
from solver.core.games import game
from solver.core.rounds import Reward, apply_reward, deal, next_deal_final, race_to_100, rewards
from solver.core.rules import WON, State, vector
from solver.search import evaluator
from solver.search import expectimax as x


@dataclass(frozen=True)
class RoundEndValue:
    value: float  # the chance to win the game from here
    exact: bool  # False: an estimate (the evaluator's, or sampled deals: `method`)
    error: float = 0.0  # then its standard error (the evaluator's: the largest of the values it read)
    method: str | None = None  # how an estimate that is not the evaluator's was made
    samples: int = 0  # the deals it was sampled over


# Under a clock, a next deal with more pairs of hands than this is sampled rather than enumerated:
# with big hands (rules.hand_size 16) the enumeration is astronomically long and a single cover
# can take a second or more (measured: up to 1.8 s), so only a sample can keep a time limit.
SAMPLE_ABOVE = 200_000
SAMPLED = "sampled deals of the final round"  # the method of such an estimate
FINISH_LIMIT = 10.0  # seconds a sampled final round's finisher may take without a clock


def _memos() -> tuple[Any, ...]:
    """The plain search's memos: covers and deals (dicts, with their room), and the counters."""
    return {}, [1 << 20], {}, [1 << 20], [0] * x.COUNTERS


def exact_horizon(s: State) -> bool:
    """Whether the next deal from this state's pile is surely the final round (vanguard)."""
    return next_deal_final(s.pile_size, s.rules)


def reward_values(
    s: State, deadline: float | None = None, seed: int = 0, deals: int | None = None
) -> list[tuple[Reward | None, RoundEndValue]]:
    """After a regular vanguard round won in s: each reward on offer (None: there is none) and the
    chance to win the game when it is taken, best first (RULES.md §4, §7). With a deadline (a
    time.perf_counter() reading) or a number of deals, a next final deal too big to enumerate is
    sampled until then."""
    if not game(s.game).has_rewards or s.outcome != WON or s.final:
        raise ValueError("rewards follow a regular vanguard round that was just won")
    if (deadline is not None or deals is not None) and exact_horizon(s) and deal_pairs(s) > SAMPLE_ABOVE:
        return sampled_reward_values(s, deadline, seed, deals)
    st = vector(s)
    ev = evaluator.table() if not exact_horizon(s) else [0.0]
    mk, mv, dk, dv, ctr = _memos()
    act = kernel.active(st)
    out: list[tuple[Reward | None, RoundEndValue]] = []
    offered: list[Reward | None] = [*rewards(s.hand, s.party)] or [None]
    for r in offered:
        before = ctr[x.ESTIMATED]
        ctr[x.ERROR] = 0
        if r is None:
            v = x.next_deal(st, act, 0, mk, mv, dk, dv, ev, ctr)
        elif r.kind == "reserve":
            v = x.next_deal(st, act, r.value or 0, mk, mv, dk, dv, ev, ctr)
        else:
            v = x.next_deal(st, act + 1, 0, mk, mv, dk, dv, ev, ctr)
        out.append((r, RoundEndValue(float(v), ctr[x.ESTIMATED] == before, ctr[x.ERROR] / 1e6)))
    out.sort(key=lambda rv: -rv[1].value)
    return out


def deal_pairs(s: State) -> int:
    """How many (Player's hand, Wolf's hand) pairs by value the next deal from s's pile can give, at
    most: what an exact enumeration of it goes through."""
    n, h = s.pile_size, s.rules.hand_size
    dealt = kernel.dealt(n, h)
    unknown = range(len(s.pile_top), dealt)
    to_player = sum(kernel.to_the_player(j, n, h) for j in unknown)
    counts = [*s.unseen, *[0] * (10 - len(s.unseen))]  # the kernel's layout: ten values
    return kernel.draw_count(counts, 0, to_player) * kernel.draw_count(counts, 0, len(unknown) - to_player)


def sampled_reward_values(
    s: State, deadline: float | None, seed: int = 0, deals: int | None = None
) -> list[tuple[Reward | None, RoundEndValue]]:
    """Each reward valued over seeded random deals of the next (final) round, the same deals for
    every reward, until the deadline or `deals` deals: the share of deals won, with its error."""
    offered: list[Reward | None] = [*rewards(s.hand, s.party)] or [None]
    after = [apply_reward(r, s.hand, s.reserve, s.party) for r in offered]
    won, n = _sampled_finals(s, after, deadline, seed, deals)
    out = [(r, _share(w, n)) for r, w in zip(offered, won, strict=True)]
    out.sort(key=lambda rv: -rv[1].value)
    return out


def _share(won: int, n: int) -> RoundEndValue:
    p = won / n if n else 0.5
    error = math.sqrt(max(p * (1 - p), 1 / (4 * n)) / n) if n else 0.5
    return RoundEndValue(p, False, error, f"{n} {SAMPLED}", n)


def _sampled_finals(
    s: State,
    sides: list[tuple[tuple[int, ...], tuple[str, ...]]],
    deadline: float | None,
    seed: int,
    deals: int | None,
) -> tuple[list[int], int]:
    """Seeded random deals of the next round, surely the final one, from s's pile, until the
    deadline or `deals` of them: for each (reserve, party), how many of the deals are won (every
    Wolf card covered, at most all members but one sacrificed: §4, the cover the exact next deal
    counts with), and how many deals counted. (The cover, not CP-SAT's finish: found by a review,
    16-card deals went at a dozen a second, and 2 s named a best reward on none.)"""
    covered = _cover_test()
    pool = [v for v, c in enumerate(s.unseen, start=1) for _ in range(c)]
    rng = random.Random(seed)
    won = [0] * len(sides)
    n = 0
    while (deadline is None or time.perf_counter() < deadline) and (deals is None or n < deals):
        order = list(s.pile_top) + rng.sample(pool, s.pile_size - len(s.pile_top))
        player, wolf, _ = deal(order, s.rules.hand_size)
        outcomes = [not wolf or covered(wolf, (*player, *reserve), max(0, len(party) - 1)) for reserve, party in sides]
        n += 1
        won = [w + o for w, o in zip(won, outcomes, strict=True)]
    return won, n


def _cover_test() -> Callable[[tuple[int, ...], tuple[int, ...], int], bool]:
    """covered(wolf, player's cards, sacrifices allowed): whether every Wolf card can be covered,
    by the compiled kernel where it loads (27 us at 16 cards a side, against 44 ms plain)."""
    from solver.search.engine import compiled_kernel

    k = compiled_kernel()
    if k is None:
        return lambda wolf, mine, allowed: min_sacrifices(wolf, counts(mine), allowed) is not None
    import numpy as np

    st = np.zeros(x.STATE, np.int64)

    def covered(wolf: tuple[int, ...], mine: tuple[int, ...], allowed: int) -> bool:
        st[:] = 0
        for v in mine:
            st[kernel.HAND + v - 1] += 1
        for v in wolf:
            st[kernel.WOLF + v - 1] += 1
        return bool(k.min_sacrifices(st, allowed) >= 0)

    return covered


def round_end_value(s: State, scores: tuple[int, int] = (0, 0), target: int = 100) -> RoundEndValue:
    """The chance to win the game from the end of a round (s has an outcome): its rewards, party
    losses and next deal (vanguard), or the race (lobo, from the scores before this round)."""
    if s.outcome is None:
        raise ValueError("the round has not ended")
    st = vector(s)
    par = [0] * x.PARAMS
    par[x.P_OBJECTIVE] = x.GAME
    par[x.P_ROOT_ACTIVE] = len(s.party)
    par[x.P_SCORE_P], par[x.P_SCORE_W] = scores
    par[x.P_TARGET] = target
    mk, mv, dk, dv, ctr = _memos()
    v = x.terminal(st, par, mk, mv, dk, dv, evaluator.table(), ctr)
    return RoundEndValue(float(v), ctr[x.ESTIMATED] == 0, ctr[x.ERROR] / 1e6)


def deal_value(
    s: State,
    scores: tuple[int, int] = (0, 0),
    target: int = 100,
    deadline: float | None = None,
    deals: int | None = None,
    seed: int = 0,
) -> RoundEndValue:
    """The chance to win the game from the next deal, between two rounds (or before the first):
    the pile, reserve and party are s's (its hands are ignored: they are out of play), lobo's
    race stands at `scores`. Exact where the next deal is surely the final round (vanguard);
    the evaluator's estimate beyond (RULES.md §7). With a deadline or a number of deals, a final
    deal too big to enumerate is sampled (sampled_reward_values)."""
    ev = evaluator.table()
    ctr = [0] * x.COUNTERS
    if game(s.game).is_race:
        p, w = scores
        if p >= target or w >= target:
            return RoundEndValue(1.0 if p >= target else 0.0, True)
        # The table knows races to 100: this one as that race (found by a review: a race to 30
        # was valued as if to 100 between rounds, and by its own race within them).
        (p, w), _ = race_to_100(scores, target)
        v = x.estimated(ev, evaluator.lobo_index(s.top, p, w), ctr)
        return RoundEndValue(float(v), False, ctr[x.ERROR] / 1e6)
    if not s.party:
        return RoundEndValue(0.0, True)
    if (deadline is not None or deals is not None) and exact_horizon(s) and deal_pairs(s) > SAMPLE_ABOVE:
        won, n = _sampled_finals(s, [(s.reserve, s.party)], deadline, seed, deals)
        return _share(won[0], n)
    between = s._replace(hand=(), wolf=(), owed_player=0, owed_wolf=0, reveal=False, outcome=None)
    mk, mv, dk, dv, ctr = _memos()
    v = x.next_deal(vector(between), len(s.party), 0, mk, mv, dk, dv, ev, ctr)
    return RoundEndValue(float(v), ctr[x.ESTIMATED] == 0, ctr[x.ERROR] / 1e6)


__all__ = [
    "SAMPLED",
    "SAMPLE_ABOVE",
    "RoundEndValue",
    "deal_pairs",
    "deal_value",
    "exact_horizon",
    "reward_values",
    "round_end_value",
    "sampled_reward_values",
]
