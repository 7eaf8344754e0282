"""The evaluator: the chance to win the game from the next deal, where the rest of the game is too
big to search (objective `game`, RULES.md §7).

Within the exact horizon (a vanguard pile of at most 2 × hand_size + final_threshold cards: the
next deal is surely the final round) the search values the end of a round exactly
(expectimax.next_deal). Beyond it, and in lobo's race, it reads these tables:

  vanguard  V[top value][cards in the pile][active members][reserve cards]: the chance to win
            from the deal of the next round;
  lobo      L[top value][the Player's points][the Wolf's points]: the chance to reach 100 first.

They are estimates, and every value read off them makes an answer say `exact: false`. They ship
as package data (data/game_values.json), beside every value its standard error, which the search
carries into each answer's interval (expectimax.estimated, ctr[ERROR]). This module only reads
them; they are built offline from simulated games (how: solver/train/evaluator_tables.py) by

    python -m solver.train.evaluator_tables [--games 3000] [--seed 11] [--policy hint] [--jobs 2] ...

The file is stamped with the layout it was built for (LAYOUT): a change of the tables' sizes
makes the search refuse it until it is rebuilt, rather than read values from the wrong cells.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.search import stamps
from solver.search.expectimax import EV_ERRORS, EV_LOBO, EV_PILES, EV_RESERVE, EV_SIZE, EV_TARGET, EV_VANGUARD

DATA = Path(__file__).with_name("data") / "game_values.json"
TOPS = (8, 9, 10)
BUILD = "python -m solver.train.evaluator_tables"

# The layout the tables are read in, stamped into the file by its builder ("stamp"): the search
# indexes the values by these sizes (vanguard_index, lobo_index), so a file made for other sizes
# would be read from the wrong cells without a word.
LAYOUT: dict[str, Any] = {
    "tops": list(TOPS),
    "EV_PILES": EV_PILES,
    "EV_RESERVE": EV_RESERVE,
    "EV_VANGUARD": EV_VANGUARD,
    "EV_LOBO": EV_LOBO,
    "EV_TARGET": EV_TARGET,
    "EV_SIZE": EV_SIZE,
}


class EvaluatorError(RuntimeError):
    """The tables are missing, unreadable or made for another layout (a broken installation, or
    rules changed since they were built)."""


def stale(stamp: Any) -> str | None:
    """What in a file's layout stamp differs from LAYOUT (None: it fits)."""
    return stamps.differs(stamp, LAYOUT)


@lru_cache(maxsize=1)
def table() -> list[float]:
    """Every value of the tables, then every cell's standard error at the same place plus EV_SIZE,
    in the layout the search reads (expectimax.EV_*, EV_ERRORS)."""
    try:
        raw = json.loads(DATA.read_text(encoding="utf-8"))
        differs = stale(raw.get("stamp"))
        values = [float(x) for x in raw["values"]]
        errors = [float(x) for x in raw["errors"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise EvaluatorError(f"the evaluator's tables ({DATA}) cannot be read: {e}") from None
    if differs is not None:
        raise EvaluatorError(
            f"the evaluator's tables ({DATA}) were built for another layout ({differs}): rebuild them with `{BUILD}`"
        )
    if len(values) != EV_SIZE or len(errors) != EV_SIZE:
        raise EvaluatorError(
            f"the evaluator's tables ({DATA}) hold {len(values)} values and {len(errors)} errors, not {EV_SIZE} each"
        )
    return values + errors


_ARRAY: list[Any] = []  # [the table() list, its float64 array]


def array() -> Any:
    """table() as a numpy array for the compiled search, made once per table: a fresh
    copy of its 72,000 values for every search cost milliseconds a decision."""
    import numpy as np

    values = table()
    if not _ARRAY or _ARRAY[0] is not values:
        # Writable, as the compiled search was warmed up with (a read-only array is another type
        # to numba, compiled again); nothing writes to it.
        _ARRAY[:] = [values, np.array(values, np.float64)]
    return _ARRAY[1]


def error_of(index: int) -> float:
    """The standard error of the table's value at this index (its sampling error)."""
    return table()[EV_ERRORS + index]


@lru_cache(maxsize=1)
def about() -> dict[str, Any]:
    """How the tables were made (policy, games, seed, errors), as the file says."""
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    return {k: v for k, v in raw.items() if k not in ("values", "errors")}


def vanguard_index(top: int, pile: int, active: int, reserve: int) -> int:
    return (top - 8) * EV_VANGUARD + (min(pile, EV_PILES - 1) * 4 + active) * EV_RESERVE + min(reserve, EV_RESERVE - 1)


def lobo_index(top: int, player: int, wolf: int) -> int:
    return EV_LOBO + ((top - 8) * EV_TARGET + player) * EV_TARGET + wolf
