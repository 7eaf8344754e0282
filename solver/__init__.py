"""lobo-hint: rules engine, finisher and hint search for Lobo and Lobo: The Vanguard.

Importable without the CLI:

    from solver import load_position, hint, solve_finish
    result = hint(load_position("position.json"))
    print(result.best, result.value)
"""

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .cards import CardError, parse_member, parse_value
from .plays import FOLD, Play, PlayError, from_json, parse_play, parse_plays, to_text
from .position import Position, PositionError, Rules, load_position, parse_position
from .rules import (
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
    from .finish import Finish, solve_finish
    from .hint import HintResult, hint

# The finisher and the hint search load on first use, so `import solver.position` (and every
# command that needs no search) stays quick.
_LAZY = {"Finish": "finish", "solve_finish": "finish", "HintResult": "hint", "hint": "hint"}


if not TYPE_CHECKING:  # hidden from mypy, so that it still checks every name imported from here

    def __getattr__(name: str) -> Any:
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(import_module(f".{module}", __name__), name)
        globals()[name] = value
        return value


class _Package(ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        # Importing the submodule solver.hint sets the package's attribute `hint` to that module;
        # `solver.hint` has always been the function (the eager import rebound it), so keep it so.
        if name == "hint" and isinstance(value, ModuleType):
            value = value.hint
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

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
