"""The rules of both games as pure functions over an immutable `State`.

A State is one of: a decision node (the Player chooses a play), a chance node (cards are
owed to someone, or a new top card is about to be revealed), or a terminal (won / lost).
Following OpenSpiel's shape: `legal_plays` at decision nodes, `chance_outcomes` and
`apply_outcome` at chance nodes, `apply` for plays.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import NamedTuple

from solver.core.caches import weighted_cache
from solver.core.cards import MEMBERS, member_order
from solver.core.plays import FOLD, Play
from solver.core.position import Position, Rules
from solver.core.status import LOST as LOST
from solver.core.status import WON as WON


class State(NamedTuple):
    """Everything that decides the rest of a round, by values only (hashable, for memoizing).

    A NamedTuple rather than a frozen dataclass: the search builds and hashes millions of these,
    and tuples are built and hashed in C.

    `unseen` counts the cards nobody has seen, by value: unknown draws are uniform over them.
    `owed_player` / `owed_wolf` are unknown cards still to be drawn by a play just made;
    `reveal` means the next top card is about to be turned face up (rules.top_card_visible).
    """

    game: str
    hand: tuple[int, ...]
    wolf: tuple[int, ...]
    reserve: tuple[int, ...]
    party: tuple[str, ...]
    pile_size: int
    pile_top: tuple[int, ...]
    unseen: tuple[int, ...]
    final: bool
    rules: Rules
    owed_player: int = 0
    owed_wolf: int = 0
    reveal: bool = False
    outcome: str | None = None

    @property
    def top(self) -> int:
        return len(self.unseen)

    @property
    def unknown_draws(self) -> int:
        """Cards of the pile whose value is not known yet."""
        return self.pile_size - len(self.pile_top)

    @property
    def is_chance(self) -> bool:
        return self.outcome is None and (self.owed_player > 0 or self.owed_wolf > 0 or self.reveal)

    @property
    def is_terminal(self) -> bool:
        return self.outcome is not None

    @property
    def is_decision(self) -> bool:
        return not self.is_terminal and not self.is_chance


def initial_state(pos: Position) -> State:
    return settle(
        State(
            game=pos.game,
            hand=pos.player,
            wolf=pos.wolf,
            reserve=pos.reserve,
            party=pos.party,
            pile_size=pos.pile_size,
            pile_top=pos.pile_top,
            unseen=pos.unseen,
            final=pos.final,
            rules=pos.rules,
        )
    )


# ---------------------------------------------------------------------------------------------
# Legal plays


def _sub_multisets(items: list[tuple[int, int]], target: int, start: int = 0) -> Iterator[list[tuple[int, int]]]:
    """Every way to pick counts of the (value, available) items, in order, summing to target.

    Yields lists of (item index, count) with count >= 1. Values are positive, so the sum
    bounds the recursion (at most 10 deep).
    """
    if target == 0:
        yield []
        return
    for i in range(start, len(items)):
        value, available = items[i]
        for k in range(1, available + 1):
            rest = target - k * value
            if rest < 0:
                break
            for tail in _sub_multisets(items, rest, i + 1):
                yield [(i, k), *tail]


def _distinct(values: tuple[int, ...]) -> list[int]:
    return sorted(set(values))


def _counts(values: tuple[int, ...]) -> list[tuple[int, int]]:
    return [(v, values.count(v)) for v in _distinct(values)]


@lru_cache(maxsize=1 << 16)
def _sum_groups(
    hand: tuple[int, ...], reserve: tuple[int, ...], w: int
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """(hand part, reserve part) of every group of two or more of your cards adding up to w."""
    tagged = _counts(hand) + _counts(reserve)
    n_hand = len(_distinct(hand))
    out = []
    for pick in _sub_multisets(tagged, w):
        if sum(k for _, k in pick) < 2:
            continue
        h = tuple(tagged[i][0] for i, k in pick if i < n_hand for _ in range(k))
        r = tuple(tagged[i][0] for i, k in pick if i >= n_hand for _ in range(k))
        out.append((h, r))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _split_groups(wolf: tuple[int, ...], p: int) -> tuple[tuple[int, ...], ...]:
    """Every group of two or more Wolf cards adding up to p."""
    items = _counts(wolf)
    return tuple(
        tuple(items[i][0] for i, k in pick for _ in range(k))
        for pick in _sub_multisets(items, p)
        if sum(k for _, k in pick) >= 2
    )


def legal_plays(state: State) -> list[Play]:
    """Every distinct legal play at a decision node, Fold last; plays come in listing order."""
    if not state.is_decision:
        return []
    # Only these fields decide what is legal; an Over never needs more than 9 cards in the pile.
    return list(
        _legal(state.game, state.hand, state.reserve, state.wolf, state.party, state.final, min(state.pile_size, 10))
    )


@lru_cache(maxsize=1 << 17)
def _legal(
    game: str,
    hand: tuple[int, ...],
    reserve: tuple[int, ...],
    wolf: tuple[int, ...],
    party: tuple[str, ...],
    final: bool,
    pile_size: int,
) -> tuple[Play, ...]:
    plays: list[Play] = []
    wolf_values = _distinct(wolf)
    hand_values = _distinct(hand)
    reserve_values = _distinct(reserve)
    # Perfect: one card of yours, equal to one of the Wolf's.
    for w in wolf_values:
        if w in hand_values:
            plays.append(Play("perfect", (w,), (), (w,)))
        if w in reserve_values:
            plays.append(Play("perfect", (), (w,), (w,)))
    # Sum: two or more of yours (hand and reserve mixed) adding up to one Wolf card.
    for w in wolf_values:
        for h, r in _sum_groups(hand, reserve, w):
            plays.append(Play("sum", h, r, (w,)))
    if not final:
        # Split: one of yours equal to two or more Wolf cards; the Wolf then draws one card.
        if pile_size >= 1:
            for p in hand_values:
                plays.extend(Play("split", (p,), (), group) for group in _split_groups(wolf, p))
            for p in reserve_values:
                plays.extend(Play("split", (), (p,), group) for group in _split_groups(wolf, p))
        # Over: one of yours above one of the Wolf's; the Wolf draws the difference.
        for p in hand_values:
            plays.extend(Play("over", (p,), (), (w,)) for w in wolf_values if w < p and p - w <= pile_size)
        for p in reserve_values:
            plays.extend(Play("over", (), (p,), (w,)) for w in wolf_values if w < p and p - w <= pile_size)
    elif game == "vanguard" and len(party) >= 2:
        # Sacrifice: final round only, and one member must stay active.
        for m in party:
            for w in wolf_values:
                plays.append(Play("sacrifice", (), (), (w,), m))
    plays.sort(key=Play.sort_key)
    plays.append(FOLD)
    return tuple(plays)


def why_illegal(state: State, play: Play) -> str | None:
    """None when the play is legal here; otherwise the reason, in one short sentence."""
    if state.is_terminal:
        return "the round is over"
    if not state.is_decision:
        return "cards are still owed from the last play"
    if play.kind == "fold":
        return None
    if play.kind == "sacrifice":
        absent = _absent(state, play)
        if absent is not None:
            return absent
        if state.game != "vanguard":
            return "lobo has no party to sacrifice"
        if not state.final:
            return "a sacrifice is only allowed in the final round"
        if play.member not in state.party:
            return f"{play.member} is not an active party member"
        if len(state.party) < 2:
            return f"sacrificing {play.member} would leave no active party member"
        return None
    # The values first: a play that does not add up is illegal wherever its cards are, and telling
    # the player to mark a reserve card would send them to another illegal play.
    broken = _broken_rule(play)
    if broken is not None:
        # Cards held nowhere are a second fault; a card only on the other side (hand or reserve)
        # is not, since marking it differently would not make the play legal.
        also = []
        hand, reserve = _missing(play.hand, state.hand), _missing(play.reserve, state.reserve)
        if hand is not None and hand not in state.reserve:
            also.append(f"you hold no {hand}")
        if reserve is not None and reserve not in state.hand:
            also.append(f"your reserve holds no {reserve}")
        wolf = _missing(play.wolf, state.wolf)
        if wolf is not None:
            also.append(f"the Wolf holds no {wolf}")
        return broken + (f" (and {', '.join(also)})" if also else "")
    absent = _absent(state, play)
    if absent is not None:
        return absent
    if play.kind in ("perfect", "sum"):
        return None
    if play.kind in ("split", "over") and state.final:
        return f"{'a Split' if play.kind == 'split' else 'an Over'} is not allowed in the final round"
    if play.kind == "split":
        if state.pile_size < 1:
            return "a split needs a card in the draw pile for the Wolf, and it is empty"
        return None
    if play.kind == "over":
        d = play.mine[0] - play.wolf[0]
        if d > state.pile_size:
            return f"this Over makes the Wolf draw {d} cards but the pile holds {state.pile_size}"
        return None
    return f"unknown play type {play.kind!r}"


def _absent(state: State, play: Play) -> str | None:
    """The first card of the play that is not where the play takes it from."""
    missing = _missing(play.hand, state.hand)
    if missing is not None:
        return (
            f"you hold no {missing} in your hand"
            if missing not in state.reserve
            else f"the {missing} is in your reserve: mark it {missing}r"
        )
    missing = _missing(play.reserve, state.reserve)
    if missing is not None:
        return f"your reserve holds no {missing}"
    missing = _missing(play.wolf, state.wolf)
    if missing is not None:
        return f"the Wolf holds no {missing}"
    return None


def _broken_rule(play: Play) -> str | None:
    """The rule of its kind that a play's values break, whatever the cards held; None if none."""
    mine = play.mine
    if play.kind in ("perfect", "sum"):
        if len(play.wolf) != 1 or (play.kind == "perfect") != (len(mine) == 1) or not mine:
            return f"a {play.kind} has the wrong number of cards"
        if play.kind == "perfect" and mine[0] != play.wolf[0]:
            return f"{mine[0]} does not equal {play.wolf[0]}: a Perfect needs equal values"
        if sum(mine) != play.wolf[0]:
            return f"{'+'.join(map(str, mine))} makes {sum(mine)}, not {play.wolf[0]}"
        return None
    if play.kind == "split":
        if len(mine) != 1 or len(play.wolf) < 2:
            return "a split is one of your cards against two or more of the Wolf's"
        if sum(play.wolf) != mine[0]:
            return f"{'+'.join(map(str, play.wolf))} makes {sum(play.wolf)}, not {mine[0]}"
        return None
    if play.kind == "over":
        if len(mine) != 1 or len(play.wolf) != 1:
            return "an over is one of your cards against one of the Wolf's"
        if mine[0] <= play.wolf[0]:
            return f"{mine[0]} is not higher than {play.wolf[0]}"
        return None
    return f"unknown play type {play.kind!r}"


def _missing(wanted: tuple[int, ...], held: tuple[int, ...]) -> int | None:
    """The first value wanted more often than held, or None."""
    for v in set(wanted):
        if wanted.count(v) > held.count(v):
            return v
    return None


# ---------------------------------------------------------------------------------------------
# Applying plays and draws


def _remove(held: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...]:
    out = list(held)
    for v in used:
        out.remove(v)
    return tuple(out)


def apply(state: State, play: Play, *, check: bool = True) -> State:
    """The state after a legal play (and after any known top cards it draws); may be a chance node.
    check=False skips the legality check, for plays taken from legal_plays (the search's path)."""
    if check:
        reason = why_illegal(state, play)
        if reason is not None:
            raise ValueError(f"illegal play {play}: {reason}")
    kind = play.kind
    if kind == "fold":
        return state._replace(outcome=LOST)
    hand = _remove(state.hand, play.hand) if play.hand else state.hand
    reserve = _remove(state.reserve, play.reserve) if play.reserve else state.reserve
    wolf = _remove(state.wolf, play.wolf)
    party = state.party
    pile_size, pile_top = state.pile_size, state.pile_top
    owed_player = owed_wolf = 0
    if kind == "sacrifice":
        party = tuple(m for m in party if m != play.member)
    elif kind == "perfect" or kind == "sum":
        owed_player = 1 if not state.final and pile_size > 0 else 0
    elif kind == "split":
        owed_wolf = 1
    else:  # over
        owed_wolf = play.mine[0] - play.wolf[0]
    # Known top cards are drawn first, in order; what stays owed comes from the unknown part.
    k = min(owed_player + owed_wolf, len(pile_top))
    if k:
        taken, pile_top, pile_size = pile_top[:k], pile_top[k:], pile_size - k
        if owed_player:
            hand, owed_player = tuple(sorted(hand + taken)), owed_player - k
        else:
            wolf, owed_wolf = tuple(sorted(wolf + taken)), owed_wolf - k
    return _settled(
        state,
        hand,
        wolf,
        reserve,
        party,
        pile_size,
        pile_top,
        state.unseen,
        state.final,
        owed_player,
        owed_wolf,
        state.reveal,
    )


def _settled(
    base: State,
    hand: tuple[int, ...],
    wolf: tuple[int, ...],
    reserve: tuple[int, ...],
    party: tuple[str, ...],
    pile_size: int,
    pile_top: tuple[int, ...],
    unseen: tuple[int, ...],
    final: bool,
    owed_player: int,
    owed_wolf: int,
    reveal: bool,
) -> State:
    """A new state after a step, settled: once nothing is owed, the round ends when the Wolf's
    hand is empty, a vanguard round turns final when the pile is empty, and a hidden new top card
    is turned face up. Built in one go: the search makes millions of these."""
    outcome = None
    if not owed_player and not owed_wolf:
        if base.game == "vanguard" and pile_size == 0:
            # Even when this same draw wins: a round whose pile ran out was the final round.
            final = True
        if not wolf:
            outcome, reveal = WON, False
        elif base.rules.top_card_visible and pile_size > 0 and not pile_top:
            reveal = True
    return State(
        base.game,
        hand,
        wolf,
        reserve,
        party,
        pile_size,
        pile_top,
        unseen,
        final,
        base.rules,
        owed_player,
        owed_wolf,
        reveal,
        outcome,
    )


def settle(s: State) -> State:
    """The same settling as after every step, for a state built by hand (see _settled)."""
    if s.outcome is not None:
        return s
    return _settled(
        s,
        s.hand,
        s.wolf,
        s.reserve,
        s.party,
        s.pile_size,
        s.pile_top,
        s.unseen,
        s.final,
        s.owed_player,
        s.owed_wolf,
        s.reveal,
    )


def chance_outcomes(state: State) -> list[tuple[tuple[int, ...], Fraction]]:
    """At a chance node: the possible multisets of values drawn (or revealed) and their probabilities.

    d cards drawn without replacement from the unseen pool: multivariate hypergeometric.
    """
    if not state.is_chance:
        return []
    return list(draws(state.unseen, state.owed_player + state.owed_wolf or 1))  # nothing owed: a reveal


# About 300 bytes a row: some 80 MB at most (caches.py).
@weighted_cache(1 << 18)
def draws(unseen: tuple[int, ...], d: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every multiset of d values drawn from the unseen counts, with its probability (cached: the
    same pools recur all over a search)."""
    denominator = comb(sum(unseen), d)
    out: list[tuple[tuple[int, ...], Fraction]] = []
    for pick in _multisets(unseen, d):
        ways = 1
        for have, k in zip(unseen, pick, strict=True):
            if k:
                ways *= comb(have, k)
        values = tuple(v for v, k in enumerate(pick, start=1) for _ in range(k))
        out.append((values, Fraction(ways, denominator)))
    return tuple(out)


def _multisets(counts: tuple[int, ...], d: int, i: int = 0) -> Iterator[tuple[int, ...]]:
    if i == len(counts):
        if d == 0:
            yield ()
        return
    for k in range(min(d, counts[i]), -1, -1):
        for tail in _multisets(counts, d - k, i + 1):
            yield (k, *tail)


def apply_outcome(state: State, values: tuple[int, ...], *, check: bool = True) -> State:
    """The state after a chance outcome from `chance_outcomes` (check=False: trusted, the search's path)."""
    unseen = list(state.unseen)
    for v in values:
        unseen[v - 1] -= 1
    owed = state.owed_player + state.owed_wolf
    if check:
        if not state.is_chance:
            raise ValueError("not a chance node")
        if min(unseen) < 0 or max(values) > len(unseen):
            raise ValueError(f"cannot draw {values}: not among the unseen cards")
        if len(values) != (owed or 1):
            raise ValueError(f"{owed or 1} card(s) are drawn or revealed here, not {len(values)}")
    hand, wolf = state.hand, state.wolf
    if not owed:  # a reveal: the new top card is known
        return _settled(
            state,
            hand,
            wolf,
            state.reserve,
            state.party,
            state.pile_size,
            values,
            tuple(unseen),
            state.final,
            0,
            0,
            False,
        )
    if state.owed_player:
        hand = tuple(sorted(hand + values))
    else:
        wolf = tuple(sorted(wolf + values))
    return _settled(
        state,
        hand,
        wolf,
        state.reserve,
        state.party,
        state.pile_size - owed,
        state.pile_top,
        tuple(unseen),
        state.final,
        0,
        0,
        state.reveal,
    )


# ---------------------------------------------------------------------------------------------
# Scoring, party losses and rewards


def final_score(state: State) -> int:
    """Score of a won final round: the hand, 10 per active member, and the reserve if it scores."""
    score = sum(state.hand) + 10 * len(state.party)
    if state.rules.reserve_scores:
        score += sum(state.reserve)
    return score


def lobo_points(state: State) -> tuple[int, int]:
    """(Player's points, Wolf's points) for a finished lobo round."""
    if state.outcome == WON:
        return sum(state.hand), 0
    if state.outcome == LOST:
        return 0, sum(state.wolf)
    raise ValueError("the round is not over")


def party_after_loss(party: tuple[str, ...], wolf_cards_left: int) -> tuple[str, ...]:
    """A lost regular round turns min(k, active) members face down, Jack first, then Queen, then King."""
    falls = min(wolf_cards_left, len(party))
    return member_order(party)[falls:]


@dataclass(frozen=True, slots=True)
class Reward:
    """The one reward after a won regular round: a hand card to the reserve, or a member revived."""

    kind: str  # "reserve" or "revive"
    value: int | None = None
    member: str | None = None

    def __str__(self) -> str:
        return f"reserve {self.value}" if self.kind == "reserve" else f"revive {self.member}"


def rewards(hand: tuple[int, ...], party: tuple[str, ...]) -> list[Reward]:
    """Every distinct reward choice; empty when neither is possible."""
    out = [Reward("reserve", value=v) for v in sorted(set(hand))]
    out += [Reward("revive", member=m) for m in MEMBERS if m not in party]
    return out


def apply_reward(
    reward: Reward | None, hand: tuple[int, ...], reserve: tuple[int, ...], party: tuple[str, ...]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """(reserve, party) after the reward; the rest of the hand is discarded by the caller."""
    if reward is None:
        return reserve, party
    if reward.kind == "reserve":
        if reward.value not in hand:
            raise ValueError(f"the winning hand holds no {reward.value}")
        return tuple(sorted((*reserve, reward.value))), party
    if reward.member in party or reward.member not in MEMBERS:
        raise ValueError(f"{reward.member} is not face down")
    return reserve, member_order((*party, reward.member))


def deal(order: list[int], hand_size: int) -> tuple[tuple[int, ...], tuple[int, ...], list[int]]:
    """Deal from a pile in order (top first): hand_size to the Player, then to the Wolf. A pile too
    short for both full hands is dealt one card at a time, Player first, until it runs out."""
    if len(order) >= 2 * hand_size:
        return tuple(sorted(order[:hand_size])), tuple(sorted(order[hand_size : 2 * hand_size])), order[2 * hand_size :]
    return tuple(sorted(order[0::2])), tuple(sorted(order[1::2])), []


@dataclass(frozen=True, slots=True)
class Effect:
    """What a play does, for showing it: cards drawn (known ones named), wins, losses."""

    player_draws: int = 0
    wolf_draws: int = 0
    known: tuple[int, ...] = ()  # values of known top cards among the draws, in order
    member: str | None = None  # the member turned face down by a sacrifice
    wins: bool = False  # the play empties the Wolf's hand
    loses: bool = False  # fold
    makes_final: bool = False  # the pile runs out with this play's draws


def play_effect(state: State, play: Play) -> Effect:
    if play.kind == "fold":
        return Effect(loses=True)
    if play.kind == "sacrifice":
        return Effect(member=play.member, wins=len(state.wolf) == 1)
    if play.kind in ("perfect", "sum"):
        n = 1 if not state.final and state.pile_size > 0 else 0
        return Effect(
            player_draws=n,
            known=state.pile_top[:n],
            wins=len(state.wolf) == 1,
            makes_final=state.game == "vanguard" and n > 0 and state.pile_size == n,
        )
    n = 1 if play.kind == "split" else play.mine[0] - play.wolf[0]
    return Effect(wolf_draws=n, known=state.pile_top[:n], makes_final=state.game == "vanguard" and state.pile_size == n)


def final_state(pos: Position, force: bool = False) -> tuple[State, bool]:
    """The initial state of a final round (see position.as_final) and whether --final forced it."""
    from solver.core.position import as_final

    final_pos, forced = as_final(pos, force)
    return initial_state(final_pos), forced
