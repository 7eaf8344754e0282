"""What a decoded JSON value is, told by its keys: a Lobo or Vanguard position, or a railway LOBO
position or deck (RAILWAY.md). A file given to the other game's command is then named for what it
is, with the command that reads it, rather than refused key by key (found by a review: a railway
position read "unknown key 'deck'", a Vanguard one "unknown key 'player' (did you mean
'players'?)"). Both games are called LOBO, so the mix-up is an easy one."""

from __future__ import annotations

from typing import Any


def railway_position(raw: Any) -> bool:
    return isinstance(raw, dict) and {"deck", "hand"} <= raw.keys() and "player" not in raw


def railway_deck(raw: Any) -> bool:
    return isinstance(raw, dict) and "junctions" in raw and "position" not in raw and "hand" not in raw


def lobo_position(raw: Any) -> bool:
    return isinstance(raw, dict) and ("player" in raw or "wolf" in raw) and "hand" not in raw


NOT_LOBO = {
    "railway position": "a railway LOBO position, not a Lobo or Vanguard one: `lobo-hint railway hint FILE` reads it",
    "railway deck": "a railway LOBO deck, not a position: `lobo-hint railway validate FILE` checks it",
}
NOT_RAILWAY = "a Lobo or Vanguard position, not a railway LOBO one: `lobo-hint FILE` reads it"


def other_game(raw: Any) -> str | None:
    """Why a value given as a Lobo or Vanguard position is the railway game's, or None."""
    if railway_position(raw):
        return NOT_LOBO["railway position"]
    if railway_deck(raw):
        return NOT_LOBO["railway deck"]
    return None


__all__ = ["NOT_RAILWAY", "lobo_position", "other_game", "railway_deck", "railway_position"]
