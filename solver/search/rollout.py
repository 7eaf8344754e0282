"""The greedy rule, and a round played out by it on a known order of the pile (a rollout).

One rule, no lookahead, never a look at the pile: the simulator's greedy policy plays by it
(solver/play/policies.py), and the estimates' greedy rollouts play rounds out by it
(solver/search/estimate.py), so both measure the same strategy.
"""

from __future__ import annotations

from solver.core.games import game
from solver.core.plays import Play
from solver.core.rules import State, apply, apply_outcome, legal_plays

GREEDY_PLAY_RULE = (
    "greedy: among the plays that take Wolf cards without giving it any (Perfect, Sum, Split), the one "
    "that takes the most Wolf cards, then uses the fewest of your cards, then the fewest reserve cards, "
    "then takes the highest Wolf card; else the Over with the smallest difference (the Wolf draws "
    "fewest), then on the highest Wolf card; else a Sacrifice (final round); Fold only when nothing "
    "else is legal."
)


def greedy_key(play: Play) -> tuple[int, int, int, int, int]:
    """Smaller is better (GREEDY_PLAY_RULE)."""
    if play.kind in ("perfect", "sum", "split"):
        return (0, -len(play.wolf), len(play.hand) + len(play.reserve), len(play.reserve), -max(play.wolf))
    if play.kind == "over":
        return (1, play.mine[0] - play.wolf[0], -play.wolf[0], len(play.reserve), 0)
    if play.kind == "sacrifice":
        return (2, 0, 0, 0, -play.wolf[0])
    return (3, 0, 0, 0, 0)


def greedy_play(s: State) -> Play:
    """The play the greedy rule makes at a decision."""
    return min(legal_plays(s), key=greedy_key)


def rollout(s: State, order: list[int]) -> State:
    """The round played on by the greedy rule with the unknown draws in this order, until it ends or
    (vanguard) turns final; known top cards are drawn first by the rules themselves."""
    i = 0
    final_round = game(s.game).has_final_round
    while s.outcome is None:
        if s.is_chance:
            d = s.owed_player + s.owed_wolf or 1
            s = apply_outcome(s, tuple(sorted(order[i : i + d])), check=False)
            i += d
        elif final_round and s.final:
            return s
        else:
            s = apply(s, greedy_play(s), check=False)
    return s
