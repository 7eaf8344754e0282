"""Monte Carlo tree search with chance nodes over the value network (issue 23, session 30): the
other family issue 23 names, measured against the lookahead and not shipped.

    python bench/estimators.py ...      (offline: the `mcts` column, each play valued by its own tree)

Each play's child is the root of a tree of `iterations` descents. A descent chooses at a decision
the child of highest upper confidence bound (mean + c·sqrt(ln N / n)), and at a chance node draws
the owed cards at random from the unseen ones (the tree keeps the outcomes it has met, as separate
children); it stops at a state met for the first time, valued by the network's game head (an end
of the round as the search values it, a final round's decision by its cover), and adds that value
along its path. A decision expands every play at once, each valued so. The play's estimate is the
tree read back: the best child at a decision, the outcomes met at a chance node weighted by how
often they were met (`readback` 0), or the mean of its descents (1). Seeded: the same position gets
the same values.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from solver.core.plays import Play
from solver.core.rules import State, apply, vector
from solver.search.compiled import kernel as K
from solver.search.compiled import lookahead as L
from solver.search.compiled import network as N
from solver.search.engine import Search

DECISION, CHANCE, FIXED = range(3)


@numba.njit(cache=True)
def _leaf(st: Any, par: Any, mk: Any, mv: Any, dk: Any, dv: Any, ev: Any, ctr: Any, net: Any, x: Any, h1: Any,
          h2: Any, seen: Any) -> tuple[int, float]:  # fmt: skip
    """A state's kind in the tree, and its first value: the lookahead's at depth 0 (an end of the
    round as the search values it, a final round's decision by its cover, else the network)."""
    v = L.value(st, 0, N.GAME_HEAD, par, mk, mv, dk, dv, ev, ctr, net, x, h1, h2, seen)
    if st[K.OUTCOME] != 0 or (not K.is_chance(st) and (st[K.RULESET] & K.FINAL_ROUND) != 0 and st[K.FINAL] == 1):
        return FIXED, v
    return (CHANCE if K.is_chance(st) else DECISION), v


@numba.njit(cache=True)
def _tree(root: Any, iterations: int, c: float, readback: int, par: Any, mk: Any, mv: Any, dk: Any, dv: Any, ev: Any, ctr: Any,
          net: Any) -> float:  # fmt: skip
    """The estimate of root's value after `iterations` descents."""
    cap = 1 + iterations * 24
    states = np.empty((cap, K.STATE), np.int64)
    kind = np.zeros(cap, np.int64)
    visits = np.zeros(cap, np.float64)
    total = np.zeros(cap, np.float64)
    first = np.full(cap, -1, np.int64)  # first child
    sibling = np.full(cap, -1, np.int64)
    expanded = np.zeros(cap, np.bool_)
    x = np.zeros(N.FEATURES, np.float64)
    h1 = np.zeros(int(net[N.N_HIDDEN1]), np.float64)
    h2 = np.zeros(int(net[N.N_HIDDEN2]), np.float64)
    buf = np.empty(64 * K.MOVE, np.int64)
    drawn = np.zeros(10, np.int64)
    kid = np.empty(K.STATE, np.int64)
    path = np.empty(256, np.int64)
    seen = np.zeros(L.SEEN, np.int64)
    states[0] = root
    k0, v0 = _leaf(root, par, mk, mv, dk, dv, ev, ctr, net, x, h1, h2, seen)
    kind[0] = k0
    if k0 == FIXED:
        return v0
    used = 1
    for _ in range(iterations):
        node, depth, v = 0, 0, 0.0
        while True:
            path[depth] = node
            depth += 1
            if kind[node] == FIXED:
                v = total[node] / visits[node]
                break
            if kind[node] == DECISION:
                if not expanded[node]:
                    room = buf.shape[0] // K.MOVE
                    m = K.moves(states[node], buf, room)
                    while m < 0:
                        buf = np.empty(4 * buf.shape[0], np.int64)
                        m = K.moves(states[node], buf, buf.shape[0] // K.MOVE)
                    if used + m > cap:  # out of room: this node's value as it stands
                        v = total[node] / max(1.0, visits[node])
                        break
                    prev = -1
                    for g in range(m):
                        K.apply_move(states[node], buf, g * K.MOVE, kid)
                        states[used] = kid
                        kk, vv = _leaf(kid, par, mk, mv, dk, dv, ev, ctr, net, x, h1, h2, seen)
                        kind[used], visits[used], total[used] = kk, 1.0, vv
                        if prev < 0:
                            first[node] = used
                        else:
                            sibling[prev] = used
                        prev = used
                        used += 1
                    expanded[node] = True
                best, pick = -1e9, -1
                logn = np.log(max(1.0, visits[node]))
                ch = first[node]
                while ch >= 0:
                    u = total[ch] / visits[ch] + c * np.sqrt(logn / visits[ch])
                    if u > best:
                        best, pick = u, ch
                    ch = sibling[ch]
                node = pick
                continue
            # a chance node: draw the owed cards from the unseen ones
            st = states[node]
            d = max(1, st[K.OWED_P] + st[K.OWED_W])
            drawn[:] = 0
            left = 0
            for i in range(10):
                left += st[K.UNSEEN + i]
            for _j in range(d):
                r = np.random.randint(0, left)
                for i in range(10):
                    r -= st[K.UNSEEN + i] - drawn[i]
                    if r < 0:
                        drawn[i] += 1
                        break
                left -= 1
            K.apply_draw(st, drawn, 0, kid)
            ch = first[node]
            last = -1
            while ch >= 0:
                same = True
                for j in range(K.STATE):
                    if states[ch, j] != kid[j]:
                        same = False
                        break
                if same:
                    break
                last = ch
                ch = sibling[ch]
            if ch >= 0:
                node = ch
                continue
            if used >= cap:
                break
            states[used] = kid
            kk, vv = _leaf(kid, par, mk, mv, dk, dv, ev, ctr, net, x, h1, h2, seen)
            kind[used] = kk
            if last < 0:
                first[node] = used
            else:
                sibling[last] = used
            path[depth] = used
            depth += 1
            used += 1
            v = vv
            break
        for i in range(depth):
            visits[path[i]] += 1.0
            total[path[i]] += v
    # The tree read back, deepest nodes first (children always come after their parents).
    est = np.zeros(used, np.float64)
    for nd in range(used - 1, -1, -1):
        ch = first[nd]
        if ch < 0 or kind[nd] == FIXED:
            est[nd] = total[nd] / visits[nd] if visits[nd] > 0 else 0.0
        elif kind[nd] == DECISION:
            b = -1.0
            while ch >= 0:
                b = max(b, est[ch])
                ch = sibling[ch]
            est[nd] = b
        else:
            s, w = 0.0, 0.0
            while ch >= 0:
                s += visits[ch] * est[ch]
                w += visits[ch]
                ch = sibling[ch]
            est[nd] = s / w
    return est[0] if readback == 0 else total[0] / visits[0]


@numba.njit(cache=True)
def _values(children: Any, n: int, iterations: int, c: float, readback: int, seed: int, par: Any, mk: Any, mv: Any, dk: Any,
            dv: Any, ev: Any, ctr: Any, net: Any, out: Any) -> None:  # fmt: skip
    np.random.seed(seed)
    for i in range(n):
        out[i] = _tree(children[i], iterations, c, readback, par, mk, mv, dk, dv, ev, ctr, net)


def mcts_values(
    root: State, plays: list[Play], net: Any, iterations: int = 300, c: float = 0.1, readback: int = 0, seed: int = 0
) -> dict[Play, float]:
    """Each play's value for the game, by a tree of `iterations` descents from its child."""
    judge = Search(root, "game")
    children = np.array([vector(apply(root, p, check=False)) for p in plays], np.int64)
    out = np.zeros(len(plays), np.float64)
    judge._enter()  # the search's shared memo tables, as Search.rollouts takes them
    _values(children, len(plays), iterations, c, readback, seed, judge.par, *judge._memo_tables(), net, out)
    judge._after()
    return {p: float(out[i]) for i, p in enumerate(plays)}
