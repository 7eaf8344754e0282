"""The clairvoyant policy: it plays each game knowing the order of its draw pile.

The simulator shows it the game's `SeededDeck` (`see`) before the first deal. From then on the
game is deterministic for it: every deal, every draw and every lobo reshuffle comes from that
deck, so the only choices left are its own plays and rewards, and it searches them for a line
that wins the game (RULES.md §7). Its win rate is what perfect knowledge of the deals reaches:
the ceiling for any advice, which knows only what a player at the table knows (§5).

The rules are the engine's own. Inside a round the search moves the rules kernel's state vector
(rules.vector; kernel.moves, apply_move, apply_draw: what rules.legal_plays, apply and
apply_outcome wrap, without building a `State` at every step), the cards each draw takes read
from the deck's hidden pile (`deck.pile`). Every round's end is taken by the driver: the search
replays the round's steps with `advance` (checking each draw against `deck.next_step`) and goes
on from the table the driver gives, so party losses, rewards, final rounds, lobo's scores and
reshuffles are not restated here. Two shortcuts, both facts of the rules: a final round is won
exactly when every Wolf card can be covered (cover.min_sacrifices, RULES.md §4), so it is
decided without searching its plays (and played by `finish_play`); and in vanguard the table a
round's end leads to is named from the kernel's vector first (`_end_key`, with
rounds.party_after_loss and rounds.rewards), so that an end already proven lost costs no replay;
each new one is replayed and the driver's table checked against that name.

vanguard (exact): a depth-first search of the rest of the game over plays and rewards, which
stops at the first line that wins the game. It remembers the states it proved lost (at most
`memo_cap`; past that the memory is emptied and the search goes on without it: slower, never
wrong). One decision may visit at most `budget` states; a decision whose search runs out of it
before it finds a winning line or proves there is none is made by the greedy rule instead
(solver.search.rollout; rewards as policies.greedy_reward), `exact` turns False for the rest of
the game, and the next decision searches again with a fresh budget, keeping what was proven. A
game proven lost is played on by the greedy rule: no line wins it.

lobo (a heuristic, not a bound): the race to the target over many rounds and reshuffles is too
big to search exactly in time, so the search is bounded twice. Each round's ends are enumerated
depth first (at most `round_cap` of its states; an end is the points it scores and the pile it
leaves, and only the best end per pile is kept: a win with the most points, else the loss
giving the Wolf the fewest), and rounds are chained by a dynamic programme over (round start,
the Wolf's points) for the fewest points the Player must hold at a round start to win from
there, exact over the rounds it covers (more points for the Player, fewer for the Wolf never
hurt). It looks at most `reshuffles_ahead` reshuffles past the current one: a line still going
past that counts as lost. The policy takes the round end with the lowest need (the game is won
when that need is at most its points), ties broken by the round's points (yours minus the
Wolf's). Every game it wins is won by a real line, so its win rate is a lower bound on what
perfect knowledge reaches and only an estimate of the ceiling; `exact` says when a game was
searched in full (every round it met enumerated in full, no line past the horizon).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Final, NamedTuple

from solver.core import kernel as K
from solver.core.cards import MEMBERS
from solver.core.cover import min_sacrifices
from solver.core.games import game as game_of
from solver.core.plays import FOLD, Play
from solver.core.rounds import Reward, party_after_loss, rewards
from solver.core.rules import WON, State, apply, kernel_moves, legal_plays, play_of, sacrifices_allowed, vector
from solver.play.driver import (
    DRAW,
    PLAY,
    RESHUFFLE,
    REWARD,
    Draw,
    GameError,
    Move,
    SeededDeck,
    Step,
    Table,
    Take,
    advance,
)
from solver.play.policies import greedy_reward
from solver.search.rollout import greedy_play

if TYPE_CHECKING:
    from collections.abc import Sequence

# States one decision may visit before it gives up (the docstring: greedy rule, exact False).
BUDGET: Final = 1_000_000
# States proven lost (vanguard; some 150 bytes each), or race values (lobo), remembered at most;
# lobo remembers the ends of at most MEMO_CAP // 100 rounds.
MEMO_CAP: Final = 500_000
# Positions whose legal moves are remembered at most (some 500 bytes each).
MOVES_CAP: Final = 100_000
# lobo: states of one round enumerated at most, and reshuffles looked ahead.
ROUND_CAP: Final = 1_000
RESHUFFLES_AHEAD: Final = 1

_BITS: Final = {"J": K.JACK, "Q": K.QUEEN, "K": K.KING}

Vec = list[int]
Key = bytes  # a state vector's entries, each below 256, as bytes: a fifth of a tuple's memory


class OutOfBudget(Exception):
    """A decision's search visited its budget of states without an answer."""


def coverable(s: State) -> bool:
    """Whether a final round can still be won from s: every Wolf card covered by a group of the
    Player's cards or by one of the sacrifices allowed (one member must stay active)."""
    return _min_sacrifices(s) is not None


def _min_sacrifices(s: State) -> int | None:
    return min_sacrifices(s.wolf, _counts(s.hand + s.reserve), sacrifices_allowed(s))


def finish_play(s: State) -> Play:
    """A play of a final round that keeps it winnable (Fold when nothing does). Among those it
    takes one needing the fewest sacrifices from here on, then (unless rules.reserve_scores) the
    one spending the most reserve cards, which do not score: a good score, not surely the best."""
    if _min_sacrifices(s) is None:
        return FOLD
    best: tuple[tuple[int, int], Play] | None = None
    for play in legal_plays(s):
        if play.kind == "fold":
            continue
        child = apply(s, play, check=False)
        after = 0 if child.outcome == WON else _min_sacrifices(child)
        if after is None:
            continue
        rank = (after + (play.kind == "sacrifice"), 0 if s.rules.reserve_scores else -len(play.reserve))
        if best is None or rank < best[0]:
            best = (rank, play)
    assert best is not None, "a coverable final round has a play that keeps it coverable"
    return best[1]


# ---------------------------------------------------------------------------------------------
# State vectors


def _counts(values: Sequence[int]) -> tuple[int, ...]:
    out = [0] * 10
    for v in values:
        out[v - 1] += 1
    return tuple(out)


def _values(st: Sequence[int], base: int) -> tuple[int, ...]:
    return tuple(v for v in range(1, 11) for _ in range(st[base + v - 1]))


def _vkey(st: Sequence[int]) -> Key:
    """A state vector as a key: everything the kernel reads (the known top cards past NTOP never are)."""
    return bytes(st[: K.TOPS + st[K.NTOP]])


def _party(st: Sequence[int]) -> tuple[str, ...]:
    return tuple(m for m in MEMBERS if st[K.PARTY] & _BITS[m])


def _tops(st: Sequence[int]) -> tuple[int, ...]:
    return tuple(st[K.TOPS : K.TOPS + st[K.NTOP]])


def _drawn(pile: tuple[int, ...], st: Sequence[int]) -> tuple[int, ...]:
    """The cards a chance state takes from the pile the round started with (top first): cards
    always leave from the top, the known top ones first, so they are the next unknown ones."""
    at = len(pile) - st[K.PILE] + st[K.NTOP]
    return pile[at : at + (st[K.OWED_P] + st[K.OWED_W] or 1)]


def _row(cards: Sequence[int]) -> Vec:
    row = [0] * 10
    for v in cards:
        row[v - 1] += 1
    return row


class _Row(NamedTuple):
    """A move as the search took it: its row in a kernel move buffer."""

    buf: bytes
    at: int


# A step inside a round as the search took it: the state vector it was taken at, and a move or
# the cards a draw took.
_Taken = tuple[Vec, "_Row | tuple[int, ...]"]


def _as_step(taken: _Taken) -> Step:
    what = taken[1]
    if isinstance(what, _Row):
        return Move(play_of(what.buf, what.at))
    return Draw(what)


class _Search:
    """What both games' searches share: the deck, the budget, the kernel's moves remembered."""

    def __init__(self, deck: SeededDeck, memo_cap: int) -> None:
        self.deck = deck
        self.memo_cap = memo_cap
        self.left = 0
        self.visited = 0
        self._moves: dict[bytes, tuple[bytes, int]] = {}

    def tick(self) -> None:
        self.visited += 1
        self.left -= 1
        if self.left < 0:
            raise OutOfBudget

    def moves(self, st: Vec) -> tuple[bytes, int]:
        """The kernel's legal moves at a decision vector (Fold last; rows of kernel.MOVE entries,
        as bytes), remembered by what they depend on (at most MOVES_CAP of them)."""
        key = bytes((*st[: K.UNSEEN], min(st[K.PILE], 10), st[K.PARTY], st[K.FINAL], st[K.RULESET], st[K.TOPV]))
        got = self._moves.get(key)
        if got is None:
            if len(self._moves) >= MOVES_CAP:
                self._moves.clear()
            buf, m = kernel_moves(st)
            got = self._moves[key] = (bytes(buf[: m * K.MOVE]), m)
        return got

    def replay(self, start: Table, steps: Sequence[Step]) -> Table:
        """The table after the search's steps from `start`, each taken by the driver; every draw
        must be the deck's."""
        t = start
        for step in steps:
            if isinstance(step, Draw) and self.deck.next_step(t) != step:
                raise GameError(f"the search drew {step.cards}, the deck gives {self.deck.next_step(t)}")
            t = advance(t, step)
        return t


# ---------------------------------------------------------------------------------------------
# vanguard: exact


def _between_key(t: Table) -> tuple[object, ...]:
    """What decides the rest of a vanguard game between two rounds (phase deal), once the pile's
    order is known: its size (and known top), the reserve and the party."""
    return ("between", t.pile_size, t.pile_top, _counts(t.reserve), t.party)


def _table_key(t: Table) -> object:
    if t.over:
        return t.result == WON
    if t.phase == REWARD or _reveal_before_reward(t):
        assert t.round is not None
        return ("reward", _vkey(vector(t.round)))
    return _between_key(t)


def _reveal_before_reward(t: Table) -> bool:
    """A round won with the top card visible: its new top card is turned up before the reward."""
    return t.phase == DRAW and t.round is not None and t.round.is_terminal


def _end_key(st: Vec) -> object:
    """The key of the table a vanguard round ending at st leads to (True or False when the end
    decides the game), from the vector alone, so that an end already proven lost costs no
    replay. The driver's table is checked against it whenever a new one is replayed."""
    if st[K.FINAL]:
        return st[K.OUTCOME] == K.WON
    party = _party(st)
    reserve = tuple(st[K.RESERVE : K.RESERVE + 10])
    if st[K.OUTCOME] == K.LOST:
        left = party_after_loss(party, sum(st[K.WOLF : K.WOLF + 10]))
        return ("between", st[K.PILE], _tops(st), reserve, left) if left else False
    if rewards(_values(st, K.HAND), party):
        return ("reward", _vkey(st))
    return ("between", st[K.PILE], _tops(st), reserve, party)


def _coverable_vec(st: Vec) -> bool:
    avail = tuple(st[K.HAND + i] + st[K.RESERVE + i] for i in range(10))
    return min_sacrifices(_values(st, K.WOLF), avail, max(0, K.active(st) - 1)) is not None


def _reward_rank(r: Reward) -> tuple[int, int]:
    """A member face up first, then the highest card into the reserve (only the search's order)."""
    return (0, 0) if r.kind == "revive" else (1, -(r.value or 0))


@dataclass
class _Line:
    """The choices of the winning line found, by the state (vector key) they are made at."""

    plays: dict[Key, Play] = field(default_factory=dict)
    rewards: dict[Key, Reward] = field(default_factory=dict)


class _Vanguard(_Search):
    """The exact search of one vanguard game over its known deck (the module docstring)."""

    def __init__(self, deck: SeededDeck, memo_cap: int) -> None:
        super().__init__(deck, memo_cap)
        self.lost: set[object] = set()
        self.line = _Line()

    def _lose(self, key: object) -> bool:
        if len(self.lost) >= self.memo_cap:
            self.lost.clear()
        self.lost.add(key)
        return False

    def solve(self, t: Table, budget: int) -> bool:
        """Whether the game can be won from t (OutOfBudget when the search runs out first); the
        winning line found is added to self.line."""
        self.left = budget
        return self._table(t)

    def _table(self, t: Table) -> bool:
        """Whether the game can be won from table t (any phase but over: then its result)."""
        if t.over:
            return t.result == WON
        if _reveal_before_reward(t):
            step = self.deck.next_step(t)
            assert step is not None
            self.tick()
            return self._table(advance(t, step))
        if t.phase in (PLAY, DRAW):
            assert t.round is not None
            return self._round(t, self.deck.pile(t), vector(t.round), [])
        if t.phase == REWARD:
            return self._reward(t)
        key = _between_key(t)
        if key in self.lost:
            return False
        step = self.deck.next_step(t)
        assert step is not None, f"the deck has no step for a table in phase {t.phase}"
        self.tick()
        return self._table(advance(t, step)) or self._lose(key)

    def _reward(self, t: Table) -> bool:
        s = t.round
        assert s is not None
        key = ("reward", _vkey(vector(s)))
        if key in self.lost:
            return False
        for reward in sorted(rewards(s.hand, s.party), key=_reward_rank):
            self.tick()
            if self._table(advance(t, Take(reward))):
                self.line.rewards[key[1]] = reward
                return True
        return self._lose(key)

    def _round(self, start: Table, pile: tuple[int, ...], st: Vec, path: list[_Taken]) -> bool:
        """Whether the game can be won from vector st of the round that `start` began (or was
        at); `path` holds the steps from start to st."""
        if st[K.OUTCOME]:
            return self._end(start, st, path)
        if st[K.FINAL]:
            if _coverable_vec(st):
                self._keep(path)
                return True
            return False
        if K.is_chance(st):
            cards = _drawn(pile, st)
            self.tick()
            child = [0] * K.STATE
            K.apply_draw(st, _row(cards), 0, child)
            path.append((st, cards))
            won = self._round(start, pile, child, path)
            path.pop()
            return won
        key = _vkey(st)
        if key in self.lost:
            return False
        buf, m = self.moves(st)
        for g in range(m):
            self.tick()
            child = [0] * K.STATE
            K.apply_move(st, buf, g * K.MOVE, child)
            path.append((st, _Row(buf, g * K.MOVE)))
            won = self._round(start, pile, child, path)
            path.pop()
            if won:
                return True
        return self._lose(key)

    def _end(self, start: Table, st: Vec, path: list[_Taken]) -> bool:
        """The round ended at st: on to the rest of the game from the driver's table."""
        key = _end_key(st)
        if isinstance(key, bool):
            if key:
                self._keep(path)
            return key
        if key in self.lost:
            return False
        t = self.replay(start, [_as_step(taken) for taken in path])
        assert _table_key(t) == key, f"the driver ends the round at {_table_key(t)}, the search at {key}"
        if self._table(t):
            self._keep(path)
            return True
        return self._lose(key)

    def _keep(self, path: list[_Taken]) -> None:
        for taken in path:
            step = _as_step(taken)
            if isinstance(step, Move):
                self.line.plays[_vkey(taken[0])] = step.play


# ---------------------------------------------------------------------------------------------
# lobo: a bounded search (the module docstring)


@dataclass(frozen=True)
class _End:
    """A way a lobo round can end: the points it scores (yours, the Wolf's), the table of the
    next round's start (points reset), and the steps that get there."""

    points: tuple[int, int]
    after: Table
    path: tuple[Step, ...]


class _Race(_Search):
    """The bounded search of one lobo game over its known deck (the module docstring).

    Tables here are probes (`_probe`): the points taken out, so a round's ends serve any score.
    `exact` says whether the values of the current decision rest only on rounds enumerated in
    full and lines within the horizon; each remembered value carries its own."""

    def __init__(self, deck: SeededDeck, memo_cap: int, round_cap: int, ahead: int) -> None:
        super().__init__(deck, memo_cap)
        self.round_cap = round_cap
        self.ahead = ahead
        self.target = 0
        self.exact = True
        self._ends: dict[object, tuple[tuple[_End, ...], bool]] = {}
        self._need: dict[tuple[object, int, int], tuple[int, bool]] = {}

    @staticmethod
    def _probe(t: Table) -> Table:
        """The table with the race taken out: no points, a target never reached. A round then
        always ends in a next round's start, whatever the scores."""
        return replace(t, setup=replace(t.setup, target=1 << 30), points=(0, 0))

    def choose(self, t: Table, budget: int) -> tuple[_End, int] | None:
        """The round end to play for from a real table in phase play, with its need (the game is
        won when the need is at most the Player's points); None when the budget runs out before
        the round itself is enumerated. Ties: the most points (yours minus the Wolf's)."""
        self.left = budget
        self.target = t.setup.target
        self.exact = True
        w = t.points[1]
        limit = t.reshuffles + self.ahead
        try:
            ends = self._round_ends(self._probe(t))
        except OutOfBudget:
            ends = ()
        if not ends:
            self.exact = False
            return None
        costed: list[tuple[int, int, _End]] = []
        try:
            for e in ends:
                costed.append((self._cost(e, w, limit), e.points[1] - e.points[0], e))
        except OutOfBudget:
            self.exact = False
            return max(ends, key=lambda e: e.points[0] - e.points[1]), self.target
        need, _, best = min(costed, key=lambda c: (c[0], c[1]))
        return best, need

    def _cost(self, e: _End, w: int, limit: int) -> int:
        """The points the Player must hold before the round to win by ending it at e."""
        dp, dw = e.points
        if dw:
            return self.target if w + dw >= self.target else self.need(e.after, w + dw, limit)
        return max(0, min(self.target, self.need(e.after, w, limit)) - dp)

    def need(self, t: Table, w: int, limit: int) -> int:
        """The fewest points the Player must hold at round start t (a probe between rounds) to
        win with the Wolf at w, looking no further than `limit` reshuffles (the target: never)."""
        if t.reshuffles + (t.phase == RESHUFFLE) > limit:
            self.exact = False
            return self.target
        key = (_start_key(t), w, limit)
        got = self._need.get(key)
        if got is None:
            outer, self.exact = self.exact, True
            best = self.target
            for e in self._starts(t):
                best = min(best, self._cost(e, w, limit))
                if best == 0:
                    break
            if len(self._need) >= self.memo_cap:
                self._need.clear()
            got = self._need[key] = (best, self.exact)
            self.exact = outer
        self.exact = self.exact and got[1]
        return got[0]

    def _remember(self, key: object, ends: tuple[_End, ...], full: bool) -> tuple[_End, ...]:
        if len(self._ends) >= self.memo_cap // 100:
            self._ends.clear()
        self._ends[key] = (ends, full)
        self.exact = self.exact and full
        return ends

    def _recall(self, key: object) -> tuple[_End, ...] | None:
        got = self._ends.get(key)
        if got is None:
            return None
        self.exact = self.exact and got[1]
        return got[0]

    def _starts(self, t: Table) -> tuple[_End, ...]:
        """The ends of the round that probe t (between rounds) starts."""
        key = _start_key(t)
        got = self._recall(key)
        if got is not None:
            return got
        u = t
        while u.phase not in (PLAY, DRAW):
            step = self.deck.next_step(u)
            assert step is not None
            self.tick()
            u = advance(u, step)
            if u.phase not in (PLAY, DRAW) and u.points != (0, 0):  # the Wolf was dealt no card: won at once
                return self._remember(key, (_End(u.points, replace(u, points=(0, 0)), ()),), True)
        return self._remember(key, self._round_ends(u), True)

    def _round_ends(self, start: Table) -> tuple[_End, ...]:
        """Every way the round of probe `start` (phase play or draw) can end, one per pile left
        and kind (won: the most points; lost: the fewest to the Wolf; no loss where a win leaves
        the same pile), each with its steps: at most round_cap states of the round are visited."""
        assert start.round is not None
        root = vector(start.round)
        key = ("round", start.reshuffles, _vkey(root))
        got = self._recall(key)
        if got is not None:
            return got
        walk = _Walk(self, self.deck.pile(start))
        walk.visit(root, None)
        ends = []
        for (left, tops, won), (score, end_key) in walk.best.items():
            if not won and (left, tops, True) in walk.best:
                continue  # a win leaving the same pile is better: the Player scores, not the Wolf
            path: list[Step] = []
            at = end_key
            while True:
                link = walk.parents[at]
                if link is None:
                    break
                at, taken = link
                path.append(_as_step(taken))
            path.reverse()
            after = self.replay(start, path)
            points = (score, 0) if won else (0, score)
            assert after.points == points, f"the driver scores the round {after.points}, the search {points}"
            ends.append(_End(points, replace(after, points=(0, 0)), tuple(path)))
        return self._remember(key, tuple(ends), not walk.truncated)


class _Walk:
    """One lobo round's states, depth first in the kernel's order of moves, each reached once
    (its first parent kept, to rebuild a path), at most the search's round_cap of them; for each
    pile left and kind of end, the best score reached (won: the most points; lost: the fewest)."""

    def __init__(self, search: _Race, pile: tuple[int, ...]) -> None:
        self.search = search
        self.pile = pile
        self.parents: dict[Key, tuple[Key, _Taken] | None] = {}
        self.best: dict[tuple[int, tuple[int, ...], bool], tuple[int, Key]] = {}
        self.states = 0
        self.truncated = False

    def visit(self, st: Vec, link: tuple[Key, _Taken] | None) -> None:
        here = _vkey(st)
        if here in self.parents:
            return
        self.parents[here] = link
        if st[K.OUTCOME]:
            won = st[K.OUTCOME] == K.WON
            score = K.value_of(st, K.HAND if won else K.WOLF)
            group = (st[K.PILE], _tops(st), won)
            old = self.best.get(group)
            if old is None or (score > old[0] if won else score < old[0]):
                self.best[group] = (score, here)
            return
        self.states += 1
        if self.states > self.search.round_cap:
            self.truncated = True
            return
        self.search.tick()
        if K.is_chance(st):
            cards = _drawn(self.pile, st)
            child = [0] * K.STATE
            K.apply_draw(st, _row(cards), 0, child)
            self.visit(child, (here, (st, cards)))
            return
        buf, m = self.search.moves(st)
        # Fold first: it ends the round at once, so a round cut short still has an end to offer.
        for g in (m - 1, *range(m - 1)):
            if self.truncated:
                return
            child = [0] * K.STATE
            K.apply_move(st, buf, g * K.MOVE, child)
            self.visit(child, (here, (st, _Row(buf, g * K.MOVE))))


def _start_key(t: Table) -> object:
    """What decides the rest of a lobo game between rounds, once the decks' orders are known
    (points apart): the phase (deal or reshuffle), the shuffle and the pile left of it."""
    return ("start", t.phase, t.reshuffles, t.pile_size, t.pile_top)


# ---------------------------------------------------------------------------------------------
# The policy


class ClairvoyantPolicy:
    """Plays knowing the pile's order (the module docstring): `see(deck)` first, once a game.

    `exact` says whether every choice of the game so far came from a search that finished
    (vanguard: it found a winning line or proved there is none; lobo: every round it met was
    enumerated in full and no line went past the horizon). `winnable` is the game's verdict
    once known: True as soon as a search finds a line that wins from where the game stands (it
    is then followed to the win), False when a search proves that none does and every choice
    before it was exact; None until then."""

    name = "clairvoyant"

    def __init__(
        self,
        budget: int = BUDGET,
        memo_cap: int = MEMO_CAP,
        round_cap: int = ROUND_CAP,
        reshuffles_ahead: int = RESHUFFLES_AHEAD,
    ) -> None:
        for what, n, least in (("budget", budget, 1), ("memo_cap", memo_cap, 100), ("round_cap", round_cap, 1)):
            if n < least:
                raise ValueError(f"{what}: at least {least}, not {n}")
        if reshuffles_ahead < 0:
            raise ValueError(f"reshuffles_ahead: at least 0, not {reshuffles_ahead}")
        self.budget = budget
        self.memo_cap = memo_cap
        self.round_cap = round_cap
        self.reshuffles_ahead = reshuffles_ahead
        self._deck: SeededDeck | None = None
        self._vanguard: _Vanguard | None = None
        self._race: _Race | None = None
        self._plan: dict[tuple[int, Key], Play] = {}  # lobo: by (reshuffles, state)
        self.exact = True
        self.winnable: bool | None = None

    def see(self, deck: SeededDeck) -> None:
        """The deck of the game about to be played (called once, before its first play)."""
        self._deck = deck
        self._vanguard = self._race = None
        self._plan = {}
        self.exact = True
        self.winnable = None

    @property
    def visited(self) -> int:
        """States the searches of this game have visited so far."""
        return sum(s.visited for s in (self._vanguard, self._race) if s is not None)

    def _seen(self) -> SeededDeck:
        if self._deck is None:
            raise ValueError("the clairvoyant policy plays only a game whose deck it was shown (see(deck) first)")
        return self._deck

    # -- vanguard

    def _solve(self, t: Table) -> _Line:
        if self._vanguard is None:
            self._vanguard = _Vanguard(self._seen(), self.memo_cap)
        search = self._vanguard
        try:
            won = search.solve(t, self.budget)
        except OutOfBudget:
            self.exact = False
        else:
            if self.winnable is None and (won or self.exact):
                self.winnable = won  # "lost" from here is the game's verdict only if every choice was exact
        return search.line

    def play(self, table: Table, rng: random.Random) -> Play:
        s = _state(table, PLAY)
        if game_of(s.game).is_race:
            return self._race_play(table, s)
        if s.final:
            return finish_play(s)
        key = _vkey(vector(s))
        line = self._vanguard.line if self._vanguard is not None else None
        if line is None or key not in line.plays:
            line = self._solve(table)
        got = line.plays.get(key)
        return got if got is not None else greedy_play(s)

    def reward(self, table: Table, rng: random.Random) -> Reward:
        s = _state(table, REWARD)
        key = _vkey(vector(s))
        line = self._vanguard.line if self._vanguard is not None else None
        if line is None or key not in line.rewards:
            line = self._solve(table)
        got = line.rewards.get(key)
        if got is not None:
            return got
        return greedy_reward(s)

    # -- lobo

    def _race_play(self, table: Table, s: State) -> Play:
        key = (table.reshuffles, _vkey(vector(s)))  # the same state after a reshuffle has another pile
        if key in self._plan:
            return self._plan[key]
        if self._race is None:
            self._race = _Race(self._seen(), self.memo_cap, self.round_cap, self.reshuffles_ahead)
        race = self._race
        chosen = race.choose(table, self.budget)
        self.exact = self.exact and race.exact
        if chosen is None:
            return greedy_play(s)
        end, need = chosen
        if self.winnable is None and (need <= table.points[0] or self.exact):
            # A line that wins is followed from here on; "no line wins" holds for the whole game
            # only when every choice before this one was exact too.
            self.winnable = need <= table.points[0]
        # The plan: the play at each decision of the line to the chosen end, as the driver plays it.
        self._plan = {}
        t = table
        for step in end.path:
            if isinstance(step, Move):
                assert t.round is not None
                self._plan[t.reshuffles, _vkey(vector(t.round))] = step.play
            t = advance(t, step)
        return self._plan[key]


def _state(table: Table, phase: str) -> State:
    if table.phase != phase or table.round is None:
        raise ValueError(f"the table waits for a {table.phase}, not a {phase}")
    return table.round


__all__ = [
    "BUDGET",
    "MEMO_CAP",
    "RESHUFFLES_AHEAD",
    "ROUND_CAP",
    "ClairvoyantPolicy",
    "OutOfBudget",
    "coverable",
    "finish_play",
]
