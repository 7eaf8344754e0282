"""Reward advice: which reward after a won round gives the best chance to win the game.

Each reward is taken, then the rest of the game is played out many times by a policy. Common
random numbers: continuation i deals the same pile order (and gives the policy the same random
stream) whichever reward was taken, so the rewards are compared on the same futures and their
difference is measured far more precisely than either win rate alone. A difference counts as
significant when the 95% interval of the paired difference leaves out 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from solver.core.intervals import wilson
from solver.core.position import Position
from solver.core.rounds import rewards
from solver.parallel import run_parallel
from solver.play.driver import REWARD, GameError, Take, advance, table_from_position
from solver.play.registry import POLICIES, make_policy
from solver.play.reward_values import GAME_VALUES, RewardAdvice, RewardValue, by_game_values
from solver.play.simulate import play_game

# The policies whose continuations can rank rewards: every simulator policy that sees only what a
# player sees (a clairvoyant's win rates are not chances anyone at the table has).
CONTINUED = tuple(p for p in POLICIES if p != "clairvoyant")
CONTINUATIONS = 200  # a reward's continuations by default
SEED = 1  # the continuations' seed by default (the game values take the hint's own deals, seed 0)


def continuation_chunk(pos_json: dict[str, Any], reward_index: int, policy: str, budget: int, seed: int,
                       indices: Sequence[int]) -> list[tuple[int, int, bool]]:  # fmt: skip
    """Worker: (reward index, continuation, won) for some continuations of one reward."""
    from solver.core.position import parse_position

    pos = parse_position(pos_json, allow_reward=True)
    start = table_from_position(pos)
    assert start.round is not None
    chosen = advance(start, Take(rewards(start.round.hand, start.round.party)[reward_index]))
    player = make_policy(policy, budget)
    # A reward leaves the pile alone, so continuation i deals the same order whatever was taken.
    return [(reward_index, i, play_game(start.setup, player, seed, i, start=chosen).won) for i in indices]


def advise_reward(
    pos: Position,
    *,
    policy: str = "game",
    samples: int = CONTINUATIONS,
    seed: int | None = None,
    played_out: int | None = None,
    budget: int | None = None,
    workers: int | None = 1,
    cluster: Any = None,
    progress: Callable[[int, int], None] | None = None,
    deadline: float | None = None,
) -> RewardAdvice:
    """Every reward of a `"phase": "reward"` position, ranked by the chance to win the game: by the
    game values the hint uses (policy "game": solver/search/round_end.py, exact where the next deal
    is surely final, the evaluator's estimate beyond), or by the win rate of continuations played
    out by a simulator policy. deadline (a time.perf_counter() reading): by the game values, a next
    final deal too big to enumerate by then is sampled until then. samples: continuations a reward
    (simulator policies); played_out: next rounds played out a reward where the game values play
    them out (None: as the hint does). seed: None is the hint's deals for the game values (so the
    advice is the hint's), SEED for continuations."""
    if pos.phase != "reward":
        raise GameError('reward advice needs a position with "phase": "reward" (a round just won)')
    if policy == GAME_VALUES:
        if played_out is not None and played_out < 2:
            raise GameError(f"--samples: at least 2 next rounds are needed, not {played_out}")
        return by_game_values(pos, 0 if seed is None else seed, deadline, played_out)
    if policy not in CONTINUED:
        raise GameError(f"--policy: {policy!r} cannot rank rewards; one of {', '.join((GAME_VALUES, *CONTINUED))}")
    seed = SEED if seed is None else seed
    if samples < 2:
        raise GameError(f"--samples: at least 2 continuations are needed, not {samples}")
    from solver.search.estimate import paired

    make_policy(policy, budget)
    start = table_from_position(pos)
    if start.phase != REWARD or start.round is None:
        raise GameError("no reward to choose here: the hand is empty and the whole party is face up")
    offered = rewards(start.round.hand, start.round.party)
    won: dict[int, list[bool]] = {k: [False] * samples for k in range(len(offered))}
    size = max(1, min(25, samples // 8))
    tasks = [
        (pos.to_json(), k, policy, budget or 0, seed, list(range(lo, min(samples, lo + size))))
        for lo in range(0, samples, size)
        for k in range(len(offered))
    ]
    total, done = len(offered) * samples, 0

    def emit(batch: list[tuple[int, int, bool]]) -> None:
        nonlocal done
        for k, i, w in batch:
            won[k][i] = w
        done += len(batch)
        if progress:
            progress(done, total)

    run_parallel(continuation_chunk, tasks, emit=emit, workers=workers, cluster=cluster)
    order = sorted(range(len(offered)), key=lambda k: (-sum(won[k]), k))
    top = won[order[0]]
    ranked = []
    for k in order:
        wins = sum(won[k])
        diffs = [int(a) - int(b) for a, b in zip(won[k], top, strict=True)]
        d, lo, hi = paired(diffs)
        ranked.append(
            RewardValue(offered[k], wins, samples, wilson(wins, samples), d, (lo, hi), k != order[0] and hi < 0)
        )
    return RewardAdvice(tuple(ranked), policy, samples, seed)


__all__ = [
    "CONTINUATIONS",
    "CONTINUED",
    "GAME_VALUES",
    "SEED",
    "RewardAdvice",
    "RewardValue",
    "advise_reward",
    "continuation_chunk",
]
