"""Property tests over random valid positions (hypothesis drives the seeds of the generator)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from gen import random_position
from solver.core.position import parse_position
from solver.core.rules import State, apply, apply_outcome, chance_outcomes, initial_state, legal_plays

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def in_play(s: State) -> Counter[int]:
    """Every card not yet discarded: hands, reserve, known top and the unseen pool."""
    unseen = Counter({v: n for v, n in enumerate(s.unseen, start=1) if n})
    return Counter(s.hand) + Counter(s.reserve) + Counter(s.wolf) + Counter(s.pile_top) + unseen


def walk(seed: int, steps: int = 12) -> list[tuple[State, object, State]]:
    """A random line of play: (before, play or drawn values, after) for every step."""
    rng = random.Random(seed)
    s = initial_state(parse_position(random_position(rng)))
    out: list[tuple[State, object, State]] = []
    for _ in range(steps):
        if s.is_terminal:
            break
        if s.is_chance:
            outcomes = chance_outcomes(s)
            values = rng.choices([v for v, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
            nxt = apply_outcome(s, values)
            out.append((s, values, nxt))
        else:
            plays = legal_plays(s)
            p = rng.choice(plays[:-1] or plays) if rng.random() < 0.95 else plays[-1]
            nxt = apply(s, p)
            out.append((s, p, nxt))
        s = nxt
    return out


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_cards_are_conserved(seed: int) -> None:
    for before, step, after in walk(seed):
        if isinstance(step, tuple):  # a draw or a reveal: cards move, none appear or vanish
            assert in_play(after) == in_play(before)
            reveal_only = before.reveal and not (before.owed_player or before.owed_wolf)
            assert after.pile_size == before.pile_size - (0 if reveal_only else len(step))
        else:
            used = Counter(step.hand) + Counter(step.reserve) + Counter(step.wolf)  # type: ignore[attr-defined]
            assert in_play(after) + used == in_play(before)
            # A play itself takes only known top cards off the pile; unknown ones come as chance steps.
            assert before.pile_size - after.pile_size == len(before.pile_top) - len(after.pile_top)


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_wolf_draws_one_after_split_and_the_difference_after_over(seed: int) -> None:
    steps = walk(seed, steps=20)
    for i, (before, step, after) in enumerate(steps):
        if getattr(step, "kind", None) not in ("split", "over"):
            continue
        d = 1 if step.kind == "split" else step.mine[0] - step.wolf[0]  # type: ignore[attr-defined]
        final = after
        j = i + 1
        while final.owed_wolf and j < len(steps):
            final = steps[j][2]
            j += 1
        if final.owed_wolf:
            continue  # the walk stopped before the draw came in
        assert len(final.wolf) == len(before.wolf) - len(step.wolf) + d  # type: ignore[attr-defined]
        assert final.pile_size == before.pile_size - d


@settings(max_examples=400, deadline=None)
@given(seeds)
def test_no_split_or_over_in_a_final_round_or_beyond_the_pile(seed: int) -> None:
    for before, step, _ in walk(seed):
        if not hasattr(step, "kind"):
            continue
        for p in legal_plays(before):
            if p.kind in ("split", "over"):
                assert not before.final
                assert before.pile_size >= (1 if p.kind == "split" else p.mine[0] - p.wolf[0])
            if p.kind == "sacrifice":
                assert before.final and len(before.party) >= 2


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_a_sacrifice_never_leaves_the_party_empty(seed: int) -> None:
    rng = random.Random(seed)
    s = initial_state(parse_position(random_position(rng, game="vanguard", final=True)))
    while s.is_decision:
        sacrifices = [p for p in legal_plays(s) if p.kind == "sacrifice"]
        if not sacrifices:
            break
        s = apply(s, rng.choice(sacrifices))
        assert len(s.party) >= 1
    assert len(s.party) >= 1


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_chance_outcomes_sum_to_one_and_match_the_unseen_counts(seed: int) -> None:
    for before, _, _ in walk(seed, steps=20):
        if not before.is_chance:
            continue
        outcomes = chance_outcomes(before)
        assert sum(p for _, p in outcomes) == 1
        d = before.owed_player + before.owed_wolf or 1
        assert all(len(v) == d for v, _ in outcomes)
        assert len({v for v, _ in outcomes}) == len(outcomes)
        # The chance of each value among the drawn cards matches its share of the unseen pool.
        total = sum(before.unseen)
        for value, count in enumerate(before.unseen, start=1):
            expected = sum(p * v.count(value) for v, p in outcomes)
            assert expected * total == count * d


@settings(max_examples=200, deadline=None)
@given(seeds)
def test_states_are_hashable_and_equal_by_value(seed: int) -> None:
    rng = random.Random(seed)
    raw = random_position(rng)
    a = initial_state(parse_position(raw))
    raw["player"] = list(reversed(raw["player"]))
    b = initial_state(parse_position(raw))
    assert a == b and hash(a) == hash(b)
