"""The transposition table of the plain-Python search: a dict, behind the same two calls the
compiled search makes on its hash table (solver/search/hashtable.py), so that one search source
(solver/search/expectimax.py) runs in both modes.

`keys` is the dict, `vals` a one-item list holding the most entries it may take (the memory
budget's share, solver/search/engine.py). A full dict takes no new key and raises ctr[grow], as a
hash table does that asks to be doubled: the search stops, and its driver, which cannot grow a
dict past the budget, ends the search there as at a time limit.
"""

from __future__ import annotations

from typing import Any


def tt_get(keys: dict[tuple[int, ...], tuple[float, float]], vals: Any, kb: list[int]) -> tuple[bool, float, float]:
    got = keys.get(tuple(kb))
    if got is None:
        return False, 0.0, 0.0
    return True, got[0], got[1]


def prefetch(keys: dict[tuple[int, ...], tuple[float, float]], kb: list[int]) -> None:
    """Nothing to fetch ahead in a dict (the hash table's prefetch is a hint to the caches)."""


def put(
    keys: dict[tuple[int, ...], tuple[float, float]],
    vals: list[int],
    kb: list[int],
    x: float,
    y: float,
    ctr: list[int],
    filled: int,
    grow: int,
    fixed: int,
) -> None:
    k = tuple(kb)
    if k not in keys:
        if len(keys) >= vals[0]:
            ctr[grow] = 1
            return
        ctr[filled] += 1
    keys[k] = (x, y)


class Arena:
    """The plain search's stand-in for the compiled search's arena (expectimax.ARENA_I): never
    short of room, and every slice of it a fresh list of zeros (of ints or of floats)."""

    def __init__(self, zero: float) -> None:
        self.zero = zero

    def __len__(self) -> int:
        return 1 << 62

    def __getitem__(self, part: slice) -> list[Any]:
        return [self.zero] * (part.stop - part.start)
