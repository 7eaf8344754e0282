"""Measuring the rollouts' bias against exact values (solver/search/bias.py reads the table;
data/rollout_bias.json):

    python -m solver.train.rollout_bias [--positions 120] [--seed 5] [--jobs 2]
        [--unknown 6-14] [--deals 400] [--time-limit 10] [--rows-out ROWS.jsonl]
    python -m solver.train.rollout_bias --from-rows ROWS.jsonl     (the bins again, nothing searched)
    python -m solver.train.rollout_bias --race [--positions 240] [--seed 41] [--jobs 2]

Positions are, half and half, decisions of seeded greedy games (one a game, drawn at random
among its decisions with the asked number of unknown cards in the pile) and rounds dealt in full
(both hands, the whole party, the other cards discarded at random but for the unknown ones), every
difficulty of both games. For each
objective the hint estimates by rollouts (vanguard game, win, party; lobo game, points) every
play's exact value is searched (the search's value under `game` beyond the exact horizon: what the
rollouts estimate, the evaluator's own error apart), and its rollout average on `--deals` deals;
under `game` in vanguard the average of the rollouts' round wins is measured against the exact
`win` value too. A position whose search does not finish in `--time-limit` seconds is left out.
Then every bin of bias.LAYOUT gets the mean and the 1% and 99% quantiles of
(exact − average) / the objective's range.

`--race` measures lobo under `game` in a race under way: the same positions given scores drawn
at random, the pair of bands of the points each side needs (bias.race_band) uniform among the nine
(0 to 0 left out), and writes each band's tables into the file beside the others, which it keeps.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from solver.core.cards import DIFFICULTIES
from solver.core.games import GAMES, LOBO_TARGET
from solver.core.games import game as game_of
from solver.core.objectives import OBJECTIVES
from solver.core.position import Position
from solver.core.rules import initial_state
from solver.parallel.run import run_parallel
from solver.play.driver import Setup
from solver.play.policies import GreedyPolicy
from solver.play.simulate import decision_tables
from solver.search import bias, value_net
from solver.search.engine import evaluate_moves, prepare, value_range
from solver.search.estimate import looked_ahead, rolled_out
from solver.train.provenance import commit

ESTIMATED = ("game", "win", "party", "points")  # the objectives a round that is not final is searched by
# table key parts, kind, place, unknown, bias, estimator, a race's band ("" but under --race)
Row = tuple[str, str, str, str, float, int, float, str, str]


def decisions(game: str, difficulty: str, seed: int, lo: int, hi: int) -> Iterator[Position]:
    """One position a greedy game, at a regular round's decision with lo..hi unknown cards."""
    greedy = GreedyPolicy()
    pick = random.Random(seed)
    index = 0
    while True:
        found = [
            t.position()
            for t in decision_tables(Setup(game, difficulty), greedy, seed, index, random.Random(index))
            if t.round is not None and not t.round.final and lo <= t.round.unknown_draws <= hi
        ]
        index += 1
        if found:
            yield pick.choice(found)


def dealt_rounds(game: str, difficulty: str, seed: int, lo: int, hi: int) -> Iterator[Position]:
    """Rounds dealt in full from the difficulty's deck (both hands, the whole party), the other
    cards discarded at random but for lo..hi unknown ones in the pile: the rounds puzzles pose."""
    from solver.core.position import parse_position

    setup = Setup(game, difficulty)
    hand = setup.rules.hand_size
    rng = random.Random(seed)
    while True:
        deck = [v for v, n in enumerate(setup.deck, start=1) for _ in range(n)]
        rng.shuffle(deck)
        unknown = rng.randint(lo, hi)
        raw: dict[str, Any] = {
            "game": game,
            "difficulty": difficulty,
            "player": deck[:hand],
            "wolf": deck[hand : 2 * hand],
            "discard": deck[2 * hand + unknown :],
            "draw_pile": {"size": unknown},
        }
        if game_of(game).has_final_round:
            raw["final"] = False
        pos = parse_position(raw)
        if initial_state(pos).outcome is None:
            yield pos


def with_scores(positions: Iterator[Position], seed: int) -> Iterator[Position]:
    """lobo positions given a race under way: the bands of the points each side needs uniform among
    bias.RACE_EDGES's nine pairs, the scores uniform within them (never 0 to 0, the start's)."""
    from solver.core.position import parse_position

    rng = random.Random(seed)
    edges = (0, *bias.RACE_EDGES, LOBO_TARGET)
    for pos in positions:
        scores = (0, 0)
        while scores == (0, 0):
            bands = (rng.randrange(len(edges) - 1), rng.randrange(len(edges) - 1))
            needs = [rng.randint(edges[b] + 1, edges[b + 1]) for b in bands]
            scores = (LOBO_TARGET - needs[0], LOBO_TARGET - needs[1])
        yield parse_position({**pos.to_json(), "scores": {"player": scores[0], "wolf": scores[1]}})


def measure(raw: dict[str, Any], deals: int, time_limit: float, seed: int, race: bool = False) -> list[Row]:
    """Worker: every objective's (exact − rollout average) for every play of one position; with
    race, only `game`'s, each row with the band of the position's scores."""
    from solver.core.position import parse_position

    pos = parse_position(raw)
    root = initial_state(pos)
    band = bias.race_band(pos.scores) if race else ""
    rows: list[Row] = []
    exact_win: dict[str, float] = {}
    game_wins: dict[str, float] = {}
    kinds: dict[str, str] = {}
    for objective in (o for o in ESTIMATED if OBJECTIVES[o].fits(pos.game) and (o == "game" or not race)):
        prepare(root, objective)
        values, _ = evaluate_moves(root, objective, time_limit=time_limit, scores=pos.scores)
        if not all(m.exact for m in values):
            continue
        plays = [m.play for m in values]
        est = rolled_out(
            root, objective, plays, deadline=0.0, min_deals=deals, max_deals=deals, seed=seed,
            win=objective == "game", scores=pos.scores,
        )  # fmt: skip
        lo, hi = value_range(root, objective)
        width = hi - lo
        net = value_net.for_round(root) if objective in ("game", "win") else None
        by = {bias.ROLLOUTS: est}
        if net is not None:
            by[bias.NETWORK] = looked_ahead(root, objective, plays, net, win=objective == "game")
        for estimator, got in by.items():
            for m in values:
                e = got[m.play]
                kinds[str(m.play)] = bias.kind_of(m.play)
                place = (e.value - lo) / width if width > 0 else 0.5
                unknown = root.unknown_draws
                rows.append(
                    (
                        pos.game,
                        objective,
                        "value",
                        bias.kind_of(m.play),
                        place,
                        unknown,
                        (m.value - e.value) / width,
                        estimator,
                        band,
                    )
                )
                if objective == "win":
                    exact_win[str(m.play)] = m.value
                if objective == "game" and e.win is not None:
                    game_wins[f"{estimator}|{m.play}"] = e.win
    for key, w in game_wins.items():
        estimator, play = key.split("|", 1)
        if play in exact_win:
            rows.append(
                (pos.game, "game", "win", kinds[play], w, root.unknown_draws, exact_win[play] - w, estimator, "")
            )
    return rows


def quantile(xs: Sequence[float], q: float) -> float:
    """The q-quantile of sorted xs (linear between order statistics)."""
    at = q * (len(xs) - 1)
    i = math.floor(at)
    j = min(i + 1, len(xs) - 1)
    return xs[i] + (at - i) * (xs[j] - xs[i])


def tables(rows: Sequence[Row]) -> dict[str, dict[str, dict[str, float]]]:
    """Every bin at every level of bias.bin_keys: plays measured, mean, quantiles."""
    gathered: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for game, objective, target, kind, place, unknown, b, estimator, race in rows:
        for key in bias.bin_keys(kind, place, unknown):
            gathered[bias.table_key(game, objective, target, estimator, race)][key].append(b)
    out: dict[str, dict[str, dict[str, float]]] = {}
    lo_q, hi_q = bias.LAYOUT["quantiles"]
    for tk, bins in sorted(gathered.items()):
        out[tk] = {}
        for key, xs in sorted(bins.items()):
            xs.sort()
            out[tk][key] = {
                "n": len(xs),
                "mean": round(math.fsum(xs) / len(xs), 6),
                "low": round(quantile(xs, lo_q), 6),
                "high": round(quantile(xs, hi_q), 6),
            }
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=120, help="positions a game and difficulty")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--unknown", default="6-14", help="unknown cards in the pile, LO-HI")
    ap.add_argument("--deals", type=int, default=400, help="rollouts a play")
    ap.add_argument(
        "--time-limit", type=float, default=10.0, help="seconds for a position's exact search, per objective"
    )
    ap.add_argument("--games-of", default=",".join(GAMES))
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--rows-out", default=None, help="also write every measured play (JSON lines)")
    ap.add_argument(
        "--from-rows", default=None, help="make the table from the plays a --rows-out file kept (nothing is searched)"
    )
    ap.add_argument("--out", default=str(bias.DATA))
    ap.add_argument(
        "--race", action="store_true", help="lobo's races under way only, into the tables --out holds (see above)"
    )
    args = ap.parse_args(argv)
    lo, hi = (int(x) for x in args.unknown.split("-"))
    t0 = time.perf_counter()
    if args.from_rows:
        kept = [json.loads(line) for line in Path(args.from_rows).read_text(encoding="utf-8").splitlines()]
        measured = kept[0]["about"]
        (write_race if measured.get("race") else write)(
            args.out, [_row(r) for r in kept[1:]], {**measured, "tables_by": _command(argv)}
        )
        return
    tasks = []
    for game in ("lobo",) if args.race else args.games_of.split(","):
        for i, difficulty in enumerate(DIFFICULTIES):
            found: Iterator[Position] = decisions(game, difficulty, args.seed + 1000 * i, lo, hi)
            dealt: Iterator[Position] = dealt_rounds(game, difficulty, args.seed + 1000 * i, lo, hi)
            if args.race:
                found, dealt = with_scores(found, args.seed + 1000 * i), with_scores(dealt, args.seed + 1000 * i + 1)
            for k in range(args.positions):
                # Half decisions of games, half rounds dealt in full.
                pos = next(dealt) if k % 2 else next(found)
                tasks.append((pos.to_json(), args.deals, args.time_limit, args.seed + k, args.race))
    rows: list[Row] = []
    done = 0

    def emit(got: list[Row]) -> None:
        nonlocal done
        done += 1
        rows.extend(got)
        if done % 20 == 0:
            print(
                f"{done}/{len(tasks)} positions, {len(rows)} plays, {time.perf_counter() - t0:.0f} s",
                file=sys.stderr,
                flush=True,
            )

    run_parallel(measure, tasks, emit=emit, workers=args.jobs)
    about = {
        "positions": len(tasks),
        "plays": len(rows),
        "seed": args.seed,
        "unknown": [lo, hi],
        "deals": args.deals,
        "time_limit": args.time_limit,
        "positions_from": "half decisions of greedy games, half rounds dealt in full",
        "code": commit(),
        "seconds": round(time.perf_counter() - t0),
        "built_by": _command(argv),
    }
    if args.race:
        about.update(race=True, scores="the bands of the points each side needs uniform among bias.race_band's nine")
    if args.rows_out:
        lines = [json.dumps({"about": about})] + [json.dumps(r) for r in rows]
        Path(args.rows_out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (write_race if args.race else write)(args.out, rows, about)
    print(f"wrote {args.out}: {len(rows)} plays of {len(tasks)} positions", file=sys.stderr)


def _row(raw: list[Any]) -> Row:
    # Rows kept before the network have no estimator (the rollouts'), and before --race no band.
    game, objective, target, kind, place, unknown, b, *more = raw
    by = str(more[0]) if more else bias.ROLLOUTS
    race = str(more[1]) if len(more) > 1 else ""
    return str(game), str(objective), str(target), str(kind), float(place), int(unknown), float(b), by, race


def _command(argv: list[str] | None) -> str:
    return "python -m solver.train.rollout_bias " + " ".join(argv if argv is not None else sys.argv[1:])


def write(out: str, rows: Sequence[Row], about: dict[str, Any]) -> None:
    """The table file: the bins' layout, how it was measured, the bins."""
    _dump(out, {"stamp": bias.LAYOUT, "about": about, "tables": tables(rows)})


def write_race(out: str, rows: Sequence[Row], about: dict[str, Any]) -> None:
    """The race's tables into the file `out`, whose other tables (and their `about`) are kept."""
    try:
        old = json.loads(Path(out).read_text(encoding="utf-8"))
        kept = {k: v for k, v in old["tables"].items() if "@" not in k}
        base = old["about"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise SystemExit(f"--race adds to the tables in {out}, which cannot be read: {e}") from None
    _dump(out, {"stamp": bias.LAYOUT, "about": base, "race": about, "tables": {**kept, **tables(rows)}})


def _dump(out: str, made: dict[str, Any]) -> None:
    Path(out).write_text(json.dumps(made, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
