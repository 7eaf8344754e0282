"""Hindsight optimisation (perfect-information Monte Carlo) as the hint's estimator beyond the exact
horizon (issue 23, session 41): measured, much weaker, not shipped (bench/README.md).

    python bench/hindsight.py --games 0-2000 --deals 32 --out F.jsonl [--seed 4242] [--mode rank]

Each deal orders the unknown cards at random (the same orders for every play). Knowing that order,
the rest of the round is searched for the line worth most (every play, the draws read off the
order), its end valued as the search values it (expectimax.terminal: under `game` the next deal,
exact within the horizon, the evaluator's table beyond; it never looks at the next deal's cards),
a final round's decision by its cover. A play's hindsight value is the mean over deals. It leans
high (the line is chosen knowing the draws); in Klondike, where the same bias is known, hindsight
at the root was the strongest family (Bjarnason, Fern and Tadepalli, ICAPS 2009).

`--games` plays seeded games of the hint policy at `--max-states 3000 --samples 64` (the budgets
of bench/README.md's paired runs). Where the hint would read the lookahead (beyond the exact
horizon, objective `game`), `--mode rank` keeps the lookahead's value of the best non-Fold play
(corrected for its bias, as the hint corrects it) and orders the other non-Fold plays below it by
how far their hindsight values fall short of the best: a Fold is weighed as before, only the choice
among the plays changes. A measuring harness only: it swaps solver.search.hint.looked_ahead.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numba import types
from numba.typed import Dict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from policy_rollouts import dealt_children, games_parser, parsed, play_games

from solver.core.plays import Play
from solver.core.rules import State
from solver.search.compiled import expectimax as X
from solver.search.compiled import kernel as K
from solver.search.compiled import lookahead as L
from solver.search.compiled import network as N
from solver.search.engine import Search

KEY = types.UniTuple(types.int64, 3)
NODES = 20_000  # decision states a deal's search may expand; past it a state is valued by the network


@numba.njit(cache=True)
def _key(st: Any) -> tuple[int, int, int]:
    """A decision state within one deal: the draws so far follow from the pile's size."""
    k0 = 0
    k1 = 0
    k2 = 0
    for i in range(10):
        k0 |= st[K.HAND + i] << (3 * i)
        k1 |= st[K.WOLF + i] << (3 * i)
        k2 |= st[K.RESERVE + i] << (3 * i)
    k2 |= st[K.PILE] << 30
    k2 |= st[K.PARTY] << 37
    k2 |= st[K.FINAL] << 40
    return (k0, k1, k2)


@numba.njit(cache=True)
def _best(st: Any, order: Any, n0: int, par: Any, mk: Any, mv: Any, dk: Any, dv: Any, ev: Any, ctr: Any, memo: Any,
          count: Any, net: Any, x: Any, h1: Any, h2: Any, seen: Any) -> float:  # fmt: skip
    """The value of st's best line when the pile's unknown cards come in `order` (n0: the pile's
    size where order[0] is its top)."""
    if st[K.OUTCOME] != 0:
        return X.terminal(st, par, mk, mv, dk, dv, ev, ctr)
    if K.is_chance(st):
        d = max(1, st[K.OWED_P] + st[K.OWED_W])
        drawn = np.zeros(10, np.int64)
        at = n0 - st[K.PILE]
        for j in range(d):
            drawn[order[at + j] - 1] += 1
        kid = np.empty(K.STATE, np.int64)
        K.apply_draw(st, drawn, 0, kid)
        return _best(kid, order, n0, par, mk, mv, dk, dv, ev, ctr, memo, count, net, x, h1, h2, seen)
    if (st[K.RULESET] & K.FINAL_ROUND) != 0 and st[K.FINAL] == 1:
        return X.final_value(st, par, mk, mv, ctr)
    k = _key(st)
    if k in memo:
        return memo[k]
    count[0] += 1
    if count[0] > NODES:
        count[2] += 1
        return L.value(st, 0, N.GAME_HEAD, par, mk, mv, dk, dv, ev, ctr, net, x, h1, h2, seen)
    cap = 48
    buf = np.empty(cap * K.MOVE, np.int64)
    m = K.moves(st, buf, cap)
    while m < 0:
        cap *= 4
        buf = np.empty(cap * K.MOVE, np.int64)
        m = K.moves(st, buf, cap)
    kid = np.empty(K.STATE, np.int64)
    best = 0.0
    for g in range(m):
        K.apply_move(st, buf, g * K.MOVE, kid)
        v = _best(kid, order, n0, par, mk, mv, dk, dv, ev, ctr, memo, count, net, x, h1, h2, seen)
        if v > best:
            best = v
            if best >= 1.0:
                break
    memo[k] = best
    return best


@numba.njit(cache=True)
def _values(children: Any, n: int, orders: Any, deals: int, width: int, n0: int, par: Any, mk: Any, mv: Any,
            dk: Any, dv: Any, ev: Any, ctr: Any, net: Any, values: Any, count: Any) -> None:  # fmt: skip
    """Deal d searched from child c into values[c * deals + d]; one memo a deal, shared by the plays."""
    st = np.empty(K.STATE, np.int64)
    x = np.zeros(N.FEATURES, np.float64)
    h1 = np.zeros(int(net[N.N_HIDDEN1]), np.float64)
    h2 = np.zeros(int(net[N.N_HIDDEN2]), np.float64)
    seen = np.zeros(L.SEEN, np.int64)
    for d in range(deals):
        memo = Dict.empty(key_type=KEY, value_type=types.float64)
        count[1] = max(count[1], count[0])
        count[0] = 0
        order = orders[d * width : (d + 1) * width]
        for c in range(n):
            st[:] = children[c * K.STATE : (c + 1) * K.STATE]
            values[c * deals + d] = _best(
                st, order, n0, par, mk, mv, dk, dv, ev, ctr, memo, count, net, x, h1, h2, seen
            )


def hindsight_values(
    root: State, plays: list[Play], net: Any, deals: int, seed: int = 0
) -> tuple[dict[Play, float], int]:
    """Each play's mean hindsight value for the game over `deals` orders (the same for every play),
    and how many states the node cap left to the network."""
    judge = Search(root, "game")
    children, cards, width = dealt_children(root, plays, deals, seed)
    values = np.zeros(len(plays) * deals, np.float64)
    count = np.zeros(3, np.int64)
    judge._enter()
    n0 = root.pile_size - len(root.pile_top)
    _values(children, len(plays), cards, deals, width, n0, judge.par, *judge._memo_tables(), net, values, count)
    judge._after()
    count[1] = max(count[1], count[0])
    return {p: float(values[c * deals : (c + 1) * deals].mean()) for c, p in enumerate(plays)}, int(count[2])


def _games(args: argparse.Namespace) -> None:
    from solver.search import bias, hint
    from solver.search.engine import value_range
    from solver.search.estimate import NETWORK_ALONE

    lookahead = hint.looked_ahead

    def swapped(
        state: State, objective: str, plays: list[Play], net: Any, *, win: bool = False, deadline: Any = None
    ) -> Any:
        got = lookahead(state, objective, plays, net, win=win, deadline=deadline)
        if objective != "game" or state.pile_top:
            return got
        moving = [p for p in plays if p.kind != "fold"]
        if len(moving) < 2:
            return got
        hv, _ = hindsight_values(state, moving, net, args.deals, seed=args.hseed)
        span = value_range(state, "game")

        def corrected(p: Play) -> float:
            e = got[p]
            return bias.corrected(
                e.value, (0.0, 0.0), game=state.game, objective="game", target="value", kind=bias.kind_of(p),
                unknown=state.unknown_draws, value_range=span, bounds=(0.0, 1.0), estimator=bias.NETWORK,
            )[0]  # fmt: skip

        top = max(corrected(p) for p in moving)
        best_h = max(hv.values())
        out = dict(got)
        for p in moving:
            v = max(0.0, top - (best_h - hv[p]))
            # NETWORK_ALONE: the hint takes the value as it is, within the search's bounds.
            out[p] = dataclasses.replace(got[p], value=v, interval=(v, v), method=NETWORK_ALONE)
        return out

    hint.looked_ahead = swapped  # type: ignore[assignment]
    play_games(args.range, args.seed, args.out)


def main() -> None:
    ap = games_parser(__doc__, deals=32)
    ap.add_argument("--hseed", type=int, default=0, help="the seed of the hindsight's orders")
    _games(parsed(ap))


if __name__ == "__main__":
    main()
