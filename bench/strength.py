"""Strength of the advice, measured in games (issue 15), against the other policies on the same deals.

    python bench/strength.py games [--games 2000] [--game vanguard] [--difficulty standard]
                                   [--policies hint,best,greedy] [--max-states 3000] [--samples 64]
                                   [--think S] [--seed 1] [--jobs 2]
                                   [--save OUT.json] [--paired-with EARLIER.json]
    python bench/strength.py frontier [--count 100] [--budget 2] [--seed 3]
    python bench/strength.py losses [--count 100] [--unknown 13-17] [--budget 0.05] [--seed 31]
    python bench/strength.py repeat [--count 20] [--runs 5] [--budget 2] [--seed 4]

games: every policy plays the same seeded deals (solver/play/simulate.py: game i of a seed has the
same pile order whatever the policy). The hint thinks by its budgets, --max-states and --samples
(by default 3000 states and 1000 deals a play, no clock), so a run plays the same games on any
machine under any load; --think S gives it a clock instead (with --max-states 0: the clock alone). Prints each policy's win rate with its 95% Wilson interval,
its time per game, and for every pair the paired difference (deal by deal: won by one, not the
other) with a 95% interval: the baseline is measured in the same run. --save keeps each policy's
outcomes, game by game; --paired-with pairs this run with such a file (the same deals: same
--games, --seed, game and difficulty), e.g. the hint of the code before a change.

losses: what the advice loses against exact play on the positions it reaches itself: one decision
a seeded hint game with the asked unknown cards, every play's exact `game` value (the evaluator's
table at the ends beyond the exact horizon), the hint's choice at --budget seconds (the
simulator's 0.05 by default): the mean loss in points with its 95% interval.

repeat: round-start positions of seeded games, each asked --runs times under the same time limit:
how often the recommended play is the same as the first run's, and, when it is not, whether
the first answer had marked the two plays as tied.

frontier: positions near the exact frontier (a vanguard round with 12 to 14 unknown cards in the
pile, so that the next deal is surely the final round and the exact `game` values exist): the
share where the default answer (--budget seconds) picks a play within 0.5 percentage points of
the exact best, and how long the exact values took.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core.intervals import wilson
from solver.play.driver import Setup
from solver.play.simulate import simulate

Z95 = 1.959963984540054


def paired(a: list[bool], b: list[bool]) -> tuple[float, float, float]:
    """Mean of a - b over the same deals and its 95% interval (normal: the differences are -1, 0, 1)."""
    d = [float(x) - float(y) for x, y in zip(a, b, strict=True)]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / max(1, n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def games(args: argparse.Namespace) -> None:
    import json

    setup = Setup(args.game, args.difficulty)
    results: dict[str, list[bool]] = {}
    for path in args.paired_with:
        # Another run's games on the same deals (--save), such as the code before a change.
        for name, won in json.loads(Path(path).read_text(encoding="utf-8")).items():
            results[f"{name}@{Path(path).stem}"] = won
            print(f"{name + '@' + Path(path).stem:12} won {sum(won):5}/{len(won)} (from {path})", flush=True)
    for policy in args.policies.split(","):
        t0 = time.perf_counter()
        by_states = policy == "hint" and args.max_states > 0
        records = simulate(
            setup,
            policy,
            args.games,
            args.seed,
            workers=args.jobs,
            think=args.think,
            max_states=args.max_states if by_states else None,
            samples=args.samples if by_states else None,
        )
        took = time.perf_counter() - t0
        won = [r.won for r in sorted(records, key=lambda r: r.index)]
        results[policy] = won
        lo, hi = wilson(sum(won), len(won))
        print(
            f"{policy:12} won {sum(won):5}/{len(won)} = {100 * sum(won) / len(won):5.1f}% "
            f"(95% {100 * lo:.1f}–{100 * hi:.1f}%)  {took / len(won):.3f} s a game, {took:.0f} s in all",
            flush=True,
        )
    if args.save:
        Path(args.save).write_text(json.dumps({p: results[p] for p in args.policies.split(",")}), encoding="utf-8")
    names = list(results)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            mean, lo, hi = paired(results[a], results[b])
            verdict = "better" if lo > 0 else "worse" if hi < 0 else "not told apart"
            print(f"{a} - {b}: {100 * mean:+.1f} points (95% {100 * lo:+.1f} to {100 * hi:+.1f}): {verdict}")


def frontier(args: argparse.Namespace) -> None:
    from solver.core.position import parse_position
    from solver.core.rules import initial_state
    from solver.search.engine import evaluate_moves, prepare
    from solver.search.hint import hint

    rng = random.Random(args.seed)
    within = total = 0
    exact_seconds = []
    while total < args.count:
        top = 9
        deck = [v for v in range(1, top + 1) for _ in range(4)]
        rng.shuffle(deck)
        unknown = rng.randint(12, 14)
        raw = {
            "player": deck[:4],
            "wolf": deck[4:8],
            "discard": deck[8 + unknown :],
            "draw_pile": {"size": unknown},
            "final": False,
            "party": rng.sample(["J", "Q", "K"], rng.randint(1, 3)),
        }
        pos = parse_position(raw)
        root = initial_state(pos)
        if root.outcome is not None:
            continue
        prepare(root, "game")
        t0 = time.perf_counter()
        exact, search = evaluate_moves(root, "game")
        exact_seconds.append(time.perf_counter() - t0)
        if search.estimated or not all(m.exact for m in exact):
            continue
        truth = {m.play: m.value for m in exact}
        best = max(truth.values())
        h = hint(pos, time_limit=args.budget)
        assert h.best is not None
        total += 1
        within += truth[h.best] >= best - 0.005
    exact_seconds.sort()
    print(
        f"{total} positions with 12-14 unknown cards: the {args.budget} s answer within 0.5 points of the exact "
        f"best in {within} ({100 * within / total:.0f}%); exact values took {exact_seconds[len(exact_seconds) // 2]:.1f} s "
        f"at the median, {exact_seconds[-1]:.1f} s at most"
    )


def losses(args: argparse.Namespace) -> None:
    """What the advice loses against exact play where exact play is known, on the positions the hint
    policy itself reaches (not random deals): decisions of its seeded games with LO-HI unknown
    cards, every play's exact `game` value searched (the evaluator's table at the ends beyond the
    exact horizon, as the search values them), and the hint's choice at --budget seconds."""
    from solver.core.rules import initial_state
    from solver.play.hint_policy import HintPolicy
    from solver.play.simulate import decision_tables, policy_rng
    from solver.search.engine import evaluate_moves, prepare
    from solver.search.hint import hint

    lo, hi = (int(x) for x in args.unknown.split("-"))
    pick = random.Random(args.seed)
    policy = HintPolicy(0.05)
    found: list[float] = []
    timed_out = 0
    index = 0
    while len(found) < args.count:
        rng = policy_rng(args.seed, index, "hint")
        candidates = [
            t.position()
            for t in decision_tables(Setup("vanguard", args.difficulty), policy, args.seed, index, rng)
            if t.round is not None and not t.round.final and lo <= t.round.unknown_draws <= hi
        ]
        index += 1
        if not candidates:
            continue
        pos = pick.choice(candidates)
        root = initial_state(pos)
        prepare(root, "game")
        exact, _ = evaluate_moves(root, "game", time_limit=args.exact_limit)
        if not all(m.exact for m in exact):
            timed_out += 1
            continue
        truth = {m.play: m.value for m in exact}
        answer = hint(pos, time_limit=args.budget)
        assert answer.best is not None
        found.append(max(truth.values()) - truth[answer.best])
        print(f"{len(found)}: loses {100 * found[-1]:.2f} points", file=sys.stderr, flush=True)
    n = len(found)
    mean = sum(found) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in found) / max(1, n - 1))
    print(
        f"{n} decisions of hint games with {lo}-{hi} unknown cards ({timed_out} left out: not exact in "
        f"{args.exact_limit} s): the {args.budget} s answer loses {100 * mean:.2f} points on average (95% "
        f"{100 * (mean - Z95 * sd / math.sqrt(n)):.2f} to {100 * (mean + Z95 * sd / math.sqrt(n)):.2f}), "
        f"picks an exact best play in {sum(x < 0.005 for x in found)}, loses over 5 points in "
        f"{sum(x > 0.05 for x in found)}; the most {100 * max(found):.2f}"
    )


def repeat(args: argparse.Namespace) -> None:
    from solver.play.driver import SeededDeck, advance, new_table
    from solver.search.hint import hint

    same = differ_tied = differ = 0
    seconds: list[float] = []
    for i in range(args.count):
        t = new_table(Setup("vanguard", "standard"))
        deal = SeededDeck.for_table(t, args.seed, i).next_step(t)  # the first deal
        assert deal is not None
        t = advance(t, deal)
        pos = t.position()
        first = None
        for _ in range(args.runs):
            t0 = time.perf_counter()
            h = hint(pos, time_limit=args.budget)
            seconds.append(time.perf_counter() - t0)
            if first is None:
                first = h
                continue
            if h.best == first.best:
                same += 1
            elif any(m.play == h.best and m.tied for m in first.moves):
                differ_tied += 1
            else:
                differ += 1
    n = same + differ_tied + differ
    seconds.sort()
    print(
        f"{args.count} round-start positions × {args.runs} runs at {args.budget} s: the same best play in "
        f"{same}/{n} repeats ({100 * same / n:.0f}%), another play marked tied in {differ_tied}, "
        f"another play not marked tied in {differ}; seconds p50 {seconds[len(seconds) // 2]:.2f}, "
        f"max {seconds[-1]:.2f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    g = sub.add_parser("games")
    g.add_argument("--games", type=int, default=2000)
    g.add_argument("--game", default="vanguard")
    g.add_argument("--difficulty", default="standard")
    g.add_argument("--policies", default="hint,best,greedy")
    g.add_argument("--think", type=float, default=None, help="the hint's clock, seconds a decision")
    g.add_argument("--max-states", type=int, default=3000, help="the hint's state budget (0: none, think by --think)")
    g.add_argument("--samples", type=int, default=1000, help="the hint's deals a play under --max-states")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--jobs", type=int, default=None)
    g.add_argument("--save", default=None, help="write each policy's game outcomes (JSON) for a later --paired-with")
    g.add_argument("--paired-with", action="append", default=[], help="a --save file of the same deals to compare with")
    f = sub.add_parser("frontier")
    f.add_argument("--count", type=int, default=100)
    f.add_argument("--budget", type=float, default=2.0)
    f.add_argument("--seed", type=int, default=3)
    r = sub.add_parser("repeat")
    x = sub.add_parser("losses", help="what the advice loses against exact values in its own games")
    x.add_argument("--count", type=int, default=100)
    x.add_argument("--unknown", default="13-17")
    x.add_argument("--difficulty", default="standard")
    x.add_argument("--budget", type=float, default=0.05)
    x.add_argument("--exact-limit", type=float, default=90.0)
    x.add_argument("--seed", type=int, default=31)
    r.add_argument("--count", type=int, default=20)
    r.add_argument("--runs", type=int, default=5)
    r.add_argument("--budget", type=float, default=2.0)
    r.add_argument("--seed", type=int, default=4)
    args = ap.parse_args()
    {"games": games, "frontier": frontier, "losses": losses, "repeat": repeat}[args.what](args)


if __name__ == "__main__":
    main()
