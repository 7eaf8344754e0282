"""Hint search speed against a plain memoized expectimax measured in the same run, and the quality
of budget-limited answers at round start.

    python bench/hint.py exact [--piles 8,10] [--seeds 3] [--python]
    python bench/hint.py exact --piles 12 --seeds 5 --no-plain [--values FILE]
    python bench/hint.py start [--count 50] [--budget 2] [--difficulty standard]
    python bench/hint.py frontier [--count 20] [--budget 2] [--seed 3]

Each takes --threads N (default: as many as `lobo-hint` answers with, at most 2); exact and
frontier run every position on one thread too, as the baseline.

exact: 4 v 4 standard hands, full party, no reserve, a pile of N unseen cards (everything else
discarded), objective win. Prints per pile: states and seconds of the plain search and of the
engine, and the ratio plain/engine (above 1: the engine is faster). Values must agree.

start: round-start positions (4 v 4 dealt from a full deck), a time budget per position; prints
how many are exact, how often the best play is proven best (its lower bound at least every other
play's upper bound), and the width of the best play's bounds.

frontier: positions drawn as bench/strength.py's frontier draws them, with 13 or 14 unknown cards
(objective `game`, 4 v 4, a random party): how many answers at --budget seconds are exact, and
of the rest, which search stopped (the game values', the round's win probabilities', or both).

--no-plain: the engine alone (the plain search takes minutes a position from 12 cards on), with its
CPU time split into user and system (a fresh table's pages are the system's); --values FILE writes
every play's value the first time and checks them against it after (a change must keep them).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core.position import parse_position
from solver.core.rules import WON, State, apply, apply_outcome, chance_outcomes, initial_state, legal_plays
from solver.search.engine import cores
from solver.search.hint import hint


def class_position(seed: int, pile: int, difficulty: str = "standard") -> dict[str, Any]:
    rng = random.Random(seed)
    top = {"easy": 8, "standard": 9, "hard": 10}[difficulty]
    deck = [v for v in range(1, top + 1) for _ in range(4)]
    rng.shuffle(deck)
    return {
        "game": "vanguard",
        "difficulty": difficulty,
        "player": deck[:4],
        "wolf": deck[4:8],
        "discard": deck[8 + pile :],
        "draw_pile": {"size": pile},
        "objective": "win",  # the class the speed table has always measured (issue 14)
        "final": False,
    }


def plain_values(root: State) -> tuple[dict[str, float], int]:
    """The baseline: expectimax over every play and every draw, memoized on the state, nothing else."""
    memo: dict[State, float] = {}

    def value(s: State) -> float:
        if s.outcome is not None:
            return 1.0 if s.outcome == WON else 0.0
        got = memo.get(s)
        if got is not None:
            return got
        if s.is_chance:
            v = sum(float(p) * value(apply_outcome(s, o)) for o, p in chance_outcomes(s))
        else:
            v = max(value(apply(s, p)) for p in legal_plays(s))
        memo[s] = v
        return v

    return {str(p): value(apply(root, p)) for p in legal_plays(root)}, len(memo)


def engine_only(args: argparse.Namespace) -> None:
    """The engine alone on the class positions: wall, user and system seconds, states, on one
    thread (the baseline) and on --threads, one after the other; values recorded in or checked
    against --values, and the two runs' values against each other."""
    import json
    import resource

    from solver.search.compiled import warm_up

    warm_up()
    known = json.loads(Path(args.values).read_text()) if args.values and Path(args.values).exists() else None
    found: dict[str, dict[str, float]] = {}
    runs = sorted({1, args.threads})
    walls: dict[int, list[float]] = {n: [] for n in runs}
    print(f"{'pile':>4} {'seed':>4} {'threads':>7} {'wall s':>7} {'user s':>7} {'sys s':>6} {'states':>9} exact")
    for pile in (int(x) for x in args.piles.split(",")):
        for seed in range(args.seeds):
            pos = parse_position(class_position(seed, pile))
            for n in runs:
                r0, t = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
                h = hint(pos, threads=n)
                wall, r1 = time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF)
                walls[n].append(wall)
                values = {str(m.play): float(m.value or 0.0) for m in h.moves}
                first = found.setdefault(f"{pile}/{seed}", values)
                assert all(abs(first[p] - v) < 1e-12 for p, v in values.items()), (pile, seed, n)
                print(
                    f"{pile:>4} {seed:>4} {n:>7} {wall:>7.2f} {r1.ru_utime - r0.ru_utime:>7.2f} "
                    f"{r1.ru_stime - r0.ru_stime:>6.2f} {h.stats['states']:>9} {h.exact}",
                    flush=True,
                )
    for n in runs:
        print(f"{n} thread(s): engine seconds median {statistics.median(walls[n]):.2f}, max {max(walls[n]):.2f}")
    if len(runs) > 1:
        ratios = [a / b for a, b in zip(walls[1], walls[runs[-1]], strict=True)]
        print(f"one thread / {runs[-1]}: median {statistics.median(ratios):.2f} (lowest {min(ratios):.2f})")
    if known is None and args.values:
        Path(args.values).write_text(json.dumps(found))
        print(f"values written to {args.values}")
    elif known is not None:
        differ = [f"{k} {p}" for k, plays in found.items() for p, v in plays.items() if abs(known[k][p] - v) > 1e-12]
        print(f"values against {args.values}: {len(differ)} differ {differ[:5]}")


def exact(args: argparse.Namespace) -> None:
    """Plain expectimax, then the engine as `lobo-hint` runs it (the compiled search from 8 unknown
    cards on), and with --python also the engine's Python search, all on the same positions."""
    from solver.search.compiled import warm_up

    warm_up()  # loading the machine code (about 0.7 s once per process) is not the search's time
    print(
        f"{'pile':>4} {'seed':>4} {'plain s':>9} {'plain states':>12} {'engine s':>9} {'engine states':>13} "
        f"{'ratio':>7}" + (f" {'python s':>9} {'ratio':>7}" if args.python else "")
    )
    ratios, py_ratios, engine_times = [], [], []
    for pile in (int(x) for x in args.piles.split(",")):
        for seed in range(args.seeds):
            pos = parse_position(class_position(seed, pile))
            t = time.perf_counter()
            plain, n_plain = plain_values(initial_state(pos))
            t_plain = time.perf_counter() - t
            t = time.perf_counter()
            h = hint(pos)
            t_engine = time.perf_counter() - t
            for m in h.moves:
                assert abs((m.value or 0.0) - plain[str(m.play)]) < 1e-9, (pile, seed, str(m.play))
            ratios.append(t_plain / t_engine)
            engine_times.append(t_engine)
            line = (
                f"{pile:>4} {seed:>4} {t_plain:>9.2f} {n_plain:>12} {t_engine:>9.2f} {h.stats['states']:>13} "
                f"{t_plain / t_engine:>7.2f}"
            )
            if args.python:
                os.environ["LOBO_HINT_ENGINE"] = "python"
                t = time.perf_counter()
                hp = hint(pos)
                t_py = time.perf_counter() - t
                del os.environ["LOBO_HINT_ENGINE"]
                for m in hp.moves:
                    assert abs((m.value or 0.0) - plain[str(m.play)]) < 1e-9, (pile, seed, str(m.play))
                py_ratios.append(t_plain / t_py)
                line += f" {t_py:>9.2f} {t_plain / t_py:>7.2f}"
            print(line, flush=True)
    print(
        f"median ratio plain/engine: {statistics.median(ratios):.2f} (lowest {min(ratios):.2f}); "
        f"engine seconds median {statistics.median(engine_times):.2f}, max {max(engine_times):.2f}"
    )
    if py_ratios:
        print(f"median ratio plain/python engine: {statistics.median(py_ratios):.2f}")


def start(args: argparse.Namespace) -> None:
    exact_n = proven = 0
    widths = []
    for seed in range(args.count):
        rng = random.Random(f"start-{seed}")
        top = {"easy": 8, "standard": 9, "hard": 10}[args.difficulty]
        deck = [v for v in range(1, top + 1) for _ in range(4)]
        rng.shuffle(deck)
        pos = parse_position({"difficulty": args.difficulty, "player": deck[:4], "wolf": deck[4:8], "final": False})
        h = hint(pos, time_limit=args.budget, threads=args.threads)
        exact_n += h.exact
        bounds = {m.play: (m.bounds or (m.value or 0.0, m.value or 0.0)) for m in h.moves}
        assert h.best is not None
        lo_best, hi_best = bounds[h.best]
        widths.append(hi_best - lo_best)
        proven += all(lo_best >= hi for p, (_, hi) in bounds.items() if p != h.best)
    print(
        f"{args.count} round-start positions ({args.difficulty}), {args.budget} s each: exact {exact_n}, "
        f"best play proven best {proven} ({100 * proven / args.count:.0f}%), best play's bound width "
        f"median {statistics.median(widths):.3f}, max {max(widths):.3f}"
    )


def frontier(args: argparse.Namespace) -> None:
    """Each position answered on one thread (the baseline), then on --threads, one after the other."""
    rng = random.Random(args.seed)
    runs = sorted({1, args.threads})
    done = 0
    exact_n = dict.fromkeys(runs, 0)
    values_open = dict.fromkeys(runs, 0)
    wins_open = dict.fromkeys(runs, 0)
    states: dict[int, list[int]] = {n: [] for n in runs}
    while done < args.count:
        deck = [v for v in range(1, 10) for _ in range(4)]
        rng.shuffle(deck)
        unknown = rng.randint(13, 14)
        raw = {
            "player": deck[:4], "wolf": deck[4:8], "discard": deck[8 + unknown :], "draw_pile": {"size": unknown},
            "final": False, "party": rng.sample(["J", "Q", "K"], rng.randint(1, 3)),
        }  # fmt: skip
        pos = parse_position(raw)
        if initial_state(pos).outcome is not None:
            continue
        done += 1
        for n in runs:
            h = hint(pos, time_limit=args.budget, threads=n)
            exact_n[n] += h.exact
            values_open[n] += any(m.bounds is not None for m in h.moves)
            wins_open[n] += any(m.win_interval is not None for m in h.moves)
            states[n].append(int(h.stats.get("states", 0)))
    for n in runs:
        print(
            f"{args.count} frontier positions (13-14 unknown), {args.budget} s each, {n} thread(s): exact "
            f"{exact_n[n]}; game values open in {values_open[n]}, win probabilities open in {wins_open[n]}; "
            f"states searched median {statistics.median(states[n]):,.0f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    e = sub.add_parser("exact")
    e.add_argument("--piles", default="8,10")
    e.add_argument("--seeds", type=int, default=3)
    e.add_argument("--python", action="store_true", help="also time the engine's Python search")
    e.add_argument("--no-plain", action="store_true", help="the engine alone (no plain search to compare)")
    e.add_argument("--values", help="with --no-plain: write the values here, or check them against it")
    s = sub.add_parser("start")
    s.add_argument("--count", type=int, default=50)
    s.add_argument("--budget", type=float, default=2.0)
    s.add_argument("--difficulty", default="standard")
    f = sub.add_parser("frontier")
    f.add_argument("--count", type=int, default=20)
    f.add_argument("--budget", type=float, default=2.0)
    f.add_argument("--seed", type=int, default=3)
    for p in (e, s, f):
        p.add_argument(
            "--threads", type=int, default=cores(), help="threads to compare with one (default: as lobo-hint answers)"
        )
    args = ap.parse_args()
    if args.what == "exact":
        engine_only(args) if args.no_plain else exact(args)
    else:
        {"start": start, "frontier": frontier}[args.what](args)


if __name__ == "__main__":
    main()
