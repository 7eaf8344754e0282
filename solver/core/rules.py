"""The rules of both games as pure functions over an immutable `State`.

A State is one of: a decision node (the Player chooses a play), a chance node (cards are
owed to someone, or a new top card is about to be revealed), or a terminal (won / lost).
Following OpenSpiel's shape: `legal_plays` at decision nodes, `chance_outcomes` and
`apply_outcome` at chance nodes, `apply` for plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import NamedTuple

from solver.core import kernel
from solver.core.caches import weighted_cache
from solver.core.cards import MEMBERS
from solver.core.games import game
from solver.core.plays import FOLD, KINDS, Play
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
# The state as the kernel's vector, and back (kernel.py: every rule is there)

_BIT = {"J": kernel.JACK, "Q": kernel.QUEEN, "K": kernel.KING}
_OUTCOME = {None: 0, WON: kernel.WON, LOST: kernel.LOST}
_OUTCOME_NAME = {0: None, kernel.WON: WON, kernel.LOST: LOST}
_KIND_NAME = dict(enumerate(KINDS))  # plays.KINDS lists the kinds in the kernel's order of codes
_KIND_CODE = {name: code for code, name in _KIND_NAME.items()}


def vector(s: State) -> list[int]:
    """The state as the kernel's vector (a list: the plain kernel is quickest on lists)."""
    st = [0] * kernel.STATE
    for v in s.hand:
        st[kernel.HAND + v - 1] += 1
    for v in s.reserve:
        st[kernel.RESERVE + v - 1] += 1
    for v in s.wolf:
        st[kernel.WOLF + v - 1] += 1
    st[kernel.UNSEEN : kernel.UNSEEN + len(s.unseen)] = s.unseen
    st[kernel.PILE] = s.pile_size
    st[kernel.NTOP] = len(s.pile_top)
    st[kernel.TOPS : kernel.TOPS + len(s.pile_top)] = s.pile_top
    st[kernel.PARTY] = sum(_BIT[m] for m in s.party)
    st[kernel.FINAL] = int(s.final)
    st[kernel.OWED_P] = s.owed_player
    st[kernel.OWED_W] = s.owed_wolf
    st[kernel.REVEAL] = int(s.reveal)
    st[kernel.OUTCOME] = _OUTCOME[s.outcome]
    st[kernel.TOPV] = len(s.unseen)
    st[kernel.RULESET] = game(s.game).ruleset
    st[kernel.HAND_SIZE] = s.rules.hand_size
    st[kernel.FINAL_THRESHOLD] = s.rules.final_threshold
    st[kernel.RESERVE_SCORES] = int(s.rules.reserve_scores)
    st[kernel.TOP_VISIBLE] = int(s.rules.top_card_visible)
    return st


def _values(st: Sequence[int], base: int) -> tuple[int, ...]:
    """The values counted at base, in ascending order (a hot path: a list grown by runs)."""
    out: list[int] = []
    for v in range(1, 11):
        c = st[base + v - 1]
        if c:
            out += [v] * c
    return tuple(out)


def state_of(st: Sequence[int], like: State) -> State:
    """The kernel's vector as a State (the game and the rulings, constant in a round, from like)."""
    return State(
        like.game,
        _values(st, kernel.HAND),
        _values(st, kernel.WOLF),
        _values(st, kernel.RESERVE),
        tuple(m for m in MEMBERS if st[kernel.PARTY] & _BIT[m]),
        st[kernel.PILE],
        tuple(st[kernel.TOPS : kernel.TOPS + st[kernel.NTOP]]),
        tuple(st[kernel.UNSEEN : kernel.UNSEEN + len(like.unseen)]),
        bool(st[kernel.FINAL]),
        like.rules,
        st[kernel.OWED_P],
        st[kernel.OWED_W],
        bool(st[kernel.REVEAL]),
        _OUTCOME_NAME[st[kernel.OUTCOME]],
    )


def play_of(mv: Sequence[int], at: int = 0) -> Play:
    """A kernel move row as a Play."""
    kind = _KIND_NAME[mv[at + kernel.M_KIND]]
    if kind == "fold":
        return FOLD
    member = next((m for m in MEMBERS if mv[at + kernel.M_MEMBER] == _BIT[m]), None)
    return Play(
        kind,
        _values(mv, at + kernel.M_HAND),
        _values(mv, at + kernel.M_RESERVE),
        _values(mv, at + kernel.M_WOLF),
        member,
    )


def move_of(play: Play) -> list[int]:
    """A Play as a kernel move row (whether it is legal is the kernel's to say: legal_plays)."""
    mv = [0] * kernel.MOVE
    mv[kernel.M_KIND] = _KIND_CODE[play.kind]
    for base, cards in ((kernel.M_HAND, play.hand), (kernel.M_RESERVE, play.reserve), (kernel.M_WOLF, play.wolf)):
        for v in cards:
            mv[base + v - 1] += 1
    if play.member is not None:
        mv[kernel.M_MEMBER] = _BIT[play.member]
    return mv


def kernel_moves(st: Sequence[int]) -> tuple[list[int], int]:
    """The kernel's legal moves of a vector: (the rows, their number)."""
    room = 64
    while True:
        buf = [0] * (room * kernel.MOVE)
        m = kernel.moves(st, buf, room)
        if m >= 0:
            return buf, m
        room *= 4


# ---------------------------------------------------------------------------------------------
# Legal plays


def legal_plays(state: State) -> list[Play]:
    """Every distinct legal play at a decision node, Fold last; plays come in listing order."""
    if not state.is_decision:
        return []
    # Only these fields decide what is legal; an Over never needs more than 9 cards in the pile.
    return list(
        _legal(state.game, state.hand, state.reserve, state.wolf, state.party, state.final, min(state.pile_size, 10))
    )


@lru_cache(maxsize=1 << 15)
def _legal(
    game: str,
    hand: tuple[int, ...],
    reserve: tuple[int, ...],
    wolf: tuple[int, ...],
    party: tuple[str, ...],
    final: bool,
    pile_size: int,
) -> tuple[Play, ...]:
    like = State(game, hand, wolf, reserve, party, pile_size, (), (0,) * 10, final, Rules())
    buf, m = kernel_moves(vector(like))
    plays = sorted((play_of(buf, g * kernel.MOVE) for g in range(m - 1)), key=Play.sort_key)
    return (*plays, FOLD)


def why_illegal(state: State, play: Play) -> str | None:
    """None when the play is legal here (the kernel's legal moves say so); otherwise the reason, in
    one short sentence."""
    if state.is_terminal:
        return "the round is over"
    if not state.is_decision:
        return "cards are still owed from the last play"
    if play in legal_plays(state):
        return None
    return _reason(state, play) or "it is not a legal play here"


def _reason(state: State, play: Play) -> str | None:
    """Which rule an illegal play breaks, in words (legality itself is decided by the kernel)."""
    if play.kind == "fold":
        return None
    if play.kind == "sacrifice":
        absent = _absent(state, play)
        if absent is not None:
            return absent
        shut = kernel.sacrifice_open(vector(state))
        if shut == kernel.NO_SACRIFICES:
            return f"{state.game} has no party to sacrifice"
        if shut == kernel.NOT_FINAL:
            return "a sacrifice is only allowed in the final round"
        if play.member not in state.party:
            return f"{play.member} is not an active party member"
        if shut == kernel.LAST_MEMBER:
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
            also.append(_short("you hold", hand, play.hand, state.hand))
        if reserve is not None and reserve not in state.hand:
            also.append(_short("your reserve holds", reserve, play.reserve, state.reserve))
        wolf = _missing(play.wolf, state.wolf)
        if wolf is not None:
            also.append(_short("the Wolf holds", wolf, play.wolf, state.wolf))
        return broken + (f" (and {', '.join(also)})" if also else "")
    if play.reserve and not game(state.game).has_reserve:  # a review: "your reserve holds no 1"
        return f"{state.game} has no reserve"
    absent = _absent(state, play)
    if absent is not None:
        return absent
    if play.kind in ("perfect", "sum"):
        return None
    if play.kind in ("split", "over"):
        d = 1 if play.kind == "split" else play.mine[0] - play.wolf[0]
        shut = kernel.draw_play_open(vector(state), d)
        if shut == kernel.IN_FINAL:
            return f"{'a Split' if play.kind == 'split' else 'an Over'} is not allowed in the final round"
        if shut == kernel.PILE_SHORT and play.kind == "split":
            return "a split needs a card in the draw pile for the Wolf, and it is empty"
        if shut == kernel.PILE_SHORT:
            return f"this Over makes the Wolf draw {d} cards but the pile holds {state.pile_size}"
        return None
    return f"unknown play type {play.kind!r}"


def _absent(state: State, play: Play) -> str | None:
    """The first card of the play that is not where the play takes it from."""
    missing = _missing(play.hand, state.hand)
    if missing is not None:
        return (
            _short("you hold", missing, play.hand, state.hand) + " in your hand"
            if missing not in state.reserve
            else f"the {missing} is in your reserve: mark it {missing}r"
        )
    missing = _missing(play.reserve, state.reserve)
    if missing is not None:
        return _short("your reserve holds", missing, play.reserve, state.reserve)
    missing = _missing(play.wolf, state.wolf)
    if missing is not None:
        return _short("the Wolf holds", missing, play.wolf, state.wolf)
    return None


_COUNTS = ("no", "one", "two", "three", "four", "five", "six")


def _short(holder: str, value: int, wanted: tuple[int, ...], held: tuple[int, ...]) -> str:
    """ "you hold no 6", or where fewer are held than the play uses, "you hold one 6, not two"
    (found by a review: "you hold no 6" was said of 6+6=7 with a 6 in the hand)."""
    have, want = held.count(value), wanted.count(value)
    if have == 0:
        return f"{holder} no {value}"

    def n(k: int) -> str:
        return _COUNTS[k] if k < len(_COUNTS) else str(k)

    return f"{holder} {n(have)} {value}{'s' if have > 1 else ''}, not {n(want)}"


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


def apply(state: State, play: Play, *, check: bool = True) -> State:
    """The state after a legal play (and after any known top cards it draws); may be a chance node.
    check=False skips the legality check, for plays taken from legal_plays (the search's path)."""
    if check:
        reason = why_illegal(state, play)
        if reason is not None:
            raise ValueError(f"illegal play {play}: {reason}")
    child = [0] * kernel.STATE
    kernel.apply_move(vector(state), move_of(play), 0, child)
    return state_of(child, state)


def settle(s: State) -> State:
    """The settling that follows every step (kernel.settle), for a state built by hand."""
    if s.outcome is not None:
        return s
    st = vector(s)
    kernel.settle(st)
    return state_of(st, s)


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
    """Every multiset of d values drawn from the unseen counts (kernel.draws), with its exact
    probability (cached: the same pools recur all over a search)."""
    st = [*unseen, *([0] * (10 - len(unseen)))]
    n = kernel.draw_count(st, 0, d)
    rows, prob = [0] * (10 * n), [0.0] * n
    kernel.draws(st, 0, d, rows, prob)
    denominator = comb(sum(unseen), d)
    out = []
    for r in range(n):
        pick = rows[10 * r : 10 * r + 10]
        ways = 1
        for have, k in zip(st, pick, strict=True):
            if k:
                ways *= comb(have, k)
        out.append((_values(pick, 0), Fraction(ways, denominator)))
    return tuple(out)


def apply_outcome(state: State, values: tuple[int, ...], *, check: bool = True) -> State:
    """The state after a chance outcome from `chance_outcomes` (check=False: trusted, the search's path)."""
    drawn = [0] * 10
    for v in values:
        drawn[v - 1] += 1
    if check:
        owed = state.owed_player + state.owed_wolf
        if not state.is_chance:
            raise ValueError("not a chance node")
        if max(values) > len(state.unseen) or any(drawn[i] > state.unseen[i] for i in range(len(state.unseen))):
            raise ValueError(f"cannot draw {values}: not among the unseen cards")
        if len(values) != (owed or 1):
            raise ValueError(
                f"{owed or 1} {'card is' if (owed or 1) == 1 else 'cards are'} drawn or revealed here, not {len(values)}"
            )
    child = [0] * kernel.STATE
    kernel.apply_draw(vector(state), drawn, 0, child)
    return state_of(child, state)


# ---------------------------------------------------------------------------------------------
# Scoring a won final round (between rounds: solver/core/rounds.py)


def sacrifices_allowed(state: State) -> int:
    """The most Sacrifices the rest of a final round may make: one member must stay active."""
    return max(0, len(state.party) - 1)


def final_score(state: State) -> int:
    """Score of a won final round: the hand, 10 per active member, and the reserve if it scores."""
    score = sum(state.hand) + 10 * len(state.party)
    if state.rules.reserve_scores:
        score += sum(state.reserve)
    return score


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
            makes_final=game(state.game).has_final_round and n > 0 and state.pile_size == n,
        )
    n = 1 if play.kind == "split" else play.mine[0] - play.wolf[0]
    makes_final = game(state.game).has_final_round and state.pile_size == n
    return Effect(wolf_draws=n, known=state.pile_top[:n], makes_final=makes_final)


def final_state(pos: Position, force: bool = False) -> tuple[State, bool]:
    """The initial state of a final round (see position.as_final) and whether --final forced it."""
    from solver.core.position import as_final

    final_pos, forced = as_final(pos, force)
    return initial_state(final_pos), forced
