"""Railway positions (RAILWAY.md "A railway position"): read, checked against their deck.

A position is what one player knows at their turn: their hand and exposed journeys, the cards
seen elsewhere, the face-up top discard, the table size and the stock size. A file may also be a
wrapper `{"note", "position", "expect"}` (the shape of the contract's worked examples); then its
`position` is read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.core.jsonio import HugeNumber
from solver.core.kinds import NOT_RAILWAY, lobo_position

from .deck import (
    SEASON_TICKET,
    Deck,
    Journey,
    RailwayError,
    check_keys,
    load_deck,
    parse_deck,
    read_json,
    suggestion,
    type_name,
)

POSITION_KEYS = ("deck", "hand", "exposed", "seen", "top_discard", "players", "stock")
DEFAULT_PLAYERS = 2


@dataclass(frozen=True)
class RailwayPosition:
    """A checked position. Card names are exact deck names; a season ticket is 'Season Ticket'."""

    deck: Deck
    hand: tuple[str, ...]
    exposed: tuple[Journey, ...] = ()
    seen: tuple[str, ...] = ()
    top_discard: str | None = None
    players: int = DEFAULT_PLAYERS
    stock: int | None = None

    def known(self) -> Counter[str]:
        """Every card whose place the player knows: hand, own exposed journeys, seen, top discard."""
        out = Counter(self.hand)
        for j in self.exposed:
            out.update(j.cards)
        out.update(self.seen)
        if self.top_discard is not None:
            out[self.top_discard] += 1
        return out

    def unseen(self) -> dict[str, int]:
        """The cards that may be in the stock or another hand (deck order, none with count 0).

        RAILWAY.md [ruling]: the stock and the other hands are uniformly random over these.
        """
        known = self.known()
        out = {c: n - known[c] for c, n in self.deck.cards().items()}
        return {c: n for c, n in out.items() if n > 0}

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": list(self.hand),
            "exposed": [j.to_json() for j in self.exposed],
            "seen": list(self.seen),
            "top_discard": self.top_discard,
            "players": self.players,
            "stock": self.stock,
        }


def card_name(deck: Deck, v: object, where: str) -> str:
    """A card name of this deck, matched exactly."""
    if not isinstance(v, str):
        raise RailwayError(f"{where}: a card must be a name (a string), not {type_name(v)}", "bad_type")
    if deck.copies(v) == 0:
        if v == SEASON_TICKET:
            raise RailwayError(f"{where}: deck {deck.name!r} has no season tickets", "unknown_card")
        raise RailwayError(
            f"{where}: {v!r} is not a card of deck {deck.name!r}{suggestion(v, deck.names())}", "unknown_card"
        )
    return v


def _cards(deck: Deck, raw: object, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise RailwayError(f"{where}: must be a list of card names, not {type_name(raw)}", "bad_type")
    return tuple(card_name(deck, v, f"{where}[{i}]") for i, v in enumerate(raw))


def _journeys(deck: Deck, raw: object, where: str) -> tuple[Journey, ...]:
    if not isinstance(raw, list):
        raise RailwayError(f"{where}: must be a list of journeys [junction, station, station]", "bad_type")
    out = []
    for i, item in enumerate(raw):
        here = f"{where}[{i}]"
        cards = _cards(deck, item, here)
        try:
            out.append(deck.journey(cards))
        except RailwayError as e:
            raise RailwayError(f"{here}: {list(cards)} is not a journey: {e}", e.code) from None
    return tuple(out)


def _whole(v: object, where: str, minimum: int) -> int:
    if isinstance(v, HugeNumber):
        if v.negative:
            raise RailwayError(f"{where}: must be at least {minimum}, not {v}", "bad_count")
        raise RailwayError(f"{where}: {v} is far too large", "bad_count")
    if isinstance(v, bool) or not isinstance(v, int):
        raise RailwayError(f"{where}: must be a whole number, not {type_name(v)}", "bad_type")
    if v < minimum:
        raise RailwayError(f"{where}: must be at least {minimum}, not {v}", "bad_count")
    return v


def unwrap(raw: object) -> object:
    """A worked-example wrapper {"note", "position", "expect"} is read as its position."""
    if isinstance(raw, dict) and "position" in raw:
        return raw["position"]
    return raw


def parse_position(raw: object, base: Path | None = None, deck: Deck | None = None) -> RailwayPosition:
    """Check a position object. `deck` (from --deck) replaces the position's own; a deck given
    as a path is read relative to `base` (the position file's folder)."""
    raw = unwrap(raw)
    if not isinstance(raw, dict):
        raise RailwayError(f"a railway position must be a JSON object with a hand, not {type_name(raw)}")
    if lobo_position(raw):
        raise RailwayError(NOT_RAILWAY, "wrong_kind")
    check_keys(raw, POSITION_KEYS, "position")
    if deck is None:
        deck = _deck(raw.get("deck"), base)
    if "hand" not in raw:
        raise RailwayError("position: the key 'hand' is missing", "missing_key")
    hand = _cards(deck, raw["hand"], "hand")
    # An optional key given as null means the same as leaving it out.
    exposed = _journeys(deck, _or(raw.get("exposed"), []), "exposed")
    seen = _cards(deck, _or(raw.get("seen"), []), "seen")
    top = raw.get("top_discard")
    top_discard = None if top is None else card_name(deck, top, "top_discard")
    players = _whole(_or(raw.get("players"), DEFAULT_PLAYERS), "players", 1)
    stock = raw.get("stock")
    pos = RailwayPosition(
        deck, hand, exposed, seen, top_discard, players, None if stock is None else _whole(stock, "stock", 0)
    )
    _check_counts(pos, raw)
    unseen = sum(pos.unseen().values())
    if pos.stock is not None and pos.stock > unseen:
        raise RailwayError(f"stock: {pos.stock} cards, but only {unseen} cards of the deck are unseen", "bad_count")
    return pos


def _or(value: object, default: object) -> object:
    return default if value is None else value


def _deck(raw: object, base: Path | None) -> Deck:
    if raw is None:
        raise RailwayError("no deck: give one in the position's 'deck' key or with --deck", "missing_key")
    if isinstance(raw, str):
        if not raw.strip():
            raise RailwayError("deck: the path may not be empty", "bad_type")
        path = Path(raw)
        if not path.is_absolute() and base is not None:
            path = base / path
        return load_deck(path)
    if isinstance(raw, dict):
        return parse_deck(raw, "deck")
    raise RailwayError(f"deck: must be a deck object or a path to a deck file, not {type_name(raw)}", "bad_type")


def _check_counts(pos: RailwayPosition, raw: dict[str, Any]) -> None:
    """No card may be in more places than the deck has copies of it."""
    for card, n in pos.known().items():
        have = pos.deck.copies(card)
        if n > have:
            raise RailwayError(
                f"{card!r} is used {n} times ({_places(card, raw)}), but deck {pos.deck.name!r} has "
                f"{have} {'copies' if have != 1 else 'copy'}",
                "too_many",
            )


def _places(card: str, raw: dict[str, Any]) -> str:
    """Where a card is used, for the too-many message: 'hand[1], seen[0]'."""
    found = []
    for key in ("hand", "seen"):
        items = raw.get(key)
        if isinstance(items, list):
            found += [f"{key}[{i}]" for i, v in enumerate(items) if v == card]
    exposed = raw.get("exposed")
    if isinstance(exposed, list):
        for i, j in enumerate(exposed):
            if isinstance(j, list):
                found += [f"exposed[{i}][{k}]" for k, v in enumerate(j) if v == card]
    if raw.get("top_discard") == card:
        found.append("top_discard")
    return ", ".join(found)


def load_position(
    path: str | Path, deck_path: str | Path | None = None, overrides: Mapping[str, Any] | None = None
) -> RailwayPosition:
    """Read and check a position file; errors name the file. --deck (`deck_path`) wins over the
    position's own deck; `overrides` replace keys of the position (a hand typed with --hand)."""
    p = Path(path)
    deck = load_deck(deck_path) if deck_path is not None else None
    raw = unwrap(read_json(p))
    if overrides and isinstance(raw, dict):
        raw = {**raw, **overrides}
    try:
        return parse_position(raw, p.parent, deck)
    except RailwayError as e:
        raise RailwayError(f"{p}: {e}", e.code) from None


def typed_keys(
    hand: str | None = None, exposed: str | None = None, seen: str | None = None, top: str | None = None
) -> dict[str, Any]:
    """Position keys typed on the command line (`--hand "A, B, C"` and friends)."""
    raw: dict[str, Any] = {}
    if hand is not None:
        raw["hand"] = split_names(hand, "--hand")
    if exposed is not None:
        raw["exposed"] = split_journeys(exposed, "--exposed")
    if seen is not None:
        raw["seen"] = split_names(seen, "--seen")
    if top is not None:
        raw["top_discard"] = top.strip()
    return raw


def split_names(text: str, where: str) -> list[str]:
    """Card names from the command line: separated by commas, spaces around each name dropped."""
    names = [t.strip() for t in text.split(",")]
    if names == [""]:
        return []
    if "" in names:
        raise RailwayError(f"{where}: an empty name between commas in {text!r}", "empty_name")
    return names


def split_journeys(text: str, where: str) -> list[list[str]]:
    """Journeys from the command line: journeys separated by ';', their cards by ','."""
    parts = [t for t in (s.strip() for s in text.split(";")) if t]
    return [split_names(part, where) for part in parts]
