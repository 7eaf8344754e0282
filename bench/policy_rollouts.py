"""Rollouts played by the value network's own choice (issue 23, session 30), measured and not
shipped:

    python bench/estimators.py ...                      (offline: the `policy` and `mixed` columns)
    python bench/policy_rollouts.py --games 0-2000 --mode policy|mixed --out F.jsonl [--seed 4242]

Each rollout deals the unknown cards in a random order (the same orders for every play) and plays
the rest of the round by the play whose state the shipped network values most (an end of the round
valued as the search values it, a final round's decision by its cover), then values the round's
end as the tuned rollouts do (playouts.dealt_end, or final_value). One ply of the network, applied
all the way to the round's end, where the lookahead applies two plies once.

`--games` plays seeded games of the hint policy at `--max-states 3000 --samples 64` (the budgets
of bench/README.md's paired runs) with the lookahead's values replaced, for objective `game`, by
these rollouts' (`policy`) or by the average of the two (`mixed`), `--deals` a play. A measuring
harness only: it swaps solver.search.hint.looked_ahead for the run.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core.plays import Play
from solver.core.rules import State, apply, vector
from solver.search.compiled import expectimax as X
from solver.search.compiled import kernel as K
from solver.search.compiled import lookahead as L
from solver.search.compiled import network as N
from solver.search.compiled import playouts as P
from solver.search.engine import Search
from solver.search.estimate import orders_of


@numba.njit(cache=True)
def _play_out(st: Any, order: Any, at: int, par: Any, mk: Any, mv: Any, dk: Any, dv: Any, ev: Any, ctr: Any,
              net: Any, x: Any, h1: Any, h2: Any) -> int:  # fmt: skip
    """kernel.play_out with the network's choice in place of the rollout policy's: the play whose
    state the lookahead values highest at depth 0 (an end of the round as the search values it, a
    final round's decision by its cover, anything else by the network's game head)."""
    cap = 64
    out = np.empty(cap * K.MOVE, np.int64)
    child = np.empty(K.STATE, np.int64)
    drawn = np.zeros(10, np.int64)
    final_round = (st[K.RULESET] & K.FINAL_ROUND) != 0
    seen = np.zeros(L.SEEN, np.int64)
    while st[K.OUTCOME] == 0:
        if K.is_chance(st):
            d = max(1, st[K.OWED_P] + st[K.OWED_W])  # none owed: a reveal
            drawn[:] = 0
            for j in range(d):
                drawn[order[at + j] - 1] += 1
            at += d
            K.apply_draw(st, drawn, 0, child)
        elif final_round and st[K.FINAL] == 1:
            return at
        else:
            m = K.moves(st, out, cap)
            while m < 0:
                cap *= 4
                out = np.empty(cap * K.MOVE, np.int64)
                m = K.moves(st, out, cap)
            best, pick = -1.0, 0
            for g in range(m):
                K.apply_move(st, out, g * K.MOVE, child)
                v = L.value(child, 0, N.GAME_HEAD, par, mk, mv, dk, dv, ev, ctr, net, x, h1, h2, seen)
                if v > best + 1e-9:  # among equal values, the play listed first
                    best, pick = v, g
            K.apply_move(st, out, pick * K.MOVE, child)
        st[:] = child
    return at


@numba.njit(cache=True)
def _rollouts(children: Any, n: int, orders: Any, deals: int, width: int, par: Any, mk: Any, mv: Any, dk: Any,
              dv: Any, ev: Any, ctr: Any, net: Any, values: Any) -> None:  # fmt: skip
    """Deal d played out from child c into values[c * deals + d] (playouts.rollouts' layout)."""
    x = np.zeros(N.FEATURES, np.float64)
    h1 = np.zeros(int(net[N.N_HIDDEN1]), np.float64)
    h2 = np.zeros(int(net[N.N_HIDDEN2]), np.float64)
    st = np.empty(K.STATE, np.int64)
    for d in range(deals):
        for c in range(n):
            st[:] = children[c * K.STATE : (c + 1) * K.STATE]
            stop = _play_out(st, orders, d * width, par, mk, mv, dk, dv, ev, ctr, net, x, h1, h2)
            if st[K.OUTCOME] != 0:
                values[c * deals + d] = P.dealt_end(st, orders, stop, par, mk, mv, dk, dv, ev, ctr)
            else:
                values[c * deals + d] = X.final_value(st, par, mk, mv, ctr)


def dealt_children(root: State, plays: list[Play], deals: int, seed: int) -> tuple[Any, Any, int]:
    """Each play's child state, one after another; `deals` orders of the unknown cards (the same
    for every play), one after another; the cards in an order."""
    flat: list[int] = []
    for child in (apply(root, p, check=False) for p in plays):
        flat += vector(child)
    orders = orders_of(root, seed)
    dealt = [next(orders) for _ in range(deals)]
    cards = [v for order in dealt for v in order] or [0]
    return np.array(flat, np.int64), np.array(cards, np.int64), len(dealt[0]) if dealt else 0


def policy_rolled_out(root: State, plays: list[Play], net: Any, deals: int, seed: int = 0) -> dict[Play, float]:
    """Each play's mean value for the game over `deals` rollouts (the same orders for every play)."""
    judge = Search(root, "game")
    children, cards, width = dealt_children(root, plays, deals, seed)
    values = np.zeros(len(plays) * deals, np.float64)
    judge._enter()  # the search's shared memo tables, as Search.rollouts takes them
    _rollouts(children, len(plays), cards, deals, width, judge.par, *judge._memo_tables(), net, values)
    judge._after()
    return {p: float(values[c * deals : (c + 1) * deals].mean()) for c, p in enumerate(plays)}


def _games(args: argparse.Namespace) -> None:
    from solver.search import hint

    lookahead = hint.looked_ahead

    def swapped(state: State, objective: str, plays: list[Play], net: Any, *, win: bool = False) -> Any:
        got = lookahead(state, objective, plays, net, win=win)
        if objective != "game":
            return got
        pr = policy_rolled_out(state, plays, net, args.deals)
        out = {}
        for p in plays:
            v = pr[p] if args.mode == "policy" else (got[p].value + pr[p]) / 2
            # The lookahead's method kept: the hint corrects the value by the lookahead's bias table.
            out[p] = dataclasses.replace(got[p], value=v, interval=(v, v))
        return out

    hint.looked_ahead = swapped  # type: ignore[assignment]
    play_games(args.range, args.seed, args.out)


def play_games(games: tuple[int, int], seed: int, out: str) -> None:
    """Games games[0] to games[1] - 1 of `seed` by the hint at `--max-states 3000 --samples 64`
    (the budgets of bench/README.md's paired runs), each record written as it ends."""
    from solver.play.driver import Setup
    from solver.play.registry import make_policy
    from solver.play.simulate import play_game

    a, b = games
    policy = make_policy("hint", samples=64, max_states=3000)
    t0 = time.perf_counter()
    with open(out, "w", encoding="utf-8") as f:
        for i in range(a, b):
            f.write(json.dumps(play_game(Setup("vanguard", "standard"), policy, seed, i).to_json()) + "\n")
            f.flush()
            if (i - a + 1) % 20 == 0:
                print(f"{i - a + 1} games, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)


def games_parser(doc: str | None, deals: int) -> argparse.ArgumentParser:
    """The options every such harness takes: the games, the deals a play, the seed, the output."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    ap.add_argument("--games", required=True, help="a range of game numbers, e.g. 0-2000")
    ap.add_argument("--deals", type=int, default=deals)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--out", required=True)
    return ap


def parsed(ap: argparse.ArgumentParser) -> argparse.Namespace:
    """The options read and checked; `range` is --games as a pair, or the parser's usage error."""
    args = ap.parse_args()
    if args.deals < 1:
        ap.error("--deals must be 1 or more")
    try:
        a, b = (int(x) for x in args.games.split("-"))
    except ValueError:
        ap.error(f"--games must be a range like 0-2000, not {args.games!r}")
    if not 0 <= a < b:
        ap.error(f"--games must be a range like 0-2000, not {args.games!r}")
    args.range = (a, b)
    return args


def main() -> None:
    ap = games_parser(__doc__, deals=64)
    ap.add_argument("--mode", choices=("policy", "mixed"), default="policy")
    _games(parsed(ap))


if __name__ == "__main__":
    main()
