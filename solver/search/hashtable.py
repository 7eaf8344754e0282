"""An open-addressing hash table for compiled code: two int64 words of key, two float64 words
of value, in numpy arrays that numba reads and writes directly.

numba's own typed dict costs about 300 ns a lookup with tuple keys; this costs a tenth. The keys
and values are views of one array, a slot's four words side by side, so that a lookup in a big
table misses the cache once, not twice. A slot is free while its second key word is -1 (keys
are never negative). Linear probing; the caller doubles a table that is half full, while the
memory budget allows it (solver/search/memory.py). A table that may not grow any more is marked fixed:
it then keeps taking new keys by replacing the entry in the new key's home slot, the first slot
its probe looks at. The slot stays occupied, so every other key's probe sequence is unbroken, and
the new key is found at once; the entry replaced is forgotten, which costs a transposition table
nothing but the time to search that state again.
"""

from __future__ import annotations

import numpy as np
from numba import njit


def new_table(capacity: int = 1 << 16) -> tuple[np.ndarray, np.ndarray]:
    """An empty table of `capacity` slots (a power of two): (keys, values)."""
    row = np.full((capacity, 4), -1, np.int64)
    return row[:, :2], row.view(np.float64)[:, 2:]


BYTES_PER_SLOT = 32  # two int64 key words, two float64 value words


def table_bytes(capacity: int) -> int:
    return BYTES_PER_SLOT * capacity


@njit(cache=True, inline="always")
def _home(keys: np.ndarray, k1: int, k2: int) -> int:  # pragma: no cover - compiled
    """The first slot a key's probe looks at."""
    mask = np.uint64(keys.shape[0] - 1)
    # Murmur3's finalizer over both words: every bit of the key reaches the low bits used.
    h = np.uint64(k1) ^ (np.uint64(k2) * np.uint64(0x9E3779B97F4A7C15))
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xC4CEB9FE1A85EC53)
    h ^= h >> np.uint64(33)
    return int(h & mask)


@njit(cache=True)
def slot(keys: np.ndarray, k1: int, k2: int) -> int:  # pragma: no cover - compiled
    """The slot holding this key, or the free slot where it would go (linear probing)."""
    mask = np.uint64(keys.shape[0] - 1)
    i = np.int64(_home(keys, k1, k2))
    while True:
        c = keys[i, 1]
        if c == -1 or (c == k2 and keys[i, 0] == k1):
            return int(i)
        i = np.int64((np.uint64(i) + np.uint64(1)) & mask)


@njit(cache=True)
def put(
    keys: np.ndarray,
    vals: np.ndarray,
    k1: int,
    k2: int,
    x: float,
    y: float,
    ctr: np.ndarray,
    filled: int,
    grow: int,
    fixed: int,
) -> None:  # pragma: no cover
    """Store (x, y) under the key; ctr[filled] counts the entries, ctr[grow] is set once the table
    is half full (the caller then doubles it with `grown`), unless ctr[fixed] says it may not grow:
    then a new key beyond three quarters full replaces its home slot's entry."""
    i = slot(keys, k1, k2)
    if keys[i, 1] == -1:
        if ctr[fixed] and 4 * ctr[filled] >= 3 * keys.shape[0]:
            h = _home(keys, k1, k2)
            if h == i:
                return  # the home slot is free: filling it would fill the table past its limit
            i = h  # occupied, since the probe went past it
            keys[i, 0] = k1
            keys[i, 1] = k2
            vals[i, 0] = x
            vals[i, 1] = y
            return
        if 4 * ctr[filled] >= 3 * keys.shape[0]:
            # Too full to take more before it is doubled (a caller that stores many entries
            # between two checks of ctr[grow] can get here): not storing loses nothing but time.
            ctr[grow] = 1
            return
        keys[i, 0] = k1
        keys[i, 1] = k2
        ctr[filled] += 1
        if 2 * ctr[filled] > keys.shape[0] and not ctr[fixed]:
            ctr[grow] = 1  # the caller doubles the table before the search goes on
    vals[i, 0] = x
    vals[i, 1] = y


@njit(cache=True)
def _rehash(keys: np.ndarray, vals: np.ndarray, nk: np.ndarray, nv: np.ndarray) -> None:  # pragma: no cover
    for i in range(keys.shape[0]):
        if keys[i, 1] != -1:
            j = slot(nk, keys[i, 0], keys[i, 1])
            nk[j, 0] = keys[i, 0]
            nk[j, 1] = keys[i, 1]
            nv[j, 0] = vals[i, 0]
            nv[j, 1] = vals[i, 1]


def grown(keys: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The same entries in a table twice the size."""
    nk, nv = new_table(2 * keys.shape[0])
    _rehash(keys, vals, nk, nv)
    return nk, nv
