"""Reference value of the whole vanguard game (objective `game`, RULES.md §7), exact, with Fractions.

Only for positions where the rest of the game can be searched to its end: a vanguard round that
is final already, or a regular round whose pile holds at most 2 x hand_size + final_threshold
cards. The pile only shrinks, so the next deal (dealing at most 2 x hand_size cards) leaves
final_threshold cards or fewer and starts the final round; nothing after it is ever drawn.

Plain on purpose:
* this round is the reference expectimax of expectimax.py (every play from legal.py, every draw
  branched card by card, the top card revealed when the pile is face up), with only the two
  ends of a round valued differently: a win or a fold is worth the probability of winning the
  game from there, not 1 or 0;
* a regular round's end leads to the next deal, branched card by card in the order the cards
  are dealt (known top cards first, in order, then each unseen value by its count);
* the dealt final round is won iff every Wolf card can be covered (finish.coverable, §4);
* every memo is keyed by everything the value depends on.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from .expectimax import Round, State, analyse
from .finish import coverable
from .legal import MEMBER_ORDER, Play, PlayKey, Position, play_key

__all__ = ["OutOfScope", "game_values", "in_scope", "play_key", "round_win_values"]

PARTY_SIZE = 3  # Jack, Queen and King of Spades

Hands = tuple[tuple[int, ...], tuple[int, ...]]  # (Player's dealt hand, Wolf's dealt hand), sorted


class OutOfScope(ValueError):
    """The rest of the game cannot be searched exactly by this reference."""


def _final_now(pos: Position) -> bool:
    """A vanguard round is final when flagged so or when its pile is empty (FORMAT.md `final`)."""
    return bool(pos["final"]) or pos["draw_pile"]["size"] == 0


def scope_error(pos: Position) -> str | None:
    """Why the position is out of this reference's scope, or None when it is in scope."""
    if pos["game"] != "vanguard":
        return f"game {pos['game']!r}: only vanguard is searched exactly to the end of the game"
    if pos.get("phase", "play") != "play":
        return f"phase {pos['phase']!r}: only a position in the middle of a round's plays"
    if _final_now(pos):
        return None
    size = pos["draw_pile"]["size"]
    hand_size = pos["rules"]["hand_size"]
    threshold = pos["rules"]["final_threshold"]
    if size > 2 * hand_size + threshold:
        return (
            f"draw pile of {size} cards: the next deal is surely final only when the pile holds at most "
            f"2 x hand_size + final_threshold = {2 * hand_size + threshold}"
        )
    return None


def in_scope(pos: Position) -> bool:
    return scope_error(pos) is None


# ---- the next deal ---------------------------------------------------------------------------


def deal_seats(size: int, hand_size: int) -> list[str]:
    """Who gets each card off the pile, in order (RULES.md §2.1).

    hand_size to the Player, then hand_size to the Wolf; if the pile cannot deal both in full,
    one card at a time, Player first (alternating), until it is empty.
    """
    if size >= 2 * hand_size:
        return ["player"] * hand_size + ["wolf"] * hand_size
    return ["player" if i % 2 == 0 else "wolf" for i in range(size)]


def deal_distribution(
    size: int, top: tuple[int, ...], unseen: tuple[int, ...], hand_size: int
) -> dict[Hands, Fraction]:
    """Probability of every (Player's hand, Wolf's hand) the next deal can give.

    Each card off the pile is the next known top card if one is left, else each unseen value v
    with probability unseen[v] / (unseen cards), without replacement (RULES.md §5, §7).
    """
    # A layer maps (player, wolf, known top left, unseen counts) to its probability.
    layer: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]], Fraction] = {
        ((), (), top, unseen): Fraction(1)
    }
    for seat in deal_seats(size, hand_size):
        nxt: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]], Fraction] = {}
        for (player, wolf, top_left, counts), p in layer.items():
            if top_left:
                outcomes = [(Fraction(1), top_left[0], top_left[1:], counts)]
            else:
                total = sum(counts)
                assert total >= 1, "the unknown part of the pile comes from the unseen cards"
                outcomes = []
                for v in range(1, 11):
                    if counts[v]:
                        fewer = (*counts[:v], counts[v] - 1, *counts[v + 1 :])
                        outcomes.append((Fraction(counts[v], total), v, top_left, fewer))
            for q, v, top_after, counts_after in outcomes:
                if seat == "player":
                    key = (tuple(sorted((*player, v))), wolf, top_after, counts_after)
                else:
                    key = (player, tuple(sorted((*wolf, v))), top_after, counts_after)
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        layer = nxt
    result: dict[Hands, Fraction] = {}
    for (player, wolf, _, _), p in layer.items():
        result[(player, wolf)] = result.get((player, wolf), Fraction(0)) + p
    assert sum(result.values()) == 1
    return result


# ---- this round, valued to the end of the game -----------------------------------------------


class GameRound(Round):
    """The reference round expectimax, with a round's end worth the game it leads to (§7)."""

    def __init__(self, pos: Position) -> None:
        super().__init__(pos)
        self.hand_size: int = pos["rules"]["hand_size"]
        self.deal_memo: dict[tuple[int, tuple[int, ...], tuple[int, ...]], dict[Hands, Fraction]] = {}
        self.final_memo: dict[tuple[Hands, tuple[int, ...], int], bool] = {}
        self.next_memo: dict[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int], Fraction] = {}

    def final_round_won(self, hands: Hands, reserve: tuple[int, ...], active: int) -> bool:
        """The dealt final round: won iff every Wolf card can be covered (§4); nothing is drawn."""
        player, wolf = hands
        if not wolf:
            return True  # the Wolf was dealt no card: the Player wins that round at once (§2.1)
        key = (hands, reserve, active)
        if key not in self.final_memo:
            final_pos = dict(
                self.pos,
                player=list(player),
                wolf=list(wolf),
                reserve=list(reserve),
                party=MEMBER_ORDER[:active],  # who is up never matters, only how many
                draw_pile={"size": 0, "top": []},
                final=True,
            )
            self.final_memo[key] = coverable(final_pos, list(wolf))
        return self.final_memo[key]

    def next_deal(self, s: State, reserve: tuple[int, ...], active: int) -> Fraction:
        """Probability of winning the game from the next deal, dealt from the pile of s."""
        key = (s.size, s.top, s.unseen, reserve, active)
        if key not in self.next_memo:
            pile = (s.size, s.top, s.unseen)
            if pile not in self.deal_memo:
                self.deal_memo[pile] = deal_distribution(s.size, s.top, s.unseen, self.hand_size)
            self.next_memo[key] = sum(
                (p for hands, p in self.deal_memo[pile].items() if self.final_round_won(hands, reserve, active)),
                Fraction(0),
            )
        return self.next_memo[key]

    def win_value(self, s: State) -> Fraction:
        """The Wolf's hand is empty (s.hand holds the card just drawn)."""
        if s.final or s.size == 0:
            # A final round won, or one that turned final: the last card was just drawn (§4).
            return Fraction(1)
        if self.top_visible and s.size > 0 and not s.top:
            # The winning draw uncovered a new top card: the Player sees it before the reward (§5).
            total = Fraction(0)
            for p, v, _ in self.next_cards(s):
                unseen = list(s.unseen)
                unseen[v] -= 1
                total += p * self.best_reward(replace(s, top=(v,), unseen=tuple(unseen)))
            return total
        return self.best_reward(s)

    def best_reward(self, s: State) -> Fraction:
        active = len(s.party)
        # The rewards on offer (§4): one card of the winning hand into the reserve (each distinct
        # value once), or one face-down member turned face up. Exactly one is taken.
        options = [self.next_deal(s, tuple(sorted((*s.reserve, v))), active) for v in sorted(set(s.hand))]
        if active < PARTY_SIZE:
            options.append(self.next_deal(s, s.reserve, active + 1))
        if not options:
            options.append(self.next_deal(s, s.reserve, active))  # neither is possible: no reward
        return max(options)

    def fold_value(self, s: State) -> Fraction:
        if s.final or s.size == 0:
            return Fraction(0)  # a final round lost: the game is lost
        active = len(s.party)
        fallen = min(len(s.wolf), active)
        if fallen == active:
            return Fraction(0)  # the last member falls: the game is lost at once
        return self.next_deal(s, s.reserve, active - fallen)


def _values(start_value: Any, moves: list[tuple[Play, Any]]) -> tuple[Fraction, dict[PlayKey, Fraction]]:
    by_key: dict[PlayKey, Fraction] = {}
    for play, value in moves:
        assert value is not None
        by_key[play_key(play)] = Fraction(value)
    assert start_value == max(by_key.values())
    return Fraction(start_value), by_key


def game_values(pos: Position) -> tuple[Fraction, dict[PlayKey, Fraction]]:
    """(probability of winning the game, {play_key(play): its probability}) for every legal play.

    pos is a normalized position (README.md). Raises OutOfScope when the rest of the game cannot
    be searched exactly here.
    """
    why = scope_error(pos)
    if why is not None:
        raise OutOfScope(why)
    round_ = GameRound(dict(pos, objective="game"))
    moves = round_.moves(round_.initial_state())
    return _values(max(v for _, v in moves), moves)


def round_win_values(pos: Position) -> tuple[Fraction, dict[PlayKey, Fraction]]:
    """The same for the round alone (objective `win`): the answer's win_probability fields."""
    if pos["game"] != "vanguard":
        raise OutOfScope("the probability of winning the round is vanguard's")
    result = analyse(dict(pos, objective="win"))
    return _values(result["value"], result["moves"])
