"""The kernel's cover search (kernel.min_sacrifices, the final round's question: can every Wolf
card be covered, with how few sacrifices) against the plain reference (tests/reference/finish.py),
on random instances sized where its pruning bites: many cards on both sides, totals either side
of the Wolf's, sacrifices allowed or not."""

from __future__ import annotations

import random

import pytest

from conftest import sample_sizes
from reference.finish import coverable
from solver.core import kernel
from solver.core.cover import counts

PARTY = ("J", "Q", "K")


def _ours(wolf: list[int], avail: list[int], allowed: int) -> int:
    st = [0] * kernel.STATE
    st[kernel.WOLF : kernel.WOLF + 10] = counts(wolf)
    st[kernel.HAND : kernel.HAND + 10] = counts(avail)
    return kernel.min_sacrifices(st, allowed)


def _reference(wolf: list[int], avail: list[int], allowed: int) -> int:
    for k in range(allowed + 1):
        pos = {"wolf": wolf, "player": avail, "reserve": [], "party": list(PARTY[: k + 1])}
        if coverable(pos, wolf):  # type: ignore[arg-type]
            return k
    return -1


@sample_sizes(400, 3000)
def test_the_fewest_sacrifices_are_the_references(n: int) -> None:
    rng = random.Random("cover")
    seen = {-1: 0, 0: 0, 1: 0, 2: 0}
    for _ in range(n):
        wolf = [rng.randint(1, 10) for _ in range(rng.randint(1, 9))]
        avail = [rng.randint(1, rng.choice((4, 6, 10))) for _ in range(rng.randint(0, 11))]
        allowed = rng.randint(0, 2)
        got = _ours(wolf, avail, allowed)
        assert got == _reference(wolf, avail, allowed), (wolf, avail, allowed)
        seen[got] += 1
    assert all(k > 10 for k in seen.values()), seen


def test_a_big_wolf_hand_against_many_small_cards_is_refused_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """An instance from an 18-card Wolf after an Over, met by a search of a position with sixteen
    cards in hand: its total is out of reach even with two sacrifices. The search tried some
    millions of groupings (seconds compiled, for every such state) before it saw that."""
    calls = 0
    cover = kernel._cover

    def counted(*args: object) -> int:
        nonlocal calls
        calls += 1
        return cover(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(kernel, "_cover", counted)
    wolf = [2, 3, 3, 4, 4, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 10]
    avail = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 6, 6, 7, 8]
    assert _ours(wolf, avail, 2) == -1
    assert calls < 100
