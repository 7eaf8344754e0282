"""Simulated whole games: play many games with a policy, record each one fully, sum them up.

Game i of a run with seed S gets its pile order from (S, i) alone (game.SeededDeck) and its
policy's randomness from (S, i, policy) alone, so every policy meets the same deals and a game
replays exactly from its record. Games run in chunks on a process pool or a Dask cluster
(solver/parallel/, as batch runs puzzles: a bounded number in flight, a crashed worker's chunks
run again), the records handed on in game order, so the output does not depend on the number
of workers.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from statistics import mean, quantiles
from typing import Any

import numpy as np
import numpy.random  # numpy loads it on first use; here, so that it loads before a run is timed

from solver.core.games import game as game_of
from solver.core.intervals import wilson
from solver.parallel import run_parallel
from solver.play.driver import (
    DEAL,
    DRAW,
    PLAY,
    REWARD,
    Deal,
    Draw,
    GameError,
    Move,
    Playthrough,
    SeededDeck,
    Setup,
    Step,
    Table,
    Take,
    advance,
    new_table,
    seed_from_json,
    step_from_json,
    step_text,
    step_to_json,
    waiting_for,
)
from solver.play.policies import Policy
from solver.play.registry import SECONDS_A_GAME, make_policy
from solver.words.numbers import and_list


def policy_rng(seed: int, index: int, policy: str) -> random.Random:
    """The policy's own randomness for one game: never shared with the deck (common random numbers)."""
    tag = sum(ord(c) << (8 * i) for i, c in enumerate(policy[:8]))
    return random.Random(int(np.random.SeedSequence([seed, index, tag, 0x9A11]).generate_state(1)[0]))


@dataclass(frozen=True)
class GameRecord:
    """One game from its deal to its end: every step, and what the summary needs."""

    index: int
    seed: int
    setup: Setup
    policy: str
    steps: tuple[Step, ...]
    result: str
    score: int | None
    rounds: int
    party_by_round: tuple[int, ...]  # vanguard: active members at the end of each round
    rewards: tuple[str, ...]  # vanguard: the reward taken after each won regular round
    final_reached: bool
    points: tuple[int, int] = (0, 0)  # lobo
    reshuffles: int = 0
    seconds: float = 0.0
    # (step index, chance): for each play of a policy that predicts (the hint), the chance to win
    # the game its answer gave that play.
    predicted: tuple[tuple[int, float], ...] = ()

    @property
    def won(self) -> bool:
        return self.result == "won"

    @property
    def members_lost(self) -> int:
        """Members turned face down over the game (losses and sacrifices; revivals not netted)."""
        lost, before = 0, 3
        for active in self.party_by_round:
            lost += max(0, before - active)
            before = active
        return lost

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.index,
            "seed": self.seed,
            "deal_seed": [self.seed, self.index],
            "setup": self.setup.to_json(),
            "policy": self.policy,
            "result": self.result,
            "score": self.score,
            "rounds": self.rounds,
            "final_reached": self.final_reached,
        }
        g = game_of(self.setup.game)
        if g.has_party:
            out["party_by_round"] = list(self.party_by_round)
        if g.has_rewards:
            out["rewards"] = list(self.rewards)
        if g.is_race:
            out["points"] = list(self.points)
        if g.reshuffles:
            out["reshuffles"] = self.reshuffles
        out["seconds"] = round(self.seconds, 4)
        chance = dict(self.predicted)
        out["steps"] = [
            {**step_to_json(s), "predicted": round(chance[i], 6)} if i in chance else step_to_json(s)
            for i, s in enumerate(self.steps)
        ]
        return out

    @staticmethod
    def from_json(raw: Any) -> GameRecord:
        if not isinstance(raw, dict):
            raise GameError("a game record must be a JSON object")
        for key in RECORD_KEYS:
            if key not in raw:
                raise GameError(f'no "{key}" key: a game record has {_listed(RECORD_KEYS)}')
        setup = Setup.from_json(raw["setup"])
        steps = steps_from_json(raw["steps"])
        predicted = []
        for i, s in enumerate(raw["steps"]):
            if isinstance(s, dict) and s.get("predicted") is not None:
                # A chance, but a bias correction may step a hair outside [0, 1]: any finite number.
                predicted.append((i, _number(s["predicted"], f"step {i + 1}: predicted", -math.inf, math.inf)))
        result = raw["result"]
        if result not in ("won", "lost"):
            raise GameError(f'"result": "won" or "lost", not {result!r}')
        score = raw.get("score")
        points = raw.get("points", [0, 0])
        if not isinstance(points, list) or len(points) != 2:
            raise GameError('"points": must be a list of two whole numbers')
        index, seed = seed_from_json(raw.get("game"), "game"), seed_from_json(raw.get("seed"))
        if "deal_seed" in raw and raw["deal_seed"] != [seed, index]:
            raise GameError(
                f'"deal_seed": the deck of game {index} of seed {seed} is [{seed}, {index}], not {raw["deal_seed"]!r}'
            )
        return GameRecord(
            index,
            seed,
            setup,
            _text(raw.get("policy", ""), "policy"),
            tuple(steps),
            result,
            None if score is None else _whole(score, "score"),
            _whole(raw.get("rounds", 0), "rounds"),
            tuple(_whole(x, f"party_by_round[{i}]") for i, x in enumerate(_list(raw, "party_by_round"))),
            tuple(_text(x, f"rewards[{i}]") for i, x in enumerate(_list(raw, "rewards"))),
            _flag(raw.get("final_reached", False), "final_reached"),
            (_whole(points[0], "points[0]"), _whole(points[1], "points[1]")),
            _whole(raw.get("reshuffles", 0), "reshuffles"),
            _number(raw.get("seconds", 0.0), "seconds", 0.0, math.inf),
            tuple(predicted),
        )


RECORD_KEYS = ("game", "seed", "setup", "steps", "result")  # what every record has (simulate writes more)

# The keys each kind of step needs, and the step in full, to show when one is missing.
STEP_KEYS: dict[str, tuple[tuple[str, ...], str]] = {
    "deal": (("player", "wolf"), '{"step": "deal", "player": [2, 2, 4, 7], "wolf": [3, 4, 7, 8]}'),
    "draw": (("cards",), '{"step": "draw", "cards": [5]}'),
    "play": (("play",), '{"step": "play", "play": "7=3+4"}'),
}


def steps_from_json(raw: Any) -> list[Step]:
    """A game's "steps", each read and checked by itself: GameError names the first bad one as
    steps[i] (its index in the list, from 0) and the key that is missing or wrong."""
    if not isinstance(raw, list):
        raise GameError(f'"steps": must be a list of steps, not {json_kind(raw)}')
    steps = []
    for i, s in enumerate(raw):  # (said counted from 1, as every message about a file's steps)
        if isinstance(s, dict):
            if "step" not in s:
                raise GameError(
                    f'step {i + 1}: no "step" key: each step names its kind, "step": "deal", "draw", "play", '
                    '"reward" or "reshuffle"'
                )
            kind = s["step"]
            needs, example = STEP_KEYS[kind] if isinstance(kind, str) and kind in STEP_KEYS else ((), "")
            for key in needs:
                if key not in s:
                    raise GameError(f'step {i + 1}: no "{key}" key: a {s["step"]} step is {example}')
        try:
            steps.append(step_from_json(s))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            if isinstance(e, GameError):
                raise GameError(f"step {i + 1}: {e}") from None
            raise GameError(f"step {i + 1}: not a step ({type(e).__name__}: {e})") from None
    return steps


def _listed(keys: Sequence[str]) -> str:
    return and_list([f'"{k}"' for k in keys])


def json_kind(x: Any) -> str:
    """What a JSON value is, in a few words, for a message that says what was expected instead."""
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "true or false"
    if isinstance(x, (int, float)):
        return "a number"
    if isinstance(x, str):
        return "a string"
    return "a list" if isinstance(x, list) else "an object"


# A record's fields, each checked and named when it is not what simulate writes.
def _whole(x: Any, key: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or x < 0:
        raise GameError(f'"{key}": must be a whole number, 0 or more, not {x!r}')
    return x


def _number(x: Any, key: str, low: float, high: float) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or not low <= x <= high:
        raise GameError(f'"{key}": must be a number from {low:g} to {high:g}, not {x!r}')
    return float(x)


def _text(x: Any, key: str) -> str:
    if not isinstance(x, str):
        raise GameError(f'"{key}": must be a string, not {x!r}')
    return x


def _flag(x: Any, key: str) -> bool:
    if not isinstance(x, bool):
        raise GameError(f'"{key}": must be true or false, not {x!r}')
    return x


def _list(raw: dict[str, Any], key: str) -> list[Any]:
    x = raw.get(key, [])
    if not isinstance(x, list):
        raise GameError(f'"{key}": must be a list, not {x!r}')
    return x


def decision_tables(setup: Setup, policy: Policy, seed: int, index: int, rng: random.Random) -> Iterator[Table]:
    """Game `index` of seed `seed` played by `policy` (drawing on `rng`): the table at each of its
    play decisions, before the play (for benchmarks and training that ask about those positions)."""
    t = new_table(setup)
    deck = SeededDeck.for_table(t, seed, index)
    while not t.over:
        step = deck.next_step(t)
        if step is None:
            if t.phase == PLAY:
                yield t
                step = Move(policy.play(t, rng))
            else:
                step = Take(policy.reward(t, rng))
        t = advance(t, step)


def round_facts(tables: Sequence[Table], steps: Sequence[Step]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """What a game record sums up of its rounds: (vanguard) the active members at the end of each
    round, a revived member counted for the round it was won; the rewards taken. tables[i] is the
    table before steps[i]."""
    party: list[int] = []
    has_party = bool(tables) and game_of(tables[0].setup.game).has_party
    for before, after in itertools.pairwise(tables):
        # A round can end at its deal (the Wolf dealt no card: found by a review, such a round
        # was counted in `rounds` and missing here).
        if before.phase in (DEAL, PLAY, DRAW) and after.phase not in (PLAY, DRAW) and has_party:
            party.append(len(after.party))
        elif before.phase == REWARD and party:
            party[-1] = len(after.party)
    return tuple(party), tuple(str(s.reward) for s in steps if isinstance(s, Take))


def play_game(setup: Setup, policy: Policy, seed: int, index: int, start: Table | None = None) -> GameRecord:
    """Game `index` of seed `seed`, from a fresh deal (or from `start`), to its end."""
    t0 = time.perf_counter()
    table = start or new_table(setup)
    deck = SeededDeck.for_table(table, seed, index)
    see = getattr(policy, "see", None)
    if callable(see):
        see(deck)  # a clairvoyant policy is shown the game's deck; the others never see it
    rng = policy_rng(seed, index, policy.name)
    steps: list[Step] = []
    tables = [table]
    predicted: list[tuple[int, float]] = []
    while not table.over:
        step = deck.next_step(table)
        if step is None:
            step = Move(policy.play(table, rng)) if table.phase == PLAY else Take(policy.reward(table, rng))
            if isinstance(step, Move):
                chance = getattr(policy, "predicted", None)  # only the hint policy predicts
                if chance is not None:
                    predicted.append((len(steps), chance))
        table = advance(table, step)
        steps.append(step)
        tables.append(table)
    party_by_round, rewards = round_facts(tables, steps)
    return GameRecord(
        index,
        seed,
        setup,
        policy.name,
        tuple(steps),
        table.result or "lost",
        table.score,
        table.rounds,
        party_by_round,
        rewards,
        table.final_reached,
        table.points,
        table.reshuffles,
        time.perf_counter() - t0,
        tuple(predicted),
    )


def replay_record(record: GameRecord) -> Playthrough:
    """The game of a record, replayed step by step: every step is checked against the rules, and
    every card dealt or drawn against the seeded deck of (seed, game); the end must match."""
    table = new_table(record.setup)
    deck = SeededDeck.for_table(table, record.seed, record.index)
    game = Playthrough.start(table)
    for i, step in enumerate(record.steps, start=1):
        if isinstance(step, (Deal, Draw)) and deck.next_step(game.table) != step:
            expected = deck.next_step(game.table)
            said = step_text(step, game.table)
            if expected is None:  # the Player's turn (a review: "the seeded deck gives nothing")
                raise GameError(
                    f"step {i}: the table waits for {waiting_for(game.table)}, not {said}: a step is missing?"
                )
            raise GameError(f"step {i}: the seeded deck gives {step_text(expected, game.table)}, the record {said}")
        try:
            game = game.then(step)
        except GameError as e:
            raise GameError(f"step {i}: {e}") from None
    end = game.table
    if not end.over:
        raise GameError("the record stops before the game is over")
    if (end.result, end.score) != (record.result, record.score):
        raise GameError(
            f"the replay ends {_ending(end.result, end.score)}, the record says {_ending(record.result, record.score)}"
        )
    # The summary fields too: they are what a run's tables are summed from.
    party, rewards = round_facts(game.tables, game.steps)
    if game.tables[-2].phase == DEAL and list(record.party_by_round) == list(party[:-1]):
        party = party[:-1]  # written before a round that ended at its deal was counted
    for name, replayed, recorded in (
        ("rounds", end.rounds, record.rounds),
        ("party_by_round", list(party), list(record.party_by_round)),
        ("rewards", list(rewards), list(record.rewards)),
        ("final_reached", end.final_reached, record.final_reached),
        ("points", list(end.points), list(record.points)),
        ("reshuffles", end.reshuffles, record.reshuffles),
    ):
        if replayed != recorded:
            raise GameError(f"{name}: the replay gives {replayed}, the record says {recorded}")
    return game


def _ending(result: str | None, score: int | None) -> str:
    return f"{result}" + ("" if score is None else f" with score {score}")


# ---------------------------------------------------------------------------------------------
# Many games, in parallel


def play_chunk(
    setup: Setup,
    policy: str,
    samples: int,
    seed: int,
    indices: Sequence[int],
    think: float = 0.0,
    max_states: int = 0,
) -> list[GameRecord]:
    """Worker: the records of some games (pickled as they are: parsing JSON in the parent would
    make it the bottleneck of fast policies)."""
    chosen = make_policy(policy, samples or None, think or None, max_states or None)
    return [play_game(setup, chosen, seed, i) for i in indices]


CHUNK_SECONDS = 2.0  # a chunk's rough length: the progress moves, a Ctrl-C loses little


def chunks(games: int, workers: int, first: int = 0, seconds_a_game: float = 0.0) -> Iterator[list[int]]:
    """Game indices in chunks: big enough that a task's overhead does not matter, small enough
    that the workers stay evenly busy and the progress bar moves (a slow policy's chunks are
    shorter: some CHUNK_SECONDS of games each)."""
    by_time = int(CHUNK_SECONDS / seconds_a_game) if seconds_a_game > 0 else 50
    size = max(1, min(50, games // max(1, 8 * workers), by_time))
    for start in range(first, first + games, size):
        yield list(range(start, min(first + games, start + size)))


def simulate(
    setup: Setup,
    policy: str,
    games: int,
    seed: int,
    *,
    samples: int | None = None,
    workers: int | None = None,
    cluster: Any = None,
    on_record: Callable[[GameRecord], None] | None = None,
    think: float | None = None,
    max_states: int | None = None,
    first: int = 0,
) -> list[GameRecord]:
    """Play games first..games-1 of the seed with the policy; on_record sees each record in game
    order. think: the hint policy's seconds a decision; max_states (with samples): its budgets
    instead of a clock, under which a seeded run plays the same games on any machine. first: the
    games before it were played already (a run resumed), as they would have been: game i's deal
    and randomness depend on (seed, i) alone."""
    make_policy(policy, samples, think, max_states)  # an unknown policy fails here, before any process starts
    n = workers or os.cpu_count() or 1
    out: list[GameRecord] = []

    def emit(batch: list[GameRecord]) -> None:
        for r in batch:
            out.append(r)
            if on_record:
                on_record(r)

    todo = chunks(max(0, games - first), n, first, SECONDS_A_GAME.get(policy, 0.0))
    tasks = ((setup, policy, samples or 0, seed, idx, think or 0.0, max_states or 0) for idx in todo)
    # The chunks hold games in order, so chunk results in task order are records in game order.
    run_parallel(play_chunk, tasks, emit=emit, workers=n, cluster=cluster, ordered=True)
    return out


# ---------------------------------------------------------------------------------------------
# The numbers


@dataclass(frozen=True)
class SimulationSummary:
    setup: Setup
    policy: str
    games: int
    wins: int
    interval: tuple[float, float]
    scores: tuple[int, ...]  # vanguard: scores of won games; lobo: the Player's points in every game
    rounds: tuple[int, ...]
    members_lost: tuple[int, ...]
    final_reached: int
    rewards: dict[str, int] = field(default_factory=dict)
    survival: tuple[float, ...] = ()  # vanguard: mean active members at the end of round r (1, 2, ...)
    seconds: float = 0.0
    resumed: int = 0  # games read from a file (a run resumed), not played in `seconds`

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        g = game_of(self.setup.game)

        def dist(xs: Sequence[int]) -> dict[str, float | None]:
            if not xs:
                return {"mean": None, "q1": None, "median": None, "q3": None}
            q = quantiles(xs, n=4, method="inclusive") if len(xs) > 1 else [float(xs[0])] * 3
            return {"mean": round(float(mean(xs)), 4), "q1": q[0], "median": q[1], "q3": q[2]}  # 12.0, not 12

        out: dict[str, Any] = {
            "game": self.setup.game,
            "difficulty": self.setup.difficulty,
            "policy": self.policy,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 6),
            "win_rate_95": [round(self.interval[0], 6), round(self.interval[1], 6)],
            "score": dist(self.scores),
            "score_of": "the Player's points at the end" if g.is_race else "won games",
            "rounds": dist(self.rounds),
        }
        if g.has_party:
            out["members_lost"] = dist(self.members_lost)
        if g.has_final_round:
            out["final_round_reached"] = self.final_reached
            out["final_round_reached_rate"] = round(self.final_reached / self.games, 6) if self.games else 0.0
        if g.has_rewards:
            out["rewards"] = dict(sorted(self.rewards.items()))
        if g.has_party:
            out["party_by_round"] = [round(x, 4) for x in self.survival]
        out["seconds"] = round(self.seconds, 3)
        played = self.games - self.resumed
        out["games_per_second"] = round(played / self.seconds, 3) if self.seconds and played else None
        if self.resumed:
            out["resumed"] = self.resumed
        return out


def summarize(records: Sequence[GameRecord], seconds: float = 0.0, resumed: int = 0) -> SimulationSummary:
    """The numbers of a run; `resumed` of its records were read from its file, not played in `seconds`."""
    if not records:
        raise ValueError("no games to sum up")
    setup, policy = records[0].setup, records[0].policy
    wins = sum(r.won for r in records)
    # A race scores every game (the Player's points at the end); vanguard only its won games.
    race = game_of(setup.game).is_race
    scores = tuple(r.score for r in records if r.score is not None and (r.won or race))
    longest = max((len(r.party_by_round) for r in records), default=0)
    survival = tuple(
        mean(r.party_by_round[k] if k < len(r.party_by_round) else (r.party_by_round[-1] if r.party_by_round else 0)
             for r in records)
        for k in range(longest)
    )  # fmt: skip
    return SimulationSummary(
        setup,
        policy,
        len(records),
        wins,
        wilson(wins, len(records)),
        scores,
        tuple(r.rounds for r in records),
        tuple(r.members_lost for r in records),
        sum(r.final_reached for r in records),
        dict(Counter(_reward_kind(x) for r in records for x in r.rewards)),
        survival,
        seconds,
        resumed,
    )


def _reward_kind(text: str) -> str:
    """'reserve 7' → 'reserve 7'; 'revive Q' → 'revive' (which member is the rules' naming only)."""
    return "revive" if text.startswith("revive") else text
