"""Cheap, sound tests that a vanguard round can no longer be won, whatever the pile holds.

The hint search spends most of its states on positions whose win probability is exactly 0 (big
Wolf hands after an Over, a Player with nothing left). These tests read such a position off a
few counts, so the search can give it the value 0 without expanding it.

The count argument. Let P be the Player's cards (hand + reserve, counting a draw already owed to
the Player), K the Wolf's (counting its owed draws) and n the cards left in the pile after the
owed draws. Every play before the final round takes at least one card off the pile, and:

    play                        P        K          n      P - K + n
    Perfect (pile not empty)    -1+1     -1         -1     0
    Sum of k >= 2 cards         -k+1     -1         -1     -(k - 1)
    Split into k >= 2 cards     -1       -k+1       -1     k - 3
    Over by d                   -1       -1+d       -d     -2d
    final: Perfect / Sum of k   -k       -1         0      -(k - 1)
    final: Sacrifice            0        -1         0      +1 (at most active - 1 of them)

So Ψ = P - K + n never grows, except through Splits into four or more Wolf cards and through
sacrifices. A won round ends with K = 0, that is with Ψ = P + n >= 0. Hence a position with
Ψ + (most a Split can add) + (active - 1) < 0 is lost against every order of the pile.

The value argument. The Player's card values minus the Wolf's, V = ΣP - ΣK, changes by the value
a Perfect or Sum draws (at most the n highest values still unseen, in all), falls with every
Wolf draw and every Over, and rises by the value of each sacrificed card; a won round ends with
V >= 0. Hence V + (the n highest unseen values) + (the active - 1 highest values the Wolf can
ever hold) < 0 is lost too.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.core.rules import State


def sure_loss(s: State) -> bool:
    """True only when no order of the pile and no line of play wins this vanguard round."""
    if s.game != "vanguard" or s.outcome is not None:
        return False
    player = len(s.hand) + len(s.reserve) + s.owed_player
    wolf = len(s.wolf) + s.owed_wolf
    left = s.pile_size - s.owed_player - s.owed_wolf
    sacrifices = max(0, len(s.party) - 1)
    if player == 0 and left > 0 and not s.final:
        # No card to play and the round is not final: the Player can only fold.
        return True
    psi = player - wolf + left + sacrifices
    if psi < 0 and psi + (split_gain(s.wolf, s.pile_top, s.unseen, left) if left > 0 else 0) < 0:
        return True
    return value_short(s, left, sacrifices)


def split_gain(wolf: tuple[int, ...], known: tuple[int, ...], unseen: tuple[int, ...], left: int) -> int:
    """The most that Splits into four or more cards can still add to Ψ.

    A Split into k cards adds k - 3, uses one of the n draws left, and its k Wolf cards add up to
    the Player's card, at most the top value. With g such Splits, their cards number at most the
    count of the smallest values (among every card the Wolf holds or may yet draw) that fit
    within g × top, so they add at most that count - 3g."""
    return _split_gain(tuple(sorted(wolf + known)), unseen, left)


@lru_cache(maxsize=1 << 14)
def _split_gain(wolf: tuple[int, ...], unseen: tuple[int, ...], left: int) -> int:
    top = len(unseen)
    pool = sorted(wolf + tuple(v for v, k in enumerate(unseen, start=1) for _ in range(k)))
    sums = list(accumulate(pool))
    best = 0
    for g in range(1, left + 1):
        fits = sum(1 for x in sums if x <= g * top)
        if fits < 4 * g:
            break
        best = max(best, fits - 3 * g)
    return best


def value_short(s: State, left: int, sacrifices: int) -> bool:
    """The value argument of the module's docstring."""
    v = sum(s.hand) + sum(s.reserve) - sum(s.wolf)
    if v >= 0:
        return False
    draws = max(0, left) + s.owed_player
    high = _highest(s.pile_top, s.unseen, draws) if draws else 0
    if s.owed_wolf == 0 and left <= 0:
        # Nothing more will come to the Wolf: it can only sacrifice cards it holds now (sorted).
        sac = sum(s.wolf[len(s.wolf) - sacrifices :]) if sacrifices else 0
    else:
        sac = sacrifices * len(s.unseen)
    return v + high + sac < 0


@lru_cache(maxsize=1 << 14)
def _highest(known: tuple[int, ...], unseen: tuple[int, ...], k: int) -> int:
    pool = sorted((*known, *(v for v, c in enumerate(unseen, start=1) for _ in range(c))), reverse=True)
    return sum(pool[:k])
