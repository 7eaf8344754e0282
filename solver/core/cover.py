"""Exact cover of Wolf cards by groups of the Player's cards: a small memoized search.

In a final round (and for the sure-win test of the hint search) the question is only whether
the Wolf's cards can all be covered, by disjoint groups adding up exactly to each, or by at most
`allowed` sacrifices, and with how few sacrifices. Which source pays (hand or reserve) does not
matter for that, so the Player's cards are one multiset, counted by value (index 0 is the Ace).
"""

from __future__ import annotations

from functools import lru_cache

Counts = tuple[int, ...]


def counts(values: tuple[int, ...] | list[int]) -> Counts:
    out = [0] * 10
    for v in values:
        out[v - 1] += 1
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def groups(avail: Counts, target: int, start: int = 1) -> tuple[Counts, ...]:
    """Sub-multisets of avail with values >= start adding up to target."""
    if target == 0:
        return ((0,) * len(avail),)
    out = []
    for v in range(start, min(target, len(avail)) + 1):
        if avail[v - 1]:
            rest = (*avail[: v - 1], avail[v - 1] - 1, *avail[v:])
            for tail in groups(rest, target - v, v):
                out.append((*tail[: v - 1], tail[v - 1] + 1, *tail[v:]))
    return tuple(out)


@lru_cache(maxsize=1 << 18)
def _min_sacrifices(wolf: tuple[int, ...], avail: Counts, allowed: int) -> int | None:
    if not wolf:
        return 0
    w, rest = wolf[0], wolf[1:]
    best: int | None = None
    for pick in groups(avail, w):
        sub = _min_sacrifices(rest, tuple(a - b for a, b in zip(avail, pick, strict=True)), allowed)
        if sub is not None and (best is None or sub < best):
            best = sub
            if best == 0:
                return 0
    if allowed > 0:
        sub = _min_sacrifices(rest, avail, allowed - 1)
        if sub is not None and (best is None or sub + 1 < best):
            best = sub + 1
    return best


def min_sacrifices(wolf: tuple[int, ...] | list[int], avail: Counts, allowed: int) -> int | None:
    """Fewest sacrifices with which these Wolf cards can all be covered; None when they cannot.
    The biggest card goes first: it has the fewest groups, so dead ends show early."""
    return _min_sacrifices(tuple(sorted(wolf, reverse=True)), avail, allowed)


def sure_cover(wolf: tuple[int, ...], avail: Counts) -> bool:
    """Perfect/Sum groups alone cover every Wolf card."""
    return min_sacrifices(wolf, avail, 0) == 0
