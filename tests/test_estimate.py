"""Estimates for plays the exact search leaves open, and what a cut-short hint recommends."""

from __future__ import annotations

import random

from solver.estimate import ROLLOUTS, rolled_out
from solver.hint import hint
from solver.policies import greedy_key
from solver.position import parse_position
from solver.rules import WON, apply, initial_state, legal_plays


def lobo_opening(seed: int) -> dict[str, object]:
    deck = [v for v in range(1, 10) for _ in range(5)]
    random.Random(seed).shuffle(deck)
    return {"game": "lobo", "difficulty": "standard", "player": deck[:4], "wolf": deck[4:8]}


def test_a_cut_short_opening_hint_never_recommends_fold() -> None:
    for seed in range(3):
        pos = parse_position(lobo_opening(seed))
        h = hint(pos, time_limit=1.0)
        assert not h.exact
        assert h.best is not None and h.best.kind != "fold", (seed, h.best)
        js = h.to_json()
        open_moves = [m for m in js["moves"] if "bounds" in m]
        assert open_moves and all(m["estimate"]["samples"] >= 8 for m in open_moves)
        # Fold's value is exact; the rollouts are a real strategy, so some play should beat folding.
        fold = next(m for m in js["moves"] if m["play"]["type"] == "fold")
        assert js["moves"][0]["value"] > fold["value"]


def test_a_state_budget_recommends_fold_only_when_proven() -> None:
    pos = parse_position(lobo_opening(1))
    h = hint(pos, max_states=500)
    assert not h.exact and h.best is not None and h.best.kind != "fold"


def test_rollouts_play_the_greedy_rule_on_a_known_pile() -> None:
    # A fully known pile: every deal is the same, so the rollout value is that of one greedy game,
    # which we play here by hand through the rules.
    pos = parse_position({"game": "lobo", "player": [2, 5], "wolf": [5, 7], "draw_pile": [7, 3, 1]})
    root = initial_state(pos)
    plays = [p for p in legal_plays(root) if p.kind != "fold"]
    got = rolled_out(root, "points", plays, deadline=0.0, min_deals=3)
    for play in plays:
        s = apply(root, play)
        while s.outcome is None:
            s = apply(s, min(legal_plays(s), key=greedy_key))
        want = float(sum(s.hand)) if s.outcome == WON else -float(sum(s.wolf))
        assert got[play].method == ROLLOUTS and got[play].samples == 3
        assert got[play].value == want, str(play)
