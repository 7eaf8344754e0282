"""The rollout policy: how the estimates play a round out far from its end (objective `game`).

A rollout is one sample of the rest of the round, and its end is valued for the game (the
evaluator's tables, or the exact next deal: solver/search/playouts.py). The policy that plays it
decides what the sample measures: the greedy rule never folds while anything else is legal and
takes the most Wolf cards it can, so its rollouts value a play by a line that a player who wants
the game would not follow (an Over that makes the Wolf draw five cards, then a fold that costs
the whole party).

The policy here scores each legal move by a weighted sum of plain facts about it
(kernel.policy_score: whether it wins the round, the Wolf's cards it takes and leaves, the
Player's cards it spends, an Over's difference, and for Fold what it costs: vanguard's members,
lobo's points for the Wolf) and plays the best. The weights are tuned offline, per game and
difficulty, by the cross-entropy method: the objective is the mean value for the game (the same
evaluator the search reads) of the round's ends the policy reaches, from decisions of simulated
games, every candidate played on the same deals; and they are checked on decisions of other
games. They ship as package data (data/rollout_policy.json), with the figures of that
check; this module only reads them. They are tuned again (solver/train/rollout_weights.py) by

    python -m solver.train.rollout_weights [--games-of vanguard,lobo] [--difficulties ...] [--seed 101]
        [--iterations 30] [--deals 16]

The file is stamped with the weights' layout it was tuned for (LAYOUT): a feature added to,
removed from or moved in kernel.policy_score makes the search refuse it until it is tuned again.

Objectives other than `game` (the round's win, the party, lobo's points) keep the greedy rule:
the weights were tuned for the game's values of the round's ends, not for a round's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.core import kernel
from solver.core.cards import DIFFICULTY_OF_TOP
from solver.core.position import Rules
from solver.core.rules import State
from solver.search import stamps

DATA = Path(__file__).with_name("data") / "rollout_policy.json"
GREEDY: tuple[float, ...] = kernel.GREEDY_WEIGHTS
TUNE = "python -m solver.train.rollout_weights"

# The weights' layout, stamped into the file by the tuner ("stamp"): w[i] multiplies the feature
# kernel.RP_* = i in kernel.policy_score, so weights tuned for another list of features would
# weigh the wrong facts without a word. The features by name, in their places.
LAYOUT: dict[str, Any] = {
    "RP_SIZE": kernel.RP_SIZE,
    "features": [
        name for _, name in sorted((v, k) for k, v in vars(kernel).items() if k.startswith("RP_") and k != "RP_SIZE")
    ],
}


class RolloutPolicyError(RuntimeError):
    """The shipped weights are missing, unreadable or tuned for another layout (a broken
    installation, or kernel.policy_score's features changed since they were tuned)."""


def stale(stamp: Any) -> str | None:
    """What in a file's layout stamp differs from LAYOUT (None: it fits)."""
    return stamps.differs(stamp, LAYOUT)


@lru_cache(maxsize=1)
def shipped() -> dict[tuple[str, str], tuple[float, ...]]:
    """The shipped weights by (game, difficulty)."""
    try:
        raw = json.loads(DATA.read_text(encoding="utf-8"))
        differs = stale(raw.get("stamp"))
        out = {(g, d): tuple(float(x) for x in w) for g, by in raw["weights"].items() for d, w in by.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise RolloutPolicyError(f"the rollout policy's weights ({DATA}) cannot be read: {e}") from None
    if differs is not None:
        raise RolloutPolicyError(
            f"the rollout policy's weights ({DATA}) were tuned for another layout ({differs}): tune them again with `{TUNE}`"
        )
    for (g, d), w in out.items():
        if len(w) != kernel.RP_SIZE or w[kernel.RP_ON] != 1.0:
            raise RolloutPolicyError(
                f"the rollout policy's weights ({DATA}) for {g} {d} are not {kernel.RP_SIZE} tuned weights"
            )
    return out


def weights(root: State, objective: str) -> tuple[float, ...]:
    """The weights rollouts from root play by: under `game` with the default rules, the ones tuned
    for its game and difficulty; else the greedy rule's (the weights were tuned for the game's
    values with 4-card hands and a final threshold of 8, not for a round's win or points)."""
    if objective != "game" or root.rules != Rules():
        return GREEDY
    return shipped().get((root.game, DIFFICULTY_OF_TOP.get(root.top, "")), GREEDY)


def is_greedy(w: Sequence[float]) -> bool:
    """Whether weights w are the greedy rule's (kernel.choose plays the rule itself)."""
    return w[kernel.RP_ON] == 0.0
