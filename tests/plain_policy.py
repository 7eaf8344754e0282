"""The rollout policy (solver/search/rollout_policy.py, kernel.policy_score) restated plainly over
Play values and the rules' Python API: each legal play's score from what it does, by name, and
the best play (the first listed among equal scores), to judge the kernel's choose and play_out."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from solver.core.plays import Play
from solver.core.rules import State, legal_plays

# The weights' places, by name (the tuner's file lists them in this order after the switch).
NAMES = (
    "on", "win", "taken", "mine", "kept", "top", "over", "diff", "split", "spent", "wolf_after",
    "diff_near", "mine_after", "fold", "fold_cost", "fold_active", "fold_near",
)  # fmt: skip


def score(s: State, play: Play, weights: Sequence[float]) -> float:
    w = dict(zip(NAMES, weights, strict=True))
    r = s.rules
    near = 1.0 if s.pile_size <= 2 * r.hand_size + r.final_threshold else 0.0
    k, act = len(s.wolf), len(s.party)
    if play.kind == "fold":
        cost = min(k, act) if s.game == "vanguard" else sum(s.wolf)  # members lost, or the Wolf's points
        return w["fold"] + w["fold_cost"] * cost + w["fold_active"] * act + w["fold_near"] * near
    over = 1 if play.kind == "over" else 0
    split = 1 if play.kind == "split" else 0
    diff = sum(play.mine) - play.wolf[0] if over else 0  # the cards an Over makes the Wolf draw
    wolf_after = k - len(play.wolf) + diff + split
    drawn = 1 if play.kind in ("perfect", "sum") and s.pile_size > 0 else 0
    terms = [
        (w["win"], 1 if wolf_after == 0 and play.kind in ("perfect", "sum") else 0),
        (w["taken"], len(play.wolf)),
        (w["mine"], len(play.hand)),
        (w["kept"], len(play.reserve)),
        (w["top"], max(play.wolf)),
        (w["over"], over),
        (w["diff"], diff),
        (w["split"], split),
        (w["spent"], sum(play.hand)),
        (w["wolf_after"], wolf_after),
        (w["diff_near"], diff * near),
        (w["mine_after"], len(s.hand) - len(play.hand) + drawn),
    ]
    x = 0.0
    for a, b in terms:  # the same sum, in the same order, as the kernel's: equal floats
        x = x + a * b
    return x


def policy_play(s: State, weights: Sequence[float]) -> Play:
    plays = legal_plays(s)  # listed in order: max keeps the first of equal scores
    return max(plays, key=lambda p: score(s, p, weights))


def chooser(weights: Sequence[float]) -> Callable[[State], Play]:
    """The policy of these weights as a choice of play, for plain_greedy.rollout's replay."""
    return lambda s: policy_play(s, weights)


def random_weights(rng: random.Random) -> tuple[float, ...]:
    """Shipped, random real, or small whole weights (whole ones make equal scores, so the
    tie-break is checked too)."""
    from solver.search import rollout_policy

    pick = rng.random()
    if pick < 0.3:
        return rng.choice(sorted(rollout_policy.shipped().values()))
    if pick < 0.65:
        return (1.0, *(rng.gauss(0.0, 3.0) for _ in range(len(NAMES) - 1)))
    return (1.0, *(float(rng.randint(-2, 2)) for _ in range(len(NAMES) - 1)))
