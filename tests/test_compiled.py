"""The one search in its two modes: compiled (numba) against the plain reference expectimax and
against itself run as plain Python, for every objective and kind of round; and the rules kernel's
pieces compiled against the same pieces plain, on many states."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import sample_sizes
from gen import random_position, reference_form
from reference.expectimax import analyse
from reference.legal import play_key
from solver.core import kernel
from solver.core.position import parse_position
from solver.core.rules import State, apply, apply_outcome, chance_outcomes, initial_state, legal_plays, vector
from solver.search import compiled
from solver.search.engine import Search, evaluate_moves
from solver.search.hint import hint

OBJECTIVES = ["win", "party", "points"]


@pytest.fixture
def forced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOBO_HINT_ENGINE", "compiled")


def round_for(rng: random.Random, objective: str, max_pile: int) -> dict[str, Any]:
    """A random round for the objective: reserves, known tops, visible top cards, short piles."""
    game = "lobo" if objective == "points" else "vanguard"
    raw = random_position(rng, game=game, max_hand=4, max_wolf=5, max_reserve=2, max_pile=max_pile)
    if game == "vanguard":
        raw["objective"] = objective
        raw.pop("final", None) if rng.random() < 0.5 else None
    return raw


@pytest.mark.parametrize("objective", OBJECTIVES)
@sample_sizes(25, 600)
def test_every_move_value_agrees_with_the_reference(forced: None, objective: str, n: int) -> None:
    rng = random.Random(f"compiled-reference-{objective}")
    checked = used = 0
    while checked < n:
        pos = parse_position(round_for(rng, objective, max_pile=3))
        if len(pos.player + pos.reserve + pos.wolf) > 9 or (pos.objective == "score"):
            continue  # (the reference is slow on big final rounds)
        ours = hint(pos)
        assert ours.exact
        ref = {play_key(p): v for p, v in analyse(reference_form(pos))["moves"]}
        assert len(ours.moves) == len(ref)
        for m in ours.moves:
            want = ref[play_key(m.play.to_json())]
            got = m.win_probability if objective == "win" else m.value  # (a final round's value is its score)
            assert got is not None and abs(got - float(want)) < 1e-9, (pos.to_json(), str(m.play), got, want)
        checked += 1
        used += pos.unknown_in_pile > 0
    assert used > n // 3  # most of these rounds had draws left to search


@pytest.mark.parametrize("objective", OBJECTIVES)
@sample_sizes(25, 1000)
def test_compiled_and_plain_give_the_same_values_and_bounds(
    monkeypatch: pytest.MonkeyPatch, objective: str, n: int
) -> None:
    """The same source in both modes: under the same state budget, the same plays exact, and the
    same values or bounds, to the last bits (compiled code may fuse a multiply and an add)."""
    rng = random.Random(f"compiled-plain-{objective}")
    compared = cut = 0
    while compared < n:
        raw = round_for(rng, objective, max_pile=5)
        root = initial_state(parse_position(raw))
        if root.outcome is not None or not root.is_decision:
            continue
        compared += 1
        monkeypatch.setenv("LOBO_HINT_ENGINE", "python")
        slow, s1 = evaluate_moves(root, objective, max_states=4000)
        monkeypatch.setenv("LOBO_HINT_ENGINE", "compiled")
        fast, s2 = evaluate_moves(root, objective, max_states=4000)
        assert (s1.mode, s2.mode) == ("plain", "compiled")
        for a, b in zip(slow, fast, strict=True):
            assert a.play == b.play and a.exact == b.exact, raw
            assert abs(a.lo - b.lo) < 1e-12 and abs(a.hi - b.hi) < 1e-12, (raw, str(a.play))
            cut += not a.exact
    assert cut > 0  # some rounds were cut short, and their bounds agree too


def test_a_budget_gives_sound_bounds_and_no_false_claim(forced: None) -> None:
    rng = random.Random("compiled-budget")
    cut = 0
    for _ in range(14):
        raw = round_for(rng, "win", max_pile=7)
        raw["rules"] = {}
        raw["draw_pile"] = {"size": raw["draw_pile"]["size"]}
        raw["final"] = False  # rounds with draws to search, not finishes
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


def test_a_time_limit_keeps_the_bounds_sound(forced: None) -> None:
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


# -- the kernel's pieces, compiled against plain ---------------------------------------------------


def _states(rng: random.Random, count: int) -> list[State]:
    """Positions of every kind and the states one play and one draw away from them."""
    out: list[State] = []
    while len(out) < count:
        raw = random_position(rng, max_hand=6, max_wolf=8, max_reserve=3)
        root = initial_state(parse_position(raw))
        found = [root]
        if root.is_decision:
            found += [apply(root, p) for p in legal_plays(root)]
        found += [apply_outcome(s, v) for s in found if s.is_chance for v, _ in chance_outcomes(s)[:3]]
        out += found
    return out


@pytest.mark.parametrize("merge", [True, False])
def test_a_compact_key_tells_apart_every_two_states_the_full_key_does(merge: bool) -> None:
    """Two words for a search that knows one top card at most (hand and reserve as one, or apart:
    each value's counts as one id, kernel.RANK4): on thousands of states, two get the same compact
    key exactly when they get the same full key, and compiled and plain pack alike. Such a
    search's later states qualify too."""
    k = compiled.kernel
    rng = random.Random(f"compact-keys-{merge}")
    full: dict[tuple[int, ...], tuple[int, ...]] = {}
    compact: dict[tuple[int, ...], tuple[int, ...]] = {}
    for s in _states(rng, 3000):
        st = vector(s)
        if st[kernel.NTOP] > 1:
            assert kernel.search_words(st) == kernel.key_words(st)
            continue
        assert kernel.search_words(st) == kernel.COMPACT_WORDS
        if merge:
            for i in range(10):  # as the search holds it (engine.Search._vec)
                st[kernel.HAND + i] += st[kernel.RESERVE + i]
                st[kernel.RESERVE + i] = 0
        long_key, short_key = [0] * kernel.KEY_WORDS, [0] * kernel.COMPACT_WORDS
        kernel.key(st, long_key, kernel.KEY_WORDS, merge)
        kernel.key(st, short_key, kernel.COMPACT_WORDS, merge)
        ckb = np.zeros(kernel.COMPACT_WORDS, np.int64)
        k.key(np.array(st, np.int64), ckb, kernel.COMPACT_WORDS, merge)
        assert list(ckb) == short_key and all(0 <= w < 1 << 60 for w in short_key)
        lk, sk = tuple(long_key), tuple(short_key)
        assert full.setdefault(lk, sk) == sk and compact.setdefault(sk, lk) == lk, st
    assert len(full) > 1000


def test_the_arena_grows_and_the_values_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Big nodes take their buffers from their thread's arena (expectimax.ARENA_I): made far too
    small, it is grown as the search asks and every value is what the usual arena gives."""
    from solver.search import engine, memory

    monkeypatch.setenv("LOBO_HINT_ENGINE", "compiled")
    rng = random.Random("arena")
    grown = compared = 0
    arena = engine._memos("compiled", memory.room()).arena
    usual = list(arena)
    while compared < 60:
        raw = random_position(rng, game="vanguard", max_hand=5, max_wolf=5, max_reserve=2, max_pile=7)
        raw["objective"] = "win"
        root = initial_state(parse_position(raw))
        if root.outcome is not None or not root.is_decision:
            continue
        compared += 1
        arena[:] = usual
        want, _ = evaluate_moves(root, "win")  # no budget: a stop for the arena is a stop like any
        arena[:] = [np.zeros(2, np.int64), np.zeros(1, np.float64)]
        got, _ = evaluate_moves(root, "win")
        grown += len(arena[0]) > 2
        for a, b in zip(want, got, strict=True):
            # A restart sums some subtrees in another order: equal to the last bits or so.
            assert a.play == b.play and a.exact and b.exact, raw
            assert abs(a.lo - b.lo) < 1e-12, (raw, str(a.play))
    arena[:] = usual
    assert grown > 5  # big nodes were met, and the arena grew for them


def test_searches_of_one_thread_share_one_arena(forced: None) -> None:
    """The arena is scratch for one call at a time: a search per round end (the rollouts make
    hundreds) must not bring an arena each (they did: 5 GB resident in one test)."""
    raw = random_position(random.Random("one-arena"), game="vanguard", max_pile=6)
    root = initial_state(parse_position(raw))
    searches = [Search(root, "win") for _ in range(50)]
    assert len({id(s._arena) for s in searches}) == 1


@sample_sizes(1000, 5000)
def test_the_kernel_compiled_does_what_it_does_plain(n: int) -> None:
    """Every rule of the kernel, on a few thousand states of both games: the legal moves, the
    state after each, the draws and their probabilities, the cover, the sure-loss tests."""
    k = compiled.kernel
    rng = random.Random("kernel-modes")
    checked = moved = 0
    for s in _states(rng, n):
        st = vector(s)
        a = np.array(st, np.int64)
        if s.is_decision:
            buf, room = [0] * (512 * kernel.MOVE), 512
            n = kernel.moves(st, buf, room)
            cbuf = np.zeros(512 * kernel.MOVE, np.int64)
            assert k.moves(a, cbuf, room) == n > 0
            assert list(cbuf[: n * kernel.MOVE]) == buf[: n * kernel.MOVE]
            for g in range(n):
                child, cchild = [0] * kernel.STATE, np.zeros(kernel.STATE, np.int64)
                kernel.apply_move(st, buf, g * kernel.MOVE, child)
                k.apply_move(a, cbuf, g * kernel.MOVE, cchild)
                top = kernel.TOPS + child[kernel.NTOP]
                assert list(cchild[:top]) == child[:top]
                moved += 1
        if s.is_chance:
            d = kernel.owed_now(st)
            n = kernel.draw_count(st, kernel.UNSEEN, d)
            assert k.draw_count(a, kernel.UNSEEN, d) == n
            rows, prob = [0] * (10 * n), [0.0] * n
            crows, cprob = np.zeros(10 * n, np.int64), np.zeros(n, np.float64)
            kernel.draws(st, kernel.UNSEEN, d, rows, prob)
            k.draws(a, kernel.UNSEEN, d, crows, cprob)
            assert list(crows) == rows and list(cprob) == prob
        if s.outcome is None:
            allowed = rng.randint(0, 2)
            assert k.min_sacrifices(a, allowed) == kernel.min_sacrifices(st, allowed)
            assert bool(k.sure_loss(a)) == bool(kernel.sure_loss(st))
            assert bool(k.dead_end(a)) == bool(kernel.dead_end(st))
            for need in (1, 2, 3):
                assert bool(k.lone_card(a, need)) == bool(kernel.lone_card(st, need))
            assert bool(k.few_matches(a)) == bool(kernel.few_matches(st))
            words = kernel.key_words(st)
            kb, ckb = [0] * words, np.zeros(words, np.int64)
            kernel.key(st, kb, words, False)
            k.key(a, ckb, words, False)
            assert list(ckb) == kb
        checked += 1
    assert checked >= n and moved > 2 * n


def test_a_dead_end_is_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whenever dead_end calls a decision lost, the plain search (itself checked against the
    reference) values it 0."""
    monkeypatch.setenv("LOBO_HINT_ENGINE", "python")
    rng = random.Random("kernel-dead-end")
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
            if kernel.dead_end(vector(s)):
                claimed += 1
                assert search.value(s) == 0.0, s
    assert claimed > 100, claimed


def test_a_key_holds_every_state_of_a_round_or_the_search_refuses() -> None:
    """key_fits is checked once, at the root: it holds when no value has more than 7 copies
    anywhere (every deck), and a hand-made vector with 8 refuses instead of packing wrongly."""
    rng = random.Random("keys")
    for s in _states(rng, 300):
        assert kernel.key_fits(vector(s))
    st = vector(_states(rng, 1)[0])
    st[kernel.WOLF] = 8
    assert not kernel.key_fits(st)


def test_heap_arrays_only_where_reference_counts_are_kept() -> None:
    """compiled.py compiles a function without numba's reference counts unless it says heap=True:
    such a function that made a heap array (ints, floats, scratch) would never free it. numba
    itself refuses an allocation there only when it sees one; a call that returns one it does not."""
    import ast

    from solver.search.machine_code import SOURCES

    heap_makers = {"ints", "floats", "scratch"}
    for path in SOURCES:
        if path.name in ("compiled.py", "hashtable.py"):
            continue  # the loader and the table: plain numba, reference counts as numba keeps them
        tree = ast.parse(path.read_text())
        for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            jitted = [d for d in fn.decorator_list if isinstance(d, ast.Call) and getattr(d.func, "id", "") == "jit"]
            if not jitted:
                continue
            heap = any(k.arg == "heap" and getattr(k.value, "value", False) for k in jitted[0].keywords)
            calls = {
                c.func.attr if isinstance(c.func, ast.Attribute) else getattr(c.func, "id", "")
                for c in ast.walk(fn)
                if isinstance(c, ast.Call)
            }
            made = calls & heap_makers
            assert heap or not made, f"{path.name}: {fn.name} makes heap arrays ({sorted(made)}) without heap=True"


def test_stack_buffers_hold_what_the_search_puts_there() -> None:
    """The sizes the stack buffers are fixed at hold what goes in them, or the search takes the heap."""
    from solver.search import expectimax

    assert expectimax.ROOM_WORDS == expectimax.ROOM * kernel.MOVE
    every_top = [0] * kernel.STATE
    every_top[kernel.NTOP] = kernel.MAX_TOPS
    assert kernel.key_words(every_top) == expectimax.KEY_MOST
    assert kernel.OD_WORDS == 4 * kernel.OD


def test_ctrl_c_while_machine_code_loads_is_raised_once_it_has_loaded() -> None:
    # Found by a review: a Ctrl-C at start-up landed in llvmlite's cache callback, which cannot
    # raise: "Exception ignored on calling ctypes callback function", and the run went on.
    import signal

    from solver.search.compiled import loading

    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # Python's own, as the CLI has it
    try:
        _held_then_raised(loading)
    finally:
        signal.signal(signal.SIGINT, before)


def _held_then_raised(loading: Any) -> None:
    import signal

    reached = []
    with pytest.raises(KeyboardInterrupt), loading("a test's load"):
        signal.raise_signal(signal.SIGINT)
        reached.append("after the signal")  # held: the block goes on
    assert reached == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with loading("a test's load"), pytest.raises(KeyboardInterrupt):  # loaded: nothing held any more
        signal.raise_signal(signal.SIGINT)


def test_a_first_compiles_second_process_starts_from_anywhere(tmp_path: Path) -> None:
    """A first compile gives the rollouts and the lookahead to a second process (compiled.py's
    `_first_compile`); started elsewhere than the checkout, it still finds this `solver` and its
    cache (here already made: it loads, and exits cleanly)."""
    import subprocess

    from solver.search.compiled import helper_command, warm_up

    warm_up(notice=False)
    command, env = helper_command()
    done = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
