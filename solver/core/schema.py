"""A JSON Schema (draft 2020-12) of the position format and of puzzle files, for editors and other tools.

It says what a schema can say of FORMAT.md and of `parse_position` (solver/core/position.py): the
keys, their types and ranges, the spellings of cards and members (as the parser reads them,
surrounding white space included), the values each difficulty's deck holds, what each game and
phase allows. What needs the whole position counted (copies per value, the pile's size against
the unseen cards) is left to `parse_position`; the schema's `description` lists it, and
tests/test_schema_agreement.py checks the schema against the parser.
"""

from __future__ import annotations

import math
from typing import Any

from solver.core.cards import DIFFICULTIES
from solver.core.games import GAMES, LOBO, VANGUARD, Game
from solver.core.objectives import OBJECTIVES
from solver.core.status import Grade

# The characters str.strip() removes (str.isspace()): the parser strips a card and a member before
# reading it, so " 7" and "7\u00a0" are cards. Written out (not `\s`, which differs between regex
# dialects), as regex escapes both ECMA-262 and Python read; tests/test_schema_agreement.py checks
# the list against Python's own.
WHITE_SPACE = (
    "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)
_WS = "[" + "".join(f"\\u{ord(c):04x}" for c in WHITE_SPACE) + "]*"
_SUITS = "[SHDCshdc♠♥♦♣]"
MAX_NUMBER = 1_000_000  # position.MAX_RULE_NUMBER: a rule's number above it is refused
# The keys that hold value cards, in each game (lobo has no reserve).
_CARD_KEYS = ("player", "wolf", "reserve", "discard")
# A puzzle file's keys (position.PUZZLE_KEYS), and what they hold.
PUZZLE_KEYS_MEANING = {
    "position": "the position (FORMAT.md)",
    "expect": "an object: the expected answer, as `lobo-hint batch --check` compares it",
    "note": "a string: a free comment",
    "id": "a string or a whole number: a label (batch records use it)",
    "plays": 'a string: a final-round finish to judge, in text notation ("9=4+5, 7>3")',
    "grade": "a string: how hard the puzzle is (easy, medium, hard), as `lobo-hint generate` grades it",
}
# Their types as validate checks them (position._puzzle_keys); null stands for absent.
PUZZLE_KEY_TYPES: dict[str, dict[str, Any]] = {
    "expect": {"type": ["object", "null"]},
    "note": {"type": ["string", "null"]},
    "id": {"type": ["string", "integer", "null"]},
    "plays": {"type": ["string", "null"]},
    "grade": {"enum": [*(g.value for g in Grade), None]},
}
# A pile left unsized is empty only when every card of the deck is in a list: some list then
# holds at least (deck size) / (lists) of them, whatever the deck (8: vanguard easy, 32 over 4).
EMPTY_PILE_LEAST = min(
    math.ceil(g.deck_size(d) / len([k for k in _CARD_KEYS if k != "reserve" or g.has_reserve]))
    for g in (VANGUARD, LOBO)
    for d in DIFFICULTIES
)

DESCRIPTION = (
    "A lobo-hint position (FORMAT.md, with the project's extensions id, note and phase) or a puzzle "
    'file {"position": ..., "expect": ..., ...} (docs/formats.md). `lobo-hint validate FILE` is the '
    "final word: a file this schema refuses is invalid, but some invalid files pass it, because a "
    "JSON Schema cannot say: "
    "(1) that a number is written without a fraction: 7.0 counts as an integer here, and validate "
    "refuses it as a card, a size, a rule's number, a score or an id; "
    "(2) that no value has more copies, across player, wolf, reserve, discard and the pile's known "
    "cards together, than the deck holds (4 in vanguard, 5 in lobo); "
    "(3) that draw_pile.size is at most the known top cards plus the unseen cards (here: at most "
    "the deck's size), and at least the known top cards; "
    "(4) where draw_pile gives no size, whether the pile is empty (it is only when every card of the "
    "deck is in player, wolf, reserve or discard): so a reward position whose pile is empty that way "
    "passes, and with rules.top_card_visible a missing draw_pile.top is refused here only when none "
    f"of those lists holds {EMPTY_PILE_LEAST} cards or more (fewer cannot make up a deck, so the pile is not empty); "
    "(5) that a key appears once in an object (validate refuses a repeated key; a schema sees only "
    "one value); "
    "(6) the shape of a puzzle file's expect (`lobo-hint batch --check` names a key it does not "
    "compare, and refuses a list of plays it cannot read). "
    'A "reward" position is read by `lobo-hint reward` and `lobo-hint validate` only.'
)


# The variation selectors a phone may put after a suit sign ("7♠️": the emoji form), which the
# parser drops (solver/core/cards.py).
_VS = "[\ufe0e\ufe0f]*"


def _card(top: int) -> dict[str, Any]:
    """A value card 1..top in any spelling the parser reads."""
    ranks = ["[Aa]", f"[1-{min(top, 9)}]"] + (["10", "[Tt]"] if top >= 10 else [])
    return {
        "anyOf": [
            {"type": "integer", "minimum": 1, "maximum": top},
            {"type": "string", "pattern": f"^{_WS}(?:{'|'.join(ranks)}){_VS}{_SUITS}?{_VS}{_WS}$"},
        ],
    }


def _member_pattern(letters: str) -> str:
    return f"^{_WS}[{letters}]{_VS}[Ss♠]?{_VS}{_WS}$"


def _is(key: str, value: str, default: str) -> dict[str, Any]:
    """The condition "the position's `key` is `value`", a left-out key standing for its default."""
    return {"properties": {key: {"const": value}}, **({} if value == default else {"required": [key]})}


def _deck(g: Game, difficulty: str) -> dict[str, Any]:
    """What one deck allows: values 1..top, and no list or pile larger than the deck."""
    top = DIFFICULTIES[difficulty]
    size = g.deck_size(difficulty)
    card = {"$ref": f"#/$defs/card_{top}"}
    cards = {"items": card, "maxItems": size}
    return {
        "properties": {
            **{key: cards for key in _CARD_KEYS},
            # "items" and "maxItems" bind a list, "properties" an object: each form gets its own.
            "draw_pile": {**cards, "properties": {"top": cards, "size": {"maximum": size}}},
        },
    }


def _empty_pile_possible() -> dict[str, Any]:
    """A necessary condition for a pile left unsized to be empty: every card of the deck is in a list."""
    return {"anyOf": [{"properties": {key: {"minItems": EMPTY_PILE_LEAST}}, "required": [key]} for key in _CARD_KEYS]}


def _defs() -> dict[str, Any]:
    cards = {"type": "array", "items": {"$ref": "#/$defs/card"}}
    members = {m: {"pattern": _member_pattern(m + m.lower()), "description": f"the {m} in any spelling"} for m in "JQK"}
    pile_object = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "size": {"type": "integer", "minimum": 0, "maximum": MAX_NUMBER},
            "top": {**cards, "description": "known top cards, top first"},
        },
    }
    visible_top = {
        # rules.top_card_visible: a pile that is not empty names its top card.
        "if": {
            "properties": {
                "rules": {"properties": {"top_card_visible": {"const": True}}, "required": ["top_card_visible"]}
            },
            "required": ["rules"],
        },
        "then": {
            "anyOf": [
                {"properties": {"draw_pile": {"type": "array"}}, "required": ["draw_pile"]},
                {
                    "properties": {"draw_pile": {"properties": {"top": {"minItems": 1}}, "required": ["top"]}},
                    "required": ["draw_pile"],
                },
                {
                    "properties": {"draw_pile": {"properties": {"size": {"const": 0}}, "required": ["size"]}},
                    "required": ["draw_pile"],
                },
                # No size given (no draw_pile, or one without "size"): the pile is every unseen card.
                {"properties": {"draw_pile": {"not": {"required": ["size"]}}}, **_empty_pile_possible()},
            ],
            "description": "draw_pile.top: missing; with rules.top_card_visible the face-up top card must be named",
        },
    }
    reward = {
        "if": {"properties": {"phase": {"const": "reward"}}, "required": ["phase"]},
        "then": {
            "description": 'a "reward" position: vanguard, the Wolf\'s hand empty, not final, cards in the pile',
            "properties": {
                "game": {"const": VANGUARD.name},
                "wolf": {"maxItems": 0},
                "final": {"const": False},
                "draw_pile": {"minItems": 1, "properties": {"size": {"minimum": 1}}},
            },
        },
        "else": {"properties": {"wolf": {"minItems": 1}}},
    }
    game_keys = {
        # A position without "game" is a vanguard one.
        "if": _is("game", LOBO.name, VANGUARD.name),
        "then": {
            "not": {"anyOf": [{"required": ["reserve"]}, {"required": ["party"]}, {"required": ["final"]}]},
            "properties": {"objective": {"enum": list(LOBO.objectives)}},
        },
        "else": {
            "not": {"required": ["scores"]},
            "properties": {"objective": {"enum": list(VANGUARD.objectives)}},
        },
    }
    decks = [
        {"if": {"allOf": [_is("game", g.name, VANGUARD.name), _is("difficulty", d, "standard")]}, "then": _deck(g, d)}
        for g in (VANGUARD, LOBO)
        for d in DIFFICULTIES
    ]
    position = {
        "title": "lobo-hint position",
        "type": "object",
        "additionalProperties": False,
        "required": ["player", "wolf"],
        "properties": {
            "game": {"enum": list(GAMES), "default": VANGUARD.name},
            "difficulty": {
                "enum": list(DIFFICULTIES),
                "default": "standard",
                "description": "the top value of the deck: "
                + ", ".join(f"{d} {top}" for d, top in DIFFICULTIES.items()),
            },
            "player": {**cards, "description": "the Player's hand (may be empty)"},
            "wolf": {**cards, "description": 'the Wolf\'s hand: not empty, except in a "reward" position'},
            "reserve": {**cards, "description": "vanguard only: reserve cards"},
            "party": {
                "type": "array",
                "items": {"$ref": "#/$defs/member"},
                "minItems": 1,
                "maxItems": 3,
                # One of each member, however spelt ("J" and "Js" are the same Jack).
                "allOf": [{"contains": s, "minContains": 0, "maxContains": 1} for s in members.values()],
                "description": "vanguard only: active (face-up) members, at least one, each once",
            },
            "discard": {**cards, "description": "cards known to be out of the game"},
            "draw_pile": {
                "oneOf": [
                    {**cards, "description": "the whole pile in order, top first"},
                    pile_object,
                ]
            },
            "final": {"type": "boolean", "description": "vanguard only: whether this round is the final round"},
            "objective": {"enum": list(OBJECTIVES)},
            "scores": {
                "type": "object",
                "additionalProperties": False,
                "description": f"lobo only: the points each side has scored so far in the race to {LOBO.target}",
                "properties": {
                    side: {"type": "integer", "minimum": 0, "maximum": (LOBO.target or 1) - 1, "default": 0}
                    for side in ("player", "wolf")
                },
            },
            "rules": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "hand_size": {"type": "integer", "minimum": 1, "maximum": MAX_NUMBER, "default": 4},
                    "final_threshold": {"type": "integer", "minimum": 0, "maximum": MAX_NUMBER, "default": 8},
                    "reserve_scores": {"type": "boolean", "default": False},
                    "top_card_visible": {"type": "boolean", "default": False},
                },
            },
            # null is the same as leaving the key out, to validate.
            "id": {"type": ["string", "integer", "null"], "description": "lobo-hint extension: a label"},
            "note": {"type": ["string", "null"], "description": "lobo-hint extension: a free comment"},
            "phase": {
                "enum": ["play", "reward"],
                "default": "play",
                "description": "lobo-hint extension (vanguard): 'reward' is the moment after a won round, "
                "for `lobo-hint reward`; its wolf is empty",
            },
        },
        "allOf": [game_keys, reward, visible_top, *decks],
    }
    puzzle = {
        "title": "lobo-hint puzzle file",
        "description": "a position with what it should give; every command reads it as its position, and "
        "validate checks its own keys' types too (null stands for absent)",
        "type": "object",
        "additionalProperties": False,
        "required": ["position"],
        "properties": {
            "position": {"$ref": "#/$defs/position", "description": PUZZLE_KEYS_MEANING["position"]},
            **{
                key: {**PUZZLE_KEY_TYPES[key], "description": text}
                for key, text in PUZZLE_KEYS_MEANING.items()
                if key != "position"
            },
        },
    }
    return {
        "card": {
            **_card(max(DIFFICULTIES.values())),
            "description": 'a card value: 1..10, or "A", "1".."10", "T", optionally with a suit (ignored); '
            "the difficulty sets the top value",
        },
        **{f"card_{top}": _card(top) for top in sorted(set(DIFFICULTIES.values()))},
        "member": {
            "type": "string",
            "pattern": _member_pattern("JQKjqk"),
            "description": "a party member: J, Q or K of spades",
        },
        "position": position,
        "puzzle": puzzle,
    }


def position_schema() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://lobo-hint.invalid/position.schema.json",
        "title": "lobo-hint position or puzzle file",
        "description": DESCRIPTION,
        "type": "object",
        # A puzzle file as position.unwrap_puzzle tells one: "position" and neither hand.
        "if": {"required": ["position"], "not": {"anyOf": [{"required": ["player"]}, {"required": ["wolf"]}]}},
        "then": {"$ref": "#/$defs/puzzle"},
        "else": {"$ref": "#/$defs/position"},
        "$defs": _defs(),
    }
