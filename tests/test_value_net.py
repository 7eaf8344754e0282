"""The shipped value networks (solver/search/value_net.py): their layout stamp, which rounds they
value, and the hint's use of them (the open plays valued by the lookahead, never beyond the sound
bounds)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.core.position import parse_position
from solver.core.rules import initial_state
from solver.search import network, value_net
from solver.search.estimate import LOOKAHEAD
from solver.search.hint import hint
from solver.search.value_net import ValueNetError

ROUND_START = {"player": [1, 3, 5, 8], "wolf": [2, 6, 6, 7], "final": False}


def test_the_shipped_networks_fit_the_features_they_read() -> None:
    raw = json.loads(value_net.DATA.read_text(encoding="utf-8"))
    assert raw["stamp"] == value_net.LAYOUT
    for difficulty, entry in raw["networks"]["vanguard"].items():
        assert entry["sizes"][0] == network.FEATURES and entry["sizes"][3] == network.HEADS
        made = entry["made"]
        assert made["games"] >= 1000 and made["samples"] > 10 * made["games"], difficulty  # its provenance
    assert value_net.for_round(initial_state(parse_position(ROUND_START))) is not None


def _refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raw: dict[str, object]) -> str:
    bad = tmp_path / "value_net.json"
    bad.write_text(json.dumps(raw))
    monkeypatch.setattr(value_net, "DATA", bad)
    monkeypatch.setattr(value_net, "_ARRAYS", {})
    value_net._raw.cache_clear()
    try:
        with pytest.raises(ValueNetError) as e:
            value_net.for_round(initial_state(parse_position(ROUND_START)))
    finally:
        value_net._raw.cache_clear()
    said = str(e.value)
    assert "\n" not in said
    return said


def test_networks_of_another_layout_are_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = json.loads(value_net.DATA.read_text(encoding="utf-8"))
    moved = {**value_net.LAYOUT, "features": network.FEATURES + 1}
    said = _refused(tmp_path, monkeypatch, {**raw, "stamp": moved})
    assert said.startswith(
        f"the value networks ({tmp_path / 'value_net.json'}) were trained for another layout (features "
    )
    assert said.endswith("): train them again with `python -m solver.train.value_net`")
    assert "it has no layout stamp" in _refused(tmp_path, monkeypatch, {**raw, "stamp": None})
    entry = raw["networks"]["vanguard"]["standard"]
    cut = {**raw, "networks": {"vanguard": {"standard": {**entry, "weights": entry["weights"][:-1]}}}}
    assert "cannot be read" in _refused(tmp_path, monkeypatch, cut)


@pytest.mark.parametrize(
    ("change", "fits"),
    [
        ({}, True),
        ({"difficulty": "easy"}, True),
        ({"rules": {"hand_size": 5}}, False),  # other rules: not what the networks learnt
        ({"rules": {"top_card_visible": True}, "draw_pile": {"top": [4]}}, False),
        ({"draw_pile": {"top": [4]}}, False),  # a known top card
        ({"draw_pile": {"size": 20}}, False),  # cards gone unseen
        ({"game": "lobo"}, False),
    ],
)
def test_which_rounds_a_network_values(change: dict[str, object], fits: bool) -> None:
    raw = {**ROUND_START, **change}
    if raw.get("game") == "lobo":
        del raw["final"]  # lobo has no final round
    s = initial_state(parse_position(raw))
    assert (value_net.for_round(s) is not None) == fits


def test_the_hint_values_its_open_plays_by_the_lookahead(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOBO_HINT_ENGINE", "compiled")
    for objective in ("game", "win"):
        pos = parse_position({**ROUND_START, "objective": objective})
        result = hint(pos, max_states=2000)
        looked = [m for m in result.moves if m.method is not None and m.method.startswith(LOOKAHEAD)]
        assert looked and not result.exact
        for m in looked:
            assert m.samples == 0 and m.interval is not None
            assert m.bounds is not None and m.bounds[0] - 1e-9 <= m.value <= m.bounds[1] + 1e-9
            assert m.interval[0] - 1e-9 <= m.value <= m.interval[1] + 1e-9
        # The same answer every time: nothing is sampled.
        again = hint(pos, max_states=2000)
        assert [(str(m.play), m.value) for m in again.moves] == [(str(m.play), m.value) for m in result.moves]
    # In the plain search (no compiled code) the estimates are rollouts, as before.
    monkeypatch.setenv("LOBO_HINT_ENGINE", "python")
    plain = hint(parse_position(ROUND_START), max_states=300, samples=16)
    assert all(not (m.method or "").startswith(LOOKAHEAD) for m in plain.moves)
