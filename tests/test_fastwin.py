"""The compiled win search (solver/search/compiled.py) against the plain reference expectimax and against
the Python search, and its pieces against the Python functions they mirror."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from conftest import sample_sizes
from gen import random_position, reference_form
from reference.expectimax import analyse
from reference.legal import play_key
from solver.core.cover import counts, min_sacrifices
from solver.core.position import parse_position
from solver.core.rules import apply, apply_outcome, chance_outcomes, draws, initial_state, legal_plays
from solver.search import compiled as fastwin
from solver.search.bounds import sure_loss
from solver.search.engine import Search, evaluate_moves
from solver.search.hint import hint


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOBO_HINT_ENGINE", "compiled")


def vanguard_win(rng: random.Random, max_pile: int) -> dict[str, Any]:
    raw = random_position(rng, game="vanguard", max_hand=4, max_wolf=5, max_reserve=2, max_pile=max_pile)
    raw["objective"] = "win"
    raw.pop("final", None) if rng.random() < 0.5 else None
    return raw


# (Not fewer by default: one round among the first 100 takes two thirds of the reference's time.)
@sample_sizes(300, 1000)
def test_every_move_value_agrees_with_the_reference(compiled: None, n: int) -> None:
    rng = random.Random("fastwin-reference")
    checked = used = 0
    while checked < n:
        pos = parse_position(vanguard_win(rng, max_pile=3))
        if len(pos.player + pos.reserve + pos.wolf) > 9:
            continue  # (the reference is slow on big final rounds)
        ours = hint(pos)
        assert ours.exact
        ref = {play_key(p): v for p, v in analyse(reference_form(pos))["moves"]}
        assert len(ours.moves) == len(ref)
        for m in ours.moves:
            want = ref[play_key(m.play.to_json())]
            assert m.win_probability is not None and abs(m.win_probability - float(want)) < 1e-9, (
                pos.to_json(),
                str(m.play),
            )
        checked += 1
        used += pos.unknown_in_pile > 0 and not pos.rules.top_card_visible
    assert used > n * 2 // 5  # most of these rounds really went through the compiled search


@sample_sizes(200, 2000)
def test_agrees_with_the_python_search_on_random_rounds(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    rng = random.Random("fastwin-python")
    compared = 0
    while compared < n:
        raw = vanguard_win(rng, max_pile=4)
        raw["rules"] = {}
        root = initial_state(parse_position(raw))
        if root.outcome is not None or root.unknown_draws < 2:
            continue
        compared += 1
        monkeypatch.setenv("LOBO_HINT_ENGINE", "python")
        slow, s1 = evaluate_moves(root, "win")
        monkeypatch.setenv("LOBO_HINT_ENGINE", "compiled")
        fast, s2 = evaluate_moves(root, "win")
        assert s1.fast is None and (s2.fast is not None or root.pile_top)
        for a, b in zip(slow, fast, strict=True):
            assert a.play == b.play and abs(a.value - b.value) < 1e-9, (raw, str(a.play))


def test_a_budget_gives_sound_bounds_and_no_false_claim(compiled: None) -> None:
    rng = random.Random("fastwin-budget")
    cut = 0
    for _ in range(20):
        raw = vanguard_win(rng, max_pile=8)
        raw["rules"] = {}
        raw["draw_pile"] = {"size": raw["draw_pile"]["size"]}
        root = initial_state(parse_position(raw))
        if root.outcome is not None:
            continue
        exact, _ = evaluate_moves(root, "win")
        for limit in (50, 400):
            moves, search = evaluate_moves(root, "win", max_states=limit)
            assert search.stats.states <= limit + 1
            for m, e in zip(moves, exact, strict=True):
                assert m.lo - 1e-9 <= e.value <= m.hi + 1e-9, (raw, str(m.play), m, e)
                cut += not m.exact
    assert cut > 10


def test_draws_match_the_rules() -> None:
    rng = random.Random("fastwin-draws")
    for _ in range(300):
        top = rng.choice([8, 9, 10])
        unseen = tuple(rng.randint(0, 4) for _ in range(top))
        total = sum(unseen)
        if total == 0:
            continue
        d = rng.randint(1, min(total, 9))
        rows, probs = fastwin.draws(np.array(unseen + (0,) * (10 - top), np.int64), d)
        got = {tuple(int(x) for x in r[:top]): float(p) for r, p in zip(rows, probs, strict=True)}
        want = {tuple(v.count(i) for i in range(1, top + 1)): float(p) for v, p in draws(unseen, d)}
        assert got == want


def test_sure_loss_no_play_and_cover_match_the_python_ones() -> None:
    rng = random.Random("fastwin-pieces")
    mk, mv = fastwin.new_table(1 << 12)
    ctr = np.zeros(fastwin.COUNTERS, np.int64)
    seen = dead = 0
    for _ in range(600):
        raw = random_position(rng, game="vanguard", max_hand=5, max_wolf=8, max_reserve=2)
        raw["rules"] = {}
        root = initial_state(parse_position(raw))
        if root.outcome is not None or root.pile_top:
            continue
        states = [root] + [apply(root, p) for p in legal_plays(root) if p.kind != "fold"]
        states += [apply_outcome(s, v) for s in states if s.is_chance for v, _ in chance_outcomes(s)[:3]]
        for s in states:
            if s.outcome is not None or s.pile_top:
                continue
            seen += 1
            assert bool(fastwin.sure_loss(fastwin.vector(s))) == sure_loss(s), s
            if s.is_decision and not s.final:
                only_fold = [p.kind for p in legal_plays(s)] == ["fold"]
                dead += only_fold
                assert bool(fastwin.no_play(fastwin.vector(s))) == only_fold, s
            avail = counts(s.hand + s.reserve)
            allowed = rng.randint(0, 2)
            want = min_sacrifices(s.wolf, avail, allowed)
            got = fastwin.min_sacrifices(
                np.array(counts(s.wolf), np.int64), np.array(avail, np.int64), allowed, mk, mv, ctr
            )
            assert got == (-1 if want is None else want), s
    assert seen > 2000 and dead > 50


def test_a_time_limit_keeps_the_bounds_sound(compiled: None) -> None:
    raw = {
        "difficulty": "standard",
        "player": [2, 5, 7, 9],
        "wolf": [1, 4, 6, 8],
        "discard": [1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9],
        "draw_pile": {"size": 11},
        "final": False,
    }
    pos = parse_position(raw)
    full = hint(pos)
    assert full.exact
    cut = hint(pos, time_limit=0.05)
    assert not cut.exact and cut.status == "open"
    for m in cut.moves:
        exact = next(e for e in full.moves if e.play == m.play)
        assert exact.value is not None
        if m.bounds is not None:
            assert m.bounds[0] - 1e-9 <= exact.value <= m.bounds[1] + 1e-9, str(m.play)


def test_a_dead_end_is_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whenever dead_end calls a decision lost, the Python search (itself checked against the
    reference) values it 0."""
    monkeypatch.setenv("LOBO_HINT_ENGINE", "python")
    rng = random.Random("fastwin-dead-end")
    claimed = checked = 0
    while checked < 1500:
        raw = random_position(rng, game="vanguard", max_hand=4, max_wolf=7, max_reserve=2, max_pile=5, final=False)
        raw["objective"] = "win"
        raw["rules"] = {}
        root = initial_state(parse_position(raw))
        if root.outcome is not None or root.final or root.pile_top:
            continue
        search = Search(root, "win")
        states = [root] + [
            apply_outcome(c, v)
            for c in (apply(root, p) for p in legal_plays(root) if p.kind != "fold")
            if c.is_chance
            for v, _ in chance_outcomes(c)
        ]
        for s in states:
            if s.outcome is not None or not s.is_decision or s.final:
                continue
            checked += 1
            if fastwin.dead_end(fastwin.vector(s)):
                claimed += 1
                assert search.value(s) == 0.0, s
    assert claimed > 100, claimed
