"""The compiled search's hash table against a Python dict."""

from __future__ import annotations

import random
import threading

import numpy as np
from numba import njit

from solver.search.hashtable import FULL_EIGHTHS, GROW_EIGHTHS, grown, new_table, put, tt_get, wants_growth

FILLED, GROW, FIXED = 0, 1, 2
WORDS = 3


def _key(k: tuple[int, ...]) -> np.ndarray:
    return np.array(k, np.int64)


def _random_key(rng: random.Random) -> tuple[int, ...]:
    return tuple(rng.randrange(1 << 60) for _ in range(WORDS))


def test_the_table_keeps_what_a_dict_keeps_through_doublings() -> None:
    rng = random.Random("hashtable")
    keys, vals = new_table(16, WORDS)
    ctr = np.zeros(3, np.int64)
    want: dict[tuple[int, ...], tuple[float, float]] = {}
    for _ in range(5000):
        k = _random_key(rng) if rng.random() < 0.7 or not want else rng.choice([*want])
        v = (rng.random(), rng.random())
        put(keys, vals, _key(k), v[0], v[1], ctr, FILLED, GROW, FIXED)
        want[k] = v
        if ctr[GROW]:
            assert wants_growth(int(ctr[FILLED]), keys.shape[0])
            keys, vals = grown(keys, vals)
            ctr[GROW] = 0
    assert ctr[FILLED] == len(want)
    for k, (x, y) in want.items():
        assert tt_get(keys, vals, _key(k)) == (True, x, y)
    assert not tt_get(keys, vals, _key((5, 7, 9)))[0]  # a key never stored is not found
    # Keys that differ in one word only are apart (every word is hashed and compared).
    a, b = _key((1, 2, 3)), _key((1, 2, 4))
    put(keys, vals, a, 0.25, 0.5, ctr, FILLED, GROW, FIXED)
    assert tt_get(keys, vals, b)[0] is False and tt_get(keys, vals, a) == (True, 0.25, 0.5)


def test_a_table_that_is_not_doubled_stops_taking_entries_before_it_is_full() -> None:
    keys, vals = new_table(16, WORDS)
    ctr = np.zeros(3, np.int64)
    for k in range(100):
        put(keys, vals, _key((k, k, k)), 0.0, 1.0, ctr, FILLED, GROW, FIXED)
    assert ctr[GROW] == 1 and ctr[FILLED] == 16 * FULL_EIGHTHS // 8  # and no endless probing


def test_a_fixed_table_replaces_entries_and_never_answers_a_wrong_value() -> None:
    """The memory budget fixes a table's size: it keeps three quarters of its slots filled at
    most, never asks to grow, goes on taking most new keys (by replacing the entry in their home
    slot), and every key it still finds has the value last stored under it: replacement never
    leaves a stale or foreign value behind, nor breaks another key's probe."""
    rng = random.Random("fixed")
    keys, vals = new_table(64, WORDS)
    ctr = np.zeros(3, np.int64)
    ctr[FIXED] = 1
    last: dict[tuple[int, ...], tuple[float, float]] = {}
    pool: list[tuple[int, ...]] = []
    newest_found = 0
    for n in range(20_000):
        k = (rng.randrange(1 << 20), rng.randrange(1 << 10), 1) if rng.random() < 0.8 or not pool else rng.choice(pool)
        if k not in last:
            pool.append(k)
        v = (float(n), rng.random())
        put(keys, vals, _key(k), v[0], v[1], ctr, FILLED, GROW, FIXED)
        last[k] = v
        newest_found += tt_get(keys, vals, _key(k))[0]
        assert ctr[GROW] == 0 and ctr[FILLED] <= 64 * GROW_EIGHTHS // 8
        if n % 97 == 0:
            for k2, want in last.items():
                found, x, y = tt_get(keys, vals, _key(k2))
                if found:
                    assert (x, y) == want
    assert newest_found > 0.7 * 20_000  # a full table still takes most new entries
    occupied = int((keys[:, WORDS - 1] != 0).sum())  # a free slot: 0 in its last key word
    assert occupied == ctr[FILLED] == 48


@njit(nogil=True)
def _store_and_check(keys: np.ndarray, vals: np.ndarray, order: np.ndarray, ctr: np.ndarray) -> int:  # pragma: no cover
    """Store every key of `order` (keys (k, k % 7, 1), values (k, -k)) and read one stored a little
    earlier back; the count of reads that found a wrong value (or lost a key)."""
    kb = np.empty(WORDS, np.int64)
    wrong = 0
    for t in range(order.shape[0]):
        k = order[t]
        kb[0], kb[1], kb[2] = k, k % 7, 1
        put(keys, vals, kb, float(k), float(-k), ctr, FILLED, GROW, FIXED)
        j = order[max(0, t - 5)]
        kb[0], kb[1] = j, j % 7
        found, x, y = tt_get(keys, vals, kb)
        if not found or x != float(j) or y != float(-j):
            wrong += 1
    return wrong


def test_two_threads_storing_at_once_never_lose_a_key_nor_mix_two() -> None:
    """Two searches share a table (engine.py, two cores): each thread stores keys, most of which
    the other stores too at about the same time, and reads them back while the other writes. No
    read may see a wrong value or miss a key stored, and every key takes exactly one slot (a slot
    is claimed atomically: two threads never write one slot for two keys, nor two for one)."""
    n = 200_000
    keys, vals = new_table(1 << 19, WORDS)  # filled to about half
    rng = np.random.default_rng(7)
    both = rng.permutation(n)
    # The same keys in the same order: the threads race for the same slot all the time (and, the
    # table filling up, for slots of keys that share a probe); then keys the other never stores.
    orders = [
        np.concatenate([both, np.arange(n, n + n // 4)]),
        np.concatenate([both, np.arange(2 * n, 2 * n + n // 4)]),
    ]
    ctrs = [np.zeros(3, np.int64) for _ in orders]
    _store_and_check(keys, vals, orders[0][:10], ctrs[0])  # compiled before the threads start
    wrong = [0, 0]

    def run(i: int) -> None:
        wrong[i] = _store_and_check(keys, vals, orders[i], ctrs[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == [0, 0]
    distinct = set(orders[0].tolist()) | set(orders[1].tolist())
    occupied = int((keys[:, WORDS - 1] != 0).sum())
    assert occupied == len(distinct) == int(ctrs[0][FILLED] + ctrs[1][FILLED])
    kb = np.empty(WORDS, np.int64)
    for k in list(distinct)[::97]:
        kb[0], kb[1], kb[2] = k, k % 7, 1
        assert tt_get(keys, vals, kb) == (True, float(k), float(-k))
