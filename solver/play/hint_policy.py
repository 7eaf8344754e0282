"""The hint policy: whole games played by exactly what `lobo-hint` recommends (issue 15).

Each play is the best play of `hint()` on the position the table shows, valued for the whole game
(objective `game`; a vanguard final round by its best finish, as the hint does by default), with a
budget of `think` seconds a decision; each reward is the one with the best chance to win the game
(solver/search/round_end.py: exact where the next deal is surely the final round, the evaluator's
estimate beyond). Nothing here decides on its own: the policy only asks the same code a player
asks at the table.

Its budget is the player's, scaled to a simulation: `think` seconds (or `max_states` states) a
decision, and near the end of a vanguard round, where the exact search can finish (at most
ENDGAME_UNKNOWN unknown cards in the pile), at least ENDGAME_THINK seconds (ENDGAME_STATES
states): there an exact value replaces an estimate, as in the player's 2 s answer.
"""

from __future__ import annotations

import random

from solver.core.games import Game, game
from solver.core.plays import Play
from solver.core.position import Position
from solver.core.rounds import Reward
from solver.play.driver import PLAY, REWARD, Table
from solver.play.reward_values import game_value_ranking
from solver.search.hint import HintResult, hint

THINK = 0.05  # seconds a decision, by default: 2,000 standard games in 8 minutes on 2 cores
# Near the end of a vanguard round (this many unknown cards or fewer) an exact search of every play
# takes some 0.05-3 million states: a decision there gets at least these, so that a small state
# budget does not leave to an estimate what an exact search can settle (bench/README.md, sessions 26-27).
ENDGAME_UNKNOWN = 13
ENDGAME_THINK = 0.5
ENDGAME_STATES = 1_000_000
HINT_SAMPLES = 1000  # deals a play under a state budget (`--max-states`) when no sample budget is given:
# fewer make the best play's chance lean high (the best of several noisy averages; bench/README.md)


def hint_samples(max_states: int | None, samples: int | None) -> int | None:
    """The samples a play the hint is given: under a state budget HINT_SAMPLES unless told, so that
    every play is estimated (and a bounds-only answer never picks by its bounds' middle)."""
    return (samples or HINT_SAMPLES) if max_states is not None else samples


def game_chance(result: HintResult) -> float | None:
    """The chance to win the game that an answer gives its best play: its value under `game`; in a
    vanguard final round (valued by its score) the chance to win the round, which is the game's."""
    if result.objective == "game":
        return result.value
    return result.win_probability


def raised_near_the_end(g: Game) -> bool:
    """Whether the game's decisions get more near the end of a round: where the game ends in a
    final round (vanguard), few unknown cards mean the rest of the game is near, and searched
    exactly; lobo's reshuffles make no such end."""
    return g.has_final_round


def decision_budgets(table: Table, think: float | None, max_states: int | None) -> tuple[float | None, int | None]:
    """The time limit and state budget the hint policy gives the decision at this table: its own
    (`think`, `max_states`), raised near the end of a vanguard round (ENDGAME_UNKNOWN). The
    analysis of a game asks the same, so that the policy's own games show no mistakes at its budget."""
    r = table.round
    if r is None or r.final or not raised_near_the_end(game(table.setup.game)) or r.unknown_draws > ENDGAME_UNKNOWN:
        return think, max_states
    return (
        None if think is None else max(think, ENDGAME_THINK),
        None if max_states is None else max(max_states, ENDGAME_STATES),
    )


class HintPolicy:
    name = "hint"

    def __init__(self, think: float | None = THINK, max_states: int | None = None, samples: int | None = None) -> None:
        """think: seconds a decision (None: no time limit); max_states and samples: the hint's
        state and sample budgets. With budgets and no time limit, a seeded game plays the same
        every run; under a time limit, a busy machine may think less."""
        if think is not None and think <= 0:
            raise ValueError(f"think: more than 0 seconds, not {think}")
        if think is None and max_states is None:
            raise ValueError("the hint policy needs a time limit or a state budget")
        self.think = think
        self.max_states = max_states
        self.samples = samples
        # The chance to win the game the last answer gave its best play (simulate records it).
        self.predicted: float | None = None

    def position(self, table: Table) -> Position:
        """The position `lobo-hint` is asked about at this table (the table's own: the game's default
        objective, lobo's scores)."""
        if table.phase != PLAY or table.round is None:
            raise ValueError(f"the table waits for a {table.phase}, not a play")
        return table.position()

    def budgets(self, table: Table) -> tuple[float | None, int | None]:
        """The time limit and state budget of the decision at this table (decision_budgets)."""
        return decision_budgets(table, self.think, self.max_states)

    def answer(self, table: Table) -> HintResult:
        """What `lobo-hint` answers at this table, with this decision's budgets."""
        think, max_states = self.budgets(table)
        # A decision's think is a pace, its overruns measured with it (bench/README.md), not a limit.
        return hint(self.position(table), time_limit=think, max_states=max_states, samples=self.samples, strict=False)

    def play(self, table: Table, rng: random.Random) -> Play:
        result = self.answer(table)
        assert result.best is not None
        self.predicted = game_chance(result)
        return result.best

    def reward(self, table: Table, rng: random.Random) -> Reward:
        if table.phase != REWARD or table.round is None:
            raise ValueError(f"the table waits for a {table.phase}, not a reward")
        best = game_value_ranking(table.round)[0].reward
        if best is None:  # pragma: no cover - the driver asks only when a reward is on offer
            raise ValueError("no reward is on offer")
        return best


__all__ = [
    "ENDGAME_STATES",
    "ENDGAME_THINK",
    "ENDGAME_UNKNOWN",
    "HINT_SAMPLES",
    "THINK",
    "HintPolicy",
    "decision_budgets",
    "game_chance",
    "hint_samples",
]
