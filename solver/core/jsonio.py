"""Reading JSON input: one `loads` for positions, puzzle files, .jsonl lines and railway files.

Python refuses to turn an integer literal of more than 4,300 digits into an int (a guard against
quadratic conversion), and `json.loads` raises that as a bare ValueError; printing such an int in
an error message raises it again. No count or card of this project needs more than a few digits,
so a long integer literal is kept as a `HugeNumber` holding its text: the validators refuse it like
any other bad value, naming the key and index, and print it shortened.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

# Far above any card, count or id a position holds, far below the interpreter's 4,300-digit limit.
MAX_DIGITS = 30


class HugeNumber:
    """A JSON integer literal too long to be a number of this project; its text is kept."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    @property
    def negative(self) -> bool:
        return self.text.startswith("-")

    def __str__(self) -> str:
        digits = self.text.lstrip("-")
        return f"{'-' if self.negative else ''}{digits[:8]}… ({len(digits)} digits)"

    __repr__ = __str__


def _int(text: str) -> int | HugeNumber:
    if len(text) - text.startswith("-") > MAX_DIGITS:
        return HugeNumber(text)
    return int(text)


def loads(text: str, **kwargs: Any) -> Any:
    """`json.loads`, with integer literals of more than MAX_DIGITS digits read as HugeNumber, and a
    key repeated in one object refused (json.JSONDecodeError at its second place): of two values
    for one key, the file would otherwise mean the last one without a word. A caller with its own
    object_pairs_hook (the railway's decks, which name the key) deals with repeats itself."""
    if "object_pairs_hook" in kwargs:
        return json.loads(text, parse_int=_int, **kwargs)
    repeated: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for k, v in items:
            if k in obj:
                repeated.append(k)
            obj[k] = v
        return obj

    data = json.loads(text, parse_int=_int, object_pairs_hook=pairs, **kwargs)
    if repeated:
        quoted = json.dumps(repeated[0], ensure_ascii=False)
        second = text.find(quoted, text.find(quoted) + 1)
        raise json.JSONDecodeError(f"the key {quoted} appears twice in one object", text, max(0, second))
    return data


def shown(value: object) -> str:
    """A JSON value for an error message: its JSON text, a HugeNumber shortened."""
    if isinstance(value, HugeNumber):
        return str(value)
    return json.dumps(value, ensure_ascii=False, default=str)


MAX_FILE = 20 * 1024**2  # bytes: a position, a deck or a saved game is kilobytes
STDIN = "-"  # a file named so is the standard input


class Unreadable(Exception):
    """An input file that cannot be read as text, and why (in words for a one-line error)."""


def read_text(path: str | Path, limit: int = MAX_FILE) -> str:
    """A small input file's UTF-8 text, or Unreadable: a name with a NUL byte, no such file, not a
    regular file (a FIFO would block, a device never end), larger than `limit`, not UTF-8. A UTF-8
    byte-order mark at the start is dropped."""
    if not os.fspath(path):  # Path("") is ".": refused before it becomes the current folder
        raise Unreadable("the file name is empty")
    if os.fspath(path) == STDIN:
        return _stdin_text(limit)
    try:
        # Opened without blocking, so a FIFO with no writer is refused instead of waited on.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except ValueError:  # a NUL byte in the path
        raise Unreadable("the name holds a NUL byte") from None
    except OSError as e:
        raise Unreadable(e.strerror or str(e)) from None
    try:
        with open(fd, "rb", buffering=0) as f:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise Unreadable("a folder" if stat.S_ISDIR(mode) else "not a regular file")
            data = f.read(limit + 1)
    except OSError as e:
        raise Unreadable(e.strerror or str(e)) from None
    if len(data) > limit:
        raise Unreadable(f"larger than {limit // 1024**2} MB")
    try:
        return data.decode("utf-8-sig")  # a byte-order mark (Notepad writes one) is no content
    except UnicodeDecodeError as e:
        raise Unreadable(f"not UTF-8 text (byte {e.start})") from None


def _stdin_text(limit: int) -> str:
    """`-` for a file: the standard input's text (found by a review: `lobo-hint -` was "no such
    file"); not a terminal's, which would wait for typing without a word."""
    if sys.stdin is None or sys.stdin.isatty():
        raise Unreadable(
            "- reads the position from the standard input: pipe or redirect one in (lobo-hint - < pos.json)"
        )
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise Unreadable(f"larger than {limit // 1024**2} MB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise Unreadable(f"not UTF-8 text (byte {e.start})") from None


def shown_path(path: str | Path) -> str:
    """A path as text that can be written anywhere: bytes of a file name that are not UTF-8 shown
    as \\xff escapes (the name given to open() may hold them; a JSON record or a terminal may not)."""
    text = os.fsencode(path).decode("utf-8", "backslashreplace")
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)  # a NUL, a newline: escaped
    return shown or "''"


def jsonl_text(data: bytes, n: int) -> str:
    """Line n (from 1) of a JSON Lines file as text to parse: UTF-8 (UnicodeDecodeError if not),
    an editor's byte-order mark on line 1 dropped, and without its line ending, so that an error
    at its end is said at its own column (found by a review: a line cut short was "at column 1",
    the next line's)."""
    return data.decode("utf-8-sig" if n == 1 else "utf-8").rstrip("\r\n")


def json_error(e: json.JSONDecodeError, line: bool = True) -> str:
    """What is wrong with some JSON and where, for people: "Expecting ',' delimiter at line 3
    column 7" (`line`: the line number too). Python's own message may end in "at" already
    ("Unterminated string starting at"): said once (found by a review: "at at"). No text at all
    is said as such."""
    if not e.doc.strip():
        return "it is empty"
    where = f"line {e.lineno} column {e.colno}" if line else f"column {e.colno}"
    return f"{e.msg.removesuffix(' at')} at {where}"
