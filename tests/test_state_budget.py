"""A state budget buys the same answer every time: with no clock or one that never binds (the
analysis has none, `hint` always has one), whatever pace the chunks took on this machine, and in
a fresh process or one whose memos earlier searches filled (found by a review: the analysis and
`hint --max-states 3000` valued 1+8=9 at 6.7% and 8.7%)."""

from __future__ import annotations

from typing import Any

import pytest

import solver.search.engine as engine
from gen import random_position
from solver.core.position import parse_position
from solver.search.hint import hint

FOUND = [
    {"game": "vanguard", "difficulty": "standard", "player": [1, 1, 8], "wolf": [5, 7, 9], "discard": [2, 4, 6],
     "draw_pile": {"size": 27}},
    {"game": "vanguard", "difficulty": "easy", "player": [3, 4, 6], "wolf": [3], "reserve": [4],
     "discard": [1, 1, 2, 2, 4, 4, 5, 5, 5, 6, 6, 7, 7, 7, 7, 8, 8, 8], "draw_pile": {"size": 9}},
]  # fmt: skip


def _answer(raw: dict[str, Any], time_limit: float | None, max_states: int) -> list[dict[str, Any]]:
    r = hint(parse_position(raw), time_limit=time_limit, max_states=max_states, samples=64)
    return [{k: v for k, v in m.to_json().items()} for m in r.moves]


def _positions() -> list[dict[str, Any]]:
    import random

    rng = random.Random(3838)
    return FOUND + [random_position(rng, final=False, max_pile=22) for _ in range(8)]


@pytest.mark.parametrize("max_states", [300, 3000])
def test_a_state_budget_gives_one_answer_whatever_the_clock_and_the_process(
    max_states: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    for raw in _positions():
        first = _answer(raw, None, max_states)
        assert _answer(raw, 1000.0, max_states) == first, raw  # a clock that never binds
        monkeypatch.setattr(engine, "CHUNK_SECONDS", 1e-6)  # a machine a million times slower
        assert _answer(raw, 1000.0, max_states) == first, raw
        monkeypatch.setattr(engine, "CHUNK_SECONDS", 100.0)  # or faster
        assert _answer(raw, 1000.0, max_states) == first, raw
        monkeypatch.undo()
