"""The win-probability search of search.py, compiled with numba, for the states that dominate
the hint engine's time: vanguard rounds under the `win` objective with nothing of the pile known.

Same algorithm, same pruning rules, same window semantics as `Search.value` (see search.py and
bounds.py for why each rule is sound); only the representation differs, and one simplification
that the `win` objective allows:

  * Under `win`, which of the Player's cards sit in the hand and which in the reserve never
    changes the value: every play may mix them, draws only ever add cards, and scoring is not
    counted. So the Player's cards are one multiset ("available"), and the party is just the
    number of active members (only it decides how many sacrifices a final round allows).
  * A state is a vector of counts by value (int64[STATE]), keyed in the table by two integers.

The search stops (rather than raising, which compiled code cannot catch) when its state budget
runs out: every node on the way up stores what it had learnt as bounds, exactly as `Budget` does
in search.py, and returns NaN. The caller (search.FastWin) re-enters with a new budget until its
clock runs out; finished subtrees stay in the table, so each re-entry goes on where the last
stopped.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit, types
from numba.typed import Dict

if TYPE_CHECKING:
    from .rules import State

EPS = 1e-12

# A state vector: counts by value (index v - 1 for value v), then scalars.
AVAIL = 0  # the Player's cards, hand and reserve
WOLF = 10  # the Wolf's hand
UNSEEN = 20  # cards nobody has seen
PILE = 30  # cards in the draw pile
ACTIVE = 31  # active party members
FINAL = 32  # 1 once the round is final
OWED_P = 33  # cards owed to the Player by the play just made (a chance node)
OWED_W = 34  # cards owed to the Wolf
TOP = 35  # the deck's top value (8, 9 or 10)
STATE = 36

# Counters shared with the caller.
STATES, HITS, CHANCE, CUTOFFS, LIMIT, STOPPED = range(6)
COUNTERS = 6

# Non-literal constants: compiled recursion cached to disk breaks on literal arguments.
ZERO: Any = np.int64(0)
ONE: Any = np.int64(1)

KEY = types.UniTuple(types.int64, 2)  # type: ignore[no-untyped-call]
BOUNDS = types.UniTuple(types.float64, 2)  # type: ignore[no-untyped-call]


def new_table() -> Dict:
    return Dict.empty(key_type=KEY, value_type=BOUNDS)


def new_memo() -> Dict:
    return Dict.empty(key_type=types.int64, value_type=types.int64)


@njit(cache=True, inline="always")
def _key(st: np.ndarray) -> tuple[int, int]:  # pragma: no cover - compiled
    k1 = 0
    k2 = 0
    for i in range(10):
        k1 |= st[AVAIL + i] << (3 * i)
        k1 |= st[WOLF + i] << (30 + 3 * i)
        k2 |= st[UNSEEN + i] << (3 * i)
    k2 |= st[PILE] << 30
    k2 |= st[ACTIVE] << 36
    k2 |= st[FINAL] << 38
    k2 |= st[OWED_P] << 39
    k2 |= st[OWED_W] << 41
    k2 |= st[TOP] << 46
    return (k1, k2)


# -- exact cover (cover.py) ---------------------------------------------------------------------


@njit(cache=True)
def _cover(wolf: np.ndarray, avail: np.ndarray, allowed: int, rem: int, start: int) -> int:  # pragma: no cover
    """Fewest sacrifices covering the Wolf's cards, or -1. rem > 0: a group for the card being
    covered still needs rem more, from values >= start."""
    if rem > 0:
        best = -1
        for v in range(start, min(rem, 10) + 1):
            if avail[v - 1] > 0:
                avail[v - 1] -= 1
                r = _cover(wolf, avail, allowed, rem - v, v)
                avail[v - 1] += 1
                if r >= 0 and (best < 0 or r < best):
                    best = r
                    if best == 0:
                        return 0
        return best
    # The next card to cover: the biggest (fewest groups: dead ends show early).
    w = 0
    for v in range(10, 0, -1):
        if wolf[v - 1] > 0:
            w = v
            break
    if w == 0:
        return 0
    wolf[w - 1] -= 1
    best = _cover(wolf, avail, allowed, w, ONE)
    if best != 0 and allowed > 0:
        r = _cover(wolf, avail, allowed - ONE, ZERO, ONE)
        if r >= 0 and (best < 0 or r + 1 < best):
            best = r + 1
    wolf[w - 1] += 1
    return best


@njit(cache=True)
def min_sacrifices(wolf: np.ndarray, avail: np.ndarray, allowed: int, memo: Dict) -> int:  # pragma: no cover
    key = allowed
    cards = 0
    for i in range(10):
        key |= avail[i] << (2 + 3 * i)
        key |= wolf[i] << (32 + 3 * i)
        cards += avail[i] - wolf[i]
    if cards + allowed < 0:
        return -1  # every Wolf card not sacrificed needs at least one card of the Player's
    got = memo.get(key, -2)
    if got != -2:
        return got
    r = _cover(wolf.copy(), avail.copy(), allowed, ZERO, ONE)
    memo[key] = r
    return r


# -- sure losses (bounds.py) --------------------------------------------------------------------


@njit(cache=True)
def sure_loss(st: np.ndarray) -> bool:  # pragma: no cover - compiled
    top = st[TOP]
    player = st[OWED_P]
    wolf = st[OWED_W]
    pv = 0
    wv = 0
    for i in range(10):
        player += st[AVAIL + i]
        wolf += st[WOLF + i]
        pv += (i + 1) * st[AVAIL + i]
        wv += (i + 1) * st[WOLF + i]
    left = st[PILE] - st[OWED_P] - st[OWED_W]
    sacrifices = max(0, st[ACTIVE] - 1)
    if player == st[OWED_P] and st[OWED_P] == 0 and left > 0 and st[FINAL] == 0:
        return True
    psi = player - wolf + left + sacrifices
    if psi < 0:
        gain = _split_gain(st, left, top) if left > 0 else 0
        if psi + gain < 0:
            return True
    # The value argument.
    v = pv - wv
    if v >= 0:
        return False
    draws = max(0, left) + st[OWED_P]
    high = 0
    k = draws
    for val in range(10, 0, -1):
        if k == 0:
            break
        take = min(k, st[UNSEEN + val - 1])
        high += take * val
        k -= take
    if st[OWED_W] == 0 and left <= 0:
        sac = 0
        k = sacrifices
        for val in range(10, 0, -1):
            if k == 0:
                break
            take = min(k, st[WOLF + val - 1])
            sac += take * val
            k -= take
    else:
        sac = sacrifices * top
    return v + high + sac < 0


@njit(cache=True)
def _split_gain(st: np.ndarray, left: int, top: int) -> int:  # pragma: no cover - compiled
    # The smallest values among the Wolf's hand and the unseen cards, in order: their prefix sums.
    sums = np.empty(80, np.int64)
    n = 0
    total = 0
    for val in range(1, 11):
        for _ in range(st[WOLF + val - 1] + st[UNSEEN + val - 1]):
            total += val
            sums[n] = total
            n += 1
    best = 0
    fits = 0
    for g in range(1, left + 1):
        while fits < n and sums[fits] <= g * top:
            fits += 1
        if fits < 4 * g:
            break
        best = max(best, fits - 3 * g)
    return best


# -- groups and draws ---------------------------------------------------------------------------


@njit(cache=True)
def _groups(
    pool: np.ndarray, target: int, start: int, cur: np.ndarray, out: np.ndarray, m: int
) -> int:  # pragma: no cover
    """Append to out every sub-multiset of pool (values >= start) adding up to target; returns the
    new row count."""
    if target == 0:
        out[m, :] = cur
        return m + 1
    for v in range(start, min(target, 10) + 1):
        if pool[v - 1] > cur[v - 1]:
            cur[v - 1] += 1
            m = _groups(pool, target - v, v, cur, out, m)
            cur[v - 1] -= 1
    return m


@njit(cache=True)
def _comb(n: int, k: int) -> float:  # pragma: no cover - compiled
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return float(round(r))


@njit(cache=True)
def draws(unseen: np.ndarray, d: int) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    """Every multiset of d values drawn from the unseen counts, and its probability
    (multivariate hypergeometric), as rows of counts by value."""
    # How many multisets: count first, then fill.
    ways = np.zeros(d + 1, np.int64)
    ways[0] = 1
    for i in range(10):
        nxt = np.zeros(d + 1, np.int64)
        for j in range(d + 1):
            if ways[j]:
                for k in range(min(unseen[i], d - j) + 1):
                    nxt[j + k] += ways[j]
        ways = nxt
    rows = ways[d]
    out = np.zeros((rows, 10), np.int64)
    prob = np.empty(rows, np.float64)
    total = 0
    for i in range(10):
        total += unseen[i]
    denominator = _comb(total, d)
    cur = np.zeros(10, np.int64)
    # An odometer over the values, highest count first on the lowest value (like rules._multisets).
    m = 0
    i = 0
    left = d
    # Iterative depth-first enumeration: cur[i] runs from min(left, unseen[i]) down to 0.
    stack_left = np.zeros(11, np.int64)
    stack_left[0] = d
    cur[0] = min(d, unseen[0]) + 1
    while i >= 0:
        if cur[i] == 0:
            i -= 1
            continue
        cur[i] -= 1
        left = stack_left[i] - cur[i]
        if i == 9:
            if left == 0:
                w = 1.0
                for j in range(10):
                    out[m, j] = cur[j]
                    if cur[j]:
                        w *= _comb(unseen[j], cur[j])
                prob[m] = w / denominator
                m += 1
            continue
        i += 1
        stack_left[i] = left
        cur[i] = min(left, unseen[i]) + 1
    return out, prob


# -- the search ---------------------------------------------------------------------------------


@njit(cache=True)
def _cheap(st: np.ndarray, table: Dict, memo: Dict) -> tuple[float, float]:  # pragma: no cover
    """Search.cheap: bounds without searching (terminal, table, sure loss, sure cover)."""
    empty = True
    for i in range(10):
        if st[WOLF + i]:
            empty = False
            break
    if empty and st[OWED_W] == 0:
        return 1.0, 1.0
    key = _key(st)
    if key in table:
        return table[key]
    if sure_loss(st):
        return 0.0, 0.0
    if st[OWED_P] + st[OWED_W] == 0 and min_sacrifices(st[WOLF : WOLF + 10], st[AVAIL : AVAIL + 10], 0, memo) == 0:
        return 1.0, 1.0
    return 0.0, 1.0


@njit(cache=True)
def _bounds(st: np.ndarray, table: Dict) -> tuple[float, float]:  # pragma: no cover
    key = _key(st)
    if key in table:
        return table[key]
    return 0.0, 1.0


@njit(cache=True)
def search(st: np.ndarray, a: float, b: float, table: Dict, memo: Dict, ctr: np.ndarray) -> float:  # pragma: no cover
    """Search.value for a non-terminal state: its value inside (a, b), or a bound on the side it
    fell; NaN once the state budget has run out (bounds stored on the way up).

    One function for decision and chance nodes alike: compiled recursion must stay within one
    function."""
    key = _key(st)
    lo = 0.0
    hi = 1.0
    if key in table:
        lo, hi = table[key]
        if hi - lo <= EPS or hi <= a + EPS or lo >= b - EPS:
            ctr[HITS] += 1
            if lo >= b - EPS or hi - lo <= EPS:
                return lo
            return hi
        a = max(a, lo)
        b = min(b, hi)
    ctr[STATES] += 1
    if ctr[STATES] > ctr[LIMIT]:
        ctr[STOPPED] = 1
        return np.nan
    owed = st[OWED_P] + st[OWED_W]
    avail = st[AVAIL : AVAIL + 10]
    wolf = st[WOLF : WOLF + 10]
    # What to store when the budget runs out below this node (cut_lo < 0: nothing).
    cut_lo = -1.0
    cut_hi = 1.0
    v = 0.0
    if owed > 0:
        # A chance node: Star1 with per-outcome bounds (Search._chance).
        ctr[CHANCE] += 1
        outs, prob = draws(st[UNSEEN : UNSEEN + 10], owed)
        n = outs.shape[0]
        kids = np.empty((n, STATE), np.int64)
        clo = np.empty(n, np.float64)
        chi = np.empty(n, np.float64)
        rest_lo = 0.0
        rest_hi = 0.0
        to = AVAIL if st[OWED_P] > 0 else WOLF
        for j in range(n):
            kids[j, :] = st
            for i in range(10):
                kids[j, UNSEEN + i] -= outs[j, i]
                kids[j, to + i] += outs[j, i]
            kids[j, PILE] -= owed
            kids[j, OWED_P] = 0
            kids[j, OWED_W] = 0
            if kids[j, PILE] == 0:
                kids[j, FINAL] = 1
            lo_j, hi_j = _cheap(kids[j], table, memo)
            clo[j] = lo_j
            chi[j] = hi_j
            rest_lo += prob[j] * lo_j
            rest_hi += prob[j] * hi_j
        order = np.argsort(-prob * (chi - clo), kind="mergesort")
        done = 0.0
        finished = True
        for t in range(n):
            j = order[t]
            pf = prob[j]
            rest_lo -= pf * clo[j]
            rest_hi -= pf * chi[j]
            if chi[j] - clo[j] <= EPS:
                done += pf * clo[j]
                continue
            ca = (a - done - rest_hi) / pf
            cb = (b - done - rest_lo) / pf
            if ca >= chi[j] - EPS:
                ctr[CUTOFFS] += 1
                v = min(a, done + pf * chi[j] + rest_hi)
                finished = False
                break
            if cb <= clo[j] + EPS:
                ctr[CUTOFFS] += 1
                v = max(b, done + pf * clo[j] + rest_lo)
                finished = False
                break
            wa = max(clo[j], ca)
            wb = min(chi[j], cb)
            cv = search(kids[j], wa, wb, table, memo, ctr)
            if ctr[STOPPED]:
                blo, bhi = _bounds(kids[j], table)
                cut_lo = done + pf * max(clo[j], blo) + rest_lo
                cut_hi = done + pf * min(chi[j], bhi) + rest_hi
                table[key] = (max(lo, cut_lo), min(hi, cut_hi))
                return np.nan
            if cv <= wa + EPS and ca > clo[j]:
                ctr[CUTOFFS] += 1
                v = min(a, done + pf * cv + rest_hi)
                finished = False
                break
            if cv >= wb - EPS and cb < chi[j]:
                ctr[CUTOFFS] += 1
                v = max(b, done + pf * cv + rest_lo)
                finished = False
                break
            done += pf * cv
        if finished:
            v = done
            # Probabilities are floats: a node whose every outcome is won must say 1, not 0.99...
            if abs(done - 1.0) < 1e-12:
                v = 1.0
            elif abs(done) < 1e-12:
                v = 0.0
    elif st[FINAL] == 1:
        v = 1.0 if min_sacrifices(wolf, avail, max(0, st[ACTIVE] - 1), memo) >= 0 else 0.0
    elif min_sacrifices(wolf, avail, 0, memo) == 0:
        v = 1.0  # Perfect and Sum plays alone cover the Wolf's hand
    else:
        # A decision node before the final round: Perfect and Sum first, then Split, then Over by
        # the difference, smallest first (search.ordered); Fold (value 0) last.
        best = -1.0
        proven = 0.0
        cur = np.zeros(10, np.int64)
        out = np.empty((64, 10), np.int64)
        wolf_cards = 0
        for i in range(10):
            wolf_cards += wolf[i]
        child = np.empty(STATE, np.int64)
        cut = False
        # Every candidate play, in order: (kind, group row or card, Wolf card or difference).
        for phase in range(3):
            if cut:
                break
            if phase == 1 and st[PILE] < 1:
                continue
            for x in range(1, 11):
                if cut:
                    break
                if phase == 0:
                    if wolf[x - 1] == 0:
                        continue
                    m = _groups(avail, x, ONE, cur, out, ZERO)
                elif phase == 1:
                    if avail[x - 1] == 0:
                        continue
                    m = _groups(wolf, x, ONE, cur, out, ZERO)
                else:
                    if x > min(st[PILE], 9):
                        break
                    m = 10  # x is the difference; the rows are the Player's card p
                for g in range(m):
                    child[:] = st
                    if phase == 0:
                        # Perfect (a group of one) or Sum for the Wolf's card x.
                        for i in range(10):
                            child[AVAIL + i] -= out[g, i]
                        child[WOLF + x - 1] -= 1
                        child[OWED_P] = 1
                        if wolf_cards == 1:
                            cv = 1.0  # the Wolf's hand is empty: won, whatever is drawn
                        elif sure_loss(child):
                            cv = 0.0
                        else:
                            cv = np.nan
                    elif phase == 1:
                        k = 0
                        for i in range(10):
                            k += out[g, i]
                        if k < 2:
                            continue
                        child[AVAIL + x - 1] -= 1
                        for i in range(10):
                            child[WOLF + i] -= out[g, i]
                        child[OWED_W] = 1
                        cv = 0.0 if sure_loss(child) else np.nan
                    else:
                        p = x + 1 + g
                        if p > 10:
                            break
                        w = p - x
                        if avail[p - 1] == 0 or wolf[w - 1] == 0:
                            continue
                        child[AVAIL + p - 1] -= 1
                        child[WOLF + w - 1] -= 1
                        child[OWED_W] = x
                        cv = 0.0 if sure_loss(child) else np.nan
                    low = max(a, best)
                    if np.isnan(cv):
                        cv = search(child, low, b, table, memo, ctr)
                        if ctr[STOPPED]:
                            cut_lo = max(proven, _bounds(child, table)[0])
                            table[key] = (max(lo, cut_lo), min(hi, cut_hi))
                            return np.nan
                    if cv > low + EPS:
                        proven = max(proven, cv)
                    if cv > best:
                        best = cv
                        if best >= b - EPS:
                            ctr[CUTOFFS] += 1
                            cut = True
                            break
        v = best if cut else max(best, 0.0)
    if v <= a + EPS:
        hi = min(hi, max(v, lo))
    elif v >= b - EPS:
        lo = max(lo, min(v, hi))
    else:
        lo = v
        hi = v
    table[key] = (lo, hi)
    return v


# -- the bridge to search.py --------------------------------------------------------------------


def takes(s: State) -> bool:
    """States this search can value: a vanguard round under `win` with nothing of the pile known
    and no top card to reveal (the chance model is then plain draws from the unseen cards)."""
    return (
        s.outcome is None
        and s.game == "vanguard"
        and not s.pile_top
        and not s.reveal
        and not s.rules.top_card_visible
        and len(s.unseen) <= 10
    )


def vector(s: State) -> np.ndarray:
    st = np.zeros(STATE, np.int64)
    for v in s.hand:
        st[AVAIL + v - 1] += 1
    for v in s.reserve:
        st[AVAIL + v - 1] += 1
    for v in s.wolf:
        st[WOLF + v - 1] += 1
    st[UNSEEN : UNSEEN + len(s.unseen)] = s.unseen
    st[PILE] = s.pile_size
    st[ACTIVE] = len(s.party)
    st[FINAL] = int(s.final)
    st[OWED_P] = s.owed_player
    st[OWED_W] = s.owed_wolf
    st[TOP] = len(s.unseen)
    return st


class CompiledWin:
    """The compiled search's table and counters, kept between calls from one `Search`."""

    # States per call while a clock runs: about 0.05 s, so that a deadline is overrun by no more.
    CHUNK = 20_000

    takes = staticmethod(takes)

    def __init__(self) -> None:
        self.table = new_table()
        self.memo = new_memo()
        self.ctr = np.zeros(COUNTERS, np.int64)

    def counts(self) -> tuple[int, int, int, int]:
        """(states, cache hits, chance nodes, cutoffs) so far."""
        c = self.ctr
        return int(c[STATES]), int(c[HITS]), int(c[CHANCE]), int(c[CUTOFFS])

    def bounds(self, s: State) -> tuple[float, float]:
        lo, hi = _bounds(vector(s), self.table)
        return float(lo), float(hi)

    def cheap(self, s: State) -> tuple[float, float]:
        lo, hi = _cheap(vector(s), self.table, self.memo)
        return float(lo), float(hi)

    def value(self, s: State, a: float, b: float, states_left: int | None, deadline: float | None) -> float | None:
        """The value (as Search.value); None when the budget ran out first (its bounds are then in
        the table). states_left: how many more states this call may count."""
        st = vector(s)
        ctr = self.ctr
        stop_at = None if states_left is None else int(ctr[STATES]) + states_left
        while True:
            limit = int(ctr[STATES]) + ((1 << 62) if deadline is None else self.CHUNK)
            if stop_at is not None:
                if ctr[STATES] >= stop_at:
                    return None
                limit = min(limit, stop_at)
            ctr[LIMIT] = limit
            ctr[STOPPED] = 0
            v = search(st, a, b, self.table, self.memo, ctr)
            if not ctr[STOPPED]:
                return float(v)
            if deadline is not None and time.perf_counter() > deadline:
                return None
