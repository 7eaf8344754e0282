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

import logging
import threading
import time
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from solver.search import memory
from solver.search.hashtable import grown, new_table, put, slot, table_bytes

if TYPE_CHECKING:
    from solver.core.rules import State

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
# FIXED / MEMO_FIXED: the table may not grow any more (the memory budget): it replaces entries.
STATES, HITS, CHANCE, CUTOFFS, LIMIT, STOPPED, OUTCOMES, GROW, FILLED, MEMO_FILLED, FIXED, MEMO_FIXED = range(12)
COUNTERS = 12

# Non-literal constants: compiled recursion cached to disk breaks on literal arguments.
ZERO: Any = np.int64(0)
ONE: Any = np.int64(1)


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
def min_sacrifices(
    wolf: np.ndarray, avail: np.ndarray, allowed: int, mk: np.ndarray, mv: np.ndarray, ctr: np.ndarray
) -> int:  # pragma: no cover
    key = allowed
    cards = 0
    for i in range(10):
        key |= avail[i] << (2 + 3 * i)
        key |= wolf[i] << (32 + 3 * i)
        cards += avail[i] - wolf[i]
    if cards + allowed < 0:
        return -1  # every Wolf card not sacrificed needs at least one card of the Player's
    i = slot(mk, key, ZERO)
    if mk[i, 1] != -1:
        return int(mv[i, 0])
    r = _cover(wolf.copy(), avail.copy(), allowed, ZERO, ONE)
    put(mk, mv, key, ZERO, float(r), 0.0, ctr, MEMO_FILLED, GROW, MEMO_FIXED)
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
    high = _highest(st, UNSEEN, max(0, left) + st[OWED_P])
    # Nothing more will come to the Wolf: it can only sacrifice cards it holds now.
    sac = _highest(st, WOLF, sacrifices) if st[OWED_W] == 0 and left <= 0 else sacrifices * top
    return v + high + sac < 0


@njit(cache=True)
def _highest(st: np.ndarray, base: int, k: int) -> int:  # pragma: no cover - compiled
    """The total of the k highest cards among these counts (all of them if fewer)."""
    total = 0
    for val in range(10, 0, -1):
        if k == 0:
            break
        take = min(k, st[base + val - 1])
        total += take * val
        k -= take
    return total


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


# At most this many groups: the sub-multisets adding up to any one value v <= 10 number at most
# the partitions of v, and those of 1..10 add up to 138.
GROUPS = 144


@njit(cache=True)
def _all_groups(pool: np.ndarray, targets: np.ndarray, out: np.ndarray) -> int:  # pragma: no cover
    """Every non-empty sub-multiset of pool (counts by value) adding up to a value that targets
    holds, as rows of out: counts in columns 0-9, the sum in column 10; returns how many.

    One pass of a mixed-radix counter over the counts, carrying past any count that would take the
    sum beyond the biggest target (the sums at or below it form a down-set, so nothing is
    skipped). Not recursive: compiled recursion costs a call per node, and this runs at every
    decision node."""
    top = 0
    for v in range(10, 0, -1):
        if targets[v - 1]:
            top = v
            break
    m = 0
    if top == 0:
        return 0
    cur = np.zeros(10, np.int64)
    s = 0
    while True:
        i = 0
        # Add one card of the smallest value that still fits; carry otherwise.
        while i < 10:
            if cur[i] < pool[i] and s + i + 1 <= top:
                cur[i] += 1
                s += i + 1
                break
            s -= cur[i] * (i + 1)
            cur[i] = 0
            i += 1
        if i == 10:
            return m
        if targets[s - 1]:
            for j in range(10):
                out[m, j] = cur[j]
            out[m, 10] = s
            m += 1


def _binomials() -> np.ndarray:
    out = np.zeros((48, 12), np.float64)
    for n in range(48):
        for k in range(min(n, 11) + 1):
            out[n, k] = float(comb(n, k))
    return out


# Binomial coefficients as floats (all exact: below 2**53), read by the draws; a global array is
# a constant to compiled code.
BINOMIAL = _binomials()


@njit(cache=True)
def draws(unseen: np.ndarray, d: int) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    """Every multiset of d values drawn from the unseen counts, and its probability
    (multivariate hypergeometric), as rows of counts by value."""
    total = 0
    kinds = 0
    for i in range(10):
        total += unseen[i]
        kinds += unseen[i] > 0
    if d == 1:
        # The everyday case (a Perfect's or Sum's draw, a Split's): one row per value unseen.
        out = np.zeros((kinds, 10), np.int64)
        prob = np.empty(kinds, np.float64)
        m = 0
        for i in range(10):
            if unseen[i]:
                out[m, i] = 1
                prob[m] = unseen[i] / total
                m += 1
        return out, prob
    # How many multisets: count first, then fill.
    ways = np.zeros((11, d + 1), np.int64)
    ways[0, 0] = 1
    for i in range(10):
        for j in range(d + 1):
            if ways[i, j]:
                for k in range(min(unseen[i], d - j) + 1):
                    ways[i + 1, j + k] += ways[i, j]
    rows = ways[10, d]
    out = np.zeros((rows, 10), np.int64)
    prob = np.empty(rows, np.float64)
    denominator = BINOMIAL[total, d]
    # Depth first over the values, the highest count first (like rules._multisets). cap[i]: the
    # cards of values i and up, so that no branch is entered that cannot make up d.
    cap = np.zeros(11, np.int64)
    for i in range(9, -1, -1):
        cap[i] = cap[i + 1] + unseen[i]
    cur = np.zeros(10, np.int64)
    low = np.zeros(10, np.int64)
    need = np.zeros(10, np.int64)
    need[0] = d
    cur[0] = min(d, unseen[0])
    low[0] = max(0, d - cap[1])
    m = 0
    i = 0
    while True:
        if cur[i] < low[i]:
            i -= 1
            if i < 0:
                break
            cur[i] -= 1
            continue
        rest = need[i] - cur[i]
        if rest == 0:
            w = 1.0
            for j in range(10):
                c = cur[j] if j <= i else 0
                out[m, j] = c
                if c:
                    w *= BINOMIAL[unseen[j], c]
            prob[m] = w / denominator
            m += 1
            cur[i] -= 1
            continue
        i += 1
        need[i] = rest
        cur[i] = min(rest, unseen[i])
        low[i] = max(0, rest - cap[i + 1])
    return out, prob


# -- the search ---------------------------------------------------------------------------------


@njit(cache=True)
def _cheap(
    st: np.ndarray, tk: np.ndarray, tv: np.ndarray, mk: np.ndarray, mv: np.ndarray, ctr: np.ndarray
) -> tuple[float, float]:  # pragma: no cover
    """Search.cheap: bounds without searching (terminal, final round, table, sure loss, no play
    but Fold, sure cover)."""
    empty = True
    for i in range(10):
        if st[WOLF + i]:
            empty = False
            break
    if empty and st[OWED_W] == 0:
        return 1.0, 1.0
    if st[FINAL] == 1 and st[OWED_P] + st[OWED_W] == 0:
        # A final round is valued exactly by the (small, cached) cover search: cheaper than a
        # lookup in the big table, and it never needs an entry there.
        v = _final_value(st, mk, mv, ctr)
        return v, v
    k1, k2 = _key(st)
    i = slot(tk, k1, k2)
    if tk[i, 1] != -1:
        return tv[i, 0], tv[i, 1]
    if sure_loss(st):
        return 0.0, 0.0
    if st[OWED_P] + st[OWED_W] == 0 and dead_end(st):
        return 0.0, 0.0
    if (
        st[OWED_P] + st[OWED_W] == 0
        and min_sacrifices(st[WOLF : WOLF + 10], st[AVAIL : AVAIL + 10], 0, mk, mv, ctr) == 0
    ):
        return 1.0, 1.0
    return 0.0, 1.0


@njit(cache=True)
def _sums_of_two_or_more(st: np.ndarray, base: int) -> int:  # pragma: no cover - compiled
    """Bit v set: some two or more of these cards add up to v (v <= 10)."""
    one = 0  # sums of one or more cards
    two = 0
    for v in range(1, 11):
        for _ in range(st[base + v - 1]):
            two = (two | (one << v)) & 0x7FF
            one = (one | (1 << v) | (one << v)) & 0x7FF
    return two


@njit(cache=True)
def no_play(st: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Before the final round: only Fold is legal (no Perfect, Sum, Split or Over), so the round is
    lost. A fifth of the decision nodes of a 12-card round are such dead ends; known without a
    search, they also give Star1 exact zeros to count with."""
    mine = 0
    wolf = 0
    for v in range(1, 11):
        if st[AVAIL + v - 1]:
            mine |= 1 << v
        if st[WOLF + v - 1]:
            wolf |= 1 << v
    if mine & wolf:
        return False  # a Perfect
    for d in range(1, min(st[PILE], 9) + 1):
        if mine & (wolf << d):
            return False  # an Over by d
    if _sums_of_two_or_more(st, AVAIL) & wolf:
        return False  # a Sum
    return not (st[PILE] >= 1 and _sums_of_two_or_more(st, WOLF) & mine)  # a Split


@njit(cache=True)
def _pair_sums(st: np.ndarray, base: int) -> int:  # pragma: no cover - compiled
    """Bit v set: some two of these cards add up to v (v <= 10)."""
    out = 0
    for x in range(1, 6):
        for y in range(x, 11 - x):
            if st[base + x - 1] and st[base + y - 1] and (x != y or st[base + x - 1] >= 2):
                out |= 1 << (x + y)
    return out


@njit(cache=True)
def dead_end(st: np.ndarray) -> bool:  # pragma: no cover - compiled
    """A decision before the final round that is lost: only Fold is legal, or the count argument
    of bounds.py holds one play ahead. Without a Perfect or a Split, every play lowers
    Ψ = P - K + n (a Sum of k cards by k - 1, an Over by 2d), by 2 or more unless a Sum of two
    cards is legal; the Splits and sacrifices that can raise Ψ later are bounded as in
    sure_loss, from the cards the Wolf holds or can still draw (a pool that plays only shrink)."""
    if no_play(st):
        return True
    mine = 0
    wolf = 0
    player = 0
    wolf_cards = 0
    for v in range(1, 11):
        player += st[AVAIL + v - 1]
        wolf_cards += st[WOLF + v - 1]
        if st[AVAIL + v - 1]:
            mine |= 1 << v
        if st[WOLF + v - 1]:
            wolf |= 1 << v
    if mine & wolf or (st[PILE] >= 1 and _sums_of_two_or_more(st, WOLF) & mine):
        return False
    step = 1 if _pair_sums(st, AVAIL) & wolf else 2
    left = st[PILE]
    psi = player - wolf_cards + left + max(0, st[ACTIVE] - 1) - step
    if psi >= 0:
        return False
    return psi + _split_gain(st, left, st[TOP]) < 0


@njit(cache=True)
def _final_value(st: np.ndarray, mk: np.ndarray, mv: np.ndarray, ctr: np.ndarray) -> float:  # pragma: no cover
    """A final round at a decision point: won (1) if the sacrifices allowed and the cover do it."""
    need = min_sacrifices(st[WOLF : WOLF + 10], st[AVAIL : AVAIL + 10], max(0, st[ACTIVE] - 1), mk, mv, ctr)
    return 1.0 if need >= 0 else 0.0


@njit(cache=True)
def _bounds(st: np.ndarray, tk: np.ndarray, tv: np.ndarray) -> tuple[float, float]:  # pragma: no cover
    k1, k2 = _key(st)
    i = slot(tk, k1, k2)
    if tk[i, 1] != -1:
        return tv[i, 0], tv[i, 1]
    return 0.0, 1.0


@njit(cache=True)
def _likeliest_first(prob: np.ndarray, clo: np.ndarray, chi: np.ndarray) -> np.ndarray:  # pragma: no cover
    """Outcomes by probability times the width of their bounds, biggest first, ties in order
    (insertion sort: most chance nodes have ten outcomes or fewer)."""
    n = prob.shape[0]
    weight = np.empty(n, np.float64)
    order = np.empty(n, np.int64)
    for j in range(n):
        weight[j] = prob[j] * (chi[j] - clo[j])
    if n > 32:
        return np.argsort(-weight, kind="mergesort")
    for j in range(n):
        w = weight[j]
        t = j
        while t > 0 and weight[order[t - 1]] < w:
            order[t] = order[t - 1]
            t -= 1
        order[t] = j
    return order


@njit(cache=True)
def search(
    st: np.ndarray, a: float, b: float, tk: np.ndarray, tv: np.ndarray, mk: np.ndarray, mv: np.ndarray, ctr: np.ndarray
) -> float:  # pragma: no cover
    """Search.value for a non-terminal state: its value inside (a, b), or a bound on the side it
    fell; NaN once the state budget has run out (bounds stored on the way up).

    One function for decision and chance nodes alike: compiled recursion must stay within one
    function."""
    k1, k2 = _key(st)
    lo = 0.0
    hi = 1.0
    at = slot(tk, k1, k2)
    if tk[at, 1] != -1:
        lo = tv[at, 0]
        hi = tv[at, 1]
        if hi - lo <= EPS or hi <= a + EPS or lo >= b - EPS:
            ctr[HITS] += 1
            if lo >= b - EPS or hi - lo <= EPS:
                return lo
            return hi
        a = max(a, lo)
        b = min(b, hi)
    ctr[STATES] += 1
    if ctr[STATES] > ctr[LIMIT] or ctr[GROW]:
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
        ctr[OUTCOMES] += n
        # One scratch child, rebuilt from st and the outcome's row when it is needed again.
        kid = st.copy()
        kid[PILE] -= owed
        kid[OWED_P] = 0
        kid[OWED_W] = 0
        if kid[PILE] == 0:
            kid[FINAL] = 1
        clo = np.empty(n, np.float64)
        chi = np.empty(n, np.float64)
        rest_lo = 0.0
        rest_hi = 0.0
        to = AVAIL if st[OWED_P] > 0 else WOLF
        for j in range(n):
            for i in range(10):
                kid[UNSEEN + i] = st[UNSEEN + i] - outs[j, i]
                kid[to + i] = st[to + i] + outs[j, i]
            lo_j, hi_j = _cheap(kid, tk, tv, mk, mv, ctr)
            clo[j] = lo_j
            chi[j] = hi_j
            rest_lo += prob[j] * lo_j
            rest_hi += prob[j] * hi_j
        order = _likeliest_first(prob, clo, chi)
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
            for i in range(10):
                kid[UNSEEN + i] = st[UNSEEN + i] - outs[j, i]
                kid[to + i] = st[to + i] + outs[j, i]
            cv = search(kid, wa, wb, tk, tv, mk, mv, ctr)
            if ctr[STOPPED]:
                blo, bhi = _bounds(kid, tk, tv)
                cut_lo = done + pf * max(clo[j], blo) + rest_lo
                cut_hi = done + pf * min(chi[j], bhi) + rest_hi
                put(tk, tv, k1, k2, max(lo, cut_lo), min(hi, cut_hi), ctr, FILLED, GROW, FIXED)
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
        v = _final_value(st, mk, mv, ctr)
    elif min_sacrifices(wolf, avail, 0, mk, mv, ctr) == 0:
        v = 1.0  # Perfect and Sum plays alone cover the Wolf's hand
    else:
        # A decision node before the final round: Perfect and Sum first, then Split, then Over by
        # the difference, smallest first (as search.ordered); Fold (value 0) last.
        best = -1.0
        proven = 0.0
        out = np.empty((GROUPS, 11), np.int64)
        wolf_cards = 0
        for i in range(10):
            wolf_cards += wolf[i]
        child = np.empty(STATE, np.int64)
        cut = False
        for phase in range(3):
            if cut:
                break
            if phase == 0:
                # Perfect (a group of one) or Sum: the Player's cards adding up to a Wolf card.
                m = _all_groups(avail, wolf, out)
            elif phase == 1:
                # Split: two or more Wolf cards adding up to one of the Player's.
                m = _all_groups(wolf, avail, out) if st[PILE] >= 1 else 0
            else:
                m = 90  # Over: row g is the difference g // 9 + 1 and the Player's card
            for g in range(m):
                child[:] = st
                if phase == 0:
                    x = out[g, 10]
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
                    x = out[g, 10]
                    child[AVAIL + x - 1] -= 1
                    for i in range(10):
                        child[WOLF + i] -= out[g, i]
                    child[OWED_W] = 1
                    cv = 0.0 if sure_loss(child) else np.nan
                else:
                    d = g // 9 + 1
                    p = d + 1 + g % 9
                    if d > st[PILE]:
                        break
                    if p > 10:
                        continue
                    w = p - d
                    if avail[p - 1] == 0 or wolf[w - 1] == 0:
                        continue
                    child[AVAIL + p - 1] -= 1
                    child[WOLF + w - 1] -= 1
                    child[OWED_W] = d
                    cv = 0.0 if sure_loss(child) else np.nan
                low = max(a, best)
                if np.isnan(cv):
                    cv = search(child, low, b, tk, tv, mk, mv, ctr)
                    if ctr[STOPPED]:
                        cut_lo = max(proven, _bounds(child, tk, tv)[0])
                        put(tk, tv, k1, k2, max(lo, cut_lo), min(hi, cut_hi), ctr, FILLED, GROW, FIXED)
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
    put(tk, tv, k1, k2, lo, hi, ctr, FILLED, GROW, FIXED)
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


_warm = False


def warm_up() -> None:
    """Load the machine code (compiled once per installation and cached beside this file; a first
    compile takes some 20 s, so a run that waits on it says so after 2 s)."""
    global _warm
    if _warm:
        return
    timer = threading.Timer(
        2.0,
        lambda: logging.getLogger("lobo_hint").warning(
            "lobo-hint: compiling the search for this machine (first run only, about 20 s)"
        ),
    )
    timer.daemon = True
    timer.start()
    try:
        st = np.zeros(STATE, np.int64)
        st[AVAIL + 1] = st[WOLF] = st[UNSEEN] = st[PILE] = st[ACTIVE] = 1
        st[TOP] = 9
        tk, tv = new_table(64)
        mk, mv = new_table(64)
        ctr = np.zeros(COUNTERS, np.int64)
        ctr[LIMIT] = 100
        search(st, 0.0, 1.0, tk, tv, mk, mv, ctr)
        _cheap(st, tk, tv, mk, mv, ctr)
        _bounds(st, tk, tv)
        grown(tk, tv)
    finally:
        timer.cancel()
    _warm = True


class CompiledWin:
    """The compiled search's tables and counters, kept between calls from one `Search`."""

    # States per call while a clock runs: about 0.05 s, so that a deadline is overrun by no more.
    CHUNK = 20_000

    takes = staticmethod(takes)

    def __init__(self, unknown_cards: int = 0) -> None:
        warm_up()
        # Sized for the search to come (doubling a table restarts the search from its root):
        # about 200,000 states at 12 unknown cards, three times as many per card beyond; but never
        # more than a quarter of the memory the budget leaves (solver/search/memory.py).
        want = min(21, max(16, 20 + 2 * (unknown_cards - 12)))
        self.tk, self.tv = new_table(_affordable(1 << want, memory.room() // 4))
        self.mk, self.mv = new_table(_affordable(1 << 12, memory.room() // 16))
        self.ctr = np.zeros(COUNTERS, np.int64)

    def counts(self) -> tuple[int, int, int, int]:
        """(states, cache hits, chance nodes, cutoffs) so far."""
        c = self.ctr
        return int(c[STATES]), int(c[HITS]), int(c[CHANCE]), int(c[CUTOFFS])

    def bounds(self, s: State) -> tuple[float, float]:
        lo, hi = _bounds(vector(s), self.tk, self.tv)
        return float(lo), float(hi)

    def cheap(self, s: State) -> tuple[float, float]:
        lo, hi = _cheap(vector(s), self.tk, self.tv, self.mk, self.mv, self.ctr)
        self._grow()
        return float(lo), float(hi)

    def _grow(self) -> None:
        """Double a table that asked for it while the memory budget has room for the doubled one
        (the old one is held while its entries are copied); otherwise it is fixed at its size and
        goes on by replacing entries (hashtable.put)."""
        c = self.ctr
        if c[GROW]:
            c[GROW] = 0
            if 2 * c[FILLED] > self.tk.shape[0] and not c[FIXED]:
                bigger = _doubled(self.tk, self.tv)
                if bigger is None:
                    c[FIXED] = 1
                else:
                    self.tk, self.tv = bigger
            if 2 * c[MEMO_FILLED] > self.mk.shape[0] and not c[MEMO_FIXED]:
                bigger = _doubled(self.mk, self.mv)
                if bigger is None:
                    c[MEMO_FIXED] = 1
                else:
                    self.mk, self.mv = bigger

    @property
    def table_bytes(self) -> int:
        return table_bytes(self.tk.shape[0]) + table_bytes(self.mk.shape[0])

    @property
    def fixed(self) -> bool:
        """Whether the memory budget stopped a table from growing (it then replaces entries)."""
        return bool(self.ctr[FIXED] or self.ctr[MEMO_FIXED])

    def value(self, s: State, a: float, b: float, states_left: int | None, deadline: float | None) -> float | None:
        """The value (as Search.value); None when the budget ran out first (its bounds are then in
        the table). states_left: how many more states this call may count."""
        st = vector(s)
        ctr = self.ctr
        stop_at = None if states_left is None else int(ctr[STATES]) + states_left
        while True:
            if deadline is not None and time.perf_counter() > deadline:
                # Checked before a chunk too: a caller past its deadline gets an answer at once,
                # not after another chunk of states (the graph asks once for each of its nodes).
                return None
            limit = int(ctr[STATES]) + ((1 << 62) if deadline is None else self.CHUNK)
            if stop_at is not None:
                if ctr[STATES] >= stop_at:
                    return None
                limit = min(limit, stop_at)
            ctr[LIMIT] = limit
            ctr[STOPPED] = 0
            v = search(st, a, b, self.tk, self.tv, self.mk, self.mv, ctr)
            if not ctr[STOPPED]:
                return float(v)
            if ctr[GROW]:
                # A table was half full: doubled, and the search goes on where it stopped.
                self._grow()
                continue
            if deadline is not None and time.perf_counter() > deadline:
                return None


# A table's room to spare beyond its own size, when it doubles: what the search allocates besides.
SPARE = 32 * 1024**2


def _affordable(capacity: int, nbytes: int) -> int:
    """The largest power of two up to `capacity` slots that fits in nbytes (at least 1024)."""
    while capacity > 1024 and table_bytes(capacity) > nbytes:
        capacity //= 2
    return capacity


def _doubled(keys: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The table twice the size, or None when the memory budget has no room for it."""
    if memory.room() < table_bytes(2 * keys.shape[0]) + SPARE:
        return None
    try:
        return grown(keys, vals)
    except MemoryError:  # an address-space cap met before the budget: the same answer
        return None
