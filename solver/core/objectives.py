"""Objectives: what the value of a position means (RULES.md §6), one object each.

An objective knows which games it fits, the range its values lie in, which shortcuts of the
search are sound for it, and its code for the search (solver/search/expectimax.py, where the value
of every end of a round is written once for every objective, in compiled-friendly form):

  win     the probability of winning the round: 1 for a won round, 0 for a lost one
  party   minus the party members this round costs (RULES.md §6)
  points  lobo: the Player's points minus the Wolf's this round
  score   a vanguard final round: the best finish's score (the finisher's; a round that is not
          final is valued by its win probability)
  game    both games: the chance to win the whole game (RULES.md §7): every end of the round is
          valued by what comes after it (the next deal, or lobo's race), exactly where the rest of
          the game can be searched, else by the evaluator (solver/search/evaluator.py)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.core.rules import State

# The search's codes (solver/search/expectimax.py).
WIN_CODE, PARTY_CODE, POINTS_CODE, GAME_CODE = 0, 1, 2, 3


@dataclass(frozen=True)
class Objective:
    name: str
    games: tuple[str, ...]
    code: int | None  # None: not searched by the expectimax (score: the finisher's)
    # Which of hand and reserve pays never changes a value: the search keeps them as one.
    merges_reserve: bool = False
    # The sure-loss tests (0) and the sure cover by Perfect and Sum (1) are values of this objective.
    sure_bounds: bool = False
    # Searched as this objective where it is not its own (score outside a final round: win).
    searched_as: str | None = None

    def fits(self, game: str) -> bool:
        return game in self.games

    def value_range(self, s: State) -> tuple[float, float]:
        """Bounds every value reachable from this state lies within."""
        if self.name == "party":
            return -float(len(s.party)), 0.0
        if self.name == "points":
            # What can still reach a hand: the pile's cards, its known top and as many unseen
            # cards as it holds besides, at most the largest (found by a review: with cards that
            # left the game unseen, every unseen card was counted, and a bias measured as a share
            # of the range moved an estimate by 17 points).
            unseen = sorted((v for v, n in enumerate(s.unseen, start=1) for _ in range(n)), reverse=True)
            everything = sum(unseen[: max(0, s.unknown_draws)]) + sum(s.pile_top)
            return -float(sum(s.wolf) + everything), float(sum(s.hand) + sum(s.reserve) + everything)
        return 0.0, 1.0


WIN = Objective("win", ("vanguard",), WIN_CODE, merges_reserve=True, sure_bounds=True)
PARTY = Objective("party", ("vanguard",), PARTY_CODE, merges_reserve=True)
POINTS = Objective("points", ("lobo",), POINTS_CODE)
SCORE = Objective("score", ("vanguard",), None, searched_as="win")
GAME = Objective("game", ("vanguard", "lobo"), GAME_CODE)

OBJECTIVES = {o.name: o for o in (GAME, WIN, PARTY, POINTS, SCORE)}


def objective(name: str) -> Objective:
    """The objective of this name (KeyError names the known ones)."""
    try:
        return OBJECTIVES[name]
    except KeyError:
        raise KeyError(f"{name!r} is not one of {', '.join(OBJECTIVES)}") from None


def searched(name: str) -> Objective:
    """The objective the search values a round that is not final by."""
    o = objective(name)
    return objective(o.searched_as) if o.searched_as else o


__all__ = ["GAME", "OBJECTIVES", "PARTY", "POINTS", "SCORE", "WIN", "Objective", "objective", "searched"]
