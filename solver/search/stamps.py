"""Layout stamps of the data the search ships (evaluator tables, rollout weights, the rollouts'
bias): each file records the layout it was made for, and the search refuses a file made for
another rather than read its numbers from the wrong places."""

from __future__ import annotations

from typing import Any


def differs(stamp: Any, layout: dict[str, Any]) -> str | None:
    """What in a file's layout stamp differs from the layout the code reads (None: it fits)."""
    if not isinstance(stamp, dict):
        return "it has no layout stamp"
    wrong = [f"{k} {stamp.get(k)!r}, not {v!r}" for k, v in layout.items() if stamp.get(k) != v]
    return "; ".join(wrong) if wrong else None


__all__ = ["differs"]
