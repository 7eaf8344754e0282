"""The project's own bytecode, written where Python keeps it when Python may not write it itself.

With PYTHONDONTWRITEBYTECODE set (containers often set it), an editable install never gets the
bytecode of its own modules, and every command compiles them from source again: some 0.07 s of
each start, which a 2 s answer's search loses (bench/README.md, session 25). A command writes the
bytecode of the project's modules it loaded and found without it, once, after its answer is out;
numba keeps the compiled search beside the same sources the same way. An installed copy (pip
compiles it) and a read-only one have nothing to write.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

PACKAGES = ("cli", "solver", "web")
ROOT = Path(__file__).resolve().parent.parent  # the folder that holds these packages


def missing(packages: Iterable[str] = PACKAGES, root: Path = ROOT) -> list[tuple[str, str]]:
    """(source, bytecode file) of every loaded module of these packages, under root, whose
    bytecode file is not there."""
    wanted = set(packages)
    out = []
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] not in wanted:
            continue
        spec = getattr(module, "__spec__", None)
        origin, cached = getattr(spec, "origin", None), getattr(spec, "cached", None)
        if not (isinstance(origin, str) and isinstance(cached, str) and origin.endswith(".py")):
            continue
        try:
            ours = root in Path(origin).resolve().parents
        except (OSError, RuntimeError, ValueError):  # a path that cannot be resolved is not one to write
            continue
        if ours and not os.path.exists(cached) and (origin, cached) not in out:
            out.append((origin, cached))
    return out


def keep_bytecode(packages: Iterable[str] = PACKAGES, root: Path = ROOT) -> int:
    """Write the missing bytecode when Python was told not to (else it wrote it at import);
    how many files were written. A folder that cannot be written stops it at the first file."""
    if not sys.dont_write_bytecode:
        return 0
    todo = missing(packages, root)
    if not todo:
        return 0
    import py_compile  # only when there is something to write

    written = 0
    for source, cached in todo:
        try:
            py_compile.compile(source, cfile=cached, doraise=True)
        except OSError:
            break  # a read-only install: the rest would fail the same way
        except (ValueError, py_compile.PyCompileError):
            continue
        written += 1
    return written
