"""The lookahead over the value network (solver/search/lookahead.py, network.py), both modes:

* deep enough that every line ends, it is the exact expectimax: every play's value under `game`
  and `win` against the plain reference (tests/reference/game.py), and the network is never read;
* cut at a depth, it is expectimax with the network's value at the frontier: against a plain
  recursion over the rules' API with a numpy network written here from network.py's description;
* the network itself, compiled and plain, against that numpy network.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from conftest import engine_sample_sizes, sample_sizes
from gen import random_game_position
from reference.game import game_values, round_win_values
from reference.legal import play_key
from reference.test_reference_examples import normalize
from solver.core.cover import counts, min_sacrifices
from solver.core.position import parse_position
from solver.core.rules import State, apply, apply_outcome, chance_outcomes, initial_state, legal_plays, vector
from solver.search import network
from solver.search.engine import Search

MEMBERS = {"J", "Q", "K"}


def random_net(rng: np.random.Generator, a: int = 12, b: int = 6) -> Any:
    sizes = (network.FEATURES, a, b, network.HEADS)
    net = rng.normal(0.0, 0.4, network.size(*sizes))
    net[: network.HEADER] = sizes
    return net


def numpy_features(s: State) -> Any:
    """network.py's features, restated from its description for the State."""
    x = np.zeros(network.FEATURES)
    hand, reserve, wolf = (np.bincount(np.array(c, int), minlength=11)[1:11] for c in (s.hand, s.reserve, s.wolf))
    unseen = np.array(list(s.unseen) + [0] * (10 - len(s.unseen)))
    values = np.arange(1, 11)
    x[0:10], x[10:20], x[20:30], x[30:40] = 0.5 * hand, 0.5 * reserve, 0.5 * wolf, 0.25 * unseen
    x[network.F_PILE + min(s.pile_size, network.PILE_SLOTS - 1)] = 1.0
    x[network.F_ACTIVE + len(s.party)] = 1.0
    x[network.F_OWED_P], x[network.F_OWED_W] = 0.25 * s.owed_player, 0.25 * s.owed_wolf
    hc, hs, wc, ws, rc, rs = hand.sum(), hand @ values, wolf.sum(), wolf @ values, reserve.sum(), reserve @ values
    x[network.F_SUMS :] = [
        0.2 * hc,
        0.03 * hs,
        0.2 * wc,
        0.03 * ws,
        0.3 * rc,
        0.05 * rs,
        0.04 * s.pile_size,
        0.2 * (hc + rc - wc),
    ]
    return x


def numpy_value(net: Any, s: State, head: int) -> float:
    f, a, b, heads = (int(v) for v in net[: network.HEADER])
    at = network.HEADER
    parts = []
    for shape in ((f, a), (a,), (a, b), (b,), (b, heads), (heads,)):
        n = int(np.prod(shape))
        parts.append(net[at : at + n].reshape(shape))
        at += n
    w1, b1, w2, b2, w3, b3 = parts
    h = np.maximum(numpy_features(s) @ w1 + b1, 0.0)
    h = np.maximum(h @ w2 + b2, 0.0)
    z = float(np.clip((h @ w3 + b3)[head], -30.0, 30.0))
    return 1.0 / (1.0 + np.exp(-z))


def plain_lookahead(s: State, depth: int, net: Any, head: int) -> float:
    """Expectimax over `depth` plies by the rules' API, the numpy network beyond, under `win`
    (won 1, lost 0, a final round's decision won iff its cover needs no more sacrifices than allowed)."""
    if s.outcome is not None:
        return 1.0 if s.outcome == "won" else 0.0
    if not s.is_chance and s.final:
        need = min_sacrifices(s.wolf, counts(s.hand + s.reserve), max(0, len(s.party) - 1))
        return 1.0 if need is not None else 0.0
    outcomes = chance_outcomes(s) if s.is_chance else []
    if depth == 0 or len(outcomes) > 200:
        return numpy_value(net, s, head)
    if s.is_chance:
        return sum(float(p) * plain_lookahead(apply_outcome(s, v), depth - 1, net, head) for v, p in outcomes)
    return max(plain_lookahead(apply(s, p), depth - 1, net, head) for p in legal_plays(s))


@pytest.mark.parametrize("engine", ["python", "compiled"])
@sample_sizes(15, 600)
def test_a_deep_lookahead_is_the_exact_value(monkeypatch: pytest.MonkeyPatch, engine: str, n: int) -> None:
    monkeypatch.setenv("LOBO_HINT_ENGINE", engine)
    rng = random.Random(f"lookahead-exact-{engine}")
    net = random_net(np.random.default_rng(1))
    checked = 0
    while checked < n:
        raw = random_game_position(rng, objective=None, final=rng.choice([False, False, None]))
        raw["rules"]["top_card_visible"] = False  # the lookahead draws; a reveal is the search's alone
        root = initial_state(parse_position({**raw, "objective": "win"}))
        if root.outcome is not None:
            continue
        plays = legal_plays(root)
        children = [apply(root, p) for p in plays]
        for objective, reference in (("game", game_values), ("win", round_win_values)):
            _, want = reference(normalize(raw, objective=objective))
            got, reads = Search(root, objective).lookahead(children, 60, net)
            assert reads == 0  # every line ended within the depth: the network was never asked
            for p, v in zip(plays, got, strict=True):
                w: Fraction = want[play_key(p.to_json())]
                assert abs(v - float(w)) < 1e-9, (objective, raw, str(p), v, w)
        checked += 1


# The plain engine's run (the same source, some 20 times slower a state) is left to `pytest -m
# slow`: the default suite keeps under 5 minutes on 2 cores.
@engine_sample_sizes(4, 60, plain_full=15, plain_everyday=False)
def test_a_cut_lookahead_reads_the_network_at_its_frontier(
    monkeypatch: pytest.MonkeyPatch, engine: str, n: int
) -> None:
    monkeypatch.setenv("LOBO_HINT_ENGINE", engine)
    rng = random.Random(f"lookahead-cut-{engine}")
    nets = np.random.default_rng(2)
    checked = read = 0
    while checked < n:
        deck = [v for v in range(1, 10) for _ in range(4)]
        rng.shuffle(deck)
        unknown = rng.randint(9, 16)
        raw = {
            "player": deck[:4], "wolf": deck[4:8], "reserve": deck[8 : 8 + rng.randint(0, 2)],
            "discard": deck[10 + unknown :], "draw_pile": {"size": unknown}, "final": False,
            "party": rng.sample(sorted(MEMBERS), rng.randint(1, 3)),
        }  # fmt: skip
        root = initial_state(parse_position(raw))
        if root.outcome is not None:
            continue
        net = random_net(nets)
        plays = legal_plays(root)
        for depth in (0, 1, 2):
            got, reads = Search(root, "win").lookahead([apply(root, p) for p in plays], depth, net)
            read += reads
            for p, v in zip(plays, got, strict=True):
                want = plain_lookahead(apply(root, p), depth, net, network.WIN_HEAD)
                assert abs(v - want) < 1e-9, (raw, depth, str(p), v, want)
        checked += 1
    assert read > 10 * n  # the frontier was reached


def test_the_compiled_network_is_the_network() -> None:
    from solver.search import compiled

    rng = random.Random("network")
    nets = np.random.default_rng(3)
    for _ in range(50):
        deck = [v for v in range(1, 11) for _ in range(4)]
        rng.shuffle(deck)
        raw = {
            "difficulty": "hard", "player": deck[: rng.randint(0, 8)], "wolf": deck[8 : 8 + rng.randint(1, 6)],
            "reserve": deck[14 : 14 + rng.randint(0, 3)], "discard": deck[17 : 17 + rng.randint(0, 15)],
            "party": rng.sample(sorted(MEMBERS), rng.randint(1, 3)), "final": False,
        }  # fmt: skip
        s = initial_state(parse_position(raw))
        s = s._replace(owed_player=rng.randint(0, 1), owed_wolf=rng.randint(0, 3))
        net = random_net(nets, rng.randint(2, 20), rng.randint(1, 9))
        st = vector(s)
        for head in (network.GAME_HEAD, network.WIN_HEAD):
            want = numpy_value(net, s, head)
            buffers = [np.zeros(network.FEATURES), np.zeros(int(net[1])), np.zeros(int(net[2]))]
            assert abs(compiled.network.evaluate(np.array(st, np.int64), head, net, *buffers) - want) < 1e-12
            plain = network.evaluate(st, head, list(net), *[[0.0] * len(b) for b in buffers])
            assert abs(plain - want) < 1e-12


def test_the_hint_table_calls_the_networks_values_estimates_and_shows_bounds_as_chances() -> None:
    """The lookahead samples no deal: its rows say `est.`, never `mid` (the middle of the bounds),
    and the bounds are chances like every other number of the table (issue 26's words)."""
    from solver.core.position import parse_position
    from solver.search.hint import hint
    from solver.words.hint import hint_columns

    r = hint(parse_position({"player": [3, 7, 9, 1], "wolf": [6, 2, 5, 8], "final": False}), max_states=200)
    assert any(m.method is not None and m.method.startswith("lookahead") for m in r.moves)
    columns, rows = hint_columns("vanguard", r, r.moves)
    won, bounds = columns.index("Round won"), columns.index("Bounds")
    estimated = [row for m, row in zip(r.moves, rows, strict=True) if m.play.kind != "fold"]
    assert all(row[won].endswith(" est.") for row in estimated), rows
    assert all(row[bounds].endswith("%") and "–" in row[bounds] for row in estimated), rows


def test_the_hint_table_shows_bounds_only_where_a_budget_cut_a_play_short() -> None:
    """A lobo round searched to its end is not exact (its later rounds are the evaluator's), but no
    play has bounds: a Bounds column would say "exact" beside every estimate. A search cut short
    keeps the column, and a play it finished says "searched" there, not "exact"."""
    from solver.core.position import parse_position
    from solver.search.hint import hint
    from solver.words.hint import estimates_note, hint_columns

    whole = hint(parse_position({"game": "lobo", "player": [5, 3, 6], "wolf": [5, 7], "draw_pile": {"size": 3}}))
    assert not whole.exact and all(m.bounds is None for m in whole.moves)
    columns, _ = hint_columns("lobo", whole, whole.moves)
    assert "Bounds" not in columns and "Bounds:" not in estimates_note(whole.moves)
    cut = hint(parse_position({"game": "lobo", "player": [5, 3, 6, 2], "wolf": [5, 7, 9, 4]}), max_states=300)
    assert any(m.bounds is not None for m in cut.moves)
    columns, rows = hint_columns("lobo", cut, cut.moves)
    cells = [row[columns.index("Bounds")] for row in rows]
    assert "exact" not in cells
    assert all(c == "searched" or "–" in c for c in cells), cells
    # The column is explained where it is shown (found by a review: never), "searched" with it.
    note = estimates_note(cut.moves)
    assert "Bounds: the least and the most the search proved" in note
    assert ("searched: to the round's end" in note) == ("searched" in cells), (note, cells)


BIG = {
    "difficulty": "hard",
    "player": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6],
    "wolf": [10, 9, 9, 8, 8, 7, 7, 6, 3, 2, 1, 1],
    "reserve": [5, 5],
    "final": False,
}


def test_a_lookahead_out_of_time_values_the_rest_by_the_network_alone() -> None:
    """151 plays: the lookahead over all of them took seconds past any clock. With a deadline it
    goes a batch at a time; once the clock has run out the rest get the network's value at their
    child (NETWORK_ALONE), and the hint gives those the sound bounds for interval. Without one
    (a state budget: the same answer on any machine) every play is looked ahead."""
    import time

    from solver.search import value_net
    from solver.search.estimate import LOOKAHEAD, LOOKAHEAD_FIRST, NETWORK_ALONE, looked_ahead
    from solver.search.hint import hint

    root = initial_state(parse_position(BIG))
    net = value_net.for_round(root)
    plays = legal_plays(root)[:40]
    late = looked_ahead(root, "game", plays, net, win=True, deadline=time.perf_counter())
    methods = [late[p].method for p in plays]
    assert methods == [LOOKAHEAD] * LOOKAHEAD_FIRST + [NETWORK_ALONE] * (len(plays) - LOOKAHEAD_FIRST)
    alone = [late[p] for p in plays[LOOKAHEAD_FIRST:]]
    assert all(0.0 <= e.value <= 1.0 and e.win is not None and 0.0 <= e.win <= 1.0 for e in alone)
    whole = looked_ahead(root, "game", plays, net, win=True)
    assert all(e.method == LOOKAHEAD for e in whole.values())
    assert all(whole[p].value == late[p].value for p in plays[:LOOKAHEAD_FIRST])

    r = hint(parse_position(BIG), time_limit=0.3)
    rows = [m for m in r.moves if m.method == NETWORK_ALONE]
    assert rows  # the lookahead stopped for the clock (no bare wall time asserted: a busy machine)
    assert any(m.bounds is not None for m in rows)
    for m in rows:  # a value the search finished keeps it; its win probability may still be the network's
        assert m.bounds is None or (m.interval == m.bounds and m.bounds[0] <= m.value <= m.bounds[1])
        assert m.win_interval is None or m.win_interval[0] <= m.win_probability <= m.win_interval[1]
