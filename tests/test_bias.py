"""The rollouts' bias correction (solver/search/bias.py): the chance a player reads, and its 95%
interval, against exact values on rounds the table was not measured on (issue 23)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from conftest import sample_sizes
from solver.core.position import parse_position
from solver.core.rules import initial_state
from solver.search import bias
from solver.search.engine import evaluate_moves, prepare
from solver.search.hint import hint
from solver.train.rollout_bias import dealt_rounds, quantile, tables


def test_a_correction_stays_within_the_sound_bounds_and_holds_its_value() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        average = rng.random()
        below, above = rng.random() * 0.1, rng.random() * 0.1
        lo = rng.random() * average
        hi = average + rng.random() * (1 - average)
        kind = rng.choice(["sum", "over", "fold", "sacrifice", "split", bias.ANY])
        objective = rng.choice(["game", "win"])
        value, (a, z), measured = bias.corrected(
            average, (below, above), game="vanguard", objective=objective, target="value", kind=kind,
            unknown=rng.randint(1, 30), value_range=(0.0, 1.0), bounds=(lo, hi),
        )  # fmt: skip
        assert lo <= a <= value <= z <= hi
        assert measured >= bias.MIN_MEASURED


def test_with_nothing_measured_the_interval_is_the_bounds() -> None:
    value, interval, measured = bias.corrected(
        0.4, (0.01, 0.01), game="vanguard", objective="no such objective", target="value", kind="sum",
        unknown=10, value_range=(0.0, 1.0), bounds=(0.1, 0.9),
    )  # fmt: skip
    assert (value, interval, measured) == (0.4, (0.1, 0.9), 0)


def test_the_table_is_refused_when_made_for_other_bins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = json.loads(bias.DATA.read_text(encoding="utf-8"))
    raw["stamp"] = {**raw["stamp"], "unknown_edges": [1, 2]}
    stale = tmp_path / "rollout_bias.json"
    stale.write_text(json.dumps(raw), encoding="utf-8")
    monkeypatch.setattr(bias, "DATA", stale)
    bias._raw.cache_clear()
    try:
        with pytest.raises(bias.BiasError, match="unknown_edges"):
            bias.lookup("vanguard", "win", "value", "sum", 0.5, 10)
    finally:
        monkeypatch.undo()
        bias._raw.cache_clear()


def test_the_shipped_table_fits_and_says_how_it_was_made() -> None:
    about = bias.about()
    assert bias.stale(about["stamp"]) is None
    assert about["about"]["plays"] > 5000 and about["about"]["built_by"].startswith(
        "python -m solver.train.rollout_bias"
    )
    race = about["race"]
    assert race["plays"] > 10000 and race["built_by"].startswith("python -m solver.train.rollout_bias --race")
    assert "+changes" not in race["code"]
    assert all(f"lobo/game/value@race-{p}-{w}" in bias._raw()["tables"] for p in range(3) for w in range(3))


def test_bins_hold_their_quantiles_and_fall_back_to_coarser_ones() -> None:
    rows = [("vanguard", "win", "value", "sum", 0.5, 10, i / 99, bias.ROLLOUTS, "") for i in range(100)]
    t = tables(rows)["vanguard/win/value"]
    assert t["cover|2|1"] == t["*|*|*"]
    assert t["cover|2|1"]["n"] == 100 and abs(t["cover|2|1"]["mean"] - 0.5) < 1e-9
    low_q, high_q = bias.LAYOUT["quantiles"]
    assert abs(t["cover|2|1"]["low"] - quantile([i / 99 for i in range(100)], low_q)) < 1e-6
    assert abs(t["cover|2|1"]["high"] - quantile([i / 99 for i in range(100)], high_q)) < 1e-6
    assert quantile([0.0, 1.0], 0.5) == 0.5


def test_a_big_over_keeps_the_overs_correction_and_widens_its_interval_by_its_own_bins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Session 46: the lookahead misses an Over that makes the Wolf draw five cards or more about
    # twice as far as other plays; among every Over its intervals held the exact value for 63% of
    # them. Its own bins' correction changed choices and lost games, so it keeps the Overs' value
    # and gets an interval that holds both bins' misses.
    from solver.core.plays import Play

    assert bias.kind_of(Play("over", hand=(7,), wolf=(1,))) == bias.BIG_OVER  # draws 6
    assert bias.kind_of(Play("over", hand=(8,), wolf=(4,))) == "over"  # draws 4
    assert bias.kind_of(Play("over", reserve=(9,), wolf=(4,))) == bias.BIG_OVER  # a reserve card's Over too
    big = [("vanguard", "game", "value", bias.BIG_OVER, 0.5, 12, -0.3 + i / 100, bias.NETWORK, "") for i in range(50)]
    small = [("vanguard", "game", "value", "over", 0.5, 12, i / 1000, bias.NETWORK, "") for i in range(50)]
    t = tables(big + small)["vanguard/game/value/network"]
    assert t["over|2|2"]["n"] == 100 and t["big-over|2|2"]["n"] == t["big-over|*|2"]["n"] == 50
    monkeypatch.setattr(bias, "_raw", lambda: {"tables": {"vanguard/game/value/network": t}})
    over = bias.lookup("vanguard", "game", "value", "over", 0.5, 12, bias.NETWORK)
    wide = bias.lookup("vanguard", "game", "value", bias.BIG_OVER, 0.5, 12, bias.NETWORK)
    assert over is not None and wide is not None
    assert wide.mean == over.mean and wide.measured == over.measured  # the same value: the same choices
    assert wide.low == min(over.low, t["big-over|2|2"]["low"]) < over.low
    assert wide.high == max(over.high, t["big-over|2|2"]["high"])
    # A table without a big Over's bins (lobo's) gives it the Overs' bin alone.
    del t["big-over|2|2"], t["big-over|*|2"]
    assert bias.lookup("vanguard", "game", "value", bias.BIG_OVER, 0.5, 12, bias.NETWORK) == over


def test_a_race_is_binned_by_the_points_each_side_needs() -> None:
    assert bias.race_band((0, 0)) == ""  # the start: the plain tables
    assert bias.race_band((99, 99)) == "race-0-0"
    assert bias.race_band((80, 79)) == "race-0-1"  # needs 20 and 21
    assert bias.race_band((50, 49)) == "race-1-2"  # needs 50 and 51
    assert bias.race_band((0, 5)) == "race-2-2"
    assert bias.race_band((120, 0)) == "race-0-2"  # past the target needs nothing
    rows = [("lobo", "game", "value", "sum", 0.5, 10, 0.2, bias.ROLLOUTS, "race-0-0")] * 50
    rows += [("lobo", "game", "value", "sum", 0.5, 10, 0.0, bias.ROLLOUTS, "")] * 50
    t = tables(rows)
    assert t["lobo/game/value@race-0-0"]["*|*|*"]["mean"] == 0.2 and t["lobo/game/value"]["*|*|*"]["mean"] == 0.0


def test_a_race_under_way_is_corrected_by_its_band_and_else_given_the_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    # A table whose start bins say +0.0 and whose race-0-0 bins say +0.2 (-0.1 to +0.3).
    made = tables(
        [("lobo", "game", "value", "sum", 0.5, 10, 0.0, bias.ROLLOUTS, "")] * 50
        + [("lobo", "game", "value", "sum", 0.5, 10, b, bias.ROLLOUTS, "race-0-0") for b in (-0.1, 0.2, 0.3) * 20]
    )
    monkeypatch.setattr(bias, "_raw", lambda: {"tables": made})
    kw: dict[str, Any] = dict(game="lobo", objective="game", target="value", kind="sum", unknown=10,
                              value_range=(0.0, 1.0), bounds=(0.0, 1.0))  # fmt: skip
    start = bias.corrected(0.5, (0.0, 0.0), **kw)
    assert start[0] == 0.5 and start[2] == 50
    near = bias.corrected(0.5, (0.0, 0.0), scores=(99, 99), **kw)
    assert abs(near[0] - 0.6333333) < 1e-6 and near[2] == 60
    assert near[1][0] < 0.5 < 0.75 < near[1][1] < 1.0
    unmeasured = bias.corrected(0.5, (0.0, 0.0), scores=(10, 99), **kw)  # race-2-0: no table
    assert unmeasured == (0.5, (0.0, 1.0), 0)


@pytest.mark.parametrize("objective", ["win", "game", "party"])
@sample_sizes(32, 240)
def test_intervals_hold_the_exact_value_nineteen_times_in_twenty(objective: str, n: int) -> None:
    # Rounds dealt in full with 7 to 10 unknown cards (the exact values take milliseconds there),
    # from a seed the table was not measured on, the search cut short at 40 states so that every
    # play is estimated: the intervals must hold the exact value for at least 90% of the plays,
    # whichever estimate the hint gives (the lookahead over the network under win and game, the
    # rollouts under party).
    held = plays = 0
    rounds = dealt_rounds("vanguard", "standard", 9_999, 7, 10)
    for _ in range(n):
        pos = next(rounds)
        pos = parse_position({**pos.to_json(), "objective": objective})
        root = initial_state(pos)
        prepare(root, objective)
        exact = {m.play: m.value for m in evaluate_moves(root, objective)[0]}
        for m in hint(pos, max_states=40, samples=200).moves:
            if m.method is not None and m.interval is not None:
                plays += 1
                held += m.interval[0] - 1e-9 <= exact[m.play] <= m.interval[1] + 1e-9
    assert plays >= 3 * n
    assert held >= 0.9 * plays, f"{held} of {plays}"
