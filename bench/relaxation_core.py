"""The compiled core of bench/relaxation.py: the penalised clairvoyant's best line through one
deal of vanguard (an information relaxation: Brown, Smith and Sun, Operations Research 58(4),
2010).

The clairvoyant knows the deck's order and plays the whole game for the line worth most, where a
line is worth its outcome (1: the game won, 0: lost) minus a penalty at every card that comes off
the pile, in a round or in a deal:

    V(the state that card makes) - E[V(the state it makes) | what the player knew before it]

V is a fixed function of what a player at the table knows (RULES.md §5): in a regular round the
shipped value network's chance to win the game; in a final round its exact 0 or 1 (nothing is
drawn there: kernel.min_sacrifices); after a regular round's end, the best reward's W, where W,
the worth of the next deal, is the search's exact enumeration when that deal is surely final
(expectimax.next_deal) and otherwise the mean of V over deals drawn by a generator that never
sees the deck. For a player who does not see the order each penalty has mean zero, so what the
penalised clairvoyant wins on average bounds what any such player can win, whatever V is; the
nearer V is to the true value, the tighter the bound. `use` scales V, in percent (any multiple of
a V is a V); 0 is the plain clairvoyant.

The rules are the kernel's (moves, apply_move, apply_draw, settle, endings, dealt, to_the_player,
final_when_dealt, next_deal_final, min_sacrifices) and the search's (next_deal). A draw of
several cards (an Over) is one chance event: its penalty's mean is over every multiset of cards
it could have drawn (kernel.draws), so V is read only at settled states.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import types
from numba.typed import Dict

from solver.search.compiled import expectimax as X
from solver.search.compiled import kernel as K
from solver.search.compiled import network as N

KEY = types.UniTuple(types.int64, 2)
CAP = 1024
# Counters (stats[]): decision states solved, network evaluations, deal worths computed, and 1
# when the state cap stopped the search (the deal's value is then no bound: the caller stops).
S_STATES, S_EVALS, S_ENDS, S_OVER = range(4)
STATS = 4


@numba.njit(cache=True)
def _key(st: Any) -> tuple[int, int]:
    k0 = 0
    k1 = 0
    for i in range(10):
        k0 |= st[K.HAND + i] << (3 * i)
        k0 |= st[K.WOLF + i] << (30 + 3 * i)
        k1 |= st[K.RESERVE + i] << (3 * i)
    k1 |= st[K.PILE] << 30
    k1 |= st[K.PARTY] << 37
    k1 |= st[K.FINAL] << 40
    return (k0, k1)


@numba.njit(cache=True)
def covered(st: Any) -> float:
    """A final round at a decision point: 1 if every Wolf card can be covered (§4), else 0."""
    if K.cards_in(st, K.WOLF) == 0:
        return 1.0
    return 1.0 if K.min_sacrifices(st, max(0, K.active(st) - 1)) >= 0 else 0.0


@numba.njit(cache=True)
def round_start(st: Any, act: int, kept: int, out: Any) -> None:
    """out := the table before the next deal, after a regular round ending in st, with act members
    active (the lowest bits: which member does not matter to any value) and `kept` put in the
    reserve (0: none)."""
    for i in range(K.STATE):
        out[i] = st[i]
    for i in range(10):
        out[K.HAND + i] = 0
        out[K.WOLF + i] = 0
    if kept > 0:
        out[K.RESERVE + kept - 1] += 1
    out[K.PARTY] = (1 << act) - 1
    out[K.FINAL] = 0
    out[K.OUTCOME] = 0
    out[K.OWED_P] = 0
    out[K.OWED_W] = 0


@numba.njit(cache=True)
def deal(e: Any, cards: Any, out: Any) -> None:
    """out := e after its next round's deal, the pile's cards top first in `cards` (§2, §4)."""
    for i in range(K.STATE):
        out[i] = e[i]
    n = e[K.PILE]
    h = e[K.HAND_SIZE]
    d = K.dealt(n, h)
    for j in range(d):
        v = cards[j]
        if K.to_the_player(j, n, h):
            out[K.HAND + v - 1] += 1
        else:
            out[K.WOLF + v - 1] += 1
        out[K.UNSEEN + v - 1] -= 1
    out[K.PILE] = n - d
    if K.final_when_dealt(e[K.RULESET], n - d, e[K.FINAL_THRESHOLD]):
        out[K.FINAL] = 1
    K.settle(out)


@numba.njit(cache=True)
def net_value(st: Any, use: int, net: Any, stats: Any, x: Any, h1: Any, h2: Any) -> float:
    """V in a regular round (a decision, or cards still owed): the network's chance to win."""
    if use == 0:
        return 0.0
    stats[S_EVALS] += 1
    return 0.01 * use * N.evaluate(st, N.GAME_HEAD, net, x, h1, h2)


@numba.njit(cache=True)
def worth(
    e: Any, deck: Any, samples: int, seed: int, use: int, net: Any, wmemo: Any, tabs: Any, stats: Any,
    x: Any, h1: Any, h2: Any,
) -> float:  # fmt: skip
    """W(e): the mean of V over the next round's deals from the table e (before its deal). Exact
    when the deal is surely final (expectimax.next_deal's enumeration: V there is the final round's
    0 or 1); else the mean over `samples` deals of the pile's cards shuffled by a generator seeded
    from (seed, the pile's size) alone, never from the deck's order. Remembered by the pile's size,
    the party and the reserve (within one deck the pile's size names its cards)."""
    if use == 0:
        return 0.0
    k1 = e[K.PILE] | (e[K.PARTY] << 8)
    k0 = 0
    for i in range(10):
        k0 |= e[K.RESERVE + i] << (3 * i)
    key = (k0, k1)
    if key in wmemo:
        return wmemo[key]
    stats[S_ENDS] += 1
    n = e[K.PILE]
    if K.next_deal_final(n, e[K.HAND_SIZE], e[K.FINAL_THRESHOLD]):
        mk, mv, dk, dv, ev, ctr = tabs
        w = 0.01 * use * X.next_deal(e, K.active(e), 0, mk, mv, dk, dv, ev, ctr)
    else:
        pile = deck[len(deck) - n :].copy()
        np.random.seed(seed * 64 + n)
        d = np.empty(K.STATE, np.int64)
        total = 0.0
        for _ in range(samples):
            np.random.shuffle(pile)
            deal(e, pile, d)
            # A deal is a final round (or won at once) or a regular round's start.
            if d[K.OUTCOME] != 0 or d[K.FINAL] == 1:
                total += 0.01 * use * covered(d)
            else:
                total += net_value(d, use, net, stats, x, h1, h2)
        w = total / samples
    wmemo[key] = w
    return w


@numba.njit(cache=True)
def settled_value(
    st: Any, deck: Any, samples: int, seed: int, use: int, net: Any, wmemo: Any, tabs: Any, stats: Any,
    x: Any, h1: Any, h2: Any,
) -> float:  # fmt: skip
    """V at a settled state (nothing owed): an ended round's best W, a final round's 0 or 1, the
    network's value in a regular round."""
    if use == 0:
        return 0.0
    if st[K.OUTCOME] != 0:
        if st[K.FINAL] == 1:
            return 0.01 * use if st[K.OUTCOME] == K.WON else 0.0
        acts = np.empty(K.ENDINGS, np.int64)
        kept = np.empty(K.ENDINGS, np.int64)
        m = K.endings(st, acts, kept)
        e = np.empty(K.STATE, np.int64)
        best = 0.0
        for o in range(m):
            round_start(st, acts[o], kept[o], e)
            best = max(best, worth(e, deck, samples, seed, use, net, wmemo, tabs, stats, x, h1, h2))
        return best
    if st[K.FINAL] == 1:
        return 0.01 * use * covered(st)
    return net_value(st, use, net, stats, x, h1, h2)


@numba.njit(cache=True)
def _draw_penalty(
    child: Any, t: Any, alt: Any, deck: Any, samples: int, seed: int, use: int, net: Any, wmemo: Any, tabs: Any,
    stats: Any, x: Any, h1: Any, h2: Any,
) -> float:  # fmt: skip
    """Draw every card child owes from the deck into t (one chance event, however many cards);
    the penalty V(t) - E[V] over every multiset those cards could have been."""
    owed = child[K.OWED_P] + child[K.OWED_W]
    n_deck = len(deck)
    got = np.zeros(10, np.int64)
    for j in range(owed):
        got[deck[n_deck - child[K.PILE] + j] - 1] += 1
    K.apply_draw(child, got, 0, t)
    if use == 0:
        return 0.0
    unseen = np.empty(10, np.int64)
    for i in range(10):
        unseen[i] = child[K.UNSEEN + i]
    m = K.draw_count(unseen, 0, owed)
    rows = np.empty(m * 10, np.int64)
    prob = np.empty(m, np.float64)
    K.draws(unseen, 0, owed, rows, prob)
    ex = 0.0
    for r in range(m):
        K.apply_draw(child, rows, r * 10, alt)
        ex += prob[r] * settled_value(alt, deck, samples, seed, use, net, wmemo, tabs, stats, x, h1, h2)
    return settled_value(t, deck, samples, seed, use, net, wmemo, tabs, stats, x, h1, h2) - ex


@numba.njit(cache=True)
def _buffers() -> tuple[Any, Any, Any, Any, Any]:
    """A line's scratch: three states (a draw's result, its alternative, a round's next table) and
    the endings' two columns."""
    return (
        np.empty(K.STATE, np.int64),
        np.empty(K.STATE, np.int64),
        np.empty(K.STATE, np.int64),
        np.empty(K.ENDINGS, np.int64),
        np.empty(K.ENDINGS, np.int64),
    )


@numba.njit(cache=True)
def solve(
    st: Any, deck: Any, samples: int, seed: int, use: int, net: Any, wmemo: Any, memo: Any, tabs: Any,
    stats: Any, x: Any, h1: Any, h2: Any, cap: int,
) -> float:  # fmt: skip
    """The penalised clairvoyant's value of a decision state of a regular round: the best over its
    moves of (the penalties of the cards they draw, subtracted) and what follows, to the game's end."""
    key = _key(st)
    if key in memo:
        return memo[key]
    if stats[S_STATES] >= cap:
        stats[S_OVER] = 1
        return 0.0
    stats[S_STATES] += 1
    room = CAP
    mvs = np.empty(room * K.MOVE, np.int64)
    m = K.moves(st, mvs, room)
    while m < 0:
        room *= 4
        mvs = np.empty(room * K.MOVE, np.int64)
        m = K.moves(st, mvs, room)
    child = np.empty(K.STATE, np.int64)
    d = np.empty(K.STATE, np.int64)
    t, alt, e, acts, kept = _buffers()
    n_deck = len(deck)
    best = -1e300
    for i in range(m):
        K.apply_move(st, mvs, i * K.MOVE, child)
        pen = 0.0
        while child[K.OUTCOME] == 0 and (child[K.OWED_P] > 0 or child[K.OWED_W] > 0):
            pen += _draw_penalty(child, t, alt, deck, samples, seed, use, net, wmemo, tabs, stats, x, h1, h2)
            for j in range(K.STATE):
                child[j] = t[j]
        if child[K.OUTCOME] != 0:
            if child[K.FINAL] == 1:
                cont = 1.0 if child[K.OUTCOME] == K.WON else 0.0
            else:
                mo = K.endings(child, acts, kept)
                cont = 0.0 if mo == 0 else -1e300
                for o in range(mo):
                    round_start(child, acts[o], kept[o], e)
                    w = worth(e, deck, samples, seed, use, net, wmemo, tabs, stats, x, h1, h2)
                    deal(e, deck[n_deck - e[K.PILE] :], d)
                    vd = settled_value(d, deck, samples, seed, use, net, wmemo, tabs, stats, x, h1, h2)
                    if d[K.OUTCOME] != 0:
                        c = 1.0 if d[K.OUTCOME] == K.WON else 0.0
                    elif d[K.FINAL] == 1:
                        c = covered(d)
                    else:
                        c = solve(d, deck, samples, seed, use, net, wmemo, memo, tabs, stats, x, h1, h2, cap)
                    cont = max(cont, w - vd + c)
        elif child[K.FINAL] == 1:
            cont = covered(child)
        else:
            cont = solve(child, deck, samples, seed, use, net, wmemo, memo, tabs, stats, x, h1, h2, cap)
        best = max(best, cont - pen)
    memo[key] = best
    return best


@numba.njit(cache=True)
def bound_of_deal(
    e0: Any, deck: Any, samples: int, seed: int, use: int, net: Any, tabs: Any, stats: Any, cap: int
) -> tuple[float, float]:
    """One deck: (the penalised clairvoyant's value from the first deal on, V of that deal). The
    bound is the mean of the first minus the second, plus the mean of V over first deals."""
    x = np.empty(N.FEATURES, np.float64)
    h1 = np.empty(256, np.float64)
    h2 = np.empty(256, np.float64)
    wmemo = Dict.empty(key_type=KEY, value_type=types.float64)
    memo = Dict.empty(key_type=KEY, value_type=types.float64)
    d = np.empty(K.STATE, np.int64)
    deal(e0, deck, d)
    vd = settled_value(d, deck, samples, seed, use, net, wmemo, tabs, stats, x, h1, h2)
    if d[K.OUTCOME] != 0 or d[K.FINAL] == 1:
        return covered(d), vd
    return solve(d, deck, samples, seed, use, net, wmemo, memo, tabs, stats, x, h1, h2, cap), vd


@numba.njit(cache=True)
def greedy_line(e0: Any, deck: Any, samples: int, seed: int, net: Any, tabs: Any, stats: Any) -> tuple[float, float]:
    """A player who does not see the order (the greedy rule's plays, the reward of the best W) on
    one deck: (the game's outcome, the sum of the penalties its line pays, the first deal's V - W
    left out). Over many decks that sum averages 0 if the penalties are right: the check."""
    x = np.empty(N.FEATURES, np.float64)
    h1 = np.empty(256, np.float64)
    h2 = np.empty(256, np.float64)
    wmemo = Dict.empty(key_type=KEY, value_type=types.float64)
    st = np.empty(K.STATE, np.int64)
    t, alt, e, acts, kept = _buffers()
    n_deck = len(deck)
    deal(e0, deck, st)
    pen = 0.0
    mvs = np.empty(65536 * K.MOVE, np.int64)
    while True:
        if st[K.OUTCOME] == 0 and st[K.FINAL] == 1:
            return covered(st), pen
        if st[K.OUTCOME] != 0:
            if st[K.FINAL] == 1:
                return (1.0 if st[K.OUTCOME] == K.WON else 0.0), pen
            mo = K.endings(st, acts, kept)
            if mo == 0:
                return 0.0, pen
            bw = -1.0
            bo = 0
            for o in range(mo):
                round_start(st, acts[o], kept[o], e)
                w = worth(e, deck, samples, seed, 100, net, wmemo, tabs, stats, x, h1, h2)
                if w > bw:
                    bw = w
                    bo = o
            round_start(st, acts[bo], kept[bo], e)
            deal(e, deck[n_deck - e[K.PILE] :], st)
            pen += settled_value(st, deck, samples, seed, 100, net, wmemo, tabs, stats, x, h1, h2) - bw
            continue
        m = K.moves(st, mvs, 65536)
        at = K.greedy(mvs, m)
        K.apply_move(st, mvs, at, t)
        for j in range(K.STATE):
            st[j] = t[j]
        while st[K.OUTCOME] == 0 and (st[K.OWED_P] > 0 or st[K.OWED_W] > 0):
            pen += _draw_penalty(st, t, alt, deck, samples, seed, 100, net, wmemo, tabs, stats, x, h1, h2)
            for j in range(K.STATE):
                st[j] = t[j]


@numba.njit(cache=True)
def first_deal_values(e0: Any, deck: Any, n: int, seed: int, use: int, net: Any, tabs: Any) -> Any:
    """V of n first deals drawn by a generator seeded from `seed` (their mean is the bound's
    constant term)."""
    x = np.empty(N.FEATURES, np.float64)
    h1 = np.empty(256, np.float64)
    h2 = np.empty(256, np.float64)
    wmemo = Dict.empty(key_type=KEY, value_type=types.float64)
    stats = np.zeros(STATS, np.int64)
    pile = deck.copy()
    np.random.seed(seed)
    d = np.empty(K.STATE, np.int64)
    out = np.empty(n, np.float64)
    for r in range(n):
        np.random.shuffle(pile)
        deal(e0, pile, d)
        out[r] = settled_value(d, deck, 64, seed, use, net, wmemo, tabs, stats, x, h1, h2)
    return out
