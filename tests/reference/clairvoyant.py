"""Brute force for the clairvoyant policy (solver/play/clairvoyant.py): can a game be won at all,
from a deck whose order is known?

Unlike the other modules here, this one drives the project's own game driver (solver/play/driver.py:
`advance`, `SeededDeck.next_step`) and its rules (`legal_plays`, `rewards`): what it checks is the
clairvoyant's search (its memory, its shortcuts, its chaining of rounds), not the rules, which the
other references check. So it is as plain as a search can be: every legal play and every reward
is tried, one after the other, by plain recursion, with no memory, no pruning, no shortcut in the
final round (every play of it is tried too), until the game is over.

`can_win(table, deck)` is True when some choice of plays and rewards wins the game from `table`.
For lobo, `max_reshuffles` cuts the search: a game that needs more reshuffles than that counts as
lost, and `Search.cut` says whether that ever happened (a result with no cut is the whole game's).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.rounds import rewards
from solver.core.rules import legal_plays
from solver.play.driver import PLAY, REWARD, Move, SeededDeck, Table, Take, advance


@dataclass
class Search:
    deck: SeededDeck
    max_reshuffles: int | None = None
    cut: bool = False
    nodes: int = 0

    def can_win(self, t: Table) -> bool:
        self.nodes += 1
        if t.over:
            return t.result == "won"
        if self.max_reshuffles is not None and t.reshuffles > self.max_reshuffles:
            self.cut = True
            return False
        step = self.deck.next_step(t)  # a deal, a draw or a reshuffle: the deck's, never a choice
        if step is not None:
            return self.can_win(advance(t, step))
        assert t.round is not None
        if t.phase == PLAY:
            return any(self.can_win(advance(t, Move(play))) for play in legal_plays(t.round))
        assert t.phase == REWARD
        return any(self.can_win(advance(t, Take(reward))) for reward in rewards(t.round.hand, t.round.party))


def can_win(t: Table, deck: SeededDeck, max_reshuffles: int | None = None) -> bool:
    """Whether the game can be won from table t when the order of the deck is known."""
    return Search(deck, max_reshuffles).can_win(t)
