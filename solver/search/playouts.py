"""Greedy rollouts in bulk, written once for both modes like the search itself: plain Python on
lists, or compiled by numba (solver/search/compiled.py loads this file a second time, with the
compiled kernel and search in place of the plain ones), so that an estimate far from the end of a
round plays thousands of deals where the rules' Python API plays a hundred.

Each deal is played out by the kernel's greedy rule (kernel.play_out) from each child of the root
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


@jit()
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
) -> None:
    """Deal d (orders[d * width : (d + 1) * width], the unknown cards in drawing order) played out
    from child c (children[c * STATE : (c + 1) * STATE]): its value into values[c * deals + d],
    and into wins the same place 1.0 when the greedy line won the round (or reached a final round
    it can cover), else 0.0."""
    st = K.scratch(K.STATE)
    for d in range(deals):
        for c in range(n):
            base = c * K.STATE
            for j in range(K.STATE):
                st[j] = children[base + j]
            stop = K.play_out(st, orders, d * width)
            at = c * deals + d
            if st[K.OUTCOME] != 0:
                values[at] = dealt_end(st, orders, stop, par, mk, mv, dk, dv, ev, ctr)
                wins[at] = 1.0 if st[K.OUTCOME] == K.WON else 0.0
            else:
                values[at] = X.final_value(st, par, mk, mv, ctr)
                wins[at] = 1.0 if X.cover(st, max(0, K.active(st) - 1), mk, mv, ctr) >= 0 else 0.0


@jit()
def dealt_end(st: Vec, order: Vec, at: int, par: Vec, mk: Any, mv: Any, dk: Any, dv: Any, ev: Vec, ctr: Vec) -> float:
    """A rollout's end of the round, valued as the search values it (expectimax.terminal), but for
    a vanguard round under `game` whose next deal surely makes the final round: that deal is the
    rest of this rollout's order (order[at:], after the pile's known top cards), the reward is the
    greedy rule's (revive a member when one is down, else keep the highest hand card), and the
    game is won if the Wolf's hand can be covered. One sample of what the search averages over
    every deal (and over the best reward), as the rest of the rollout is one sample of the
    round: a big enumeration at every end would cost a rollout a thousand times its own time."""
    h = st[K.HAND_SIZE]
    n = st[K.PILE]
    if par[X.P_OBJECTIVE] != GAME_CODE or st[K.GAME] != K.VANGUARD or st[K.FINAL] == 1:
        return float(X.terminal(st, par, mk, mv, dk, dv, ev, ctr))
    if n > 2 * h + st[K.FINAL_THRESHOLD]:
        return float(X.terminal(st, par, mk, mv, dk, dv, ev, ctr))  # beyond the exact horizon: the evaluator
    act = K.active(st)
    kept = 0
    if st[K.OUTCOME] != K.WON:
        act -= K.falling(K.cards_in(st, K.WOLF), act)
        if act <= 0:
            return 0.0
    elif act < 3:
        act += 1
    else:
        for v in range(10, 0, -1):
            if st[K.HAND + v - 1] > 0:
                kept = v
                break
    deal = K.ints(K.STATE)
    for i in range(10):
        deal[K.RESERVE + i] = st[K.RESERVE + i]
    if kept > 0:
        deal[K.RESERVE + kept - 1] += 1
    for j in range(min(2 * h, n)):
        v = st[K.TOPS + j] if j < st[K.NTOP] else order[at + j - st[K.NTOP]]
        deal[(K.HAND if X.to_the_player(j, n, h) else K.WOLF) + v - 1] += 1
    if K.cards_in(deal, K.WOLF) == 0 or X.cover(deal, max(0, act - 1), mk, mv, ctr) >= 0:
        return 1.0
    return 0.0
