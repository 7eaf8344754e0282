"""Rewards ranked by the game values the hint uses: which reward after a won round gives the best
chance to win the game (RULES.md §4, §7), exact where the next deal is surely the final round
(solver/search/round_end.py), the next round played out beyond it (solver/search/estimate.py).
The hint policy takes its rewards from here; solver/play/reward.py adds the rankings by simulated
continuations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.core.position import Position
from solver.core.rounds import Reward
from solver.core.rules import State
from solver.play.driver import REWARD, GameError, table_from_position
from solver.search.round_end import SAMPLED


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

    def how(self) -> str:
        """How the values were made, in a few words (the game values: exact, sampled final deals,
        or the next round played out)."""
        if self.policy != GAME_VALUES:
            return f"{self.samples} continuations each, policy {self.policy}"
        if all(v.exact for v in self.ranked):
            return "exact"
        if self.best.method is not None and SAMPLED in self.best.method:
            return self.best.method
        if self.samples:
            return f"the next round played out {self.samples} times"
        return self.best.method or "estimated"

    def made_by(self) -> str:
        """Where the values come from, as both faces head them (found by a review: the page said
        "1000 continuations each, policy game", the terminal "the next round played out 1000 times")."""
        return f"the game values of the hint, {self.how()}" if self.policy == GAME_VALUES else self.how()

    def verdict(self) -> str:
        if len(self.ranked) == 1:
            return f"{self.best.reward} is the only reward"
        ties = [str(v.reward) for v in self.ranked[1:] if not v.significant]
        if self.policy == GAME_VALUES:
            exact = all(v.exact for v in self.ranked)
            how = self.how()
            if not exact and self.best.samples == 0:  # (found by a review: a best named on no deal)
                return "no deal could be valued within the time limit: give a longer --time-limit"
            if not ties:
                return f"take {self.best.reward}: the best chance to win the game ({how})"
            return f"{self.best.reward} is best by the game values, but {', '.join(ties)} " + (
                "is as good" if exact else f"cannot be told apart from it ({how}, 95%)"
            )
        # Said as what it is: wins when policy X plays the game on (found by a review: beside the
        # game values' advice, a bare "better beyond chance" read as a contradiction).
        played = f"the game played on by policy {self.policy}, {self.samples} continuations each"
        if not ties:
            return f"take {self.best.reward}: it won more than every other reward beyond chance (95%; {played})"
        return (
            f"{self.best.reward} won most, but the difference from {', '.join(ties)} is not significant "
            f"(95%; {played}): more --samples may separate them"
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


GAME_VALUES = "game"


def by_game_values(
    pos: Position, seed: int = 0, deadline: float | None = None, played_out: int | None = None
) -> RewardAdvice:
    """played_out: the next rounds played out for each reward where they are (None: as the hint)."""
    start = table_from_position(pos, valued_only=True)  # the rewards valued, never played on
    if start.phase != REWARD or start.round is None:
        raise GameError("no reward to choose here: the hand is empty and the whole party is face up")
    ranked = game_value_ranking(start.round, deadline, seed, played_out=played_out)
    return RewardAdvice(tuple(ranked), GAME_VALUES, ranked[0].samples, seed)


def game_value_ranking(
    s: State,
    deadline: float | None = None,
    seed: int = 0,
    deals: int | None = None,
    played_out: int | None = None,
) -> list[RewardValue]:
    """Every reward on offer after a regular vanguard round won in s, best first, by the chance to
    win the game, as the hint policy chooses (solver/play/hint_policy.py). Where the next deal is
    surely the final round, the exact values (round_end.reward_values). Beyond, the evaluator's
    table knows the reserve only by its size, so the next round is played out instead, the same
    deals for every reward (estimate.rewards_rolled_out), and each reward is compared with the
    best deal by deal; so is a reward alone on offer, so that its value is made as every other
    reward's is. With a deadline, a next final deal too big to enumerate is sampled instead
    (round_end.sampled_reward_values), the same deals for every reward (`deals` of them, if given).
    seed: of both the sampled deals and the next rounds played out; played_out: how many of those
    (None: as the hint policy plays them)."""
    from solver.search import bias
    from solver.search.estimate import EVALUATED, REWARD_DEALS, evaluated, rewards_rolled_out
    from solver.search.round_end import reward_values

    values = [(r, v) for r, v in reward_values(s, deadline, seed, deals) if r is not None]
    if not values:
        raise GameError("no reward to choose here: the hand is empty and the whole party is face up")
    if not values[0][1].exact and values[0][1].method is None:
        out = []
        for i, e in enumerate(rewards_rolled_out(s, played_out or REWARD_DEALS, seed)):
            assert e.reward is not None
            x = e.estimate
            # The rollouts' average corrected for their bias as the hint corrects its plays' (a
            # round still to be dealt: no play's kind); the differences are the same deals'.
            lo, hi = x.interval or (x.value, x.value)
            value, band, _ = bias.corrected(
                x.value, (x.value - lo, hi - x.value), game=s.game, objective="game", target="value",
                kind=bias.ANY, unknown=s.unknown_draws, value_range=(0.0, 1.0), bounds=(0.0, 1.0),
            )  # fmt: skip
            ranked = RewardValue(e.reward, round(x.value * x.samples), x.samples, band,
                                 e.difference, e.difference_interval, i > 0 and e.difference_interval[1] < 0,
                                 value, False, bias.method(x.method))  # fmt: skip
            out.append(ranked)
        return out
    top = values[0][1].value
    out = []
    for i, (r, v) in enumerate(values):
        band = (v.value, v.value) if v.exact else evaluated(v.value, v.error).interval or (v.value, v.value)
        d = v.value - top
        half = 0.0 if v.exact else (band[1] - band[0]) / 2
        worse = i > 0 and d < -1e-9 - 2 * half
        method = None if v.exact else v.method or EVALUATED
        wins = round(v.value * v.samples)
        apart = (d - 2 * half, d + 2 * half) if i else (0.0, 0.0)  # the best against itself: no difference
        out.append(RewardValue(r, wins, v.samples, band, d, apart, worse, v.value, v.exact, method))
    return out


__all__ = ["GAME_VALUES", "RewardAdvice", "RewardValue", "by_game_values", "game_value_ranking"]
