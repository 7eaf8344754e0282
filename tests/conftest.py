from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

# A copy of ../shared/examples (the contract's worked answers), so the suite needs nothing outside the repo.
EXAMPLES = ROOT / "tests" / "examples"


def examples(kind: str) -> list[Path]:
    found = sorted((EXAMPLES / kind).glob("*.json"))
    assert found, f"no examples of kind {kind} in {EXAMPLES}"
    return found


def state(**raw: Any) -> Any:
    """The initial state of a position given as keyword arguments (FORMAT.md keys)."""
    from solver.position import parse_position
    from solver.rules import initial_state

    return initial_state(parse_position(raw))


def play_texts(s: Any) -> set[str]:
    from solver.rules import legal_plays

    return {str(p) for p in legal_plays(s)}
