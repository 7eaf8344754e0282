"""lobo-hint: rules engine, finisher and hint search for Lobo and Lobo: The Vanguard.

Importable without the CLI:

    from solver import load_position, hint, solve_finish
    result = hint(load_position("position.json"))
    print(result.best, result.value)
"""

from .cards import CardError, parse_member, parse_value
from .finish import Finish, solve_finish
from .hint import HintResult, hint
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
