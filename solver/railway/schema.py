"""JSON Schemas (draft 2020-12) of the railway deck and position (RAILWAY.md), for editors and tools.

They say what a schema can say of `parse_deck` and `parse_position` (deck.py, position.py): the
keys, their types and ranges, what a name may be. What needs the deck read against the position
(a name in the deck, copies, journeys, the stock against the unseen cards) is left to the parser;
each schema's `description` lists it, and tests/test_railway_schema.py checks both against it.
"""

from __future__ import annotations

from typing import Any

from solver.core.schema import WHITE_SPACE

from .deck import LABEL_KEYS, MAX_SEASON_TICKETS, SEASON_TICKET

_SPACE = "".join(f"\\u{ord(c):04x}" for c in WHITE_SPACE)
# `(?![\s\S])` ends the string in both ECMA-262 and Python (Python's `$` also matches before a
# final newline, and a name ending in one is refused).
_END = r"(?![\s\S])"
# Not empty, no white space at either end (the parser refuses " Chester" and "Chester ").
_NAME = f"^[^{_SPACE}](?:[\\s\\S]*[^{_SPACE}])?{_END}"
_OWN_NAME = {
    "type": "string",
    "pattern": f"^(?!{SEASON_TICKET}{_END}){_NAME[1:]}",
    "description": f"a name: not empty, no space at either end, not {SEASON_TICKET!r}",
}
_LABELS = {k: {"description": "a label; never changes play"} for k in LABEL_KEYS}

_DECK_CANNOT = (
    "A JSON Schema cannot say: (1) that a number is written without a fraction (4.0 counts as an "
    "integer here; the parser refuses it); (2) that every station a junction lists has a station "
    "card; (3) that no name is both a junction and a station; (4) that a key appears once in an "
    "object. `lobo-hint railway validate` is the final word."
)
_POSITION_CANNOT = (
    "A JSON Schema cannot say: (1) that a number is written without a fraction; (2) that every card "
    "is a card of the deck, and no card is used more often than the deck holds it; (3) that each "
    "exposed journey is a journey (one junction, two different stations it lists); (4) that the "
    "stock is at most the cards of the deck unseen; (5) that a deck given as a path can be read and "
    "is valid; (6) that a key appears once in an object; and of a deck given inline, what the deck "
    "schema cannot say; (7) that a position without a deck is read with --deck. `lobo-hint "
    "railway validate` is the final word."
)


def _document(name: str, description: str) -> dict[str, Any]:
    """What a schema file says of itself."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://lobo-hint.invalid/railway-{name}.schema.json",
        "title": f"lobo-hint railway {name}",
        "description": description,
    }


def deck_schema() -> dict[str, Any]:
    """A railway deck file (RAILWAY.md "Cards")."""
    return {**_document("deck", _DECK_CANNOT), **_deck()}


def position_schema() -> dict[str, Any]:
    """A railway position file, or a wrapper {"position": ...} as the worked examples are."""
    return {
        **_document("position", _POSITION_CANNOT),
        "type": "object",
        "if": {"required": ["position"]},
        "then": {"properties": {"position": {"$ref": "#/$defs/position"}}},
        "else": {"$ref": "#/$defs/position"},
        "$defs": {"position": _position(), "deck": _deck(), "card": _card()},
    }


def _deck() -> dict[str, Any]:
    names = {"type": "array", "items": _OWN_NAME, "uniqueItems": True}
    return {
        "type": "object",
        "required": ["junctions", "stations"],
        "additionalProperties": False,
        "properties": {
            "name": {"type": "string", "description": "the deck's name, shown in answers"},
            "season_tickets": {"type": "integer", "minimum": 0, "maximum": MAX_SEASON_TICKETS, "default": 6},
            "junctions": {
                "type": "object",
                "description": "each junction's name to the stations it lists (each with a station card)",
                "propertyNames": _OWN_NAME,
                "additionalProperties": {**names, "minItems": 2},
            },
            "stations": {**names, "description": "every station card, once"},
            **_LABELS,
        },
    }


def _card() -> dict[str, Any]:
    return {
        "type": "string",
        "pattern": _NAME,
        "description": f"a card of the deck, by its exact name; a season ticket is {SEASON_TICKET!r}",
    }


def _position() -> dict[str, Any]:
    cards = {"type": ["array", "null"], "items": {"$ref": "#/$defs/card"}}
    journey = {"type": "array", "items": {"$ref": "#/$defs/card"}, "minItems": 3, "maxItems": 3}
    return {
        "type": "object",
        "required": ["hand"],
        "additionalProperties": False,
        "properties": {
            "deck": {
                "description": "the deck, inline or as a path from the position file's folder (or give --deck)",
                "anyOf": [{"type": "string", "pattern": f"[^{_SPACE}]"}, {"$ref": "#/$defs/deck"}],
            },
            "hand": {**cards, "type": "array", "description": "your hand"},
            "exposed": {
                "type": ["array", "null"],
                "items": journey,
                "description": "your exposed journeys, each [junction, station, station]",
            },
            "seen": {**cards, "description": "every other card known to be out of the stock and the other hands"},
            "top_discard": {"anyOf": [{"$ref": "#/$defs/card"}, {"type": "null"}]},
            "players": {"type": ["integer", "null"], "minimum": 1, "default": 2},
            "stock": {"type": ["integer", "null"], "minimum": 0, "description": "cards left in the stock"},
            **_LABELS,
        },
    }
