"""How well each estimator picks a play where the exact search cannot finish (issue 23, session 29):

    python bench/estimators.py [--count 200] [--seed 202] [--unknown 14-15] [--deals 256] [--out F.jsonl]

Positions of bench/estimates.py's generator (decisions of seeded greedy games and 4-against-4
rounds with the whole party, half each) whose every play's value for the game can be searched
exactly (the evaluator's table beyond the horizon). Each play is also valued by the lookahead over
the value network and by the tuned rollouts (`--deals` deals, the same for every play), each
corrected for its bias as the hint corrects it, by the average of the two, by rollouts played by
the network's own choice (`policy`, bench/policy_rollouts.py, the same deals) and by the average
of those and the lookahead, corrected as the lookahead is (`mixed`), and by Monte Carlo tree search
with chance nodes over the network (`mcts`, bench/mcts.py: `--mcts-iterations` descents a play,
constant `--mcts-c`, the tree read back). For each estimator:
the RMSE against the exact values, and the regret of the play it recommends (how much less than
the exact best it is worth), over the positions whose best play is worth 0.01 or more; then the
average's regret paired against the lookahead's. `--out` keeps every play's values (JSON lines).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from estimates import positions
from mcts import mcts_values
from policy_rollouts import policy_rolled_out

from solver.core.position import parse_position
from solver.core.rules import initial_state
from solver.search import bias, value_net
from solver.search.engine import evaluate_moves, prepare, value_range
from solver.search.estimate import Estimate, looked_ahead, rolled_out

METHODS = ("lookahead", "rollouts", "average", "policy", "mixed", "mcts")


def _corrected(e: Estimate, kind: str, unknown: int, game: str, span: tuple[float, float], estimator: str) -> float:
    lo, hi = e.interval if e.interval is not None else (e.value, e.value)
    return bias.corrected(
        e.value, (e.value - lo, hi - e.value), game=game, objective="game", target="value", kind=kind,
        unknown=unknown, value_range=span, bounds=(0.0, 1.0), estimator=estimator,
    )[0]  # fmt: skip


def rows_of(pos: Any, deals: int, exact_limit: float, mcts: tuple[int, float]) -> list[dict[str, Any]] | None:
    """Every play's exact value and each estimator's, or None if the exact search did not finish."""
    root = initial_state(parse_position({**pos.to_json(), "objective": "game"}))
    prepare(root, "game")
    exact, search = evaluate_moves(root, "game", time_limit=exact_limit)
    net = value_net.for_round(root)
    if not all(m.exact for m in exact) or search.estimated or net is None or len(exact) < 2:
        return None
    plays = [m.play for m in exact]
    la = looked_ahead(root, "game", plays, net)
    ro = rolled_out(root, "game", plays, deadline=math.inf, min_deals=deals, max_deals=deals)
    pr = policy_rolled_out(root, plays, net, deals)
    mc = mcts_values(root, plays, net, *mcts)
    span = value_range(root, "game")
    out = []
    for m in exact:
        kind, unknown = bias.kind_of(m.play), root.unknown_draws
        a = _corrected(la[m.play], kind, unknown, root.game, span, bias.NETWORK)
        b = _corrected(ro[m.play], kind, unknown, root.game, span, bias.ROLLOUTS)
        mid = (la[m.play].value + pr[m.play]) / 2
        mixed = _corrected(Estimate(mid, 0, "mixed", (mid, mid)), kind, unknown, root.game, span, bias.NETWORK)
        out.append({"play": str(m.play), "kind": kind, "exact": m.value, "lookahead": a, "rollouts": b,
                    "average": (a + b) / 2, "policy": pr[m.play], "mixed": mixed, "mcts": mc[m.play]})  # fmt: skip
    return out


def _mean_se(xs: list[float]) -> tuple[float, float]:
    m = math.fsum(xs) / len(xs)
    return m, math.sqrt(math.fsum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1) / len(xs))


def report(kept: list[list[dict[str, Any]]]) -> None:
    scored = [rows for rows in kept if max(r["exact"] for r in rows) >= 0.01]
    print(f"{len(scored)} positions whose best play is worth 0.01 or more (of {len(kept)} searched exactly)")
    regrets: dict[str, list[float]] = {k: [] for k in METHODS}
    for k in METHODS:
        errors = [(r[k] - r["exact"]) ** 2 for rows in scored for r in rows if r["kind"] != "fold"]
        for rows in scored:
            best = max(r["exact"] for r in rows)
            regrets[k].append(best - max(rows, key=lambda r: r[k])["exact"])
        m, se = _mean_se(regrets[k])
        picked = sum(1 for x in regrets[k] if x < 1e-4)
        rmse = math.sqrt(math.fsum(errors) / max(1, len(errors)))
        print(f"  {k:9} RMSE {rmse:.4f}  regret {100 * m:.2f} points (se {100 * se:.2f})  best picked {picked}")
    for k in METHODS[2:]:
        m, se = _mean_se([a - b for a, b in zip(regrets[k], regrets["lookahead"], strict=True)])
        lo, hi = 100 * (m - 1.96 * se), 100 * (m + 1.96 * se)
        print(f"  {k} - lookahead, regret: {100 * m:+.2f} points (95% {lo:+.2f} to {hi:+.2f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--count", type=int, default=200, help="positions searched exactly")
    ap.add_argument("--seed", type=int, default=202)
    ap.add_argument("--unknown", default="14-15", help="unknown cards in the pile, a range")
    ap.add_argument("--deals", type=int, default=256, help="rollout deals a play")
    ap.add_argument("--mcts-iterations", type=int, default=3000, help="descents of a play's tree")
    ap.add_argument("--mcts-c", type=float, default=0.2, help="the tree's exploration constant")
    ap.add_argument("--exact-limit", type=float, default=120.0, help="seconds for a position's exact search")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    try:
        lo, hi = (int(x) for x in args.unknown.split("-"))
    except ValueError:
        ap.error(f"--unknown must be a range like 14-15, not {args.unknown!r}")
    for flag, given in (("--count", args.count), ("--deals", args.deals), ("--mcts-iterations", args.mcts_iterations)):
        if given < 1:
            ap.error(f"{flag} must be 1 or more, not {given}")
    kept: list[list[dict[str, Any]]] = []
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115 - kept open for the run
    t0 = time.perf_counter()
    for pos in positions(args.count * 3, args.seed, lo, hi):
        if len(kept) >= args.count:
            break
        rows = rows_of(pos, args.deals, args.exact_limit, (args.mcts_iterations, args.mcts_c))
        if rows is None:
            continue
        kept.append(rows)
        if out is not None:
            out.write(json.dumps(rows) + "\n")
            out.flush()
        print(f"{len(kept)}/{args.count}, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    if out is not None:
        out.close()
    report(kept)


if __name__ == "__main__":
    main()
