from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

# A copy of ../shared/examples (the contract's worked answers), so the suite needs nothing outside the repo.
EXAMPLES = ROOT / "tests" / "examples"


def examples(kind: str) -> list[Path]:
    found = sorted((EXAMPLES / kind).glob("*.json"))
    assert found, f"no examples of kind {kind} in {EXAMPLES}"
    return found


@pytest.fixture
def state_of() -> Any:
    from solver.position import parse_position
    from solver.rules import initial_state

    return lambda raw: initial_state(parse_position(raw))
