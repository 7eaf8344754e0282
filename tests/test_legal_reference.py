"""The engine's legal plays agree with the plain enumerator of tests/reference on random positions."""

from __future__ import annotations

import random

import pytest

from gen import random_position
from reference.legal import legal_plays as reference_legal_plays
from reference.legal import play_key
from solver.core.position import parse_position
from solver.core.rules import initial_state, legal_plays


@pytest.mark.parametrize("game", ["vanguard", "lobo"])
def test_legal_plays_agree_with_the_reference(game: str) -> None:
    rng = random.Random(f"legal-{game}")
    checked = plays = 0
    for _ in range(1500):
        pos = parse_position(random_position(rng, game=game, max_hand=7, max_wolf=7, max_reserve=4))
        ours = [p.to_json() for p in legal_plays(initial_state(pos))]
        theirs = reference_legal_plays(pos.to_json())
        assert len({play_key(p) for p in ours}) == len(ours), "a play is listed twice"
        assert {play_key(p) for p in ours} == {play_key(p) for p in theirs}, pos.to_json()
        checked += 1
        plays += len(ours)
    assert checked == 1500 and plays > 5 * checked
