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
"""

from __future__ import annotations

import os
import re
import resource

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
    (negative once past either)."""
    got = _statm()
    virtual, rss = got if got is not None else (0, resident())
    free = limit() - rss
    cap, _ = resource.getrlimit(resource.RLIMIT_AS)
    if cap != resource.RLIM_INFINITY and got is not None:
        free = min(free, cap - RESERVE - virtual)
    return free


def nearly_exhausted() -> bool:
    """Whether the process is within twice the reserve of its budget or its address-space cap:
    where an allocation inside compiled code can fail. (numba raises a failed allocation as a
    MemoryError it must first unpickle; with no memory left for that, the call returns an error
    with no exception set, which Python reports as SystemError.)"""
    return room() < 2 * RESERVE


def spent() -> bool:
    """Whether the budget is used up: a search that asks this stops as at a time limit."""
    return room() <= 0


__all__ = [
    "DEFAULT",
    "ENV",
    "MemoryBudgetError",
    "check_environment",
    "describe",
    "limit",
    "nearly_exhausted",
    "parse_size",
    "resident",
    "room",
    "set_limit",
    "spent",
]
