"""The greedy rule, and a round played out by it on a known order of the pile (a rollout).

One rule, no lookahead, never a look at the pile: the simulator's greedy policy plays by it
(solver/play/policies.py), and the estimates' greedy rollouts play rounds out by it
(solver/search/estimate.py), so both measure the same strategy. The rule itself is the kernel's
(kernel.greedy, kernel.play_out: solver/core/kernel.py), so that the compiled estimates' rollouts
play it too; here are its words and its Python face.
"""

from __future__ import annotations

from solver.core import kernel
from solver.core.plays import Play
from solver.core.rules import State, kernel_moves, play_of, state_of, vector

GREEDY_PLAY_RULE = (
    "greedy: among the plays that take Wolf cards without giving it any (Perfect, Sum, Split), the one "
    "that takes the most Wolf cards, then uses the fewest of your cards, then the fewest reserve cards, "
    "then takes the highest Wolf card; else the Over with the smallest difference (the Wolf draws "
    "fewest), then on the highest Wolf card; else a Sacrifice (final round); Fold only when nothing "
    "else is legal."
)


def greedy_play(s: State) -> Play:
    """The play the greedy rule makes at a decision (the kernel's greedy: the rule written once)."""
    buf, m = kernel_moves(vector(s))
    return play_of(buf, kernel.greedy(buf, m))


def rollout(s: State, order: list[int], policy: tuple[float, ...] | list[float] | None = None) -> State:
    """The round played on by the greedy rule (or the rollout policy of these weights:
    solver/search/rollout_policy.py) with the unknown draws in this order, until it ends or
    (vanguard) turns final; known top cards are drawn first by the rules themselves."""
    st = vector(s)
    kernel.play_out(st, order, 0, list(kernel.GREEDY_WEIGHTS if policy is None else policy))
    return state_of(st, s)
