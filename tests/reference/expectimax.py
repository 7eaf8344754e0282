"""Reference expectimax over a whole round, with exact Fraction arithmetic (RULES.md §2-§6).

Plain and slow on purpose:
* the Player's decisions take the maximum over every legal play (from reference.legal);
* every draw is branched card by card: the known top cards first, in order, then each unseen
  value v with probability count(v) / (number of unseen cards), without replacement;
* with rules.top_card_visible, each time a draw uncovers a new top card of a non-empty pile,
  that card is revealed by a chance node (uniform over the unseen cards) before the next
  decision;
* memoization is keyed by the complete state, so it cannot change any value.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from .finish import finish_score, remove_cards
from .legal import MEMBER_ORDER, Play, Position, legal_plays

Value = Fraction | None  # None only for the "score" objective: no finish (lost)

TOP_VALUE = {"easy": 8, "standard": 9, "hard": 10}
COPIES = {"lobo": 5, "vanguard": 4}


@dataclass(frozen=True)
class State:
    """Everything that can change during a round.  Hands are sorted tuples of values."""

    hand: tuple[int, ...]
    reserve: tuple[int, ...]
    wolf: tuple[int, ...]
    party: tuple[str, ...]  # active members, in J, Q, K order
    sacrificed: int  # members sacrificed so far this round (for the "party" objective)
    top: tuple[int, ...]  # known top cards of the pile, top first
    size: int  # cards in the pile, known top included
    unseen: tuple[int, ...]  # unseen[v] = unseen copies of value v (index 0 unused)
    final: bool


def unseen_counts(pos: Position) -> tuple[int, ...]:
    """Deck minus player, wolf, reserve, discard and the known top cards, as counts by value."""
    top_value = TOP_VALUE[pos["difficulty"]]
    counts = [0] + [COPIES[pos["game"]]] * top_value + [0] * (10 - top_value)
    for group in (pos["player"], pos["wolf"], pos["reserve"], pos["discard"], pos["draw_pile"]["top"]):
        for v in group:
            counts[v] -= 1
            if counts[v] < 0:
                raise ValueError(f"too many copies of {v}")
    return tuple(counts)


class Round:
    """The constants of one analysis (game, objective, rules) and its memo tables."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.game: str = pos["game"]
        self.objective: str = pos["objective"]
        self.reserve_scores: bool = bool(pos["rules"]["reserve_scores"])
        self.top_visible: bool = bool(pos["rules"]["top_card_visible"])
        self.decision_memo: dict[State, Value] = {}
        self.settle_memo: dict[State, Value] = {}
        self.draw_memo: dict[tuple[State, str, int], Value] = {}

    # ---- state <-> position ----------------------------------------------------------------

    def initial_state(self) -> State:
        pos = self.pos
        size = pos["draw_pile"]["size"]
        # A vanguard round with an empty pile is final whatever the flag says.
        final = self.game == "vanguard" and (bool(pos["final"]) or size == 0)
        return State(
            hand=tuple(sorted(pos["player"])),
            reserve=tuple(sorted(pos["reserve"])),
            wolf=tuple(sorted(pos["wolf"])),
            party=tuple(m for m in MEMBER_ORDER if m in pos["party"]),
            sacrificed=0,
            top=tuple(pos["draw_pile"]["top"]),
            size=size,
            unseen=unseen_counts(pos),
            final=final,
        )

    def as_position(self, s: State) -> dict[str, Any]:
        """The state as a normalized position, so that legal_plays decides what is legal."""
        pos = dict(self.pos)
        pos.update(
            player=list(s.hand),
            reserve=list(s.reserve),
            wolf=list(s.wolf),
            party=list(s.party),
            draw_pile={"size": s.size, "top": list(s.top)},
            final=s.final,
        )
        return pos

    # ---- terminal values -------------------------------------------------------------------

    def win_value(self, s: State) -> Value:
        """The Wolf's hand is empty (s.hand already holds the card just drawn)."""
        if self.objective == "win":
            return Fraction(1)
        if self.objective == "party":
            # A regular-round win loses nobody; a final-round win loses the sacrificed members
            # (s.sacrificed is 0 unless the round was final).
            return Fraction(-s.sacrificed)
        if self.objective == "points":
            return Fraction(sum(s.hand))
        if self.objective == "score":
            return Fraction(finish_score(s.hand, s.reserve, len(s.party), self.reserve_scores))
        raise ValueError(f"unknown objective {self.objective!r}")

    def fold_value(self, s: State) -> Value:
        if self.objective == "win":
            return Fraction(0)
        if self.objective == "party":
            if s.final:
                # Every member active at the start of the round is lost.
                return Fraction(-(s.sacrificed + len(s.party)))
            return Fraction(-min(len(s.wolf), len(s.party)))
        if self.objective == "points":
            return Fraction(-sum(s.wolf))
        if self.objective == "score":
            return None  # a lost final round has no score
        raise ValueError(f"unknown objective {self.objective!r}")

    # ---- chance ----------------------------------------------------------------------------

    def next_cards(self, s: State) -> list[tuple[Fraction, int, State]]:
        """Distribution of the next card off the pile: (probability, value, state after)."""
        assert s.size >= 1
        if s.top:
            return [(Fraction(1), s.top[0], replace(s, top=s.top[1:], size=s.size - 1))]
        total = sum(s.unseen)
        assert total >= s.size  # the unknown part of the pile comes from the unseen cards
        outcomes = []
        for v in range(1, 11):
            if s.unseen[v] == 0:
                continue
            unseen = list(s.unseen)
            unseen[v] -= 1
            outcomes.append((Fraction(s.unseen[v], total), v, replace(s, unseen=tuple(unseen), size=s.size - 1)))
        return outcomes

    def draw(self, s: State, who: str, n: int) -> Value:
        """Value after `who` ("player" or "wolf") draws n cards one at a time, then settles."""
        if n == 0:
            return self.settle(s)
        key = (s, who, n)
        if key in self.draw_memo:
            return self.draw_memo[key]
        total: Fraction = Fraction(0)
        for p, v, after in self.next_cards(s):
            if who == "player":
                after = replace(after, hand=tuple(sorted((*after.hand, v))))
            else:
                after = replace(after, wolf=tuple(sorted((*after.wolf, v))))
            value = self.draw(after, who, n - 1)
            # Only the "score" objective can give None, and it never draws (final round).
            assert value is not None
            total += p * value
        self.draw_memo[key] = total
        return total

    def settle(self, s: State) -> Value:
        """After a play and its draw: check the win, the turn to final, the top-card reveal."""
        key = s
        if key in self.settle_memo:
            return self.settle_memo[key]
        if not s.wolf:
            result = self.win_value(s)
        else:
            if self.game == "vanguard" and s.size == 0 and not s.final:
                # The round turns final the moment the pile is empty.
                s = replace(s, final=True)
            if self.top_visible and s.size > 0 and not s.top:
                # A new top card is uncovered: the Player sees it before deciding.
                total: Fraction = Fraction(0)
                for p, v, _ in self.next_cards(s):
                    unseen = list(s.unseen)
                    unseen[v] -= 1
                    revealed = replace(s, top=(v,), unseen=tuple(unseen))
                    value = self.decision(revealed)
                    assert value is not None
                    total += p * value
                result = total
            else:
                result = self.decision(s)
        self.settle_memo[key] = result
        return result

    # ---- decisions -------------------------------------------------------------------------

    def play_value(self, s: State, play: Play) -> Value:
        """Value of making `play` in state s (s must be a decision state)."""
        kind = play["type"]
        if kind == "fold":
            return self.fold_value(s)

        hand = remove_cards(s.hand, play["hand"])
        reserve = remove_cards(s.reserve, play["reserve"])
        wolf = remove_cards(s.wolf, play["wolf"])
        assert hand is not None and reserve is not None and wolf is not None
        after = replace(s, hand=hand, reserve=reserve, wolf=wolf)

        if kind == "sacrifice":
            after = replace(after, party=tuple(m for m in s.party if m != play["member"]), sacrificed=s.sacrificed + 1)
            return self.settle(after)
        if kind in ("perfect", "sum"):
            # You draw 1 card; nothing in a final round or from an empty pile.
            n = 0 if (s.final or s.size == 0) else 1
            return self.draw(after, "player", n)
        if kind == "split":
            return self.draw(after, "wolf", 1)
        if kind == "over":
            mine = play["hand"] + play["reserve"]
            difference = mine[0] - play["wolf"][0]
            return self.draw(after, "wolf", difference)
        raise ValueError(f"unknown play type {kind!r}")

    def moves(self, s: State) -> list[tuple[Play, Value]]:
        return [(play, self.play_value(s, play)) for play in legal_plays(self.as_position(s))]

    def decision(self, s: State) -> Value:
        """The Player picks the best legal play (None = lost counts as worst)."""
        if s in self.decision_memo:
            return self.decision_memo[s]
        best: Value = None
        for _, value in self.moves(s):
            if value is not None and (best is None or value > best):
                best = value
        self.decision_memo[s] = best
        return best


def analyse(pos: Position) -> dict[str, Any]:
    """{"value": best value, "moves": [(play, value) for every legal play]} of a position."""
    if pos["objective"] == "score":
        final = pos["game"] == "vanguard" and (bool(pos["final"]) or pos["draw_pile"]["size"] == 0)
        if not final:
            raise ValueError("the score objective is for a vanguard final round only")
    round_ = Round(pos)
    start = round_.initial_state()
    moves = round_.moves(start)
    value: Value = None
    for _, v in moves:
        if v is not None and (value is None or v > value):
            value = v
    return {"value": value, "moves": moves}
