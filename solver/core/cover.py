"""Exact cover of Wolf cards by groups of the Player's cards, for Python callers (the finisher,
the policies, the status search): the kernel's cover search (kernel.min_sacrifices), remembered.

In a final round (and for the sure-win test of the hint search) the question is only whether
the Wolf's cards can all be covered, by disjoint groups adding up exactly to each, or by at most
`allowed` sacrifices, and with how few sacrifices. Which source pays (hand or reserve) does not
matter for that, so the Player's cards are one multiset, counted by value (index 0 is the Ace).
"""

from __future__ import annotations

from functools import lru_cache

from solver.core import kernel

Counts = tuple[int, ...]


def counts(values: tuple[int, ...] | list[int]) -> Counts:
    out = [0] * 10
    for v in values:
        out[v - 1] += 1
    return tuple(out)


@lru_cache(maxsize=1 << 18)
def _min_sacrifices(wolf: Counts, avail: Counts, allowed: int) -> int | None:
    st = [0] * kernel.STATE
    st[kernel.WOLF : kernel.WOLF + 10] = wolf
    st[kernel.HAND : kernel.HAND + len(avail)] = avail
    r = kernel.min_sacrifices(st, allowed)
    return None if r < 0 else r


def min_sacrifices(wolf: tuple[int, ...] | list[int], avail: Counts, allowed: int) -> int | None:
    """Fewest sacrifices with which these Wolf cards can all be covered; None when they cannot."""
    return _min_sacrifices(counts(wolf), tuple(avail), allowed)


def sure_cover(wolf: tuple[int, ...], avail: Counts) -> bool:
    """Perfect/Sum groups alone cover every Wolf card."""
    return min_sacrifices(wolf, avail, 0) == 0
