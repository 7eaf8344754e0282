"""A JSON Schema (draft 2020-12) of the position format, for editors and other tools.

It checks shape and spelling; the counting conditions (copies per value, pile size against the
unseen cards, objective against game) need the whole position and are left to `parse_position`.
"""

from __future__ import annotations

from typing import Any

from solver.core.games import GAMES, LOBO, VANGUARD
from solver.core.objectives import OBJECTIVES

_VALUE = {
    "oneOf": [
        {"type": "integer", "minimum": 1, "maximum": 10},
        {"type": "string", "pattern": "^([Aa]|[Tt]|10|[1-9])([SHDCshdc♠♥♦♣])?$"},
    ],
    "description": 'a card value: 1..10, or "A", "2".."10", "T", optionally with a suit (ignored)',
}
_CARDS = {"type": "array", "items": {"$ref": "#/$defs/card"}}
_MEMBER = {"type": "string", "pattern": "^[JQKjqk]([Ss♠])?$", "description": "a party member: J, Q or K of spades"}


def position_schema() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://lobo-hint.invalid/position.schema.json",
        "title": "lobo-hint position",
        "type": "object",
        "additionalProperties": False,
        "required": ["player", "wolf"],
        "$defs": {"card": _VALUE},
        "properties": {
            "game": {"enum": list(GAMES), "default": VANGUARD.name},
            "difficulty": {"enum": ["easy", "standard", "hard"], "default": "standard"},
            "player": {**_CARDS, "description": "the Player's hand (may be empty)"},
            "wolf": {**_CARDS, "minItems": 1, "description": "the Wolf's hand"},
            "reserve": {**_CARDS, "description": "vanguard only: reserve cards"},
            "party": {
                "type": "array",
                "items": _MEMBER,
                "minItems": 1,
                "maxItems": 3,
                "uniqueItems": True,
                "description": "vanguard only: active (face-up) members",
            },
            "discard": {**_CARDS, "description": "cards known to be out of the game"},
            "draw_pile": {
                "oneOf": [
                    {**_CARDS, "description": "the whole pile in order, top first"},
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "size": {"type": "integer", "minimum": 0},
                            "top": {**_CARDS, "description": "known top cards, top first"},
                        },
                    },
                ]
            },
            "final": {"type": "boolean", "description": "vanguard only: whether this round is the final round"},
            "objective": {"enum": list(OBJECTIVES)},
            "scores": {
                "type": "object",
                "additionalProperties": False,
                "description": "lobo only: the points each side has scored so far in the race to 100",
                "properties": {
                    "player": {"type": "integer", "minimum": 0, "maximum": 99, "default": 0},
                    "wolf": {"type": "integer", "minimum": 0, "maximum": 99, "default": 0},
                },
            },
            "rules": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "hand_size": {"type": "integer", "minimum": 1, "default": 4},
                    "final_threshold": {"type": "integer", "minimum": 0, "default": 8},
                    "reserve_scores": {"type": "boolean", "default": False},
                    "top_card_visible": {"type": "boolean", "default": False},
                },
            },
            "id": {"type": ["string", "integer"], "description": "lobo-hint extension: a label"},
            "note": {"type": "string", "description": "lobo-hint extension: a free comment"},
            "phase": {
                "enum": ["play", "reward"],
                "default": "play",
                "description": "lobo-hint extension (vanguard): 'reward' is the moment after a won round, "
                "for `lobo-hint reward`; its wolf is empty",
            },
        },
        "allOf": [
            {
                # A position without "game" is a vanguard one.
                "if": {"properties": {"game": {"const": LOBO.name}}, "required": ["game"]},
                "then": {
                    "not": {"anyOf": [{"required": ["reserve"]}, {"required": ["party"]}, {"required": ["final"]}]},
                    "properties": {"objective": {"enum": list(LOBO.objectives)}},
                },
                "else": {
                    "not": {"required": ["scores"]},
                    "properties": {"objective": {"enum": list(VANGUARD.objectives)}},
                },
            }
        ],
    }
