"""Reward advice: which reward after a won round gives the best chance to win the game.

Each reward is taken, then the rest of the game is played out many times by a policy. Common
random numbers: continuation i deals the same pile order (and gives the policy the same random
stream) whichever reward was taken, so the rewards are compared on the same futures and their
difference is measured far more precisely than either win rate alone. A difference counts as
significant when the 95% interval of the paired difference leaves out 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from solver.core.position import Position
from solver.core.rules import Reward, State, rewards
from solver.parallel import run_parallel
from solver.play.driver import REWARD, GameError, Take, advance, table_from_position
from solver.play.policies import make_policy
from solver.play.simulate import play_game, wilson


@dataclass(frozen=True)
class RewardValue:
    reward: Reward
    wins: int
    samples: int
    interval: tuple[float, float]
    # Against the best reward, continuation by continuation: mean difference in wins and its 95% interval.
    difference: float = 0.0
    difference_interval: tuple[float, float] = (0.0, 0.0)
    significant: bool = False  # worse than the best, beyond chance
    # Ranked by the game values (policy "game"): the chance itself, and whether it is exact.
    value: float | None = None
    exact: bool | None = None
    method: str | None = None  # how an estimate was made (solver/search/estimate.py)

    @property
    def win_rate(self) -> float:
        if self.value is not None:
            return self.value
        return self.wins / self.samples if self.samples else 0.0

    def to_json(self) -> dict[str, Any]:
        r = self.reward
        return {
            "reward": {"kind": r.kind, **({"value": r.value} if r.kind == "reserve" else {"member": r.member})},
            "text": str(r),
            "win_probability": round(self.win_rate, 6),
            "win_probability_95": [round(self.interval[0], 6), round(self.interval[1], 6)],
            "wins": self.wins,
            "samples": self.samples,
            "difference_to_best": round(self.difference, 6),
            "difference_95": [round(self.difference_interval[0], 6), round(self.difference_interval[1], 6)],
            "significantly_worse": self.significant,
            **({} if self.exact is None else {"exact": self.exact}),
            **({} if self.method is None else {"method": self.method}),
        }


@dataclass(frozen=True)
class RewardAdvice:
    ranked: tuple[RewardValue, ...]  # best first
    policy: str
    samples: int
    seed: int

    @property
    def best(self) -> RewardValue:
        return self.ranked[0]

    @property
    def clear(self) -> bool:
        """The best reward is significantly better than every other one."""
        return all(v.significant for v in self.ranked[1:])

    def verdict(self) -> str:
        if len(self.ranked) == 1:
            return f"{self.best.reward} is the only reward"
        ties = [str(v.reward) for v in self.ranked[1:] if not v.significant]
        if self.policy == GAME_VALUES:
            exact = all(v.exact for v in self.ranked)
            how = "exact" if exact else f"the next round played out {self.samples} times"
            if not ties:
                return f"take {self.best.reward}: the best chance to win the game ({how})"
            return f"{self.best.reward} is best by the game values, but {', '.join(ties)} " + (
                "is as good" if exact else f"cannot be told apart from it ({how}, 95%)"
            )
        if not ties:
            return f"take {self.best.reward}: better than every other reward beyond chance (95%)"
        return (
            f"{self.best.reward} did best, but the difference from {', '.join(ties)} is not significant "
            f"(95%, {self.samples} continuations each): more --samples may separate them"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "best": self.best.to_json()["reward"],
            "best_text": str(self.best.reward),
            "clear": self.clear,
            "verdict": self.verdict(),
            "policy": self.policy,
            "samples": self.samples,
            "seed": self.seed,
            "rewards": [v.to_json() for v in self.ranked],
        }


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
    samples: int = 200,
    seed: int = 1,
    budget: int | None = None,
    workers: int | None = 1,
    cluster: Any = None,
    progress: Callable[[int, int], None] | None = None,
) -> RewardAdvice:
    """Every reward of a `"phase": "reward"` position, ranked by the chance to win the game: by the
    game values the hint uses (policy "game": solver/search/round_end.py, exact where the next deal
    is surely final, the evaluator's estimate beyond), or by the win rate of continuations played
    out by a simulator policy."""
    if pos.phase != "reward":
        raise GameError('reward advice needs a position with "phase": "reward" (a round just won)')
    if policy == GAME_VALUES:
        return _by_game_values(pos, seed)
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


GAME_VALUES = "game"


def _by_game_values(pos: Position, seed: int) -> RewardAdvice:
    start = table_from_position(pos)
    if start.phase != REWARD or start.round is None:
        raise GameError("no reward to choose here: the hand is empty and the whole party is face up")
    ranked = game_value_ranking(start.round)
    return RewardAdvice(tuple(ranked), GAME_VALUES, ranked[0].samples, seed)


def game_value_ranking(s: State) -> list[RewardValue]:
    """Every reward on offer after a regular vanguard round won in s, best first, by the chance to
    win the game, as the hint policy chooses (solver/play/hint_policy.py). Where the next deal is
    surely the final round, the exact values (round_end.reward_values). Beyond, the evaluator's
    table knows the reserve only by its size, so the next round is played out instead, the same
    deals for every reward (estimate.rewards_rolled_out), and each reward is compared with the
    best deal by deal."""
    from solver.search.estimate import EVALUATED, evaluated, rewards_rolled_out
    from solver.search.round_end import reward_values

    values = [(r, v) for r, v in reward_values(s) if r is not None]
    if not values:
        raise GameError("no reward to choose here: the hand is empty and the whole party is face up")
    if not values[0][1].exact and len(values) > 1:
        out = []
        for i, e in enumerate(rewards_rolled_out(s)):
            assert e.reward is not None
            x = e.estimate
            ranked = RewardValue(e.reward, round(x.value * x.samples), x.samples, x.interval or (0.0, 1.0),
                                 e.difference, e.difference_interval, i > 0 and e.difference_interval[1] < 0,
                                 x.value, False, x.method)  # fmt: skip
            out.append(ranked)
        return out
    top = values[0][1].value
    out = []
    for i, (r, v) in enumerate(values):
        band = (v.value, v.value) if v.exact else evaluated(v.value, v.error).interval or (v.value, v.value)
        d = v.value - top
        half = 0.0 if v.exact else (band[1] - band[0]) / 2
        worse = i > 0 and d < -1e-9 - 2 * half
        method = None if v.exact else EVALUATED
        out.append(RewardValue(r, 0, 0, band, d, (d - 2 * half, d + 2 * half), worse, v.value, v.exact, method))
    return out
