"""The hint engine's values against the plain Fraction expectimax of tests/reference, move by move."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conftest import sample_sizes
from gen import random_position, reference_form
from reference.expectimax import analyse
from reference.legal import play_key
from solver.core.position import parse_position
from solver.search.hint import hint


def small_position(rng: random.Random, kind: str) -> dict[str, Any]:
    """Small rounds of every kind the search meets: piles running out, known tops, known piles,
    reserves, visible top cards, final rounds."""
    game = "lobo" if kind == "points" else "vanguard"
    raw = random_position(
        rng,
        game=game,
        max_hand=4,
        max_wolf=4,
        max_reserve=2,
        max_pile=3,
        final=True if kind == "score" else (False if rng.random() < 0.8 else None),
    )
    if kind == "known" and raw["draw_pile"]["size"]:
        # A fully known pile: its order is given, the round is deterministic.
        pos = parse_position(raw)
        unseen = [v for v, n in enumerate(pos.unseen, start=1) for _ in range(n)]
        rng.shuffle(unseen)
        raw["draw_pile"] = list(pos.pile_top) + unseen[: pos.unknown_in_pile]
        raw.get("rules", {}).pop("top_card_visible", None)
    if game == "vanguard":
        raw["objective"] = {"score": "score", "party": "party"}.get(kind, "win")
    return raw


def reference_values(pos_json: dict[str, Any]) -> dict[Any, Any]:
    ref = analyse(pos_json)
    return {play_key(p): v for p, v in ref["moves"]}


@pytest.mark.parametrize("kind", ["win", "party", "points", "score", "known"])
@sample_sizes(30, 300)
def test_every_move_value_agrees_with_the_reference(kind: str, n: int) -> None:
    rng = random.Random(f"search-{kind}")
    checked = 0
    while checked < n:
        pos = parse_position(small_position(rng, kind))
        if pos.objective == "score" and not pos.final:
            continue
        ours = hint(pos)
        assert ours.exact
        ref = reference_values(reference_form(pos))
        assert len(ours.moves) == len(ref)
        for m in ours.moves:
            want = ref[play_key(m.play.to_json())]
            got = m.win_probability if pos.objective == "win" else m.value
            if want is None:
                assert got is None, (pos.to_json(), str(m.play))
            else:
                assert got is not None and abs(got - float(want)) < 1e-9, (pos.to_json(), str(m.play), got, want)
        best = max((m.value for m in ours.moves if m.value is not None), default=None)
        assert ours.value == best or (pos.objective == "win" and pos.final)
        checked += 1
