"""Writing an output file whole or not at all, for every command that writes one.

A temporary file beside the target (a name of its own, so two writers never share it), flushed
to disk, then renamed over the target: a crash or a full disk leaves the old file or the new one,
never half of one, and no temporary file behind. A symbolic link is written through (its
target is replaced, the link kept), and a path that is not a regular file (a device such as
/dev/full, a pipe, a folder) is refused: a rename would replace it with a file.
"""

from __future__ import annotations

import errno
import fcntl
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import IO


def write_whole(path: str | Path, data: str | bytes | Callable[[Path], None]) -> None:
    """Write `data` (text as UTF-8, bytes, or a function that writes the file it is given, as
    networkx and matplotlib do) to `path`, whole or not at all. OSError as the system says it;
    ValueError for a name with a NUL byte."""
    p = Path(os.path.realpath(path))
    if p.exists() and not p.is_file():
        raise OSError(errno.EINVAL, "not a regular file (a device, a pipe or a folder): name a file", str(path))
    tmp = p.with_name(f".{p.name}.{secrets.token_hex(4)}.part")
    # 0o666: the umask decides the mode, as for any file the user writes (mkstemp's would be 0600).
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            if callable(data):
                data(tmp)
            else:
                f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def repair_tail(path: str | Path) -> None:
    """Drop a torn last line (a run killed mid-write) so that records appended start clean. Cut
    in place: the file keeps its mode, owner and links."""
    p = Path(path)
    if not p.is_file() or p.stat().st_size == 0:
        return
    data = p.read_bytes()
    if data.endswith(b"\n"):
        return
    os.truncate(p, data.rfind(b"\n") + 1)


def regular_or_none(path: str | Path, what: str) -> None:
    """Refuse (ValueError) a path that exists and is not a regular file: a device or a pipe that a
    run would read forever (/dev/zero) or wait on, a folder."""
    p = Path(path)
    if p.exists() and not p.is_file():
        raise ValueError(f"{what}: {path} is not a regular file (a device, a pipe or a folder): name a file")


def append_locked(path: str | Path) -> IO[str]:
    """The file opened for appending, with an exclusive lock a second run asking for it cannot
    get (BlockingIOError): two runs resuming one file would interleave their records. A lone
    surrogate (a JSON escape, a file name's byte) is written as its escape."""
    f = open(path, "a", encoding="utf-8", errors="backslashreplace", newline="")  # noqa: SIM115 - the caller closes it
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BaseException:
        f.close()
        raise
    return f
