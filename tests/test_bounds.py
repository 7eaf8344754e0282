"""The cheap sure-loss test of solver/search/bounds.py is sound: whenever it calls a state lost, the plain
reference expectimax (tests/reference) finds no winning chance there."""

from __future__ import annotations

import random

from conftest import sample_sizes
from gen import random_position, reference_form
from reference.expectimax import analyse
from reference.legal import play_key
from solver.core.position import parse_position
from solver.core.rules import apply, initial_state, legal_plays
from solver.search.bounds import split_gain, sure_loss


@sample_sizes(50, 1000)
def test_sure_loss_is_sound_on_random_positions(n: int) -> None:
    # About one claim per position: 100 positions test some 110 claims.
    rng = random.Random("bounds")
    claimed = checked = 0
    while checked < n:
        raw = random_position(rng, game="vanguard", max_hand=4, max_wolf=7, max_reserve=2, max_pile=2, final=False)
        raw["objective"] = "win"
        pos = parse_position(raw)
        root = initial_state(pos)
        if root.outcome is not None or root.final or len(root.hand + root.reserve + root.wolf) > 9:
            # (The reference solves big final rounds slowly; these sizes are the search's everyday ones.)
            continue
        checked += 1
        ref = analyse(reference_form(pos))
        values = {play_key(p): v for p, v in ref["moves"]}
        if sure_loss(root):
            claimed += 1
            assert ref["value"] == 0, pos.to_json()
        # After each play (chance nodes with owed draws included).
        for play in legal_plays(root):
            if play.kind != "fold" and sure_loss(apply(root, play)):
                claimed += 1
                assert values[play_key(play.to_json())] == 0, (pos.to_json(), str(play))
    # The test means something only if the claims are frequent.
    assert claimed > n // 5, claimed


def test_sure_loss_by_counting() -> None:
    # Player 2 cards, Wolf 7, pile 1, full party: P - K + n = 2 - 7 + 1 = -4, two sacrifices
    # bring it to -2, and no Split can take four of 6..9 (their smallest four add to more than 9).
    pos = parse_position(
        {
            "player": [1, 2],
            "wolf": [6, 6, 7, 7, 8, 8, 9],
            "draw_pile": {"size": 1},
            "final": False,
            "discard": [1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9],
        }
    )
    s = initial_state(pos)
    assert split_gain(s.wolf, s.pile_top, s.unseen, 1) == 0
    assert sure_loss(s)
    # A bigger pile lifts the count, and then only the values prove the loss: 3 in hand against 51,
    # with at most one 9 to draw and two 9s to sacrifice.
    bigger = s._replace(pile_size=4)
    assert split_gain(s.wolf, s.pile_top, s.unseen, 4) == 0
    assert sure_loss(bigger)
    assert not sure_loss(bigger._replace(hand=(9, 9, 9, 9), wolf=(6, 7, 8)))


def test_split_gain_counts_small_cards() -> None:
    # Wolf 1 1 1 1 and a 9: one Split of a 4 into 1+1+1+1 adds 1 to P - K + n.
    assert split_gain((1, 1, 1, 1, 9), (), (0,) * 9, 1) == 1
    # Six aces and a top of 9: one Split can take them all (6 <= 9): adds 3.
    assert split_gain((1, 1, 1, 1, 1, 1), (), (0,) * 9, 2) == 3
