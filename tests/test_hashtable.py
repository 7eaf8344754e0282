"""The compiled search's hash table against a Python dict."""

from __future__ import annotations

import random

import numpy as np

from solver.search.hashtable import grown, new_table, put, slot

FILLED, GROW, FIXED = 0, 1, 2


def test_the_table_keeps_what_a_dict_keeps_through_doublings() -> None:
    rng = random.Random("hashtable")
    keys, vals = new_table(16)
    ctr = np.zeros(3, np.int64)
    want: dict[tuple[int, int], tuple[float, float]] = {}
    for _ in range(5000):
        k = (rng.randrange(1 << 60), rng.randrange(1 << 40)) if rng.random() < 0.7 else rng.choice([*want, (1, 2)])
        v = (rng.random(), rng.random())
        put(keys, vals, k[0], k[1], v[0], v[1], ctr, FILLED, GROW, FIXED)
        want[k] = v
        if ctr[GROW]:
            assert 2 * ctr[FILLED] > keys.shape[0]
            keys, vals = grown(keys, vals)
            ctr[GROW] = 0
    assert ctr[FILLED] == len(want)
    for (k1, k2), (x, y) in want.items():
        i = slot(keys, k1, k2)
        assert keys[i, 0] == k1 and keys[i, 1] == k2 and vals[i, 0] == x and vals[i, 1] == y
    assert keys[slot(keys, 5, 7), 1] == -1  # a key never stored finds a free slot


def test_a_table_that_is_not_doubled_stops_taking_entries_before_it_is_full() -> None:
    keys, vals = new_table(16)
    ctr = np.zeros(3, np.int64)
    for k in range(100):
        put(keys, vals, k, k, 0.0, 1.0, ctr, FILLED, GROW, FIXED)
    assert ctr[GROW] == 1 and ctr[FILLED] == 12  # three quarters of 16, and no endless probing


def test_a_fixed_table_replaces_entries_and_never_answers_a_wrong_value() -> None:
    """The memory budget fixes a table's size: it keeps three quarters of its slots filled at
    most, never asks to grow, goes on taking most new keys (by replacing the entry in their home
    slot), and every key it still finds has the value last stored under it: replacement never
    leaves a stale or foreign value behind, nor breaks another key's probe."""
    rng = random.Random("fixed")
    keys, vals = new_table(64)
    ctr = np.zeros(3, np.int64)
    ctr[FIXED] = 1
    last: dict[tuple[int, int], tuple[float, float]] = {}
    pool: list[tuple[int, int]] = []
    newest_found = 0
    for n in range(20_000):
        k = (rng.randrange(1 << 20), rng.randrange(1 << 10)) if rng.random() < 0.8 or not pool else rng.choice(pool)
        if k not in last:
            pool.append(k)
        v = (float(n), rng.random())
        put(keys, vals, k[0], k[1], v[0], v[1], ctr, FILLED, GROW, FIXED)
        last[k] = v
        i = slot(keys, k[0], k[1])
        newest_found += bool(keys[i, 1] != -1)
        assert ctr[GROW] == 0 and ctr[FILLED] <= 48
        if n % 97 == 0:
            for (k1, k2), want in last.items():
                j = slot(keys, k1, k2)
                if keys[j, 1] != -1:
                    assert (keys[j, 0], keys[j, 1]) == (k1, k2) and (vals[j, 0], vals[j, 1]) == want
    assert newest_found > 0.7 * 20_000  # a full table still takes most new entries
    occupied = int((keys[:, 1] != -1).sum())
    assert occupied == ctr[FILLED] == 48
