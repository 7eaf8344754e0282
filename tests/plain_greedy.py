"""The greedy rule (solver/search/rollout.py: GREEDY_PLAY_RULE) restated plainly over Play values
and the rules' Python API, to judge the kernel's greedy (kernel.greedy, kernel.play_out) that the
greedy policy and every rollout play by."""

from __future__ import annotations

from solver.core.games import game
from solver.core.plays import Play
from solver.core.rules import State, apply, apply_outcome, legal_plays


def greedy_key(play: Play) -> tuple[int, int, int, int, int]:
    """Smaller is better; among equal keys the play listed first (legal_plays' order)."""
    if play.kind in ("perfect", "sum", "split"):
        return (0, -len(play.wolf), len(play.hand) + len(play.reserve), len(play.reserve), -max(play.wolf))
    if play.kind == "over":
        return (1, play.mine[0] - play.wolf[0], -play.wolf[0], len(play.reserve), 0)
    if play.kind == "sacrifice":
        return (2, 0, 0, 0, -play.wolf[0])
    return (3, 0, 0, 0, 0)


def greedy_play(s: State) -> Play:
    return min(legal_plays(s), key=greedy_key)  # min keeps the first of equal keys


def rollout(s: State, order: list[int]) -> State:
    """Draw by draw through the rules' API: the unknown cards in this order, until the round ends
    or (vanguard) turns final at a decision."""
    i = 0
    while s.outcome is None:
        if s.is_chance:
            d = s.owed_player + s.owed_wolf or 1
            s = apply_outcome(s, tuple(sorted(order[i : i + d])))
            i += d
        elif game(s.game).has_final_round and s.final:
            return s
        else:
            s = apply(s, greedy_play(s))
    return s
