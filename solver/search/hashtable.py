"""An open-addressing hash table for compiled code: a key of K int64 words, a value of two
float64 words (the bounds lo and hi), in one numpy array that numba reads and writes directly.

numba's own typed dict costs about 300 ns a lookup with tuple keys; this costs a tenth. A slot's
key and value words sit side by side (the values are a float64 view of the last two columns),
so that a lookup in a big table misses the cache once, not twice. A slot is free while its last
key word is 0: that word is stored plus one (keys are never negative), so that a new table is
all zeros: fresh pages, or memory an earlier table left (solver/search/memory.py zeroes it, which
is quicker than fresh pages). Linear probing; the caller doubles a table that is
three quarters full, while the memory budget allows it (solver/search/memory.py). A table that may not
grow any more is marked fixed: it then keeps taking new keys by replacing the entry in the new
key's home slot, the first slot its probe looks at. The slot stays occupied, so every other
key's probe sequence is unbroken, and the new key is found at once; the entry replaced is
forgotten, which costs a transposition table nothing but the time to search that state again.

The calls the search makes are compiled without numba's reference counts (they make no arrays:
see solver/search/compiled.py). `tt_get` and `put` are the two calls the search makes (solver/search/expectimax.py); the
plain-Python search has the same two over a dict (solver/search/tables.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import extending, njit, types
from numba.core import cgutils

from solver.search import memory

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:

    def _uncounted(**options: Any) -> Callable[[F], F]: ...
else:

    def _uncounted(**options):
        """The search's calls make no arrays: compiled without numba's reference counts
        (solver/search/compiled.py says why)."""
        return njit(cache=True, _nrt=False, **options)


# A table asks to be doubled once this many eighths of its slots are taken (a fixed one replaces
# entries from there on), and takes no new keys past FULL_EIGHTHS before it is doubled. Three
# quarters, not a half: a fresh page costs more than a longer probe on machines that zero memory
# slowly (bench/README.md, session 16), and a probe's next slots share its cache line or the next.
GROW_EIGHTHS = 6
FULL_EIGHTHS = 7


@_uncounted(inline="always")
def wants_growth(filled: int, capacity: int) -> bool:
    """Whether a table of `capacity` slots holding `filled` entries should be doubled."""
    return 8 * filled > GROW_EIGHTHS * capacity


def new_table(capacity: int = 1 << 16, words: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """An empty table of `capacity` slots (a power of two) for keys of `words` words: (keys, values)."""
    row = memory.zeroed(capacity, words + 2)  # zeros: free slots, and 0.0 values; kept memory if any
    return row[:, :words], row.view(np.float64)[:, words:]


@_uncounted(inline="always")
def _home(keys: np.ndarray, kb: np.ndarray) -> np.int64:  # pragma: no cover - compiled
    """The first slot a key's probe looks at: Murmur3's finalizer over the key's words."""
    mask = np.uint64(keys.shape[0] - 1)
    h = np.uint64(0)
    for w in range(keys.shape[1]):
        h = (h ^ np.uint64(kb[w])) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xC4CEB9FE1A85EC53)
    h ^= h >> np.uint64(33)
    return np.int64(h & mask)


_cg: Any = cgutils


def _prefetch_typed(typingctx: Any, keys: Any, i: Any) -> Any:
    """A hint to the processor to fetch row i of keys into the caches (LLVM's prefetch: a read,
    kept close); no effect on what the program computes."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        ptr = _cg.get_item_pointer(context, builder, aryty, ary, [args[1], zero])
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        fn = _cg.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, byte_ptr), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(keys, i), codegen


_prefetch_row: Any = extending.intrinsic(_prefetch_typed)  # called as _prefetch_row(keys, i)


def _word_pointer(context: Any, builder: Any, signature: Any, args: Any) -> Any:
    aryty = signature.args[0]
    ary = context.make_array(aryty)(context, builder, args[0])
    return _cg.get_item_pointer(context, builder, aryty, ary, [args[1], args[2]])


def _claim_typed(typingctx: Any, keys: Any, i: Any, w: Any, old: Any, new: Any) -> Any:
    """keys[i, w] := new if it holds old, atomically (LLVM's cmpxchg); whether it did."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ptr = _word_pointer(context, builder, signature, args)
        pair = builder.cmpxchg(ptr, args[3], args[4], "acq_rel", "acquire")
        return builder.extract_value(pair, 1)

    return types.boolean(keys, i, w, old, new), codegen


def _load_typed(typingctx: Any, keys: Any, i: Any, w: Any) -> Any:
    """keys[i, w], read after every write made before the store that published it (acquire)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ptr = _word_pointer(context, builder, signature, args)
        return builder.load_atomic(ptr, "acquire", 8)

    return types.int64(keys, i, w), codegen


def _publish_typed(typingctx: Any, keys: Any, i: Any, w: Any, x: Any) -> Any:
    """keys[i, w] := x, after every write made before it (release)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ptr = _word_pointer(context, builder, signature, args)
        builder.store_atomic(args[3], ptr, "release", 8)
        return context.get_dummy_value()

    return types.void(keys, i, w, x), codegen


# Two searches may share one table, each in its own thread (solver/search/engine.py): a free slot
# is claimed atomically (marked CLAIMED while its key and values are written, then published with
# its last key word), so a reader never sees a key whose words or values are half written. The
# values of a key already there are two plain words: a reader may see one from each of two
# writers, and both are sound bounds of the same value, so the pair is too. A fixed table's
# replacing of entries is for one thread only (solver/search/shared_table.py).
_claim: Any = extending.intrinsic(_claim_typed)
_load: Any = extending.intrinsic(_load_typed)
_publish: Any = extending.intrinsic(_publish_typed)
CLAIMED = -1  # a slot's last word while its entry is written (stored words are never negative)


@_uncounted(inline="always")
def prefetch(keys: np.ndarray, kb: np.ndarray) -> None:  # pragma: no cover - compiled
    """Start fetching the key's home slot, so that a lookup soon after does not wait on memory
    (a chance node looks up all its outcomes: their misses overlap instead of queueing)."""
    _prefetch_row(keys, _home(keys, kb))


@_uncounted(inline="always")
def _find(keys: np.ndarray, kb: np.ndarray) -> tuple[np.int64, np.int64]:  # pragma: no cover - compiled
    """The slot holding this key, or the free slot where it would go (linear probing), with the
    last word seen there (0: free)."""
    mask = np.int64(keys.shape[0] - 1)
    last = keys.shape[1] - 1
    i = np.int64(_home(keys, kb))
    while True:
        c = _load(keys, i, last)
        while c == CLAIMED:  # another thread is writing this entry: a few stores
            c = _load(keys, i, last)
        if c == 0:
            return i, c
        same = c == kb[last] + 1
        if same:
            for w in range(last):
                if keys[i, w] != kb[w]:
                    same = False
                    break
        if same:
            return i, c
        i = np.int64((i + np.int64(1)) & mask)


@_uncounted()
def slot(keys: np.ndarray, kb: np.ndarray) -> np.int64:  # pragma: no cover - compiled
    """The slot holding this key, or the free slot where it would go (linear probing)."""
    return _find(keys, kb)[0]


@_uncounted()
def put(
    keys: np.ndarray,
    vals: np.ndarray,
    kb: np.ndarray,
    x: float,
    y: float,
    ctr: np.ndarray,
    filled: int,
    grow: int,
    fixed: int,
) -> None:  # pragma: no cover
    """Store (x, y) under the key; ctr[filled] counts the entries, ctr[grow] is set once the table
    is three quarters full (the caller then doubles it with `grown`), unless ctr[fixed] says it may
    not grow: then a new key beyond three quarters full replaces its home slot's entry."""
    last = keys.shape[1] - 1
    while True:
        i, c = _find(keys, kb)
        if c != 0 or _claim(keys, i, last, 0, CLAIMED):
            break
        # Another thread took the free slot first (perhaps for this very key): probe again.
    if c == 0:
        # A new entry, this thread's to write: its key and values before its last word.
        # A fixed table stays at three quarters (its probes stay short); one about to be doubled
        # may run on to seven eighths before its caller looks at ctr[grow].
        if 8 * ctr[filled] >= (GROW_EIGHTHS if ctr[fixed] else FULL_EIGHTHS) * keys.shape[0]:
            _publish(keys, i, last, 0)  # the slot stays free
            if not ctr[fixed]:
                # Too full to take more before it is doubled (a caller that stores many entries
                # between two checks of ctr[grow] can get here): not storing loses nothing but time.
                ctr[grow] = 1
                return
            h = _home(keys, kb)
            if h == i:
                return  # the home slot is free: filling it would fill the table past its limit
            i = h  # occupied, since the probe went past it
        else:
            ctr[filled] += 1
            if wants_growth(ctr[filled], keys.shape[0]) and not ctr[fixed]:
                ctr[grow] = 1  # the caller doubles the table before the search goes on
        for w in range(last):
            keys[i, w] = kb[w]
        vals[i, 0] = x
        vals[i, 1] = y
        _publish(keys, i, last, kb[last] + 1)
        return
    vals[i, 0] = x
    vals[i, 1] = y


@_uncounted()
def tt_get(keys: np.ndarray, vals: np.ndarray, kb: np.ndarray) -> tuple[bool, float, float]:  # pragma: no cover
    """(found, lo, hi) for the key."""
    i, c = _find(keys, kb)
    if c == 0:
        return False, 0.0, 0.0
    return True, vals[i, 0], vals[i, 1]


@njit(cache=True)
def _rehash(keys: np.ndarray, vals: np.ndarray, nk: np.ndarray, nv: np.ndarray) -> None:  # pragma: no cover
    last = keys.shape[1] - 1
    kb = np.empty(keys.shape[1], np.int64)
    for i in range(keys.shape[0]):
        if keys[i, last] != 0:
            for w in range(last):
                kb[w] = keys[i, w]
            kb[last] = keys[i, last] - 1  # the key as stored is one more in its last word
            j = slot(nk, kb)
            for w in range(keys.shape[1]):
                nk[j, w] = keys[i, w]
            nv[j, 0] = vals[i, 0]
            nv[j, 1] = vals[i, 1]


def grown(keys: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The same entries in a table twice the size."""
    nk, nv = new_table(2 * keys.shape[0], keys.shape[1])
    _rehash(keys, vals, nk, nv)
    return nk, nv
