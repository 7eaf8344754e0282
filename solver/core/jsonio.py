"""Reading JSON input: one `loads` for positions, puzzle files, .jsonl lines and railway files.

Python refuses to turn an integer literal of more than 4,300 digits into an int (a guard against
quadratic conversion), and `json.loads` raises that as a bare ValueError; printing such an int in
an error message raises it again. No count or card of this project needs more than a few digits,
so a long integer literal is kept as a `HugeNumber` holding its text: the validators refuse it like
any other bad value, naming the key and index, and print it shortened.
"""

from __future__ import annotations

import json
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
    """`json.loads`, with integer literals of more than MAX_DIGITS digits read as HugeNumber."""
    return json.loads(text, parse_int=_int, **kwargs)


def shown(value: object) -> str:
    """A JSON value for an error message: its JSON text, a HugeNumber shortened."""
    if isinstance(value, HugeNumber):
        return str(value)
    return json.dumps(value, ensure_ascii=False, default=str)
