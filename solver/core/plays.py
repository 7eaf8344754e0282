"""Plays: a small frozen dataclass, its FORMAT.md JSON form and its text notation.

Text notation: your cards, then `=` or `>`, then the Wolf's cards; `+` joins cards; a
trailing `r` marks a reserve card; `K=8` sacrifices the King on an 8; `fold` folds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from solver.core.cards import MEMBERS, CardError, parse_member, parse_value

# The play types, in the kernel's order of their codes (kernel.PERFECT = 0 … kernel.FOLD = 5).
KINDS = ("perfect", "sum", "split", "over", "sacrifice", "fold")
# The order the search tries them in: plays that empty or shrink the Wolf's hand without giving it
# cards first (they cut the search soonest), Fold last; an Over by its difference, smallest first.
SEARCH_RANK = {"perfect": 0, "sum": 0, "sacrifice": 1, "split": 2, "over": 3, "fold": 4}


class PlayError(ValueError):
    """A play that cannot be read (not one that is illegal in a position: see rules.why_illegal)."""


@dataclass(frozen=True, slots=True, order=True)
class Play:
    """One play, by values only. `hand`, `reserve` and `wolf` are ascending tuples."""

    kind: str
    hand: tuple[int, ...] = ()
    reserve: tuple[int, ...] = ()
    wolf: tuple[int, ...] = ()
    member: str | None = None

    @property
    def mine(self) -> tuple[int, ...]:
        """Every card of the Player's used, hand and reserve together."""
        return tuple(sorted(self.hand + self.reserve))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": self.kind,
            "hand": list(self.hand),
            "reserve": list(self.reserve),
            "wolf": list(self.wolf),
        }
        if self.member is not None:
            out["member"] = self.member
        return out

    def __str__(self) -> str:
        return to_text(self)

    def sort_key(self) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
        """Kind first (Perfect … Fold), then by cards: the order plays are listed in."""
        return (
            KINDS.index(self.kind),
            self.wolf,
            self.hand,
            self.reserve,
            MEMBERS.index(self.member) if self.member else -1,
        )


FOLD = Play("fold")


def make_play(
    kind: str,
    hand: tuple[int, ...] | list[int] = (),
    reserve: tuple[int, ...] | list[int] = (),
    wolf: tuple[int, ...] | list[int] = (),
    member: str | None = None,
) -> Play:
    return Play(kind, tuple(sorted(hand)), tuple(sorted(reserve)), tuple(sorted(wolf)), member)


def _shape_kind(mine: int, theirs: int, sign: str) -> str:
    """The kind a play's shape names; raises PlayError for shapes no rule has."""
    if sign == ">":
        if mine == 1 and theirs == 1:
            return "over"
        raise PlayError("an Over is one card of yours against one of the Wolf's (e.g. 9>6)")
    if mine == 1 and theirs == 1:
        return "perfect"
    if mine >= 2 and theirs == 1:
        return "sum"
    if mine == 1 and theirs >= 2:
        return "split"
    raise PlayError("a play uses one card on one side at least (Sum: many = one; Split: one = many)")


def from_json(raw: object) -> Play:
    """A play in FORMAT.md JSON form (a missing list reads as empty)."""
    if not isinstance(raw, dict):
        raise PlayError("a play must be a JSON object")
    kind = raw.get("type")
    if kind not in KINDS:
        raise PlayError(f"play type {kind!r} is not one of {', '.join(KINDS)}")
    lists: dict[str, tuple[int, ...]] = {}
    for key in ("hand", "reserve", "wolf"):
        cards = raw.get(key, [])
        if not isinstance(cards, list):
            raise PlayError(f"play {key}: must be a list")
        try:
            lists[key] = tuple(sorted(parse_value(c) for c in cards))
        except CardError as e:
            raise PlayError(f"play {key}: {e}") from None
    member = None
    if kind == "sacrifice":
        try:
            member = parse_member(raw.get("member"))
        except CardError as e:
            raise PlayError(f"play member: {e}") from None
        if len(lists["wolf"]) != 1 or lists["hand"] or lists["reserve"]:
            raise PlayError("a sacrifice uses one member on exactly one Wolf card")
    elif kind == "fold":
        if any(lists.values()):
            raise PlayError("a fold uses no cards")
    else:
        shape = _shape_kind(
            len(lists["hand"]) + len(lists["reserve"]), len(lists["wolf"]), ">" if kind == "over" else "="
        )
        if shape != kind:
            raise PlayError(f"cards of a {shape} shape given as type {kind!r}")
    return Play(kind, lists["hand"], lists["reserve"], lists["wolf"], member)


_SPLIT_RE = re.compile(r"^([^=>]*)([=>])([^=>]*)$")


def _side(text: str, allow_reserve: bool) -> tuple[list[int], list[int]]:
    hand: list[int] = []
    reserve: list[int] = []
    for token in text.split("+"):
        token = token.strip()
        if not token:
            raise PlayError("a card is missing around '+', '=' or '>'")
        from_reserve = allow_reserve and len(token) > 1 and token[-1] in "rR"
        if not allow_reserve and len(token) > 1 and token[-1] in "rR":
            raise PlayError(f"{token} is a reserve card, and yours go before the sign: your cards = the Wolf's")
        try:
            value = parse_value(token[:-1] if from_reserve else token)
        except CardError as e:
            raise PlayError(str(e)) from None
        (reserve if from_reserve else hand).append(value)
    return hand, reserve


def parse_play(text: str) -> Play:
    """One play in text notation: `7=7`, `4+2r=6`, `9=6+3`, `9>6`, `K=8`, `fold`."""
    t = text.strip()
    if t.lower() == "fold":
        return FOLD
    m = _SPLIT_RE.match(t)
    if not m:
        raise PlayError(f"cannot read play {text.strip()!r}: write e.g. 7=7, 4+2r=6, 9=6+3, 9>6, K=8 or fold")
    left, sign, right = m.group(1).strip(), m.group(2), m.group(3)
    try:
        wolf, _ = _side(right, allow_reserve=False)
        if left.upper().rstrip("S♠") in MEMBERS and "+" not in left:
            member = parse_member(left)
            if sign != "=" or len(wolf) != 1:
                raise PlayError("a sacrifice is a member on exactly one Wolf card (e.g. K=8)")
            return make_play("sacrifice", wolf=wolf, member=member)
        hand, reserve = _side(left, allow_reserve=True)
        kind = _shape_kind(len(hand) + len(reserve), len(wolf), sign)
    except (PlayError, CardError) as e:
        raise PlayError(f"cannot read play {t!r}: {e}") from None
    return make_play(kind, hand, reserve, wolf)


def parse_plays(text: str) -> list[Play]:
    """Several plays separated by `,` or `;`; an empty place between them is refused, since it
    is most likely a play left out."""
    parts = re.split(r"[,;]", text)
    if not any(p.strip() for p in parts):
        raise PlayError("no plays given")
    for i, p in enumerate(parts, start=1):
        if not p.strip():
            where = (
                "before the first separator"
                if i == 1
                else "after the last separator"
                if i == len(parts)
                else "between two separators"
            )
            raise PlayError(f"play {i} is empty (nothing {where} in {text.strip()!r})")
    return [parse_play(p) for p in parts]


def to_text(play: Play) -> str:
    if play.kind == "fold":
        return "fold"
    if play.kind == "sacrifice":
        return f"{play.member}={play.wolf[0]}"
    mine = "+".join([str(v) for v in play.hand] + [f"{v}r" for v in play.reserve])
    theirs = "+".join(str(v) for v in play.wolf)
    return f"{mine}{'>' if play.kind == 'over' else '='}{theirs}"
