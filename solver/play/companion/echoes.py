"""What a refusal quotes of the input that it refuses: the first characters of a long echo, so
that the reason after it is still read (the terminal's companion and the web server alike)."""

from __future__ import annotations

MAX_ECHO = 80  # characters of the input a refusal quotes


def cut(text: str, keep: int = MAX_ECHO) -> str:
    """An input as a refusal quotes it: its first `keep` characters and "…" when it is longer."""
    return text if len(text) <= keep else text[:keep] + "…"


def cut_echoes(message: str, line: str, keep: int = MAX_ECHO) -> str:
    """A refusal with every long stretch of it that repeats the caller's line (as typed, with its
    spaces collapsed, or without them, as a play is quoted) cut to its first `keep` characters and
    "…", so that the reason after an echo is still read. The line is at most a few thousand characters long."""
    sources = (line, " ".join(line.split()), "".join(line.split()))

    def echoed(part: str) -> bool:
        return any(part in s for s in sources)

    out: list[str] = []
    i = 0
    while i < len(message):
        if len(message) - i > keep and echoed(message[i : i + keep + 1]):
            lo, hi = i + keep + 1, len(message)  # the longest echo from i: a binary search
            while lo < hi:
                mid = (lo + hi + 1) // 2
                lo, hi = (mid, hi) if echoed(message[i:mid]) else (lo, mid - 1)
            out.append(message[i : i + keep] + "…")
            i = lo
        else:
            out.append(message[i])
            i += 1
    return "".join(out)


__all__ = ["MAX_ECHO", "cut", "cut_echoes"]
