"""Card values, the spellings FORMAT.md accepts, and the top value of each difficulty (the deck of
each game is its Game's: solver/core/games.py).

Only a card's value takes part in play, so everything past parsing works on plain ints
(1..10) and on the party letters "J", "Q", "K".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from solver.core.jsonio import HugeNumber

DIFFICULTIES = {"easy": 8, "standard": 9, "hard": 10}
DIFFICULTY_OF_TOP = {top: name for name, top in DIFFICULTIES.items()}  # a deck's top value → its difficulty
MEMBERS = ("J", "Q", "K")

_VALUE_RE = re.compile(r"^(A|T|10|[1-9])([SHDC♠♥♦♣])?$", re.IGNORECASE | re.ASCII)
_MEMBER_RE = re.compile(r"^([JQK])([S♠])?$", re.IGNORECASE | re.ASCII)
_FACE_RE = re.compile(r"^([JQK])([SHDC♠♥♦♣])?$", re.IGNORECASE | re.ASCII)


class CardError(ValueError):
    """A card that FORMAT.md does not accept; the message names the card."""


def _shown(raw: object) -> str:
    if raw is None:
        return "null"  # as the file wrote it
    return repr(raw) if isinstance(raw, str) else str(raw).lower() if isinstance(raw, bool) else str(raw)


def _plain_suit(text: str) -> str:
    """The text without its spaces and without the variation selectors a phone puts after a suit
    sign ("7♠️" is 7, ♠, U+FE0F: the emoji form)."""
    return text.strip().replace("\ufe0f", "").replace("\ufe0e", "")


def parse_value(raw: object) -> int:
    """A value card in any accepted spelling → 1..10 (suits are dropped)."""
    if isinstance(raw, HugeNumber):
        raise CardError(f"bad card {raw}: values run from 1 (Ace) to 10")
    # bool is a subclass of int in Python; JSON true must not read as 1.
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        raise CardError(f'bad card {_shown(raw)}: a card is an integer 1..10 or a string like "A", "7h", "10♠"')
    if isinstance(raw, int):
        if 1 <= raw <= 10:
            return raw
        raise CardError(f"bad card {raw}: values run from 1 (Ace) to 10")
    text = _plain_suit(raw)
    m = _VALUE_RE.match(text)
    if m:
        rank = m.group(1).upper()
        return {"A": 1, "T": 10}.get(rank) or int(rank)
    if _FACE_RE.match(text):
        raise CardError(
            f"bad card {raw!r}: a face card is not a value card (the J, Q and K of spades are the party, never in a hand)"
        )
    raise CardError(f"bad card {raw!r}: not a card")


def parse_member(raw: object) -> str:
    """A party member ("J", "Qs", "K♠" …) → "J", "Q" or "K"."""
    if isinstance(raw, str):
        m = _MEMBER_RE.match(_plain_suit(raw))
        if m:
            return m.group(1).upper()
        if _FACE_RE.match(_plain_suit(raw)):
            raise CardError(f"bad party member {raw!r}: the party is the Jack, Queen and King of spades")
    raise CardError(f'bad party member {_shown(raw)}: a party member is "J", "Q" or "K"')


def top_value(difficulty: str) -> int:
    return DIFFICULTIES[difficulty]


def counts_of(values: Iterable[int], top: int) -> tuple[int, ...]:
    c = Counter(values)
    return tuple(c.get(v, 0) for v in range(1, top + 1))


def values_of(counts: Iterable[int]) -> tuple[int, ...]:
    """Inverse of counts_of: the sorted multiset."""
    return tuple(v for v, n in enumerate(counts, start=1) for _ in range(n))


def member_order(members: Iterable[str]) -> tuple[str, ...]:
    """Members in the fixed J, Q, K order (the order party losses follow)."""
    s = set(members)
    return tuple(m for m in MEMBERS if m in s)
