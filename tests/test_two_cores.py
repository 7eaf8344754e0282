"""The search on two cores (engine.py's shared-table search): two threads over one table give the
values the reference gives, and the values one thread gives, through a table that is doubled many
times while both search, and in a table the memory budget fixes at its size."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gen import random_position, reference_form
from reference.expectimax import analyse
from reference.legal import play_key
from solver.core.position import parse_position
from solver.core.rules import State, initial_state
from solver.search import engine, shared_table
from solver.search.engine import evaluate_moves
from solver.search.hint import hint


@pytest.fixture
def small_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled search from the first state, its table started at 1,024 slots (so that a
    search of some thousands of states doubles it while both threads run)."""
    monkeypatch.setenv("LOBO_HINT_ENGINE", "compiled")
    monkeypatch.setattr(engine, "_affordable", lambda capacity, nbytes, words: 1024)


def _round(rng: random.Random, objective: str, pile: int) -> dict[str, Any]:
    game = "lobo" if objective == "points" else "vanguard"
    raw = random_position(rng, game=game, max_hand=4, max_wolf=4, max_reserve=2, max_pile=pile, final=False)
    if game == "vanguard":
        raw["objective"] = objective
    return raw


# (objective, positions, the most cards in their piles): the reference takes up to a minute on
# some party and win rounds with 4 cards in the pile (the two-thread search runs at every size
# in the tests below, against the one-thread search).
@pytest.mark.parametrize(
    ("objective", "count", "pile"),
    [
        ("win", 60, 3),
        ("party", 20, 3),
        ("points", 30, 4),
        pytest.param("win", 200, 3, marks=pytest.mark.slow),
        pytest.param("points", 300, 4, marks=pytest.mark.slow),
    ],
)
def test_two_threads_give_the_references_values(small_tables: None, objective: str, count: int, pile: int) -> None:
    rng = random.Random(f"two cores {objective} {count}")
    for _ in range(count):
        pos = parse_position(_round(rng, objective, pile))
        ours = hint(pos, threads=2)
        assert ours.exact
        ref = {play_key(p): v for p, v in analyse(reference_form(pos))["moves"]}
        for m in ours.moves:
            want = ref[play_key(m.play.to_json())]
            got = m.win_probability if objective == "win" else m.value
            assert got is not None and want is not None and abs(got - float(want)) < 1e-9, (pos.to_json(), str(m.play))


def _class(rng: random.Random, pile: int) -> State:
    deck = [v for v in range(1, 10) for _ in range(4)]
    rng.shuffle(deck)
    party = rng.sample(["J", "Q", "K"], rng.randint(1, 3))
    raw = {"player": deck[:4], "wolf": deck[4:8], "discard": deck[8 + pile :], "draw_pile": {"size": pile}}
    return initial_state(parse_position({**raw, "final": False, "party": party}))


@pytest.mark.parametrize(
    ("objective", "count"),
    [
        ("win", 10),
        ("game", 10),
        pytest.param("win", 150, marks=pytest.mark.slow),
        pytest.param("game", 100, marks=pytest.mark.slow),
    ],
)
def test_two_threads_give_one_threads_values_through_many_doublings(
    small_tables: None, objective: str, count: int
) -> None:
    """Rounds of tens of thousands of states, where both threads search for long: the table
    grows from 1,024 slots while they do, and every value is the one-thread search's."""
    rng = random.Random(f"two cores, doubled, {objective}, {count}")
    grown = 0
    for _ in range(count):
        root = _class(rng, rng.choice([8, 9, 10]))
        if root.outcome is not None:
            continue
        one, _ = evaluate_moves(root, objective)
        two, search = evaluate_moves(root, objective, threads=2)
        assert search.shared is not None and all(m.exact for m in two)
        assert [m.play for m in one] == [m.play for m in two]
        assert all(abs(a.value - b.value) < 1e-9 for a, b in zip(one, two, strict=True))
        grown += search.tk.shape[0] > 1024
    assert grown >= 0.6 * count


def test_a_shared_table_the_budget_fixes_still_gives_exact_values(
    small_tables: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shared table may not replace entries (a reader could see one key's words with another's):
    fixed by the memory budget, it takes no new key once full, and the values stay exact."""
    rng = random.Random("two cores, fixed")
    monkeypatch.setattr(shared_table, "doubled", lambda keys, vals: None)
    for _ in range(3):
        root = _class(rng, 8)
        if root.outcome is not None:
            continue
        one, _ = evaluate_moves(root, "win")
        two, search = evaluate_moves(root, "win", threads=2)
        assert search.fixed and search.tk.shape[0] == 1024
        assert all(m.exact for m in two)
        assert all(abs(a.value - b.value) < 1e-9 for a, b in zip(one, two, strict=True))


def test_two_threads_under_a_clock_keep_sound_bounds_and_count_both_threads_states(small_tables: None) -> None:
    """Cut short by its clock, a two-thread search leaves every play exact or with bounds that
    hold the one-thread search's exact value, and its states are both threads'."""
    rng = random.Random("two cores, clock")
    root = _class(rng, 12)
    truth, _ = evaluate_moves(root, "win")
    values, search = evaluate_moves(root, "win", time_limit=0.3, threads=2)
    # (1.3 s of search on two threads here: a far quicker machine might finish within the clock)
    assert search.stats.stopped == "time" or all(m.exact for m in values)
    for m, t in zip(values, truth, strict=True):
        assert m.lo - 1e-9 <= t.value <= m.hi + 1e-9
    helper_states = search.stats.states - int(search.ctr[engine.plain.STATES])
    assert helper_states > 0  # the second thread searched, and its states are counted


def test_a_state_budget_keeps_one_thread_so_the_answer_is_the_same_every_run() -> None:
    """--max-states answers must repeat exactly (simulate's seeded runs): such a search never
    takes a second thread, whatever it is allowed."""
    rng = random.Random("two cores, states")
    root = _class(rng, 10)
    runs = [evaluate_moves(root, "win", max_states=20_000, threads=2) for _ in range(2)]
    assert all(s.shared is None for _, s in runs)
    assert [(m.lo, m.hi) for m in runs[0][0]] == [(m.lo, m.hi) for m in runs[1][0]]


def test_the_second_threads_reads_of_the_evaluator_make_the_answer_an_estimate(small_tables: None) -> None:
    """Under `game`, a value the second thread read from the evaluator's tables is an estimate
    whichever thread found it: the search counts both threads' reads, and keeps the larger error.
    Before, a lobo round whose only play the second thread valued first passed for exact."""
    state = initial_state(parse_position({"game": "lobo", "player": [1, 2], "wolf": [9, 9, 8]}))
    first = engine.Search(state, "game", None, None, threads=2)
    helper = engine._Helping(first, None, [], {}, {})  # values nothing: its counts are set below
    helper._thread.join()
    assert helper.search is not None
    helper.search.ctr[engine.plain.ESTIMATED] = 3
    helper.search.ctr[engine.plain.ERROR] = 7000
    first.ctr[engine.plain.ERROR] = 2000
    helper.end(first.stats)
    assert first.estimated and first.error == 0.007
    for _ in range(10):  # which thread values the Fold depends on their timing
        values, search = evaluate_moves(state, "game", time_limit=1.0, threads=2)
        assert [m.play.kind for m in values] == ["fold"] and search.estimated and search.error > 0
        assert not hint(parse_position({"game": "lobo", "player": [1, 2], "wolf": [9, 9, 8]}), threads=2).exact


def test_an_unknown_engine_setting_is_said_and_the_search_chooses(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("LOBO_HINT_ENGINE", "rust-for-this-test")
    with caplog.at_level("WARNING", logger="lobo_hint"):
        assert engine._engine_choice() == "auto"
    assert "LOBO_HINT_ENGINE=rust-for-this-test is not one of auto, python, compiled" in caplog.text
