"""Would a map from estimate to games won make the hint's printed chances truer? (issue 23)

    python bench/calibration_cv.py [--games 2000] [--seeds 3001 3002] [--jobs 2] [--think 0.05]
        [--rows-out ROWS.jsonl]
    python bench/calibration_cv.py --from-rows ROWS.jsonl ...

The hint policy (the simulator's: `--think` seconds a decision) plays seeded vanguard standard
games. At each decision whose chosen play's chance to win the game is an estimate, the estimate,
the stage (near a round's end: at most 14 unknown cards in the pile; far: more) and whether the
game was won are kept. Printed: the calibration bands of those estimates by stage over every
seed; then, for the far stage, a monotone map (isotonic regression, pool adjacent violators, on
BINS bins of equal count) fitted on one seed's games and tried on the other's: the held-out Brier
score and bands with the map and without it. A map worth shipping lowers the held-out Brier score.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from bisect import bisect_right
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core.plays import Play
from solver.core.rules import initial_state
from solver.parallel.run import run_parallel
from solver.play.driver import Setup, Table
from solver.play.hint_policy import THINK, HintPolicy, game_chance
from solver.play.simulate import play_game
from solver.search.hint import hint

NEAR = 14  # the rollouts' bias was measured up to this many unknown cards (solver/search/bias.py)
BANDS = (0.0, 0.05, 0.10, 0.20, 0.30, 0.50, 0.70, 0.90, 1.0001)
CHUNK = 10
Row = tuple[int, str, float, bool]  # seed, stage, estimate, won


class _Recording(HintPolicy):
    """The hint policy, keeping (stage, estimate) at every decision whose chosen play's chance to
    win the game is an estimate."""

    def __init__(self, think: float) -> None:
        super().__init__(think)
        self.seen: list[tuple[str, float]] = []

    def play(self, table: Table, rng: random.Random) -> Play:
        pos = self.position(table)
        result = hint(pos, time_limit=self.think)
        assert result.best is not None
        chance = game_chance(result)
        if chance is not None and result.moves[0].method is not None:
            stage = "far" if initial_state(pos).unknown_draws > NEAR else "near"
            self.seen.append((stage, chance))
        self.predicted = chance
        return result.best


def play_chunk(seed: int, first: int, count: int, think: float) -> list[Row]:
    rows: list[Row] = []
    for index in range(first, first + count):
        policy = _Recording(think)
        record = play_game(Setup(), policy, seed, index)
        rows += [(seed, stage, p, record.result == "won") for stage, p in policy.seen]
    return rows


def isotonic(points: list[tuple[float, float, int]]) -> list[tuple[float, float, int]]:
    """Pool adjacent violators: (x, y, weight) sorted by x, pooled until y never falls."""
    blocks: list[list[float]] = []
    for x, y, w in points:
        blocks.append([x * w, y * w, float(w)])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] > blocks[-1][1] / blocks[-1][2]:
            sx, sy, sw = blocks.pop()
            blocks[-1][0] += sx
            blocks[-1][1] += sy
            blocks[-1][2] += sw
    return [(sx / sw, sy / sw, int(sw)) for sx, sy, sw in blocks]


def fitted_map(rows: list[tuple[float, bool]], bins: int) -> list[tuple[float, float]]:
    """Knots from (0, 0) to (1, 1), increasing: the isotonic fit of won on the bins' estimates."""
    rows = sorted(rows)
    n = len(rows)
    points = []
    for b in range(bins):
        part = rows[b * n // bins : (b + 1) * n // bins]
        points.append((sum(p for p, _ in part) / len(part), sum(w for _, w in part) / len(part), len(part)))
    out = [(0.0, 0.0)]
    for x, y, _ in isotonic(points):
        if out[-1][0] < x < 1.0:
            out.append((x, max(y, out[-1][1])))
    return [*out, (1.0, 1.0)]


def mapped(knots: list[tuple[float, float]], p: float) -> float:
    xs = [x for x, _ in knots]
    i = min(len(xs) - 2, bisect_right(xs, p) - 1)
    (x0, y0), (x1, y1) = knots[i], knots[i + 1]
    return y0 + (p - x0) / (x1 - x0) * (y1 - y0)


def bands(rows: list[tuple[float, bool]]) -> str:
    """Each band's (mean predicted − won) in points, for bands of at least 50 decisions."""
    out = []
    for a, b in itertools.pairwise(BANDS):
        band = [(p, w) for p, w in rows if a <= p < b]
        if len(band) >= 50:
            off = 100 * (sum(p for p, _ in band) - sum(w for _, w in band)) / len(band)
            out.append(f"{100 * a:.0f}–{min(100, 100 * b):.0f}% {off:+.1f}")
    return ", ".join(out)


def brier(rows: list[tuple[float, bool]]) -> float:
    return sum((p - w) ** 2 for p, w in rows) / len(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000, help="games a seed")
    ap.add_argument("--seeds", type=int, nargs="+", default=[3001, 3002])
    ap.add_argument("--think", type=float, default=THINK)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--rows-out", type=Path, default=None)
    ap.add_argument("--from-rows", type=Path, nargs="+", default=None)
    args = ap.parse_args()
    rows: list[Row] = []
    if args.from_rows:
        for path in args.from_rows:
            rows += [tuple(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines()]  # type: ignore[misc]
    else:
        tasks = [
            (s, f, min(CHUNK, args.games - f), args.think) for s in args.seeds for f in range(0, args.games, CHUNK)
        ]
        run_parallel(play_chunk, tasks, emit=rows.extend, workers=args.jobs)
        if args.rows_out is not None:
            args.rows_out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    seeds = sorted({r[0] for r in rows})
    for stage in ("near", "far"):
        mine = [(p, w) for _, s, p, w in rows if s == stage]
        print(f"{stage}: {len(mine)} estimated decisions of seeds {seeds}; bands: {bands(mine)}")
    if len(seeds) < 2:
        return
    print(
        "| far stage: fitted on → tried on | bins | held-out Brier without / with the map | bands without | bands with |"
    )
    print("|---|---|---|---|---|")
    for bins in (4, 8, 12, 16):
        for train, test in itertools.permutations(seeds[:2]):
            fit = fitted_map([(p, w) for s0, s, p, w in rows if s0 == train and s == "far"], bins)
            held = [(p, w) for s0, s, p, w in rows if s0 == test and s == "far"]
            after = [(mapped(fit, p), w) for p, w in held]
            print(
                f"| {train} → {test} | {bins} | {brier(held):.5f} / {brier(after):.5f} | {bands(held)} | {bands(after)} |"
            )


if __name__ == "__main__":
    main()
