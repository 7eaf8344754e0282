"""The memory budget: every search stays within it, and reaching it is like reaching a time limit
(sound bounds, `exact: false`, never a traceback, never a false proof)."""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import ROOT, state
from solver.core.caches import weighted_cache
from solver.core.position import parse_position
from solver.search.engine import Budget, Search, evaluate_moves, memory
from solver.search.estimate import orders_of
from solver.search.graph import lookahead_graph
from solver.search.hint import hint


@pytest.fixture
def tight() -> Iterator[None]:
    """A budget that leaves the process almost no room beyond what it holds already (its kept
    table memory let go first: memory.py lets it go when room is short)."""
    memory.let_go()
    memory.set_limit(memory.resident() + 10 * 1024**2)
    try:
        yield
    finally:
        memory.set_limit(None)


def test_sizes_are_read_like_a_person_writes_them() -> None:
    assert memory.parse_size("2G") == 2 * 1024**3
    assert memory.parse_size("1.5 GiB") == int(1.5 * 1024**3)
    assert memory.parse_size("512m") == 512 * 1024**2
    assert memory.parse_size("800MB") == 800 * 1024**2
    assert memory.parse_size("100000000") == 100_000_000
    for bad in ("", "abc", "2X", "-1G", "1e9", "9" * 5000, "1M"):  # 1M is below the minimum
        with pytest.raises(memory.MemoryBudgetError):
            memory.parse_size(bad)


def test_the_budget_comes_from_the_setting_then_the_environment_then_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(memory.ENV, raising=False)
    assert memory.limit() == memory.DEFAULT
    monkeypatch.setenv(memory.ENV, "3G")
    assert memory.limit() == 3 * 1024**3
    memory.set_limit(1024**3)
    try:
        assert memory.limit() == 1024**3
    finally:
        memory.set_limit(None)
    monkeypatch.setenv(memory.ENV, "lots")
    with pytest.raises(memory.MemoryBudgetError, match=memory.ENV):
        memory.limit()


def test_room_never_exceeds_what_an_address_space_cap_leaves() -> None:
    memory.let_go()  # kept table memory let go would be room again (memory.room)
    cap, hard = resource.getrlimit(resource.RLIMIT_AS)
    assert memory.room() <= memory.limit() - memory.resident() + 4096
    if cap == resource.RLIM_INFINITY:
        virtual = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (virtual + 300 * 1024**2, hard))
        try:
            assert memory.room() <= 300 * 1024**2 - memory.RESERVE
        finally:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def test_the_weighted_cache_keeps_its_weight_bounded_and_its_answers_right() -> None:
    calls = 0

    @weighted_cache(100)
    def rows(n: int) -> tuple[int, ...]:
        nonlocal calls
        calls += 1
        return tuple(range(n))

    rng = random.Random(4)
    for _ in range(2000):
        n = rng.randrange(1, 30)
        assert rows(n) == tuple(range(n))
        assert rows.cache_weight() <= 100  # type: ignore[attr-defined]
    calls = 0
    rows(3)
    rows(3)
    assert calls <= 1  # small results are kept
    calls = 0
    rows(20)
    rows(20)
    assert calls == 2  # heavier than an eighth of the budget: never kept


def _party_round() -> object:
    """A round whose exact party value takes some 100,000 table entries (about 100 MB): far
    beyond the tight budget's room, quick for a search with the default one."""
    return state(
        player=[3, 7, 9, 1],
        wolf=[6, 2, 5, 8],
        discard=[1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7],
        draw_pile={"size": 9},
        final=False,
    )


ROOMY = 1 << 40  # a budget no test reaches: the exact values to compare with


@pytest.fixture
def plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain-Python search, whose table (a dict) stops the search when the budget is spent."""
    monkeypatch.setenv("LOBO_HINT_ENGINE", "python")


def _exact_moves(monkeypatch: pytest.MonkeyPatch) -> dict[object, float]:
    """The party round's exact move values, by the compiled search (a second plain one would take
    15 s; tests/test_compiled.py checks the two agree)."""
    memory.set_limit(ROOMY)
    monkeypatch.setenv("LOBO_HINT_ENGINE", "compiled")
    full, search = evaluate_moves(_party_round(), "party")  # type: ignore[arg-type]
    assert search.stats.stopped is None and all(m.exact for m in full)
    return {m.play: m.value for m in full}


def test_a_python_search_that_meets_the_budget_stops_with_sound_bounds(
    tight: None, plain: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _party_round()
    search = Search(root, "party")  # type: ignore[arg-type]
    assert search.mode == "plain"
    with pytest.raises(Budget):
        search.value(root)  # type: ignore[arg-type]
    assert search.stats.stopped == "memory"
    assert len(search.table) <= search.max_entries + 64  # (and what the nodes on the way up stored)
    lo, hi = search.bounds(root)  # type: ignore[arg-type]
    exact = max(_exact_moves(monkeypatch).values())
    assert lo - 1e-9 <= exact <= hi + 1e-9


def test_every_move_keeps_sound_bounds_when_the_budget_runs_out(
    tight: None, plain: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _party_round()
    cut, search = evaluate_moves(root, "party")  # type: ignore[arg-type]
    assert search.stats.stopped == "memory" and not all(m.exact for m in cut)
    truth = _exact_moves(monkeypatch)
    for m in cut:
        assert m.lo - 1e-9 <= truth[m.play] <= m.hi + 1e-9, m


def test_a_hint_that_meets_the_budget_says_so_and_claims_no_proof(tight: None, plain: None) -> None:
    pos = parse_position(
        {
            "player": [3, 7, 9, 1],
            "wolf": [6, 2, 5, 8],
            "discard": [1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7],
            "draw_pile": {"size": 9},
            "final": False,
            "objective": "party",
        }
    )
    h = hint(pos, max_states=10**9, samples=50)  # (the estimates' deals, by the plain rollouts: few)
    assert not h.exact and h.status == "open" and h.proof is None
    assert h.stats.get("stopped") == "memory"


def test_the_compiled_search_gives_exact_values_in_a_table_that_may_not_grow(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table the budget will not let double keeps its size and replaces entries; the search
    still finds every exact value (the table is a cache, not a store of truths)."""
    from solver.search import engine

    monkeypatch.setenv("LOBO_HINT_ENGINE", "compiled")
    rng = random.Random("fixed table")
    for _ in range(4):
        deck = [v for v in range(1, 10) for _ in range(4)]
        rng.shuffle(deck)
        pile = rng.choice([8, 9])
        root = state(player=deck[:4], wolf=deck[4:8], discard=deck[8 + pile :], draw_pile={"size": pile}, final=False)
        full, _ = evaluate_moves(root, "win")
        with monkeypatch.context() as m:
            m.setattr(engine, "_affordable", lambda capacity, nbytes, words: 1024)
            m.setattr(engine, "_doubled", lambda keys, vals: None)
            small, search = evaluate_moves(root, "win")
        assert search.mode == "compiled" and search.tk.shape[0] == 1024 and search.fixed
        assert all(m.exact for m in small)
        truth = {m.play: m.value for m in full}
        assert all(abs(m.value - truth[m.play]) < 1e-9 for m in small)


def test_a_table_doubles_only_while_the_budget_has_room_for_it() -> None:
    from solver.search import engine
    from solver.search.hashtable import new_table

    keys, vals = new_table(1 << 16, 3)  # 2.5 MiB; doubled, 5 MiB
    memory.let_go()
    memory.set_limit(memory.resident() + 8 * 1024**2)
    try:
        assert engine._doubled(keys, vals) is None
    finally:
        memory.set_limit(None)
    bigger = engine._doubled(keys, vals)
    assert bigger is not None and bigger[0].shape[0] == 1 << 17 and bigger[0].shape[1] == 3
    assert engine._affordable(1 << 21, 10 * 1024**2, 3) == 1 << 18  # 10 MiB: the largest that fits in 10


@pytest.mark.parametrize("threads", [1, 2])
def test_a_table_is_not_doubled_when_the_clock_has_not_the_time(monkeypatch: pytest.MonkeyPatch, threads: int) -> None:
    """A doubling's fresh pages may cost more than the answer's clock has left (engine.FRESH_PAGES):
    then the table is fixed instead, and the search goes on, exact, in it; with no clock it doubles."""
    from solver.search import engine

    monkeypatch.setenv("LOBO_HINT_ENGINE", "compiled")
    monkeypatch.setattr(engine, "_affordable", lambda capacity, nbytes, words: 1 << 14)
    rng = random.Random("no time to double")
    deck = [v for v in range(1, 10) for _ in range(4)]
    rng.shuffle(deck)
    root = state(player=deck[:4], wolf=deck[4:8], discard=deck[16:], draw_pile={"size": 8}, final=False)
    free, search = evaluate_moves(root, "win", threads=threads)
    assert search.table[0].shape[0] > 1 << 14  # no clock: doubled
    monkeypatch.setattr(engine, "FRESH_PAGES", 1.0)  # a byte a second: never time to double
    timed, search = evaluate_moves(root, "win", time_limit=60.0, threads=threads)
    assert search.table[0].shape[0] == 1 << 14 and search.fixed
    truth = {m.play: m.value for m in free}
    assert all(m.exact and abs(m.value - truth[m.play]) < 1e-9 for m in timed)


def _address(a: Any) -> int:
    return int(a.__array_interface__["data"][0])


def test_a_table_s_memory_serves_the_next_table_only_once_no_view_of_it_lives() -> None:
    """Kept memory (memory.zeroed) is handed out again zeroed, and never while a table on it
    lives: the search's keys and values are views of it, each holding it."""
    memory.let_go()
    rows, cols = 3 << 15, 5  # 3.75 MiB: kept
    first = memory.zeroed(rows, cols)
    first.fill(7)
    keys, vals = first[:, :3], first.view(np.float64)[:, 3:]
    where = _address(first)
    del first
    second = memory.zeroed(rows, cols)  # the first's keys and values live: fresh memory
    assert _address(second) != where and not np.shares_memory(second, keys)
    del keys
    third = memory.zeroed(rows, cols)  # its values still live
    assert _address(third) != where and not np.shares_memory(third, vals)
    del vals
    assert memory.kept() >= 8 * rows * cols
    fourth = memory.zeroed(rows - 1, cols)  # nothing lives on the first's memory now
    assert _address(fourth) == where and not fourth.any()
    # Twice the size at most: a small table does not take a big piece.
    del fourth
    assert _address(memory.zeroed(rows // 4, cols)) != where
    memory.let_go()
    assert memory.kept() == 0


def test_kept_memory_is_let_go_when_the_budget_needs_the_room() -> None:
    memory.let_go()
    table = memory.zeroed(1 << 20, 4)  # 32 MiB
    table.fill(1)  # every page in memory
    del table
    assert memory.kept() == 32 * 1024**2
    memory.set_limit(memory.resident() + 8 * 1024**2)  # less room than the kept memory holds
    try:
        free = memory.room()
        assert memory.kept() == 0 and free > 32 * 1024**2  # let go: room again
    finally:
        memory.set_limit(None)
    table = memory.zeroed(1 << 20, 4)
    del table
    assert memory.make_room(1024) and memory.kept() == 32 * 1024**2  # room enough: kept
    memory.let_go()


def test_memory_faulted_in_ahead_serves_the_table_it_was_taken_for() -> None:
    """memory.prefault takes a table's memory on a thread of its own; the table made next is on it,
    zeroed, and a second prefault, or one the budget has no room for, takes nothing."""
    memory.let_go()
    rows, cols = 1 << 18, 4  # 8 MiB
    memory.prefault(rows, cols)
    memory.prefault(rows, cols)  # one at a time
    table = memory.zeroed(rows, cols)  # waits for the thread, then takes its memory
    assert memory.kept() == 0 and not table.any()
    where = _address(table)
    table.fill(3)
    del table
    memory.prefault(rows, cols)  # kept memory fits: nothing more taken
    assert memory.kept() == 8 * rows * cols
    again = memory.zeroed(rows, cols)
    assert _address(again) == where and not again.any()
    del again
    memory.let_go()
    memory.set_limit(memory.resident() + 4 * 1024**2)  # no room for 8 MiB
    try:
        memory.prefault(rows, cols)
        assert memory._faulting is None  # no thread started (a small table would not wait for one)
        assert memory.kept() == 0
    finally:
        memory.set_limit(None)


def test_a_fresh_process_faults_its_table_in_while_the_machine_code_loads() -> None:
    """engine.prepare, in a process where the compiled search is not loaded yet, takes the table's
    memory beside the loading: the search's table is then on it."""
    code = """
import numpy as np
from conftest import state
from solver.search import engine, memory
root = state(player=[2, 5, 7, 9], wolf=[3, 4, 6, 8], draw_pile={"size": 13}, final=False)
engine.prepare(root, "game", threads=1, seconds=2.0)
kept = memory.kept()
search = engine.Search(root, "game")
search.cheap(root)
base = search.tk.base
while base.base is not None:
    base = base.base
print(kept > 0, memory.kept() == 0, any(base is b for b in memory._kept))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT / "tests", timeout=300, check=False
    )
    assert done.stdout.split() == ["True", "True", "True"], done.stderr


def test_a_search_done_with_its_table_hands_its_memory_to_the_next_search() -> None:
    """Search.let_go_of_table (the hint's game search, before the round's win search): the next
    search's table is on the same memory, and what the first search still answers it answers."""
    memory.let_go()
    root = state(player=[2, 5, 7, 9], wolf=[3, 4, 6, 8], draw_pile={"size": 13}, final=False)
    first = Search(root, "game")
    before = first.cheap(root)
    where = _address(first.tk.base)
    first.let_go_of_table()
    assert memory.kept() >= memory.table_bytes(first._slots, first.words)
    second = Search(root, "win")
    second.cheap(root)
    assert _address(second.tk.base) == where
    assert first.cheap(root) == before  # on a table made afresh
    assert _address(first.tk.base) != where
    memory.let_go()


def test_a_search_that_only_rolls_out_makes_no_transposition_table() -> None:
    """Rollouts and the lookahead read the memos alone: the table (80 MiB at 13 unknown cards) is
    made at a search's first use of it."""
    root = state(player=[2, 5, 7, 9], wolf=[3, 4, 6, 8], draw_pile={"size": 13}, final=False)
    judge = Search(root, "game")
    judge.rollouts([root], [next(orders_of(root, 0))], dealt=True)
    assert judge.tk is None
    judge.cheap(root)
    assert judge.tk is not None


def test_a_round_start_graph_keeps_to_its_time_limit() -> None:
    import time

    pos = parse_position({"player": [3, 7, 9, 1], "wolf": [6, 2, 5, 8], "final": False})
    lookahead_graph(pos, 1, time_limit=0.1)  # the compiled search loaded
    t0 = time.process_time()
    g = lookahead_graph(pos, 2, time_limit=2.0)
    # CPU time: a busy machine stretches the wall time the search is given, never its CPU time.
    took = time.process_time() - t0
    assert took < 2.0 + 1.0, took
    assert not g.graph["exact"] and g.number_of_nodes() > 1
    for _, a in g.nodes(data=True):
        assert 0.0 <= a["lo"] <= a["hi"] <= 1.0


ROUND_START = {
    "game": "vanguard",
    "difficulty": "standard",
    "player": [3, 7, 9, 1],
    "wolf": [6, 2, 5, 8],
    "final": False,
}
CAP = 3 * 1024**3


def _capped(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """The CLI in a process whose address space is capped at 3 GB (ulimit -v), and its wall time."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))

    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", "from cli.main import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        preexec_fn=cap,
    )
    return done, time.perf_counter() - t0


def test_round_start_hint_and_graph_keep_their_time_limit_under_an_address_space_cap(tmp_path: Path) -> None:
    """The issue's case: a round-start graph --depth 2 grew to 24 GB, and under a 3 GB cap died with a
    traceback. Now both commands answer within the time limit plus a second, with a valid answer.
    The process's own start (the interpreter, and loading the compiled search) is measured apart,
    on a small position that needs the compiled search too."""
    position = tmp_path / "start.json"
    position.write_text(json.dumps(ROUND_START))
    small = tmp_path / "small.json"
    small.write_text(
        json.dumps(
            {
                **ROUND_START,
                "discard": [1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 8, 9, 9, 1, 2, 3, 4, 5, 6, 7],
                "draw_pile": {"size": 8},
            }
        )
    )
    started, overhead = _capped(str(small), "--json", "--time-limit", "5")
    assert started.returncode == 0, started.stderr
    limit = 3.0
    hinted, took = _capped(str(position), "--json", "--time-limit", str(limit))
    assert hinted.returncode == 0 and "Traceback" not in hinted.stderr, hinted.stderr
    answer = json.loads(hinted.stdout)
    assert answer["exact"] is False and answer["status"] == "open" and answer["best"] is not None
    assert answer["stats"]["seconds"] <= limit + 1.0
    assert took <= limit + 1.0 + overhead, (took, overhead)
    out = tmp_path / "tree.json"
    drawn, took = _capped("graph", str(position), "--depth", "2", "--time-limit", str(limit), "-o", str(out))
    assert drawn.returncode == 0 and "Traceback" not in drawn.stderr, drawn.stderr
    g = json.loads(out.read_text())
    assert g["graph"]["seconds"] <= limit + 1.0
    assert took <= limit + 1.0 + overhead, (took, overhead)
    assert all(0.0 <= n["lo"] <= n["hi"] <= 1.0 for n in g["nodes"])


def test_a_memory_budget_on_the_command_line_is_the_budget_of_every_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--max-memory sets the budget of the process and of the workers it starts (through the
    environment); an unreadable budget, given or in the environment, is one line and exit 2."""
    from typer.testing import CliRunner

    from cli.main import app

    position = tmp_path / "small.json"
    position.write_text(
        json.dumps(
            {
                **ROUND_START,
                "discard": [1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 8, 9, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9],
                "draw_pile": {"size": 6},
            }
        )
    )
    monkeypatch.delenv(memory.ENV, raising=False)
    try:
        done = CliRunner().invoke(app, ["hint", str(position), "--json", "--max-memory", "80M", "-t", "1"])
        assert done.exit_code == 0, done.output
        assert memory.limit() == 80 * 1024**2 and os.environ[memory.ENV] == str(80 * 1024**2)
    finally:
        memory.set_limit(None)
        os.environ.pop(memory.ENV, None)  # (not monkeypatch: it would put the 80M back at teardown)
    run = [sys.executable, "-c", "from cli.main import main; main()"]
    bad = subprocess.run([*run, str(position), "--max-memory", "lots"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--max-memory" in bad.stderr
    env = {**os.environ, memory.ENV: "lots"}
    bad = subprocess.run([*run, str(position)], capture_output=True, text=True, cwd=ROOT, env=env)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and memory.ENV in bad.stderr


def test_a_failed_allocation_in_the_compiled_search_stops_it_as_the_budget_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At an address-space cap, an allocation inside compiled code fails as MemoryError, or as a
    SystemError with no exception set when numba has no memory left to raise it with. Either stops
    the search with its bounds (`stopped: memory`); a SystemError while memory is plentiful is a
    real fault and is not hidden."""
    from solver.search import compiled

    monkeypatch.setenv("LOBO_HINT_ENGINE", "compiled")
    compiled.warm_up()  # (before its search is replaced by one that fails)
    root = state(
        player=[3, 7, 9, 1], wolf=[6, 2, 5, 8], discard=list(range(1, 10)) * 2, draw_pile={"size": 10}, final=False
    )
    for error, exhausted, stops in (
        (MemoryError(), False, True),
        (SystemError(), True, True),
        (SystemError(), False, False),
    ):

        def fail(*args: object, error: BaseException = error) -> None:
            raise error

        with monkeypatch.context() as m:
            m.setattr(compiled.expectimax, "search", fail)
            m.setattr(memory, "nearly_exhausted", lambda exhausted=exhausted: exhausted)
            search = Search(root, "win")
            assert search.mode == "compiled"
            if stops:
                with pytest.raises(Budget):
                    search.value(root)
                assert search.stats.stopped == "memory"
                assert search.bounds(root) == (0.0, 1.0)
            else:
                with pytest.raises(SystemError):
                    search.value(root)
