"""The greedy rule as the kernel plays it (kernel.greedy, kernel.play_out: the greedy policy's and
the rollouts') against the rule restated plainly over plays (tests/plain_greedy.py), on many
random positions and every state their greedy rounds pass through; rounds played out by it or by
the rollout policy (tests/plain_policy.py), and the compiled kernel against the plain one on the
same rollouts; the bulk rollouts against a replay by the search's own rollout policy."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from plain_greedy import greedy_play as plain_greedy_play
from plain_greedy import rollout as plain_rollout
from plain_policy import NAMES, chooser, random_weights

from conftest import sample_sizes
from gen import random_position
from solver.core.cards import values_of
from solver.core.position import parse_position
from solver.core.rules import State, initial_state, state_of, vector
from solver.search import compiled
from solver.search.rollout import greedy_play, rollout
from solver.search.rollout_policy import is_greedy


def _rounds(rng: random.Random) -> tuple[State, list[int]]:
    """A random round at a decision, and a random order of its pile's unknown cards."""
    while True:
        raw = random_position(rng, max_hand=7, max_wolf=7, max_reserve=3, max_pile=rng.choice([3, 8, 20]))
        root = initial_state(parse_position(raw))
        if root.outcome is None and root.is_decision:
            pool = list(values_of(root.unseen))
            unknown = root.pile_size - len(root.pile_top)
            return root, rng.sample(pool, unknown)


@sample_sizes(300, 3000)
def test_the_kernels_greedy_play_is_the_rule(n: int) -> None:
    rng = random.Random("greedy-rule")
    decisions = 0
    for _ in range(n):
        root, order = _rounds(rng)
        # Every decision of the round played out plainly: the kernel picks the same play there.
        s, i = root, 0
        from solver.core.rules import apply, apply_outcome

        while s.outcome is None and not (s.final and s.game == "vanguard" and not s.is_chance):
            if s.is_chance:
                d = s.owed_player + s.owed_wolf or 1
                s = apply_outcome(s, tuple(sorted(order[i : i + d])))
                i += d
                continue
            want = plain_greedy_play(s)
            assert greedy_play(s) == want, (s, str(want))
            decisions += 1
            s = apply(s, want)
    assert decisions > n  # rounds of several decisions


@sample_sizes(300, 3000)
def test_a_rollout_plays_the_round_out_as_the_rules_do(n: int) -> None:
    # Half of them by the greedy rule, half by a rollout policy of random weights (tests/plain_policy.py).
    rng = random.Random("greedy-rollout")
    ends = {"won": 0, "lost": 0, "final": 0}
    for _ in range(n):
        root, order = _rounds(rng)
        w = None if rng.random() < 0.5 else random_weights(rng)
        want = plain_rollout(root, order, None if w is None else chooser(w))
        got = rollout(root, order, w)
        assert got == want, (root, order, w)
        # The compiled kernel, on the same round and order, ends in the same state.
        st = np.array(vector(root), np.int64)
        compiled.kernel.play_out(st, np.array(order or [0], np.int64), 0, np.array(w or (0.0,) * len(NAMES)))
        assert state_of([int(x) for x in st], root) == want
        ends["final" if want.outcome is None else want.outcome] += 1
    assert min(ends.values()) > n // 20, ends  # rounds won, lost and turned final, all checked


def _replayed(child: State, order: list[int], policy: tuple[float, ...]) -> State:
    """The round replayed through the rules by the search's rollout policy: the greedy rule
    (tests/plain_greedy.py), or the tuned weights (tests/plain_policy.py)."""
    return plain_rollout(child, order, None if is_greedy(policy) else chooser(policy))


def _replayed_end(judge: Any, objective: str, e: State, order: tuple[int, ...], unknown: int) -> tuple[float, bool]:
    """What the rollouts must make of a replayed round end e (the order had `unknown` cards), and
    whether it was a next deal dealt from the rest of the order (playouts.dealt_end): then 1.0 or
    0.0 by that final round's cover, else the search's own value of the end."""
    from plain_greedy import dealt_final_won

    won = dealt_final_won(e, list(order[unknown - (e.pile_size - len(e.pile_top)) :]))
    if objective == "game" and won is not None:
        return float(won), True
    return (judge.terminal(e) if e.outcome is not None else judge.final_value(e)), False


@sample_sizes(200, 2000)
def test_bulk_rollouts_value_each_end_as_the_replay_does(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Search.rollouts (playouts.py), plain and compiled, against a replay through the rules: the
    # same end for each order, valued as the search values it, but under `game` a next deal that
    # surely makes the final round is the rest of the order with the greedy reward (dealt_end).
    # Each replay plays by the search's own rollout policy: tuned under `game`.
    from solver.core.rules import apply, legal_plays
    from solver.search.engine import Search

    rng = random.Random("bulk-rollouts")
    dealt = 0
    for _ in range(n):
        root, _ = _rounds(rng)
        objective = "game" if rng.random() < 0.7 else ("win" if root.game == "vanguard" else "points")
        plays = legal_plays(root)
        children = [apply(root, p) for p in rng.sample(plays, min(3, len(plays)))]
        pool = list(values_of(root.unseen))
        unknown = root.pile_size - len(root.pile_top)
        orders = [tuple(rng.sample(pool, unknown)) for _ in range(4)]
        want = []
        monkeypatch.setenv("LOBO_HINT_ENGINE", "python")
        judge = Search(root, objective)
        for child in children:
            row = []
            for order in orders:
                end = _replayed(child, list(order), judge.policy)
                value, by_deal = _replayed_end(judge, objective, end, order, unknown)
                dealt += by_deal
                row.append(value)
            want.append(row)
        for mode in ("python", "compiled"):
            monkeypatch.setenv("LOBO_HINT_ENGINE", mode)
            search = Search(root, objective)
            assert search.mode == ("plain" if mode == "python" else "compiled")
            values, _ = search.rollouts(children, orders)
            assert values == want, (mode, root, objective, orders)
    assert dealt > n // 10  # next deals dealt from the order were met often enough to say something


@sample_sizes(600, 5000)
def test_rounds_dealt_from_the_order_then_played_out_as_the_replay_does(
    n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Search.rollouts(dealt=True), plain and compiled (playouts.deal_round, for the rewards'
    # next rounds): each child is a round still to be dealt; dealt from the order as RULES.md §2
    # deals (tests/plain_greedy.py deal), played out and its end valued as the replay does.
    from plain_greedy import deal

    from solver.search.engine import Search

    rng = random.Random("dealt-rollouts")
    kinds = {"won at once": 0, "final": 0, "final at the threshold": 0, "regular": 0}
    for _ in range(n):
        root, _ = _rounds(rng)
        if rng.random() < 0.5:  # piles near the size whose deal leaves final_threshold cards
            r = root.rules
            size = 2 * r.hand_size + r.final_threshold + rng.randint(-2, 2)
            root = root._replace(pile_size=max(len(root.pile_top), min(size, len(root.pile_top) + sum(root.unseen))))
        objective = "game" if rng.random() < 0.7 else ("win" if root.game == "vanguard" else "points")
        children = []
        for _ in range(rng.randint(1, 3)):
            reserve = (
                root.reserve if root.game == "lobo" else tuple(sorted(rng.sample(range(1, 10), rng.randint(0, 3))))
            )
            party = root.party if root.game == "lobo" else tuple(sorted(rng.sample(("J", "Q", "K"), rng.randint(1, 3))))
            children.append(
                root._replace(hand=(), wolf=(), reserve=reserve, party=party, outcome=None, final=False, reveal=False)
            )
        pool = list(values_of(root.unseen))
        unknown = root.pile_size - len(root.pile_top)
        orders = [tuple(rng.sample(pool, unknown)) for _ in range(3)]
        monkeypatch.setenv("LOBO_HINT_ENGINE", "python")
        judge = Search(root, objective)
        want = []
        for child in children:
            row = []
            for order in orders:
                start, rest = deal(child, list(order))
                kinds["won at once" if start.outcome else "final" if start.final else "regular"] += 1
                kinds["final at the threshold"] += start.final and start.pile_size == start.rules.final_threshold
                row.append(_replayed_end(judge, objective, _replayed(start, rest, judge.policy), order, unknown)[0])
            want.append(row)
        for mode in ("python", "compiled"):
            monkeypatch.setenv("LOBO_HINT_ENGINE", mode)
            values, _ = Search(root, objective).rollouts(children, orders, dealt=True)
            assert values == want, (mode, children, objective, orders)
    assert min(kinds.values()) > 0, kinds
