"""Where the compiled search's machine code is cached, and whether it is there: read without
loading numba, so the engine can tell a load (under a second) from a first compile (some 20 s).

numba's cache knows only a function's own file, so a search compiled against an older kernel
would be loaded as it was: the cache is stamped with a digest of every source that goes into it
(solver/search/compiled.py clears it when they change).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_HERE = Path(__file__).parent
SOURCES = (
    _HERE.parent / "core" / "kernel.py",
    _HERE / "expectimax.py",
    _HERE / "hashtable.py",
    _HERE / "compiled.py",
    _HERE / "playouts.py",
    _HERE / "network.py",
    _HERE / "lookahead.py",
)
STAMP = "lobo-hint-compiled.stamp"


def digest() -> str:
    return hashlib.sha256(b"".join(p.read_bytes() for p in SOURCES)).hexdigest()


def folders() -> set[Path]:
    return {p.parent / "__pycache__" for p in SOURCES}


def stamped() -> bool:
    """Whether the cache folders are stamped for these very sources (so compiled code written
    there now is kept: a process that compiles beside another may count on it)."""
    try:
        want = digest()
        return all((folder / STAMP).read_text() == want for folder in folders())
    except OSError:
        return False


def ready() -> bool:
    """Whether machine code for these very sources is cached (its stamp current, an index file for
    every source the search compiles)."""
    return stamped() and all(any((p.parent / "__pycache__").glob(f"{p.stem}.*.nbi")) for p in SOURCES)
