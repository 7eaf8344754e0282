"""The memory budget every search runs under.

A search that grows without bound takes the machine down: a transposition table doubling at the
start of a round reached 24 GB. So every search asks here how much room it has, sizes its tables
against that, and stops (as at a time limit: the answer says `exact: false`) when it is spent.

The budget is one number per process: `--max-memory` (set_limit), else the environment variable
LOBO_HINT_MAX_MEMORY, else 2 GiB (two workers on a 2-core, 24 GB machine leave most of it free).
An address-space cap (`ulimit -v`) counts too: room never exceeds what the cap leaves, less a
reserve for the allocations a search makes on its way out (its answer, numpy temporaries).

Memory is read from /proc/self (Linux); elsewhere only the process's peak is known, which can
only overstate what is in use, so a search there stops early rather than late.

The tables' memory is kept for reuse (zeroed()): fresh pages cost far more than zeroing pages the
process already holds (on the test machine, a virtual machine whose host takes freed memory back,
0.3-0.4 GB/s against 7 GB/s: bench/README.md, session 22), so the memory of a table that is no
longer used (doubled, or its search done) serves the process's next tables: the round's win
search after its game search, the next answer of a game. Kept memory that no table uses counts as
room only once it is let go: as soon as a fresh table would not fit beside it, or less room is left
than it holds.
"""

from __future__ import annotations

import mmap
import os
import re
import resource
import sys
import threading
from typing import Any

ENV = "LOBO_HINT_MAX_MEMORY"
DEFAULT = 2 * 1024**3
# Kept free under an address-space cap: what the process needs to finish its answer once a search
# has stopped (and what numba and numpy map at once when they allocate).
RESERVE = 192 * 1024**2
# Below this no budget makes sense: the interpreter and its libraries use about this much.
MINIMUM = 64 * 1024**2

_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)

_limit: int | None = None


class MemoryBudgetError(ValueError):
    """A budget that cannot be read: the message names where it came from."""


def parse_size(text: str) -> int:
    """Bytes from "2G", "1.5 GiB", "512M", "800MB", "2000000000" (units are powers of 1024)."""
    m = _SIZE.match(text) if len(text) < 64 else None
    if m is None:
        raise MemoryBudgetError(f"{text[:40]!r} is not a size (say 2G, 512M or a number of bytes)")
    number, unit = m.groups()
    size = int(float(number) * _UNITS[unit.lower()])
    if size < MINIMUM:
        raise MemoryBudgetError(f"{text.strip()!r} is too small: a search needs at least {describe(MINIMUM)}")
    return size


def describe(nbytes: int) -> str:
    """A size for people: 2.0 GiB, 512 MiB."""
    if nbytes >= 1024**3:
        return f"{nbytes / 1024**3:.1f} GiB"
    return f"{nbytes / 1024**2:.0f} MiB"


def set_limit(nbytes: int | None) -> None:
    """The budget for this process (None: back to the environment's or the default)."""
    global _limit
    _limit = nbytes


def limit() -> int:
    """The budget in bytes: set_limit's, else LOBO_HINT_MAX_MEMORY's, else DEFAULT."""
    if _limit is not None:
        return _limit
    text = os.environ.get(ENV)
    if text:
        try:
            return parse_size(text)
        except MemoryBudgetError as e:
            raise MemoryBudgetError(f"{ENV}: {e}") from None
    return DEFAULT


def check_environment() -> None:
    """Raise MemoryBudgetError now if LOBO_HINT_MAX_MEMORY is unreadable (a CLI reports it once,
    before any work, rather than from inside a search)."""
    limit()


def _statm() -> tuple[int, int] | None:
    """(virtual size, resident size) in bytes, or None off Linux."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            fields = f.read().split()
    except OSError:
        return None
    page = os.sysconf("SC_PAGE_SIZE")
    return int(fields[0]) * page, int(fields[1]) * page


def resident() -> int:
    """Bytes the process holds in memory now (its peak where /proc is missing)."""
    got = _statm()
    if got is not None:
        return got[1]
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def room() -> int:
    """Bytes the process may still take before it reaches its budget or its address-space cap
    (negative once past either). Kept table memory that no table uses is let go first when less
    room is left than it holds: near its budget a search sees the room it would have seen had
    that memory been freed when its table was."""
    free = _room()
    if free < kept():
        let_go()
        free = _room()
    return free


def _room() -> int:
    got = _statm()
    virtual, rss = got if got is not None else (0, resident())
    free = limit() - rss
    cap, _ = resource.getrlimit(resource.RLIMIT_AS)
    if cap != resource.RLIM_INFINITY and got is not None:
        free = min(free, cap - RESERVE - virtual)
    return free


def make_room(nbytes: int) -> bool:
    """Whether the process may take nbytes more, once kept table memory that no table uses is let
    go as far as that takes (biggest first)."""
    let_go(nbytes)
    return _room() >= nbytes


def nearly_exhausted() -> bool:
    """Whether the process is within twice the reserve of its budget or its address-space cap:
    where an allocation inside compiled code can fail. (numba raises a failed allocation as a
    MemoryError it must first unpickle; with no memory left for that, the call returns an error
    with no exception set, which Python reports as SystemError.)"""
    return room() < 2 * RESERVE


def spent() -> bool:
    """Whether the budget is used up: a search that asks this stops as at a time limit."""
    return room() <= 0


def table_bytes(capacity: int, words: int = 2) -> int:
    """The bytes of a compiled search's hash table (solver/search/hashtable.py): per slot, a key of
    `words` int64 words and two float64 bounds."""
    return 8 * (words + 2) * capacity


# Tables smaller than this are not worth keeping (a search's memos, a short search's table).
KEEP_FROM = 1024**2
_kept: list[Any] = []  # flat int64 arrays; one is in use while any view of it lives
_lock = threading.RLock()  # both threads of a search make tables (solver/search/shared_table.py)


def _unused() -> list[Any]:
    """The kept arrays no table uses: referenced only by _kept, this comprehension's variable and
    getrefcount's argument (a table is a view, and a view holds its base)."""
    return [b for b in _kept if sys.getrefcount(b) <= 3]


def kept() -> int:
    """Bytes of kept table memory that no table uses now."""
    with _lock:
        return sum(b.nbytes for b in _unused())


def let_go(nbytes: int | None = None) -> None:
    """Free kept table memory that no table uses, biggest first, until the process may take
    nbytes more (None: all of it)."""
    with _lock:
        spare = sorted(_unused(), key=lambda b: -b.nbytes)
        while spare and (nbytes is None or _room() < nbytes):
            gone = spare.pop(0)
            _kept[:] = [b for b in _kept if b is not gone]
            del gone  # the last reference: its pages go back now
        del spare


_faulting: threading.Thread | None = None  # prefault()'s, while it runs


def prefault(rows: int, cols: int) -> None:
    """Take, on a thread of its own, the fresh memory a table of rows by cols will want, and keep
    it for that table (zeroed() serves it). A fresh process pays for fresh pages as its search
    first touches them (a tenth of a second for a round's table: see the module's note); its
    other core is idle while the machine code loads, and faulting pages in there does not slow
    the loading. Nothing is taken where kept memory fits already or the budget has no room."""
    global _faulting
    import numpy  # noqa: F401  (here, not on the thread: it would wait for the machine code's import of it)

    words = rows * cols
    with _lock:
        if _faulting is not None or any(words <= b.shape[0] <= 2 * words for b in _unused()):
            return
        if not make_room(8 * words + RESERVE):
            return
        _faulting = threading.Thread(target=_fault, args=(words,), name="lobo-hint prefault", daemon=True)
        _faulting.start()


def _fault(words: int) -> None:
    import numpy as np

    fresh = np.zeros(words, np.int64)
    fresh[...] = 0  # every page touched (numpy lets go of the interpreter's lock for this)
    with _lock:
        _kept.append(fresh)


def _settled() -> None:
    """Wait for prefault()'s thread: the memory it takes is not free to use until it ends."""
    global _faulting
    faulting = _faulting
    if faulting is not None:
        faulting.join()
        _faulting = None


def zeroed(rows: int, cols: int) -> Any:
    """An int64 array of zeros, rows by cols: on kept memory that no table uses when some fits (at
    most twice the size, so a small table does not tie up a big piece), else on fresh memory,
    which is kept when it is big enough (once kept memory is let go as far as it needs)."""
    import numpy as np  # here: the command line reads this module before it needs numpy

    words = rows * cols
    if 8 * words >= KEEP_FROM:  # (a small table, as the machine code's loading makes, waits for nothing)
        _settled()
    with _lock:
        fits = [b for b in _unused() if words <= b.shape[0] <= 2 * words]
        if fits:
            out = min(fits, key=lambda b: b.shape[0])[:words]
            del fits
            out.fill(0)
            return out.reshape(rows, cols)
        let_go(8 * words + RESERVE)
        if 8 * words < KEEP_FROM:
            return np.zeros(words, np.int64).reshape(rows, cols)
        # A kept table on a mapping of its own (zeros; its pages taken as they are touched), so
        # that letting it go gives its pages back to the system at once: from malloc, a big block
        # may come off the heap (glibc raises its threshold for mapping after a mapped block is
        # freed), and freed there it may stay in the process, which the budget would count.
        fresh = np.frombuffer(mmap.mmap(-1, 8 * words), np.int64)
        _kept.append(fresh)
        return fresh.reshape(rows, cols)


__all__ = [
    "DEFAULT",
    "ENV",
    "MemoryBudgetError",
    "check_environment",
    "describe",
    "kept",
    "let_go",
    "limit",
    "make_room",
    "nearly_exhausted",
    "parse_size",
    "prefault",
    "resident",
    "room",
    "set_limit",
    "spent",
    "table_bytes",
    "zeroed",
]
