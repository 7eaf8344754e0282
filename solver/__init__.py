"""lobo-hint: rules engine, finisher and hint search for Lobo and Lobo: The Vanguard.

Importable without the CLI:

    from solver import load_position, hint, solve_finish
    result = hint(load_position("position.json"))
    print(result.best, result.value)
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from solver.core.cards import CardError, parse_member, parse_value
from solver.core.plays import FOLD, Play, PlayError, from_json, parse_play, parse_plays, to_text
from solver.core.position import Position, PositionError, Rules, load_position, parse_position
from solver.core.rules import (
    State,
    apply,
    apply_outcome,
    chance_outcomes,
    final_score,
    initial_state,
    legal_plays,
    why_illegal,
)

if TYPE_CHECKING:
    from solver.finish.finisher import Finish, solve_finish
    from solver.search.hint import HintResult, hint

# The finisher and the hint search load on first use, so `import solver.core.position` (and every
# command that needs no search) stays quick.
_LAZY = {
    "Finish": "solver.finish.finisher",
    "solve_finish": "solver.finish.finisher",
    "HintResult": "solver.search.hint",
    "hint": "solver.search.hint",
}


if not TYPE_CHECKING:  # hidden from mypy, so that it still checks every name imported from here

    def __getattr__(name: str) -> Any:
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        globals()[name] = value
        return value


__version__ = "0.1.0"

__all__ = [
    "FOLD",
    "CardError",
    "Finish",
    "HintResult",
    "Play",
    "PlayError",
    "Position",
    "PositionError",
    "Rules",
    "State",
    "__version__",
    "apply",
    "apply_outcome",
    "chance_outcomes",
    "final_score",
    "from_json",
    "hint",
    "initial_state",
    "legal_plays",
    "load_position",
    "parse_member",
    "parse_play",
    "parse_plays",
    "parse_position",
    "parse_value",
    "solve_finish",
    "to_text",
    "why_illegal",
]
