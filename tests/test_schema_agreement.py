"""`lobo-hint schema` against `lobo-hint validate` (solver/core/position.py), the final word.

The schema never refuses a file validate accepts (the shipped examples, edge cases and a seeded
sample of mutated positions), and refuses every invalid one whose rule a JSON Schema can say; the
invalid positions it lets through are exactly the kinds its `description` lists.

Needs the `jsonschema` package (a test dependency).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import EXAMPLES
from solver.core.games import game
from solver.core.jsonio import loads
from solver.core.position import PositionError, parse_position, unwrap_puzzle
from solver.core.schema import DESCRIPTION, EMPTY_PILE_LEAST, WHITE_SPACE, position_schema

ROOT = Path(__file__).resolve().parents[1]
SHARED_EXAMPLES = EXAMPLES  # the contract's worked examples
SCHEMA = position_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def schema_ok(raw: Any) -> bool:
    return bool(VALIDATOR.is_valid(raw))


def validate(raw: Any) -> PositionError | None:
    """What `lobo-hint validate` says of a file holding `raw`: None (valid) or its error."""
    try:
        parse_position(unwrap_puzzle(loads(json.dumps(raw, ensure_ascii=False))), allow_reward=True)
    except PositionError as e:
        return e
    return None


def has_float(raw: Any) -> bool:
    if isinstance(raw, float):
        return True
    if isinstance(raw, dict):
        return any(has_float(v) for v in raw.values())
    if isinstance(raw, list):
        return any(has_float(v) for v in raw)
    return False


def inexpressible(raw: Any, e: PositionError) -> bool:
    """Whether validate's refusal is one the schema's description says it cannot make."""
    text = str(e)
    pos = (
        raw.get("position")
        if isinstance(raw, dict) and "position" in raw and not {"player", "wolf"} & set(raw)
        else raw
    )
    if not isinstance(pos, dict):
        return has_float(raw)
    pile = pos.get("draw_pile")
    unsized = pile is None or (isinstance(pile, dict) and "size" not in pile)
    return (
        has_float(raw)  # (1) 7.0 is an integer to a JSON Schema
        or (e.code == "too_many_copies" and text.startswith("card "))  # (2) copies across the lists
        # (3) a size against the unseen cards, within the deck
        or (e.code == "bad_pile_size" and "unseen" in text and pile["size"] <= _deck_size(pos))
        or (e.code == "bad_pile_size" and "is smaller than" in text)  # (3) a size below the known top
        # (4) an unsized pile: empty (a reward refused), or not surely so (a list as large as a
        # deck spread over the lists: the schema's test of an unsized pile)
        or (e.code == "bad_phase" and "cards in the pile" in text and unsized and pos.get("final") is not True)
        or (e.code == "missing_top" and unsized and any(len(pos.get(k, [])) >= EMPTY_PILE_LEAST for k in CARD_KEYS))
    )


CARD_KEYS = ("player", "wolf", "reserve", "discard")


def _deck_size(pos: dict[str, Any]) -> int:
    return game(pos.get("game", "vanguard")).deck_size(pos.get("difficulty", "standard"))


def test_white_space_is_what_str_strip_removes() -> None:
    assert set(WHITE_SPACE) == {chr(i) for i in range(0x110000) if chr(i).isspace()}


def test_the_schema_is_a_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "lobo-hint validate" in DESCRIPTION and "7.0" in DESCRIPTION
    assert EMPTY_PILE_LEAST == 8  # vanguard easy: 32 cards over player, wolf, reserve and discard


def _examples() -> list[Path]:
    files = sorted((ROOT / "puzzles").rglob("*.json"))
    # railway/ holds the other game's positions (solver/railway), not this format.
    files += sorted(p for p in SHARED_EXAMPLES.rglob("*.json") if "railway" not in p.parts)
    return files


@pytest.mark.parametrize("path", _examples(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_schema_agrees_on_every_shipped_example(path: Path) -> None:
    raw = loads(path.read_text(encoding="utf-8"))
    error = validate(raw)
    if error is None:
        assert schema_ok(raw), [e.message for e in VALIDATOR.iter_errors(raw)]
    else:  # the contract's invalid examples
        assert path.parent.name == "invalid", error
        assert schema_ok(raw) == inexpressible(raw, error), error


def test_the_shipped_examples_are_found() -> None:
    assert len([p for p in _examples() if "puzzles" in p.parts]) >= 60


BASE: dict[str, Any] = {"player": [2, 5], "wolf": [7]}
REWARD: dict[str, Any] = {"phase": "reward", "player": [2, 8], "wolf": [], "draw_pile": {"size": 3}}
VISIBLE = {"rules": {"top_card_visible": True}}
# Every card of the vanguard easy deck (1..8, four each): a pile left unsized is then empty.
WHOLE_EASY_DECK = [v for v in range(1, 9) for _ in range(4)]

VALID: list[Any] = [
    REWARD,
    {**REWARD, "draw_pile": {"top": [3]}, "final": False, "party": ["Q", "K"]},
    {"phase": "reward", "player": [2, 8], "wolf": [], "party": ["Q", "K"], "discard": [1, 1, 3, 3]},
    {**BASE, "phase": "play"},
    {"player": [" 7", "7\u00a0", "\u3000As\n", "\t2h ", "9♣"], "wolf": ["\u20057"]},
    {**BASE, "difficulty": "hard", "player": ["10"], "wolf": ["10s", "t", " T♥ "]},
    {**BASE, "difficulty": "easy", "wolf": [8, "8d", "a", "1"]},
    {**BASE, "party": ["Js", "q♠", " K "]},
    {**BASE, "party": ["k"]},
    {**BASE, **VISIBLE, "draw_pile": {"size": 5, "top": [3]}},
    {**BASE, **VISIBLE, "draw_pile": {"size": 0}},
    {**BASE, **VISIBLE, "draw_pile": []},
    {**BASE, **VISIBLE, "draw_pile": [4, 4]},
    {**BASE, "rules": {"top_card_visible": False}},
    {"difficulty": "easy", "player": [], "wolf": [8], "discard": WHOLE_EASY_DECK[:-1], **VISIBLE},
    {**BASE, "draw_pile": {"size": 2, "top": [3, 4]}},
    {**BASE, "draw_pile": {"size": 29}},
    {"game": "lobo", "player": [1], "wolf": [9], "scores": {"player": 99, "wolf": 0}, "objective": "points"},
    {"game": "lobo", "difficulty": "hard", "player": [10], "wolf": ["T"], "draw_pile": {"size": 48}},
    {**BASE, "rules": {"hand_size": 1_000_000, "final_threshold": 0, "reserve_scores": True}},
    {**BASE, "id": 7, "note": "x", "objective": "party", "final": True, "reserve": ["5"], "discard": []},
    {**BASE, "id": None, "note": None},
    {"position": BASE},
    {"position": REWARD, "id": "r", "note": "n", "grade": "easy", "expect": {"status": "open"}, "plays": "fold"},
    {"position": BASE, "id": None, "note": None, "plays": None, "expect": None, "grade": None},  # null: absent
]


@pytest.mark.parametrize("raw", VALID, ids=range(len(VALID)))
def test_the_schema_accepts_what_validate_accepts(raw: Any) -> None:
    assert validate(raw) is None
    assert schema_ok(raw), [e.message for e in VALIDATOR.iter_errors(raw)]


# (position, validate's code, whether the schema refuses it too)
INVALID: list[tuple[Any, str, bool]] = [
    # The review's cases.
    ({**REWARD, "wolf": [3]}, "bad_phase", True),
    ({**BASE, "wolf": []}, "empty_wolf", True),
    ({**BASE, "wolf": [10]}, "above_top", True),
    ({**BASE, "wolf": ["10s"]}, "above_top", True),
    ({**BASE, "wolf": ["t"]}, "above_top", True),
    ({**BASE, "difficulty": "easy", "wolf": [9]}, "above_top", True),
    ({**BASE, "difficulty": "easy", "wolf": ["9h"]}, "above_top", True),
    ({"game": "lobo", "difficulty": "easy", "player": [1], "wolf": ["9"]}, "above_top", True),
    ({**BASE, **VISIBLE}, "missing_top", True),
    ({**BASE, **VISIBLE, "draw_pile": {"size": 5}}, "missing_top", True),
    ({**BASE, **VISIBLE, "draw_pile": {"size": 5, "top": []}}, "missing_top", True),
    ({**BASE, "party": ["Js", "J"]}, "too_many_copies", True),
    ({**BASE, "party": ["q", " Q♠"]}, "too_many_copies", True),
    ({"position": {**BASE, "wolf": []}}, "empty_wolf", True),
    ({"position": BASE, "answer": 1}, "unknown_key", True),
    # A puzzle file's own keys (found by a review: validate passed them, batch then ignored them).
    ({"position": BASE, "plays": 5}, "wrong_type", True),
    ({"position": BASE, "expect": "anything"}, "wrong_type", True),
    ({"position": BASE, "id": {}}, "wrong_type", True),
    ({"position": BASE, "note": 5}, "wrong_type", True),
    ({"position": BASE, "grade": "extreme"}, "bad_grade", True),
    # A dozen more.
    ({**BASE, "player": ["Z"]}, "malformed_card", True),
    ({**BASE, "player": ["Jh"]}, "malformed_card", True),
    ({**BASE, "player": ["1 0"]}, "malformed_card", True),
    ({**BASE, "player": [True]}, "malformed_card", True),
    ({**BASE, "party": ["7"]}, "malformed_card", True),
    ({**BASE, "party": ["Jh"]}, "malformed_card", True),
    ({**BASE, "party": []}, "empty_party", True),
    ({**BASE, "game": "lobo", "reserve": []}, "lobo_reserve_or_party", True),
    ({**BASE, "game": "lobo", "final": False}, "lobo_reserve_or_party", True),
    ({**BASE, "scores": {"player": 1}}, "scores_for_vanguard", True),
    ({**BASE, "game": "lobo", "scores": {"player": 100}}, "out_of_range", True),
    ({**BASE, "objective": "points"}, "bad_objective", True),
    ({**BASE, "game": "lobo", "objective": "win"}, "bad_objective", True),
    ({**BASE, "wolves": [1]}, "unknown_key", True),
    ({**BASE, "draw_pile": {"size": 3, "tops": [1]}}, "unknown_key", True),
    ({**BASE, "rules": {"hand": 4}}, "unknown_key", True),
    ({**BASE, "draw_pile": {"size": 1, "top": [3, 4]}}, "bad_pile_size", False),
    ({**BASE, "draw_pile": {"size": 40}}, "bad_pile_size", True),  # more than the whole deck
    ({**BASE, "draw_pile": {"size": -1}}, "out_of_range", True),
    ({**BASE, "rules": {"hand_size": 0}}, "out_of_range", True),
    ({**BASE, "rules": {"final_threshold": 1_000_001}}, "out_of_range", True),
    ({**BASE, "final": "no"}, "wrong_type", True),
    ({**BASE, "draw_pile": None}, "wrong_type", True),
    ({**BASE, "player": "7"}, "wrong_type", True),
    ({**BASE, "id": True}, "wrong_type", True),
    ({**BASE, "note": 3}, "wrong_type", True),
    ({**BASE, "game": "chess"}, "bad_game", True),
    ({**BASE, "difficulty": "Hard"}, "bad_difficulty", True),
    ({**BASE, "phase": "deal"}, "bad_phase", True),
    ({**REWARD, "game": "lobo"}, "bad_phase", True),
    ({**REWARD, "final": True}, "bad_phase", True),
    ({**REWARD, "draw_pile": {"size": 0}}, "bad_phase", True),
    ({**REWARD, "draw_pile": []}, "bad_phase", True),
    ({"wolf": [3]}, "missing_key", True),
    ([BASE], "wrong_type", True),
    # What a JSON Schema cannot say (the description's list).
    ({**BASE, "player": [7.0]}, "malformed_card", False),
    ({**BASE, "draw_pile": {"size": 3.0}}, "wrong_type", False),
    ({**BASE, "player": [9, 9, 9], "wolf": [9, 9]}, "too_many_copies", False),
    ({**BASE, "draw_pile": {"size": 34}}, "bad_pile_size", False),
    (
        {"difficulty": "easy", "player": [8], "wolf": [], "discard": WHOLE_EASY_DECK[:-1], "phase": "reward"},
        "bad_phase",
        False,
    ),
    (
        {"difficulty": "easy", "player": [1], "wolf": [8], "discard": WHOLE_EASY_DECK[1:-2], **VISIBLE},
        "missing_top",
        False,
    ),
]


@pytest.mark.parametrize(("raw", "code", "refused"), INVALID, ids=range(len(INVALID)))
def test_the_schema_refuses_what_it_can_of_what_validate_refuses(raw: Any, code: str, refused: bool) -> None:
    error = validate(raw)
    assert error is not None and error.code == code, error
    assert inexpressible(raw, error) != refused, error
    assert schema_ok(raw) != refused, [e.message for e in VALIDATOR.iter_errors(raw)]


# A seeded sample: a valid position, changed at a few random places.
CARDS: list[Any] = [1, 2, 3, 5, 7, 8, 9, 10, 0, 11, -1, "A", "a", "T", "t", "10", "10s", "7h", "7♠", "7♠\ufe0f", " 7", "7\u00a0",
                    "\u30009 ", "J", "Jh", "Z", "", "1 0", "77", "7x", True, None, 7.0]  # fmt: skip
MEMBERS: list[Any] = ["J", "Js", "j♠", "K♠\ufe0f", " Q", "K", "Kh", "7", "Q", "QS", "k\u2028", 1]
ORDERED: list[Any] = [0, 1, 2, 3, 8, 9, 29, 30, 100, -1, "3", None]


def _cards(rng: random.Random, most: int = 5) -> Any:
    if rng.random() < 0.05:
        return rng.choice(["7", 7, None, {}])
    good = [v for v in CARDS[:8] if isinstance(v, int)]
    return [rng.choice(CARDS) if rng.random() < 0.15 else rng.choice(good) for _ in range(rng.randint(0, most))]


def _pile(rng: random.Random) -> Any:
    kind = rng.randrange(6)
    if kind == 0:
        return _cards(rng, 3)
    if kind == 5:
        return rng.choice([None, 5, {"sizes": 3}, {"size": 3, "top": "7"}])
    pile: dict[str, Any] = {}
    if kind in (1, 2):
        pile["size"] = rng.choice(ORDERED)
    if kind in (2, 3):
        pile["top"] = _cards(rng, 3)
    return pile


def _mutated(rng: random.Random) -> Any:
    pos: dict[str, Any] = {"player": [rng.randint(1, 9) for _ in range(rng.randint(0, 4))], "wolf": [rng.randint(1, 9)]}
    choices: dict[str, Any] = {
        "game": lambda: rng.choice(["vanguard", "lobo", "lobo", "chess", 1]),
        "difficulty": lambda: rng.choice(["easy", "standard", "hard", "Hard", None]),
        "player": lambda: _cards(rng),
        "wolf": lambda: _cards(rng),
        "reserve": lambda: _cards(rng, 2),
        "discard": lambda: _cards(rng),
        "party": lambda: rng.choice([[rng.choice(MEMBERS) for _ in range(rng.randint(0, 4))], "J"]),
        "draw_pile": lambda: _pile(rng),
        "final": lambda: rng.choice([True, False, "no"]),
        "objective": lambda: rng.choice(["game", "win", "party", "points", "score", "best"]),
        "scores": lambda: rng.choice(
            [{"player": rng.choice([0, 50, 99, 100, -1, "3"])}, {"wolf": 12}, {"p": 1}, [], {}]
        ),
        "rules": lambda: {
            k: rng.choice(v)
            for k, v in {
                "hand_size": [0, 1, 4, 1_000_001, "4"],
                "final_threshold": [-1, 0, 8, 30],
                "reserve_scores": [True, "x"],
                "top_card_visible": [True, True, False, 1],
                "hand": [4],
            }.items()
            if rng.random() < 0.4
        },
        "phase": lambda: rng.choice(["play", "reward", "reward", "deal"]),
        "id": lambda: rng.choice(["a", 3, True, 1.5, None]),
        "note": lambda: rng.choice(["x", 3]),
        "wolves": lambda: [1],
    }
    for key in rng.sample(sorted(choices), rng.randint(1, 4)):
        pos[key] = choices[key]()
    if pos.get("phase") == "reward" and rng.random() < 0.7:
        pos["wolf"] = []
    if rng.random() < 0.1:
        del pos[rng.choice(["player", "wolf"])]
    if rng.random() < 0.2:
        extra = rng.choice([{}, {"expect": {}, "id": "p"}, {"plays": "fold"}, {"solution": 1}, {"player": [1]}])
        return {"position": pos, **extra}
    return pos


def test_the_schema_agrees_with_validate_on_a_random_sample() -> None:
    rng = random.Random(20261206)
    seen = {"valid": 0, "refused by both": 0, "inexpressible": 0}
    for _ in range(3000):
        raw = _mutated(rng)
        error = validate(raw)
        ok = schema_ok(raw)
        if error is None:
            assert ok, (raw, [e.message for e in VALIDATOR.iter_errors(raw)])
            seen["valid"] += 1
        elif ok:
            assert inexpressible(raw, error), (raw, str(error))
            seen["inexpressible"] += 1
        else:
            seen["refused by both"] += 1
    # The sample reaches every outcome (soundness, the first two, is what it is for).
    assert seen["valid"] >= 300 and seen["refused by both"] >= 1000 and seen["inexpressible"] >= 1, seen
