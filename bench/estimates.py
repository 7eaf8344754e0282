"""Are the hint's numbers what they say? (issue 23)

    python bench/estimates.py coverage [--count 30] [--seed 21] [--unknown 10-13] [--objective game] [--game lobo]
    python bench/estimates.py calibration GAMES.jsonl [GAMES.jsonl ...] [--split-unknown 14]

coverage: rounds whose exact values can be searched (vanguard decisions of seeded greedy games,
and 4-against-4 rounds with the whole party dealt at random, half each, with the asked number of
unknown cards), asked under `--time-limit 0.3` and under `--max-states 500` (with the command's
default 2 s clock, as `lobo-hint POS --max-states 500` asks): for every play whose value the
answer estimates, whether its 95% interval holds the exact value (and under `game` the same for
the win probability's interval); and how much the recommended play loses against the exact best.

calibration: the `predicted` chances of `simulate --policy hint --games-out` records against the
games' outcomes: the mean predicted chance against the share of those decisions' games won, by
band of prediction, and the Brier score against always predicting the observed share; with
--split-unknown N, the same tables for the decisions with at most N unknown cards in the pile and
for those with more (each game replayed to count them).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core.cards import DIFFICULTIES
from solver.core.intervals import wilson
from solver.core.position import Position, parse_position
from solver.core.rules import initial_state
from solver.play.driver import PLAY
from solver.play.simulate import GameRecord, replay_record
from solver.search.engine import evaluate_moves, prepare
from solver.search.hint import MIDPOINT, hint
from solver.train.rollout_bias import dealt_rounds as lobo_rounds
from solver.train.rollout_bias import decisions, with_scores

BANDS = (0.0, 0.05, 0.10, 0.20, 0.30, 0.50, 0.70, 0.90, 1.0001)
EPS = 1e-9


def dealt_rounds(seed: int, lo: int, hi: int) -> object:
    """4 against 4, the whole party, a standard deck, the rest discarded at random."""
    rng = random.Random(seed)
    while True:
        deck = [v for v in range(1, 10) for _ in range(4)]
        rng.shuffle(deck)
        unknown = rng.randint(lo, hi)
        yield parse_position(
            {
                "player": deck[:4],
                "wolf": deck[4:8],
                "discard": deck[8 + unknown :],
                "draw_pile": {"size": unknown},
                "final": False,
            }
        )


def positions(count: int, seed: int, lo: int, hi: int, game: str = "vanguard") -> list[Position]:
    """vanguard: decisions of greedy games and 4-against-4 rounds, half each; lobo: decisions of
    greedy games and rounds dealt in full, half each, every difficulty, each in a race under way
    (rollout_bias.with_scores: the scores' bands at random)."""
    out: list[Position] = []
    sources: list[Any] = [decisions(game, d, seed + i, lo, hi) for i, d in enumerate(("easy", "standard", "hard"))]
    dealt: Any = dealt_rounds(seed, lo, hi)
    if game == "lobo":
        sources = [with_scores(s, seed + 7 * i) for i, s in enumerate(sources)]
        rounds = [
            with_scores(lobo_rounds("lobo", d, seed + i, lo, hi), seed + 11 * i) for i, d in enumerate(DIFFICULTIES)
        ]
        dealt = (next(rounds[k % 3]) for k in itertools.count())
    while len(out) < count:
        source = dealt if len(out) % 2 else sources[len(out) // 2 % 3]
        out.append(next(source))
    return out


def coverage(args: argparse.Namespace) -> None:
    lo, hi = (int(x) for x in args.unknown.split("-"))
    budgets = {"--time-limit 0.3": {"time_limit": 0.3}, "--max-states 500": {"time_limit": 2.0, "max_states": 500}}
    tally = {b: {"plays": 0, "held": 0, "win_plays": 0, "win_held": 0, "losses": []} for b in budgets}
    misses: list[str] = []
    done = 0
    for pos in positions(args.count * 3, args.seed, lo, hi, args.game):
        if done >= args.count:
            break
        pos = parse_position({**pos.to_json(), "objective": args.objective})
        root = initial_state(pos)
        prepare(root, args.objective)
        t0 = time.perf_counter()
        exact, search = evaluate_moves(root, args.objective, time_limit=args.exact_limit, scores=pos.scores)
        # lobo: searched to the round's end, the race's table beyond (what the bias was measured
        # against); vanguard: exact to the end of the game.
        if not all(m.exact for m in exact) or (search.estimated and args.game == "vanguard"):
            continue
        truth = {m.play: m.value for m in exact}
        wins: dict[object, float] = {}
        if args.objective == "game" and args.game == "vanguard":
            wv, _ = evaluate_moves(root, "win", time_limit=args.exact_limit)
            if not all(m.exact for m in wv):
                continue
            wins = {m.play: m.value for m in wv}
        took = time.perf_counter() - t0
        done += 1
        best = max(truth.values())
        for name, budget in budgets.items():
            h = hint(pos, **budget)  # type: ignore[arg-type]
            t = tally[name]
            assert h.best is not None
            t["losses"].append(best - truth[h.best])  # type: ignore[union-attr]
            for m in h.moves:
                # Every play whose value is estimated (rollouts or the network's lookahead), not
                # the middle of its bounds, which hold it by construction.
                estimated = m.method is not None and m.method != MIDPOINT
                if m.interval is not None and m.bounds is not None and estimated:
                    t["plays"] += 1  # type: ignore[operator]
                    ok = m.interval[0] - EPS <= truth[m.play] <= m.interval[1] + EPS
                    t["held"] += ok  # type: ignore[operator]
                    if not ok:
                        misses.append(
                            f"{name} u={root.unknown_draws} {m.play} {m.method} {m.interval} exact {truth[m.play]:.4f}"
                        )
                if wins and m.win_interval is not None and estimated:
                    t["win_plays"] += 1  # type: ignore[operator]
                    t["win_held"] += m.win_interval[0] - EPS <= wins[m.play] <= m.win_interval[1] + EPS  # type: ignore[operator]
        print(f"{done}/{args.count} u={root.unknown_draws} exact in {took:.1f} s", file=sys.stderr, flush=True)
    print(f"{done} {args.game} rounds with {lo}-{hi} unknown cards, objective {args.objective}, seed {args.seed}")
    for name, t in tally.items():
        losses = sorted(t["losses"])  # type: ignore[type-var]
        n, k = t["plays"], t["held"]
        a, b = wilson(k, n) if n else (0.0, 1.0)  # type: ignore[arg-type]
        line = f"  {name:18} intervals holding the exact value: {k}/{n}"
        line += f" = {100 * k / max(1, n):.1f}% (95% {100 * a:.1f}–{100 * b:.1f}%)"  # type: ignore[operator]
        if t["win_plays"]:
            line += f"; win probability {t['win_held']}/{t['win_plays']}"
        mean_loss = sum(losses) / max(1, len(losses))
        line += f"; recommended play loses {100 * mean_loss:.2f} points on average, {100 * losses[-1]:.2f} at most"
        print(line)
    for m in misses[: args.show_misses]:
        print("  missed:", m)


def _unknown_at_steps(raw: dict[str, Any]) -> dict[int, int]:
    """The unknown cards in the pile at each play step of a record (its game replayed)."""
    game = replay_record(GameRecord.from_json(raw))
    out: dict[int, int] = {}
    for i, t in enumerate(game.tables[:-1]):
        if t.phase == PLAY and t.round is not None:
            out[i] = initial_state(t.position()).unknown_draws
    return out


def _seam(records: list[dict[str, Any]]) -> None:
    """At the seam between two regular rounds of vanguard (the Player's won): the last play of the
    round, whose chance reads the evaluator's cell of the next deal, and the next round's first
    play, valued by a search of its own; a reward taken between them has no prediction."""
    last: list[tuple[float, bool]] = []
    after: list[tuple[float, bool]] = []
    for raw in records:
        won = raw["result"] == "won"
        steps = raw["steps"]
        plays = [i for i, s in enumerate(steps) if s["step"] == "play"]
        for i, s in enumerate(steps):
            if s["step"] != "reward":
                continue
            before = [j for j in plays if j < i]
            later = [j for j in plays if j > i]
            if before and steps[before[-1]].get("predicted") is not None:
                last.append((steps[before[-1]]["predicted"], won))
            if later and steps[later[0]].get("predicted") is not None:
                after.append((steps[later[0]]["predicted"], won))
    print("## the last play of a round won (the next deal read from the evaluator's cell)")
    print_calibration(last, [], f"{len(records)} games")
    print("\n## the next round's first play")
    print_calibration(after, [], f"{len(records)} games")


def calibration(args: argparse.Namespace) -> None:
    records = [json.loads(line) for path in args.files for line in Path(path).read_text(encoding="utf-8").splitlines()]
    if args.seam:
        _seam(records)
        return
    if args.split_unknown is None:
        _calibration_tables(records, None)
        return
    edge = args.split_unknown
    unknown = [_unknown_at_steps(raw) for raw in records]
    print(f"## at most {edge} unknown cards in the pile")
    _calibration_tables(records, lambda g, i: unknown[g][i] <= edge)
    print(f"\n## more than {edge} unknown cards in the pile")
    _calibration_tables(records, lambda g, i: unknown[g][i] > edge)


def _calibration_tables(records: list[dict[str, Any]], keep: Callable[[int, int], bool] | None) -> None:
    pairs: list[tuple[float, bool]] = []
    first: list[tuple[float, bool]] = []  # each game's first decision
    games = len(records)
    for g, raw in enumerate(records):
        won = raw["result"] == "won"
        found = [
            (s["predicted"], won)
            for i, s in enumerate(raw["steps"])
            if s.get("predicted") is not None and (keep is None or keep(g, i))
        ]
        pairs += found
        first += found[:1]
    print_calibration(pairs, first, f"{games} games")


def print_calibration(pairs: list[tuple[float, bool]], first: list[tuple[float, bool]], of: str) -> None:
    """The calibration of (predicted, won) pairs: mean, Brier score, and the table by band of
    prediction; `first`, each game's first decision, gets a line of its own when given."""
    n = len(pairs)
    mean = sum(p for p, _ in pairs) / n
    rate = sum(w for _, w in pairs) / n
    brier = sum((p - w) ** 2 for p, w in pairs) / n
    base = sum((rate - w) ** 2 for _, w in pairs) / n
    print(f"{of}, {n} decisions with a prediction")
    print(f"mean predicted {100 * mean:.1f}%, won {100 * rate:.1f}% ({100 * (mean - rate):+.1f} points)")
    print(f"Brier {brier:.4f} against {base:.4f} for always {100 * rate:.1f}% (skill {1 - brier / base:+.3f})")
    if first:
        rate1 = sum(w for _, w in first) / len(first)
        brier1 = sum((p - w) ** 2 for p, w in first) / len(first)
        base1 = sum((rate1 - w) ** 2 for _, w in first) / len(first)
        mean1 = sum(p for p, _ in first) / len(first)
        print(
            f"first decision of each game: mean predicted {100 * mean1:.1f}%, won {100 * rate1:.1f}%; "
            f"Brier {brier1:.4f} against {base1:.4f} (skill {1 - brier1 / base1:+.3f})"
        )
    print("| predicted | decisions | mean predicted | won | 95% | off by |")
    print("|---|---|---|---|---|---|")
    for a, b in itertools.pairwise(BANDS):
        band = [(p, w) for p, w in pairs if a <= p < b]
        if not band:
            continue
        m = sum(p for p, _ in band) / len(band)
        k = sum(w for _, w in band)
        lo, hi = wilson(k, len(band))
        print(
            f"| {100 * a:.0f}–{min(100, 100 * b):.0f}% | {len(band)} | {100 * m:.1f}% | {100 * k / len(band):.1f}% "
            f"| {100 * lo:.1f}–{100 * hi:.1f}% | {100 * (m - k / len(band)):+.1f} |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("coverage")
    c.add_argument("--count", type=int, default=30)
    c.add_argument("--seed", type=int, default=21)
    c.add_argument("--unknown", default="10-13")
    c.add_argument("--objective", default="game", choices=("game", "win", "party"))
    c.add_argument(
        "--game", default="vanguard", choices=("vanguard", "lobo"), help="lobo: races under way, objective game"
    )
    c.add_argument("--exact-limit", type=float, default=120.0, help="seconds for a round's exact values")
    c.add_argument("--show-misses", type=int, default=0)
    k = sub.add_parser("calibration")
    k.add_argument("files", nargs="+")
    k.add_argument("--split-unknown", type=int, default=None, help="tables apart for at most / more unknown cards")
    k.add_argument("--seam", action="store_true", help="only the plays either side of a reward (vanguard)")
    args = ap.parse_args()
    {"coverage": coverage, "calibration": calibration}[args.what](args)


if __name__ == "__main__":
    main()
