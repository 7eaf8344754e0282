"""Exact expectimax over the rest of a round, with sound pruning and a transposition table.

Values by objective (RULES.md §6), all from the Player's side:
  win     1 for a won round, 0 for a lost one
  party   minus the party members this round costs
  points  (lobo) the Player's points minus the Wolf's
Once a vanguard round is final nothing is drawn, so its value is read off a small exact
cover search (cover.py) instead of being searched play by play.

Pruning, each sound:
  * Star1 at chance nodes: with values known to lie in [lo, hi], the children seen so far bound
    the node's value; once the bound cannot beat the best sibling (or must exceed the window),
    the remaining outcomes cannot change which play is best, so they are skipped. Results found
    under such a cut are stored as bounds, never as exact values.
  * A decision node stops as soon as a play reaches the window's top (nothing beats the maximum).
  * win: if Perfect and Sum plays alone can cover the Wolf's whole hand, the round is won for
    certain (those plays only ever add cards to the Player's hand), so the value is 1.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NoReturn

from solver.core.caches import weighted_cache
from solver.core.cover import counts as _counts
from solver.core.cover import min_sacrifices, sure_cover
from solver.core.plays import Play
from solver.core.rules import LOST, WON, State, apply, apply_outcome, chance_outcomes, draws, legal_plays
from solver.search import memory
from solver.search.bounds import sure_loss

if TYPE_CHECKING:
    from solver.search.compiled import CompiledWin

EPS = 1e-12
# A table entry of the Python search with its share of the caches it fills: measured at about
# 600 bytes (a 12-card round under `party`); counted high, so that the memory budget holds.
ENTRY_BYTES = 1024


class Budget(Exception):
    """Raised inside the search when the time or state budget runs out. On its way up, each node
    it passes records what it had learnt so far as bounds (lo, hi) in the table."""

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


@dataclass
class Search:
    """One search from one root: the objective fixes the value of every terminal."""

    root: State
    objective: str
    max_states: int | None = None
    deadline: float | None = None
    stats: Stats = field(default_factory=Stats)
    table: dict[State, tuple[float, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.root_active = len(self.root.party)
        lo, hi = value_range(self.root, self.objective)
        self.lo, self.hi = lo, hi
        self._check = 0
        self._late_for: float | None = None  # a deadline seen passed: every later tick stops at once
        # The table may hold this many entries: the memory budget's room now (solver/search/memory.py).
        self.max_entries = max(1 << 12, memory.room() // ENTRY_BYTES)
        self.fast = compiled_search(self.root, self.objective)
        self._fast_seen = (0, 0, 0, 0)

    def stop(self, why: str) -> NoReturn:
        """Cut the search short (raises Budget), saying why in the stats."""
        self.stats.stopped = why
        raise Budget

    # -- the compiled search, for the states it takes (fastwin.py) ---------------------------------

    def _compiled_for(self, s: State) -> CompiledWin | None:
        """The compiled search, if it values this state."""
        return self.fast if self.fast is not None and self.fast.takes(s) else None

    def _fast_value(self, s: State, a: float, b: float) -> float:
        assert self.fast is not None
        left = None if self.max_states is None else self.max_states - self.stats.states
        try:
            v = self.fast.value(s, a, b, left, self.deadline)
        except (MemoryError, SystemError) as e:
            # An allocation inside the compiled search failed (an address-space cap the budget did
            # not leave room under): what the tables hold is sound, so the search stops as at a
            # time limit. A SystemError is that only when memory is nearly gone (memory.py).
            if isinstance(e, SystemError) and not memory.nearly_exhausted():
                raise
            self._count_fast()
            self.stop("memory")
        used = self._count_fast()
        if v is None:
            self.stop("states" if left is not None and used >= left else "time")
        return v

    def _count_fast(self) -> int:
        """The compiled search's counts join the search's own; returns the states it just took."""
        assert self.fast is not None
        now = self.fast.counts()
        st = self.stats
        used = now[0] - self._fast_seen[0]
        st.states += used
        st.tt_hits += now[1] - self._fast_seen[1]
        st.chance_nodes += now[2] - self._fast_seen[2]
        st.cutoffs += now[3] - self._fast_seen[3]
        self._fast_seen = now
        return used

    # -- terminal and final-round values -----------------------------------------------------------

    def terminal(self, s: State) -> float:
        if self.objective == "win":
            return 1.0 if s.outcome == WON else 0.0
        if self.objective == "points":
            return float(sum(s.hand)) if s.outcome == WON else -float(sum(s.wolf))
        # party
        if s.outcome == WON:
            return -float(self.root_active - len(s.party))
        if s.final:
            return -float(self.root_active)
        return -float(min(len(s.wolf), len(s.party)))

    def final_value(self, s: State) -> float:
        """A vanguard final round at a decision point: nothing more is drawn."""
        avail = _counts(s.hand + s.reserve)
        need = min_sacrifices(s.wolf, avail, max(0, len(s.party) - 1))
        if self.objective == "win":
            return 0.0 if need is None else 1.0
        if need is None:
            return -float(self.root_active)
        return -float(self.root_active - len(s.party) + need)

    # -- the search --------------------------------------------------------------------------------

    def bounds(self, s: State) -> tuple[float, float]:
        """What is known of a state's value: from the table, or from its kind."""
        if s.outcome is not None:
            v = self.terminal(s)
            return v, v
        fast = self._compiled_for(s)
        if fast is not None:
            return fast.bounds(s)
        return self.table.get(s, (self.lo, self.hi))

    def tick(self) -> None:
        self.stats.states += 1
        if self.max_states is not None and self.stats.states > self.max_states:
            self.stop("states")
        if self._late_for is not None and self._late_for == self.deadline:
            self.stop("time")
        if len(self.table) >= self.max_entries:
            self.stop("memory")
        self._check += 1
        if self._check >= 256:
            self._check = 0
            if self.deadline is not None and time.perf_counter() > self.deadline:
                self._late_for = self.deadline
                self.stop("time")
            if memory.spent():  # (the caches and whatever else the process holds count too)
                self.stop("memory")

    def value(self, s: State, alpha: float | None = None, beta: float | None = None) -> float:
        """The node's value if it lies inside (alpha, beta) by more than EPS; otherwise a bound on
        the side it fell (an upper bound at or below alpha + EPS, a lower bound at or above beta - EPS).

        Values are floats: comparisons against a window's edges allow EPS, so that rounding can
        never turn a bound into a value taken for exact (which would then be cached as exact)."""
        a = self.lo if alpha is None else alpha
        b = self.hi if beta is None else beta
        if s.outcome is not None:
            return self.terminal(s)
        if self._compiled_for(s) is not None:
            return self._fast_value(s, a, b)
        entry = self.table.get(s)
        lo, hi = entry if entry is not None else (self.lo, self.hi)
        if entry is not None:
            if hi - lo <= EPS or hi <= a + EPS or lo >= b - EPS:
                self.stats.tt_hits += 1
                return lo if lo >= b - EPS or hi - lo <= EPS else hi
            a, b = max(a, lo), min(b, hi)
        try:
            self.tick()
            v = self._expand(s, a, b)
        except Budget as cut:
            if cut.lo is not None and cut.hi is not None:
                self.table[s] = (max(lo, cut.lo), min(hi, cut.hi))
            raise Budget from None
        if v <= a + EPS:
            hi = min(hi, max(v, lo))
        elif v >= b - EPS:
            lo = max(lo, min(v, hi))
        else:
            lo = hi = v
        self.table[s] = (lo, hi)
        return v

    def _expand(self, s: State, a: float, b: float) -> float:
        # (Sure losses are caught by the callers, before a state is looked up: see cheap().)
        if s.is_chance:
            return self._chance(s, a, b)
        if s.game == "vanguard" and s.final:
            return self.final_value(s)
        win = self.objective == "win"
        if win and sure_cover(s.wolf, _counts(s.hand + s.reserve)):
            return 1.0
        best = self.lo - 1.0
        proven = self.lo  # the best value known to be reached (not merely bounded from above)
        for play in ordered(legal_plays(s)):
            child = apply(s, play, check=False)
            low = max(a, best)
            if win and sure_loss(child):
                # Known without a search (and not worth a table entry: the test is cheaper).
                v = 0.0
            else:
                try:
                    v = self.value(child, low, b)
                except Budget:
                    raise Budget(max(proven, self.bounds(child)[0]), self.hi) from None
            if v > low + EPS:
                proven = max(proven, v)
            if v > best:
                best = v
                if best >= b - EPS:
                    self.stats.cutoffs += 1
                    break
        return best

    def cheap(self, s: State) -> tuple[float, float]:
        """Bounds on a state's value without searching it: terminal, known, or a sure loss."""
        if s.outcome is not None:
            v = self.terminal(s)
            return v, v
        fast = self._compiled_for(s)
        if fast is not None:
            return fast.cheap(s)
        entry = self.table.get(s)
        if entry is not None:
            return entry
        if self.objective == "win":
            if sure_loss(s):
                return 0.0, 0.0
            if not s.is_chance and sure_cover(s.wolf, _counts(s.hand + s.reserve)):
                return 1.0, 1.0
        return self.lo, self.hi

    def _chance(self, s: State, a: float, b: float) -> float:
        """Star1 with per-child bounds: every outcome's child is first bounded cheaply (cheap()),
        and the children not searched yet count with those bounds rather than the objective's
        whole range, so that a node whose likely outcomes are known losses is cut at once."""
        self.stats.chance_nodes += 1
        kids = []
        rest_lo = rest_hi = 0.0  # the bounds of the children not searched yet, weighted
        for i, (values, pf) in enumerate(_float_draws(s.unseen, s.owed_player + s.owed_wolf or 1)):
            if i & 1023 == 1023 and self.deadline is not None and time.perf_counter() > self.deadline:
                # A big Over has thousands of outcomes: setting them up must not outrun the budget.
                raise Budget
            child = apply_outcome(s, values, check=False)
            clo, chi = self.cheap(child)
            kids.append((pf, child, clo, chi))
            rest_lo += pf * clo
            rest_hi += pf * chi
        # The likeliest first: they move the bounds most, so cuts come sooner.
        kids.sort(key=lambda k: -k[0] * (k[3] - k[2]))
        done = 0.0  # sum of p * v over the children searched, all exact
        for pf, child, clo, chi in kids:
            rest_lo -= pf * clo
            rest_hi -= pf * chi
            if chi - clo <= EPS:
                done += pf * clo
                continue
            # The child must beat these for the node to land inside (a, b).
            ca = (a - done - rest_hi) / pf
            cb = (b - done - rest_lo) / pf
            if ca >= chi - EPS:
                # Even if this child and every later one were at their tops, the node stays <= a.
                self.stats.cutoffs += 1
                return min(a, done + pf * chi + rest_hi)
            if cb <= clo + EPS:
                self.stats.cutoffs += 1
                return max(b, done + pf * clo + rest_lo)
            wa, wb = max(clo, ca), min(chi, cb)
            try:
                v = self.value(child, wa, wb)
            except Budget:
                # Every child before this one is exact (a bound would have returned already).
                blo, bhi = self.bounds(child)
                raise Budget(done + pf * max(clo, blo) + rest_lo, done + pf * min(chi, bhi) + rest_hi) from None
            if v <= wa + EPS and ca > clo:
                # An upper bound on this child: the node cannot reach above a.
                self.stats.cutoffs += 1
                return min(a, done + pf * v + rest_hi)
            if v >= wb - EPS and cb < chi:
                self.stats.cutoffs += 1
                return max(b, done + pf * v + rest_lo)
            done += pf * v
        # Probabilities are floats: a node whose every outcome is won must say 1, not 0.9999999999999999.
        if abs(done - self.hi) < 1e-12:
            return self.hi
        if abs(done - self.lo) < 1e-12:
            return self.lo
        return done


# Below this many unknown cards in the pile the Python search answers before the compiled one
# would have loaded (about 0.7 s for numba and the cached machine code).
COMPILED_FROM = 8


def prepare(root: State, objective: str) -> None:
    """Load the compiled search now if a search from this root will use it (see compiled_search)."""
    if _wants_compiled(root, objective):
        try:
            from solver.search.compiled import warm_up

            warm_up()
        except Exception:  # pragma: no cover - compiled_search says why, when it is asked
            pass


def _wants_compiled(root: State, objective: str) -> bool:
    choice = os.environ.get("LOBO_HINT_ENGINE", "auto")
    if choice == "python" or objective != "win" or root.game != "vanguard" or root.rules.top_card_visible:
        return False
    return choice == "compiled" or root.unknown_draws >= COMPILED_FROM


def compiled_search(root: State, objective: str) -> CompiledWin | None:
    """The compiled search for this root, when it applies and pays: a vanguard round under `win`
    (fastwin.py). LOBO_HINT_ENGINE=python never uses it, =compiled always does where it applies."""
    if not _wants_compiled(root, objective):
        return None
    try:
        from solver.search.compiled import CompiledWin

        return CompiledWin(root.unknown_draws)
    except Exception as e:  # pragma: no cover - numba missing, or no place to cache machine code
        logging.getLogger("lobo_hint").warning(
            f"lobo-hint: the compiled search is unavailable ({e}); searching in Python"
        )
        return None


@weighted_cache(1 << 18)
def _float_draws(unseen: tuple[int, ...], d: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    return tuple((values, float(p)) for values, p in draws(unseen, d))


def ordered(plays: list[Play]) -> list[Play]:
    """Plays that empty or shrink the Wolf's hand without giving it cards come first; Fold last."""
    rank = {"perfect": 0, "sum": 0, "sacrifice": 1, "split": 2, "over": 3, "fold": 4}
    return sorted(plays, key=lambda p: (rank[p.kind], (p.mine[0] - p.wolf[0]) if p.kind == "over" else 0))


def value_range(state: State, objective: str) -> tuple[float, float]:
    """Bounds every terminal value reachable from this state lies within."""
    if objective == "win":
        return 0.0, 1.0
    if objective == "party":
        return -float(len(state.party)), 0.0
    everything = sum(v * n for v, n in enumerate(state.unseen, start=1)) + sum(state.pile_top)
    return -float(sum(state.wolf) + everything), float(sum(state.hand) + sum(state.reserve) + everything)


@dataclass(frozen=True)
class MoveValue:
    play: Play
    value: float  # exact when lo == hi; otherwise the middle of the bounds (an estimate)
    lo: float
    hi: float

    @property
    def exact(self) -> bool:
        return self.lo == self.hi


def evaluate_moves(
    root: State,
    objective: str,
    *,
    max_states: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[MoveValue], Search]:
    """The value of every legal play at a decision node: exact, or sound bounds where a budget cut
    the search short. With a time limit, a first pass gives each play a fair share of the time
    (so one huge Over cannot starve the rest), a second pass spends what is left; the transposition
    table keeps every finished subtree between the passes."""
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    search = Search(root, objective, max_states, deadline)
    plays = ordered(legal_plays(root))
    children = {p: apply(root, p) for p in plays}
    values: dict[Play, float] = {}
    for sweep in (0, 1):
        pending = [p for p in plays if p not in values]
        for i, play in enumerate(pending):
            if deadline is not None:
                now = time.perf_counter()
                share = (deadline - now) / (len(pending) - i) if sweep == 0 else deadline - now
                search.deadline = min(deadline, now + share)
            try:
                values[play] = search.value(children[play])
            except Budget:
                if max_states is not None and search.stats.states > max_states:
                    break
                continue
            if progress:
                progress(len(values), len(plays))
        if deadline is None or len(values) == len(plays):
            break
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


def principal_line(search: Search, root: State, first: Play, limit: int = 200) -> list[Play] | None:
    """The line of best plays from `first` on, while nothing is left to chance (a fully known
    pile); None as soon as a chance node is met. Stops where a vanguard round turns final: the
    rest is the finisher's."""
    line = [first]
    s = apply(root, first)
    while len(line) < limit:
        if s.is_chance:
            return None
        if s.is_terminal or (s.game == "vanguard" and s.final):
            return line
        target = search.value(s)
        for play in ordered(legal_plays(s)):
            child = apply(s, play, check=False)
            if abs(search.value(child) - target) <= EPS:
                line.append(play)
                s = child
                break
        else:  # pragma: no cover - the best value always comes from some play
            return None
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
        elif s.game == "vanguard" and s.final:
            r = min_sacrifices(s.wolf, _counts(s.hand + s.reserve), max(0, len(s.party) - 1)) is not None
        elif sure_cover(s.wolf, _counts(s.hand + s.reserve)):
            r = True
        else:
            r = any(self.won(apply(s, p), surely) for p in ordered(legal_plays(s)) if p.kind != "fold")
        self.memo[k] = r
        return r
