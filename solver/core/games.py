"""The two games, lobo and vanguard, as one `Game` each: what the rest of the code asks instead of
comparing the game's name (issue 14).

A position, a rules State and a game's Setup keep the game as its name (the JSON form, FORMAT.md);
`game(name)` is the Game of that name. A Game holds what differs between the games and nothing
of a round in play: the deck, the plays and pieces it has, what a position is valued by, how a
finished round scores and what ends the game (RULES.md §1, §3, §4, §6). The rules themselves stay
in kernel.py (rules.py and rounds.py are their Python faces), which read the Game's capabilities
(`ruleset`) and never its name.

    g = game(pos.game)
    if g.has_party: ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from solver.core import kernel
from solver.core.cards import top_value
from solver.core.objectives import OBJECTIVES

# lobo: the first side to this many points wins (RULES.md §3); a game's Setup may change it.
LOBO_TARGET: Final = 100


@dataclass(frozen=True)
class Game:
    """One game's rules, as far as they differ from the other's."""

    name: str
    """The game's name in positions, setups and answers: "vanguard" or "lobo"."""
    title: str
    """Its name for people, in a title bar: "Lobo: The Vanguard", "Lobo"."""
    label: str
    """Its name in one word, for a narrow title: "Vanguard", "Lobo"."""
    copies: int
    """Copies of each value 1..top in the deck (RULES.md §1): 4 (vanguard), 5 (lobo)."""
    has_party: bool
    """A party of three members (J, Q, K of spades, never in the pile) that a lost regular round
    turns face down; the whole party face down loses the game (vanguard, RULES.md §4)."""
    has_reserve: bool
    """A reserve of cards kept across rounds and usable in any play (vanguard)."""
    has_final_round: bool
    """A final round (a short or empty pile) in which Split and Over are illegal and nothing is
    drawn; it ends the game: won, the game is won with a score; lost, the game is lost (vanguard)."""
    has_sacrifices: bool
    """Sacrifice is a play (a party member on a Wolf card, in the final round; vanguard)."""
    has_rewards: bool
    """A won regular round gives one reward: a hand card to the reserve, or a member revived
    (vanguard, RULES.md §4)."""
    reshuffles: bool
    """When the pile cannot deal a round, the discards are shuffled back into it (lobo, RULES.md §3
    ruling). In vanguard a short pile makes the final round instead."""
    target: int | None
    """A race: the first side to reach this many points wins the game, and every finished round
    scores points (lobo: 100, RULES.md §3). None: the game is not a race (vanguard)."""
    win_probability: bool
    """Hint answers give the probability of winning the round, on the answer and on every play,
    whatever the objective (FORMAT.md: vanguard; lobo's answers leave it out)."""
    objective: str
    """The objective a position is valued by when it names none, outside a final round (RULES.md §6)."""
    final_objective: str | None
    """The default objective of a final round; None for a game without one."""

    @property
    def ruleset(self) -> int:
        """The game's capabilities as the rules kernel reads them from a state vector
        (kernel.RULESET): the kernel branches on these, never on the game's name."""
        return (
            (kernel.FINAL_ROUND if self.has_final_round else 0)
            | (kernel.SACRIFICES if self.has_sacrifices else 0)
            | (kernel.PARTY_FALLS if self.has_party else 0)
            | (kernel.RACE if self.is_race else 0)
        )

    @property
    def rulings(self) -> tuple[str, ...]:
        """The rulings a position's `rules` may change (FORMAT.md) that mean something in this game:
        final_threshold and reserve_scores speak of the final round, which lobo has not."""
        final = ("final_threshold", "reserve_scores") if self.has_final_round else ()
        return ("hand_size", *final, "top_card_visible")

    @property
    def is_race(self) -> bool:
        """Whether the game is a race to a target score (lobo)."""
        return self.target is not None

    @property
    def objectives(self) -> tuple[str, ...]:
        """The objectives that fit the game (RULES.md §6), as solver/core/objectives.py says, in its order."""
        return tuple(name for name, o in OBJECTIVES.items() if o.fits(self.name))

    def allows(self, objective: str) -> bool:
        return objective in self.objectives

    def default_objective(self, final: bool) -> str:
        """The objective of a position that names none: a final round's, or a regular round's."""
        if final and self.final_objective is not None:
            return self.final_objective
        return self.objective

    def deck_counts(self, difficulty: str) -> tuple[int, ...]:
        """Copies of each value 1..top in the draw deck (index 0 is the Ace); the party is not in it."""
        return (self.copies,) * top_value(difficulty)

    def deck_size(self, difficulty: str) -> int:
        return self.copies * top_value(difficulty)


VANGUARD: Final = Game(
    name="vanguard",
    title="Lobo: The Vanguard",
    label="Vanguard",
    copies=4,
    has_party=True,
    has_reserve=True,
    has_final_round=True,
    has_sacrifices=True,
    has_rewards=True,
    reshuffles=False,
    target=None,
    win_probability=True,
    objective="game",
    final_objective="score",
)

LOBO: Final = Game(
    name="lobo",
    title="Lobo",
    label="Lobo",
    copies=5,
    has_party=False,
    has_reserve=False,
    has_final_round=False,
    has_sacrifices=False,
    has_rewards=False,
    reshuffles=True,
    target=LOBO_TARGET,
    win_probability=False,
    objective="game",
    final_objective=None,
)

_BY_NAME: Final = {g.name: g for g in (VANGUARD, LOBO)}
GAMES: Final = tuple(_BY_NAME)  # the names, "vanguard" first (the default game)


def game(name: str) -> Game:
    """The game of this name (KeyError names the known ones)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"{name!r} is not one of {', '.join(GAMES)}") from None


__all__ = ["GAMES", "LOBO", "LOBO_TARGET", "VANGUARD", "Game", "game"]
