"""The lookahead: expectimax over the next few plies of a round, the value network at its
frontier (issue 23), written once for both modes like the search (solver/search/compiled.py loads
this file a second time, with the compiled kernel, search and network in place of the plain ones).

A ply is a decision (every legal play, the best taken) or a chance node (every multiset the
draw can bring, weighted by its probability: kernel.draws). An end of the round is valued as the
exact search values it (expectimax.terminal: under `game` the next deal, exact within the horizon,
the evaluator's table beyond), a final round's decision by its cover (expectimax.final_value);
a state still open after `depth` plies, or a draw with more than MAX_OUTCOMES outcomes (an Over
that makes the Wolf draw five cards or more), by the network's head for the objective. The
lookahead never looks at the pile's order, and nothing in it is sampled: the same position gets
the same values every time, in a time fixed by its depth.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.core.kernel import jit as plain_jit

K: Any
X: Any
N: Any
try:  # compiled mode (solver/search/compiled.py)
    K = __lobo_kernel__  # type: ignore[name-defined]
    X = __lobo_search__  # type: ignore[name-defined]
    N = __lobo_network__  # type: ignore[name-defined]
except NameError:
    from solver.core import kernel as K
    from solver.search import expectimax as X
    from solver.search import network as N

if TYPE_CHECKING:
    jit = plain_jit
else:
    jit = K.jit

Vec = Any

MAX_OUTCOMES = 200  # a draw with more outcomes than this is valued by the network, not expanded
NODES, READS = range(2)  # counts kept in `seen`: states expanded, network reads
SEEN = 2


@jit(heap=True)
def value(
    st: Vec,
    depth: int,
    head: int,
    par: Vec,
    mk: Any,
    mv: Any,
    dk: Any,
    dv: Any,
    ev: Vec,
    ctr: Vec,
    net: Vec,
    x: Vec,
    h1: Vec,
    h2: Vec,
    seen: Vec,
) -> float:  # pragma: no cover - compiled, and run plain by the tests
    """The value of st (any state of the round) by expectimax over `depth` more plies, the
    network's output `head` at the frontier (one function: compiled recursion stays within one)."""
    if st[K.OUTCOME] != 0:
        return X.terminal(st, par, mk, mv, dk, dv, ev, ctr)
    chance = K.is_chance(st)
    if not chance and (st[K.RULESET] & K.FINAL_ROUND) != 0 and st[K.FINAL] == 1:
        return X.final_value(st, par, mk, mv, ctr)
    n = 0
    d = 0
    if chance:
        d = K.owed_now(st)
        n = K.draw_count(st, K.UNSEEN, d)
    if depth <= 0 or n > MAX_OUTCOMES:
        seen[READS] += 1
        return N.evaluate(st, head, net, x, h1, h2)
    seen[NODES] += 1
    if chance:
        outs = K.ints(n * 10)
        prob = K.floats(n)
        K.draws(st, K.UNSEEN, d, outs, prob)
        kid = K.ints(K.STATE)
        v = 0.0
        for j in range(n):
            K.apply_draw(st, outs, j * 10, kid)
            v += prob[j] * value(kid, depth - 1, head, par, mk, mv, dk, dv, ev, ctr, net, x, h1, h2, seen)
        return v
    room = X.ROOM
    buf = K.scratch(room * K.MOVE)
    m = K.moves(st, buf, room)
    while m < 0:
        room *= 4
        buf = K.scratch(room * K.MOVE)
        m = K.moves(st, buf, room)
    child = K.ints(K.STATE)
    best = -1.0
    for g in range(m):
        K.apply_move(st, buf, g * K.MOVE, child)
        cv = value(child, depth - 1, head, par, mk, mv, dk, dv, ev, ctr, net, x, h1, h2, seen)
        if cv > best:
            best = cv
    return best


@jit(heap=True)
def values(
    children: Vec,
    n: int,
    depth: int,
    head: int,
    par: Vec,
    mk: Any,
    mv: Any,
    dk: Any,
    dv: Any,
    ev: Vec,
    ctr: Vec,
    net: Vec,
    out: Vec,
    seen: Vec,
) -> None:
    """value() of each of n states (children[c * STATE : (c + 1) * STATE]) into out[c]."""
    x = K.floats(N.FEATURES)
    h1 = K.floats(int(net[N.N_HIDDEN1]))
    h2 = K.floats(int(net[N.N_HIDDEN2]))
    st = K.ints(K.STATE)
    for c in range(n):
        for j in range(K.STATE):
            st[j] = children[c * K.STATE + j]
        out[c] = value(st, depth, head, par, mk, mv, dk, dv, ev, ctr, net, x, h1, h2, seen)
