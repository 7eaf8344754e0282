"""Greedy rollouts in bulk, written once for both modes like the search itself: plain Python on
lists, or compiled by numba (solver/search/compiled.py loads this file a second time, with the
compiled kernel and search in place of the plain ones), so that an estimate far from the end of a
round plays thousands of deals where the rules' Python API plays a hundred.

Each deal is played out by the kernel's greedy rule (kernel.play_out) from each child of the root
and its end valued as the search values it (expectimax.terminal, or final_value for a vanguard
round that turned final). A value does not depend on how the cards a play kept were split between
hand and reserve when the search's objective merges them, so the unmerged state is valued as is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.core.kernel import jit as plain_jit

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
            K.play_out(st, orders, d * width)
            at = c * deals + d
            if st[K.OUTCOME] != 0:
                values[at] = X.terminal(st, par, mk, mv, dk, dv, ev, ctr)
                wins[at] = 1.0 if st[K.OUTCOME] == K.WON else 0.0
            else:
                values[at] = X.final_value(st, par, mk, mv, ctr)
                wins[at] = 1.0 if X.cover(st, max(0, K.active(st) - 1), mk, mv, ctr) >= 0 else 0.0
