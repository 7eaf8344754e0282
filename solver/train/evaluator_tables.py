"""Building the evaluator's tables (solver/search/evaluator.py reads them; data/game_values.json):

    python -m solver.train.evaluator_tables [--games 3000] [--seed 11] [--policy hint] [--jobs 2]
        [--games-of vanguard,lobo] [--difficulties easy,standard,hard] [--samples-out F]
        [--max-states 3000 --samples 256] [--round-model bands|one]
    python -m solver.train.evaluator_tables --from-samples F      (smoothed again, nothing replayed)

How: whole games are simulated with a policy (the simulator's, solver/play/), the same seeded
deals for every table. vanguard: every regular deal is a sample of (pile, active, reserve) and of
whether that game was won; each cell is the share won, shrunk towards the cell's neighbours in
the pile (and, where they are few, towards the same pile with any reserve), and made monotone:
more members and more reserve never hurt. lobo: the rounds give the distribution of the points a
round scores (won: the Player's, lost: the Wolf's) and of who scores them, for each pair of bands
of the points the two sides still need (a round near the end is played differently), or one for
all rounds (--round-model one); the race is then solved exactly for that round model by backward
induction over the scores (every round scores at least one point). A table is the value of the
simulated policy, a lower bound in expectation on what best play achieves. Made from the hint
policy's own games, the tables are a step of fitted value iteration: what following the advice
wins from each deal. The file records, part by part, the policy, the games, the seed, the
code's commit and the round model, and beside every value its standard error (vanguard: a share's,
counting the shrinkage as 8 samples; lobo: a bootstrap of the rounds), which the search carries
into each answer's interval (expectimax.estimated, ctr[ERROR]); and the layout it was built for
(evaluator.LAYOUT), which the search checks on load.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from solver.core.cards import DIFFICULTIES, DIFFICULTY_OF_TOP
from solver.core.files import write_whole
from solver.core.games import LOBO, VANGUARD
from solver.core.rounds import final_at_deal, pile_after_deal
from solver.play.driver import Deal, Setup
from solver.play.hint_policy import hint_samples
from solver.play.simulate import replay_record, simulate
from solver.search import evaluator
from solver.search.evaluator import BUILD, LAYOUT, TOPS, EvaluatorError, lobo_index, stale
from solver.search.expectimax import EV_PILES, EV_RESERVE, EV_SIZE, EV_TARGET, EV_VANGUARD
from solver.train.provenance import commit


def _vanguard_deals(records: Iterable[Any]) -> list[tuple[int, int, tuple[int, ...], bool, int]]:
    """(pile before the deal, active members, the reserve, game won, game) at every regular deal."""
    out = []
    for r in records:
        game = replay_record(r)
        for table, step in zip(game.tables, game.steps, strict=False):
            rules = table.setup.rules
            if isinstance(step, Deal) and not final_at_deal(VANGUARD, pile_after_deal(table.pile_size, rules), rules):
                out.append((table.pile_size, len(table.party), tuple(table.reserve), r.won, r.index))
    return out


def _vanguard_samples(records: Iterable[Any]) -> list[tuple[int, int, int, bool]]:
    """(pile before the deal, active members, reserve cards, game won) at every regular deal."""
    return [(pile, active, len(reserve), won) for pile, active, reserve, won, _ in _vanguard_deals(records)]


def _smooth_vanguard(samples: list[tuple[int, int, int, bool]], top: int) -> tuple[list[float], list[float], float]:
    """The table of one difficulty from its samples, each cell's standard error, and the largest
    standard error of a cell that had samples. Shrinkage: a cell's share is mixed with a prior
    worth `strength` samples, the share of the same party and reserve at the piles around it
    (pile ± 2, nearer ones weighing more), itself mixed with the same party and reserve at any
    pile; its error is that of a share of n + strength samples. The prior never mixes reserves or
    parties: a cell with a card more in the reserve wins far more often (bench/README.md), and
    would lift the cells below it. Then made monotone (a member more, or a reserve card more,
    never lowers the chance; a value lifted to its neighbour's takes the larger error)."""
    won: dict[tuple[int, int, int], int] = defaultdict(int)
    seen: dict[tuple[int, int, int], int] = defaultdict(int)
    for pile, active, reserve, w in samples:
        cell = (pile, active, min(reserve, EV_RESERVE - 1))
        seen[cell] += 1
        won[cell] += w
    near_won: dict[tuple[int, int, int], float] = defaultdict(float)
    near_seen: dict[tuple[int, int, int], float] = defaultdict(float)
    any_won: dict[tuple[int, int], int] = defaultdict(int)
    any_seen: dict[tuple[int, int], int] = defaultdict(int)
    for (pile, active, reserve), n in seen.items():
        any_seen[(active, reserve)] += n
        any_won[(active, reserve)] += won[(pile, active, reserve)]
        for near in range(pile - 2, pile + 3):
            weight = 1.0 / (1 + abs(near - pile))
            near_seen[(near, active, reserve)] += weight * n
            near_won[(near, active, reserve)] += weight * won[(pile, active, reserve)]
    overall = sum(won.values()) / max(1, sum(seen.values()))
    values = [overall] * EV_VANGUARD
    errors = [0.5] * EV_VANGUARD
    strength = 8.0  # a prior worth this many samples
    for pile in range(EV_PILES):
        for active in range(1, 4):
            for reserve in range(EV_RESERVE):
                wide = (any_won.get((active, reserve), 0) + 2 * overall) / (any_seen.get((active, reserve), 0) + 2)
                cell = (pile, active, reserve)
                prior = (near_won.get(cell, 0.0) + 2 * wide) / (near_seen.get(cell, 0.0) + 2)
                n, k = seen.get(cell, 0), won.get(cell, 0)
                v = (k + strength * prior) / (n + strength)
                values[(pile * 4 + active) * EV_RESERVE + reserve] = v
                errors[(pile * 4 + active) * EV_RESERVE + reserve] = math.sqrt(max(v * (1 - v), 1e-4) / (n + strength))
    # Monotone: a member more, or a reserve card more, never lowers the chance.
    for pile in range(EV_PILES):
        for active in range(1, 4):
            for reserve in range(1, EV_RESERVE):
                i = (pile * 4 + active) * EV_RESERVE
                _lift(values, errors, i + reserve, i + reserve - 1)
        for reserve in range(EV_RESERVE):
            for active in range(2, 4):
                i, j = (pile * 4 + active) * EV_RESERVE + reserve, (pile * 4 + active - 1) * EV_RESERVE + reserve
                _lift(values, errors, i, j)
    worst = max([errors[(pile * 4 + active) * EV_RESERVE + reserve] for pile, active, reserve in seen] or [0.0])
    return values, errors, worst


def _lift(values: list[float], errors: list[float], i: int, j: int) -> None:
    """Cell i is worth at least cell j (monotone); lifted, it takes the larger error."""
    if values[j] > values[i]:
        values[i] = values[j]
        errors[i] = max(errors[i], errors[j])


# The race model's bands: the points each side still needs (at most 5, 10, 20, 35, 60, more). A
# round is played differently near the end (the hint gambles when the Wolf is close, and plays for
# any win when the Player is), so each pair of bands has its own distribution of what a round
# scores; finer bands near the end fitted held-out games best (bench/README.md, session 32).
NEED_EDGES = (5, 10, 20, 35, 60)
SHRINK = 100.0  # rounds' weight of the pooled distribution in each pair of bands
ROUND_MODELS = ("bands", "one")  # the bands; one distribution for all rounds (shrunk infinitely)

Round = tuple[Any, ...]  # (won, points) or (won, points, the Player's score before, the Wolf's)


def _band(need: int) -> int:
    return sum(need > edge for edge in NEED_EDGES)


def _round_model(
    rounds: list[Round], target: int, shrink: float
) -> dict[tuple[int, int], tuple[dict[int, float], dict[int, float]]]:
    """For each pair of bands (the Player's need, the Wolf's), the chance that a round gives the
    Player x points (won) or the Wolf y (lost): the rounds that started in those bands, shrunk
    towards all the rounds with the weight `shrink`. Rounds kept without their scores count in the
    pooled distribution only; with none kept with scores, every band's is the pooled one."""
    pooled: dict[bool, dict[int, float]] = {True: defaultdict(float), False: defaultdict(float)}
    counts: dict[tuple[int, int], dict[bool, dict[int, float]]] = defaultdict(
        lambda: {True: defaultdict(float), False: defaultdict(float)}
    )
    for r in rounds:
        won, points = bool(r[0]), max(1, int(r[1]))
        pooled[won][points] += 1.0
        if len(r) >= 4:
            counts[_band(target - int(r[2])), _band(target - int(r[3]))][won][points] += 1.0
    n = max(1.0, sum(sum(d.values()) for d in pooled.values()))
    model = {}
    for bp in range(len(NEED_EDGES) + 1):
        for bw in range(len(NEED_EDGES) + 1):
            cell = counts.get((bp, bw), {True: {}, False: {}})
            weight = sum(sum(d.values()) for d in cell.values())
            if weight == 0 or math.isinf(shrink):
                mixed = [{k: v / n for k, v in pooled[won].items()} for won in (True, False)]
            else:
                mixed = [
                    {k: (cell[won].get(k, 0.0) + shrink * pooled[won][k] / n) / (weight + shrink) for k in pooled[won]}
                    for won in (True, False)
                ]
            model[bp, bw] = (mixed[0], mixed[1])
    return model


def _lobo_race(rounds: list[Round], target: int = EV_TARGET, shrink: float = SHRINK) -> list[float]:
    """The race to the target solved exactly for a round model: each round, with the frequencies
    of its pair of bands (_round_model), the Player scores x (won) or the Wolf scores y (lost);
    V[p][w] backwards."""
    model = _round_model(rounds, target, shrink)
    v = [[0.0] * target for _ in range(target)]
    for total in range(2 * target - 2, -1, -1):
        for p in range(max(0, total - target + 1), min(target - 1, total) + 1):
            w = total - p
            player, wolf = model[_band(target - p), _band(target - w)]
            x = 0.0
            for pts, prob in player.items():
                x += prob * (1.0 if p + pts >= target else v[p + pts][w])
            for pts, prob in wolf.items():
                x += prob * (0.0 if w + pts >= target else v[p][w + pts])
            v[p][w] = x
    return [v[p][w] for p in range(target) for w in range(target)]


def _lobo_errors(rounds: list[Round], resamples: int = 20, seed: int = 0, shrink: float = SHRINK) -> list[float]:
    """Each cell's standard error in the race table: the spread of the race solved again on
    rounds drawn with replacement from the same rounds (a bootstrap; the round model itself is
    the table's assumption, not its sampling error)."""
    import random

    rng = random.Random(seed)
    runs = [_lobo_race(rng.choices(rounds, k=len(rounds)), shrink=shrink) for _ in range(resamples)]
    out = []
    for cell in zip(*runs, strict=True):
        mean = sum(cell) / len(cell)
        out.append(math.sqrt(sum((c - mean) ** 2 for c in cell) / max(1, len(cell) - 1)))
    return out


def _lobo_rounds(records: Iterable[Any]) -> list[Round]:
    """(won, points scored, the Player's score before, the Wolf's) of every round of lobo games."""
    out: list[Round] = []
    for r in records:
        game = replay_record(r)
        before = (0, 0)
        for t in game.tables[1:]:
            if t.points != before:
                dp, dw = t.points[0] - before[0], t.points[1] - before[1]
                out.append((dp > 0, dp if dp > 0 else dw, before[0], before[1]))
                before = t.points
    return out


Kept = tuple[dict[str, Any], dict[str, float], list[float], list[float]]
PARTS = frozenset(f"{game} {DIFFICULTY_OF_TOP[top]}" for game in (VANGUARD.name, LOBO.name) for top in TOPS)


def _counting(records: list[Any], label: str, games: int) -> Callable[[Any], None]:
    """records.append that says on stderr how far a build has played, every twentieth of its games:
    a build plays for many minutes."""
    step = max(1, games // 20)

    def on_record(record: Any) -> None:
        records.append(record)
        if len(records) % step == 0 or len(records) == games:
            print(f"{label}: {len(records)}/{games} games played", file=sys.stderr, flush=True)

    return on_record


def _kept(rebuilt: Iterable[str]) -> Kept:
    """What the shipped file holds, for the parts not rebuilt: how each part was made, each part's
    largest error, the values and their errors. When every part is rebuilt nothing is kept; else a
    file that does not fit the layout (missing, unreadable, or built for other sizes: its values
    would land in the wrong cells) is an EvaluatorError, raised before any game is played."""
    fresh: Kept = ({}, {}, [0.0] * EV_SIZE, [0.5] * EV_SIZE)
    others = sorted(PARTS - set(rebuilt))
    if not others:
        return fresh
    data = evaluator.DATA
    try:
        raw = json.loads(data.read_text(encoding="utf-8"))
        why = stale(raw.get("stamp"))
        values = [float(v) for v in raw["values"]]
        errors = [float(e) for e in raw["errors"]]
        largest = {k: float(e) for k, e in raw.get("largest_standard_error", {}).items()}
        made = dict(raw.get("parts", {}))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        why = f"it cannot be read: {e}"
    else:
        if why is None and len(values) == len(errors) == EV_SIZE:
            return made, largest, values, errors
        why = why or f"it holds {len(values)} values and {len(errors)} errors, not {EV_SIZE} each"
    raise EvaluatorError(
        f"the parts not rebuilt ({', '.join(others)}) cannot be kept from {data} ({why}): rebuild every part"
        " (--games-of vanguard,lobo --difficulties easy,standard,hard)"
    )


def build(
    games: int,
    seed: int,
    policy: str,
    jobs: int | None,
    games_of: tuple[str, ...] = ("vanguard", "lobo"),
    tops: tuple[int, ...] = TOPS,
    samples_out: Path | None = None,
    max_states: int | None = None,
    samples: int | None = None,
    round_model: str = "bands",
) -> dict[str, Any]:
    """New tables from `games` simulated games per difficulty (lobo: a quarter as many), for the
    games and difficulties named; every other part is kept from the shipped file. samples_out:
    where to keep what the tables were made from (vanguard's deals, lobo's rounds). max_states and
    samples: the hint's budgets instead of its clock, under which a seeded build plays the same
    games, and makes the same tables, on any machine. round_model: lobo's (ROUND_MODELS)."""
    _kept(f"{game} {DIFFICULTY_OF_TOP[top]}" for game in games_of for top in tops)  # before hours of play
    if policy == "hint":
        # The hint plays by the tables it would rebuild (fitted value iteration): tables that do not
        # fit are built first from a policy that does not read them.
        try:
            evaluator.table()
        except EvaluatorError as e:
            raise EvaluatorError(f"{e}; the hint policy plays by them: build them first with --policy best") from None
    raw: dict[str, Any] = {"about": {"policy": policy, "games": games, "seed": seed, "code": commit()}}
    budgets: dict[str, Any] = {"max_states": max_states, "samples": samples}
    if policy == "hint" and max_states is not None:
        raw["about"]["budget"] = f"{max_states} states and {hint_samples(max_states, samples)} samples a decision"

    def keep() -> None:  # after every part: a long build stopped part-way loses no finished part
        if samples_out is not None:
            samples_out.write_text(json.dumps(raw) + "\n", encoding="utf-8")

    for top in tops:
        difficulty = DIFFICULTY_OF_TOP[top]
        if VANGUARD.name in games_of:
            records: list[Any] = []
            simulate(
                Setup(VANGUARD.name, difficulty),
                policy,
                games,
                seed,
                workers=jobs,
                on_record=_counting(records, f"vanguard {difficulty}", games),
                **budgets,
            )
            raw[f"vanguard {difficulty}"] = deals = _vanguard_deals(records)
            won = sum(r.won for r in records)
            print(f"vanguard {difficulty}: {won}/{games} games won, {len(deals)} deals", file=sys.stderr)
            keep()
        if LOBO.name in games_of:
            records = []
            simulate(
                Setup(LOBO.name, difficulty),
                policy,
                max(1, games // 4),
                seed,
                workers=jobs,
                on_record=_counting(records, f"lobo {difficulty}", max(1, games // 4)),
                **budgets,
            )
            raw[f"lobo {difficulty}"] = rounds = _lobo_rounds(records)
            print(f"lobo {difficulty}: {len(rounds)} rounds", file=sys.stderr)
            keep()
    return rebuild(raw, round_model)  # the tables are made from the samples alone, as --from-samples makes them


def rebuild(samples: dict[str, Any], round_model: str = "bands") -> dict[str, Any]:
    """The tables made again from kept samples (build's samples_out), without replaying a game:
    for another smoothing of the same games. Parts the samples do not hold are kept. round_model:
    lobo's, "bands" (rounds kept without their scores give one distribution all the same) or "one"."""
    made, largest, values, errors = _kept(part for part in samples if part != "about")
    how = samples.get("about", {})
    for part, rows in samples.items():
        if part == "about":
            continue
        kind, difficulty = part.split()
        top = DIFFICULTIES[difficulty]
        if kind == VANGUARD.name:
            table_v, errors_v, worst = _smooth_vanguard([(p, a, len(r), bool(w)) for p, a, r, w, _ in rows], top)
            at = (top - 8) * EV_VANGUARD
            values[at : at + EV_VANGUARD] = table_v
            errors[at : at + EV_VANGUARD] = errors_v
            largest[part] = round(worst, 4)
            made[part] = {**how, "deals": len(rows)}
        else:
            rounds = [(bool(row[0]), *(int(x) for x in row[1:])) for row in rows]
            # Samples kept before the bands hold rounds without their scores: one distribution.
            banded = round_model == "bands" and any(len(r) >= 4 for r in rounds)
            shrink = SHRINK if banded else math.inf
            at = lobo_index(top, 0, 0)
            values[at : at + EV_TARGET * EV_TARGET] = _lobo_race(rounds, shrink=shrink)
            errors[at : at + EV_TARGET * EV_TARGET] = race_errors = _lobo_errors(
                rounds, seed=int(how.get("seed", 0)), shrink=shrink
            )
            largest[part] = round(max(race_errors), 4)
            model = f"bands of the points needed {NEED_EDGES}, shrunk by {SHRINK:g} rounds" if banded else "one for all"
            made[part] = {
                **how,
                "games": max(1, int(how.get("games", 4)) // 4),
                "rounds": len(rounds),
                "round model": model,
            }
    return _file(made, largest, values, errors)


def _file(made: dict[str, Any], largest: dict[str, float], values: list[float], errors: list[float]) -> dict[str, Any]:
    return {
        "made_by": BUILD,
        "parts": made,
        "largest_standard_error": largest,
        "layout": "solver/search/expectimax.py EV_*; errors: each value's standard error, at the same place",
        "stamp": LAYOUT,
        "values": [round(v, 5) for v in values],
        "errors": [round(e, 5) for e in errors],
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Rebuild the evaluator's tables (solver/search/data/game_values.json).")
    ap.add_argument("--games", type=int, default=3000, help="games per difficulty (vanguard; lobo a quarter)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--policy", default="hint", help="the simulator's policy whose games are sampled (default: the hint's own)"
    )
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument(
        "--max-states", type=int, default=None, help="the hint's state budget, not its clock: the same tables anywhere"
    )
    ap.add_argument("--samples", type=int, default=None, help="with --max-states: the hint's deals a play")
    ap.add_argument("--games-of", default="vanguard,lobo", help="which tables to rebuild (the others are kept)")
    ap.add_argument("--difficulties", default="easy,standard,hard", help="which difficulties to rebuild")
    ap.add_argument("--samples-out", default=None, help="keep what the tables are made from here (JSON)")
    ap.add_argument(
        "--from-samples", default=None, help="make the tables again from a --samples-out file, playing nothing"
    )
    ap.add_argument(
        "--round-model",
        choices=ROUND_MODELS,
        default="bands",
        help="lobo: a round distribution for each band of the points needed, or one for all",
    )
    ap.add_argument("--out", default=str(evaluator.DATA))
    args = ap.parse_args(argv)
    games_of = tuple(g.strip() for g in args.games_of.split(",") if g.strip())
    try:
        tops = tuple(DIFFICULTIES[d.strip()] for d in args.difficulties.split(",") if d.strip())
    except KeyError as e:
        ap.error(f"--difficulties: {e.args[0]!r} is not one of easy, standard, hard")
    if not set(games_of) <= {VANGUARD.name, LOBO.name}:
        ap.error(f"--games-of: {args.games_of!r}: name vanguard, lobo or both")
    for flag, given in (("--games", args.games), ("--max-states", args.max_states), ("--samples", args.samples)):
        if given is not None and given <= 0:
            ap.error(f"{flag}: more than 0, not {given}")
    samples_out = Path(args.samples_out) if args.samples_out else None
    try:
        if args.from_samples:
            try:
                kept = json.loads(Path(args.from_samples).read_text(encoding="utf-8"))
                if not isinstance(kept, dict):
                    raise TypeError("it holds no parts")
                data = rebuild(kept, args.round_model)
            except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
                ap.error(f"--from-samples {args.from_samples}: not a samples file ({e})")
        else:
            data = build(
                args.games,
                args.seed,
                args.policy,
                args.jobs,
                games_of,
                tops,
                samples_out,
                args.max_states,
                args.samples,
                args.round_model,
            )
    except EvaluatorError as e:
        ap.error(str(e))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_whole(out, json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
