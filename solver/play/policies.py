"""Policies: who makes the Player's choices in a simulated game.

A policy sees a `Table` (driver.py): what a player at the table sees, never the order of the pile.
It chooses a play in phase play and a reward in phase reward. Its randomness comes from the
`random.Random` it is given, never from global state.

* random — uniform over the legal plays, never Fold while another play exists; uniform reward.
* greedy — one rule, no lookahead (GREEDY_RULE below); revives a member when one is down, else
  puts the highest card into the reserve.
* best — the finisher in final rounds, sampled rollouts otherwise (BEST_RULE says exactly how).

The hint and clairvoyant policies have modules of their own; solver/play/registry.py makes any
of them by name.
"""

from __future__ import annotations

import math
import random
from typing import Protocol

from solver.core.cards import values_of
from solver.core.cover import counts, min_sacrifices
from solver.core.games import game
from solver.core.plays import FOLD, Play
from solver.core.rounds import Reward, members_falling, rewards, round_points
from solver.core.rules import WON, State, apply, legal_plays, sacrifices_allowed
from solver.core.status import FinishStatus
from solver.finish.finisher import solve_finish
from solver.play.driver import PLAY, REWARD, Table
from solver.search.rollout import GREEDY_PLAY_RULE, greedy_play, rollout

GREEDY_RULE = (
    GREEDY_PLAY_RULE + " Reward: revive a member when one is face down, else the highest hand card to the reserve."
)


class Policy(Protocol):
    name: str

    def play(self, table: Table, rng: random.Random) -> Play: ...

    def reward(self, table: Table, rng: random.Random) -> Reward: ...


def _round(table: Table, phase: str) -> State:
    if table.phase != phase or table.round is None:
        raise ValueError(f"the table waits for a {table.phase}, not a {phase}")
    return table.round


class RandomPolicy:
    name = "random"

    def play(self, table: Table, rng: random.Random) -> Play:
        plays = legal_plays(_round(table, PLAY))
        # Fold is always listed last; it is chosen only when it is the one play.
        return plays[rng.randrange(len(plays) - 1)] if len(plays) > 1 else plays[0]

    def reward(self, table: Table, rng: random.Random) -> Reward:
        s = _round(table, REWARD)
        offered = rewards(s.hand, s.party)
        return offered[rng.randrange(len(offered))]


def greedy_reward(s: State) -> Reward:
    offered = rewards(s.hand, s.party)
    revive = [r for r in offered if r.kind == "revive"]
    if revive:
        return revive[0]
    return max(offered, key=lambda r: r.value or 0)


class GreedyPolicy:
    name = "greedy"

    def play(self, table: Table, rng: random.Random) -> Play:
        return greedy_play(_round(table, PLAY))

    def reward(self, table: Table, rng: random.Random) -> Reward:
        return greedy_reward(_round(table, REWARD))


# ---------------------------------------------------------------------------------------------
# best

BEST_SAMPLES = 24

BEST_RULE = (
    "best: a final round is finished by the finisher (an exact cover check, then CP-SAT's best-scoring "
    "finish; Fold at once when no finish exists). Any other round: every legal play is tried on the same "
    "N sampled orders of the unseen cards (N = --samples, default 24; the real pile order is never "
    "looked at), the round is played out by the greedy rule, and the play whose outcomes are worth most "
    "on average is taken. Outcomes are worth, in vanguard: a round that turns final and can be finished "
    "1.5, one that cannot 0; a regular round won 1, lost 0.6 (one member down) or 0.2 (two down), and 0 "
    "when the last member falls; in lobo: the round's points (yours minus the Wolf's). Reward: as greedy."
)

# What the end of a simulated round is worth to `best` (BEST_RULE): a round that turns final decides
# the game, so it weighs more than a regular round won; a lost regular round costs by the members lost.
FINAL_WON, ROUND_WON, ONE_DOWN, TWO_DOWN = 1.5, 1.0, 0.6, 0.2


class BestPolicy:
    name = "best"

    def __init__(self, samples: int = BEST_SAMPLES) -> None:
        if samples < 1:
            raise ValueError(f"samples: at least 1, not {samples}")
        self.samples = samples
        self._finishes: dict[State, Play] = {}

    def play(self, table: Table, rng: random.Random) -> Play:
        s = _round(table, PLAY)
        if game(s.game).has_final_round and s.final:
            return self._finish(s)
        plays = legal_plays(s)
        if len(plays) == 1:
            return plays[0]
        pool = list(values_of(s.unseen))
        orders = [rng.sample(pool, len(pool)) for _ in range(self.samples)]
        best, best_value = plays[0], -math.inf
        for play in plays:
            child = apply(s, play, check=False)
            value = sum(round_value(rollout(child, order)) for order in orders)
            if value > best_value:
                best, best_value = play, value
        return best

    def _finish(self, s: State) -> Play:
        """The next play of the best finish (found once per final round, then followed)."""
        if s in self._finishes:
            return self._finishes[s]
        if min_sacrifices(s.wolf, counts(s.hand + s.reserve), sacrifices_allowed(s)) is None:
            return FOLD
        f = solve_finish(s, time_limit=5.0)
        if f.status != FinishStatus.WIN:  # pragma: no cover - the cover check above says a finish exists
            return greedy_play(s)
        if len(self._finishes) > 10_000:
            self._finishes.clear()
        at = s
        for p in f.plays:
            self._finishes[at] = p
            at = apply(at, p, check=False)
        return f.plays[0]

    def reward(self, table: Table, rng: random.Random) -> Reward:
        return greedy_reward(_round(table, REWARD))


def round_value(end: State) -> float:
    """What the end of a simulated round is worth (BEST_RULE)."""
    g = game(end.game)
    if g.is_race:
        player, wolf = round_points(end)
        return float(player - wolf)
    if end.final:
        if end.outcome is None:
            won = min_sacrifices(end.wolf, counts(end.hand + end.reserve), sacrifices_allowed(end)) is not None
            return FINAL_WON if won else 0.0
        return FINAL_WON if end.outcome == WON else 0.0
    if end.outcome == WON:
        return ROUND_WON
    down = members_falling(end.party, len(end.wolf))
    if down >= len(end.party):
        return 0.0
    return ONE_DOWN if down == 1 else TWO_DOWN
