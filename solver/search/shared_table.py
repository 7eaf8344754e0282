"""A transposition table two compiled searches share, each in its own thread (engine.py's search
on both cores): what one finishes, the other reads at once.

The table's slots are claimed atomically (solver/search/hashtable.py), so the two may store at
the same time. What they must agree on is its size: each search runs in chunks, and a chunk is
promised a share of the room left in the table (half of what the other chunk running has not
been promised), so that the two together never fill it past its limit, and it stops when its
share is spent. A table is doubled only between chunks, while neither runs: the search that
asks waits for the other's chunk to end (a chunk is some hundredths of a second), then asks again.

A table the memory budget will not let double goes on by replacing entries, which is safe for
one thread only (a reader could see one key's words with another's): from then on the thread
that made the table searches alone, and the other stops at its next chunk.
"""

from __future__ import annotations

import threading
from typing import Any

from solver.search import memory
from solver.search.hashtable import GROW_EIGHTHS, grown
from solver.search.memory import table_bytes

# A chunk that has spent its share while the other runs waits at most this long for it (seconds:
# a chunk is paced to about 0.05 s, engine.CHUNK_SECONDS), then takes a new share.
CHUNK_WAIT = 0.05
# A table is doubled once less than this fraction of its slots is left to share.
ROOM_LEFT = 32

# A table's room to spare beyond its own size, when it doubles: what the search allocates besides.
SPARE = 32 * 1024**2


def doubled(keys: Any, vals: Any) -> tuple[Any, Any] | None:
    """The table twice the size, or None when the memory budget has no room for it."""
    if not memory.make_room(table_bytes(2 * keys.shape[0], keys.shape[1]) + SPARE):
        return None
    try:
        return grown(keys, vals)
    except MemoryError:  # an address-space cap met before the budget: the same answer
        return None


class SharedTable:
    """The keys and values arrays, the entries they hold, and the chunks now running. Made by the
    thread whose search goes on alone if the table is fixed (its owner)."""

    def __init__(self, keys: Any, vals: Any, filled: int = 0) -> None:
        self.keys, self.vals = keys, vals
        self.filled = filled  # entries stored by chunks that have ended (and before the first)
        self.promised = 0  # entries promised to the chunks running now
        self.running = 0
        self.fixed = False  # the memory budget has no room to double it: it replaces entries
        self.owner = threading.get_ident()
        self._cond = threading.Condition()

    def enter(self) -> tuple[Any, Any, int, int, int] | None:
        """Before a chunk: (keys, values, the count its search starts from, its share, the fixed
        flag for the search's counters). The search stores new keys until its count reaches the
        table's limit, i.e. `share` of them. None: the table is fixed, and this thread is not its
        owner: its search stops."""
        with self._cond:
            if self.fixed:
                if threading.get_ident() != self.owner:
                    return None
                while self.running:  # the other thread's last chunk
                    self._cond.wait()
                self.running += 1
                return self.keys, self.vals, self.filled, 0, 1
            share = max(0, self._limit() - self.filled - self.promised) // 2
            self.promised += share
            self.running += 1
            return self.keys, self.vals, self._limit() - share, share, 0

    def _limit(self) -> int:
        """The entries the two searches may store between them: as many as a table of one search
        holds before it asks to be doubled (hashtable.wants_growth; a chunk asks once it has
        stored its share), or a fixed table keeps."""
        return int(GROW_EIGHTHS * self.keys.shape[0] // 8)

    def leave(self, stored: int, share: int, wants_more: bool, may_grow: bool = True) -> None:
        """After a chunk that stored `stored` new keys of its `share`. When it asks for more room
        and the table is really filling up, the table is doubled once no other chunk runs (or
        fixed, when the memory budget has no room or may_grow says the clock has not the time);
        otherwise it waits for the other chunk to end
        (and hand back what it was promised) before it takes a share again."""
        with self._cond:
            self.filled += stored
            self.promised -= share
            self.running -= 1
            self._cond.notify_all()
            if not wants_more or self.fixed:
                return
            if self.running:
                # Its share is spent, not the table: the other chunk hands back the rest of its own
                # when it ends, and the next shares are taken from all that is left.
                self._cond.wait(timeout=CHUNK_WAIT)
                return
            if self._limit() - self.filled > self.keys.shape[0] // ROOM_LEFT:
                return  # room enough for more shares
            # No chunk runs, and none starts while this thread holds the lock: the table is
            # copied whole into the doubled one.
            bigger = doubled(self.keys, self.vals) if may_grow else None
            if bigger is None:
                self.fixed = True
            else:
                self.keys, self.vals = bigger
