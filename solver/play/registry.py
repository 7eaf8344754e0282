"""Every policy by name, with its rule in words: what `simulate --policy`, `report` and the
reward advice ask for. The policies themselves live in policies.py (random, greedy, best),
hint_policy.py and clairvoyant.py; the last two load on first use (the hint policy brings the
whole search).
"""

from __future__ import annotations

from typing import Any

from solver.play.policies import BEST_SAMPLES, BestPolicy, GreedyPolicy, Policy, RandomPolicy

POLICIES = ("hint", "best", "greedy", "random", "clairvoyant")
HINT_RULE = (
    "hint: every play the best play of `lobo-hint` (objective game: the chance to win the whole game) with "
    "--think seconds a decision, or by --max-states and --samples budgets (the same games on any machine), "
    "raised near the end of a vanguard round where the exact search can finish; every reward the one with the "
    "best chance to win the game."
)
CLAIRVOYANT_RULE = (
    "clairvoyant: plays each deal knowing the order of its pile (and lobo's reshuffles): vanguard by an "
    "exact search of the rest of the game, lobo by a bounded search of each round chained over the race "
    "(a heuristic there). The upper bound of what any advice could reach; no player can play it."
)


# Roughly how long a standard game takes each policy on one core (bench/README.md), only to size
# the simulator's chunks of games: a slow policy's chunk of 50 left the progress bar and the
# games file still for most of a minute, and a Ctrl-C lost all of it.
SECONDS_A_GAME = {"hint": 0.5, "best": 0.1, "greedy": 0.002, "random": 0.002, "clairvoyant": 20.0}


def make_policy(
    name: str, samples: int | None = None, think: float | None = None, max_states: int | None = None
) -> Policy:
    """A policy by name; `samples` is best's per-move budget (sampled pile orders per play) and
    the hint's (deals a play where its search cannot finish), `think` the hint policy's seconds a
    decision, `max_states` its state budget. With `max_states` and no `think` the hint thinks by
    its budgets alone: a seeded game plays the same on any machine, under any load."""
    if name == "hint":
        from solver.play.hint_policy import THINK, HintPolicy, hint_samples

        if max_states is not None:
            return HintPolicy(think, max_states, hint_samples(max_states, samples))
        return HintPolicy(think or THINK, samples=samples)
    if name == "best":
        return BestPolicy(samples or BEST_SAMPLES)
    if name == "greedy":
        return GreedyPolicy()
    if name == "random":
        return RandomPolicy()
    if name == "clairvoyant":
        from solver.play.clairvoyant import ClairvoyantPolicy

        return ClairvoyantPolicy()
    raise ValueError(f"policy {name!r} is not one of {', '.join(POLICIES)}")


def policy_budget(
    name: str, samples: int | None = None, think: float | None = None, max_states: int | None = None
) -> dict[str, Any]:
    """The budgets `make_policy` gives the policy, defaults filled in, as a run states them (a
    simulation's JSON, each line of its games file): what a resumed run must match."""
    if name == "hint":
        from solver.play.hint_policy import HINT_SAMPLES, THINK

        by_states = max_states is not None
        return {
            "samples": samples or (HINT_SAMPLES if by_states else None),
            "max_states": max_states,
            "think": think if by_states else think or THINK,
        }
    return {"samples": samples or BEST_SAMPLES if name == "best" else None}


__all__ = ["CLAIRVOYANT_RULE", "HINT_RULE", "POLICIES", "SECONDS_A_GAME", "make_policy", "policy_budget"]
