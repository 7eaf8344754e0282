"""The evaluator: the chance to win the game from the next deal, where the rest of the game is too
big to search (objective `game`, RULES.md §7).

Within the exact horizon (a vanguard pile of at most 2 × hand_size + final_threshold cards: the
next deal is surely the final round) the search values the end of a round exactly
(expectimax.next_deal). Beyond it, and in lobo's race, it reads these tables:

  vanguard  V[top value][cards in the pile][active members][reserve cards]: the chance to win
            from the deal of the next round;
  lobo      L[top value][the Player's points][the Wolf's points]: the chance to reach 100 first.

They are estimates, and every value read off them makes an answer say `exact: false`. They ship
as package data (data/game_values.json) and are rebuilt by this module:

    python -m solver.search.evaluator [--games 3000] [--seed 11] [--policy best] [--jobs 2]

How: whole games are simulated with a policy (the simulator's, solver/play/), the same seeded
deals for every table. vanguard: every regular deal is a sample of (pile, active, reserve) and of
whether that game was won; each cell is the share won, shrunk towards the cell's neighbours in
the pile (and, where they are few, towards the same pile with any reserve), and made monotone:
more members and more reserve never hurt. lobo: the rounds give the distribution of the points a
round scores (won: the Player's, lost: the Wolf's) and of who scores them; the race is then solved
exactly for that round model by backward induction over the scores (every round scores at least
one point). A table is the value of the simulated policy, a lower bound in expectation on what
best play achieves; the file records the policy, the games and the standard errors.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.core.games import LOBO, VANGUARD
from solver.search.expectimax import EV_LOBO, EV_PILES, EV_RESERVE, EV_SIZE, EV_TARGET, EV_VANGUARD

DATA = Path(__file__).with_name("data") / "game_values.json"
TOPS = (8, 9, 10)
DIFFICULTY = {8: "easy", 9: "standard", 10: "hard"}


class EvaluatorError(RuntimeError):
    """The tables are missing or unreadable (a broken installation)."""


@lru_cache(maxsize=1)
def table() -> list[float]:
    """Every value of the tables, in the layout the search reads (expectimax.EV_*)."""
    try:
        raw = json.loads(DATA.read_text(encoding="utf-8"))
        values = [float(x) for x in raw["values"]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise EvaluatorError(f"the evaluator's tables ({DATA}) cannot be read: {e}") from None
    if len(values) != EV_SIZE:
        raise EvaluatorError(f"the evaluator's tables ({DATA}) hold {len(values)} values, not {EV_SIZE}")
    return values


@lru_cache(maxsize=1)
def about() -> dict[str, Any]:
    """How the tables were made (policy, games, seed, errors), as the file says."""
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    return {k: v for k, v in raw.items() if k != "values"}


def vanguard_index(top: int, pile: int, active: int, reserve: int) -> int:
    return (top - 8) * EV_VANGUARD + (min(pile, EV_PILES - 1) * 4 + active) * EV_RESERVE + min(reserve, EV_RESERVE - 1)


def lobo_index(top: int, player: int, wolf: int) -> int:
    return EV_LOBO + ((top - 8) * EV_TARGET + player) * EV_TARGET + wolf


# -- building the tables ---------------------------------------------------------------------------


def _vanguard_samples(records: Iterable[Any]) -> list[tuple[int, int, int, bool]]:
    """(pile before the deal, active members, reserve cards, game won) at every regular deal."""
    from solver.play.driver import Deal
    from solver.play.simulate import replay_record

    out = []
    for r in records:
        game = replay_record(r)
        for table, step in zip(game.tables, game.steps, strict=False):
            if isinstance(step, Deal) and table.pile_size - sum(table.deal_sizes()) > table.setup.rules.final_threshold:
                out.append((table.pile_size, len(table.party), len(table.reserve), r.won))
    return out


def _smooth_vanguard(samples: list[tuple[int, int, int, bool]], top: int) -> tuple[list[float], float]:
    """The table of one difficulty from its samples, and the largest standard error of a cell that
    had samples. Shrinkage: a cell's share is mixed with its neighbours' (pile ± 2, and the same
    pile and party with any reserve), weighted by their counts; then made monotone."""
    won: dict[tuple[int, int, int], int] = defaultdict(int)
    seen: dict[tuple[int, int, int], int] = defaultdict(int)
    for pile, active, reserve, w in samples:
        cell = (pile, active, min(reserve, EV_RESERVE - 1))
        seen[cell] += 1
        won[cell] += w
    prior_won: dict[tuple[int, int], float] = defaultdict(float)
    prior_seen: dict[tuple[int, int], float] = defaultdict(float)
    for (pile, active, _), n in seen.items():
        for near in range(pile - 2, pile + 3):
            weight = 1.0 / (1 + abs(near - pile))
            prior_seen[(near, active)] += weight * n
            prior_won[(near, active)] += weight * won[(pile, active, _)]
    overall = sum(won.values()) / max(1, sum(seen.values()))
    values = [overall] * EV_VANGUARD
    worst = 0.0
    strength = 8.0  # a prior worth this many samples
    for pile in range(EV_PILES):
        for active in range(1, 4):
            ps, pw = prior_seen.get((pile, active), 0.0), prior_won.get((pile, active), 0.0)
            prior = (pw + overall * 2) / (ps + 2)
            for reserve in range(EV_RESERVE):
                n = seen.get((pile, active, reserve), 0)
                k = won.get((pile, active, reserve), 0)
                v = (k + strength * prior) / (n + strength)
                if n:
                    worst = max(worst, math.sqrt(max(v * (1 - v), 1e-4) / (n + strength)))
                values[(pile * 4 + active) * EV_RESERVE + reserve] = v
    # Monotone: a member more, or a reserve card more, never lowers the chance.
    for pile in range(EV_PILES):
        for active in range(1, 4):
            for reserve in range(1, EV_RESERVE):
                i = (pile * 4 + active) * EV_RESERVE
                values[i + reserve] = max(values[i + reserve], values[i + reserve - 1])
        for reserve in range(EV_RESERVE):
            for active in range(2, 4):
                i, j = (pile * 4 + active) * EV_RESERVE + reserve, (pile * 4 + active - 1) * EV_RESERVE + reserve
                values[i] = max(values[i], values[j])
    return values, worst


def _lobo_race(rounds: list[tuple[bool, int]], target: int = EV_TARGET) -> list[float]:
    """The race to the target solved exactly for a round model: each round, with the observed
    frequencies, the Player scores x (won) or the Wolf scores y (lost); V[p][w] backwards."""
    n = max(1, len(rounds))
    player: dict[int, float] = defaultdict(float)
    wolf: dict[int, float] = defaultdict(float)
    for won, points in rounds:
        (player if won else wolf)[max(1, points)] += 1.0 / n
    v = [[0.0] * target for _ in range(target)]
    for total in range(2 * target - 2, -1, -1):
        for p in range(max(0, total - target + 1), min(target - 1, total) + 1):
            w = total - p
            x = 0.0
            for pts, prob in player.items():
                x += prob * (1.0 if p + pts >= target else v[p + pts][w])
            for pts, prob in wolf.items():
                x += prob * (0.0 if w + pts >= target else v[p][w + pts])
            v[p][w] = x
    return [v[p][w] for p in range(target) for w in range(target)]


def _lobo_rounds(records: Iterable[Any]) -> list[tuple[bool, int]]:
    """(won, points scored) of every round of lobo games."""
    from solver.play.simulate import replay_record

    out = []
    for r in records:
        game = replay_record(r)
        before = (0, 0)
        for t in game.tables[1:]:
            if t.points != before:
                dp, dw = t.points[0] - before[0], t.points[1] - before[1]
                out.append((dp > 0, dp if dp > 0 else dw))
                before = t.points
    return out


def build(games: int, seed: int, policy: str, jobs: int | None) -> dict[str, Any]:
    """New tables from `games` simulated games per game and difficulty."""
    from solver.play.driver import Setup
    from solver.play.simulate import simulate

    values = [0.0] * EV_SIZE
    errors: dict[str, float] = {}
    for top in TOPS:
        difficulty = DIFFICULTY[top]
        records: list[Any] = []
        simulate(Setup(VANGUARD.name, difficulty), policy, games, seed, workers=jobs, on_record=records.append)
        samples = _vanguard_samples(records)
        table_v, worst = _smooth_vanguard(samples, top)
        values[(top - 8) * EV_VANGUARD : (top - 7) * EV_VANGUARD] = table_v
        errors[f"vanguard {difficulty}"] = round(worst, 4)
        records = []
        simulate(Setup(LOBO.name, difficulty), policy, max(1, games // 4), seed, workers=jobs, on_record=records.append)
        race = _lobo_race(_lobo_rounds(records))
        start = lobo_index(top, 0, 0)
        values[start : start + EV_TARGET * EV_TARGET] = race
        print(f"{difficulty}: {len(samples)} vanguard deals, lobo from 0-0 {race[0]:.3f}", file=sys.stderr)
    return {
        "made_by": "python -m solver.search.evaluator",
        "policy": policy,
        "games": games,
        "lobo_games": max(1, games // 4),
        "seed": seed,
        "largest_standard_error": errors,
        "layout": "solver/search/expectimax.py EV_*",
        "values": [round(v, 5) for v in values],
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Rebuild the evaluator's tables (solver/search/data/game_values.json).")
    ap.add_argument("--games", type=int, default=3000, help="games per difficulty (vanguard; lobo a quarter)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--policy", default="best")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--out", default=str(DATA))
    args = ap.parse_args(argv)
    data = build(args.games, args.seed, args.policy, args.jobs)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".part")
    tmp.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    tmp.replace(out)
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
