"""The play type: text notation and JSON form."""

from __future__ import annotations

import random

import pytest

from gen import random_position
from solver.core.plays import FOLD, Play, PlayError, from_json, parse_play, parse_plays, to_text
from solver.core.position import parse_position
from solver.core.rules import initial_state, legal_plays


@pytest.mark.parametrize(
    ("text", "play"),
    [
        ("7=7", Play("perfect", (7,), (), (7,))),
        ("4+2r=6", Play("sum", (4,), (2,), (6,))),
        ("2r + 4 = 6", Play("sum", (4,), (2,), (6,))),
        ("9=6+3", Play("split", (9,), (), (3, 6))),
        ("9r=6+3", Play("split", (), (9,), (3, 6))),
        ("9>6", Play("over", (9,), (), (6,))),
        ("K=8", Play("sacrifice", (), (), (8,), "K")),
        ("qs=A", Play("sacrifice", (), (), (1,), "Q")),
        ("fold", FOLD),
        ("FOLD", FOLD),
        ("A+T=10", Play("sum", (1, 10), (), (10,))),
        ("5r=5", Play("perfect", (), (5,), (5,))),
        ("7h=7s", Play("perfect", (7,), (), (7,))),
    ],
)
def test_parse_text(text: str, play: Play) -> None:
    assert parse_play(text) == play


@pytest.mark.parametrize(
    "text",
    [
        "",
        "7",
        "7==7",
        "7=",
        "=7",
        "4+2=3+3",
        "9>6+1",
        "4+5>6",
        "K>8",
        "K=8+1",
        "11=11",
        "7=7r",
        "r=7",
        "J+2=5",
        "hello",
    ],
)
def test_unreadable_text_is_refused(text: str) -> None:
    with pytest.raises(PlayError):
        parse_play(text)


def test_several_plays() -> None:
    assert parse_plays("5+5r=10, 6=6; J=3") == [parse_play("5+5r=10"), parse_play("6=6"), parse_play("J=3")]
    with pytest.raises(PlayError):
        parse_plays(" , ")


def test_printing() -> None:
    assert to_text(Play("sum", (1, 4), (2,), (7,))) == "1+4+2r=7"
    assert str(Play("sacrifice", (), (), (8,), "K")) == "K=8"


def test_json_form() -> None:
    p = Play("sum", (4,), (2,), (6,))
    assert p.to_json() == {"type": "sum", "hand": [4], "reserve": [2], "wolf": [6]}
    assert from_json({"type": "sum", "hand": [4], "reserve": [2], "wolf": [6]}) == p
    assert from_json({"type": "perfect", "hand": [7], "wolf": [7]}) == Play("perfect", (7,), (), (7,))  # missing list
    assert from_json({"type": "sacrifice", "wolf": [8], "member": "K"}).member == "K"
    for bad in (
        {"type": "sum", "hand": [4], "wolf": [6]},
        {"type": "jump"},
        {"type": "fold", "hand": [1]},
        {"type": "sacrifice", "wolf": [8]},
        [],
        {"type": "over", "hand": ["x"], "wolf": [1]},
    ):
        with pytest.raises(PlayError):
            from_json(bad)


def test_text_and_json_round_trip_for_every_legal_play() -> None:
    rng = random.Random(20261130)
    seen = 0
    for _ in range(1500):
        state = initial_state(parse_position(random_position(rng)))
        for p in legal_plays(state):
            assert parse_play(to_text(p)) == p
            assert from_json(p.to_json()) == p
            seen += 1
    assert seen > 5000
