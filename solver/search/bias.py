"""The rollouts' bias, measured against exact values: what turns a rollout average into an
estimate of a play's value, with a 95% interval that holds it.

A rollout plays the rest of the round by a rule that never looks at the pile (the greedy rule, or
under `game` the tuned policy): a real strategy, so its average leans low, by little for most
plays and by half the range for some (an Over whose rollouts follow a line no player would). The
value a player reads is the value of playing on well, so the average is corrected here by what
rollouts missed on positions whose exact values are known:

  for each game, objective and target (the value, or under `game` the round's win probability),
  and each bin of (the play's kind, a big Over's interval apart: kind_of, the rollout average's place in the objective's range, the
  unknown cards in the pile): the mean and the 1% and 99% quantiles of (exact − rollout
  average), in units of the objective's range; a lobo race under way has such tables for each
  band of the scores (race_band).

An estimate is the average plus the bin's mean; its interval runs from the average plus the low
quantile to the average plus the high one, each widened by the average's own sampling error (so
few deals widen it), and cut to the search's sound bounds. A bin measured on fewer than
MIN_MEASURED plays gives way to a coarser one (the kind, then the average's place, pooled). The
rollouts measured there were played on 400 deals; near the end of a round their bias is the one
measured; far from it (more unknown cards than measured) the bin of the most unknown cards
measured stands in, and the whole game's calibration (bench/estimates.py) checks the result.

The table ships as package data (data/rollout_bias.json) with its provenance and the layout of
its bins (LAYOUT), checked on load; it is measured again by

    python -m solver.train.rollout_bias [--positions 120] [--seed 5] [--jobs 2]
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.core.games import LOBO_TARGET
from solver.core.plays import Play
from solver.search import stamps

DATA = Path(__file__).with_name("data") / "rollout_bias.json"
BUILD = "python -m solver.train.rollout_bias"
MIN_MEASURED = 40  # plays a bin needs to stand on its own
# An Over that makes the Wolf draw this many cards or more has bins of its own for the interval:
# the lookahead reads the network before such a draw (more than 200 outcomes) and misses there
# about twice as far as on other plays, so among every Over its intervals held the exact value
# for 63% of such plays (session 46). Its correction stays the Overs' (its own moved choices and
# lost games: bench/README.md); its interval spans both bins'.
BIG_DRAW = 5
BIG_OVER = "big-over"

KIND_GROUP = {
    "perfect": "cover",
    "sum": "cover",
    "split": "cover",
    "over": "over",
    BIG_OVER: "over",
    "sacrifice": "sacrifice",
    "fold": "fold",
}
# Upper edges of the bins: the average's place in the objective's range (0 its bottom, 1 its
# top), and the unknown cards in the pile.
PLACE_EDGES = (0.05, 0.3, 0.7, 0.95)
UNKNOWN_EDGES = (9, 11, 13, 15)
ANY = "*"
# A race under way (lobo, objective `game`, not 0 to 0) has tables of its own, one for each pair of
# bands of the points each side still needs (upper edges; past the last, more): near 100 a round's
# win is most of the game, at the start its points are a small part of it, and the rollouts miss
# each differently (a review found the start's bins holding the truth for 87 of 131 plays at 99 to 99).
RACE_EDGES = (20, 50)

LAYOUT: dict[str, Any] = {
    "kinds": sorted(set(KIND_GROUP.values())),
    "place_edges": list(PLACE_EDGES),
    "unknown_edges": list(UNKNOWN_EDGES),
    "quantiles": [0.01, 0.99],
    "race_edges": list(RACE_EDGES),
    "big_draw": BIG_DRAW,
}


class BiasError(RuntimeError):
    """The table is missing, unreadable or made for another layout."""


@dataclass(frozen=True)
class Bias:
    """One bin's measure, in units of the objective's range."""

    measured: int  # plays measured in the bin
    mean: float
    low: float  # low quantile (LAYOUT) of exact − average
    high: float  # high quantile


def place_bin(place: float) -> int:
    return bisect_right(PLACE_EDGES, place)


def unknown_bin(unknown: int) -> int:
    # `unknown` lands in the first bin whose upper edge it does not pass
    return sum(1 for edge in UNKNOWN_EDGES if unknown > edge)


def kind_of(play: Play) -> str:
    """The kind a play's misses are binned by: its own, an Over with a big draw apart (BIG_DRAW)."""
    if play.kind == "over" and play.mine[0] - play.wolf[0] >= BIG_DRAW:
        return BIG_OVER
    return play.kind


def bin_keys(kind: str, place: float, unknown: int) -> list[str]:
    """The bins an average is measured in, the most specific first; a big Over's also in its
    spread bins (_spread_keys)."""
    p, u = place_bin(place), unknown_bin(unknown)
    return (_spread_keys(p, u) if kind == BIG_OVER else []) + _keys(kind, p, u)


def _spread_keys(p: int, u: int) -> list[str]:
    """A big Over's own bins, for its interval: by place, then every place pooled (few are
    measured at each)."""
    return [f"{BIG_OVER}|{p}|{u}", f"{BIG_OVER}|{ANY}|{u}"]


def _keys(kind: str, p: int, u: int) -> list[str]:
    k = KIND_GROUP.get(kind, kind)
    return [f"{k}|{p}|{u}", f"{ANY}|{p}|{u}", f"{ANY}|{ANY}|{u}", f"{ANY}|{ANY}|{ANY}"]


CORRECTED = ", corrected for their bias"


def method(rollouts: str) -> str:
    """The name of an estimate made from rollouts of this name (estimate.py's) by this module."""
    return rollouts + CORRECTED


ROLLOUTS = "rollouts"
NETWORK = "network"  # the lookahead over the value network (estimate.looked_ahead)


def table_key(game: str, objective: str, target: str, estimator: str = ROLLOUTS, race: str = "") -> str:
    """The table of one estimator's misses: the rollouts' keep the names they were first made with;
    a race's band (race_band) follows an @."""
    return (
        f"{game}/{objective}/{target}"
        + ("" if estimator == ROLLOUTS else f"/{estimator}")
        + (f"@{race}" if race else "")
    )


def race_band(scores: tuple[int, int], target: int = LOBO_TARGET) -> str:
    """The band of a race under way: the points each side still needs, each in RACE_EDGES's bins
    ("" at 0 to 0, the race's start, which the plain tables were measured on)."""
    if scores == (0, 0):
        return ""
    need = [max(0, target - s) for s in scores]
    return "race-" + "-".join(str(bisect_left(RACE_EDGES, n)) for n in need)


def stale(stamp: Any) -> str | None:
    """What in a file's layout stamp differs from LAYOUT (None: it fits)."""
    return stamps.differs(stamp, LAYOUT)


@lru_cache(maxsize=1)
def _raw() -> dict[str, Any]:
    try:
        raw = json.loads(DATA.read_text(encoding="utf-8"))
        differs = stale(raw.get("stamp"))
        tables = raw["tables"]
        if not isinstance(tables, dict):
            raise TypeError("tables is not an object")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise BiasError(f"the rollouts' bias table ({DATA}) cannot be read: {e}") from None
    if differs is not None:
        raise BiasError(
            f"the rollouts' bias table ({DATA}) was made for another layout ({differs}): remake it with `{BUILD}`"
        )
    return dict(raw)


def about() -> dict[str, Any]:
    """How the table was measured (positions, seed, code), as the file says."""
    return {k: v for k, v in _raw().items() if k != "tables"}


def lookup(
    game: str,
    objective: str,
    target: str,
    kind: str,
    place: float,
    unknown: int,
    estimator: str = ROLLOUTS,
    race: str = "",
) -> Bias | None:
    """The most specific bin measured on MIN_MEASURED plays at least (None: nothing measured)."""
    bins = _raw()["tables"].get(table_key(game, objective, target, estimator, race))
    if not bins:
        return None
    # More unknown cards than were measured: the bin of the most unknown cards measured.
    u = unknown_bin(unknown)
    while u > 0 and bins.get(f"{ANY}|{ANY}|{u}", {}).get("n", 0) < MIN_MEASURED:
        u -= 1
    found = _first(bins, _keys(kind, place_bin(place), u))
    spread = _first(bins, _spread_keys(place_bin(place), u)) if kind == BIG_OVER else None
    if found is None or spread is None:
        return found
    # The Overs' correction, and an interval that holds both bins' misses.
    return Bias(found.measured, found.mean, min(found.low, spread.low), max(found.high, spread.high))


def _first(bins: dict[str, Any], keys: list[str]) -> Bias | None:
    for key in keys:
        b = bins.get(key)
        if b is not None and b["n"] >= MIN_MEASURED:
            return Bias(int(b["n"]), float(b["mean"]), float(b["low"]), float(b["high"]))
    return None


def corrected(
    average: float,
    spread: tuple[float, float],
    *,
    game: str,
    objective: str,
    target: str,
    kind: str,
    unknown: int,
    value_range: tuple[float, float],
    bounds: tuple[float, float],
    estimator: str = ROLLOUTS,
    scores: tuple[int, int] = (0, 0),
    default_rules: bool = True,
) -> tuple[float, tuple[float, float], int]:
    """A rollout average as an estimate of the play's value: the value, its 95% interval, and the
    plays its bin was measured on (0: none; the interval is then the sound bounds). `spread`: how
    far the average's own 95% interval reaches below and above it (its sampling error), which
    widens the bias's quantiles. Both are cut to the sound bounds, which the truth never leaves.
    scores: a race's (lobo): under `game` later in a race than its start the bins are its band's
    (race_band); where that band has no table the start's correction still moves the value, but its
    interval is the sound bounds (0 measured here). So under rulings other than the default
    (default_rules False), which every bin was measured under."""
    lo, hi = bounds
    width = value_range[1] - value_range[0]
    place = 0.5 if width <= 0 else (average - value_range[0]) / width
    b = lookup(game, objective, target, kind, place, unknown, estimator)
    if b is None or width <= 0:
        return min(max(average, lo), hi), (lo, hi), 0
    race = race_band(scores) if objective == "game" else ""
    raced = lookup(game, objective, target, kind, place, unknown, estimator, race) if race else b
    if not default_rules or raced is None:
        return min(max(average + b.mean * width, lo), hi), (lo, hi), 0
    b = raced
    value = average + b.mean * width
    a = average + b.low * width - spread[0]
    z = average + b.high * width + spread[1]
    # The sound bounds can say the rollouts fell further short here than anything the bin saw (a
    # lower bound above its highest correction): the bin's interval, and the value with it, is then
    # placed at that bound rather than shrunk onto it.
    shift = lo - a if lo > average + b.high * width else hi - z if hi < average + b.low * width else 0.0
    value, a, z = (min(max(x + shift, lo), hi) for x in (value, a, z))
    return value, (min(a, value), max(z, value)), b.measured


__all__ = [
    "CORRECTED",
    "NETWORK",
    "ROLLOUTS",
    "Bias",
    "BiasError",
    "about",
    "bin_keys",
    "corrected",
    "kind_of",
    "lookup",
    "method",
    "race_band",
    "stale",
]
