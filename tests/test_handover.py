"""The engine chosen by the work (issue 24): a small search runs plain; one that outgrows
engine.HANDOVER states starts again compiled, so a round with few unknown cards but many states is
exact in the default answer. Each case runs in a fresh interpreter, where nothing compiled is
loaded yet; its values are the plain search's, searched to the end apart."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from conftest import ROOT
from solver.core.plays import to_text
from solver.core.position import parse_position
from solver.search import machine_code
from solver.search.hint import hint

# lobo, 7 cards in the pile: some 33,000 states (1.3 s plain, 0.05 s compiled).
BIG = {
    "game": "lobo",
    "player": [5, 1, 3, 1],
    "wolf": [8, 7, 2, 2],
    "discard": [1, 1, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8],
    "draw_pile": {"size": 7},
    "objective": "points",
}
# lobo, 6 cards in the pile: under 3,000 states, answered plain.
SMALL = {
    "game": "lobo",
    "player": [2, 3, 4, 1],
    "wolf": [6, 7, 6, 8],
    "discard": [1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 7, 7, 8, 8, 8],
    "draw_pile": {"size": 6},
    "objective": "points",
}
FRESH = """
import json, sys
from solver.core.position import parse_position
from solver.core.plays import to_text
from solver.search.hint import hint
r = hint(parse_position(json.loads(sys.argv[1])), time_limit=float(sys.argv[2]))
print(json.dumps({"exact": r.exact, "values": {to_text(m.play): m.value for m in r.moves},
                  "compiled": "solver.search.compiled" in sys.modules}))
"""


def _fresh(position: dict[str, Any], limit: float) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", FRESH, json.dumps(position), str(limit)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        env={k: v for k, v in os.environ.items() if k != "LOBO_HINT_ENGINE"},
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


@pytest.fixture(scope="module")
def cached() -> None:
    from solver.search.compiled import warm_up

    warm_up()  # the machine code cached (a first compile on a fresh clone)
    assert machine_code.ready()


def _plain(position: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> dict[str, float | None]:
    monkeypatch.setenv("LOBO_HINT_ENGINE", "python")
    r = hint(parse_position(position))
    assert r.exact
    return {to_text(m.play): m.value for m in r.moves}


@pytest.mark.usefixtures("cached")
def test_a_plain_search_that_outgrows_its_states_hands_over_and_is_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    got = _fresh(BIG, 2.0)
    assert got["exact"] and got["compiled"]
    want = _plain(BIG, monkeypatch)
    assert got["values"].keys() == want.keys()
    for play, v in want.items():
        assert v is not None and got["values"][play] == pytest.approx(v, abs=1e-9), play


@pytest.mark.usefixtures("cached")
def test_a_small_search_stays_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    got = _fresh(SMALL, 2.0)
    assert got["exact"] and not got["compiled"]
    want = _plain(SMALL, monkeypatch)
    assert got["values"] == pytest.approx(want, abs=1e-9)
