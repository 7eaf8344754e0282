"""How hard a puzzle is: one rule for `lobo-hint generate` (solver/batch/generate.py) and the
shipped collection (puzzles/build.py), so that a grade means the same wherever it is read.

* A hint: *easy* when several plays are equally best; *medium* when one is; *hard* when one is,
  less than 0.1 ahead of the next.
* A finish: *easy* with more than three other best finishes; *medium* with one to three; *hard*
  when the best finish is the only one, against three Wolf cards or more. A round that cannot be
  finished: *hard* when the proof needs three Wolf cards or more (no one or two cards show it),
  else *medium*.
"""

from __future__ import annotations

from fractions import Fraction

from solver.core.status import Grade

NARROW = Fraction(1, 10)  # a best play ahead by less than this is hard to tell from the next
TIE = 1e-9  # values nearer than this are equal (float sums: 1 − 0.9 is a hair under 0.1)
GRADES = tuple(g.value for g in Grade)


def hint_grade(best_plays: int, gap: float | Fraction) -> str:
    """gap: the best value less the next distinct one (1 where every play is worth the same)."""
    if best_plays != 1:
        return "easy"
    return "hard" if gap < NARROW - Fraction(TIE) else "medium"


def finish_grade(wolf_cards: int, other_best: int) -> str:
    """A finish that exists: other_best, the best finishes besides the one found."""
    if other_best == 0 and wolf_cards >= 3:
        return "hard"
    return "medium" if other_best <= 3 else "easy"


def lost_grade(core_cards: int) -> str:
    """A round that cannot be finished, by the size of its proof (a minimal set the cards cannot cover)."""
    return "hard" if core_cards >= 3 else "medium"


__all__ = ["GRADES", "NARROW", "finish_grade", "hint_grade", "lost_grade"]
