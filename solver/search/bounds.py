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

Under `game` a lost round is worth 0 when it takes the last member (kernel.loss_takes_all): with
one member active, or when Ψ plus what Splits can add is at most -active. The Wolf then holds
K = P + n - Ψ >= active cards until the round ends (sacrifices, the one other way Ψ grows, come
only in a final round, whose loss loses the game anyway), so every loss turns the whole party
face down; there a round these tests prove lost is valued 0 without a search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import kernel

if TYPE_CHECKING:
    from solver.core.rules import State


def sure_loss(s: State) -> bool:
    """True only when no order of the pile and no line of play wins this vanguard round: the two
    arguments above, as the kernel tests them (kernel.sure_loss: the search uses the same test)."""
    from solver.core.rules import vector

    return bool(kernel.sure_loss(vector(s)))


def dead_end(s: State) -> bool:
    """A vanguard decision before the final round that is lost: only Fold is legal, or the count
    argument holds one play ahead (kernel.dead_end)."""
    from solver.core.rules import vector

    return bool(kernel.dead_end(vector(s)))


def split_gain(wolf: tuple[int, ...], known: tuple[int, ...], unseen: tuple[int, ...], left: int) -> int:
    """The most that Splits into four or more cards can still add to Ψ (kernel.split_gain): the
    Wolf's cards, the known top cards and the unseen ones are what a Split can take."""
    st = [0] * kernel.STATE
    for v in wolf:
        st[kernel.WOLF + v - 1] += 1
    st[kernel.UNSEEN : kernel.UNSEEN + len(unseen)] = unseen
    st[kernel.NTOP] = len(known)
    st[kernel.TOPS : kernel.TOPS + len(known)] = known
    st[kernel.TOPV] = len(unseen)
    return int(kernel.split_gain(st, left))
