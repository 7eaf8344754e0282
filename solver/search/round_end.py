"""What the end of a round is worth for the whole game (objective `game`, RULES.md §7), for Python
callers: the reward advice, the simulator's hint policy, the companion.

The values are the search's own (solver/search/expectimax.py: vanguard_game, next_deal,
lobo_game), run plain: exact where the next deal is surely the final round, the evaluator's
estimate beyond (solver/search/evaluator.py), and each says which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.core import kernel
from solver.core.games import game
from solver.core.rounds import Reward, next_deal_final, rewards
from solver.core.rules import WON, State, vector
from solver.search import evaluator
from solver.search import expectimax as x


@dataclass(frozen=True)
class RoundEndValue:
    value: float  # the chance to win the game from here
    exact: bool  # False: the evaluator's estimate
    error: float = 0.0  # then the largest standard error of the evaluator's values it was made of


def _memos() -> tuple[Any, ...]:
    """The plain search's memos: covers and deals (dicts, with their room), and the counters."""
    return {}, [1 << 20], {}, [1 << 20], [0] * x.COUNTERS


def exact_horizon(s: State) -> bool:
    """Whether the next deal from this state's pile is surely the final round (vanguard)."""
    return next_deal_final(s.pile_size, s.rules)


def reward_values(s: State) -> list[tuple[Reward | None, RoundEndValue]]:
    """After a regular vanguard round won in s: each reward on offer (None: there is none) and the
    chance to win the game when it is taken, best first (RULES.md §4, §7)."""
    if not game(s.game).has_rewards or s.outcome != WON or s.final:
        raise ValueError("rewards follow a regular vanguard round that was just won")
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


def deal_value(s: State, scores: tuple[int, int] = (0, 0), target: int = 100) -> RoundEndValue:
    """The chance to win the game from the next deal, between two rounds (or before the first):
    the pile, reserve and party are s's (its hands are ignored: they are out of play), lobo's
    race stands at `scores`. Exact where the next deal is surely the final round (vanguard);
    the evaluator's estimate beyond (RULES.md §7)."""
    ev = evaluator.table()
    ctr = [0] * x.COUNTERS
    if game(s.game).is_race:
        p, w = scores
        if p >= target or w >= target:
            return RoundEndValue(1.0 if p >= target else 0.0, True)
        v = x.estimated(ev, evaluator.lobo_index(s.top, p, w), ctr)
        return RoundEndValue(float(v), False, ctr[x.ERROR] / 1e6)
    if not s.party:
        return RoundEndValue(0.0, True)
    between = s._replace(hand=(), wolf=(), owed_player=0, owed_wolf=0, reveal=False, outcome=None)
    mk, mv, dk, dv, ctr = _memos()
    v = x.next_deal(vector(between), len(s.party), 0, mk, mv, dk, dv, ev, ctr)
    return RoundEndValue(float(v), ctr[x.ESTIMATED] == 0, ctr[x.ERROR] / 1e6)


__all__ = ["RoundEndValue", "deal_value", "exact_horizon", "reward_values", "round_end_value"]
