"""Reference for the railway LOBO (../shared/RAILWAY.md), tests only.

Written from the contract alone; it must never import `solver` or `cli`. Plain and slow on
purpose (see README.md, "The plainness rule"):

* `max_journeys(deck, hand)`: list every journey the hand's cards can make (a junction card and
  two other cards of the hand, each a station the junction lists or a season ticket, the two
  stations different), then try every way of picking disjoint ones.
* `is_lobo(deck, hand, exposed)`: every card in some journey, and two or more journeys in all.
* `check_partition(...)`: is an answer's partition real (disjoint journeys from the hand,
  leftover exactly the rest)?
* `lobo_chance(deck, hand, exposed, pool, draws)`: the exact probability, under the best
  discards, of going LOBO within `draws` draws from a stock that is a uniformly random order of
  `pool` (a list with one entry per card), by trying every card at every draw.

A deck here is the RAILWAY.md JSON object as a dict; a hand is a list of card names.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

TICKET = "Season Ticket"

Deck = dict[str, Any]


def listed(deck: Deck, junction: str, card: str) -> bool:
    """May this card fill a station place of a journey through this junction?"""
    return card == TICKET or card in deck["junctions"][junction]


def journeys_of(deck: Deck, hand: list[str]) -> list[tuple[int, int, int]]:
    """Every journey as hand indexes (junction, station place, station place)."""
    out = []
    for j, junction in enumerate(hand):
        if junction not in deck["junctions"]:
            continue
        others = [i for i in range(len(hand)) if i != j]
        for a, b in combinations(others, 2):
            x, y = hand[a], hand[b]
            if not (listed(deck, junction, x) and listed(deck, junction, y)):
                continue
            # Two station cards must be two different stations; season tickets may be anything.
            if x != TICKET and x == y:
                continue
            out.append((j, a, b))
    return out


def best_set(deck: Deck, hand: list[str]) -> list[tuple[int, int, int]]:
    """A largest set of disjoint journeys: try including or skipping each journey in turn."""
    all_journeys = journeys_of(deck, hand)

    def go(k: int, used: frozenset[int]) -> list[tuple[int, int, int]]:
        if k == len(all_journeys):
            return []
        skip = go(k + 1, used)
        journey = all_journeys[k]
        if used.isdisjoint(journey):
            take = [journey, *go(k + 1, used | set(journey))]
            if len(take) > len(skip):
                return take
        return skip

    return go(0, frozenset())


def max_journeys(deck: Deck, hand: list[str]) -> int:
    return len(best_set(deck, hand))


def is_lobo(deck: Deck, hand: list[str], exposed: int) -> bool:
    """Nothing but completed journeys in the hand, and at least two journeys with the exposed."""
    n = max_journeys(deck, hand)
    return 3 * n == len(hand) and n + exposed >= 2


def check_partition(deck: Deck, hand: list[str], journeys: list[list[str]], leftover: list[str]) -> list[str]:
    """What is wrong with a claimed partition (empty when it is a real one)."""
    problems = []
    remaining = list(hand)
    for journey in journeys:
        if len(journey) != 3:
            problems.append(f"{journey}: not three cards")
            continue
        junction, x, y = journey
        if junction not in deck["junctions"]:
            problems.append(f"{journey}: {junction} is not a junction")
        elif not (listed(deck, junction, x) and listed(deck, junction, y)) or (x != TICKET and x == y):
            problems.append(f"{journey}: not a journey")
        for card in journey:
            if card in remaining:
                remaining.remove(card)
            else:
                problems.append(f"{journey}: {card} is not in the hand (or used twice)")
    if sorted(remaining) != sorted(leftover):
        problems.append(f"leftover {sorted(leftover)} is not the rest of the hand {sorted(remaining)}")
    return problems


def unseen(deck: Deck, hand: list[str], exposed: list[list[str]], seen: list[str], top: str | None) -> list[str]:
    """One entry per card that is not known to be anywhere: the deck minus everything known."""
    pool = list(deck["junctions"]) + list(deck["stations"]) + [TICKET] * deck.get("season_tickets", 6)
    known = list(hand) + [c for j in exposed for c in j] + list(seen) + ([top] if top is not None else [])
    for card in known:
        pool.remove(card)
    return pool


def lobo_chance(deck: Deck, hand: list[str], exposed: int, pool: list[str], draws: int) -> Fraction:
    """P(LOBO within `draws` draws from the stock) with the best discard after each draw.

    Each draw is every entry of `pool` with equal weight; a drawn card leaves the pool, a
    discarded one does not come back."""
    memo: dict[tuple[tuple[str, ...], tuple[str, ...], int], Fraction] = {}

    def chance(kept: list[str], rest: list[str], n: int) -> Fraction:
        if n == 0 or not rest:
            return Fraction(0)
        key = (tuple(sorted(kept)), tuple(sorted(rest)), n)
        if key in memo:
            return memo[key]
        total = Fraction(0)
        for i, card in enumerate(rest):
            now = [*kept, card]
            later = rest[:i] + rest[i + 1 :]
            if is_lobo(deck, now, exposed):
                total += 1
            elif n > 1:
                total += max(chance(now[:d] + now[d + 1 :], later, n - 1) for d in range(len(now)))
        memo[key] = total / len(rest)
        return memo[key]

    return chance(list(hand), list(pool), draws)
