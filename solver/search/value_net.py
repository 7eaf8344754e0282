"""The shipped value networks (solver/search/network.py): which one values a round, if any.

One network a game and difficulty, trained offline on lobo-hint's own games (how:
solver/train/value_net.py) for the rules it plays by default. A round of other rules (another hand
size or final threshold, the reserve scoring, the top card face up), with known top cards, or with
cards gone from the pile unseen, is not what any network learnt from: none values it, and the
hint estimates it by rollouts as before. The file (data/value_net.json) records, network by
network, the games it was trained on, the seed, the code and how well it fits, and the layout of
the features it was trained for (LAYOUT), checked on load: a network trained for other features
would read the wrong inputs without a word. This module only reads it; the networks are trained by

    python -m solver.train.value_net [--games 4000] [--seed 1001] [--jobs 2] ...
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.core.cards import DIFFICULTY_OF_TOP
from solver.core.position import Rules
from solver.core.rules import State
from solver.search import network, stamps

DATA = Path(__file__).with_name("data") / "value_net.json"
TRAIN = "python -m solver.train.value_net"

# The features' layout, stamped into the file by the trainer: the network reads input i as the
# feature network.py puts at i, so a network trained for other features would weigh the wrong
# facts. The offsets by name, the sizes, the heads in order.
LAYOUT: dict[str, Any] = {
    "features": network.FEATURES,
    "offsets": {
        name: getattr(network, name)
        for name in (
            "F_HAND",
            "F_RESERVE",
            "F_WOLF",
            "F_UNSEEN",
            "F_PILE",
            "F_ACTIVE",
            "F_OWED_P",
            "F_OWED_W",
            "F_SUMS",
        )
    },
    "pile_slots": network.PILE_SLOTS,
    "heads": ["game", "win"],
    "header": network.HEADER,
}


class ValueNetError(RuntimeError):
    """The shipped networks are missing, unreadable or trained for another layout."""


def stale(stamp: Any) -> str | None:
    """What in a file's layout stamp differs from LAYOUT (None: it fits)."""
    return stamps.differs(stamp, LAYOUT)


@lru_cache(maxsize=1)
def _raw() -> dict[str, Any]:
    try:
        raw = json.loads(DATA.read_text(encoding="utf-8"))
        differs = stale(raw.get("stamp"))
        nets = raw["networks"]
        if not isinstance(nets, dict):
            raise TypeError("networks is not an object")
        for by in nets.values():
            for entry in by.values():
                sizes = [int(x) for x in entry["sizes"]]
                if len(sizes) != 4 or len(entry["weights"]) != network.size(*sizes) - network.HEADER:
                    raise ValueError(f"a network of sizes {sizes} holds {len(entry['weights'])} weights")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise ValueNetError(f"the value networks ({DATA}) cannot be read: {e}") from None
    if differs is not None:
        raise ValueNetError(
            f"the value networks ({DATA}) were trained for another layout ({differs}): train them again with `{TRAIN}`"
        )
    return dict(raw)


def about(game: str, difficulty: str) -> dict[str, Any] | None:
    """How the network of this game and difficulty was made (None: there is none)."""
    entry = _raw()["networks"].get(game, {}).get(difficulty)
    return None if entry is None else dict(entry.get("made", {}))


_ARRAYS: dict[tuple[str, str], Any] = {}


def _array(game: str, difficulty: str) -> Any:
    """The network as the array network.evaluate reads (made once per process)."""
    key = (game, difficulty)
    if key not in _ARRAYS:
        import numpy as np

        entry = _raw()["networks"].get(game, {}).get(difficulty)
        if entry is None:
            _ARRAYS[key] = None
        else:
            header = [float(x) for x in entry["sizes"]]
            _ARRAYS[key] = np.array(header + [float(w) for w in entry["weights"]], np.float64)
    return _ARRAYS[key]


def fits(state: State) -> bool:
    """Whether the shipped networks were trained on rounds like this one (a regular round of the
    default rules, nothing of the pile known, every unseen card still in it)."""
    return (
        state.rules == Rules()
        and not state.pile_top
        and state.pile_size == sum(state.unseen)
        and DIFFICULTY_OF_TOP.get(state.top) is not None
    )


def for_round(state: State) -> Any:
    """The network that values this round's states (a float array), or None: none was trained for
    its game, difficulty or rules."""
    if not fits(state):
        return None
    return _array(state.game, DIFFICULTY_OF_TOP[state.top])


__all__ = ["LAYOUT", "TRAIN", "ValueNetError", "about", "fits", "for_round", "stale"]
