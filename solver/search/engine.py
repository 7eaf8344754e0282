"""The hint engine's search: exact expectimax over the rest of a round, with sound pruning, a
transposition table and budgets of time, states and memory.

The search itself is written once (solver/search/expectimax.py, over the rules kernel
solver/core/kernel.py) and runs in one of two modes:

  * plain Python, for a small search: no compiled code to load (that takes 0.7 s in a new
    process, and numba itself a good part of it), and a dict for its table;
  * compiled by numba (solver/search/compiled.py), for a big one: some 20 to 50 times quicker a
    state, with an open-addressing table sized against the memory budget.

This module is the driver both share: it turns States into the kernel's vectors (hand and
reserve as one where the objective allows), gives the search its budget in chunks (so that a
deadline is kept, and a table that asks to grow can grow between two chunks), keeps the counts,
and stops as a budget says: time, states or memory (solver/search/memory.py). Values are
exactly those of the plain search; the tests run both modes against the reference expectimax.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from solver.core import kernel
from solver.core.cover import counts as _counts
from solver.core.cover import min_sacrifices, sure_cover
from solver.core.games import game
from solver.core.objectives import GAME_CODE, Objective, searched
from solver.core.plays import SEARCH_RANK, Play
from solver.core.rules import (
    LOST,
    WON,
    State,
    apply,
    apply_outcome,
    chance_outcomes,
    legal_plays,
    sacrifices_allowed,
    vector,
)
from solver.parallel.workers import usable_cores
from solver.search import evaluator, machine_code, memory, playouts, rollout_policy, tables
from solver.search import expectimax as plain

EPS = 1e-12
# A table entry with its share of the caches it fills: measured at about 600 bytes for the
# Python search's tuples; counted high, so that the memory budget holds.
ENTRY_BYTES = 1024
# States per call of the search while a clock runs: some 0.05 s compiled, so that a deadline is
# overrun by no more; the plain search is slower a state, so it checks more often.
CHUNK = {"compiled": 20_000, "plain": 1_000}  # the most states a chunk, while a clock runs
FIRST_CHUNK = {"compiled": 1_000, "plain": 100}  # the first: a short clock is not overrun by it
# Under a state budget, in either mode: the first chunk and the most, doubling between (a schedule
# of states alone, so that the plain and compiled searches buy the same with the same budget).
BUDGET_CHUNKS = (1_000, 20_000)
CHUNK_SECONDS = 0.05
MEMO_SLOTS = 1 << 21  # the most slots of a shared memo: 64 MiB (cover), 80 MiB (next deals)
STATES_A_SECOND = 3_000_000  # more than the compiled search ever takes (bench/README.md: 0.2-1.5M)
# What a doubled table's fresh pages may cost, bytes a second: 0.3-0.4 GB/s on the test machine
# (bench/README.md, session 22). A table is not doubled when its answer's clock has not the time
# for that: it is fixed instead (it replaces entries), rather than answer late.
FRESH_PAGES = 300_000_000
# Below this many unknown cards in the pile the plain search answers before the compiled one
# would have loaded (about 0.7 s for numba and the cached machine code), unless it is loaded.
COMPILED_FROM = 8
# ...but a plain search that outgrows this many states hands over to the compiled one, whose
# machine code is then loaded (if cached: a load, not a first compile), 12 times faster a state.
HANDOVER = 5_000


class Budget(Exception):
    """Raised by the driver when the time, state or memory budget runs out; what the search had
    learnt is in its table as bounds (lo, hi)."""

    def __init__(self, lo: float | None = None, hi: float | None = None) -> None:
        super().__init__()
        self.lo, self.hi = lo, hi


@dataclass
class Stats:
    states: int = 0
    tt_hits: int = 0
    chance_nodes: int = 0
    cutoffs: int = 0
    seconds: float = 0.0
    # What last cut the search short: "time", "states" or "memory" (None: nothing did).
    stopped: str | None = None

    def add(self, other: Stats) -> None:
        """Count another search's work in these (the second thread's of a search on two cores)."""
        self.states += other.states
        self.tt_hits += other.tt_hits
        self.chance_nodes += other.chance_nodes
        self.cutoffs += other.cutoffs

    def to_json(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {
            "states": self.states,
            "cache_hits": self.tt_hits,
            "chance_nodes": self.chance_nodes,
            "cutoffs": self.cutoffs,
            "seconds": round(self.seconds, 4),
        }
        if self.stopped is not None:
            out["stopped"] = self.stopped
        return out


ENGINES = ("auto", "python", "compiled")


def _engine_choice() -> str:
    choice = os.environ.get("LOBO_HINT_ENGINE", "auto")
    if choice not in ENGINES:
        _unknown_engine(choice)
        return "auto"
    return choice


@functools.cache
def _unknown_engine(choice: str) -> None:
    """Said once a process: a setting that does nothing should not pass in silence."""
    logging.getLogger("lobo_hint").warning(
        f"lobo-hint: LOBO_HINT_ENGINE={choice} is not one of {', '.join(ENGINES)}: the search chooses for itself"
    )


def _wants_compiled(root: State) -> bool:
    choice = _engine_choice()
    if choice == "python":
        return False
    return choice == "compiled" or root.unknown_draws >= COMPILED_FROM or "solver.search.compiled" in sys.modules


_UNAVAILABLE: list[str] = []  # why the compiled search could not load, once known: not tried again


def warm_up(notice: bool = True) -> None:
    """Load the compiled search before an answer needs it (the companion and the server, while a
    player is at the table), unless the plain search is asked for."""
    if _engine_choice() != "python":
        _compiled_module(notice)


def _compiled_module(notice: bool = True) -> Any:
    """The compiled search, loaded (None where numba cannot load: the plain one then answers,
    and the warning is said once a process, not at every search)."""
    if _UNAVAILABLE:
        return None
    try:
        from solver.search import compiled

        compiled.warm_up(notice)
        return compiled
    except Exception as e:  # pragma: no cover - numba missing, or no place to cache machine code
        _UNAVAILABLE.append(str(e))
        logging.getLogger("lobo_hint").warning(
            f"lobo-hint: the compiled search is unavailable ({e}); searching in Python"
        )
        return None


def compiled_kernel() -> Any:
    """The rules kernel compiled (its cover some thousand times quicker at 16 cards a side than
    the plain one), or None where the plain search is asked for or numba cannot load."""
    if _engine_choice() == "python":
        return None
    module = _compiled_module()
    return None if module is None else module.kernel


def compiled_for(root: State) -> bool:
    """Whether a search from this root runs compiled (the compiled search loaded if so)."""
    return _wants_compiled(root) and _compiled_module() is not None


def prepare(
    root: State, objective: str, threads: int = 1, seconds: float | None = None, max_states: int | None = None
) -> None:
    """Load the compiled search now if a search from this root will use it. Where it is not loaded
    yet (a fresh process), the memory of the table such a search wants (for these threads, at
    most these seconds and states) is faulted in on another thread meanwhile."""
    if not _wants_compiled(root):
        return
    if "solver.search.compiled" not in sys.modules:
        words = kernel.search_words(vector(root))
        memory.prefault(_slots(root, threads, seconds, max_states, words, memory.room()), words + 2)
    _compiled_module()


def value_range(state: State, objective: str) -> tuple[float, float]:
    """Bounds every terminal value reachable from this state lies within."""
    return searched(objective).value_range(state)


@dataclass
class Search:
    """One search from one root: the objective fixes the value of every end of the round.

    value(s) for any state of the round (the root's descendants, or a state like them); bounds(s)
    what is known of it; cheap(s) bounds without searching. Budget is raised when a budget runs
    out, and stats.stopped says which."""

    root: State
    objective: str
    max_states: int | None = None
    deadline: float | None = None
    stats: Stats = field(default_factory=Stats)
    # lobo under `game`: the points each side has scored so far, and the target of the race.
    scores: tuple[int, int] = (0, 0)
    target: int = 100
    # Compiled only: a table shared with a search in another thread (shared_table.py), and
    # whether this search tries a node's plays last first (expectimax.P_REVERSED).
    shared: Any = None
    reversed_order: bool = False
    # How many threads will search this root's table: it is sized for their states.
    threads: int = 1
    # A `win` search whose table a `game` search will read (tagged: expectimax.P_TAGGED), or a
    # `game` search that reads such a search's bounds (win_bound: expectimax.P_WIN_BOUND) in the
    # table it starts from (`start`: the other search's `table`, entries and all).
    tagged: bool = False
    win_bound: bool = False
    start: Any = None

    def __post_init__(self) -> None:
        self.goal: Objective = searched(self.objective)
        if self.goal.code is None:  # pragma: no cover - every searched objective has a code
            raise ValueError(f"the search has no objective {self.objective!r}")
        self.lo, self.hi = self.goal.value_range(self.root)
        self._late_for: float | None = None  # a deadline seen passed: every later call stops at once
        # The answer's deadline (`deadline` may be a play's share of it, set by _evaluate).
        self.due = self.deadline
        module = _compiled_module() if _wants_compiled(self.root) else None
        if self.start is not None:  # the mode of the table it starts from (a dict: plain)
            module = None if isinstance(self.start, dict) else _compiled_module()
        self.mode = "plain" if module is None else "compiled"
        # States per call while a clock runs, or under a state budget (_pace).
        self._chunk = BUDGET_CHUNKS[0] if self.max_states is not None else FIRST_CHUNK[self.mode]
        self.words = kernel.search_words(vector(self.root))
        room = memory.room()
        if module is None:
            self.k: Any = kernel
            self.x: Any = plain
            self.po: Any = playouts
            self.par: Any = [0] * plain.PARAMS
            self.fpar: Any = [self.lo, self.hi]
            self.ctr: Any = [0] * plain.COUNTERS
            self.no_key: Any = [-1]  # the root's key is the search's to make (expectimax.search: kin)
            # The plain tables are dicts: at most this many entries (memory.py's room now).
            self.max_entries = max(1 << 12, room // ENTRY_BYTES)
            self.tk: Any = {} if self.start is None else self.start
            self.tv: Any = [self.max_entries]
            self.ev: Any = evaluator.table() if self.goal.code == GAME_CODE else [0.0]
        else:
            import numpy as np

            self.k, self.x, self.po = module.kernel, module.expectimax, module.playouts
            self.par = np.zeros(plain.PARAMS, np.int64)
            self.fpar = np.array([self.lo, self.hi], np.float64)
            self.ctr = np.zeros(plain.COUNTERS, np.int64)
            self.no_key = np.full(1, -1, np.int64)
            # Under a state budget the table is sized by it alone: by the clock left, its size (and
            # which entries are replaced) would depend on the machine.
            timed = self.deadline is not None and self.max_states is None
            seconds = self.deadline - time.perf_counter() if timed and self.deadline is not None else None
            # Made at its first use (_tables): rollouts and the lookahead read the memos alone.
            self._slots = _slots(self.root, self.threads, seconds, self.max_states, self.words, room)
            self.tk = self.tv = None
            self.max_entries = self._slots
            if self.shared is not None:
                self.tk, self.tv = self.shared.keys, self.shared.vals
            elif self.start is not None:
                self.tk, self.tv = self.start
                self.ctr[plain.FILLED] = int(np.count_nonzero(self.tk[:, -1]))
                self.max_entries = self.tk.shape[0]
            self.ev = evaluator.array() if self.goal.code == GAME_CODE else np.zeros(1, np.float64)
        # The cover memo and the next deals' table hold pure functions of their keys: one pair a
        # thread and mode, kept from search to search (a whole game's decisions meet the same
        # covers and deals again and again).
        self._memos = _memos(self.mode, room)
        self._arena = self._memos.arena
        self.mk, self.mv, self.dk, self.dv = self._memos.tables
        self._enter()
        self.par[plain.P_OBJECTIVE] = self.goal.code
        self.par[plain.P_ROOT_ACTIVE] = len(self.root.party)
        self.par[plain.P_MERGE] = int(self.goal.merges_reserve)
        self.par[plain.P_WORDS] = self.words
        self.par[plain.P_SCORE_P], self.par[plain.P_SCORE_W] = self.scores
        self.par[plain.P_TARGET] = self.target
        self.par[plain.P_REVERSED] = int(self.reversed_order)
        self.par[plain.P_TAGGED] = int(self.tagged)
        self.par[plain.P_WIN_BOUND] = int(self.win_bound)
        # How rollouts from this root play (the estimates' and the rewards': solver/search/rollout_policy.py).
        self.policy: tuple[float, ...] = rollout_policy.weights(self.root, self.objective)
        self._seen = (0, 0, 0, 0)

    # -- the state as the search sees it -----------------------------------------------------------

    def _vec(self, s: State) -> Any:
        st = vector(s)
        if kernel.search_words(st) > self.words:
            raise ValueError("a state with more known top cards than its search's root")
        if not kernel.key_fits(st):  # then none of its round's states would pack into a key
            raise ValueError("a position with more copies of a value than a table key holds")
        if self.goal.merges_reserve:  # which pays never changes this objective's values
            for i in range(10):
                st[kernel.HAND + i] += st[kernel.RESERVE + i]
                st[kernel.RESERVE + i] = 0
        if self.mode == "compiled":
            import numpy as np

            return np.array(st, np.int64)
        return st

    # -- budgets -----------------------------------------------------------------------------------

    def stop(self, why: str) -> NoReturn:
        """Cut the search short (raises Budget), saying why in the stats."""
        self.stats.stopped = why
        raise Budget

    @property
    def chunked(self) -> bool:
        """Whether the search runs in chunks of states: while a clock runs (it is looked at between
        chunks), and under a state budget, clock or not, so that what a budget buys does not
        depend on whether a clock that never binds was given (a chunk's end and the search taken
        up again change which states the budget counts)."""
        return self.deadline is not None or self.max_states is not None

    @property
    def paced(self) -> bool:
        """Whether a chunk counts the next deals' enumerations too, and stops one part-way
        (expectimax.PACED): under a clock alone. Under a state budget a chunk is states only, so
        that where it ends does not depend on which enumerations the memo already held (a
        process's earlier searches): the same answer in a fresh process and in a long one."""
        return self.deadline is not None and self.max_states is None

    def _pace(self, took: float) -> None:
        # Under a state budget the chunks grow by a rule of their own, never by the clock: the
        # same states a chunk on any machine, under any load, so the same answer every run.
        if self.max_states is not None:
            self._chunk = min(BUDGET_CHUNKS[1], 2 * self._chunk)
        else:
            self._chunk = _paced(self._chunk, took, CHUNK[self.mode])

    def _count(self) -> int:
        """The search's counts join the stats; returns the states it took since the last count."""
        c = self.ctr
        now = (int(c[plain.STATES]), int(c[plain.HITS]), int(c[plain.CHANCE]), int(c[plain.CUTOFFS]))
        st = self.stats
        used = now[0] - self._seen[0]
        st.states += used
        st.tt_hits += now[1] - self._seen[1]
        st.chance_nodes += now[2] - self._seen[2]
        st.cutoffs += now[3] - self._seen[3]
        self._seen = now
        return used

    def _grow(self) -> None:
        """Double a table that asked for it while the memory budget has room for the doubled one
        (the old one is held while its entries are copied); otherwise it is fixed at its size and
        goes on by replacing entries (hashtable.put)."""
        from solver.search.hashtable import wants_growth

        c = self.ctr
        if not c[plain.GROW] and not c[plain.MEMO_GROW]:
            return
        c[plain.GROW] = 0
        c[plain.MEMO_GROW] = 0
        if (
            self.tk is not None
            and self.shared is None
            and wants_growth(int(c[plain.FILLED]), self.tk.shape[0])
            and not c[plain.FIXED]
        ):
            bigger = _doubled(self.tk, self.tv) if self._may_double() else None
            if bigger is None:
                c[plain.FIXED] = 1
            else:
                self.tk, self.tv = bigger
                self.max_entries = self.tk.shape[0]
        # The memos outlive the search (a thread's searches share them): they stop at MEMO_SLOTS
        # and go on by replacement, so a long simulation does not keep the budget's worth of them.
        if wants_growth(int(c[plain.MEMO_FILLED]), self.mk.shape[0]) and not c[plain.MEMO_FIXED]:
            bigger = _doubled(self.mk, self.mv) if self.mk.shape[0] < MEMO_SLOTS else None
            if bigger is None:
                c[plain.MEMO_FIXED] = 1
            else:
                self.mk, self.mv = bigger
        if wants_growth(int(c[plain.DEAL_FILLED]), self.dk.shape[0]) and not c[plain.DEAL_FIXED]:
            bigger = _doubled(self.dk, self.dv) if self.dk.shape[0] < MEMO_SLOTS else None
            if bigger is None:
                c[plain.DEAL_FIXED] = 1
            else:
                self.dk, self.dv = bigger

    def _enter_shared(self) -> tuple[int, int]:
        """Before a chunk of a search that shares its table: the table as it is now, and the
        count of its entries set so that the chunk stores no more than its share; (start, share)."""
        if self.shared is None:
            return 0, 0
        c = self.ctr
        got = self.shared.enter()
        if got is None:  # the table is fixed: its owner's search goes on alone
            self.stop("memory")
        self.tk, self.tv, start, share, fixed = got
        c[plain.FILLED], c[plain.FIXED] = start, fixed
        self.max_entries = self.tk.shape[0]
        return start, share

    def _leave_shared(self, got: tuple[int, int]) -> None:
        """After such a chunk: its new entries counted, the table doubled if it asked (_grow then
        leaves the table to the shared one, and grows only the thread's memos)."""
        if self.shared is None:
            return
        c = self.ctr
        start, share = got
        wants_more = bool(c[plain.GROW])
        c[plain.GROW] = 0
        self.shared.leave(int(c[plain.FILLED]) - start, share, wants_more, may_grow=self._may_double())
        self.tk, self.tv = self.shared.keys, self.shared.vals
        self.max_entries = self.tk.shape[0]

    def _may_double(self) -> bool:
        """Whether the answer's clock leaves time for the table's doubling (FRESH_PAGES)."""
        if self.due is None or not math.isfinite(self.due) or self.tk is None:
            return True
        return time.perf_counter() + memory.table_bytes(2 * self.tk.shape[0], self.words) / FRESH_PAGES < self.due

    def _grow_arena(self) -> None:
        """Make the arena twice what a big node asked for (expectimax.ARENA_I), within the memory
        budget; the search then goes on from where that node stopped it."""
        c = self.ctr
        need_i, need_f = int(c[plain.NEED_I]), int(c[plain.NEED_F])
        c[plain.NEED_I] = c[plain.NEED_F] = 0
        ih, fh = self._arena
        words_i, words_f = max(len(ih), 2 * need_i), max(len(fh), 2 * need_f)
        from solver.search.shared_table import SPARE

        if not memory.make_room(8 * (words_i + words_f) + SPARE):
            self.stop("memory")
        import numpy as np  # compiled mode only: the plain arena is never short of room

        self._arena[:] = np.zeros(words_i, np.int64), np.zeros(words_f, np.float64)

    @property
    def table(self) -> Any:
        """The transposition table: a dict in plain mode, (keys, values) arrays compiled."""
        self._tables()
        return self.tk if self.mode == "plain" else (self.tk, self.tv)

    def let_go_of_table(self) -> None:
        """Drop the compiled transposition table (made afresh if the search goes on): its memory
        then serves the next search's table (memory.zeroed) rather than that one taking fresh
        pages beside it. The memos, and with them terminal() and own_error(), stay."""
        if self.mode == "compiled":
            self.tk = self.tv = self.shared = None

    @property
    def estimated(self) -> bool:
        """Whether some end of a round was valued by the evaluator (objective `game` beyond the
        exact horizon): the values are then estimates, however far the search went."""
        return bool(self.ctr[plain.ESTIMATED])

    @property
    def error(self) -> float:
        """The largest standard error of the evaluator's values this search read (0.0: none read):
        a value made of them, by averages and maxima, is off by no more than that in error."""
        return float(self.ctr[plain.ERROR]) / 1e6

    def count_reads_of(self, other: Search) -> None:
        """Count another search's reads of the evaluator as this one's: the second thread's values
        sit in the table this search shares, and its answer rests on them (estimated, error)."""
        self.ctr[plain.ESTIMATED] += int(other.ctr[plain.ESTIMATED])
        self.ctr[plain.ERROR] = max(int(self.ctr[plain.ERROR]), int(other.ctr[plain.ERROR]))

    def own_error(self, s: State) -> tuple[bool, float]:
        """For an ended round s: whether its value reads the evaluator, and the largest standard
        error among the values it reads (its own, not the whole search's: `error`). Sound because
        an end's reads of the evaluator are never memoized (expectimax.next_deal reads beyond the
        exact horizon straight from the table). Raises Budget as terminal does."""
        if s.outcome is None:
            raise ValueError("own_error: not an ended round")
        c = self.ctr
        before = int(c[plain.ESTIMATED]), int(c[plain.ERROR])
        stopped = self.stats.stopped  # an overrun here does not make the search's answer cut short
        c[plain.ESTIMATED] = c[plain.ERROR] = 0
        try:
            self.terminal(s)
            return bool(c[plain.ESTIMATED]), float(c[plain.ERROR]) / 1e6
        finally:
            c[plain.ESTIMATED] += before[0]
            c[plain.ERROR] = max(before[1], int(c[plain.ERROR]))
            self.stats.stopped = stopped

    @property
    def fixed(self) -> bool:
        """Whether the memory budget stopped this search's transposition table from growing (it
        then replaces entries). The memos are the thread's, not the search's: they may have been
        fixed by an earlier search, or by their own cap (MEMO_SLOTS)."""
        return bool(self.shared.fixed if self.shared is not None else self.ctr[plain.FIXED])

    @property
    def table_bytes(self) -> int:
        if self.mode == "plain":
            return ENTRY_BYTES * (len(self.tk) + len(self.mk))
        return memory.table_bytes(0 if self.tk is None else self.tk.shape[0], self.words) + memory.table_bytes(
            self.mk.shape[0], 2
        )

    # -- values ------------------------------------------------------------------------------------

    def _tables(self) -> tuple[Any, ...]:
        """What the search reads: its transposition table (made here at its first use), then _memo_tables."""
        if self.tk is None:
            from solver.search import hashtable

            self.tk, self.tv = hashtable.new_table(self._slots, self.words)
        return self.tk, self.tv, *self._memo_tables()

    def _memo_tables(self) -> tuple[Any, ...]:
        """The memos, the evaluator and the counters: all that rollouts and the lookahead read."""
        return self.mk, self.mv, self.dk, self.dv, self.ev, self.ctr

    def terminal(self, s: State) -> float:
        """The value of an ended round. Raises Budget when the clock runs out first (under `game`
        it may be a next deal's enumeration: _ends)."""
        st = self._vec(s)
        v = self._ends(lambda: self.x.terminal(st, self.par, *self._memo_tables()))
        if v is None:
            self.stop("memory" if memory.spent() else "time")
        return float(v)

    def _ends(self, call: Callable[[], Any]) -> Any:
        """A call into the search that may value ends of rounds, which under `game` may each be a
        whole next deal's enumeration (expectimax.next_deal). With no clock, or under a state
        budget (paced), it runs to its end. Under a clock alone it runs in chunks (the enumeration stops past a chunk's budget and goes on
        in the next call) until it is done, or returns None once the clock has run out; past
        the deadline it only reads what is known (one probe)."""
        c = self.ctr
        while True:
            late = self.deadline is not None and time.perf_counter() > self.deadline
            c[plain.PACED] = int(self.paced)
            c[plain.LIMIT] = int(c[plain.STATES]) + int(c[plain.WORK]) + (0 if late else self._chunk)
            c[plain.STOPPED] = 0
            began = time.perf_counter()
            self._enter()
            r = call()
            self._after()
            if not c[plain.STOPPED]:
                return r
            if late or memory.spent():
                return None
            self._pace(time.perf_counter() - began)

    def final_value(self, s: State) -> float:
        """A vanguard final round at a decision point: nothing more is drawn."""
        self._enter()
        v = self.x.final_value(self._vec(s), self.par, self.mk, self.mv, self.ctr)
        self._after()
        return float(v)

    def bounds(self, s: State) -> tuple[float, float]:
        """What is known of a state's value: its end, or the table's bounds, or the whole range
        (an end whose valuing the clock cut short, too: _ends)."""
        st = self._vec(s)
        got = self._ends(lambda: self.x.bounds(st, self.par, self.fpar, *self._tables()))
        lo, hi = (self.lo, self.hi) if got is None else got
        return float(lo), float(hi)

    def cheap(self, s: State) -> tuple[float, float]:
        """Bounds on a state's value without searching it (expectimax.cheap)."""
        st = self._vec(s)
        got = self._ends(lambda: self.x.cheap(st, self.par, self.fpar, *self._tables()))
        lo, hi = (self.lo, self.hi) if got is None else got
        return float(lo), float(hi)

    def rollouts(
        self,
        children: list[State],
        orders: list[tuple[int, ...]],
        dealt: bool = False,
        policy: Sequence[float] | None = None,
    ) -> tuple[list[list[float]], list[list[float]]]:
        """Each order of the unknown cards played out by the rollout policy from each child
        (solver/search/playouts.py): per child, its values and its win outcomes (1.0 / 0.0), one
        a deal in the orders' order. dealt: each child is a round still to be dealt (both hands
        empty), dealt from the order first. policy: the policy's weights (kernel.policy_score),
        by default the root's (self.policy: rollout_policy.weights)."""
        w = list(self.policy if policy is None else policy)
        if len(w) != kernel.RP_SIZE:
            raise ValueError(f"a rollout policy has {kernel.RP_SIZE} weights, not {len(w)}")
        width = len(orders[0]) if orders else 0
        flat: list[int] = []
        for child in children:
            self._vec(child)  # its checks only: the rollouts take the state as it is
            flat += vector(child)
        cards = [v for order in orders for v in order] or [0]
        n, deals = len(children), len(orders)
        self.ctr[plain.PACED] = 0  # the rollouts deal their next deals (playouts.py): nothing to pace
        self.ctr[plain.STOPPED] = 0
        self._enter()
        if self.mode == "compiled":
            import numpy as np

            from solver.search.compiled import loading

            values, wins = np.zeros(n * deals, np.float64), np.zeros(n * deals, np.float64)
            with loading("rollouts"):  # their machine code loads at their first call
                self.po.rollouts(
                    np.array(flat, np.int64), n, np.array(cards, np.int64), deals, width, self.par,
                    *self._memo_tables(), values, wins, int(dealt), np.array(w, np.float64),
                )  # fmt: skip
            vs, ws = values.tolist(), wins.tolist()
        else:
            vs, ws = [0.0] * (n * deals), [0.0] * (n * deals)
            self.po.rollouts(flat, n, cards, deals, width, self.par, *self._memo_tables(), vs, ws, int(dealt), w)
        self._after()
        return [vs[c * deals : (c + 1) * deals] for c in range(n)], [ws[c * deals : (c + 1) * deals] for c in range(n)]

    def lookahead(self, children: list[State], depth: int, net: Any) -> tuple[list[float], int]:
        """Each child valued by the lookahead (solver/search/lookahead.py): expectimax over `depth`
        plies, the value network `net` (value_net.for_round) at the frontier, its head for this
        search's objective (`game` or `win`). Returns the values and the network reads. No budget
        cuts it short: its cost is fixed by the depth (under `game` an end of the round may be a
        next deal's enumeration, as in the rollouts: nothing to pace)."""
        from solver.search import lookahead as plain_lookahead
        from solver.search import network

        head = network.WIN_HEAD if self.goal.code == plain.WIN else network.GAME_HEAD
        if self.goal.code not in (plain.WIN, GAME_CODE):
            raise ValueError(f"the value network has no head for objective {self.objective!r}")
        flat: list[int] = []
        for child in children:
            self._vec(child)
            flat += vector(child)
        self.ctr[plain.PACED] = 0
        self.ctr[plain.STOPPED] = 0
        self._enter()
        if self.mode == "compiled":
            import numpy as np

            from solver.search import compiled

            out, seen = np.zeros(len(children), np.float64), np.zeros(plain_lookahead.SEEN, np.int64)
            with compiled.loading("lookahead"):  # its machine code loads at its first call
                compiled.lookahead.values(
                    np.array(flat, np.int64), len(children), depth, head, self.par, *self._memo_tables(), net, out, seen
                )
            values, reads = out.tolist(), int(seen[plain_lookahead.READS])
        else:
            values, seen_ = [0.0] * len(children), [0] * plain_lookahead.SEEN
            mk, mv, dk, dv, ev, ctr = self._memo_tables()
            plain_lookahead.values(
                flat, len(children), depth, head, self.par, mk, mv, dk, dv, ev, ctr, list(net), values, seen_
            )
            reads = seen_[plain_lookahead.READS]
        self._after()
        return values, reads

    def _enter(self) -> None:
        """Before a call into the search: the shared memos as they are now (another search of this
        thread may have filled or grown them since)."""
        m, c = self._memos, self.ctr
        self.mk, self.mv, self.dk, self.dv = m.tables
        c[plain.MEMO_FILLED], c[plain.DEAL_FILLED], c[plain.MEMO_FIXED], c[plain.DEAL_FIXED] = m.counts

    def _after(self) -> None:
        """After a call: a table that asked to grow does (compiled), a full dict is cleared of its
        request (plain: it simply took no more); the shared memos take back what changed."""
        c = self.ctr
        if self.mode == "compiled":
            self._grow()
        else:
            c[plain.GROW] = 0
            c[plain.MEMO_GROW] = 0
        self._memos.tables = (self.mk, self.mv, self.dk, self.dv)
        self._memos.counts = (
            int(c[plain.MEMO_FILLED]),
            int(c[plain.DEAL_FILLED]),
            int(c[plain.MEMO_FIXED]),
            int(c[plain.DEAL_FIXED]),
        )

    def value(self, s: State, alpha: float | None = None, beta: float | None = None) -> float:
        """The state's value if it lies inside (alpha, beta) by more than EPS; otherwise a bound on
        the side it fell (an upper bound at or below alpha + EPS, a lower bound at or above
        beta - EPS). Raises Budget when a budget runs out first (its bounds are in the table)."""
        a = self.lo if alpha is None else alpha
        b = self.hi if beta is None else beta
        if s.outcome is not None:
            return self.terminal(s)
        st = self._vec(s)
        c = self.ctr
        while True:
            # Chunks while a clock runs, so that it is looked at (and under a state budget: paced),
            # and while a table is shared, so that it can grow between chunks (not once it is fixed: the search then runs alone,
            # and a chunk's partial results could be replaced before the next chunk uses them).
            chunked = self.chunked or (self.shared is not None and not self.shared.fixed)
            if self.deadline is not None and (self._late_for == self.deadline or time.perf_counter() > self.deadline):
                # Checked before a chunk too: a caller past its deadline gets an answer at once,
                # not after another chunk of states (the graph asks once for each of its nodes).
                self._late_for = self.deadline
                self.stop("time")
            if memory.spent():
                self.stop("memory")
            done = int(c[plain.STATES]) + int(c[plain.WORK])
            c[plain.PACED] = int(chunked and (self.paced or self.max_states is None))
            limit = done + (self._chunk if chunked else 1 << 62)
            if self.max_states is not None:
                # With no state left the search still answers from its table (a state it knows).
                limit = min(limit, done + max(0, self.max_states - self.stats.states))
            c[plain.LIMIT] = limit
            c[plain.STOPPED] = 0
            c[plain.ARENA_I] = c[plain.ARENA_F] = 0
            began = time.perf_counter()
            self._enter()
            share = self._enter_shared()
            try:
                v = self.x.search(st, a, b, self.par, self.fpar, *self._tables(), *self._arena, self.no_key)
            except (MemoryError, SystemError) as e:
                # An allocation inside the compiled search failed (an address-space cap the budget
                # did not leave room under): what the tables hold is sound, so the search stops as
                # at a time limit. A SystemError is that only when memory is nearly gone (memory.py).
                if isinstance(e, SystemError) and not memory.nearly_exhausted():
                    raise
                self._leave_shared(share)
                self._count()
                self._after()
                self.stop("memory")
            self._leave_shared(share)
            self._count()
            if c[plain.NEED_I] or c[plain.NEED_F]:
                self._grow_arena()
            full = bool(c[plain.GROW])  # the transposition table asked to grow
            # A table three quarters full is doubled (or fixed) here, and the search goes on where it stopped.
            self._after()
            if chunked:
                self._pace(time.perf_counter() - began)
            if not c[plain.STOPPED]:
                return float(v)
            if self.max_states is not None and self.stats.states >= self.max_states:
                self.stop("states")
            if full and self.mode == "plain":
                self.stop("memory")  # its dict is full: it cannot grow past the budget


class _Memos:
    """The cover memo and the next deals' table of one mode in one thread, with their counts
    (filled, filled, fixed, fixed): a search takes them up at each call and hands them back; and
    the thread's arena for big nodes."""

    def __init__(self, mode: str, room: int) -> None:
        if mode == "plain":
            most = max(1 << 12, min(room // ENTRY_BYTES, MEMO_SLOTS // 2))
            self.tables: tuple[Any, Any, Any, Any] = ({}, [most], {}, [most])
        else:
            from solver.search import hashtable

            # Started at 1 MiB and 160 KiB; grown between calls while the budget allows.
            mk, mv = hashtable.new_table(_affordable(1 << 15, room // 16, 2), 2)
            dk, dv = hashtable.new_table(_affordable(1 << 12, room // 16, 3), 3)
            self.tables = (mk, mv, dk, dv)
        self.counts = (0, 0, 0, 0)
        # The big nodes' buffers (expectimax.ARENA_I): scratch for one call of the search at a
        # time, so one a thread, kept from search to search (grown, when ever, in place here).
        if mode == "plain":
            self.arena: list[Any] = [tables.Arena(0), tables.Arena(0.0)]
        else:
            import numpy as np

            self.arena = [np.zeros(plain.ARENA_WORDS, np.int64), np.zeros(plain.ARENA_WORDS // 2, np.float64)]


_MEMOS = threading.local()


def _memos(mode: str, room: int) -> _Memos:
    got: dict[str, _Memos] | None = getattr(_MEMOS, "by_mode", None)
    if got is None:
        got = _MEMOS.by_mode = {}
    if mode not in got:
        got[mode] = _Memos(mode, room)
    return got[mode]


def _paced(chunk: int, took: float, most: int) -> int:
    """The next chunk's states: about CHUNK_SECONDS a chunk whatever a state costs (under `game` an
    end of the round may be worth a whole next deal's search), between 64 and `most`."""
    if took > 1.5 * CHUNK_SECONDS:
        return max(64, int(chunk * CHUNK_SECONDS / took))
    if took < 0.5 * CHUNK_SECONDS:
        return min(most, 2 * chunk)
    return chunk


def _slots(root: State, threads: int, seconds: float | None, max_states: int | None, words: int, room: int) -> int:
    """The slots of a compiled search's table, sized for the search to come (doubling a table
    restarts the search from its root): about 200,000 states at 12 unknown cards, three times as
    many per card beyond; but never more than a quarter of the memory the budget leaves."""
    want = min(21, max(16, 20 + 2 * (root.unknown_draws - 12)))
    if threads > 1:  # their states, and room to share out (shared_table.py), within the cap
        want = min(21, want + 1)
    if seconds is not None and math.isfinite(seconds):
        # A short clock searches few states (some millions a second at most): a table for twice
        # that many is enough, and its pages are not all touched for nothing.
        # (capped: a limit of 1e308 s is no clock, and its states would overflow the log)
        reach = min(1e15, threads * STATES_A_SECOND * max(0.0, seconds))
        want = min(want, max(16, math.ceil(math.log2(max(2.0, 2 * reach)))))
    if max_states is not None:
        want = min(want, max(16, math.ceil(math.log2(max(2, 2 * max_states)))))
    return _affordable(1 << want, room // 4, words)


def _affordable(capacity: int, nbytes: int, words: int) -> int:
    """The largest power of two up to `capacity` slots that fits in nbytes (at least 1024)."""
    while capacity > 1024 and memory.table_bytes(capacity, words) > nbytes:
        capacity //= 2
    return capacity


def _doubled(keys: Any, vals: Any) -> tuple[Any, Any] | None:
    from solver.search.shared_table import doubled

    return doubled(keys, vals)


def ordered(plays: list[Play]) -> list[Play]:
    """Plays that empty or shrink the Wolf's hand without giving it cards come first; Fold last."""
    return sorted(plays, key=lambda p: (SEARCH_RANK[p.kind], (p.mine[0] - p.wolf[0]) if p.kind == "over" else 0))


class _Helping:
    """The second thread of a search on two cores: it values the root's plays in the other order,
    trying every node's plays last first, over the table the first thread's search shares, until
    the values are all in or it is ended. Its values join the first thread's (a value is exact
    whichever thread found it); its counts join the stats when it ends."""

    def __init__(
        self,
        first: Search,
        deadline: float | None,
        plays: list[Play],
        children: dict[Play, State],
        values: dict[Play, float],
    ) -> None:
        self.first, self.deadline, self.plays, self.children, self.values = first, deadline, plays, children, values
        self.search: Search | None = None
        self.ended = False
        self._thread = threading.Thread(target=self._run, name="lobo-hint search", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        f = self.first
        try:
            s = Search(
                f.root, f.objective, None, self.deadline, scores=f.scores, target=f.target,
                shared=f.shared, reversed_order=True, tagged=f.tagged, win_bound=f.win_bound,
            )  # fmt: skip
            self.search = s
            for play in self.plays:
                if self.ended:
                    break
                if play not in self.values:
                    self.values.setdefault(play, s.value(self.children[play]))
        except Budget:
            pass  # its deadline, or ended: what it found is in the table
        except Exception as e:  # pragma: no cover - the first thread's answer stands without it
            logging.getLogger("lobo_hint").debug(f"lobo-hint: the second search thread stopped: {e!r}")

    def end(self, stats: Stats) -> None:
        """Stop it at its next chunk, wait for it, and count its work in stats."""
        self.ended = True
        s = self.search
        if s is not None:
            s.deadline = 0.0  # its next chunk stops at once (Search.value)
        self._thread.join()
        if self.search is not None:
            stats.add(self.search.stats)
            # Else a value the second thread read from the evaluator would pass for exact.
            self.first.count_reads_of(self.search)


@dataclass(frozen=True)
class MoveValue:
    play: Play
    value: float  # exact when lo == hi; otherwise the middle of the bounds (an estimate)
    lo: float
    hi: float

    @property
    def exact(self) -> bool:
        return self.lo == self.hi


def _may_hand_over(root: State, max_states: int | None) -> bool:
    """Whether a plain search from this root may hand over to the compiled one (the engine left to
    choose, the compiled one not loaded, its machine code cached, a budget that allows more)."""
    return (
        _engine_choice() == "auto"
        and not _wants_compiled(root)
        and (max_states is None or max_states > HANDOVER)
        and machine_code.ready()
    )


def cores() -> int:
    """The threads a single answer may search with: the cores this process may run on, at most two
    (a batch or a simulation uses its cores its own way, one search a process)."""
    return max(1, min(2, usable_cores()))


def evaluate_moves(
    root: State,
    objective: str,
    *,
    max_states: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    scores: tuple[int, int] = (0, 0),
    threads: int = 1,
    tagged: bool = False,
    win_bound: bool = False,
    start: Any = None,
) -> tuple[list[MoveValue], Search]:
    """The value of every legal play at a decision node: exact, or sound bounds where a budget cut
    the search short. With a time limit, a first pass gives each play a fair share of the time
    (so one huge Over cannot starve the rest), a second pass spends what is left; the transposition
    table keeps every finished subtree between the passes. A small search runs plain; one that
    outgrows HANDOVER states starts again compiled (the plain states are a few tenths of a second).
    With threads=2 and no state budget, a compiled search runs on two threads over one table
    (its states then depend on the threads' timing, its values never do). tagged, win_bound and
    start: a `win` search whose table a `game` search then starts from (Search says how); one that
    starts from a compiled table runs compiled."""
    t0 = time.perf_counter()
    with_table = {"tagged": tagged, "win_bound": win_bound, "start": start}
    compiled_start = start is not None and not isinstance(start, dict)
    if compiled_start or not _may_hand_over(root, max_states):
        return _evaluate(root, objective, max_states, time_limit, progress, scores, threads, **with_table)
    # A plain search that outgrows HANDOVER starts again compiled, in a table of its own (a plain
    # table it started from, and the bounds there, are left behind).
    out, search = _evaluate(root, objective, HANDOVER, time_limit, progress, scores, 1, **with_table)
    # The time limit goes on from where the plain search stopped: the loading (once a process)
    # is not the search's, as prepare()'s is not; a caller's own deadline bounds what follows.
    left = None if time_limit is None else max(0.001, time_limit - (time.perf_counter() - t0))
    if all(m.exact for m in out) or search.stats.stopped != "states" or _compiled_module() is None:
        return out, search
    return _evaluate(root, objective, max_states, left, progress, scores, threads, tagged=tagged)


def _evaluate(
    root: State,
    objective: str,
    max_states: int | None,
    time_limit: float | None,
    progress: Callable[[int, int], None] | None,
    scores: tuple[int, int],
    threads: int,
    tagged: bool = False,
    win_bound: bool = False,
    start: Any = None,
) -> tuple[list[MoveValue], Search]:
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    two = threads > 1 and max_states is None
    search = Search(
        root, objective, max_states, deadline, scores=scores, threads=2 if two else 1,
        tagged=tagged, win_bound=win_bound, start=start,
    )  # fmt: skip
    two = two and search.mode == "compiled"
    plays = ordered(legal_plays(root))
    children = {p: apply(root, p) for p in plays}
    values: dict[Play, float] = {}
    helper = None
    if two:
        from solver.search.shared_table import SharedTable

        keys, vals = search.table
        search.shared = SharedTable(keys, vals, filled=int(search.ctr[plain.FILLED]))
        helper = _Helping(search, deadline, plays[::-1], children, values)
    try:
        for sweep in (0, 1):
            pending = [p for p in plays if p not in values]
            for i, play in enumerate(pending):
                if play in values:  # the other thread has valued it
                    continue
                if deadline is not None:
                    now = time.perf_counter()
                    share = (deadline - now) / (len(pending) - i) if sweep == 0 else deadline - now
                    search.deadline = min(deadline, now + share)
                try:
                    values.setdefault(play, search.value(children[play]))
                except Budget:
                    if max_states is not None and search.stats.states > max_states:
                        break
                    continue
                if progress:
                    progress(len(values), len(plays))
            # A second pass spends what a clock left (a play's share of it ran out); a state budget
            # that ran out buys nothing more, clock or not (a clock must not change its answer).
            spent = max_states is not None and search.stats.states >= max_states
            if len(values) == len(plays) or deadline is None or spent:
                break
    finally:
        if helper is not None:
            helper.end(search.stats)
    search.stats.seconds = time.perf_counter() - t0
    out = []
    for play in plays:
        if play in values:
            v = values[play]
            out.append(MoveValue(play, v, v, v))
        else:
            lo, hi = search.bounds(children[play])
            out.append(MoveValue(play, (lo + hi) / 2, lo, hi))
    return out, search


__all__ = ["LOST", "WON", "Budget", "MoveValue", "Search", "evaluate_moves", "sure_cover", "value_range"]


def principal_line(
    search: Search, root: State, first: Play, limit: int = 200, tiebreak: Search | None = None
) -> list[Play] | None:
    """The line of best plays from `first` on, while nothing is left to chance (a fully known
    pile); None as soon as a chance node is met. Stops where a vanguard round turns final: the
    rest is the finisher's. Of plays worth the same, the one `tiebreak` values most (the round's
    win under `game`: a line that keeps the round, not one that folds it as good for the game).
    None too when the budget runs out on the way (the line is a bonus: a search already at its
    time limit may not revalue a child it only bounded)."""
    try:
        return _line(search, root, first, limit, tiebreak)
    except Budget:
        return None


def _line(search: Search, root: State, first: Play, limit: int, tiebreak: Search | None) -> list[Play] | None:
    line = [first]
    s = apply(root, first)
    while len(line) < limit:
        if s.is_chance:
            return None
        if s.is_terminal or (game(s.game).has_final_round and s.final):
            return line
        target = search.value(s)
        best: tuple[float, Play, State] | None = None
        for play in ordered(legal_plays(s)):
            child = apply(s, play, check=False)
            if abs(search.value(child) - target) <= EPS:
                second = 0.0 if tiebreak is None else tiebreak.value(child)
                if best is None or second > best[0] + EPS:
                    best = (second, play, child)
                if tiebreak is None:
                    break
        if best is None:  # pragma: no cover - the best value always comes from some play
            return None
        line.append(best[1])
        s = best[2]
    return line


class WinCheck:
    """Boolean searches for the round's status, whatever the objective: can some order of the pile
    let a line of play win (possibly), and does some strategy win against every order (surely)."""

    def __init__(self, max_states: int | None = None, deadline: float | None = None) -> None:
        self.memo: dict[tuple[bool, State], bool] = {}
        self.max_states, self.deadline = max_states, deadline
        self.states = 0
        self.max_entries = max(1 << 12, memory.room() // ENTRY_BYTES)

    def _tick(self) -> None:
        self.states += 1
        if self.max_states is not None and self.states > self.max_states:
            raise Budget
        if self.states % 256 == 0:
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise Budget
            if len(self.memo) >= self.max_entries or memory.spent():
                raise Budget

    def won(self, s: State, surely: bool) -> bool:
        if s.outcome is not None:
            return s.outcome == WON
        k = (surely, s)
        got = self.memo.get(k)
        if got is not None:
            return got
        self._tick()
        if s.is_chance:
            children = (self.won(apply_outcome(s, v), surely) for v, _ in chance_outcomes(s))
            r = all(children) if surely else any(children)
        elif game(s.game).has_final_round and s.final:
            r = min_sacrifices(s.wolf, _counts(s.hand + s.reserve), sacrifices_allowed(s)) is not None
        elif sure_cover(s.wolf, _counts(s.hand + s.reserve)):
            r = True
        else:
            r = any(self.won(apply(s, p), surely) for p in ordered(legal_plays(s)) if p.kind != "fold")
        self.memo[k] = r
        return r
