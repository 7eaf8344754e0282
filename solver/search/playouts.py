"""Rollouts in bulk, written once for both modes like the search itself: plain Python on
lists, or compiled by numba (solver/search/compiled.py loads this file a second time, with the
compiled kernel and search in place of the plain ones), so that an estimate far from the end of a
round plays thousands of deals where the rules' Python API plays a hundred.

Each deal is played out by the rollout policy (kernel.play_out: the greedy rule, or the weighted
score tuned for `game`, solver/search/rollout_policy.py) from each child of the root
and its end valued as the search values it (expectimax.terminal, or final_value for a vanguard
round that turned final), except a next deal that surely makes the final round: that one is dealt
from the rest of the rollout's order (dealt_end). A value does not depend on how the cards a play
kept were split between hand and reserve when the search's objective merges them, so the unmerged
state is valued as is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.core.kernel import jit as plain_jit
from solver.core.objectives import GAME_CODE

K: Any
X: Any
try:  # compiled mode (solver/search/compiled.py)
    K = __lobo_kernel__  # type: ignore[name-defined]
    X = __lobo_search__  # type: ignore[name-defined]
except NameError:
    from solver.core import kernel as K
    from solver.search import expectimax as X

if TYPE_CHECKING:
    jit = plain_jit
else:
    jit = K.jit

Vec = Any


@jit(heap=True)
def rollouts(
    children: Vec,
    n: int,
    orders: Vec,
    deals: int,
    width: int,
    par: Vec,
    mk: Any,
    mv: Any,
    dk: Any,
    dv: Any,
    ev: Vec,
    ctr: Vec,
    values: Vec,
    wins: Vec,
    dealt: int,
    w: Vec,
) -> None:
    """Deal d (orders[d * width : (d + 1) * width], the unknown cards in drawing order) played out
    from child c (children[c * STATE : (c + 1) * STATE]): its value into values[c * deals + d],
    and into wins the same place 1.0 when the rollout's line won the round (or reached a final round
    it can cover), else 0.0. dealt = 1: each child is a round still to be dealt (empty hands; the
    reserve and party it starts with), dealt from the order first (deal_round). w: the rollout
    policy's weights (kernel.policy_score; w[RP_ON] = 0, the greedy rule)."""
    st = K.scratch(K.STATE)
    for d in range(deals):
        for c in range(n):
            base = c * K.STATE
            for j in range(K.STATE):
                st[j] = children[base + j]
            at = d * width
            if dealt == 1:
                at = deal_round(st, orders, at)
            stop = K.play_out(st, orders, at, w)
            at = c * deals + d
            if st[K.OUTCOME] != 0:
                values[at] = dealt_end(st, orders, stop, par, mk, mv, dk, dv, ev, ctr)
                wins[at] = 1.0 if st[K.OUTCOME] == K.WON else 0.0
            else:
                values[at] = X.final_value(st, par, mk, mv, ctr)
                wins[at] = 1.0 if X.cover(st, max(0, K.active(st) - 1), mk, mv, ctr) >= 0 else 0.0


@jit()
def deal_round(st: Vec, order: Vec, at: int) -> int:
    """The round in st (both hands empty) dealt as RULES.md §2 deals it: 2 × hand_size cards, or
    what the pile holds, seat by seat (kernel.to_the_player), the pile's known top cards first,
    then order[at], order[at + 1], …; final when the pile is left with final_threshold cards or
    fewer (§4), won at once when the Wolf is dealt nothing. Returns where the order stops."""
    h = st[K.HAND_SIZE]
    n = st[K.PILE]
    k = K.dealt(n, h)
    tops = st[K.NTOP]
    for j in range(k):
        if j < tops:
            v = st[K.TOPS + j]
        else:
            v = order[at]
            at += 1
            st[K.UNSEEN + v - 1] -= 1
        st[(K.HAND if K.to_the_player(j, n, h) else K.WOLF) + v - 1] += 1
    used = min(k, tops)
    for j in range(tops - used):
        st[K.TOPS + j] = st[K.TOPS + j + used]
    st[K.NTOP] = tops - used
    st[K.PILE] = n - k
    if K.final_when_dealt(st[K.RULESET], st[K.PILE], st[K.FINAL_THRESHOLD]):
        st[K.FINAL] = 1
    K.settle(st)
    return at


@jit(heap=True)
def dealt_end(st: Vec, order: Vec, at: int, par: Vec, mk: Any, mv: Any, dk: Any, dv: Any, ev: Vec, ctr: Vec) -> float:
    """A rollout's end of the round, valued as the search values it (expectimax.terminal), but for
    a vanguard round under `game` whose next deal surely makes the final round: that deal is the
    rest of this rollout's order (order[at:], after the pile's known top cards), the reward is
    revive a member when one is down, else keep the lowest hand card, and the game is won if the
    Wolf's hand can be covered. One sample of what the search averages over every deal (and over
    the best reward), as the rest of the rollout is one sample of the round: a big enumeration at
    every end would cost a rollout a thousand times its own time. The reward rule is the one
    nearest the best reward there, measured on seeded games' ends valued exactly (bench/README.md:
    low cards cover the final round's small Wolf cards and make its sums)."""
    h = st[K.HAND_SIZE]
    n = st[K.PILE]
    if par[X.P_OBJECTIVE] != GAME_CODE or (st[K.RULESET] & K.FINAL_ROUND) == 0 or st[K.FINAL] == 1:
        return float(X.terminal(st, par, mk, mv, dk, dv, ev, ctr))
    if not K.next_deal_final(n, h, st[K.FINAL_THRESHOLD]):
        return float(X.terminal(st, par, mk, mv, dk, dv, ev, ctr))  # beyond the exact horizon: the evaluator
    act = K.active(st)
    kept = 0
    if st[K.OUTCOME] != K.WON:
        act -= K.falling(K.cards_in(st, K.WOLF), act)
        if act <= 0:
            return 0.0
    elif K.can_revive(act):
        act += 1
    else:
        for v in range(1, 11):
            if st[K.HAND + v - 1] > 0:
                kept = v
                break
    deal = K.ints(K.STATE)
    for i in range(10):
        deal[K.RESERVE + i] = st[K.RESERVE + i]
    if kept > 0:
        deal[K.RESERVE + kept - 1] += 1
    for j in range(K.dealt(n, h)):
        v = st[K.TOPS + j] if j < st[K.NTOP] else order[at + j - st[K.NTOP]]
        deal[(K.HAND if K.to_the_player(j, n, h) else K.WOLF) + v - 1] += 1
    if K.cards_in(deal, K.WOLF) == 0 or X.cover(deal, max(0, act - 1), mk, mv, ctr) >= 0:
        return 1.0
    return 0.0
