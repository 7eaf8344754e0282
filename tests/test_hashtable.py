"""The compiled search's hash table against a Python dict."""

from __future__ import annotations

import random

import numpy as np

from solver.hashtable import grown, new_table, put, slot

FILLED, GROW = 0, 1


def test_the_table_keeps_what_a_dict_keeps_through_doublings() -> None:
    rng = random.Random("hashtable")
    keys, vals = new_table(16)
    ctr = np.zeros(2, np.int64)
    want: dict[tuple[int, int], tuple[float, float]] = {}
    for _ in range(5000):
        k = (rng.randrange(1 << 60), rng.randrange(1 << 40)) if rng.random() < 0.7 else rng.choice([*want, (1, 2)])
        v = (rng.random(), rng.random())
        put(keys, vals, k[0], k[1], v[0], v[1], ctr, FILLED, GROW)
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
    ctr = np.zeros(2, np.int64)
    for k in range(100):
        put(keys, vals, k, k, 0.0, 1.0, ctr, FILLED, GROW)
    assert ctr[GROW] == 1 and ctr[FILLED] == 12  # three quarters of 16, and no endless probing
