"""Reference legal-move generator (RULES.md §2, §4; FORMAT.md "Plays").

Deliberately dumb: enumerate index subsets of the Player's available cards (hand and reserve,
tagged by source) and of the Wolf's cards, test the rule table row by row, and deduplicate by the
value-multiset key.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

Play = dict[str, Any]  # a FORMAT.md play
Position = dict[str, Any]  # a normalized position (see README.md)
PlayKey = tuple[Any, ...]  # what makes two plays the same play

# Fixed order used only to make the output deterministic.
TYPE_ORDER = ["perfect", "sum", "split", "over", "sacrifice", "fold"]
MEMBER_ORDER = ["J", "Q", "K"]


def make_play(
    type_: str,
    hand: list[int] | tuple[int, ...] = (),
    reserve: list[int] | tuple[int, ...] = (),
    wolf: list[int] | tuple[int, ...] = (),
    member: str | None = None,
) -> Play:
    """Build a FORMAT.md play dict with ascending value lists."""
    play: Play = {
        "type": type_,
        "hand": sorted(hand),
        "reserve": sorted(reserve),
        "wolf": sorted(wolf),
    }
    if member is not None:
        play["member"] = member
    return play


def play_key(play: Play) -> PlayKey:
    """Two plays are the same play when type, hand, reserve, wolf and member are equal."""
    return (
        play["type"],
        tuple(sorted(play.get("hand", []))),
        tuple(sorted(play.get("reserve", []))),
        tuple(sorted(play.get("wolf", []))),
        play.get("member"),
    )


def fold_play() -> Play:
    return make_play("fold")


def is_final(pos: Position) -> bool:
    """A vanguard round is final when flagged so, or whenever its draw pile is empty.

    lobo never has a final round.
    """
    if pos["game"] != "vanguard":
        return False
    return bool(pos["final"]) or pos["draw_pile"]["size"] == 0


def _all_subsets(items: list[Any]) -> list[tuple[tuple[int, Any], ...]]:
    """Every non-empty subset of the list, as tuples of (index, item), by index."""
    indexed = list(enumerate(items))
    subsets: list[tuple[tuple[int, Any], ...]] = []
    for r in range(1, len(indexed) + 1):
        subsets.extend(combinations(indexed, r))
    return subsets


def legal_plays(pos: Position) -> list[Play]:
    """Every distinct legal play of a normalized position, Fold included."""
    game = pos["game"]
    final = is_final(pos)
    pile_size = pos["draw_pile"]["size"]
    wolf: list[int] = list(pos["wolf"])

    # Available cards are tagged by source: a hand 3 and a reserve 3 make different plays.
    available: list[tuple[str, int]] = [("hand", v) for v in pos["player"]]
    if game == "vanguard":
        available += [("reserve", v) for v in pos["reserve"]]

    found: dict[PlayKey, Play] = {}

    def add(play: Play) -> None:
        found.setdefault(play_key(play), play)

    def split_sources(cards: list[tuple[str, int]]) -> tuple[list[int], list[int]]:
        hand = [v for src, v in cards if src == "hand"]
        reserve = [v for src, v in cards if src == "reserve"]
        return hand, reserve

    # Every row of the rule table has exactly one card on at least one side, so it is enough
    # (and much cheaper than all pairs of subsets) to pair every subset of one side with every
    # single card of the other side.  Pairs with two or more cards on both sides match no rule.
    mine_subsets = _all_subsets(available)
    wolf_subsets = _all_subsets(wolf)

    # One side is any subset of your cards, the other is exactly one Wolf card.
    for mine_sub in mine_subsets:
        mine = [card for _, card in mine_sub]
        mine_values = [v for _, v in mine]
        hand, reserve = split_sources(mine)
        for w in wolf:
            # Perfect: exactly 1 of yours, equal to the Wolf's card.
            if len(mine) == 1 and mine_values[0] == w:
                add(make_play("perfect", hand, reserve, [w]))

            # Sum: 2 or more of yours adding up exactly to the Wolf's card.
            if len(mine) >= 2 and sum(mine_values) == w:
                add(make_play("sum", hand, reserve, [w]))

            # Over: exactly 1 of yours strictly higher than the Wolf's card.
            # Illegal in a final round; needs at least (difference) cards in the pile.
            if len(mine) == 1 and mine_values[0] > w:
                difference = mine_values[0] - w
                if not final and pile_size >= difference:
                    add(make_play("over", hand, reserve, [w]))

    # One side is exactly one of your cards, the other any subset of the Wolf's cards.
    for source, value in available:
        hand, reserve = split_sources([(source, value)])
        for wolf_sub in wolf_subsets:
            wolf_values = [v for _, v in wolf_sub]
            # Split: 2 or more of the Wolf's adding up exactly to your card.
            # Illegal in a final round; needs at least 1 card in the pile (the Wolf draws 1).
            if len(wolf_values) >= 2 and sum(wolf_values) == value and not final and pile_size >= 1:
                add(make_play("split", hand, reserve, wolf_values))

    # Sacrifice: vanguard final round only; one active member on exactly one Wolf card of any
    # value, and another member must stay active (so at least 2 active now).
    if game == "vanguard" and final and len(pos["party"]) >= 2:
        for member in pos["party"]:
            for w in wolf:
                add(make_play("sacrifice", [], [], [w], member=member))

    add(fold_play())

    def sort_key(play: Play) -> PlayKey:
        return (
            TYPE_ORDER.index(play["type"]),
            play["hand"],
            play["reserve"],
            play["wolf"],
            MEMBER_ORDER.index(play["member"]) if "member" in play else -1,
        )

    return sorted(found.values(), key=sort_key)
