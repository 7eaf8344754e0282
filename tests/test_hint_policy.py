"""The hint policy (`simulate --policy hint`) and the hint's reproducibility (issue 15).

The policy must play exactly what `lobo-hint` recommends on the same table, and a hint with a
state and sample budget (no time limit binding) must give the same answer every time it is asked.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from conftest import sample_sizes
from solver.core.games import GAMES
from solver.play.driver import PLAY, REWARD, Move, SeededDeck, Setup, Table, Take, advance, new_table
from solver.play.hint_policy import HintPolicy
from solver.play.policies import GreedyPolicy
from solver.play.registry import make_policy
from solver.play.reward import advise_reward
from solver.play.simulate import play_game, replay_record
from solver.search.hint import HintResult, hint
from solver.search.round_end import reward_values


def tables(setup: Setup, seed: int, *, max_pile: int) -> Iterator[Table]:
    """Tables of greedy games waiting for a play or a reward, with at most max_pile cards in the pile
    (where the hint's search is quick), in game order."""
    greedy = GreedyPolicy()
    rng = random.Random(seed)
    index = 0
    while True:
        t = new_table(setup)
        deck = SeededDeck.for_table(t, seed, index)
        while not t.over:
            step = deck.next_step(t)
            if step is None:
                if t.pile_size <= max_pile:
                    yield t
                step = Move(greedy.play(t, rng)) if t.phase == PLAY else Take(greedy.reward(t, rng))
            t = advance(t, step)
        index += 1


def answer(r: HintResult) -> tuple[object, ...]:
    """Everything a hint answer says, in a comparable form."""
    return (
        r.status,
        r.exact,
        r.best,
        r.value,
        r.win_probability,
        tuple((m.play, m.value, m.win_probability, m.bounds, m.samples, m.method, m.interval, m.tied) for m in r.moves),
    )


@pytest.mark.parametrize("name", GAMES)
@sample_sizes(40, 400)
def test_the_hint_policy_plays_what_the_hint_recommends(name: str, n: int) -> None:
    policy = HintPolicy(think=None, max_states=3000, samples=8)
    plays = rewards = 0
    for t in tables(Setup(name, "standard"), seed=5, max_pile=8):
        if plays + rewards >= n:
            break
        if t.phase == PLAY:
            think, states = policy.budgets(t)
            assert think is None and states is not None
            asked = hint(t.position(), max_states=states, samples=8)
            assert policy.play(t, random.Random(0)) == asked.best
            # The table's position is what a player would type: the game objective, lobo's scores.
            assert t.position().objective == ("game" if not t.position().final or name == "lobo" else "score")
            assert t.position().scores == (t.points if name == "lobo" else (0, 0))
            plays += 1
        elif t.phase == REWARD:
            advice = advise_reward(t.position())  # `lobo-hint reward` with its default: the game values
            assert t.round is not None
            assert policy.reward(t, random.Random(0)) == advice.best.reward == reward_values(t.round)[0][0]
            rewards += 1
    assert plays >= n // 2


@sample_sizes(20, 200)
def test_beyond_the_horizon_the_policy_takes_the_reward_the_advice_ranks_first(n: int) -> None:
    # Beyond the exact horizon the table knows the reserve only by its size: the policy and the
    # advice both play the next round out for each reward, on the same deals, and agree.
    from solver.search import bias
    from solver.search.estimate import NEXT_ROUND
    from solver.search.round_end import exact_horizon

    policy = HintPolicy(think=None, max_states=3000, samples=8)
    seen = 0
    for t in tables(Setup("vanguard", "standard"), seed=6, max_pile=40):
        if seen >= n:
            break
        if t.phase != REWARD or t.round is None or exact_horizon(t.round) or len(reward_values(t.round)) < 2:
            continue
        advice = advise_reward(t.position())
        assert policy.reward(t, random.Random(0)) == advice.best.reward
        assert all(v.method == bias.method(NEXT_ROUND) and v.samples == 1000 and not v.exact for v in advice.ranked)
        assert [v.difference for v in advice.ranked] == sorted((v.difference for v in advice.ranked), reverse=True)
        assert advice.ranked[0].difference == 0.0
        for v in advice.ranked[1:]:
            lo, hi = v.difference_interval
            assert lo <= v.difference <= hi and v.difference <= 0.0
            assert v.significant == (hi < 0)
        seen += 1
    assert seen == n


@sample_sizes(12, 120)
def test_the_same_position_twice_gives_the_same_answer(n: int) -> None:
    # Mid-round, where the search cannot finish within the state budget and the answer rests on
    # seeded estimates: asked twice with the same budgets, every number is the same.
    seen = 0
    for t in tables(Setup("vanguard", "standard"), seed=9, max_pile=14):
        if t.phase != PLAY or t.pile_size < 10:
            continue
        first = hint(t.position(), max_states=500, samples=6)
        again = hint(t.position(), max_states=500, samples=6)
        assert answer(first) == answer(again)
        seen += 1
        if seen >= n:
            break
    assert seen == n


def test_a_game_of_the_hint_policy_is_legal_and_reproducible_under_budgets() -> None:
    policy = HintPolicy(think=None, max_states=500, samples=2)
    setup = Setup("vanguard", "easy")
    first = play_game(setup, policy, seed=3, index=0)
    again = play_game(setup, policy, seed=3, index=0)
    assert first.steps == again.steps and first.won == again.won
    assert replay_record(first).table.over  # every step legal, replayed by the driver alone


def test_near_the_end_of_a_vanguard_round_the_policy_thinks_longer() -> None:
    from solver.play.hint_policy import ENDGAME_STATES, ENDGAME_THINK, ENDGAME_UNKNOWN

    by_states, by_clock = HintPolicy(think=None, max_states=3000), HintPolicy(think=0.05)
    seen: set[bool] = set()
    for name in GAMES:
        for t in itertools.islice(tables(Setup(name, "standard"), seed=7, max_pile=40), 300):
            if t.phase != PLAY or t.round is None:
                continue
            near = name == "vanguard" and not t.round.final and t.round.unknown_draws <= ENDGAME_UNKNOWN
            assert by_states.budgets(t) == (None, ENDGAME_STATES if near else 3000)
            assert by_clock.budgets(t) == (ENDGAME_THINK if near else 0.05, None)
            seen.add(near)
    assert seen == {True, False}


def test_make_policy_builds_the_hint_policy_with_its_think_time() -> None:
    p = make_policy("hint", think=0.3)
    assert isinstance(p, HintPolicy) and p.think == 0.3 and p.name == "hint"
    with pytest.raises(ValueError, match="think"):
        HintPolicy(think=0)


def _busy() -> None:  # pragma: no cover - runs in another process
    while True:
        pass


def test_simulate_under_the_hints_budgets_plays_the_same_games_on_a_busy_machine() -> None:
    # `simulate --policy hint --max-states 3000 --samples 64`: no clock, so a machine busy with two
    # other processes plays exactly the games a quiet one does, predictions included.
    import multiprocessing

    from solver.play.driver import Move
    from solver.play.simulate import simulate

    setup = Setup("vanguard", "standard")
    quiet = simulate(setup, "hint", 1, seed=8, samples=64, workers=1, max_states=3000)
    hogs = [multiprocessing.get_context("spawn").Process(target=_busy, daemon=True) for _ in range(2)]
    for h in hogs:
        h.start()
    try:
        busy = simulate(setup, "hint", 1, seed=8, samples=64, workers=1, max_states=3000)
    finally:
        for h in hogs:
            h.kill()
    for a, b in zip(quiet, busy, strict=True):
        assert a.steps == b.steps and a.result == b.result and a.predicted == b.predicted
        plays = [i for i, s in enumerate(a.steps) if isinstance(s, Move)]
        # Every play has the chance its answer predicted, a probability, on the play's own step.
        assert [i for i, _ in a.predicted] == plays and all(0.0 <= p <= 1.0 for _, p in a.predicted)
        again = type(a).from_json(a.to_json())
        assert again.predicted == tuple((i, round(p, 6)) for i, p in a.predicted)


def test_make_policy_thinks_by_budgets_when_given_a_state_budget() -> None:
    p = make_policy("hint", samples=32, max_states=3000)
    assert isinstance(p, HintPolicy) and p.think is None and p.max_states == 3000 and p.samples == 32
    q = make_policy("hint", max_states=3000)
    assert isinstance(q, HintPolicy) and q.samples == 1000 and q.think is None
