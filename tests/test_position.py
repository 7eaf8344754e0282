"""Positions: every invalid condition of FORMAT.md refused with its own message; defaults; spellings."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import examples
from solver.core.position import PositionError, load_position, parse_position

FULL_DISCARD_EASY = [v for v in range(1, 9) for _ in range(4)]

INVALID: list[tuple[str, dict[str, Any], str, str]] = [
    # (name, position, code, words the message must contain)
    ("malformed card", {"player": ["4", "Z"], "wolf": [6]}, "malformed_card", "player[1]"),
    ("float card", {"player": [7.0], "wolf": [6]}, "malformed_card", "7.0"),
    ("bool card", {"player": [True], "wolf": [6]}, "malformed_card", "true"),
    ("eleven", {"player": ["11"], "wolf": [6]}, "malformed_card", "'11'"),
    ("zero", {"player": [0], "wolf": [6]}, "malformed_card", "player[0]"),
    ("jack of hearts", {"player": [3], "wolf": [6], "party": ["Jh"]}, "malformed_card", "party[0]"),
    ("face card among values", {"player": ["Q"], "wolf": [6]}, "malformed_card", "player[0]"),
    ("value card in party", {"player": [3], "wolf": [6], "party": ["J", 7]}, "malformed_card", "party[1]"),
    ("wolf card malformed", {"player": [3], "wolf": ["6x"]}, "malformed_card", "wolf[0]"),
    ("too many copies", {"player": [9, 9, 9], "wolf": [9, 9]}, "too_many_copies", "card 9"),
    ("lobo copies", {"game": "lobo", "player": [9, 9, 9], "wolf": [9, 9, 9]}, "too_many_copies", "card 9"),
    ("copies across discard", {"player": [9], "wolf": [9], "discard": [9, 9, 9]}, "too_many_copies", "discard"),
    ("party twice", {"player": [3], "wolf": [6], "party": ["J", "J"]}, "too_many_copies", "J"),
    ("above top", {"difficulty": "easy", "player": [9], "wolf": [3]}, "above_top", "above the top value 8"),
    (
        "above top in pile",
        {"difficulty": "standard", "player": [], "wolf": [3], "draw_pile": [10]},
        "above_top",
        "draw_pile[0]",
    ),
    ("lobo reserve", {"game": "lobo", "player": [3], "wolf": [3], "reserve": [2]}, "lobo_reserve_or_party", "reserve"),
    (
        "lobo empty reserve",
        {"game": "lobo", "player": [3], "wolf": [3], "reserve": []},
        "lobo_reserve_or_party",
        "reserve",
    ),
    ("lobo party", {"game": "lobo", "player": [3], "wolf": [3], "party": ["J"]}, "lobo_reserve_or_party", "party"),
    ("lobo final", {"game": "lobo", "player": [3], "wolf": [3], "final": False}, "lobo_reserve_or_party", "final"),
    ("empty party", {"player": [3], "wolf": [3], "party": []}, "empty_party", "party"),
    ("pile too big", {"player": [3], "wolf": [3], "draw_pile": {"size": 40}}, "bad_pile_size", "draw_pile.size"),
    (
        "pile smaller than top",
        {"player": [3], "wolf": [3], "draw_pile": {"size": 1, "top": [4, 5]}},
        "bad_pile_size",
        "draw_pile.size",
    ),
    ("unknown key", {"player": [3], "wolf": [3], "colour": "red"}, "unknown_key", "'colour'"),
    ("unknown pile key", {"player": [3], "wolf": [3], "draw_pile": {"count": 3}}, "unknown_key", "'count'"),
    ("unknown rules key", {"player": [3], "wolf": [3], "rules": {"jokers": True}}, "unknown_key", "'jokers'"),
    ("unknown game", {"game": "poker", "player": [3], "wolf": [3]}, "bad_game", "poker"),
    ("unknown difficulty", {"difficulty": "nightmare", "player": [3], "wolf": [3]}, "bad_difficulty", "nightmare"),
    ("unknown objective", {"objective": "glory", "player": [3], "wolf": [3]}, "bad_objective", "glory"),
    ("final not bool", {"player": [3], "wolf": [3], "final": "yes"}, "wrong_type", "final"),
    ("negative size", {"player": [3], "wolf": [3], "draw_pile": {"size": -1}}, "out_of_range", "draw_pile.size"),
    ("size not int", {"player": [3], "wolf": [3], "draw_pile": {"size": "4"}}, "wrong_type", "draw_pile.size"),
    ("hand_size zero", {"player": [3], "wolf": [3], "rules": {"hand_size": 0}}, "out_of_range", "rules.hand_size"),
    # Found by a review: the Kelvin sign and the long s matched K and s without case.
    ("kelvin sign", {"player": [3], "wolf": [3], "party": ["\u212a"]}, "malformed_card", "party[0]"),
    ("long s suit", {"player": ["7\u017f"], "wolf": [3]}, "malformed_card", "player[0]"),
    # Found by a review: 2**63 passed the parser and overflowed the search's integers.
    ("hand_size 2**63", {"player": [3], "wolf": [3], "rules": {"hand_size": 2**63}}, "out_of_range", "far too large"),
    (
        "threshold negative",
        {"player": [3], "wolf": [3], "rules": {"final_threshold": -2}},
        "out_of_range",
        "rules.final_threshold",
    ),
    (
        "reserve_scores not bool",
        {"player": [3], "wolf": [3], "rules": {"reserve_scores": 1}},
        "wrong_type",
        "rules.reserve_scores",
    ),
    ("hand not a list", {"player": "3 4", "wolf": [3]}, "wrong_type", "player"),
    ("wolf not a list", {"player": [3], "wolf": 3}, "wrong_type", "wolf"),
    ("pile wrong type", {"player": [3], "wolf": [3], "draw_pile": 5}, "wrong_type", "draw_pile"),
    ("rules wrong type", {"player": [3], "wolf": [3], "rules": []}, "wrong_type", "rules"),
    ("points for vanguard", {"objective": "points", "player": [3], "wolf": [3]}, "bad_objective", "vanguard"),
    ("win for lobo", {"game": "lobo", "objective": "win", "player": [3], "wolf": [3]}, "bad_objective", "lobo"),
    ("score for lobo", {"game": "lobo", "objective": "score", "player": [3], "wolf": [3]}, "bad_objective", "lobo"),
    ("empty wolf", {"player": [3], "wolf": []}, "empty_wolf", "wolf"),
    ("missing wolf", {"player": [3]}, "missing_key", "wolf"),
    ("missing player", {"wolf": [3]}, "missing_key", "player"),
    (
        "visible top missing",
        {"player": [3], "wolf": [3], "rules": {"top_card_visible": True}},
        "missing_top",
        "draw_pile.top: missing",
    ),
    (
        "visible top empty",  # found by a review: said "missing" of a key given as []
        {"player": [3], "wolf": [3], "draw_pile": {"top": []}, "rules": {"top_card_visible": True}},
        "missing_top",
        "draw_pile.top: empty",
    ),
    ("not an object", [1, 2], "wrong_type", "JSON object"),  # type: ignore[list-item]
    ("pile null", {"player": [3], "wolf": [3], "draw_pile": None}, "wrong_type", "draw_pile"),
    ("rules null", {"player": [3], "wolf": [3], "rules": None}, "wrong_type", "rules"),
    ("id a boolean", {"player": [3], "wolf": [3], "id": True}, "wrong_type", "id"),
    ("note a number", {"player": [3], "wolf": [3], "note": 5}, "wrong_type", "note"),
]


@pytest.mark.parametrize(("name", "raw", "code", "words"), INVALID, ids=[c[0] for c in INVALID])
def test_invalid_positions_are_refused_with_a_precise_message(name: str, raw: Any, code: str, words: str) -> None:
    with pytest.raises(PositionError) as err:
        parse_position(raw)
    assert err.value.code == code, str(err.value)
    assert words in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("path", examples("invalid"), ids=lambda p: p.name)
def test_contract_invalid_examples(path: Any) -> None:
    case = json.loads(path.read_text())
    with pytest.raises(PositionError) as err:
        parse_position(case["position"])
    assert err.value.code == case["expect"]["invalid"]


def test_defaults() -> None:
    pos = parse_position({"player": ["A", 4], "wolf": [6]})
    assert pos.game == "vanguard" and pos.difficulty == "standard"
    assert pos.party == ("J", "Q", "K") and pos.reserve == ()
    assert pos.pile_size == 36 - 3 and pos.pile_top == () and not pos.final
    assert pos.objective == "game"  # RULES.md §6: the whole game, outside a final round, both games
    assert parse_position({"game": "lobo", "player": [1], "wolf": [6]}).objective == "game"
    final = parse_position({"player": [1], "wolf": [6], "draw_pile": {"size": 4}})
    assert final.final and final.objective == "score"


def test_pile_as_list_is_fully_known() -> None:
    pos = parse_position({"player": [1], "wolf": [6], "draw_pile": [3, "9s", 3]})
    assert pos.pile_size == 3 and pos.pile_top == (3, 9, 3)  # order kept: top first


def test_pile_size_may_be_below_the_unseen_cards() -> None:
    pos = parse_position({"player": [1], "wolf": [6], "draw_pile": {"size": 3, "top": [5]}})
    assert pos.pile_size == 3 and sum(pos.unseen) == 36 - 3


def test_hands_of_any_size_and_empty_player_hand() -> None:
    pos = parse_position({"difficulty": "easy", "player": [], "wolf": [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3]})
    assert pos.player == () and len(pos.wolf) == 11


def test_party_spellings_and_order() -> None:
    pos = parse_position({"player": [1], "wolf": [6], "party": ["Ks", "q♠", "J"]})
    assert pos.party == ("J", "Q", "K")


def test_to_json_round_trips() -> None:
    pos = parse_position(
        {
            "player": ["7h", 4],
            "wolf": [6],
            "reserve": ["2"],
            "party": ["K"],
            "draw_pile": {"size": 5, "top": [9]},
            "rules": {"top_card_visible": True},
        }
    )
    assert parse_position(pos.to_json()) == pos


def test_a_key_given_twice_is_refused_where_it_is_given_again(tmp_path: Any) -> None:
    bad = tmp_path / "twice.json"
    bad.write_text('{"player": [1],\n "wolf": [2],\n "player": [3]}')
    with pytest.raises(PositionError, match='the key "player" appears twice in one object at line 3 column 2'):
        load_position(bad)


def test_load_position_errors_name_the_file(tmp_path: Any) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"player": [1], "wolf": [')
    with pytest.raises(PositionError, match=r"bad\.json: not valid JSON"):
        load_position(bad)
    with pytest.raises(PositionError, match="cannot read"):
        load_position(tmp_path / "missing.json")
    puzzle = tmp_path / "puzzle.json"
    puzzle.write_text(json.dumps({"position": {"player": [1], "wolf": [1]}, "expect": {}}))
    assert load_position(puzzle).wolf == (1,)


def test_a_byte_order_mark_and_a_phones_suit_sign_are_read(tmp_path: Any) -> None:
    # Found by a review: a file Notepad saved (a UTF-8 byte-order mark first) was "not valid
    # JSON", and "7♠️" (the suit's emoji form, U+FE0F after it) was "not a card".
    path = tmp_path / "bom.json"
    path.write_bytes(
        b"\xef\xbb\xbf" + json.dumps({"player": ["7\u2660\ufe0f", 2], "wolf": [3], "party": ["K\u2660\ufe0f"]}).encode()
    )
    pos = load_position(path)
    assert pos.player == (2, 7) and pos.party == ("K",)
    with pytest.raises(PositionError, match="not a card"):
        parse_position({"player": ["7\ufe0f\u2660x"], "wolf": [3]})


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ({"draw_pile": {"size": 3.5}}, "draw_pile.size: must be a whole number, not 3.5"),
        ({"rules": {"hand_size": 4.0}}, "rules.hand_size: must be a whole number, not 4.0"),
        ({"id": float("inf")}, "id: must be a string or a whole number, not a number too large to hold"),
    ],
)
def test_a_number_with_a_fraction_is_shown_as_written(raw: dict[str, Any], said: str) -> None:
    # Found by a review: 3.5, 1e2 and 4.0 were all "not a number", which says nothing.
    with pytest.raises(PositionError) as e:
        parse_position({"player": [1], "wolf": [2], **raw})
    assert str(e.value) == said


def test_bad_json_is_said_once_and_where(tmp_path: Any) -> None:
    # Found by a review: "Unterminated string starting at at line 18", and "Expecting value at
    # line 1" for a file with nothing in it.
    torn, empty = tmp_path / "torn.json", tmp_path / "empty.json"
    torn.write_text('{"player": [1, 2],\n "wolf": "5')
    empty.write_text("\n")
    with pytest.raises(
        PositionError, match=r"torn\.json: not valid JSON: Unterminated string starting at line 2 column 10$"
    ):
        load_position(str(torn))
    with pytest.raises(PositionError, match=r"empty\.json: not valid JSON: it is empty$"):
        load_position(str(empty))


def test_lobo_reads_the_final_rounds_rulings_and_ignores_them() -> None:
    """Found by a review: a lobo position with final_threshold 5 was valued as a game under other
    rules (the interval widened to its sound bounds, a note blamed the rulings). lobo has no final
    round; FORMAT.md lets a position carry the keys, and they change nothing."""
    from solver.core.position import Rules
    from solver.search.hint import hint

    raw = {"game": "lobo", "player": [5, 7, 6, 2], "wolf": [1, 3, 5, 3], "scores": {"player": 10, "wolf": 20}}
    odd = parse_position({**raw, "rules": {"final_threshold": 5, "reserve_scores": True, "hand_size": 4}})
    plain = parse_position(raw)
    assert odd.rules == Rules() == plain.rules
    with pytest.raises(PositionError, match=r"rules\.final_threshold: must be at least 0"):
        parse_position({**raw, "rules": {"final_threshold": -1}})  # still checked
    # The rulings lobo has do change its play; vanguard keeps all four.
    assert parse_position({**raw, "rules": {"hand_size": 3}}).rules.hand_size == 3
    kept = parse_position({"player": [1], "wolf": [6], "rules": {"final_threshold": 5, "reserve_scores": True}})
    assert kept.rules == Rules(final_threshold=5, reserve_scores=True)
    a, b = (hint(p, max_states=2000, samples=32).to_json() for p in (odd, plain))
    assert {**a, "stats": None} == {**b, "stats": None}  # the seconds differ
    assert "default rules" not in str(a.get("note"))
    assert all(m["estimate"]["interval"] != [0, 1] for m in a["moves"] if "estimate" in m)
