"""The status words, defined once: how a round or a game ended, what a hint proved, what the
finisher found, what became of a puzzle in a batch.

Each vocabulary is a StrEnum, so a member is its word: it compares equal to the plain string
(Outcome.WON == "won"), hashes like it, prints as it, and json.dumps writes it as the string, so
every JSON answer stays byte for byte what FORMAT.md says.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Outcome(StrEnum):
    """How a round ended (rules' State.outcome), and how a game ended (the game driver's result)."""

    WON = "won"
    LOST = "lost"


# The rules keep a round's outcome in their State as these plain strings, the members' words: a
# State's fields reach code that wants an exact str (networkx's GraphML writer refuses a str
# subclass as a node attribute, and the lookahead graph labels its end nodes by their outcome).
WON: Final[str] = Outcome.WON.value
LOST: Final[str] = Outcome.LOST.value


class HintStatus(StrEnum):
    """What a hint proved about the round in play (the answer's `status`)."""

    OPEN = "open"
    PROVEN_WON = "proven_won"
    PROVEN_LOST = "proven_lost"


class FinishStatus(StrEnum):
    """What the finisher found for a final round (a finish answer's `status`)."""

    WIN = "win"
    LOST = "lost"
    UNKNOWN = "unknown"  # the time limit cut the search short


class RecordStatus(StrEnum):
    """A batch record's status when it is not its answer's own (a finish's or a hint's)."""

    LISTED = "listed"  # moves: the legal plays listed
    CHECKED = "checked"  # check: a proposed finish judged
    INVALID = "invalid"  # the puzzle itself is wrong
    ERROR = "error"  # the solver failed on it


class Check(StrEnum):
    """A batch record's comparison with its puzzle's `expect` (`check`)."""

    MATCH = "match"
    MISMATCH = "mismatch"


class Grade(StrEnum):
    """How hard a puzzle is (a puzzle file's `grade`; solver/batch/grades.py says when)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
